"""``.npz`` archives read within bounds: only the arrays asked for, each checked before it is decompressed.

Written by hand because ``np.load`` has no bound: it decompresses any member
whole, and zipfile's bzip2 and lzma readers inflate a whole chunk at once (a
4.7 KB bzip2 member took 1.9 GB; a 12 KB deflate one ran to 10 GiB). Here
the file's size is checked first, then each wanted member's compression (what
numpy writes: stored or deflate) and declared size (all of them together
within the input limit); zipfile stops a member at its declared size and
checks its CRC, so an actual size larger than the declared one is an error,
and the ``.npy`` header's shape must fit the bytes read before an array is
made. Members not asked for are never decompressed.
"""

from __future__ import annotations

import io
import math
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

from strips_int.errors import StripsIntError, brief
from strips_int.files import MAX_INPUT_BYTES, regular_file

if TYPE_CHECKING:
    import numpy as np

#: How a file that ``np.load`` opens as an .npz archive begins: a zip's first local header, or an empty zip.
ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")
#: The compressions numpy writes (``np.savez``: stored, ``np.savez_compressed``: deflate).
NUMPY_COMPRESSION = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_METHODS = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma"}
#: What reading a damaged or foreign archive raises: zipfile's and zlib's errors, and numpy's ``.npy``
#: header parser (ast, tokenize) raises assorted types on damaged bytes, so any Exception.
_UNREADABLE = Exception
T = TypeVar("T")


def first_member(head: bytes) -> bytes:
    """The name of the first member of the zip archive that begins with ``head`` (its first local header
    says it), or b"" when it begins otherwise (an empty archive has no member)."""
    if head[:4] != ZIP_STARTS[0] or len(head) < 30:
        return b""
    return head[30:30 + int.from_bytes(head[26:28], "little")]


def starts_as_npz(path: Path) -> bool:
    """Whether ``path`` begins as ``np.load`` requires of an .npz archive (never raises)."""
    try:
        with open(path, "rb", buffering=0) as handle:
            return handle.read(4) in ZIP_STARTS
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return False


def npz_members(path: Path, data: bytes | None = None) -> frozenset[str]:
    """The names of an .npz archive's members as ``np.load`` gives them (without ``.npy``); none when
    ``path`` (or its bytes ``data``, already read) is no readable zip (never raises; nothing is decompressed)."""
    try:
        with zipfile.ZipFile(path if data is None else io.BytesIO(data)) as archive:
            return frozenset(info.filename.removesuffix(".npy") for info in archive.infolist())
    except _UNREADABLE:
        return frozenset()


def read_npz(path: Path, names: Iterable[str], limit: int = MAX_INPUT_BYTES, data: bytes | None = None
             ) -> dict[str, np.ndarray]:
    """The arrays ``names`` that the .npz archive ``path`` holds (by ``np.load``'s names: the member's
    name without ``.npy``), with its other members left compressed; anything unreadable, or more than
    ``limit`` bytes unpacked, is an error naming the file (and the member). ``data``: the file's bytes,
    already read (a recognizer's :meth:`~..base.Head.whole`)."""
    return _each_member(path, names, limit, _member_array, data)


def npz_lengths(path: Path, names: Iterable[str]) -> dict[str, int]:
    """The first-axis length of each array ``names`` of the .npz archive ``path`` holds, read from its
    ``.npy`` header alone (a few KiB decompressed at most), so that a bound on a rollout's length is
    checked before its arrays are unpacked; a 0-d array's length is 1. Errors as :func:`read_npz`."""
    return _each_member(path, names, MAX_INPUT_BYTES, _member_length)


def _each_member(path: Path, names: Iterable[str], limit: int,
                 read: Callable[[zipfile.ZipFile, str, zipfile.ZipInfo, str], T], data: bytes | None = None
                 ) -> dict[str, T]:
    """``read`` of each member ``names`` of the .npz archive ``path`` (or its bytes ``data``) that it holds,
    after the checks of :func:`_check_members`; anything unreadable is an error naming the file."""
    source = str(path)
    if data is None:
        regular_file(path, limit)
    if not (starts_as_npz(path) if data is None else data[:4] in ZIP_STARTS):
        raise StripsIntError(source, None, "cannot read as a numpy .npz archive: it does not begin as a zip archive")
    try:
        with zipfile.ZipFile(path if data is None else io.BytesIO(data)) as archive:
            members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
            chosen = {name: members[name] for name in names if name in members}
            _check_members(chosen, source, limit)
            return {name: read(archive, name, info, source) for name, info in chosen.items()}
    except StripsIntError:
        raise
    except _UNREADABLE as exc:
        raise StripsIntError(source, None, f"cannot read as a numpy .npz archive: {exc}") from None


#: The bytes of an .npy member read for its header: numpy pads its headers to 64 bytes, and writes
#: longer ones only for arrays of very many dimensions or fields.
_HEAD_BYTES = 4096


def _check_members(chosen: dict[str, zipfile.ZipInfo], source: str, limit: int) -> None:
    """What is checked before a byte is decompressed: each member is an .npy file as numpy writes it,
    and all together declare at most ``limit`` bytes."""
    for name, info in chosen.items():
        if not info.filename.endswith(".npy"):
            raise StripsIntError(source, f"member {name!r}", "not a numpy array (no .npy file)")
        if info.compress_type not in NUMPY_COMPRESSION:
            method = _METHODS.get(info.compress_type, f"method {info.compress_type}")
            raise StripsIntError(source, f"member {name!r}", f"compressed with {method}, which numpy never "
                                 "writes (np.savez stores, np.savez_compressed deflates)")
    total = sum(info.file_size for info in chosen.values())
    if total > limit:
        raise StripsIntError(source, None, f"its arrays declare {total / 2**20:,.0f} MiB unpacked, more than the "
                             f"{limit / 2**20:g} MiB input limit")


def _member_length(archive: zipfile.ZipFile, name: str, info: zipfile.ZipInfo, source: str) -> int:
    """One member's first-axis length (1 for a 0-d array), from the first bytes of the member alone."""
    import numpy.lib.format as npy

    with archive.open(info) as stream:
        head = stream.read(_HEAD_BYTES)
    buffer = io.BytesIO(head)
    shape, dtype = _header(npy, buffer, head, name, source)
    _check_fit(shape, dtype, info.file_size - buffer.tell(), name, source)
    return shape[0] if shape else 1


def _member_array(archive: zipfile.ZipFile, name: str, info: zipfile.ZipInfo, source: str) -> np.ndarray:
    """One member's array, read up to its declared size and made only when its header's shape fits."""
    import numpy.lib.format as npy

    with archive.open(info) as stream:  # stops at the declared size, then checks the CRC
        data = stream.read(info.file_size)
    if len(data) != info.file_size:
        raise StripsIntError(source, f"member {name!r}", f"holds {len(data)} bytes, declares {info.file_size}")
    buffer = io.BytesIO(data)
    shape, dtype = _header(npy, buffer, data, name, source)
    _check_fit(shape, dtype, len(data) - buffer.tell(), name, source)
    buffer.seek(0)
    return npy.read_array(buffer, allow_pickle=False)


def _header(npy: Any, buffer: io.BytesIO, data: bytes, name: str, source: str) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype an .npy member's header (``buffer`` at its start, ``data`` its bytes) declares;
    a header numpy cannot read, or an array of Python objects, is an error naming the member."""
    version = npy.read_magic(buffer)
    read_header = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}.get(version)
    if read_header is None:
        raise StripsIntError(source, f"member {name!r}", f".npy format version {version} is not read (1.0, 2.0 are)")
    try:
        shape, _, dtype = read_header(buffer)
    except _UNREADABLE:  # numpy's message shows ast's node objects, not what the header says
        found = brief(_header_text(data), 120)
        raise StripsIntError(source, f"member {name!r}", "its .npy header is not the literal dict numpy writes "
                             f"(descr, fortran_order, shape as plain values): {found}") from None
    if dtype.hasobject:
        raise StripsIntError(source, f"member {name!r}", "holds Python objects (a pickle), which are not read")
    return shape, dtype


def _check_fit(shape: tuple[int, ...], dtype: np.dtype, held: int, name: str, source: str) -> None:
    """The array a member's header declares must be the ``held`` bytes after the header."""
    need = math.prod(shape) * dtype.itemsize
    if need != held:
        raise StripsIntError(source, f"member {name!r}", f"its header declares a {dtype} array of shape {shape} "
                             f"({need} bytes), the member holds {held}")


def _header_text(data: bytes) -> str:
    """The dict text of an .npy member's header (after the magic and its length), as far as it reads."""
    width = 2 if data[6:7] == b"\x01" else 4
    length = int.from_bytes(data[8:8 + width], "little")
    return data[8 + width:8 + width + min(length, 400)].decode("latin-1").strip()
