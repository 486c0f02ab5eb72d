"""``python -m strips_int.merge DIR... --out DIR`` (also ``strips-int merge`` and ``python -m strips_int.evaluate merge``)

Combine the output folders of ``evaluate --shard i/n`` runs into the tables one
run over all the files would have written (:mod:`strips_int.batch.merge`).
Exit status 0, 1 when some game is an error row, 2 with one ``error:`` line
for shards that do not belong together or cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .contract import Parser, command, fail, out_folder


def build_parser(prog: str = "python -m strips_int.merge") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Merge the output folders of evaluate --shard runs.")
    parser.add_argument("folders", type=Path, nargs="+", metavar="DIR", help="shard output folders")
    parser.add_argument("--out", type=out_folder, required=True, help="output folder (created if missing)")
    return parser


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.merge") -> int:
    args = build_parser(prog).parse_args(argv)
    from strips_int.batch.merge import merge
    from strips_int.errors import StripsIntError

    try:
        games, errors = merge(args.folders, args.out, [*prog.split(), *(sys.argv[1:] if argv is None else argv)])
    except (StripsIntError, OSError) as exc:
        return fail(exc)
    print(f"{games} games, {errors} errors from {len(args.folders)} shard(s) -> {args.out}", file=sys.stderr)
    return 1 if errors else 0
