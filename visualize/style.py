"""One look for every figure: a colour-blind-safe palette (Okabe and Ito), line styles, sizes, byte-stable saving."""

from __future__ import annotations

from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from strips_int.errors import StripsIntError

#: Interdependence categories: colour and line style, so they read in grey print too.
CATEGORY_STYLE = {
    "constructive": {"color": "#0072B2", "linestyle": "-"},
    "looping": {"color": "#D55E00", "linestyle": "--"},
    "irrelevant": {"color": "#7F7F7F", "linestyle": ":"},
}
AGENT_COLORS = ("#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442", "#0072B2")
ENVIRONMENT_COLOR = "#4D4D4D"
#: Sizes that survive a one-column figure (3.3 in wide) scaled into a paper.
RC_PARAMS = {"font.size": 8, "axes.titlesize": 9, "axes.labelsize": 8, "legend.fontsize": 7,
             "xtick.labelsize": 7, "ytick.labelsize": 7, "svg.hashsalt": "strips_int", "svg.fonttype": "none",
             "pdf.fonttype": 42}
FORMATS = ("png", "pdf", "svg")
_NO_DATES = {"png": {"Software": None}, "pdf": {"CreationDate": None, "ModDate": None, "Producer": None},
             "svg": {"Date": None, "Creator": None}}


def save(figure: Figure, path: str | Path) -> Path:
    """Write ``figure`` as PNG, PDF or SVG (by suffix) without timestamps, so the same input gives the same bytes."""
    path = Path(path)
    kind = path.suffix.lstrip(".").lower()
    if kind not in FORMATS:
        raise StripsIntError(str(path), None, f"unsupported figure format {path.suffix!r} (use .png, .pdf or .svg)")
    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context(RC_PARAMS):
        figure.savefig(path, format=kind, metadata=_NO_DATES[kind], dpi=300, bbox_inches="tight")
    return path
