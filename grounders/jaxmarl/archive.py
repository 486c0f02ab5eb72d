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
from typing import TYPE_CHECKING, Iterable

from strips_int.errors import StripsIntError
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


def read_npz(path: Path, names: Iterable[str], limit: int = MAX_INPUT_BYTES, data: bytes | None = None
             ) -> dict[str, np.ndarray]:
    """The arrays ``names`` that the .npz archive ``path`` holds (by ``np.load``'s names: the member's
    name without ``.npy``), with its other members left compressed; anything unreadable, or more than
    ``limit`` bytes unpacked, is an error naming the file (and the member). ``data``: the file's bytes,
    already read (a recognizer's :meth:`~..base.Head.whole`)."""
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
            return {name: _member_array(archive, name, info, source) for name, info in chosen.items()}
    except StripsIntError:
        raise
    except _UNREADABLE as exc:
        raise StripsIntError(source, None, f"cannot read as a numpy .npz archive: {exc}") from None


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


def _member_array(archive: zipfile.ZipFile, name: str, info: zipfile.ZipInfo, source: str) -> np.ndarray:
    """One member's array, read up to its declared size and made only when its header's shape fits."""
    import numpy.lib.format as npy

    with archive.open(info) as stream:  # stops at the declared size, then checks the CRC
        data = stream.read(info.file_size)
    if len(data) != info.file_size:
        raise StripsIntError(source, f"member {name!r}", f"holds {len(data)} bytes, declares {info.file_size}")
    buffer = io.BytesIO(data)
    version = npy.read_magic(buffer)
    read_header = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}.get(version)
    if read_header is None:
        raise StripsIntError(source, f"member {name!r}", f".npy format version {version} is not read (1.0, 2.0 are)")
    shape, _, dtype = read_header(buffer)
    if dtype.hasobject:
        raise StripsIntError(source, f"member {name!r}", "holds Python objects (a pickle), which are not read")
    need, held = math.prod(shape) * dtype.itemsize, len(data) - buffer.tell()
    if need != held:
        raise StripsIntError(source, f"member {name!r}", f"its header declares a {dtype} array of shape {shape} "
                             f"({need} bytes), the member holds {held}")
    buffer.seek(0)
    return npy.read_array(buffer, allow_pickle=False)
