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
from pathlib import Path
from typing import Any, Iterable, Sequence

from strips_int.errors import StripsIntError
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
    """A Markdown table cell: one line, its ``|`` and HTML escaped."""
    return " ".join(str(value).translate(MARKDOWN_ESCAPES).splitlines())


def tex(text: str) -> str:
    """``text`` set literally in LaTeX: every special character escaped, line breaks as spaces."""
    return str(text).translate(TEX_ESCAPES)


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
