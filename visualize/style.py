"""One look for every figure: a colour-blind-safe palette (Okabe and Ito), line styles, sizes, byte-stable saving."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from strips_int.errors import StripsIntError
from strips_int.files import cannot_write, output_file

#: Interdependence categories: colour and line style, so they read in grey print too.
CATEGORY_STYLE = {
    "constructive": {"color": "#0072B2", "linestyle": "-"},
    "looping": {"color": "#D55E00", "linestyle": "--"},
    "irrelevant": {"color": "#7F7F7F", "linestyle": ":"},
}
AGENT_COLORS = ("#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442", "#0072B2")
ENVIRONMENT_COLOR = "#4D4D4D"
#: Sizes that survive a one-column figure (3.3 in wide) scaled into a paper.
#: Text is set as it is (``text.parse_math`` off): a ``$`` in a layout or group name is a dollar sign, not
#: mathtext (which would fail to parse, or draw something else); with
#: :func:`~strips_int.errors.printable` for input text, the one rule for text in figures.
RC_PARAMS = {"font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 7,
             "xtick.labelsize": 7, "ytick.labelsize": 7, "svg.hashsalt": "strips_int", "svg.fonttype": "none",
             "pdf.fonttype": 42, "figure.constrained_layout.use": True, "text.parse_math": False}
FORMATS = ("png", "pdf", "svg")
_NO_DATES = {"png": {"Software": None}, "pdf": {"CreationDate": None, "ModDate": None, "Producer": None},
             "svg": {"Date": None, "Creator": None}}


def new_figure(width: float, height: float) -> Figure:
    """A figure with constrained layout and an Agg canvas, so a plain ``savefig`` keeps every text inside."""
    with matplotlib.rc_context(RC_PARAMS):
        figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def place_labels(figure: Figure, ax, labels: Sequence[tuple[float, float, str, Mapping[str, Any]]],
                 offsets: Sequence[float]) -> tuple[list[Text], int]:
    """Greedily label points without collisions: each label tries each vertical ``offsets`` (points) in turn.

    A label that fits nowhere inside the axes without touching an earlier one
    is left out (labels come in priority order). Labels stay out of the
    layout so removing one never moves another. Returns the kept texts and how
    many were left out. Hand-written because matplotlib has no label placer.
    """
    figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    kept: list[Text] = []
    boxes = []
    dropped = 0
    for x, y, text, style in labels:
        artist = ax.annotate(text, (x, y), xytext=(0, offsets[0]), textcoords="offset points",
                             ha="center", va="bottom", annotation_clip=False, **style)
        artist.set_in_layout(False)
        for offset in offsets:
            artist.xyann = (0, offset)
            box = artist.get_window_extent(renderer)
            inside = (box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0 and box.y1 <= frame.y1)
            if inside and not any(box.overlaps(other) for other in boxes):
                boxes.append(box)
                kept.append(artist)
                break
        else:
            artist.remove()
            dropped += 1
    return kept, dropped


def save(figure: Figure, path: str | Path) -> Path:
    """Write ``figure`` as PNG, PDF or SVG (by suffix) without timestamps, so the same input gives the same bytes."""
    path = Path(path)
    kind = path.suffix.lstrip(".").lower()
    if kind not in FORMATS:
        raise StripsIntError(str(path), None, f"unsupported figure format {path.suffix!r} (use .png, .pdf or .svg)")
    with writing(path), matplotlib.rc_context(RC_PARAMS):
        figure.savefig(path, format=kind, metadata=_NO_DATES[kind], dpi=300)
    return path


@contextmanager
def writing(path: Path) -> Iterator[Path]:
    """Create ``path``'s folders (as ``mkdir -p``); ``path`` must be absent or a regular file (a FIFO would
    block the writer forever: :func:`~strips_int.files.output_file`); an OSError while writing it (a file
    where a folder should be, no permission, a full disk) as a StripsIntError naming it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        output_file(path)
        yield path
    except OSError as exc:
        raise cannot_write(path, exc) from None
