"""Merging the output folders of ``evaluate --shard i/n`` runs (the command line is :mod:`strips_int.cli.merge`).

Combine the output folders of ``evaluate --shard i/n`` runs into the tables one
run over all the files would have written, byte for byte: ``games.jsonl`` and
``games.csv`` in that run's row order, the summaries with the shards' group
keys and bootstrap settings, and a ``shard.json`` of the whole (shard 0/1).
Shards of another domain, package version, options or file list are refused,
naming what differs. The output folder is locked and written as ``evaluate``
writes it (:mod:`strips_int.batch.outputs`): an earlier run's tables are removed first,
each file appears whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from strips_int.files import atomic_open

from .evaluate import write_tables
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
