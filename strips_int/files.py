"""Reading input files, with errors that name the file (and, for JSON, the line and column); writing
output files whole (:func:`atomic_open`), with errors that name the file.

Input can be hostile or broken, so reading is bounded, and the bounds are checked before a byte is
read: only regular files (a device such as ``/dev/zero`` or a FIFO never ends), at most
:data:`MAX_INPUT_BYTES` (by size, :func:`regular_file`), UTF-8 text, JSON nested at most
:data:`MAX_JSON_DEPTH` deep. JSON is parsed (never evaluated) by orjson where it is installed, else
by :mod:`json` held to the same rules (no NaN or Infinity, integers beyond 64 bits as floats).

An output path must be absent or a regular file (:func:`output_file`): opening a FIFO to write waits
for a reader forever. A failed write (a full disk) is one error naming the file, not a bare OSError.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import stat
from pathlib import Path
from typing import IO, Any, Iterator

from .errors import StripsIntError

try:
    import orjson
except ImportError:  # optional: json does the same, a little slower
    orjson = None

#: The largest input file read (256 MiB). Real games are under 1 MB and traces of
#: 100,000 steps about 10 MB; parsed JSON takes several times its bytes in memory,
#: so this keeps one bad file from exhausting a worker's memory.
MAX_INPUT_BYTES = 256 * 2**20
#: The deepest JSON nesting read. Game formats nest under 10 levels; orjson
#: 3.8 crashes the process (stack overflow) near a million levels, :mod:`json`
#: raises RecursionError near 1,000, and Python code that walks values
#: recursively (``json.dumps`` of a trace's meta) must stay under the interpreter's
#: recursion limit of 1,000 with room for its own frames.
MAX_JSON_DEPTH = 500

_KEEP = bytes(range(256)).translate(None, b'[]{}"\\')  # every byte but brackets, quotes and backslashes
_AS_SQUARE = bytes.maketrans(b"{}", b"[]")
_PEEL_PASSES = 16  # enough to empty the bracket skeleton of any real game file


def read_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (:data:`MAX_INPUT_BYTES`); anything else is
    an error naming it."""
    source = str(path)
    limit = MAX_INPUT_BYTES if limit is None else limit
    try:  # non-blocking, so opening a FIFO does not wait for a writer; the checks are on what was opened
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise StripsIntError(source, None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        status = os.fstat(fd)
        _check_mode(source, status.st_mode)
        if status.st_size > limit:
            raise StripsIntError(source, None, f"cannot read: larger than {limit / 2**20:g} MiB")
        data = _read_rest(fd, status.st_size, limit)
    except OSError as exc:
        raise StripsIntError(source, None, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while being read
        raise StripsIntError(source, None, f"cannot read: larger than {limit / 2**20:g} MiB")
    return data


def _read_rest(fd: int, size: int, limit: int) -> bytes:
    """What is left to read of ``fd``, up to ``limit`` + 1 bytes: the ``size`` fstat gave and a byte more,
    a byte to see the end, and on while the file goes on (it grew, or a read came back short). Each read
    allocates what it asks for: one of the limit cost 0.1 ms a file."""
    data = os.read(fd, size + 1)
    step = 1
    while len(data) <= limit and (more := os.read(fd, min(limit + 1 - len(data), step))):
        data += more
        step = max(size, 1 << 16)
    return data


def regular_file(path: str | Path, limit: int | None = None) -> int:
    """The size of ``path``, which must be a regular file (of at most ``limit`` bytes, when given), checked
    before a byte is read: recognizers sniff a file's first bytes, a device such as ``/dev/zero`` or a FIFO
    would never end (or never begin), and a 10 GB file is refused by its size, not read to find it."""
    try:
        status = os.stat(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise StripsIntError(str(path), None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    _check_mode(str(path), status.st_mode)
    if limit is not None and status.st_size > limit:
        raise StripsIntError(str(path), None, f"cannot read: larger than {limit / 2**20:g} MiB")
    return status.st_size


def read_head(path: str | Path, size: int) -> bytes:
    """At most the first ``size`` bytes of a regular file (what a recognizer sniffs), however large it is."""
    regular_file(path)
    with open(path, "rb", buffering=0) as handle:
        return handle.read(size)


def _check_mode(source: str, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise StripsIntError(source, None, "cannot read: is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise StripsIntError(source, None, "cannot read: not a regular file (a device, FIFO or socket)")


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text; a byte that is not names its line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise StripsIntError(source, f"line {line}", f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from None


def read_text(path: str | Path, limit: int | None = None) -> str:
    """The file's UTF-8 text (see :func:`read_bytes`); an unreadable file is a :class:`StripsIntError` naming it."""
    return decode(read_bytes(path, limit), str(path))


def read_json(path: str | Path, mentioning: bytes | None = None) -> Any:
    """The file's parsed JSON (parsed, never evaluated); malformed JSON names line and column.

    With ``mentioning``, a file whose bytes do not contain it is None, unparsed: recognizing
    a format costs a substring search for the files that cannot be it.
    """
    raw = read_bytes(path)
    if mentioning is not None and mentioning not in raw:
        return None
    return parse_json(raw, str(path))


def parse_json(raw: bytes | str, source: str) -> Any:
    """JSON text or bytes parsed within this module's limits; any failure is a :class:`StripsIntError`."""
    text = decode(raw, source) if isinstance(raw, bytes) else raw
    if _nesting(text.encode() if isinstance(raw, str) else raw) > MAX_JSON_DEPTH:
        raise StripsIntError(source, None, f"malformed JSON: nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        with collector_paused():
            if orjson is not None:
                return orjson.loads(text)
            return json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:  # orjson's error is a subclass
        message = exc.msg.replace("str is not valid UTF-8: surrogates not allowed", "a \\u escape is a lone surrogate")
        raise StripsIntError(source, f"line {exc.lineno}, column {exc.colno}", f"malformed JSON: {message}") from None
    except ValueError as exc:  # from json's number hooks, which know no position
        raise StripsIntError(source, None, f"malformed JSON: {exc}") from None


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside: decoding makes millions of containers and no reference cycle, and the
    collections their count sets off walk every object made so far (on a 100,000-step game, most of the
    decoding time). The collector is as it was afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _integer(digits: str) -> int | float:
    """json's integer hook: an integer beyond 64 bits is a float, as orjson reads it (and Python
    refuses to convert one of over 4,300 digits)."""
    if len(digits) <= 20 and -(2**63) <= int(digits) < 2**64:
        return int(digits)
    return _finite(float(digits))


def _float(digits: str) -> float:
    """json's float hook: one beyond a double's range is refused, as orjson does."""
    return _finite(float(digits))


def _finite(value: float) -> float:
    if value in (float("inf"), float("-inf")):
        raise ValueError("number is infinity when parsed as double")
    return value


def _no_constant(name: str) -> float:
    """json's hook for NaN and Infinity, which are not JSON (orjson refuses them too)."""
    raise ValueError(f"{name} is not a JSON value")


def _nesting(raw: bytes) -> int:
    """An upper bound of the bracket nesting of JSON ``raw``, exact for well-formed JSON.

    By hand, before parsing, since orjson has no depth limit: the brackets outside
    strings are peeled pair by innermost pair, a few C-speed passes for real files;
    what is left after them (only in deep or damaged files) is measured by prefix sums.
    """
    skeleton = raw.translate(None, _KEEP)  # brackets, quotes and backslashes only
    if skeleton.count(b"[") + skeleton.count(b"{") <= MAX_JSON_DEPTH:
        return 0
    if b"\\" in skeleton:  # escapes: \\ first, then \" (no quote), then lone ones (\n, \u...)
        skeleton = skeleton.replace(b"\\\\", b"").replace(b'\\"', b"").replace(b"\\", b"")
    skeleton = skeleton.replace(b'""', b"")  # strings with no brackets in them (and gaps without any)
    if b'"' in skeleton:
        skeleton = b"".join(skeleton.split(b'"')[::2])  # what lies outside strings
    skeleton = skeleton.translate(_AS_SQUARE)
    for passes in range(_PEEL_PASSES):
        if skeleton.count(b"[") + passes <= MAX_JSON_DEPTH:
            return 0
        skeleton = skeleton.replace(b"[]", b"")
    import numpy  # only for deep or damaged files

    steps = 92 - numpy.frombuffer(skeleton, dtype=numpy.uint8).astype(numpy.int64)  # "[" (91) is +1, "]" (93) -1
    return _PEEL_PASSES + int(numpy.cumsum(steps).max(initial=0))


def output_file(path: str | Path, folder: bool = False, parent: bool = False) -> None:
    """Raise unless ``path`` can be written as a file without waiting: absent or a regular file (or, with
    ``folder``, a folder to write into). A FIFO would block the writer until some reader opens it, which
    may be never; a device or socket is no file to write a table or figure into. With ``parent`` (for a
    writer that creates no folders) the folder it goes in must be one already."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        if parent and not Path(path).parent.is_dir():
            raise StripsIntError(str(path), None, f"cannot write: no folder {Path(path).parent}") from None
        return
    except OSError:  # not to be looked at: then opening it fails at once, and says why
        return
    except ValueError as exc:  # a NUL in the path
        raise StripsIntError(str(path), None, f"cannot write: {exc}") from None
    if stat.S_ISDIR(mode) and not folder:
        raise StripsIntError(str(path), None, "cannot write: is a folder, not a file")
    if not stat.S_ISDIR(mode) and not stat.S_ISREG(mode):
        raise StripsIntError(str(path), None, "cannot write: not a regular file (a FIFO, device or socket)")


def cannot_write(path: str | Path, exc: OSError) -> StripsIntError:
    """An OSError while writing ``path`` (a full disk, no permission, a file where a folder should be) as the
    error naming it (and the other file the system names, when that is not ``path``)."""
    other = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(path) else ""
    return StripsIntError(str(path), None, f"cannot write: {exc.strerror or type(exc).__name__}{other}")


class Writer:
    """A text file open for writing whose failures (a full disk) are :func:`cannot_write` errors naming it."""

    def __init__(self, handle: IO[str], path: Path) -> None:
        self._handle = handle
        self.path = path

    def write(self, text: str) -> int:
        try:
            return self._handle.write(text)
        except OSError as exc:
            raise cannot_write(self.path, exc) from None

    def flush(self) -> None:
        try:
            self._handle.flush()
        except OSError as exc:
            raise cannot_write(self.path, exc) from None


@contextlib.contextmanager
def writer(path: Path, mode: str = "w", shown: Path | None = None, newline: str | None = None) -> Iterator[Writer]:
    """``path`` open as UTF-8 text (``mode`` ``w`` or ``a``) in a :class:`Writer`, closed however the block
    ends; errors name ``shown`` (default ``path``). Text UTF-8 cannot carry (a lone surrogate, which JSON
    input may hold) is written as its escape."""
    shown = path if shown is None else shown
    try:
        handle = open(path, mode, encoding="utf-8", errors="backslashreplace", newline=newline)
    except OSError as exc:
        raise cannot_write(shown, exc) from None
    try:
        yield Writer(handle, shown)
        try:
            handle.close()  # flushes what is buffered: a full disk may first show here
        except OSError as exc:
            raise cannot_write(shown, exc) from None
    finally:
        with contextlib.suppress(OSError):  # after a failure: the first error is the one to tell
            handle.close()


@contextlib.contextmanager
def atomic_open(path: Path, newline: str | None = None) -> Iterator[Writer]:
    """A UTF-8 text file written under a temporary name in ``path``'s folder and renamed to ``path``
    when the block ends without an exception (removed when it raises, interruptions included).
    ``path`` must be absent or a regular file, in a folder (:func:`output_file`); a failed write names it."""
    output_file(path, parent=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with writer(temporary, shown=path, newline=newline) as handle:
            yield handle
        try:
            os.replace(temporary, path)
        except OSError as exc:
            raise cannot_write(path, exc) from None
    finally:
        temporary.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    with atomic_open(path) as handle:
        handle.write(text)
