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
from typing import TYPE_CHECKING, Iterable, Mapping, NamedTuple, Sequence

from strips_int.model.task import Fact, Problem

from ..base import drawing_font

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from PIL import Image

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

    def image(self, state: frozenset[Fact], agents: Sequence[str], highlight: Iterable[str], colors: Sequence[str],
              size: tuple[int, int], dpi: float) -> Image.Image:
        """The same drawing as an image (:func:`kitchen_image`), for a page of many."""
        return kitchen_image(self.objects, state, agents, highlight, colors, size, dpi)

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


class Disc(NamedTuple):
    """An agent or an item: a disc at tile coordinates, its ring, and the letter on it (sizes in points)."""

    x: float
    y: float
    radius: float
    face: str
    edge: str
    ring: float
    letter: str
    size: float
    item: bool


def kitchen_scene(objects: Mapping[str, str], state: frozenset[Fact], agents: Sequence[str],
                  highlight: Iterable[str], colors: Sequence[str]) -> tuple[list[tuple[int, int, str]], list[Disc]]:
    """What a drawing of the kitchen in ``state`` holds, whatever draws it: each tile (column, row, colour) and
    the discs in drawing order, the agents (agent i in ``colors[i]``) then the items; objects in
    ``highlight`` get a red ring."""
    grid = tiles(objects)
    where = {name: pos for pos, (name, _) in grid.items()}
    marked = set(highlight)
    cells = [(x, y, LIT_COLOR if ("lit", name) in state else TILE_COLORS.get(kind, TILE_COLORS["counter"]))
             for (x, y), (name, kind) in grid.items()]
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
    discs = []
    for i, agent in enumerate(agents):
        if agent in placed:
            ring = _ring(agent in marked)
            discs.append(Disc(*placed[agent], 0.36, colors[i % len(colors)], ring["edgecolor"], ring["linewidth"],
                              agent[-1], 6, False))
    for item, pos in sorted(placed.items()):
        kind = objects.get(item, "")
        if kind in ITEM_STYLE:
            letter, colour = ITEM_STYLE[kind]
            ready = kind == "soup" and ("ready", item) in state
            ring = _ring(item in marked)
            discs.append(Disc(*pos, 0.2, "#B22222" if ready else colour, ring["edgecolor"], ring["linewidth"], letter,
                              5, True))
    return cells, discs


def draw_kitchen(ax: Axes, objects: Mapping[str, str], state: frozenset[Fact], agents: Sequence[str],
                 highlight: Iterable[str] = (), colors: Sequence[str] = ("#E69F00", "#009E73")) -> None:
    """Draw the kitchen in ``state`` on ``ax``, agent i in ``colors[i]``; objects in ``highlight`` get a red ring."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle, Rectangle

    cells, discs = kitchen_scene(objects, state, agents, highlight, colors)
    ax.add_collection(PatchCollection([Rectangle((x - 0.5, y - 0.5), 1, 1) for x, y, _ in cells],
                                      edgecolor="#999999", linewidth=0.3, facecolor=[c for _, _, c in cells]),
                      autolim=False)
    for disc in discs:  # items above agents (an item a player holds overlaps its disc), letters above all
        layer = {"zorder": 3} if disc.item else {}
        ax.add_patch(Circle((disc.x, disc.y), disc.radius, facecolor=disc.face, edgecolor=disc.edge,
                            linewidth=disc.ring, **layer))
        ax.text(disc.x, disc.y, disc.letter, ha="center", va="center", fontsize=disc.size,
                **({"zorder": 4} if disc.item else {}))
    columns = [x for x, _, _ in cells]
    rows = [y for _, y, _ in cells]
    ax.set_xlim(min(columns) - 0.5, max(columns) + 0.5)
    ax.set_ylim(max(rows) + 0.5, min(rows) - 0.5)
    ax.set_aspect("equal")
    ax.set_axis_off()


def kitchen_image(objects: Mapping[str, str], state: frozenset[Fact], agents: Sequence[str], highlight: Iterable[str],
                  colors: Sequence[str], size: tuple[int, int], dpi: float) -> Image.Image:
    """:func:`draw_kitchen`'s drawing as an image of at most ``size`` pixels (tiles square), points at ``dpi``:
    drawn with Pillow, some 0.5 ms a state where a matplotlib axes costs 20 ms (the HTML report draws two a
    row). The same scene (:func:`kitchen_scene`), the same colours, rings and letters."""
    from PIL import Image, ImageDraw

    cells, discs = kitchen_scene(objects, state, agents, highlight, colors)
    left, top = min(x for x, _, _ in cells), min(y for _, y, _ in cells)
    columns, rows = max(x for x, _, _ in cells) - left + 1, max(y for _, y, _ in cells) - top + 1
    tile = min(size[0] / columns, size[1] / rows)
    image = Image.new("RGB", (round(columns * tile), round(rows * tile)), "white")
    pen = ImageDraw.Draw(image)
    point = dpi / 72
    for x, y, colour in cells:
        x0, y0 = (x - left) * tile, (y - top) * tile
        pen.rectangle((round(x0), round(y0), round(x0 + tile), round(y0 + tile)), fill=colour, outline="#999999")
    for disc in discs:
        cx, cy, r = (disc.x - left + 0.5) * tile, (disc.y - top + 0.5) * tile, disc.radius * tile
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=disc.face, outline=disc.edge,
                    width=max(1, round(disc.ring * point)))
        pen.text((cx, cy), disc.letter, fill="black", font=drawing_font(disc.size * point), anchor="mm")
    return image

