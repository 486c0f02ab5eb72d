"""Text from the games goes into every table, page and line literally (issue 31): a meta key or role name
that a spreadsheet would run as a formula, a ``|`` or line break that would break a Markdown row, HTML a
renderer would run, a control character XML cannot hold or a terminal acts on. One rule per format, applied
where the table is written (:mod:`strips_int.batch.tables`; :mod:`strips_int.visualize.html`;
:func:`strips_int.errors.printable` for error lines, the text report, figures and GraphML), checked here
through the real command lines on the same hostile trace."""

from __future__ import annotations

import ast
import csv
import json
import re
import xml.dom.minidom
from pathlib import Path

import pytest
from fuzz_inputs import KIT_PASS, KIT_PROBLEM, check_cli, run_cli, written
from helpers import ROOT

FORMULA = "=cmd|' /C calc'!A0"
WIDE = "\uff1dHYPERLINK(\"http://x\")"  # a full-width equals sign, which some spreadsheets read as one
HTML = "<img src=x onerror=alert(1)>"
#: A layout name and a role name with every kind of trouble in them.
LAYOUT = f"{HTML}|a\nb\x01c"
ROLE = f"nu|rse\n{HTML}"


def hostile_trace(folder: Path, name: str = "evil.trace.json") -> Path:
    trace = json.loads(KIT_PASS.read_text())
    trace["problem"] = str(KIT_PROBLEM)
    trace["meta"] = {FORMULA: "x", "layout": LAYOUT, "note": WIDE,
                     "roles": {"firefighter1": FORMULA, "nurse1": ROLE}}
    return written(folder / name, json.dumps(trace))


def is_formula(cell: str) -> bool:
    """Whether a spreadsheet would run ``cell``: the formula starts OWASP lists, and not a number."""
    if len(cell) < 2 or cell[0] not in "=+-@\t\r\n\0\uff1d\uff0b\uff0d\uff20":
        return False
    try:
        float(cell)
    except ValueError:
        return True
    return False


def csv_cells(path: Path) -> list[str]:
    with path.open(newline="") as handle:
        return [cell for row in csv.reader(handle) for cell in row]


def bars(line: str) -> int:
    """The column bars of a Markdown row: those not escaped."""
    return len(re.findall(r"(?<!\\)\|", line))


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """One evaluate run of the hostile trace beside the plain one, and a merge of it."""
    folder = tmp_path_factory.mktemp("escaping")
    games = folder / "games"
    games.mkdir()
    hostile_trace(games)
    written(games / "plain.trace.json", json.dumps({**json.loads(KIT_PASS.read_text()), "problem": str(KIT_PROBLEM)}))
    result = run_cli("strips_int.evaluate", "sar", str(games), "--out", str(folder / "out"), "--jobs", "1",
                     "--resamples", "10", "--group-by", f"layout,{FORMULA}")
    assert check_cli(result, codes=(0,)) == [], result.stderr.decode()
    merged = run_cli("strips_int.evaluate", "merge", str(folder / "out"), "--out", str(folder / "merged"))
    assert check_cli(merged, codes=(0,)) == [], merged.stderr.decode()
    return folder


@pytest.mark.parametrize("table", ["games.csv", "summary.csv"])
@pytest.mark.parametrize("folder", ["out", "merged"])
def test_no_csv_cell_or_header_is_a_formula(run, folder, table):
    cells = csv_cells(run / folder / table)
    assert "'" + FORMULA in cells  # the meta key as a header of games.csv, a group key's column of summary.csv
    assert table == "summary.csv" or "'" + WIDE in cells
    assert [c for c in cells if is_formula(c)] == []
    if table == "summary.csv":  # the role's metrics: in the metric column
        assert "'" + FORMULA + "_pct_triggers" in cells


@pytest.mark.parametrize("folder", ["out", "merged"])
def test_summary_md_rows_hold_their_columns_and_no_html(run, folder):
    note, table = (run / folder / "summary.md").read_text().split("\n\n")
    lines = table.splitlines()
    assert len(lines) == 2 + 2  # header, rule, the two groups: no line break inside a row
    assert len({bars(line) for line in lines}) == 1  # every row as many columns as the header
    assert "<" not in table and ">" not in table and "&lt;img src=x onerror=alert(1)&gt;" in table
    assert "nu\\|rse &lt;img" in lines[0]  # the role's columns: bar and HTML escaped, the break a blank


@pytest.mark.parametrize("folder", ["out", "merged"])
def test_summary_tex_rows_hold_their_columns(run, folder):
    """In every tabular, each row (a header line of spanning columns aside) has as many cells as the
    header; no HTML and no control character (LaTeX refuses them) in any."""
    text = (run / folder / "summary.tex").read_text()
    for tabular in re.findall(r"\\begin\{tabular\}.*?\\end\{tabular\}", text, re.S):
        rows = [line for line in tabular.splitlines() if line.endswith("\\\\") and "\\multicolumn" not in line]
        assert len(rows) == 3 and len({len(re.findall(r"(?<!\\)&", row)) for row in rows}) == 1, rows
    assert "<" not in text and "\\textless{}img" in text
    assert not re.search("[\x00-\x08\x0b-\x1f]", text) and "a b\\textbackslash{}x01c" in text


def test_the_same_text_in_html_svg_and_graphml(tmp_path):
    """check --html, --plot (SVG) and --graphml of the hostile trace, its file name with a control character
    too: each escapes what its format needs, no matplotlib warning, every XML well formed."""
    trace = hostile_trace(tmp_path, "evil\x01<x>&.trace.json")
    outputs = [tmp_path / "r.html", tmp_path / "r.svg", tmp_path / "r.graphml"]
    result = run_cli("strips_int.check", "sar", str(trace), "--html", str(outputs[0]), "--plot", str(outputs[1]),
                     "--graphml", str(outputs[2]))
    assert check_cli(result, codes=(0,)) == [] and result.stderr == b""  # (no "Glyph missing" warning)
    page = outputs[0].read_text()
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page and "\x01" not in page
    assert "\\x01" in page  # the control character shown, not dropped
    for path in outputs[1:]:
        document = xml.dom.minidom.parse(str(path))  # well formed: no control character, every < escaped
        assert not document.getElementsByTagName("img")


def test_every_table_is_written_by_the_one_table_writer():
    """No module but strips_int/batch/tables.py makes CSV rows, so every table (games.csv, the summaries,
    merge's and rc's tables) takes its escaping from there."""
    writers = []
    for path in sorted([*ROOT.glob("strips_int/**/*.py"), *ROOT.glob("grounders/**/*.py"),
                        *ROOT.glob("visualize/**/*.py"), *ROOT.glob("planners/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("writer", "DictWriter") \
                    and isinstance(node.value, ast.Name) and node.value.id == "csv":
                writers.append(str(path.relative_to(ROOT)))
    assert writers == ["strips_int/batch/tables.py"]
    layouts = (ROOT / "strips_int" / "batch" / "layouts.py").read_text()  # rc's table
    assert "from .tables import table_text, write_table" in layouts


def test_a_file_name_with_a_line_break_or_an_escape_stays_one_line(tmp_path):
    """A file's name may hold a line break or a terminal's escape sequence: its error is still one line, and
    the text report shows the name with the characters escaped."""
    broken = written(tmp_path / "bad\nerror: forged.json", "{")
    trace = hostile_trace(tmp_path, "ok\x1b]0;title\x07.trace.json")
    result = run_cli("strips_int.check", "sar", str(broken), str(trace))
    assert check_cli(result, codes=(1,)) == [f"error: {tmp_path}/bad\\nerror: forged.json: line 1, column 2: "
                                             "malformed JSON: unexpected end of data"]
    report = result.stdout.decode()
    assert report.startswith(f"{tmp_path}/ok\\x1b]0;title\\x07.trace.json\n") and "\x1b" not in report
    assert "nurse1 (nu|rse\\n<img" in report.splitlines()[1]
