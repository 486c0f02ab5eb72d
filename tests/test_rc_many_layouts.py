"""``rc --grid F1 F2 ... / FOLDER`` and ``--layout A B``: a table row per start problem, in the --all-layouts table;
every verdict that of an independent flood fill; an unreadable file its own error row; output checked first."""

from __future__ import annotations

import csv
import importlib.util
import json
import time

import pytest
from helpers import ROOT

from strips_int.batch.layouts import TABLE_COLUMNS
from strips_int.cli.rc import main


def _generated():
    spec = importlib.util.spec_from_file_location("generated_layouts", ROOT / "benchmarks" / "generated_layouts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """120 generated layouts (40 of each kind) and a broken one in a folder, classified by one ``--jobs 2`` run."""
    folder = tmp_path_factory.mktemp("layouts")
    paths = _generated().write(folder, 120, seed=0)
    (folder / "broken.layout").write_text("{'grid': 'XXPXX\\nO 1 D', 'start_all_orders': 5}")
    (folder / "notes.txt").write_text("not a layout: a folder gives only its .layout and .grid files")
    out = folder.parent / f"{folder.name}.csv"
    # 1: a row is an error (each row's time limit covers its reading: 10 minutes, so that a loaded machine
    # makes no row "unknown")
    assert main(["--grid", str(folder), "--jobs", "2", "--timeout", "600", "--out", str(out)]) == 1
    return paths, folder, _read(out)


def test_every_verdict_is_the_flood_fills(generated):
    paths, _, rows = generated
    verdicts = {row["layout"]: row["verdict"] for row in rows}
    flood_fill = _generated().flood_fill_verdict
    assert {str(p): verdicts[str(p)] for p in paths} == {str(p): flood_fill(p.read_text(), p.suffix) for p in paths}
    assert {"RC", "non-RC"} <= set(verdicts.values())


def test_a_folder_is_one_row_per_layout_file_in_path_order(generated):
    paths, folder, rows = generated
    assert [row["layout"] for row in rows] == sorted(map(str, [*paths, folder / "broken.layout"]))
    assert list(rows[0]) == list(TABLE_COLUMNS)
    assert {row["rules"] for row in rows if row["verdict"] != "error"} == {"old", "new"}


def test_a_layout_that_cannot_be_read_is_its_own_error_row(generated):
    _, folder, rows = generated
    [broken] = [row for row in rows if row["verdict"] == "error"]
    assert broken["layout"] == str(folder / "broken.layout")
    assert broken["error"].startswith(f"{folder / 'broken.layout'}: start_all_orders: expected a list of recipes")


def test_several_named_layouts_as_json_lines(capsys):
    assert main(["--layout", "forced_coordination", "cramped_room", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["layout"], r["verdict"], r["reason"]) for r in rows] == [
        ("forced_coordination", "RC", "reach"), ("cramped_room", "non-RC", "")]
    assert rows[0]["joint_plan_length"] > 0 and rows[0]["interdependencies"] == rows[0]["constructive"] == 4


@pytest.mark.parametrize("out, message", [("/missing/x.csv", "error: /missing/x.csv: cannot write: no folder /missing"),
                                          ("table.txt", "the table is written as .csv, .md, .tex")])
def test_an_output_that_cannot_be_written_is_refused_before_anything_is_read(capsys, out, message):
    started = time.process_time()
    try:
        code = main(["--grid", str(ROOT / "examples" / "overcooked" / "corridor.grid"), "--out", out])
    except SystemExit as stop:  # a usage error
        code = stop.code
    assert code == 2 and message in capsys.readouterr().err
    assert time.process_time() - started < 0.5


def test_a_dask_cluster_gives_the_local_rows(tmp_path):
    pytest.importorskip("distributed")
    paths = _generated().write(tmp_path / "layouts", 4, seed=5)
    local, dask = tmp_path / "local.csv", tmp_path / "dask.csv"
    assert main(["--grid", *map(str, paths), "--jobs", "2", "--out", str(local)]) == 0
    assert main(["--grid", *map(str, paths), "--jobs", "2", "--scheduler", "local", "--out", str(dask)]) == 0
    assert [{**row, "seconds": ""} for row in _read(local)] == [{**row, "seconds": ""} for row in _read(dask)]
