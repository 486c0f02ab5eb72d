"""Splitting a batch run into shards and putting the shards' rows back together.

A run's file list (the order one run processes them: arguments in turn,
folders walked sorted) is split round-robin: file ``k`` goes to shard
``k mod n`` (shards count from 0), so shards of a folder tree sorted by agent
or layout get a like mix of games. Each output folder gets ``shard.json``
naming the domain (path and SHA-256), the package version, the options, the
shard and, per file, its index in the whole list and how many rows it gave;
merge checks that the shards belong to one run and interleaves their rows
back into that run's order.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from strips_int import __version__
from strips_int.errors import StripsIntError, brief
from strips_int.files import read_json, read_text, write_atomic

MANIFEST = "shard.json"
#: Longer lines of a file list are no path (Linux's PATH_MAX), and are not echoed whole.
MAX_PATH = 4096
FORMAT = "strips-int-shard/1"
#: Manifest fields besides the options that must agree for shards to merge, with the words an error uses.
MUST_AGREE = {"version": "package version", "domain_sha256": "domain", "count": "shard count",
              "list_sha256": "file list"}


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (0 <= index < count)."""

    index: int
    count: int


@dataclass(frozen=True)
class Manifest:
    """What ``shard.json`` records about one output folder."""

    version: str
    domain: str
    domain_sha256: str
    options: dict[str, Any]
    index: int
    count: int
    total: int
    list_sha256: str
    files: tuple[tuple[int, str, int], ...]  # (index in the whole list, path, rows)


def parse_shard(text: str) -> Shard:
    """``"i/n"`` as a :class:`Shard`; anything else is an error saying what is expected."""
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and int(index) < int(count)):
        raise StripsIntError(text, None, "a shard is i/n with 0 <= i < n (e.g. 0/4)")
    return Shard(int(index), int(count))


def read_file_list(path: Path) -> list[Path]:
    """The paths of a list file, one per line (blank lines skipped; relative ones from the current folder,
    as `find` writes them); a missing one names its line."""
    paths = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        entry = Path(line.strip())
        if not line.strip():
            continue
        try:
            found = len(line) <= MAX_PATH and entry.exists()
        except (OSError, ValueError):  # a name too long for the system, a NUL byte
            found = False
        if not found:
            named = entry if len(line) <= MAX_PATH and "\0" not in line else brief(line)
            raise StripsIntError(str(path), f"line {number}", f"no such file or folder: {named}")
        paths.append(entry)
    return paths


def pick(total: int, shard: Shard) -> list[int]:
    """The indices of the files that ``shard`` evaluates out of ``total``."""
    return list(range(shard.index, total, shard.count))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest(domain: Path, files: Sequence[Path], picked: Sequence[int], rows: Sequence[int], shard: Shard,
             options: dict[str, Any]) -> Manifest:
    """The manifest of a run over ``files[k] for k in picked`` that gave ``rows`` rows per file."""
    return Manifest(__version__, str(domain), sha256(Path(domain).read_bytes()), options, shard.index,
                    shard.count, len(files), sha256("\n".join(map(str, files)).encode()),
                    tuple((k, str(files[k]), n) for k, n in zip(picked, rows, strict=True)))


def write_manifest(out: Path, value: Manifest) -> None:
    fields = {"format": FORMAT, **asdict(value), "files": [list(f) for f in value.files]}
    write_atomic(out / MANIFEST, json.dumps(fields, indent=1) + "\n")


def read_manifest(folder: Path) -> Manifest:
    """A shard folder's manifest; a missing or foreign one is an error naming the file."""
    path = folder / MANIFEST
    if not path.is_file():
        raise StripsIntError(str(path), None, "no shard manifest (not the output folder of an evaluate run)")
    data = read_json(path)
    try:
        if data.pop("format") != FORMAT:
            raise ValueError
        data["files"] = tuple((int(k), str(p), int(n)) for k, p, n in data["files"])
        return Manifest(**data)
    except (AttributeError, KeyError, TypeError, ValueError):
        raise StripsIntError(str(path), None, f"not a {FORMAT} manifest") from None


def check_shards(shards: Sequence[tuple[Path, Manifest]]) -> None:
    """Refuse shards of different runs (naming the first field that differs) or a missing or twice-given shard."""
    (first_dir, first), others = shards[0], shards[1:]
    for folder, other in others:
        differs = difference(other, first)
        if differs:
            what, detail = differs
            raise StripsIntError(str(folder), None, f"made with {what} than {first_dir}: {detail}")
    seen: dict[int, Path] = {}
    for folder, other in shards:
        if other.index in seen:
            raise StripsIntError(str(folder), None, f"shard {other.index}/{other.count} is also {seen[other.index]}")
        seen[other.index] = folder
    missing = [f"{i}/{first.count}" for i in range(first.count) if i not in seen]
    if missing:
        raise StripsIntError(str(first_dir), None, f"missing shard(s) {', '.join(missing)} of this run")


def difference(other: Manifest, first: Manifest) -> tuple[str, str] | None:
    """What sets ``other`` apart from ``first`` as a shard of another run (what, and both values), if anything."""
    if other.options != first.options:
        keys = sorted(k for k in {*other.options, *first.options} if other.options.get(k) != first.options.get(k))
        return "other options", ", ".join(f"{k} {json.dumps(other.options.get(k))} vs "
                                          f"{json.dumps(first.options.get(k))}" for k in keys)
    for field, words in MUST_AGREE.items():
        if getattr(other, field) != getattr(first, field):
            return f"another {words}", f"{describe(other, field)} vs {describe(first, field)}"
    return None


def describe(value: Manifest, field: str) -> str:
    if field == "domain_sha256":
        return f"{value.domain} (sha256 {value.domain_sha256[:12]})"
    return str(getattr(value, field))


def check_row(path: Path, number: int, line: str) -> None:
    """A line of ``games.jsonl`` is a JSON object with an ``error``; else an error naming the line."""
    try:
        row = json.loads(line)
    except (ValueError, RecursionError):
        row = None
    if not (isinstance(row, dict) and "error" in row):
        raise StripsIntError(str(path), f"line {number}", "not a row of an evaluate run")


def merged_lines(shards: Sequence[tuple[Path, Manifest]]) -> Iterator[str]:
    """Every shard's ``games.jsonl`` lines in the order one run over the whole list writes them."""
    chunks: dict[int, list[str]] = {}
    for folder, value in shards:
        path = folder / "games.jsonl"
        lines = read_text(path).splitlines(keepends=True)
        if len(lines) != sum(n for _, _, n in value.files):
            raise StripsIntError(str(path), None, f"{len(lines)} rows, but {MANIFEST} counts "
                                 f"{sum(n for _, _, n in value.files)}")
        for number, line in enumerate(lines, start=1):
            check_row(path, number, line)
        start = 0
        for k, _, n in value.files:
            chunks[k], start = lines[start:start + n], start + n
    for k in range(shards[0][1].total):
        yield from chunks[k]
