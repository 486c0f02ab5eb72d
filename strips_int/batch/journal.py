"""A run's journal: ``games.jsonl``, one row per game appended as each file finishes, and ``games.progress``.

``games.progress`` has one line ``k rows`` once file ``k``'s rows are in
``games.jsonl``; a resumed run keeps exactly the rows of the files it counts
(:func:`~strips_int.batch.outputs.resumable`). The tables are written from
the journal at the end (:func:`read_journal`), so memory stays flat in the
number of games.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from strips_int.errors import internal_error
from strips_int.files import writer

from .outputs import JOURNAL, PROGRESS
from .rows import Row, error_row
from .summary import is_metric
from .tables import write_table

#: The columns ``games.csv`` starts with, when some game has them; the others follow in first-seen order.
FIRST_COLUMNS = ("source", "folder", "layout", "agent", "partner", "roles", "reward")


@dataclass
class Tally:
    """How far a run got: files done of all, games analysed and error rows (the manifest's counts)."""

    files: int
    done: int = 0
    games: int = 0
    errors: int = 0

    def add(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self.done += 1
        self.errors += sum(bool(row["error"]) for row in rows)
        self.games += sum(not row["error"] for row in rows)


def stream(out: Path, batches: Iterable[list[Row]], counts: list[int], tally: Tally,
           on_file: Callable[[list[Row], Tally], None] | None = None) -> None:
    """Append each file's rows to ``games.jsonl``, then the file's line to ``games.progress`` (a resume
    trusts the rows of the files that line counts); ``on_file`` hears of each file's rows as they land."""
    with writer(out / JOURNAL, "a") as journal, writer(out / PROGRESS, "a") as progress:  # (a full disk: named)
        for read in batches:
            pairs = [journal_line(row) for row in read]
            rows = [row for row, _ in pairs]
            journal.write("".join(line for _, line in pairs))
            journal.flush()
            progress.write(f"{len(counts)} {len(rows)}\n")
            progress.flush()
            counts.append(len(rows))
            tally.add(rows)
            if on_file is not None:
                on_file(rows, tally)


def journal_line(row: Row) -> tuple[Row, str]:
    """``row`` and its line of ``games.jsonl``; a row JSON cannot hold (a number of more than 4,300
    digits, which a pickle can carry) is replaced by its game's error row."""
    try:
        return row, json.dumps(row) + "\n"
    except ValueError as exc:
        row = error_row(row["source"], internal_error(row["source"], None, exc))
        return row, json.dumps(row) + "\n"


def journal_tally(out: Path, counts: Sequence[int], files: int) -> Tally:
    """The tally of the files a resumed run had finished, from their rows in ``games.jsonl``."""
    tally = Tally(files)
    with open(out / JOURNAL) as handle:
        for n in counts:
            tally.add([journal_row(handle.readline()) for _ in range(n)])
    return tally


def journal_row(line: str) -> Row:
    """A line of ``games.jsonl`` as :func:`json.loads` reads it (the same value, the same errors), at a
    quarter of the cost by msgspec; json reads what msgspec refuses (NaN, Infinity, a lone surrogate:
    ``json.dumps`` writes them) and raises what neither reads."""
    import msgspec  # the Overcooked reader's decoder, so loaded already in a run of Overcooked games

    try:
        return msgspec.json.decode(line)
    except msgspec.DecodeError:
        return json.loads(line)


def read_journal(jsonl: Path, keys: Sequence[str]) -> tuple[list[str], list[Row]]:
    """The columns of ``games.jsonl`` in ``games.csv`` order; and of each analysed game (errors left out)
    the cells the summaries read, its group keys and metrics, so memory holds a few numbers a game."""
    columns: dict[str, None] = {}
    cells = []
    kept = functools.cache(lambda column: column in keys or is_metric(column))  # rows share their columns
    with open(jsonl) as handle:
        for row in map(journal_row, handle):
            columns.update(dict.fromkeys(row))
            if not row["error"]:
                cells.append({k: v for k, v in row.items() if kept(k)})
    ordered = [c for c in FIRST_COLUMNS if c in columns] + [c for c in columns if c not in FIRST_COLUMNS and c != "error"]
    return [*ordered, "error"], cells


def write_games_csv(jsonl: Path, out: Path, columns: Sequence[str]) -> None:
    """``games.csv`` from the streamed ``games.jsonl``, row by row (the columns read first: :func:`read_journal`);
    a column a row lacks is empty."""
    with open(jsonl) as handle:
        write_table(out, columns, ([row.get(column) for column in columns] for row in map(journal_row, handle)))
