"""Merging the output folders of ``evaluate --shard i/n`` runs (the command line is :mod:`strips_int.cli.merge`).

Combine the output folders of ``evaluate --shard i/n`` runs into the tables one
run over all the files would have written, byte for byte: ``games.jsonl`` and
``games.csv`` in that run's row order, the summaries with the shards' group
keys and bootstrap settings, and a ``shard.json`` of the whole (shard 0/1).
Shards of another domain, package version, options or file list are refused,
naming what differs. The output folder is locked and written as ``evaluate``
writes it (:mod:`strips_int.batch.outputs`): an earlier run's tables are removed first,
each file appears whole, and ``manifest.json`` is ``running`` until the merge is complete.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Sequence

from strips_int.errors import StripsIntError
from strips_int.files import atomic_open

from .evaluate import write_tables
from .outputs import JOURNAL, described, fresh, locked, now, write_run_manifest
from .shards import MANIFEST as SHARD_FILE
from .shards import Manifest, check_shards, merged_lines, read_manifest, write_manifest


def merge(folders: Sequence[Path], out: Path, command: Sequence[str] = ()) -> tuple[int, int]:
    """Write the merged tables of ``folders`` to ``out``; returns (games, error rows). ``manifest.json`` says
    what was merged (each shard's ``shard.json`` and ``games.jsonl``, with sizes and SHA-256) and how it
    ended, as ``evaluate``'s does (:func:`strips_int.batch.outputs.write_run_manifest`): ``running`` until
    the last table is written, so a merge that was killed is seen to be incomplete; running it again
    writes every table afresh."""
    shards = [(folder, read_manifest(folder)) for folder in folders]
    check_shards(shards)
    first = shards[0][1]
    inputs = {"shards": [described(folder / name) for folder in folders for name in (SHARD_FILE, JOURNAL)]}
    counts = {"shards": len(shards), "games": 0, "errors": 0}
    with locked(out):
        fresh(out)
        started = now()
        write_run_manifest(out, command, inputs, started, "running", counts)
        try:
            with atomic_open(out / JOURNAL) as handle:
                for line in merged_lines(shards):
                    handle.write(line)
                    counts["errors" if json.loads(line)["error"] else "games"] += 1
            files = sorted(f for _, value in shards for f in value.files)
            write_manifest(out, Manifest(first.version, first.domain, first.domain_sha256, first.options, 0, 1,
                                         first.total, first.list_sha256, tuple(files)))
            write_tables(out, first.options["group_by"], first.options["resamples"], first.options["seed"])
        except BaseException as stop:
            with contextlib.suppress(StripsIntError):  # (a full disk) the error that stopped it is the one to tell
                write_run_manifest(out, command, inputs, started,
                                   "interrupted" if isinstance(stop, KeyboardInterrupt) else "failed", counts)
            raise
        write_run_manifest(out, command, inputs, started, "complete", counts)
    return counts["games"], counts["errors"]
