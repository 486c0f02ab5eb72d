"""Overcooked terrains: the classic layouts by current and old names, grid text, overcooked-ai files.

Grid characters: ``X`` counter, ``O`` onion dispenser, ``T`` tomato
dispenser, ``D`` dish dispenser, ``P`` pot, ``S`` serving window, blank
floor, digits floor start tiles (``1`` is player 0's).
"""

from __future__ import annotations

import ast
import functools
import math
import importlib.util
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from strips_int.errors import StripsIntError, brief, closest
from strips_int.files import read_text

from .recipes import Recipe, Times, Values, layout_orders, layout_times, layout_values, orders_of

Pos = tuple[int, int]

STATIONS = {"X": "counter", "O": "onion-dispenser", "T": "tomato-dispenser", "D": "dish-dispenser",
            "P": "pot", "S": "window"}

# The grids the paper's games were played on (shared/data/README.md).
_CLASSIC = {
    "cramped_room": ("XXPXX", "O  2O", "X1  X", "XDXSX"),
    "asymmetric_advantages": ("XXXXXXXXX", "O XSXOX S", "X   P 1 X", "X2  P   X", "XXXDXDXXX"),
    "coordination_ring": ("XXXPX", "X 1 P", "D2X X", "O   X", "XOSXX"),
    "forced_coordination": ("XXXPX", "O X1P", "O2X X", "D X X", "XXXSX"),
    "counter_circuit_o_1order": ("XXXPPXXX", "X  2   X", "D XXXX S", "X  1   X", "XXXOOXXX"),
    # The user-study web game's Counter Circuit: the classic terrain, other start tiles. Its files call it
    # "counter_circuit", which in overcooked-ai names a newer terrain (top row XXXPDPXXX, tomatoes).
    "paper_counter_circuit": ("XXXPPXXX", "X      X", "D XXXX S", "X2    1X", "XXXOOXXX"),
}
#: Names the paper's old-rules web game gave its terrains where overcooked-ai means another one.
OLD_RULES_NAMES = {"counter_circuit": "paper_counter_circuit"}
#: Old names (ZSC-Eval, human_aware_rl) of the classic layouts.
ALIASES = {
    "simple": "cramped_room",
    "unident_s": "asymmetric_advantages",
    "random1": "coordination_ring",
    "random0": "forced_coordination",
    "random3": "counter_circuit_o_1order",
}


@dataclass(frozen=True)
class Layout:
    """A terrain: tiles by position and the players' start tiles; from an overcooked-ai layout file also
    its rules, orders, values and cooking times."""

    name: str
    rows: tuple[str, ...]
    #: Old rules: three-onion soups only, a pot cooks by itself. Else overcooked-ai's new rules with
    #: these orders and bonus orders (None: every recipe, and the layout's values and times unknown:
    #: a grid without its layout file) and delivery values.
    old_rules: bool = True
    orders: tuple[Recipe, ...] | None = None
    bonus: tuple[Recipe, ...] = ()
    values: Values = Values()
    times: Times = Times()

    @property
    def configured(self) -> bool:
        """Whether the layout's orders, values and cooking times are known (it was read from a layout file)."""
        return self.orders is not None

    def dispensed(self) -> tuple[str, ...]:
        """The kinds of object the layout's dispensers give (onion, tomato, dish), in that order."""
        chars = set(self.tiles.values())
        return tuple(kind for char, kind in (("O", "onion"), ("T", "tomato"), ("D", "dish")) if char in chars)

    @functools.cached_property
    def tiles(self) -> dict[Pos, str]:
        """Every position's grid character, digits read as floor (computed once: the lifter asks often)."""
        return {(x, y): " " if char.isdigit() else char for y, row in enumerate(self.rows) for x, char in enumerate(row)}

    def tile(self, pos: Pos) -> str | None:
        """The grid character at ``pos`` (digits read as floor), or None off the grid."""
        return self.tiles.get(pos)

    def positions(self) -> list[Pos]:
        """Every position of the grid, row by row."""
        return [(x, y) for y, row in enumerate(self.rows) for x in range(len(row))]

    def floor(self) -> list[Pos]:
        return [p for p in self.positions() if self.tile(p) == " "]

    def starts(self) -> list[Pos]:
        """Start tiles in player order (digit 1 first)."""
        found = sorted((int(c), (x, y)) for y, row in enumerate(self.rows) for x, c in enumerate(row) if c.isdigit())
        return [pos for _, pos in found]


#: The most cells a grid may have, checked before it is lifted: the problem of a 500 x 500 grid (a million
#: initial facts) takes some 6.5 s of CPU and 440 MiB to build; real layouts have a few hundred cells.
MAX_GRID_CELLS = 500 * 500


def parse_grid(text: str, name: str, source: str) -> Layout:
    """A layout from grid text (one row per line; surrounding blank lines and indentation dropped), of at
    most :data:`MAX_GRID_CELLS` cells: a rectangle whose start digits are 1 to N, once each (as overcooked-ai
    requires of its layouts)."""
    rows = tuple(line.strip() for line in text.strip("\n").splitlines() if line.strip())
    cells = sum(map(len, rows))
    if cells > MAX_GRID_CELLS:
        raise StripsIntError(source, None, f"a grid of {cells:,} cells, more than the {MAX_GRID_CELLS:,} "
                             "(500 x 500) a grid may have")
    seen: dict[str, tuple[int, int]] = {}
    for y, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise StripsIntError(source, f"row {y + 1}", f"{len(row)} cells where row 1 has {len(rows[0])}: a grid "
                                 "is a rectangle")
        for x, char in enumerate(row):
            if char not in STATIONS and char != " " and not char.isdigit():
                raise StripsIntError(source, f"row {y + 1}, column {x + 1}", f"unknown grid character {char!r}")
            if char.isdigit() and char in seen:
                raise StripsIntError(source, f"row {y + 1}, column {x + 1}", f"player {char} starts twice (also at "
                                     f"row {seen[char][0]}, column {seen[char][1]})")
            if char.isdigit():
                seen[char] = (y + 1, x + 1)
    if not rows:
        raise StripsIntError(source, None, "empty grid")
    digits = sorted(seen)
    if digits != [str(n) for n in range(1, len(digits) + 1)]:
        raise StripsIntError(source, None, f"the players' start digits are {', '.join(digits)}; they are 1 to N, "
                             "once each")
    return Layout(name=name, rows=rows)


def known_layouts(aliases: bool = True) -> list[str]:
    """The layout names this package knows, overcooked-ai's included when installed; old names unless ``aliases`` is False."""
    return sorted(set(_CLASSIC) | (set(ALIASES) if aliases else set()) | set(overcooked_ai_layout_files()))


def get_layout(name: str) -> Layout:
    """A layout by current or old name; overcooked-ai's own layouts when that package is installed.

    The classic five (old rules) come first: overcooked-ai ships the same terrains
    under these names. ``counter_circuit`` is overcooked-ai's (the paper's web-game
    terrain is ``paper_counter_circuit``).
    """
    canonical = ALIASES.get(name, name)
    if canonical in _CLASSIC:
        return _classic(canonical)
    files = overcooked_ai_layout_files()
    if name in files:
        return _read_layout_file(files[name], name)
    known = known_layouts()
    close = closest(name, known)
    more = "" if files else "; overcooked-ai's own once it is installed"
    layouts = len(known_layouts(aliases=False))  # as many as rc --all-layouts classifies: old names are no more
    listed = f"{layouts} known, and {len(known) - layouts} old names of them" + ("" if close else f": {_listed(known)}")
    raise StripsIntError(
        f"layout {brief(name)}", None,
        f"unknown layout {brief(name)}" + (f"; did you mean {close}?" if close else "")
        + f" ({listed}{more}; or give a grid file)",
    )


@functools.lru_cache(maxsize=256)
def grids_named(name: str) -> frozenset[tuple[str, ...]]:
    """The grids, start tiles blanked, of every layout ``name`` may denote here: the classic or overcooked-ai
    layout of that name or old name, and under old rules the paper's web-game terrain it names; none for a
    name this package does not know (a file's own layout may be anything)."""
    names = {name, ALIASES.get(name, name), OLD_RULES_NAMES.get(name, name)}
    layouts = [_classic(n) for n in names if n in _CLASSIC]
    files = overcooked_ai_layout_files()
    layouts += [_read_layout_file(files[n], n) for n in names if n in files]
    return frozenset(blank_starts(layout.rows) for layout in layouts)


def blank_starts(rows: tuple[str, ...]) -> tuple[str, ...]:
    """A grid's rows with its start tiles (digits) as the floor they are."""
    return tuple(row.translate(_DIGITS) for row in rows)


_DIGITS = str.maketrans("0123456789", " " * 10)


@functools.lru_cache(maxsize=None)
def _classic(name: str) -> Layout:
    """A classic layout, one value per process: its tiles are then worked out once, not once per game."""
    return Layout(name=name, rows=_CLASSIC[name])


def _listed(names: list[str], room: int = 400) -> str:
    """As many of ``names`` as ``room`` characters hold (an error stays one bounded line), then ``...``."""
    text = ", ".join(names)
    return text if len(text) <= room else text[: text.rfind(", ", 0, room)] + ", ..."


def load_grid(path: str | Path) -> Layout:
    """A layout from a grid text file, or an overcooked-ai ``.layout`` file."""
    path = Path(path)
    if path.suffix == ".layout":
        return _read_layout_file(path, path.stem)
    return parse_grid(read_text(path), path.stem, str(path))


def overcooked_ai_layout_files() -> dict[str, Path]:
    """overcooked-ai's layout files, found without importing the package."""
    spec = importlib.util.find_spec("overcooked_ai_py")
    if spec is None or not spec.submodule_search_locations:
        return {}
    folders = [Path(p) / "data" / "layouts" for p in spec.submodule_search_locations]
    return {f.stem: f for folder in folders if folder.is_dir() for f in sorted(folder.glob("*.layout"))}


def read_layout_dict(path: Path) -> dict[str, Any]:
    """An overcooked-ai ``.layout`` file: a Python dict literal, parsed with ast and never run.

    Literals only, plus the one call the shipped files use, ``float('inf')``
    (and ``float('-inf')``, ``float('nan')``); anything else is an error.
    """
    source = str(path)
    try:
        tree = ast.parse(read_text(path), mode="eval")
        data = ast.literal_eval(_floats_to_constants(tree.body, source))
    except (ValueError, SyntaxError, TypeError, MemoryError) as exc:
        raise StripsIntError(source, None, f"not an overcooked-ai layout file: {brief(str(exc), 200)}") from None
    except RecursionError:
        raise StripsIntError(source, None, "not an overcooked-ai layout file: nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("grid"), str):
        raise StripsIntError(source, None, "not an overcooked-ai layout file: no \"grid\" text")
    _check_recipe_keys(data, source)
    return data


def _check_recipe_keys(data: dict[str, Any], source: str) -> None:
    """The keys :func:`with_recipes` reads must have overcooked-ai's types (``Recipe.configure``):
    orders as recipes, values and times as finite numbers (times not negative; ``order_bonus`` may be
    ``float('inf')``, as overcooked-ai's ``tutorial_3`` has it), one recipe value and time per order."""
    for key in ("start_all_orders", "start_bonus_orders"):
        if data.get(key) is not None and orders_of(data[key]) is None:
            raise StripsIntError(source, key, f"expected a list of recipes {{\"ingredients\": [...]}} of 1 to 3 "
                                 f"onions or tomatoes, found {brief(data[key])}")
    for key in ("delivery_reward", "onion_value", "tomato_value", "order_bonus", "cook_time", "onion_time",
                "tomato_time"):
        value = data.get(key)
        if value is not None and not _number_for(key, value):
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            more = f", {_QUALIFIED.get(key, 'finite')}" if numeric else ""
            raise StripsIntError(source, key, f"expected a number{more}, found {brief(value)}")
    for key in ("recipe_values", "recipe_times"):
        values = data.get(key)
        if values is None:
            continue
        orders = data.get("start_all_orders") or []
        if not isinstance(values, list) or len(values) != len(orders) or not all(_number_for(key, v) for v in values):
            raise StripsIntError(source, key, f"expected one number per order of start_all_orders ({len(orders)}), "
                                 f"{_QUALIFIED.get(key, 'finite')}, found {brief(values)}")
    if not isinstance(data.get("old_dynamics", False), bool):
        raise StripsIntError(source, "old_dynamics", f"expected true or false, found {brief(data['old_dynamics'])}")


#: The cooking-time keys of a layout file: finite numbers, not negative.
_TIMES = ("cook_time", "onion_time", "tomato_time", "recipe_times")
#: What a key's numbers must be, where more than finite.
_QUALIFIED = {**{key: "finite, not negative" for key in _TIMES}, "order_bonus": "not nan (float('inf') is allowed)"}


def _number_for(key: str, value: Any) -> bool:
    """Whether ``value`` is a number that ``key`` of a layout file may take (see :func:`_check_recipe_keys`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if key == "order_bonus":
        return not math.isnan(value) and value != -math.inf
    return math.isfinite(value) and (key not in _TIMES or value >= 0)


def _floats_to_constants(node: ast.expr, source: str) -> ast.expr:
    """``node`` with each ``float('<text>')`` call replaced by its constant, so literal_eval admits it."""

    class _Floats(ast.NodeTransformer):
        def visit_Call(self, call: ast.Call) -> ast.AST:
            if (isinstance(call.func, ast.Name) and call.func.id == "float" and len(call.args) == 1
                    and not call.keywords and isinstance(call.args[0], ast.Constant)
                    and str(call.args[0].value).strip().lower() in _FLOAT_WORDS):
                return ast.copy_location(ast.Constant(float(call.args[0].value)), call)
            raise StripsIntError(source, f"line {call.lineno}", "a layout file may call only float('inf')")

    return _Floats().visit(node)


_FLOAT_WORDS = {"inf", "+inf", "-inf", "infinity", "-infinity", "nan"}


def _read_layout_file(path: Path, name: str) -> Layout:
    """A layout from an overcooked-ai ``.layout`` file, with its orders and values (new rules)."""
    data = read_layout_dict(path)
    return with_recipes(parse_grid(data["grid"], name, str(path)), data)


def with_recipes(layout: Layout, data: dict[str, Any]) -> Layout:
    """``layout`` under overcooked-ai's new rules (unless it says ``old_dynamics``) with the orders, values and
    cooking times of a layout dict."""
    orders, bonus = layout_orders(data)
    return replace(layout, old_rules=bool(data.get("old_dynamics", False)), orders=orders, bonus=bonus,
                   values=layout_values(data), times=layout_times(data))
