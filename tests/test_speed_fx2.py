"""The fixed cost of an evaluate run (issue 16, second round): the walk's one look at each file, the
journal read back by msgspec, a grounder chosen for a path parsed once, and what a one-game run loads."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int.batch.journal import journal_row
from strips_int.cli.evaluate import main
from strips_int.batch.games import game_files, identity
from strips_int.grounders import grounder_for

USER_STUDY = SHARED_DATA / "user-study"
needs_study = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="needs ../shared/data")
GAME = USER_STUDY / "cole" / "5_10_2025_15_21_40_human=0.json"  # benchmarks/paper.py's one game


# The walk: one stat a file, Path order


def test_the_walk_keeps_path_order_where_text_order_differs(tmp_path):
    """``a-b.json`` sorts after ``a/x.json`` as paths (by parts) and before it as text ('-' < '/')."""
    (tmp_path / "a").mkdir()
    for name in ("a/x.json", "a-b.json", "a.json", "b.csv"):
        (tmp_path / name).write_text("{}")
    found, _ = game_files([tmp_path])
    assert found == sorted(found) == [tmp_path / "a" / "x.json", tmp_path / "a-b.json", tmp_path / "a.json",
                                      tmp_path / "b.csv"]
    assert sorted(map(str, found)) != list(map(str, found))


def test_the_walk_takes_a_file_once_by_its_first_path_and_keeps_what_it_cannot_read(tmp_path):
    game = tmp_path / "games" / "one.json"
    game.parent.mkdir()
    game.write_text("{}")
    (tmp_path / "games" / "same.json").symlink_to(game)
    (tmp_path / "games" / "gone.json").symlink_to(tmp_path / "nowhere.json")
    (tmp_path / "games" / "notes.txt").write_text("not a game")
    os.mkfifo(tmp_path / "games" / "pipe.json")
    found, scenarios = game_files([tmp_path / "games", game])
    assert found == [tmp_path / "games" / "gone.json", game] and scenarios == []
    assert identity(game) == identity(tmp_path / "games" / "same.json") == (game.stat().st_dev, game.stat().st_ino)
    assert identity(tmp_path / "games" / "gone.json") == os.path.realpath(tmp_path / "games" / "gone.json")


@needs_study
def test_the_walk_of_the_user_study_is_its_302_games_in_path_order():
    found, scenarios = game_files([USER_STUDY])
    assert len(found) == 302 and scenarios == [] and found == sorted(found)
    assert found == sorted(USER_STUDY.glob("*/*.json"))


# The journal read back


@pytest.mark.parametrize("value", [
    {"source": "a.json", "reward": 20, "pct": 12.5, "error": ""},
    {"source": "b.json", "n": 10 ** 4000, "small": -(2 ** 70), "tiny": 5e-324, "zero": -0.0, "error": ""},
    {"source": "c.json", "reward": float("nan"), "up": float("inf"), "down": float("-inf"), "error": ""},
    {"source": "d\ud800.json", "layout": "caf\u00e9 \"quoted\"\n", "roles": None, "ok": True, "error": "x"},
])
def test_a_journal_line_reads_as_json_reads_it(value):
    line = json.dumps(value) + "\n"
    assert repr(journal_row(line)) == repr(json.loads(line))


@pytest.mark.parametrize("line", ["", "{\"source\": ", "not json\n"])
def test_a_broken_journal_line_raises_what_json_raises(line):
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(line)
    with pytest.raises(json.JSONDecodeError) as got:
        journal_row(line)
    assert str(got.value) == str(expected.value)


# Grounder recognition


@needs_study
def test_a_game_is_recognized_by_its_grounder_from_a_path_or_its_text():
    by_path, by_text = grounder_for(GAME), grounder_for(str(GAME))
    assert by_path is by_text and by_path.name == "overcooked"


def test_a_zip_that_is_no_rollout_and_a_short_file_are_no_game(tmp_path):
    import zipfile

    archive = tmp_path / "other.npz"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("x.txt", "hello")
    short = tmp_path / "short.bin"
    short.write_bytes(b"PK")
    assert grounder_for(archive) is None and grounder_for(short) is None


# A one-game run


@needs_study
def test_a_one_game_run_writes_its_tables_and_loads_no_numpy_nor_entry_points(tmp_path):
    """Under two games no cell has an interval, so the run needs no numpy; no installed package declares
    a grounder, so importlib.metadata is not loaded either. In a child process: a fresh interpreter."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / GAME.name).symlink_to(GAME)
    code = ("import sys\nfrom strips_int.cli.evaluate import main\n"
            f"status = main(['domains/overcooked.pddl', {str(folder)!r}, '--out', {str(tmp_path / 'out')!r}, "
            "'--jobs', '1'])\n"
            "print(status, sorted(m for m in ('numpy', 'numpy.ma', 'numpy.random', 'importlib.metadata', "
            "'multiprocessing', 'dask', 'strips_int.grounders.sar.world') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "0 []", done.stderr
    rows = (tmp_path / "out" / "games.csv").read_text().splitlines()
    assert len(rows) == 2 and rows[1].startswith(str(folder / GAME.name))


@needs_study
def test_the_manifest_holds_each_input_s_sha256_and_size(tmp_path):
    files = sorted(USER_STUDY.glob("cole/*.json"))[:5]
    assert main(["domains/overcooked.pddl", *map(str, files), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    inputs = json.loads((tmp_path / "out" / "manifest.json").read_text())["inputs"]
    assert [entry["path"] for entry in inputs["files"]] == list(map(str, files))
    for entry, path in zip(inputs["files"], files):
        data = Path(path).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["size"] == len(data)
