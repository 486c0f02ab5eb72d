"""Findings as tables: one flat row per interdependence, per agent or per block, and rows as a pandas DataFrame
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

from .blocks import Block
from .interdependence import Finding

if TYPE_CHECKING:
    import pandas

Row = dict[str, Any]

#: The columns of the interdependencies table, in order.
INTERDEPENDENCE_COLUMNS = ("source", *(f"{role}_{part}" for role in ("giver", "receiver")
                                       for part in ("index", "t", "agent", "action")),
                           "facts", "objects", "goal_reaching", "giver_loop", "receiver_loop", "category", "required",
                           "why", "self_help_cost")


def interdependence_rows(source: str, findings: Sequence[Finding]) -> list[Row]:
    """One row per interdependence of the game ``source``: giver and receiver steps, facts, objects, category,
    whether it was required and why (docs/definitions.md sections 4, 5 and 10), and its self-help cost (section
    14: a whole number, ``"inf"`` or ``"unknown"``; None where the analysis did not ask for it)."""
    return [
        dict(zip(INTERDEPENDENCE_COLUMNS, (
            source, f.giver.index, f.giver.t, f.giver.agent, str(f.giver.action),
            f.receiver.index, f.receiver.t, f.receiver.agent, str(f.receiver.action),
            " ".join(format_fact(fact) for fact in f.facts), " ".join(f.objects), f.goal_reaching, f.giver_loop,
            f.receiver_loop, f.category, f.required, f.why, f.self_help_cost), strict=True))
        for f in findings
    ]


#: The columns of the blocks table, in order: the giver (a step, or for a collision the other attempt: ``giver_kind``
#: says which, ``giver_index`` its index among the steps or the attempts), the blocked attempt, the failed facts.
BLOCK_COLUMNS = ("source", "giver_kind", *(f"{role}_{part}" for role in ("giver", "attempt")
                                           for part in ("index", "t", "agent", "action")), "facts", "collision")


def block_rows(source: str, blocks: Sequence[Block]) -> list[Row]:
    """One row per block of the game ``source`` (docs/definitions.md section 13): who gave it and how, the
    attempt it blocked, the facts that failed (PDDL, ``(not f)`` for one the giver made true) and whether it
    is one side of a collision. A game that records no attempts has no rows, as one whose attempts met no
    block: ``Report.attempts`` tells them apart."""
    return [
        dict(zip(BLOCK_COLUMNS, (
            source, "attempt" if b.collision else "step", b.giver.index, b.giver.t, b.giver.agent,
            str(b.giver.action), b.attempt.index, b.attempt.t, b.attempt.agent, str(b.attempt.action),
            " ".join(b.facts), b.collision), strict=True))
        for b in blocks
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
