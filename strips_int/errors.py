"""The one exception strips_int raises for bad input, with where it happened; the checks of a public
function's arguments; how input text is shown."""

from __future__ import annotations

import math
import numbers
import os
import re
from pathlib import Path
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")


class StripsIntError(Exception):
    """Bad input: names the file, the place in it (line or step) and what is wrong.

    ``str(error)`` is a single line meant for the user, e.g.
    ``trace.json: step 3 (t=4, agent nurse1): (treat ...) is not applicable: ...``.
    """

    def __init__(self, source: str, where: str | None, message: str) -> None:
        self.source = source
        self.where = where
        self.message = message
        place = f"{source}: {where}" if where else source
        super().__init__(printable(f"{place}: {message}"))  # one line, whatever the file's name holds


class ArgumentError(StripsIntError, ValueError):
    """A Python caller's argument outside what a function takes (``required_cooperation(timeout=-1)``): one
    line naming the function, the argument and what it needs; a ValueError too, as Python's own checks are."""

    def __init__(self, function: str, argument: str, need: str, value: object) -> None:
        super().__init__(function, f"argument {argument}", f"need {need}, not {brief(value)}")


def argument(function: str, name: str, value: T, ok: bool, need: str) -> T:
    """``value`` when ``ok``, else an :class:`ArgumentError` of ``function``'s argument ``name`` saying what it
    needs: the one check at a public function's entry, so a wrong argument is never a TypeError or
    AttributeError from deep inside."""
    if not ok:
        raise ArgumentError(function, name, need, value)
    return value


#: The longest path and file name a path argument may have (Linux's PATH_MAX and NAME_MAX, in bytes).
MAX_PATH, MAX_NAME = 4096, 255


def path_argument(function: str, name: str, value: object, need: str = "a path") -> Path:
    """``value`` as a :class:`~pathlib.Path`: a str or path-like object naming a path (not empty, no NUL,
    within :data:`MAX_PATH` bytes and each name within :data:`MAX_NAME`); else an :class:`ArgumentError`
    saying ``need`` (what else the argument may be, for one that takes more than paths). Whether the file
    exists and can be read is the reader's check (a :class:`StripsIntError` naming it)."""
    text = value if isinstance(value, str) else os.fspath(value) if isinstance(value, os.PathLike) else None
    ok = (isinstance(text, str) and text != "" and "\x00" not in text
          and len(text.encode(errors="surrogateescape")) <= MAX_PATH
          and all(len(part.encode(errors="surrogateescape")) <= MAX_NAME for part in text.split("/")))
    argument(function, name, value, ok, f"{need} (str or os.PathLike, not empty, no NUL, at most {MAX_PATH} bytes "
             f"and {MAX_NAME} a name)")
    return Path(text)  # type: ignore[arg-type]


def number_argument(function: str, name: str, value: object, low: float, high: float = math.inf, *,
                    above: bool = False, whole: bool = False, optional: bool = False) -> object:
    """``value`` when it is a finite number from ``low`` (above it when ``above``) to ``high`` (a whole number
    when ``whole``; or None when ``optional``), else an :class:`ArgumentError`."""
    kind = numbers.Integral if whole else numbers.Real
    ok = (optional and value is None) or (
        isinstance(value, kind) and not isinstance(value, bool) and math.isfinite(value)  # type: ignore[arg-type]
        and (value > low if above else value >= low) and value <= high)  # type: ignore[operator]
    need = (f"{'a whole number' if whole else 'a finite number'} {'above' if above else 'at least'} {low:g}"
            + (f" and at most {high:g}" if high < math.inf else "") + (" or None" if optional else ""))
    return argument(function, name, value, ok, need)


def of_type(function: str, name: str, value: T, kind: type | tuple[type, ...], need: str) -> T:
    """``value`` when it is an instance of ``kind``, else an :class:`ArgumentError` saying ``need``."""
    return argument(function, name, value, isinstance(value, kind), need)


#: Control characters (C0, tab and line breaks included, DEL, C1) and Unicode's line and paragraph separators:
#: a line break would make one line two, a terminal acts on an escape sequence, XML holds almost none of them,
#: and no font draws them.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: object) -> str:
    """Text from the input shown as it is, on one line: its control characters as their escapes (``\\n``,
    ``\\x1b``), the rest untouched. The one rule for input text in error lines, the text report, figures, the
    HTML report and GraphML (what each format must escape besides, such as ``<`` in HTML, is the writer's)."""
    text = str(text)
    return _CONTROL.sub(lambda found: repr(found.group())[1:-1], text) if _CONTROL.search(text) else text


def brief(value: object, limit: int = 60) -> str:
    """A bounded description of an input value for an error message.

    Never the whole value: input can be unbounded (a 60-level list sharing its halves
    has a repr 2**60 items long), so containers are named by kind and size, long
    strings and numbers are cut.
    """
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if abs(value) < 10**20 else "a number with more than 20 digits"
    if isinstance(value, (str, bytes)):
        text = repr(value[:limit])
        return text if len(value) <= limit else f"{text[:-1]}...{text[-1]} ({len(value)} characters)"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    return f"a {type(value).__name__}"


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice a mistyped ``word`` most likely meant (difflib, similarity 0.6 or more), for a "did you
    mean" in an error; None when none is close. (difflib is imported here: only errors need it.)"""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def cut(text: str, limit: int = 80) -> str:
    """Text for a message that may hold long input (a PDDL formula, a name), cut to ``limit``
    characters so the message stays one short line. Unquoted, unlike :func:`brief`."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


#: How much of an unexpected exception's text an error message keeps.
INTERNAL_LIMIT = 200


def internal_error(source: str, where: str | None, exc: Exception) -> StripsIntError:
    """An exception that is not a :class:`StripsIntError` (a grounder's or the analysis's bug, a
    RecursionError or MemoryError on hostile input) as one, bounded to :data:`INTERNAL_LIMIT` characters.

    Only built-in exceptions' own messages are used (OSError, UnicodeDecodeError: bounded by
    construction); otherwise the arguments are described with :func:`brief`,
    since ``str`` of an exception repeats any input value it holds (a KeyError's key, unbounded).
    """
    if isinstance(exc, StripsIntError):
        return exc
    if type(exc).__module__ == "builtins" and type(exc).__str__ is not BaseException.__str__ \
            and not isinstance(exc, KeyError):
        text = str(exc)[:INTERNAL_LIMIT]
    else:
        text = ", ".join(a[:INTERNAL_LIMIT] if type(a) is str and not isinstance(exc, KeyError) else brief(a)
                         for a in exc.args)
    message = " ".join(f"internal error: {type(exc).__name__}{': ' if text else ''}{text}".split())
    return StripsIntError(source, where, message if len(message) <= INTERNAL_LIMIT else message[:INTERNAL_LIMIT - 3] + "...")


def guarded(source: str, where: str, work: Callable[[], T]) -> T:
    """``work()``; any exception but a StripsIntError (a bug, or hostile input the analysis did not foresee)
    raised as ``source``'s internal error at ``where``, so that one input costs only itself."""
    try:
        return work()
    except StripsIntError:
        raise
    except Exception as exc:
        raise internal_error(source, where, exc) from None
