"""Every table strips_int writes (``games.csv``, the summaries, the RC table), by one writer.

A table is a header and rows of cells, written whole or not at all
(:func:`~strips_int.files.atomic_open`) in the format its file's suffix names:
``.csv``, ``.md`` or ``.tex``. Each format's escaping is applied here, where
every cell and header passes, so that no column can forget it: a CSV cell a
spreadsheet would run as a formula gets a leading ``'``; a Markdown cell has
its ``|``, line breaks and HTML (``< > &``) escaped; a LaTeX cell has every
special character escaped.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence, Union

from strips_int.errors import StripsIntError, printable
from strips_int.files import atomic_open

#: The formats a table can be written in, by file suffix.
SUFFIXES = (".csv", ".md", ".tex")
#: How text a spreadsheet may run as a formula starts (OWASP's "CSV injection", OWASP ASVS 1.2.10: also a NUL),
#: with a line feed and the full-width forms of the signs, which some spreadsheets read as the signs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\0", "\uff1d", "\uff0b", "\uff0d", "\uff20")
#: Every character LaTeX gives a meaning in text (and a line break, which would end a table row).
TEX_ESCAPES = str.maketrans({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#", "$": r"\$",
                             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                             "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "\n": " ", "\r": " "})
_LINE_BREAKS = str.maketrans({"\n": " ", "\r": " "})
#: What a Markdown cell cannot hold as itself: a column bar, and HTML a renderer would run.
MARKDOWN_ESCAPES = str.maketrans({"|": "\\|", "&": "&amp;", "<": "&lt;", ">": "&gt;"})


def csv_cell(value: Any) -> Any:
    """A CSV cell: text a spreadsheet would run as a formula (``=HYPERLINK(...)``: it starts as
    :data:`FORMULA_STARTS` lists, and goes on) gets a leading ``'``; numbers, text that is one, and a lone
    sign (``-``, the summaries' missing group key) stay."""
    if isinstance(value, str) and len(value) > 1 and value.startswith(FORMULA_STARTS) and _number(value) is None:
        return "'" + value
    return "" if value is None else value


def markdown_cell(value: Any) -> str:
    """A Markdown table cell: one line, its ``|`` and HTML escaped, control characters shown as escapes."""
    return printable(" ".join(str(value).translate(MARKDOWN_ESCAPES).splitlines()))


class Tex(str):
    """Text that is LaTeX already (a header with math, written by this package, never from input): :func:`tex`
    leaves it as it is."""


def tex(text: Any) -> str:
    """``text`` set literally in LaTeX: every special character escaped, line breaks as spaces, other control
    characters shown as their escapes (:func:`~strips_int.errors.printable`; LaTeX refuses them) (a
    :class:`Tex` is LaTeX already and stays)."""
    return text if isinstance(text, Tex) else printable(str(text).translate(_LINE_BREAKS)).translate(TEX_ESCAPES)


def markdown_table(header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table, one line per row."""
    lines = ["| " + " | ".join(map(markdown_cell, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(markdown_cell, row)) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def tex_table(header: Sequence[Any], rows: Iterable[Sequence[Any]], left: int | None = None) -> str:
    """A booktabs ``tabular``: the first ``left`` columns (all by default) left-aligned, the rest right."""
    left = len(header) if left is None else left
    lines = [r"\begin{tabular}{" + "l" * left + "r" * (len(header) - left) + "}", r"\toprule",
             " & ".join(map(tex, header)) + r" \\", r"\midrule"]
    lines += [" & ".join(map(tex, row)) + r" \\" for row in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


#: Text widths of a 10 pt two-column article (a4paper, the narrower of a4 and letter): ``table`` and ``table*``.
COLUMN_WIDTH, TEXT_WIDTH = 221.0, 452.0
#: Font sizes (pt) of ``\footnotesize`` and ``\scriptsize`` in a 10 pt article, and ``\tabcolsep`` in paper tables.
FOOTNOTE, SCRIPT, COLUMN_SEP = 8.0, 7.0, 3.0
#: A left column wider than this (a path as a group key) is set as a paragraph this wide, broken after / _ - . =
WRAP_WIDTH = 150.0
_BREAKS = re.compile(r"(/|\\_|-|\.|=)")


def tex_width(text: str, size: float) -> float:
    """An upper estimate (pt) of ``text``'s width in Computer Modern at ``size`` pt: digits are 0.5 em, other
    characters at most their class's widest common glyph. Hand-written, one line per class, because deciding
    how to split a table must not need a TeX installation."""
    if isinstance(text, Tex):  # as set: the commands' names and braces take no room
        text = re.sub(r"\\[a-zA-Z]+|[{}]", "", text)
    em = 0.0
    for char in text:
        if char.isdigit():
            em += 0.5
        elif char in ".,:;[]()' ":
            em += 0.39
        elif char.islower():
            em += 0.56
        else:
            em += 0.78
    return em * size


Cell = Union[str, int, float, tuple[str, str]]


@dataclass(frozen=True)
class PaperTable:
    """A table for a paper: a caption and label, an optional upper header (text, columns spanned) over the
    header, and rows whose cells are text or (top, below) pairs, set on two lines (a mean and its interval)."""

    caption: str
    label: str
    header: Sequence[Any]
    rows: Sequence[Sequence[Cell]]
    groups: Sequence[tuple[Any, int]] = ()
    left: int = 1

    def widths(self) -> list[float]:
        """An upper estimate (pt) of each column's text width, a wrapped left column's at most :data:`WRAP_WIDTH`."""
        columns = [[self.header[k], *(row[k] for row in self.rows)] for k in range(len(self.header))]
        widths = [max(_cell_width(cell) for cell in column) for column in columns]
        return [min(w, WRAP_WIDTH) if k < self.left else w for k, w in enumerate(widths)]

    def width(self) -> float:
        """An upper estimate (pt) of the table's width as :func:`paper_tex` sets it."""
        widths = [w + 2 * COLUMN_SEP for w in self.widths()]
        spans, k = [], 0
        for text, span in self.groups:  # an upper header wider than its columns widens the last of them
            needed = tex_width(text if isinstance(text, str) else str(text), FOOTNOTE) + 2 * COLUMN_SEP
            spans.append(max(0.0, needed - sum(widths[k:k + span])))
            k += span
        return sum(widths) + sum(spans)


def _cell_width(cell: Cell) -> float:
    if isinstance(cell, tuple):
        return max(tex_width(cell[0], FOOTNOTE), tex_width(cell[1], SCRIPT))
    return tex_width(cell if isinstance(cell, str) else str(cell), FOOTNOTE)


def paper_tex(table: PaperTable) -> str:
    r"""``table`` as a booktabs float for a two-column article: ``table`` when it fits a column (by
    :meth:`PaperTable.width`), else ``table*``; caption above, ``\footnotesize``, a two-line cell's
    second line in ``\scriptsize``. Every cell and header is escaped (:func:`tex`)."""
    env = "table" if table.width() <= COLUMN_WIDTH else "table*"
    columns = len(table.header)
    wrapped = {k for k, w in enumerate(table.widths()) if k < table.left and w >= WRAP_WIDTH}
    spec = "".join(f"p{{{WRAP_WIDTH:g}pt}}" if k in wrapped else "l" for k in range(table.left))
    lines = [rf"\begin{{{env}}}[tbp]", r"\centering", rf"\caption{{{table.caption}}}", rf"\label{{{tex(table.label)}}}",
             r"\footnotesize", rf"\setlength{{\tabcolsep}}{{{COLUMN_SEP:g}pt}}",
             r"\begin{tabular}{" + spec + "r" * (columns - table.left) + "}", r"\toprule"]

    def first_line(k: int, cell: Cell) -> str:
        top = tex(cell[0] if isinstance(cell, tuple) else cell)
        return r"\raggedright " + _BREAKS.sub(r"\1\\allowbreak{}", top) if k in wrapped else top

    if table.groups:
        lines.append(" & ".join(rf"\multicolumn{{{span}}}{{c}}{{{tex(text)}}}" if span > 1 else tex(text)
                                for text, span in table.groups) + r" \\")
        rules, k = [], 0
        for text, span in table.groups:
            if str(text):
                rules.append(rf"\cmidrule(lr){{{k + 1}-{k + span}}}")
            k += span
        lines.append("".join(rules))
    lines += [" & ".join(map(tex, table.header)) + r" \\", r"\midrule"]
    for n, row in enumerate(table.rows):
        lines.append(" & ".join(first_line(k, c) for k, c in enumerate(row)) + r" \\")
        if any(isinstance(c, tuple) and c[1] for c in row):
            lines.append(" & ".join(r"{\scriptsize " + tex(c[1]) + "}" if isinstance(c, tuple) and c[1] else ""
                                    for c in row) + r" \\")
            if n + 1 < len(table.rows):
                lines.append(r"\addlinespace[2pt]")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\end{{{env}}}"]
    return "\n".join(lines) + "\n"


def write_paper_tex(path: Path, tables: Sequence[PaperTable], note: str) -> None:
    r"""``tables`` (:func:`paper_tex`) in one ``.tex`` file to ``\input`` (``note`` on top as comments), whole
    or not at all."""
    head = "".join(f"% {line}\n" for line in note.splitlines())
    with atomic_open(path) as handle:
        handle.write(head + "\n".join(paper_tex(table) for table in tables))


def table_text(suffix: str, header: Sequence[Any], rows: Iterable[Sequence[Any]], note: str = "",
               left: int | None = None) -> str:
    """The table as ``.csv``, ``.md`` or ``.tex`` text; ``note`` (what the cells are) goes above it, as
    a paragraph in Markdown and a comment in LaTeX (which also names the package the table needs)."""
    if suffix == ".csv":
        buffer = io.StringIO(newline="")
        _write_csv(buffer, header, rows)
        return buffer.getvalue()
    if suffix == ".md":
        return (note + "\n\n" if note else "") + markdown_table(header, rows)
    if suffix == ".tex":
        return f"% {note + ' ' if note else ''}Needs \\usepackage{{booktabs}}\n" + tex_table(header, rows, left)
    raise StripsIntError(suffix, None, f"a table is written as {', '.join(SUFFIXES)}")


def write_table(path: Path, header: Sequence[Any], rows: Iterable[Sequence[Any]], note: str = "",
                left: int | None = None) -> None:
    """The table written to ``path`` in the format its suffix names (:func:`table_text`), whole or not at
    all; CSV rows are streamed, so a table of many games is never held in memory."""
    if path.suffix not in SUFFIXES:
        raise StripsIntError(str(path), None, f"a table is written as {', '.join(SUFFIXES)}")
    with atomic_open(path, newline="" if path.suffix == ".csv" else None) as handle:
        if path.suffix == ".csv":
            _write_csv(handle, header, rows)
        else:
            handle.write(table_text(path.suffix, header, rows, note, left))


def _write_csv(handle: Any, header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> None:
    writer = csv.writer(handle)
    writer.writerow(map(csv_cell, header))
    for row in rows:
        writer.writerow(map(csv_cell, row))


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None
