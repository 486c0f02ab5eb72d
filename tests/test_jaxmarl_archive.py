"""JaxMARL rollout archives (.npz) are read within bounds (grounders/jaxmarl/archive.py): members the
reader never uses are not decompressed, a used one is checked by its compression and declared size before
it is, and by its actual size and its header's shape as it is read.

``data/jaxmarl/bzip2-bomb.npz`` (6.9 KB) is ``fuzz_inputs.rollout_arrays()`` without its optional
``layout`` array, written by ``np.savez``, and a member ``bombed.npy`` that zipfile's own writer
compressed with bzip2 from a ``.npy`` header and 2 GiB of zeros. ``np.load`` decompressed it whole:
2.1 GB of memory and an error under a 3 GB limit, 4.1 GB and a result without one.
"""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fuzz_inputs import bounded, check_cli, rollout_arrays, run_cli
from helpers import ROOT

from strips_int.errors import StripsIntError
from strips_int.grounders.jaxmarl import read_rollout
from strips_int.model.domain import load_domain

BOMB = ROOT / "tests" / "data" / "jaxmarl" / "bzip2-bomb.npz"


@pytest.fixture(scope="module")
def domain():
    return load_domain(ROOT / "domains" / "overcooked.pddl")


def npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def archive(members: dict[str, bytes]) -> bytes:
    """An .npz archive of ``members`` (name: .npy bytes), deflated as ``np.savez_compressed`` does, in
    plain zip headers (numpy's zip64 ones hide the size a test changes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(f"{name}.npy", data)
    return buffer.getvalue()


def declaring(data: bytes, member: str, size: int) -> bytes:
    """``data`` with the central directory saying ``member`` unpacks to ``size`` bytes."""
    out, name = bytearray(data), f"{member}.npy".encode()
    entry = out.find(b"PK\x01\x02")
    while out[entry + 46:entry + 46 + len(name)] != name:
        entry = out.find(b"PK\x01\x02", entry + 4)
    struct.pack_into("<I", out, entry + 24, size)
    return bytes(out)


def rollout_with(tmp_path: Path, **changed: bytes) -> Path:
    members = {name: npy(array) for name, array in rollout_arrays().items()}
    path = tmp_path / "rollout.npz"
    path.write_bytes(archive({**members, **changed}))
    return path


def test_a_bzip2_bomb_is_never_decompressed(tmp_path):
    """Under a 1 GiB address-space limit: the bomb as an unused member is passed over (the game reads), as
    a used one (its name changed to ``layout``) it is one line, refused by its compression."""
    used = tmp_path / "used.npz"
    used.write_bytes(BOMB.read_bytes().replace(b"bombed.npy", b"layout.npy"))
    result = run_cli("strips_int.check", "overcooked", str(BOMB), str(used), memory=1 << 30)
    assert check_cli(result, codes=(1,)) == [
        f"error: {used}: member 'layout': compressed with bzip2, which numpy never writes (np.savez stores, "
        "np.savez_compressed deflates)"]
    assert f"{BOMB}\n  domain overcooked, problem overcooked-custom" in result.stdout.decode()


def test_a_rollout_of_deflated_members_reads(tmp_path, domain):
    assert len(read_rollout(rollout_with(tmp_path), domain).steps) > 0


def test_a_member_inflating_past_its_declared_size_stops_there(tmp_path, domain):
    """64 MiB of zeros declared as 1,000 bytes: reading stops at 1,000 and the CRC tells the lie."""
    path = rollout_with(tmp_path, maze_map=npy(np.zeros(8 << 20, dtype=np.int64)))
    path.write_bytes(declaring(path.read_bytes(), "maze_map", 1000))
    with bounded(seconds=5, memory=64 << 20), pytest.raises(StripsIntError) as error:
        read_rollout(path, domain)
    assert str(error.value) == f"{path}: cannot read as a numpy .npz archive: Bad CRC-32 for file 'maze_map.npy'"


def test_members_declaring_more_than_the_input_limit_are_refused_unread(tmp_path, domain):
    path = rollout_with(tmp_path)
    path.write_bytes(declaring(path.read_bytes(), "maze_map", 2**32 - 1))
    with pytest.raises(StripsIntError) as error:
        read_rollout(path, domain)
    assert str(error.value) == f"{path}: its arrays declare 4,096 MiB unpacked, more than the 256 MiB input limit"


@pytest.mark.parametrize("member, message", [
    ({"descr": "<f8", "fortran_order": False, "shape": (125_000_000_000,)}, "its header declares a float64 array of "
     "shape (125000000000,) (1000000000000 bytes), the member holds 8"),
    (None, "holds Python objects (a pickle), which are not read"),
])
def test_a_member_whose_array_does_not_fit_is_refused_before_it_is_made(tmp_path, domain, member, message):
    if member is None:
        data = npy(np.array([{"a": 1}], dtype=object))
    else:
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, member)
        data = header.getvalue() + bytes(8)
    path = rollout_with(tmp_path, step=data)
    with bounded(seconds=5, memory=64 << 20), pytest.raises(StripsIntError) as error:
        read_rollout(path, domain)
    assert str(error.value) == f"{path}: member 'step': {message}"
