"""Group statistics for paper tables: mean, standard deviation, 95 % bootstrap confidence interval.

The interval is the percentile bootstrap of the mean (numpy; 2,000 resamples
and a fixed seed by default, so the same games give the same table). Missing
values (a percentage whose denominator is 0) are left out of that metric, and
each cell says how many games it rests on; under two games there is no sd and
no interval (NaN).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np


@dataclass(frozen=True)
class Summary:
    """One metric over one group of games."""

    n: int
    mean: float
    sd: float
    ci_low: float
    ci_high: float


def summarize(values: Sequence[float], resamples: int = 2000, seed: int = 0) -> Summary:
    """Mean, sample standard deviation and 95 % percentile-bootstrap interval of ``values``."""
    data = np.asarray([v for v in values if v is not None and not math.isnan(v)], dtype=float)
    if data.size == 0:
        nan = float("nan")
        return Summary(0, nan, nan, nan, nan)
    mean = float(data.mean())
    if data.size < 2:  # one game has no spread: no standard deviation, no interval
        return Summary(1, mean, float("nan"), float("nan"), float("nan"))
    sd = float(data.std(ddof=1))
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Summary(int(data.size), mean, sd, float(low), float(high))


def group_rows(rows: Iterable[Mapping[str, object]], keys: Sequence[str]) -> dict[tuple[str, ...], list[Mapping]]:
    """Rows by the tuple of their ``keys`` values (a missing key reads ``-``), in sorted group order."""
    groups: dict[tuple[str, ...], list[Mapping]] = {}
    for row in rows:
        groups.setdefault(tuple(str(row.get(k) if row.get(k) not in (None, "") else "-") for k in keys), []).append(row)
    return dict(sorted(groups.items()))


#: Every character LaTeX gives a meaning in text (and a line break, which would end a table row).
TEX_ESCAPES = str.maketrans({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#", "$": r"\$",
                             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                             "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "\n": " ", "\r": " "})


def tex(text: str) -> str:
    """``text`` set literally in LaTeX: every special character escaped, line breaks as spaces."""
    return text.translate(TEX_ESCAPES)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A GitHub-flavoured Markdown table, one line per row (a ``|`` or line break in a cell escaped)."""
    def text(cell: object) -> str:
        return " ".join(str(cell).replace("|", "\\|").splitlines())

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(text(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def number(value: object) -> float | None:
    """A CSV cell as a number, or None when empty or not a number."""
    if value is None or value == "":
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
