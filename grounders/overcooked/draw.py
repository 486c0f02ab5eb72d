"""An Overcooked kitchen drawn from the lifted state: stations, agents and items at one step.

The grounder's drawing of its states (:meth:`strips_int.grounders.base.Grounder.drawing`), which the
HTML report shows beside each interdependence. The grid comes from the problem's objects, whose names
end in their tile's column and row (``counter2_1``, ``c1_2``: what the lifter writes); positions come
from the state's facts ``(at player c)``, ``(on item counter)``, ``(holding player item)`` and
``(in-pot soup pot)``. Hand-drawn with matplotlib (imported only to draw) so no Overcooked renderer
is needed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from strips_int.model.task import Fact, Problem

if TYPE_CHECKING:
    from matplotlib.axes import Axes

_TILE = re.compile(r"\D*?(\d+)_(\d+)$")
#: Tile colours by object type; a type not listed (a new station) is drawn as a counter.
TILE_COLORS = {"cell": "#FFFFFF", "counter": "#C8B48C", "pot": "#6E6E6E", "onion-dispenser": "#F2D16B",
               "tomato-dispenser": "#E58C7A", "dish-dispenser": "#D9D9D9", "window": "#7FBF7F",
               # OvercookedV2's piles of numbered ingredient kinds and its recipe indicators
               "ingredient-dispenser": "#9ECAE1", "indicator": "#756BB1", "button": "#BCBDDC"}
#: A button indicator while lit (``(lit b)``: it shows the recipe).
LIT_COLOR = "#FFD92F"
ITEM_STYLE = {"onion": ("o", "#E6B800"), "tomato": ("t", "#D62728"), "dish": ("d", "#FFFFFF"),
              "soup": ("s", "#E07B39"), "ingredient": ("i", "#6BAED6")}


def tiles(objects: Mapping[str, str]) -> dict[tuple[int, int], tuple[str, str]]:
    """(column, row) -> (object, type) for every object whose name ends in ``X_Y`` and is a tile type."""
    grid = {}
    for name, kind in objects.items():
        match = _TILE.match(name)
        if match and (kind == "cell" or kind in TILE_COLORS or kind.endswith(("counter", "dispenser"))):
            grid[int(match[1]), int(match[2])] = (name, kind)
    return grid


def is_kitchen(objects: Mapping[str, str]) -> bool:
    """Whether the problem has a tile grid to draw (an Overcooked problem)."""
    return any(kind == "cell" for kind in objects.values()) and len(tiles(objects)) > 1


def _ring(marked: bool) -> dict[str, object]:
    """A red ring for the objects an interdependence shares, a thin black one otherwise."""
    return {"edgecolor": "red", "linewidth": 1.2} if marked else {"edgecolor": "black", "linewidth": 0.4}


def kitchen_drawing(problem: Problem) -> Kitchen | None:
    """The drawing of ``problem``'s kitchen, or None when it has no tile grid."""
    return Kitchen(problem.objects) if is_kitchen(problem.objects) else None


class Kitchen:
    """Draws one problem's kitchen in any of its states, and the key to its drawings."""

    def __init__(self, objects: Mapping[str, str]) -> None:
        self.objects = objects

    def __call__(self, ax: Axes, state: frozenset[Fact], agents: Sequence[str], highlight: Iterable[str],
                 colors: Sequence[str]) -> None:
        draw_kitchen(ax, self.objects, state, agents, highlight, colors)

    def key(self, ax: Axes, agents: Sequence[str], colors: Sequence[str]) -> None:
        """The key: each agent, item and tile this kitchen has, and the ring of a shared object."""
        draw_key(ax, self.objects, agents, colors)


#: What the key calls each tile type and item.
TILE_NAMES = {"cell": "floor", "counter": "counter", "pot": "pot", "onion-dispenser": "onion dispenser",
              "tomato-dispenser": "tomato dispenser", "dish-dispenser": "dish dispenser", "window": "serving window",
              "ingredient-dispenser": "ingredient pile", "indicator": "recipe indicator", "button": "recipe button"}


def draw_key(ax: Axes, objects: Mapping[str, str], agents: Sequence[str],
             colors: Sequence[str] = ("#E69F00", "#009E73")) -> None:
    """A key to :func:`draw_kitchen` on ``ax``, in rows: the agents (by the digit they carry), the items
    (by letter; a ready soup dark red), the shared-object ring, then the tiles of ``objects``' kitchen."""
    from matplotlib.patches import Circle, Rectangle

    kinds = set(objects.values())
    tile_kinds = sorted({kind for _, kind in tiles(objects).values()}, key=lambda k: (k != "cell", k))
    entries: list[tuple[object, str]] = []
    for i, agent in enumerate(agents):
        entries.append(((Circle, {"radius": 0.36, "facecolor": colors[i % len(colors)], **_ring(False)}, agent[-1]),
                        agent))
    for kind, (letter, colour) in ITEM_STYLE.items():
        if kind in kinds:
            entries.append(((Circle, {"radius": 0.2, "facecolor": colour, **_ring(False)}, letter), kind))
            if kind == "soup":
                entries.append(((Circle, {"radius": 0.2, "facecolor": "#B22222", **_ring(False)}, letter), "ready soup"))
    entries.append(((Circle, {"radius": 0.2, "facecolor": "#FFFFFF", **_ring(True)}, ""), "shared object"))
    rows = [entries, [((Rectangle, {"facecolor": TILE_COLORS.get(k, TILE_COLORS["counter"]), "edgecolor": "#999999",
                                    "linewidth": 0.3}, ""), TILE_NAMES.get(k, k)) for k in tile_kinds]]
    width = 0.0
    for y, row in enumerate(rows):
        x = 0.0
        for (shape, style, letter), label in row:
            patch = shape((x - 0.4, y - 0.4), 0.8, 0.8, **style) if shape is Rectangle else shape((x, y), **style)
            ax.add_patch(patch)
            if letter:
                ax.text(x, y, letter, ha="center", va="center", fontsize=5)
            ax.text(x + 0.55, y, label, ha="left", va="center", fontsize=6.5)
            x += 1.4 + 0.17 * len(label)  # a glyph, and its label at about 0.17 tiles a character
        width = max(width, x)
    ax.set_xlim(-0.6, max(width, 21.0))
    ax.set_ylim(len(rows) - 0.4, -0.6)
    ax.set_aspect("equal")
    ax.set_axis_off()


def draw_kitchen(ax: Axes, objects: Mapping[str, str], state: frozenset[Fact], agents: Sequence[str],
                 highlight: Iterable[str] = (), colors: Sequence[str] = ("#E69F00", "#009E73")) -> None:
    """Draw the kitchen in ``state`` on ``ax``, agent i in ``colors[i]``; objects in ``highlight`` get a red ring."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, Rectangle

    grid = tiles(objects)
    where = {name: pos for pos, (name, _) in grid.items()}
    marked = set(highlight)
    ax.add_collection(PatchCollection([Rectangle((x - 0.5, y - 0.5), 1, 1) for x, y in grid], edgecolor="#999999",
                                      linewidth=0.3, facecolor=[LIT_COLOR if ("lit", name) in state else
                                                                TILE_COLORS.get(kind, TILE_COLORS["counter"])
                                                                for name, kind in grid.values()]), autolim=False)
    placed: dict[str, tuple[float, float]] = {}
    for fact in sorted(state):
        if fact[0] == "at" and fact[2] in where:
            placed[fact[1]] = where[fact[2]]
    for fact in sorted(state):
        if fact[0] in ("on", "in-pot") and fact[2] in where:
            placed[fact[1]] = where[fact[2]]
        elif fact[0] == "holding" and fact[1] in placed:
            x, y = placed[fact[1]]
            placed[fact[2]] = (x + 0.28, y - 0.28)
    for i, agent in enumerate(agents):
        if agent in placed:
            ax.add_patch(Circle(placed[agent], 0.36, facecolor=colors[i % len(colors)],
                                **_ring(agent in marked)))
            ax.text(*placed[agent], agent[-1], ha="center", va="center", fontsize=6)
    for item, pos in sorted(placed.items()):
        kind = objects.get(item, "")
        if kind in ITEM_STYLE:
            letter, colour = ITEM_STYLE[kind]
            ready = kind == "soup" and ("ready", item) in state
            ax.add_patch(Circle(pos, 0.2, facecolor="#B22222" if ready else colour, zorder=3, **_ring(item in marked)))
            ax.text(*pos, letter, ha="center", va="center", fontsize=5, zorder=4)
    columns = [x for x, _ in grid]
    rows = [y for _, y in grid]
    ax.set_xlim(min(columns) - 0.5, max(columns) + 0.5)
    ax.set_ylim(max(rows) + 0.5, min(rows) - 0.5)
    ax.set_aspect("equal")
    ax.set_axis_off()
