"""The agent graph: who helped whom how often; agents as nodes, arrows giver -> receiver weighted by count.

Arrows are split by a key of each interdependence (its category by default;
pass another ``split`` to split by anything in :meth:`Report.to_dict`'s
interdependence items, e.g. required/optional). Over several games, agents
are named by their role (``human``, ``ai``) when every game gives one, so a
batch group aggregates into one team picture.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable, Iterable, Mapping, Sequence, overload

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch

from strips_int.analysis.interdependence import CATEGORIES
from strips_int.errors import StripsIntError, argument, of_type, printable

from .style import AGENT_COLORS, CATEGORY_STYLE, RC_PARAMS, drawing_area, legend, width_argument
from .timeline import ENVIRONMENT

Split = Callable[[Mapping[str, Any]], str]
Edge = tuple[str, str, str]


def by_category(item: Mapping[str, Any]) -> str:
    """The default split: the interdependence's category."""
    return item["category"]


def agent_counts(games: Iterable[Mapping[str, Any]], split: Split = by_category, by_role: bool = False
                 ) -> tuple[list[str], Counter[Edge]]:
    """The nodes and the number of interdependencies per (giver, receiver, split key) over ``games``.

    ``games`` are :meth:`Report.to_dict` values; with ``by_role`` an agent is
    named by its role where the game's ``meta.roles`` gives one.
    """
    nodes: dict[str, None] = {}
    counts: Counter[Edge] = Counter()
    for game in games:
        roles = {a: printable(r) for a, r in (game["meta"].get("roles") or {}).items()} if by_role else {}
        nodes.update(dict.fromkeys(roles.get(a, a) for a in game["agents"]))
        for item in game["interdependencies"]:
            giver, receiver = (roles.get(item[end]["agent"], item[end]["agent"] or ENVIRONMENT)
                               for end in ("giver", "receiver"))
            nodes.update(dict.fromkeys((giver, receiver)))
            counts[giver, receiver, split(item)] += 1
    return list(nodes), counts


def _a_game(game: object) -> bool:
    """Whether ``game`` has the parts of a :meth:`Report.to_dict` value that :func:`agent_counts` reads."""
    return (isinstance(game, Mapping) and isinstance(game.get("agents"), Mapping)
            and isinstance(game.get("interdependencies"), list) and isinstance(game.get("meta"), Mapping)
            and all(isinstance(item, Mapping) and isinstance(item.get("giver"), Mapping)
                    and isinstance(item.get("receiver"), Mapping) for item in game["interdependencies"]))


@overload
def plot_agents(games: Sequence[Mapping[str, Any]], split: Split = ..., by_role: bool | None = ...,
                title: str | None = ..., width: float = ..., *, ax: None = None) -> Figure: ...
@overload
def plot_agents(games: Sequence[Mapping[str, Any]], split: Split = ..., by_role: bool | None = ...,
                title: str | None = ..., width: float = ..., *, ax: Axes) -> Axes: ...
def plot_agents(games: Sequence[Mapping[str, Any]], split: Split = by_category, by_role: bool | None = None,
                title: str | None = None, width: float = 3.4, *, ax: Axes | None = None) -> Figure | Axes:
    """Draw :func:`agent_counts`; each arrow has ``gid`` ``agents:<giver>-><receiver>:<key>:<count>``.
    Returns the new figure, ``width`` inches wide, or ``ax`` when given one to draw in (the legend inside it).

    ``by_role`` defaults to True for several games, False for one. Arrow
    width grows with the count, which is also printed on the arrow.

    Parameters:
        games: reports' :meth:`~strips_int.Report.to_dict` (or ``--json`` lines), one or many.
        split: what an arrow is kept apart by (the category, by default).
        by_role: agents by role rather than name (default: for several games).
        title: the title, instead of the counts.
        width: the figure's width in inches.
        ax: matplotlib axes to draw in, instead of a figure of its own.

    Returns:
        The new figure, or ``ax``.
    """
    argument("plot_agents", "games", games, isinstance(games, Sequence) and not isinstance(games, (str, bytes))
             and all(_a_game(g) for g in games), "a list of Report.to_dict() values")
    argument("plot_agents", "split", split, callable(split), "a function of an interdependence item")
    of_type("plot_agents", "by_role", by_role, (bool, type(None)), "None, True or False")
    of_type("plot_agents", "title", title, (str, type(None)), "None or a title")
    width_argument("plot_agents", width)
    if not games:
        raise StripsIntError("agent graph", None, "no games to draw")
    by_role = len(games) > 1 if by_role is None else by_role
    nodes, counts = agent_counts(games, split, by_role)
    keys = [k for k in CATEGORIES if any(e[2] == k for e in counts)]
    keys += sorted({e[2] for e in counts} - set(keys))
    styles = {k: CATEGORY_STYLE.get(k, {"color": AGENT_COLORS[(i + 3) % len(AGENT_COLORS)], "linestyle": "-"})
              for i, k in enumerate(keys)}
    place = {n: (math.cos(math.pi - 2 * math.pi * i / len(nodes)), math.sin(math.pi - 2 * math.pi * i / len(nodes)))
             for i, n in enumerate(nodes)}
    heaviest = max(counts.values(), default=1)
    with matplotlib.rc_context(RC_PARAMS):
        own = ax is None
        figure, ax, width = drawing_area(ax, width, (0.45 if len(nodes) <= 2 else 0.8) * width + 0.45)
        for i, node in enumerate(nodes):
            ax.add_patch(Circle(place[node], 0.2, color=AGENT_COLORS[i % len(AGENT_COLORS)], zorder=3))
            ax.text(*place[node], node, ha="center", va="center", fontsize=7, zorder=4)
        for (giver, receiver, key), count in sorted(counts.items()):
            rad = 0.12 + 0.14 * keys.index(key)
            (x1, y1), (x2, y2) = place[giver], place[receiver]
            arrow = FancyArrowPatch((x1, y1), (x2, y2), arrowstyle="-|>", connectionstyle=f"arc3,rad={rad}",
                                    mutation_scale=8, linewidth=0.6 + 3.0 * count / heaviest, shrinkA=16, shrinkB=16,
                                    zorder=2, **styles[key])
            arrow.set_gid(f"agents:{giver}->{receiver}:{key}:{count}")
            ax.add_patch(arrow)
            # The midpoint of arc3's quadratic Bezier: half the control point's offset from the chord's middle.
            mx, my = (x1 + x2) / 2 + 0.5 * rad * (y2 - y1), (y1 + y2) / 2 - 0.5 * rad * (x2 - x1)
            ax.text(mx, my, str(count), ha="center", va="center", fontsize=6, color=styles[key]["color"],
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"}, zorder=5)
        handles = [Line2D([], [], linewidth=1.2, label=f"{k} ({sum(c for e, c in counts.items() if e[2] == k)})",
                          **styles[k]) for k in keys]
        if handles:
            legend(figure, ax, own, handles, ncol=len(handles), handlelength=1.8, columnspacing=1.0)
        ax.set_xlim(-1.35, 1.35)
        ax.set_ylim(-0.75 if len(nodes) <= 2 else -1.35, 0.75 if len(nodes) <= 2 else 1.35)
        ax.set_aspect("equal")
        ax.set_axis_off()
        games_text = f"{len(games)} games" if len(games) > 1 else "1 game"
        ax.set_title(title or f"who helped whom: {sum(counts.values())} interdependencies, {games_text}", loc="left")
    return figure if own else ax
