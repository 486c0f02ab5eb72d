"""Overcooked terrains: the classic layouts by current and old names, grid text, overcooked-ai files.

Grid characters: ``X`` counter, ``O`` onion dispenser, ``T`` tomato
dispenser, ``D`` dish dispenser, ``P`` pot, ``S`` serving window, blank
floor, digits floor start tiles (``1`` is player 0's).
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from strips_int.errors import StripsIntError
from strips_int.files import read_text

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
    # The user-study web game's Counter Circuit: the classic terrain, other start tiles.
    "counter_circuit": ("XXXPPXXX", "X      X", "D XXXX S", "X2    1X", "XXXOOXXX"),
}
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
    """A terrain: tiles by position and the players' start tiles."""

    name: str
    rows: tuple[str, ...]

    def tile(self, pos: Pos) -> str | None:
        """The grid character at ``pos`` (digits read as floor), or None off the grid."""
        x, y = pos
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            char = self.rows[y][x]
            return " " if char.isdigit() else char
        return None

    def positions(self) -> list[Pos]:
        """Every position of the grid, row by row."""
        return [(x, y) for y, row in enumerate(self.rows) for x in range(len(row))]

    def floor(self) -> list[Pos]:
        return [p for p in self.positions() if self.tile(p) == " "]

    def starts(self) -> list[Pos]:
        """Start tiles in player order (digit 1 first)."""
        found = sorted((int(c), (x, y)) for y, row in enumerate(self.rows) for x, c in enumerate(row) if c.isdigit())
        return [pos for _, pos in found]


def parse_grid(text: str, name: str, source: str) -> Layout:
    """A layout from grid text (one row per line; surrounding blank lines and indentation dropped)."""
    rows = tuple(line.strip() for line in text.strip("\n").splitlines() if line.strip())
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char not in STATIONS and char != " " and not char.isdigit():
                raise StripsIntError(source, f"row {y + 1}, column {x + 1}", f"unknown grid character {char!r}")
    if not rows:
        raise StripsIntError(source, None, "empty grid")
    return Layout(name=name, rows=rows)


def known_layouts(aliases: bool = True) -> list[str]:
    """The layout names this package knows, overcooked-ai's included when installed; old names unless ``aliases`` is False."""
    return sorted(set(_CLASSIC) | (set(ALIASES) if aliases else set()) | set(_overcooked_ai_layout_files()))


def get_layout(name: str) -> Layout:
    """A layout by current or old name; overcooked-ai's own layouts when that package is installed."""
    canonical = ALIASES.get(name, name)
    if canonical in _CLASSIC:
        return Layout(name=canonical, rows=_CLASSIC[canonical])
    path = _overcooked_ai_layout_files().get(name)
    if path is not None:
        return _read_layout_file(path, name)
    raise StripsIntError(
        f"layout {name!r}", None,
        f"unknown layout {name!r}; known: {', '.join(known_layouts())} (install overcooked-ai for more, "
        "or give a grid file)",
    )


def load_grid(path: str | Path) -> Layout:
    """A layout from a grid text file, or an overcooked-ai ``.layout`` file."""
    path = Path(path)
    if path.suffix == ".layout":
        return _read_layout_file(path, path.stem)
    return parse_grid(read_text(path), path.stem, str(path))


def _overcooked_ai_layout_files() -> dict[str, Path]:
    """overcooked-ai's layout files, found without importing the package."""
    spec = importlib.util.find_spec("overcooked_ai_py")
    if spec is None or not spec.submodule_search_locations:
        return {}
    folders = [Path(p) / "data" / "layouts" for p in spec.submodule_search_locations]
    return {f.stem: f for folder in folders if folder.is_dir() for f in sorted(folder.glob("*.layout"))}


def _read_layout_file(path: Path, name: str) -> Layout:
    """An overcooked-ai ``.layout`` file is a Python dict literal: parsed with ast, never run."""
    try:
        data = ast.literal_eval(read_text(path))
        grid = data["grid"]
    except (ValueError, SyntaxError, KeyError, TypeError) as exc:
        raise StripsIntError(str(path), None, f"not an overcooked-ai layout file: {exc}") from None
    return parse_grid(grid, name, str(path))
