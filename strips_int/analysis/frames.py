"""Findings as tables: one flat row per interdependence or per agent, and rows as a pandas DataFrame
(``pip install 'strips_int[pandas]'``; only :func:`dataframe` imports it).

A row is a dict of plain values (text, whole numbers, booleans, None): a step is four columns
(``giver_index``, ``giver_t``, ``giver_agent``, ``giver_action``), facts and objects are text, so a
frame sorts, groups and writes to CSV as it is. :meth:`strips_int.Report.to_frame` and
:func:`strips_int.reports_frame` put them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from strips_int.errors import StripsIntError
from strips_int.model.task import format_fact

from .interdependence import Finding

if TYPE_CHECKING:
    import pandas

Row = dict[str, Any]

#: The columns of the interdependencies table, in order.
INTERDEPENDENCE_COLUMNS = ("source", *(f"{role}_{part}" for role in ("giver", "receiver")
                                       for part in ("index", "t", "agent", "action")),
                           "facts", "objects", "goal_reaching", "giver_loop", "receiver_loop", "category", "required",
                           "why")


def interdependence_rows(source: str, findings: Sequence[Finding]) -> list[Row]:
    """One row per interdependence of the game ``source``: giver and receiver steps, facts, objects, category,
    whether it was required and why (docs/definitions.md sections 4, 5 and 10)."""
    return [
        dict(zip(INTERDEPENDENCE_COLUMNS, (
            source, f.giver.index, f.giver.t, f.giver.agent, str(f.giver.action),
            f.receiver.index, f.receiver.t, f.receiver.agent, str(f.receiver.action),
            " ".join(format_fact(fact) for fact in f.facts), " ".join(f.objects), f.goal_reaching, f.giver_loop,
            f.receiver_loop, f.category, f.required, f.why), strict=True))
        for f in findings
    ]


def agent_rows(source: str, metrics: Mapping[str, Mapping[str, Any]]) -> list[Row]:
    """One row per agent of the game ``source``: the agent and its metrics (``Report.agent_metrics``)."""
    return [{"source": source, "agent": agent, **row} for agent, row in metrics.items()]


def dataframe(rows: list[Row], columns: Iterable[str] = ()) -> pandas.DataFrame:
    """``rows`` as a pandas DataFrame (with ``columns`` when there is no row); one clear error without pandas."""
    try:
        import pandas
    except ImportError:
        raise StripsIntError("pandas", None, "not installed: pip install 'strips_int[pandas]'") from None
    return pandas.DataFrame(rows, columns=None if rows else list(columns))
