"""One game as a self-contained HTML page: summary, one table row per interdependence, timeline, states.

Each row shows the giver's and the receiver's actions and the facts the receiver needed from the giver
(a clue and the play it informed: ``(rank-known c12-red3 hand1)``; an onion handed over a counter).

Images are inline (``data:`` URIs: SVG for the timeline, PNG for the
states), so the file opens from disk in any browser with no server and no
network. Where the game's grounder draws its states (an Overcooked kitchen:
:meth:`strips_int.grounders.base.Grounder.drawing`), each row shows the state
just after the giver's step and just before the receiver's step, the objects
the two share marked.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import matplotlib
from matplotlib.figure import Figure

from strips_int.analysis.report import Report
from strips_int.errors import printable
from strips_int.grounders import Drawing, drawing_for
from strips_int.model.task import Fact, GroundAction

from .style import AGENT_COLORS, RC_PARAMS, writing
from .timeline import game_title, plot_timeline

_STYLE = """body{font:14px/1.4 sans-serif;margin:1.5em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}
th{background:#f2f2f2}td.num{text-align:right}img.timeline{width:100%}img.state{width:24em}
.constructive{color:#0072B2}.looping{color:#D55E00}.irrelevant{color:#7F7F7F}"""


def data_uri(figure: Figure, kind: str, dpi: int = 150) -> str:
    """The figure as a ``data:`` URI (``png`` or ``svg``)."""
    buffer = io.BytesIO()
    with matplotlib.rc_context(RC_PARAMS):
        figure.savefig(buffer, format=kind, dpi=dpi, metadata={"png": {"Software": None},
                                                               "svg": {"Date": None, "Creator": None}}[kind])
    mime = "image/svg+xml" if kind == "svg" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


class Markup(str):
    """HTML this module made (a category's span, an inline image): the one kind of cell not escaped."""


def text(value: Any) -> str:
    """Text from the input as HTML shows it: escaped (``< > & " '``), control characters as visible escapes
    (:func:`~strips_int.errors.printable`): every table cell and every piece of input text in the page."""
    return html.escape(printable(value))


def _cell(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<td class="num">{value}</td>'
    return f"<td>{value if isinstance(value, Markup) else text(value)}</td>"


def _table(header: list[str], rows: list[list[Any]], row_class: str = "") -> str:
    """A table whose every header and cell is escaped by :func:`text`, but :class:`Markup`."""
    head = "".join(f"<th>{text(h)}</th>" for h in header)
    tr = f'<tr class="{row_class}">' if row_class else "<tr>"
    body = "".join(tr + "".join(map(_cell, row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def states(init: Iterable[Fact], actions: Sequence[GroundAction]) -> Iterator[frozenset[Fact]]:
    """The state before each action, then the final state (the trace already executed, so no checks)."""
    state = set(init)
    yield frozenset(state)
    for action in actions:
        state -= action.delete
        state |= action.add
        yield frozenset(state)


def _states(report: Report, draw: Drawing, item: Mapping[str, Any], before: list[frozenset]) -> str:
    """Two states side by side: after the giver's step, before the receiver's."""
    giver, receiver = item["giver"], item["receiver"]
    with matplotlib.rc_context(RC_PARAMS):
        # A fixed layout: constrained layout would cost about a second per row here.
        figure = Figure(figsize=(3.4, 1.6), layout="none")
        figure.subplots_adjust(left=0.01, right=0.99, bottom=0.01, top=0.88, wspace=0.05)
        for ax, state, caption in zip(figure.subplots(1, 2), (before[giver["index"] + 1], before[receiver["index"]]),
                                      (f"after t={giver['t']} ({giver['agent']})",
                                       f"before t={receiver['t']} ({receiver['agent']})")):
            draw(ax, state, list(report.agents), item["objects"], AGENT_COLORS)
            ax.set_title(caption, fontsize=6)
    uri = data_uri(figure, "png", dpi=110)
    return Markup(f'<img class="state" alt="the state after the giver\'s and before the receiver\'s step" src="{uri}">')


def html_report(report: Report) -> str:
    """The page for ``report``; its problem gives the initial state the drawn states start from."""
    problem = report.problem
    data = report.to_dict()
    counts = data["counts"]
    title = text(f"{game_title(data)} ({report.source})")
    roles = data["meta"].get("roles") or {}
    agents = [[a, roles.get(a, row["type"]), row["subtasks"], row["triggers"], row["accepted_triggers"],
               _pct(row["pct_triggers"]), _pct(row["pct_not_accepted"]), row["given"], row["received"]]
              for a, row in data["agents"].items()]
    draw = drawing_for(report.domain, problem)
    before = list(states(problem.init, [s.action for s in report.steps])) if draw is not None else []
    rows = []
    for i, item in enumerate(data["interdependencies"]):
        giver, receiver = item["giver"], item["receiver"]
        row = [i, f"{giver['t']}", giver["agent"], giver["action"], f"{receiver['t']}", receiver["agent"],
               receiver["action"], " ".join(item["facts"]), ", ".join(item["objects"]),
               Markup(f'<span class="{item["category"]}">{item["category"]}</span>'), item["why"]]
        if draw is not None:
            row.append(_states(report, draw, item, before))
        rows.append(row)
    header = ["#", "giver t", "giver", "giver action", "receiver t", "receiver", "receiver action", "needed",
              "objects", "category", "why"] + (["state"] if draw is not None else [])
    meta = ", ".join(f"{k} {v}" for k, v in data["meta"].items() if isinstance(v, (str, int, float)))
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', '<link rel="icon" href="data:,">',
        f"<title>{title}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<section id="summary"><h2>Summary</h2><p>domain {text(report.domain)}, problem '
        f"{text(report.problem.name)}, {data['steps']} steps; {text(meta)}</p>",
        f"<p>goal: {len(data['goal']['achieved'])}/{len(data['goal']['facts'])} facts reached</p>",
        _table(["interdependencies", "constructive", "non-constructive", "looping", "irrelevant"],
               [[counts[k] for k in ("interdependencies", "constructive", "non_constructive", "looping",
                                     "irrelevant")]]),
        _table(["agent", "role", "sub-tasks", "triggers", "accepted", "%trig", "%not-acc", "given", "received"],
               agents), "</section>",
        f'<section id="timeline"><h2>Timeline</h2><img class="timeline" alt="timeline" '
        f'src="{data_uri(plot_timeline(report, width=7.0), "svg")}"></section>',
        f'<section id="interdependencies"><h2>Interdependencies ({counts["interdependencies"]})</h2>',
        _table(header, rows, "interdependence") if rows else "<p>none</p>",
        "</section>", "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_html(report: Report, path: str | Path) -> Path:
    """Write :func:`html_report` to ``path``."""
    path = Path(path)
    page = html_report(report)
    with writing(path):
        path.write_text(page, encoding="utf-8")
    return path
