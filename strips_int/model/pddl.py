"""Reading PDDL text with `pddl` (lark): its parsers, built once per process, and its errors as ours.

Every failure of the parser is a :class:`~strips_int.errors.StripsIntError` naming
the file and, for a syntax error, the line and column, without echoing the input.
"""

from __future__ import annotations

import functools
import re
import sys
from typing import Any, Iterable

from strips_int.errors import StripsIntError, cut

from .published import OBJECT_STAND_IN

#: The largest PDDL file read (2 MiB, some 60,000 facts). pddl's parser takes about 5 s of CPU
#: per MiB of dense PDDL, so this keeps any file to seconds; real domains are a few KB.
MAX_PDDL_BYTES = 2 * 2**20
#: The type every object has (PDDL's built-in root type).
ROOT_TYPE = "object"
#: A PDDL name as pddl's grammar lexes it (at most 200 characters here, so messages stay short).
PDDL_NAME = re.compile(r"[a-zA-Z][a-zA-Z0-9_-]{0,199}\Z")

@functools.cache
def domain_parser():
    """Building a lark parser takes ~0.1 s; build it once per process (pddl is imported only to parse)."""
    from pddl.parser.domain import DomainParser

    return DomainParser()


@functools.cache
def problem_parser():
    """Building a lark parser takes ~0.1 s; build it once per process."""
    from pddl.parser.problem import ProblemParser

    return ProblemParser()


#: How a syntax error names the grammar's terminals that stand for input text (never echoed).
_TERMINALS = {"NAME": "a name", "NUMBER": "a number", "$END": "the end of the file", "LPAR": "'('", "RPAR": "')'"}
#: How the constructs of the other requirements pddl checks for look in PDDL text.
_WRITTEN = {"equality": "(= ...)", "negative-preconditions": "(not ...) in a precondition", "typing": "types"}
#: What each PDDL requirement that pddl asks for adds beyond STRIPS, for the error that names it.
_NOT_STRIPS = {
    "disjunctive-preconditions": "(or ...)", "existential-preconditions": "(exists ...)",
    "universal-preconditions": "(forall ...)", "quantified-preconditions": "(exists ...) or (forall ...)",
    "conditional-effects": "(when ...)", "numeric-fluents": "numbers", "fluents": "numbers",
}


_DEFINES = re.compile(rb"\(\s*define\s*\(\s*(domain|problem)\b", re.IGNORECASE)
_COMMENT = re.compile(rb";[^\n]*")


def defines(head: bytes) -> str | None:
    """What a PDDL file defines, from its first bytes: ``"domain"``, ``"problem"``, or None (not PDDL)."""
    found = _DEFINES.match(_COMMENT.sub(b"", head).lstrip())
    return found.group(1).decode().lower() if found else None


def parse(parser, text: str, source: str):
    """Parse with a cached `pddl` parser; every failure of the parser is a :class:`StripsIntError`.

    pddl's transformer keeps state between calls (declared types, constants,
    predicates), and a failed parse leaves it half-set so that every later parse
    fails: it is reset before each call. pddl also sets ``sys.tracebacklimit``
    to 0 while parsing and leaves it so when parsing fails: it is put back.
    """
    import lark
    from pddl.exceptions import PDDLError, PDDLMissingRequirementError

    parser._transformer.__init__()
    limit = getattr(sys, "tracebacklimit", None)
    try:
        return parser(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise StripsIntError(source, f"line {exc.line}, column {exc.column}", _syntax_error(exc)) from None
    except PDDLMissingRequirementError as exc:
        raise StripsIntError(source, None, _missing_requirement(str(exc))) from None
    except RecursionError:
        raise StripsIntError(source, None, "invalid PDDL: nested too deeply") from None
    except PDDLError as exc:
        raise StripsIntError(source, None, f"invalid PDDL: {_pddl_message(str(exc))}") from None
    except Exception as exc:  # lark's other errors, pddl's asserts, and whatever Python raises inside them
        raise StripsIntError(source, None, f"invalid PDDL ({type(exc).__name__}): {_pddl_message(str(exc))}") from None
    finally:
        if limit is not None:
            sys.tracebacklimit = limit
        elif hasattr(sys, "tracebacklimit"):
            del sys.tracebacklimit


def _syntax_error(exc) -> str:
    """A lark syntax error described, never echoing the input (a problem path may name any file)."""
    token = getattr(exc, "token", None)
    if token is not None:
        keyword = not token.type.startswith("_") and len(token) <= 30  # a grammar literal, not input text
        found = _TERMINALS.get(token.type) or (f"'{token}'" if keyword else "a symbol")
    else:
        char = getattr(exc, "char", "")
        found = (f"character {char!r}" if char.isascii() and char.isprintable()
                 else f"character U+{ord(char):04X}" if char else "input")
    expected = sorted(_TERMINALS.get(name, name.lower().replace("_", "-")) for name in getattr(exc, "expected", ()) or ())
    wanted = f" where {' or '.join(expected)} should be" if 0 < len(expected) <= 4 else ""
    return f"syntax error: found {found}{wanted}"


def _missing_requirement(message: str) -> str:
    match = re.search(r":([\w-]+)", message)
    requirement = match.group(1) if match else ""
    if requirement in _NOT_STRIPS:
        return (f"uses {_NOT_STRIPS[requirement]}, which is not STRIPS: strips_int reads preconditions and goals "
                f"that are conjunctions of literals (and :{requirement} is not declared either)")
    return (f"invalid PDDL: uses {_WRITTEN.get(requirement, 'a feature of :' + requirement)} without declaring "
            f":{requirement} in (:requirements ...)")


def _pddl_message(text: str) -> str:
    """pddl's message, bounded: its first line, without the token list some messages start with."""
    line = text.strip().splitlines()[0] if text.strip() else "no details"
    if line.startswith("error while parsing tokens") and "]: " in line:
        line = line.rsplit("]: ", 1)[1]
    return cut(line, 200)


def unique(source: str, kind: str, pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """``pairs`` as a dict; a name given twice is an error (pddl lets some through, and names
    that differ only in case become one when lower-cased)."""
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise StripsIntError(source, f"{kind} {cut(name)}", "declared twice (PDDL names are case-insensitive)")
        found[name] = value
    return found


def types_of(tags) -> frozenset[str]:
    """The types of a `pddl` term's type tags, lower-case (``object`` when it has none, or the stand-in
    :data:`~strips_int.model.published.OBJECT_STAND_IN`)."""
    found = frozenset(str(t).lower() for t in tags) or frozenset({ROOT_TYPE})
    return found if OBJECT_STAND_IN not in found else found - {OBJECT_STAND_IN} | {ROOT_TYPE}


def single_type(tags) -> str:
    return min(types_of(tags))


def conjuncts(formula) -> list:
    """The conjuncts of a `pddl` formula, nested ``and`` flattened (a loop: nesting can be deep)."""
    from pddl.logic.base import And

    found, pending = [], [formula]
    while pending:
        item = pending.pop()
        if isinstance(item, And):
            pending.extend(reversed(item.operands))
        elif item is not None:
            found.append(item)
    return found


