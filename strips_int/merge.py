"""``python -m strips_int.merge DIR... --out DIR`` (also ``python -m strips_int.evaluate merge ...``)

Combine the output folders of ``evaluate --shard i/n`` runs into the tables one
run over all the files would have written, byte for byte: ``games.jsonl`` and
``games.csv`` in that run's row order, the summaries with the shards' group
keys and bootstrap settings, and a ``shard.json`` of the whole (shard 0/1).
Shards of another domain, package version, options or file list are refused,
naming what differs. The output folder is locked and written as ``evaluate``
writes it (:mod:`strips_int.outputs`): an earlier run's tables are removed first,
each file appears whole.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from .cli import Parser, command
from .errors import StripsIntError
from .evaluate import write_tables
from .files import atomic_open
from .outputs import fresh, locked
from .shards import Manifest, check_shards, merged_lines, read_manifest, write_manifest


def merge(folders: Sequence[Path], out: Path) -> tuple[int, int]:
    """Write the merged tables of ``folders`` to ``out``; returns (games, error rows)."""
    shards = [(folder, read_manifest(folder)) for folder in folders]
    check_shards(shards)
    first = shards[0][1]
    games = errors = 0
    with locked(out):
        fresh(out)
        with atomic_open(out / "games.jsonl") as handle:
            for line in merged_lines(shards):
                handle.write(line)
                failed = bool(json.loads(line)["error"])
                games, errors = games + (not failed), errors + failed
        files = sorted(f for _, value in shards for f in value.files)
        write_manifest(out, Manifest(first.version, first.domain, first.domain_sha256, first.options, 0, 1,
                                     first.total, first.list_sha256, tuple(files)))
        write_tables(out, first.options["group_by"], first.options["resamples"], first.options["seed"])
    return games, errors


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m strips_int.merge",
                                     description="Merge the output folders of evaluate --shard runs.")
    parser.add_argument("folders", type=Path, nargs="+", metavar="DIR", help="shard output folders")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    return parser


@command
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        games, errors = merge(args.folders, args.out)
    except (StripsIntError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{games} games, {errors} errors from {len(args.folders)} shard(s) -> {args.out}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
