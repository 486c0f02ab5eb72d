"""The grouped tables of a study: per group of games, each metric's n, mean, sd and 95 % bootstrap interval.

``summary.csv`` is long (one row per group and metric); ``summary.md`` and
``summary.tex`` have one row per group, each cell ``mean [95 % CI]``. The
metrics are reward, Int_cons (and its required and optional parts, SPEC
section 10), Int_non-cons and each role's trigger percentages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from .stats import Summary, group_rows, number, summarize_all
from .tables import write_table

#: The metrics of the summary tables, with the names papers use.
METRIC_NAMES = {"reward": "reward", "constructive": "Int_cons", "constructive_required": "Int_cons,req",
                "constructive_optional": "Int_cons,opt", "non_constructive": "Int_non-cons"}
ROLE_METRICS = ("pct_triggers", "pct_not_accepted")
#: What the cells of ``summary.md`` and ``summary.tex`` are.
NOTE = "Mean [95 % bootstrap CI] per group; (n=k) where a cell rests on fewer games; no CI under 2 games."

Groups = dict[tuple[str, ...], dict[str, Summary]]


def summary_metrics(columns: Sequence[str]) -> list[str]:
    """Reward, Int_cons, Int_cons,req, Int_cons,opt, Int_non-cons, then each role's trigger percentages."""
    metrics = [m for m in METRIC_NAMES if m in columns]
    return metrics + [c for c in columns if c.endswith(ROLE_METRICS)]


def is_metric(column: str) -> bool:
    """Whether :func:`summary_metrics` takes ``column`` when a game has it."""
    return column in METRIC_NAMES or column.endswith(ROLE_METRICS)


def summarize_games(cells: Sequence[Mapping[str, Any]], columns: Sequence[str], keys: Sequence[str],
                    resamples: int = 2000, seed: int = 0) -> tuple[list[str], Groups]:
    """Per group of the analysed games, each metric's :class:`Summary`, from the games' cells (their group
    keys and metrics as analysed: no CSV field limit, no cell made safe for spreadsheets)."""
    metrics = summary_metrics(columns)
    groups = group_rows(cells, keys)
    values = [[number(r.get(m)) for r in members] for members in groups.values() for m in metrics]
    summaries = iter(summarize_all(values, resamples, seed))  # one call: draws shared across groups
    return metrics, {group: {m: next(summaries) for m in metrics} for group in groups}


def metric_label(metric: str) -> str:
    """A metric as a table's header names it: ``Int_cons``, ``%human trig``."""
    if metric in METRIC_NAMES:
        return METRIC_NAMES[metric]
    role, _, what = metric.rpartition("_pct_")
    return f"%{role} {'trig' if what == 'triggers' else 'not-acc'}"


def write_summaries(out: Path, keys: Sequence[str], metrics: Sequence[str], table: Groups) -> None:
    """``summary.csv`` (long), ``summary.md`` and ``summary.tex`` (one row per group: mean [95 % CI])."""
    write_table(out / "summary.csv", [*keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"],
                ([*group, metric, s.n, *(f"{v:.4f}" for v in (s.mean, s.sd, s.ci_low, s.ci_high))]
                 for group, cells in table.items() for metric, s in cells.items()))

    def cell(s: Summary, games: int) -> str:
        if s.n == 0:
            return "-"
        text = f"{s.mean:.2f}" if s.n < 2 else f"{s.mean:.2f} [{s.ci_low:.2f}, {s.ci_high:.2f}]"
        return text if s.n == games else f"{text} (n={s.n})"

    header = [*keys, "games", *(metric_label(m) for m in metrics)]
    body = []
    for group, cells in table.items():
        games = max(s.n for s in cells.values())
        body.append([*group, str(games), *(cell(cells[m], games) for m in metrics)])
    for suffix in (".md", ".tex"):
        write_table(out / f"summary{suffix}", header, body, NOTE, left=len(keys))
