"""Group statistics for paper tables: mean, standard deviation, 95 % bootstrap confidence interval.

The interval is the percentile bootstrap of the mean (numpy; 2,000 resamples
and a fixed seed by default, so the same games give the same table). Missing
values (a percentage whose denominator is 0) are left out of that metric, and
each cell says how many games it rests on; under two games there is no sd and
no interval (NaN). numpy is imported only when some cell has an interval
(0.1 s of start-up a one-game run does not need).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence


@dataclass(frozen=True)
class Summary:
    """One metric over one group of games."""

    n: int
    mean: float
    sd: float
    ci_low: float
    ci_high: float


def summarize(values: Sequence[float | None], resamples: int = 2000, seed: int = 0) -> Summary:
    """Mean, sample standard deviation and 95 % percentile-bootstrap interval of ``values``."""
    return summarize_all([values], resamples, seed)[0]


def summarize_all(columns: Sequence[Sequence[float | None]], resamples: int = 2000, seed: int = 0) -> list[Summary]:
    """:func:`summarize` of each column, cheaper than one by one: the draws of a generator seeded ``seed``
    depend only on a column's size, so they are made once per size (one size at a time, so memory
    holds one resample table), and all intervals come from one percentile call (numpy's cost per
    call is most of the work for cells of a few dozen games)."""
    kept = [[v for v in values if v is not None and not math.isnan(v)] for values in columns]
    nan = float("nan")
    summaries = [Summary(len(values), float(values[0]) if values else nan, nan, nan, nan) for values in kept]
    spread = {k: values for k, values in enumerate(kept) if len(values) >= 2}  # under two: no sd, no interval
    if not spread:
        return summaries
    import numpy as np

    data = {k: np.asarray(values, dtype=float) for k, values in spread.items()}
    sizes: dict[int, list[int]] = {}
    for k, values in data.items():
        sizes.setdefault(values.size, []).append(k)
    means = {}
    for size, ks in sizes.items():
        draws = np.random.default_rng(seed).integers(0, size, size=(resamples, size))
        means.update((k, data[k][draws].mean(axis=1)) for k in ks)
    bounds = np.percentile(list(means.values()), [2.5, 97.5], axis=1).T.tolist()
    for k, (low, high) in zip(means, bounds):
        summaries[k] = Summary(data[k].size, float(data[k].mean()), float(data[k].std(ddof=1)), low, high)
    return summaries


def group_rows(rows: Iterable[Mapping[str, object]], keys: Sequence[str]) -> dict[tuple[str, ...], list[Mapping]]:
    """Rows by the tuple of their ``keys`` values (a missing key reads ``-``), in sorted group order."""
    groups: dict[tuple[str, ...], list[Mapping]] = {}
    for row in rows:
        groups.setdefault(tuple(str(row.get(k) if row.get(k) not in (None, "") else "-") for k in keys), []).append(row)
    return dict(sorted(groups.items()))


def number(value: object) -> float | None:
    """A CSV cell as a number, or None when empty or not a number."""
    if value is None or value == "":
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
