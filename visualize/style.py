"""One look for every figure: a colour-blind-safe palette (Okabe and Ito), line styles, sizes, byte-stable saving."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text

from strips_int.analysis.report import Report
from strips_int.errors import StripsIntError, number_argument, of_type, path_argument
from strips_int.files import cannot_write, output_file

#: Interdependence categories: colour and line style, so they read in grey print too.
CATEGORY_STYLE = {
    "constructive": {"color": "#0072B2", "linestyle": "-"},
    "looping": {"color": "#D55E00", "linestyle": "--"},
    "irrelevant": {"color": "#7F7F7F", "linestyle": ":"},
}
#: Blocks (definitions section 13): a colour and line style no category has.
BLOCK_STYLE = {"color": "#000000", "linestyle": "-."}
AGENT_COLORS = ("#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442", "#0072B2")
ENVIRONMENT_COLOR = "#4D4D4D"
#: Figure widths (inches): one column and two columns of a two-column paper; every figure is one or the other.
ONE_COLUMN, TWO_COLUMNS = 3.4, 7.0
#: Sizes that survive a one-column figure (3.4 in wide) scaled into a paper.
#: Text is set as it is (``text.parse_math`` off): a ``$`` in a layout or group name is a dollar sign, not
#: mathtext (which would fail to parse, or draw something else); with
#: :func:`~strips_int.errors.printable` for input text, the one rule for text in figures (a module's own
#: labels may turn mathtext on, artist by artist).
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


def drawing_area(ax: Axes | None, width: float, height: float) -> tuple[Figure, Axes, float]:
    """Where a one-axes figure function draws: a new :func:`new_figure` of ``width`` x ``height`` inches
    and its axes, or the caller's ``ax`` (in a figure or subfigure of theirs); with the width in inches
    the drawing has (the axes' own, for a caller's ``ax``), by which titles are broken into lines."""
    if ax is None:
        figure = new_figure(width, height)
        return figure, figure.subplots(), width
    root = ax.figure.figure  # (a subfigure's root figure; a figure's is itself)
    if not hasattr(root.canvas, "get_renderer"):  # a bare Figure(): labels are placed by measuring their text
        FigureCanvasAgg(root)
    return ax.figure, ax, ax.get_position().width * root.get_figwidth()


def legend(figure: Figure, ax: Axes, own: bool, handles: list, **style: Any) -> Legend:
    """The legend below the drawing in a figure of its own (constrained layout makes room), or in the best
    place inside a caller's axes, whose figure's layout is theirs."""
    if own:
        return figure.legend(handles=handles, loc="outside lower center", frameon=False, **style)
    return ax.legend(handles=handles, loc="best", framealpha=0.8, handlelength=style.get("handlelength", 1.8))


#: The thin grey line from a raised label down to its point.
LEADER = {"arrowstyle": "-", "color": "#A6A6A6", "linewidth": 0.3, "shrinkA": 0, "shrinkB": 1.5}


def place_labels(figure: Figure, ax, labels: Sequence[tuple[float, float, str, Mapping[str, Any]]],
                 offsets: Sequence[float], gap: float = 2.0) -> tuple[list[Text], int]:
    """Greedily label points without collisions: each label tries each vertical ``offsets`` (points) in turn,
    centred on its point, then starting or ending there.

    A label away from its point gets a thin leader line down (or up) to it,
    and a place counts as free only when neither the label (with ``gap``
    points either side, so neighbours never run together) nor its leader
    touches an earlier label or leader. A label that fits nowhere inside the
    axes is left out (labels come in priority order). Labels stay out of the
    layout so removing one never moves another. Returns the kept texts and
    how many were left out. Hand-written because matplotlib has no label placer.
    """
    figure.figure.draw_without_rendering()  # (a subfigure's root figure draws it)
    renderer = figure.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    pixels = figure.dpi / 72  # per point
    kept: list[Text] = []
    taken: list[Extents] = []  # labels (padded) and leaders already placed
    dropped = 0
    for x, y, text, style in labels:
        artist = ax.annotate(text, (x, y), xytext=(0, offsets[0]), textcoords="offset points", ha="center",
                             va="bottom", annotation_clip=False, **style)
        artist.set_in_layout(False)
        point = ax.transData.transform((x, y))
        for offset, align in ((offset, align) for offset in offsets for align in ("center", "left", "right")):
            artist.xyann = (0, offset)
            artist.set_va("bottom" if offset >= 0 else "top")
            artist.set_ha(align)  # the text is centred on, starts at or ends at its point: the leader is vertical
            box = artist.get_window_extent(renderer)
            padded = (box.x0 - gap * pixels, box.y0, box.x1 + gap * pixels, box.y1)
            low, high = sorted((point[1], box.y0 if offset >= 0 else box.y1))
            leader = (point[0] - pixels, low, point[0] + pixels, high)
            inside = (box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0 and box.y1 <= frame.y1)
            if inside and not any(_overlap(padded, other) or _overlap(leader, other) for other in taken):
                taken += [padded, leader]
                kept.append(artist)
                if abs(offset) > min(map(abs, offsets)):
                    line = ax.annotate("", (x, y), xytext=(0, offset), textcoords="offset points",
                                       annotation_clip=False, arrowprops=LEADER)
                    line.set_in_layout(False)
                break
        else:
            artist.remove()
            dropped += 1
    return kept, dropped


#: A box in display pixels, ``(x0, y0, x1, y1)`` with ``x0 <= x1`` and ``y0 <= y1``.
Extents = tuple[float, float, float, float]


def _overlap(a: Extents, b: Extents) -> bool:
    """Whether two boxes touch or overlap: ``Bbox.overlaps`` on plain tuples (the label placer asks tens of
    thousands of times for a busy timeline, where the Bbox method's arrays cost most of the figure's time)."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def fill(text: str, width: float, size: float = 8.0) -> str:
    """``text`` broken into lines that fit ``width`` inches at ``size`` points, only after ``, `` or ``: ``
    (so ``nurse1 (nurse)`` or ``kit-back-and-forth`` is never cut), each line of the text on its own."""
    limit = max(10, int(width * 72 / (0.6 * size)))  # characters a line holds, at a generous average width
    lines = []
    for line in text.split("\n"):
        current = ""
        for piece in re.split(r"(?<=, )|(?<=: )", line):
            if current and len(current + piece.rstrip()) > limit:
                lines.append(current.rstrip())
                current = ""
            current += piece
        lines.append(current.rstrip())
    return "\n".join(lines)


#: The narrowest and widest figure drawn, in inches (a paper column is 3.4, a page 7.0).
MIN_WIDTH, MAX_WIDTH = 1.0, 100.0


def report_argument(function: str, report: object) -> Report:
    """``function``'s argument ``report`` when it is a :class:`~strips_int.analysis.report.Report`, else an
    :class:`~strips_int.errors.ArgumentError`."""
    return of_type(function, "report", report, Report, "a Report (strips_int.analyze)")


def width_argument(function: str, width: object, optional: bool = False) -> Any:
    """``function``'s argument ``width``: inches from :data:`MIN_WIDTH` to :data:`MAX_WIDTH` (or None when
    ``optional``), else an :class:`~strips_int.errors.ArgumentError`."""
    return number_argument(function, "width", width, MIN_WIDTH, MAX_WIDTH, optional=optional)


def save(figure: Figure, path: str | Path) -> Path:
    """Write ``figure`` as PNG, PDF or SVG (by suffix) without timestamps, so the same input gives the same bytes.

    Parameters:
        figure: the figure.
        path: where, ``.png``, ``.pdf`` or ``.svg``.

    Returns:
        ``path``.
    """
    of_type("save", "figure", figure, Figure, "a matplotlib Figure")
    path = path_argument("save", "path", path)
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
    except (FileExistsError, NotADirectoryError):  # a file where a folder of the path should be
        blocking = next((p for p in path.parents if p.exists()), path.parent)
        raise StripsIntError(str(path), None, f"cannot write: {blocking} is a file, not a folder") from None
    except OSError as exc:
        raise cannot_write(path, exc) from None
