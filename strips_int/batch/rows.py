"""One row per game for ``games.csv``: group keys, reward, every count and each role's figures, or its error.

A file's rows are computed wherever the engine runs them (this process, a worker
process, a Dask worker), so everything here is a plain function of its arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from strips_int.analysis.report import Report
from strips_int.errors import StripsIntError, internal_error
from strips_int.model.domain import Domain

from .games import analyze_file

Row = dict[str, Any]
#: The agent metrics (:meth:`Report.agent_metrics`) a game may not have: blocks where it records no attempts,
#: self-help costs where they were not asked for; such a game has no cell for them.
OPTIONAL_METRICS = ("blocks_given", "blocks_received", "help_steps_received", "help_unknown_received")


def game_row(report: Report) -> Row:
    """One row of ``games.csv``: group keys from ``meta``, reward, counts and each role's agent metrics (by
    agent where several agents share a role, as both players of human-human data do); attempts, blocks and
    each role's blocks only for a game whose record shows its agents' choices (else they are unknown, not 0),
    each role's steps of help received only with self-help costs."""
    meta = report.meta
    roles = meta.get("roles") or {}
    row: Row = {"source": report.source, "folder": Path(report.source).parent.name}
    row.update({k: v for k, v in meta.items() if isinstance(v, (str, int, float, bool)) and k not in row})
    row["roles"] = ";".join(f"{agent}={role}" for agent, role in roles.items())
    row["steps"] = len(report.steps)
    row["goal_facts"], row["goal_achieved"] = len(report.goal), len(report.achieved)
    row.update(report.counts)
    if report.attempts is not None:  # blocks where the record shows the agents' choices (definitions section 13)
        row["attempts"], row["blocks"] = len(report.attempts), len(report.blocks)
    shared = {role for role in roles.values() if list(roles.values()).count(role) > 1}
    for agent, metrics in report.agent_metrics().items():
        role = roles.get(agent, agent)
        prefix = agent if role in shared else role  # two humans: each by its agent, so neither hides the other
        row.update({f"{prefix}_{name}": value for name, value in metrics.items()
                    if name != "type" and not (value is None and name in OPTIONAL_METRICS)})
    row["error"] = ""
    return row


def error_row(source: str, error: StripsIntError) -> Row:
    """The row of a game that could not be read or analysed."""
    return {"source": source, "folder": Path(source).parent.name, "error": str(error)}


def file_rows(domain: Domain, options: Mapping[str, Any], path: Path) -> list[Row]:
    """The rows of every game in one file; a game that cannot be read or analysed is a row with its
    error, whatever the exception (a reader that fails outside a game costs the rest of its file)."""
    rows = []
    for result in analyze_file(domain, path, **options):
        if isinstance(result, StripsIntError):
            rows.append(error_row(result.source if result.source.startswith(str(path)) else str(path), result))
            continue
        try:
            rows.append(game_row(result))
        except Exception as exc:  # noqa: BLE001 - one game's failure of any kind is its row
            rows.append(error_row(str(path), internal_error(str(path), None, exc)))
    return rows


def shared_file_rows(shared: tuple[Domain, Mapping[str, Any]], path: Path) -> list[Row]:
    """:func:`file_rows` with the domain and options an engine hands every worker once (its ``shared``)."""
    domain, options = shared
    return file_rows(domain, options, path)


def died_rows(path: Path, how: str) -> list[Row]:
    """The row of a file whose worker process died on it twice."""
    return [error_row(str(path), StripsIntError(str(path), None, f"worker died on this file twice ({how}; "
                                                "out of memory?)"))]
