"""One game as a self-contained HTML page: summary, one table row per interdependence, timeline, states.

Images are inline (``data:`` URIs: SVG for the timeline, PNG for the
states), so the file opens from disk in any browser with no server and no
network. Each row shows the giver's and the receiver's actions and the facts the receiver needed from the
giver (a clue and the play it informed: ``(rank-known c12-red3 hand1)``; an onion handed over a counter).
Each interdependence is a row and its reason the full-width line
below it, so a long reason never makes a row tall. Where the game's grounder
draws its states (an Overcooked kitchen:
:meth:`strips_int.grounders.base.Grounder.drawing`), each row shows the state
just after the giver's step (1) and just before the receiver's step (2), each
framed in its agent's colour, the objects the two share marked, with the
drawing's key above the table. Blocks (definitions section 13), where the game records attempts, are rows
of a table of their own drawn the same way, in black: the giver's step, the attempt it made fail, the facts
that failed, and the states just after the giver's step and at the attempt. With self-help costs
(section 14), each interdependence's reason ends with its cost.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import matplotlib
from matplotlib.figure import Figure

from strips_int.analysis.report import AGENT_COLUMNS, Report
from strips_int.errors import path_argument, printable
from strips_int.grounders import Drawing, drawing_for
from strips_int.grounders.base import drawing_font
from strips_int.model.task import Fact, GroundAction

from .style import AGENT_COLORS, RC_PARAMS, TWO_COLUMNS, report_argument, writing
from .timeline import game_title, plot_timeline

_STYLE = """body{font:14px/1.4 sans-serif;margin:1.5em;max-width:76em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}
th{background:#f2f2f2}td.num{text-align:right}img.timeline{width:100%}img.key{width:100%;max-width:60em}
table.interdependencies{width:100%}td.step{width:17em}td.step code{font-size:12px;overflow-wrap:anywhere}
td.why{font-size:13px;color:#444;border-top:none}td.state{width:26em;padding:.2em}img.state{width:26em}
.constructive{color:#0072B2}.looping{color:#D55E00}.irrelevant{color:#7F7F7F}.block{color:#000;font-weight:bold}"""
#: The columns of an interdependence's first line; its reason (why) is the line below, as wide as they are.
_COLUMNS = ("#", "giver", "receiver", "needed", "objects", "category")


def data_uri(figure: Figure, kind: str, dpi: int = 150) -> str:
    """The figure as a ``data:`` URI (``png`` or ``svg``)."""
    buffer = io.BytesIO()
    with matplotlib.rc_context(RC_PARAMS):
        figure.savefig(buffer, format=kind, dpi=dpi, metadata={"png": {"Software": None},
                                                               "svg": {"Date": None, "Creator": None}}[kind])
    mime = "image/svg+xml" if kind == "svg" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def text(value: Any) -> str:
    """Text from the input as HTML shows it: escaped (``< > & " '``), control characters as visible escapes
    (:func:`~strips_int.errors.printable`): every table cell and every piece of input text in the page."""
    return html.escape(printable(value))


def _cell(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<td class="num">{value}</td>'
    return f"<td>{text(value)}</td>"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    """A table whose every header and cell is escaped by :func:`text`."""
    head = "".join(f"<th>{text(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(map(_cell, row)) + "</tr>" for row in rows)
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


#: The image of one row's two states: its size in inches and resolution, the margins and the gap between the two
#: drawings (fractions of the width and height, as matplotlib's ``subplots_adjust`` takes them).
PANELS = {"size": (3.6, 1.75), "dpi": 110, "left": 0.02, "right": 0.98, "bottom": 0.03, "top": 0.86, "wspace": 0.12}
#: The frame around a state (points) and its caption's size.
FRAME, CAPTION = 2.5, 6.5


def _states(report: Report, draw: Drawing, objects: Sequence[str], ends: Sequence[tuple[frozenset, str, str]],
            alt: str) -> str:
    """Two states side by side (``ends``: each state, the agent whose colour frames it, its caption), the
    ``objects`` highlighted. Drawn by the drawing's ``image`` with Pillow where it has one (:func:`_panels`),
    else on matplotlib axes."""
    agents = list(report.agents)
    alt = f'alt="{alt}"'
    if hasattr(draw, "image"):
        return f'<img class="state" {alt} src="{_panels(draw, ends, agents, objects)}">'
    with matplotlib.rc_context(RC_PARAMS):
        # A fixed layout: constrained layout would cost about a second per row here.
        figure = Figure(figsize=PANELS["size"], layout="none")
        figure.subplots_adjust(**{k: PANELS[k] for k in ("left", "right", "bottom", "top", "wspace")})
        for ax, (state, agent, caption) in zip(figure.subplots(1, 2), ends):
            draw(ax, state, agents, objects, AGENT_COLORS)
            ax.set_axis_on()
            ax.set_xticks([])
            ax.set_yticks([])
            for spine in ax.spines.values():
                spine.set(edgecolor=_frame_color(agents, agent), linewidth=FRAME)
            ax.set_title(f"{caption} ({agent})", fontsize=CAPTION)
    return f'<img class="state" {alt} src="{data_uri(figure, "png", dpi=PANELS["dpi"])}">'


def _frame_color(agents: list[str], agent: str) -> str:
    """The colour framing a state next to ``agent``'s step (grey for the environment)."""
    return AGENT_COLORS[agents.index(agent) % len(AGENT_COLORS)] if agent in agents else "#333"


def _panels(draw: Any, ends: Sequence[tuple[frozenset, str, str]], agents: list[str],
            highlight: Sequence[str]) -> str:
    """The two states of :func:`_states` as one PNG drawn with Pillow (each drawing by ``draw.image``), laid out
    as the matplotlib figure lays them out (:data:`PANELS`): a page of many rows takes a second less."""
    from PIL import Image, ImageDraw

    dpi = PANELS["dpi"]
    width, height = (round(inches * dpi) for inches in PANELS["size"])
    page = Image.new("RGB", (width, height), "white")
    pen = ImageDraw.Draw(page)
    span = (PANELS["right"] - PANELS["left"]) * width
    box_width = span / (2 + PANELS["wspace"])
    box_top, box_bottom = (1 - PANELS["top"]) * height, (1 - PANELS["bottom"]) * height
    frame = max(1, round(FRAME * dpi / 72))
    for k, (state, agent, caption) in enumerate(ends):
        left = PANELS["left"] * width + k * box_width * (1 + PANELS["wspace"])
        drawing = draw.image(state, agents, highlight, AGENT_COLORS, (int(box_width), int(box_bottom - box_top)), dpi)
        x0 = round(left + (box_width - drawing.width) / 2)
        y0 = round(box_top + (box_bottom - box_top - drawing.height) / 2)
        page.paste(drawing, (x0, y0))
        half = frame / 2
        pen.rectangle((x0 - half, y0 - half, x0 + drawing.width + half, y0 + drawing.height + half),
                      outline=_frame_color(agents, agent), width=frame)
        pen.text((x0 + drawing.width / 2, y0 - frame - 2), f"{caption} ({agent})", fill="black",
                 font=drawing_font(CAPTION * dpi / 72), anchor="md")
    buffer = io.BytesIO()
    page.save(buffer, format="png")
    return f"data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def _pair_states(report: Report, draw: Drawing, item: Mapping[str, Any], before: list[frozenset]) -> str:
    """After the giver's step and before the receiver's (said to be the same state when nothing happened
    between), each framed in the colour of the agent whose step it borders."""
    giver, receiver = item["giver"], item["receiver"]
    after_giver, before_receiver = before[giver["index"] + 1], before[receiver["index"]]
    same = ", as 1" if after_giver == before_receiver else ""
    return _states(report, draw, item["objects"], [
        (after_giver, giver["agent"], f"1: after t={giver['t']}"),
        (before_receiver, receiver["agent"], f"2: before t={receiver['t']}{same}")],
        "the state after the giver's step (1) and before the receiver's step (2)")


def _block_states(report: Report, draw: Drawing, block: Mapping[str, Any], before: list[frozenset]) -> str:
    """After the giver's step (for a collision: at the two attempts) and at the blocked attempt's place (after
    every step of its time)."""
    giver, attempt = block["giver"], block["attempt"]
    place = sum(step.t <= attempt["t"] for step in report.steps)
    after_giver = before[giver["step"] + 1] if "step" in giver else before[place]
    objects = [a for fact in block["facts"] for a in fact.strip("()").removeprefix("not (").split()[1:]]
    return _states(report, draw, objects, [(after_giver, giver["agent"], f"1: after t={giver['t']}"),
                                           (before[place], attempt["agent"], f"2: at t={attempt['t']}")],
                   "the state after the giver's step (1) and at the blocked attempt (2)")


def _key(report: Report, draw: Drawing) -> str:
    """The drawing's key (what each tile, item and ring means), once above the table, where the grounder's
    drawing has one (an optional ``key(ax, agents, colors)``)."""
    key = getattr(draw, "key", None)
    if key is None:
        return ""
    with matplotlib.rc_context(RC_PARAMS):
        figure = Figure(figsize=(7.0, 0.75), layout="none")
        figure.subplots_adjust(left=0, right=1, bottom=0, top=1)
        ax = figure.subplots()
        key(ax, list(report.agents), AGENT_COLORS)
    return (f'<p>States: 1 just after the giver\'s step, 2 just before the receiver\'s, each framed in the colour '
            f'of that step\'s agent; the objects the two share marked as the key shows.</p>'
            f'<img class="key" alt="key to the drawings of the states" src="{data_uri(figure, "png", dpi=150)}">')


def _step(end: Mapping[str, Any]) -> str:
    return f"t={end['t']} {text(end['agent'])}<br><code>{text(end['action'])}</code>"


def _interdependences(report: Report, data: Mapping[str, Any], draw: Drawing | None) -> str:
    """One table row per interdependence (giver, receiver, objects, category, the drawn states), its reason on a
    line of its own below, as wide as the columns, so a long reason makes no row tall."""
    if not data["interdependencies"]:
        return "<p>none</p>"
    problem = report.problem
    before = list(states(problem.init, [s.action for s in report.steps])) if draw is not None else []
    head = "".join(f"<th>{h}</th>" for h in _COLUMNS) + ("<th>state: 1 after giver, 2 before receiver</th>"
                                                         if draw is not None else "")
    body = []
    for i, item in enumerate(data["interdependencies"]):
        state = (f'<td class="state" rowspan="2">{_pair_states(report, draw, item, before)}</td>'
                 if draw is not None else "")
        body.append(f'<tr class="interdependence"><td class="num">{i}</td><td class="step">{_step(item["giver"])}</td>'
                    f'<td class="step">{_step(item["receiver"])}</td><td>{text(" ".join(item["facts"]))}</td>'
                    f'<td>{text(", ".join(item["objects"]))}</td>'
                    f'<td><span class="{item["category"]}">{item["category"]}</span></td>{state}</tr>')
        cost = f"; self-help cost {item['self_help_cost']}" if "self_help_cost" in item else ""
        body.append(f'<tr><td class="why" colspan="{len(_COLUMNS)}">{text(item["why"] + cost)}</td></tr>')
    return (_key(report, draw) if draw is not None else "") + (
        f'<table class="interdependencies"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def _blocks(report: Report, data: Mapping[str, Any], draw: Drawing | None) -> str:
    """One row per block, as an interdependence's: the giver's step (or the other attempt of a collision),
    the blocked attempt, the facts that failed, ``block`` in black and the drawn states; each agent's
    blocks given and received above."""
    rows = [[a, row["blocks_given"], row["blocks_received"]] for a, row in data["agents"].items()]
    summary = (f"<p>{len(data['blocks'])} blocks on {data['attempts']} attempts (actions agents chose that did not "
               "happen)</p>" + _table(["agent", "blocks given", "blocks received"], rows))
    if not data["blocks"]:
        return summary
    before = list(states(report.problem.init, [s.action for s in report.steps])) if draw is not None else []
    head = "".join(f"<th>{h}</th>" for h in ("#", "giver", "blocked attempt", "failed", "kind")) + (
        "<th>state: 1 after giver, 2 at the attempt</th>" if draw is not None else "")
    body = []
    for i, block in enumerate(data["blocks"]):
        state = (f'<td class="state">{_block_states(report, draw, block, before)}</td>' if draw is not None else "")
        kind = "block (collision)" if block["collision"] else "block"
        body.append(f'<tr class="block"><td class="num">{i}</td><td class="step">{_step(block["giver"])}</td>'
                    f'<td class="step">{_step(block["attempt"])}</td><td>{text(" ".join(block["facts"]))}</td>'
                    f'<td><span class="block">{kind}</span></td>{state}</tr>')
    return summary + (f'<table class="interdependencies"><thead><tr>{head}</tr></thead>'
                      f'<tbody>{"".join(body)}</tbody></table>')


def html_report(report: Report) -> str:
    """The page for ``report``; its problem gives the initial state the drawn states start from.

    Parameters:
        report: the game's report.

    Returns:
        The page's HTML: self-contained (its figures inline).
    """
    data = report_argument("html_report", report).to_dict()
    counts = data["counts"]
    title = text(f"{game_title(data)} ({report.source})")
    agents = [[a, (data["meta"].get("roles") or {}).get(a, row["type"]),
               row["subtasks"], row["triggers"], row["accepted_triggers"], _pct(row["pct_triggers"]),
               _pct(row["pct_not_accepted"]), row["given"], row["received"], row["given_required"],
               row["received_required"]] for a, row in data["agents"].items()]
    meta = ", ".join(f"{k} {v}" for k, v in data["meta"].items() if isinstance(v, (str, int, float)))
    draw = drawing_for(report.domain, report.problem)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', '<link rel="icon" href="data:,">',
        f"<title>{title}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<section id="summary"><h2>Summary</h2><p>domain {text(report.domain)}, problem '
        f"{text(report.problem.name)}, {data['steps']} steps; {text(meta)}</p>",
        f"<p>goal: {len(data['goal']['achieved'])}/{len(data['goal']['facts'])} facts reached</p>",
        _table(["interdependencies", "constructive", "non-constructive", "looping", "irrelevant",
                "constructive required", "constructive optional"],
               [[counts[k] for k in ("interdependencies", "constructive", "non_constructive", "looping",
                                     "irrelevant", "constructive_required", "constructive_optional")]]),
        f"<p>{AGENT_COLUMNS}:</p>",
        _table(["agent", "role", "sub-tasks", "triggers", "accepted", "%trig", "%not-acc", "given", "received",
                "given-req", "received-req"], agents), "</section>",
        f'<section id="timeline"><h2>Timeline</h2><img class="timeline" alt="timeline" '
        f'src="{data_uri(plot_timeline(report, width=TWO_COLUMNS), "svg")}"></section>',
        f'<section id="interdependencies"><h2>Interdependencies ({counts["interdependencies"]})</h2>',
        _interdependences(report, data, draw),
        "</section>",
        *([f'<section id="blocks"><h2>Blocks ({len(data["blocks"])})</h2>', _blocks(report, data, draw), "</section>"]
          if report.attempts is not None else []),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_html(report: Report, path: str | Path) -> Path:
    """Write :func:`html_report` to ``path``.

    Parameters:
        report: the game's report.
        path: the page's file.

    Returns:
        ``path``.
    """
    report_argument("write_html", report)
    path = path_argument("write_html", "path", path)
    text = html_report(report)
    with writing(path):
        path.write_text(text, encoding="utf-8")
    return path
