"""Finding and reading game files: the walk's one look at each file (files read at their own size, a
user-study game read whole once after the walk, the Overcooked recognizer looking at its head, SAR scenarios set
aside wherever their tag stands), a grounder chosen for a path parsed once, the journal read back by msgspec, and
what a one-game run loads."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import EXAMPLES, PROC_IO, ROOT, SHARED_DATA, bytes_read

from strips_int import StripsIntError, load_domain
from strips_int.batch.games import game_files, identity
from strips_int.batch.journal import journal_row
from strips_int.batch.rows import file_rows
from strips_int.cli.evaluate import main
from strips_int.files import read_bytes
from strips_int.grounders import HEAD_BYTES, grounder_for, read_input
from strips_int.grounders.overcooked.formats import detect
from strips_int.grounders.sar import detect as sar_detect

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


needs_proc = pytest.mark.skipif(not PROC_IO.exists(), reason="counts bytes read by /proc/self/io (Linux)")
SCENARIO_TAG = "strips-int-sar-scenario/1"


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(ROOT / "domains" / "overcooked.pddl")


@pytest.fixture(scope="module")
def episode() -> tuple[Path, dict]:
    """The largest user-study game (198 KB: larger than the zip test's look at a file's tail), parsed."""
    path = max(USER_STUDY.glob("*/*.json"), key=lambda p: p.stat().st_size)
    return path, json.loads(path.read_bytes())


def rows_but_source(domain, path: Path) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "source"} for row in file_rows(domain, {}, path)]


# Reading: the size fstat gives, then on while the file goes on


def test_a_file_whose_size_is_not_known_beforehand_is_read_whole_and_held_to_the_limit():
    """/proc files say they hold 0 bytes: reading goes on past what fstat said, up to the limit."""
    cmdline = Path("/proc/self/cmdline")
    if not cmdline.exists() or cmdline.stat().st_size:
        pytest.skip("needs a file whose stat size is 0 but holds bytes (Linux /proc)")
    whole = cmdline.read_bytes()
    assert len(whole) > 10 and read_bytes(cmdline) == whole
    assert read_bytes(cmdline, limit=len(whole)) == whole
    with pytest.raises(StripsIntError, match="cannot read: larger than"):
        read_bytes(cmdline, limit=len(whole) - 1)


@needs_study
@needs_proc
def test_real_games_are_read_in_one_pass_of_their_own_size(episode):
    path, _ = episode
    data = path.read_bytes()
    assert read_bytes(path) == data
    read_bytes(path)  # once before, so that what is counted is the read alone
    assert len(data) <= bytes_read(lambda: read_bytes(path)) < len(data) + 1024


# Recognizing: the head first, all of the file only when the head does not tell


@needs_study
@needs_proc
def test_a_user_study_game_is_told_by_its_head(episode):
    path, _ = episode
    assert detect(path) == "episode-json"
    assert bytes_read(lambda: detect(path)) < HEAD_BYTES + 1024  # of 198 KB


@needs_study
@needs_proc
def test_a_user_study_game_is_read_whole_once_after_the_walk(overcooked, episode):
    """All that is read of the file besides the reader's one pass: its head, read once by the registry for
    every recognizer. Before, the Overcooked recognizer read it whole as well, and then its own head and
    the JaxMARL recognizer's zip test (the last 64 KiB + 22 bytes)."""
    path, _ = episode
    size = path.stat().st_size
    list(read_input(path, overcooked))  # once before, so that what reading a game loads (a layout) is loaded
    read = bytes_read(lambda: list(read_input(path, overcooked)))
    assert size <= read < size + HEAD_BYTES + 1024


@needs_study
def test_a_game_whose_episode_key_stands_after_its_head_is_told_by_all_of_it(tmp_path, overcooked, episode):
    """The same game with ``ep_states`` written last, after 4 KiB of other keys, and with the key cut by
    the 4 KiB mark: recognized from the whole text, and read into the same rows."""
    path, data = episode
    rest = {k: v for k, v in data.items() if k != "ep_states"}
    late, cut = (tmp_path / way / path.parent.name / path.name for way in ("late", "cut"))  # the names tell seats
    late.parent.mkdir(parents=True)
    cut.parent.mkdir(parents=True)
    late.write_text(json.dumps({**rest, "ep_states": data["ep_states"]}))
    assert late.read_bytes().index(b'"ep_states"') > 4096
    # {"note": "xx...", "ep_states": [...], ...}: the key from byte 4090 to 4101
    cut.write_text('{"note": "' + "x" * 4077 + '", "ep_states": ' + json.dumps(data["ep_states"]) + ", "
                   + json.dumps(rest)[1:])
    assert cut.read_bytes().index(b'"ep_states"') == 4090
    expected = rows_but_source(overcooked, path)
    assert expected[0]["error"] == "" and expected[0]["steps"] > 100
    for file in (late, cut):
        assert detect(file) == "episode-json" and grounder_for(file).name == "overcooked"
        assert rows_but_source(overcooked, file) == expected


def test_a_json_file_without_the_episode_key_is_read_to_its_end_and_not_overcooked(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"padding": "x" * 10_000, "ep_states": "not a list", "states": [[]]}))
    assert detect(other) is None
    other.write_text(json.dumps({"padding": "x" * 10_000, "ep_observations": [[]]}).replace(":", " :\n "))
    assert detect(other) == "episode-json"


# The walk: scenarios set aside wherever their tag stands, no SAR world loaded


@needs_study
def test_the_walk_sets_scenarios_aside_wherever_the_format_key_stands(tmp_path, episode):
    _, data = episode
    scenario = json.loads((EXAMPLES / "fire-door.scenario.json").read_text())
    assert next(iter(scenario)) == "format"
    files = {
        "first.json": scenario,
        "last.json": {"padding": "x" * 10_000, **{k: v for k, v in scenario.items() if k != "format"},
                      "format": SCENARIO_TAG},
        "game-tagged-last.json": {**data, "format": SCENARIO_TAG},
        "game-tagged-inside.json": {**data, "meta": {"format": SCENARIO_TAG}},
        "game.json": data,
    }
    for name, value in files.items():
        (tmp_path / name).write_text(json.dumps(value))
    escaped = tmp_path / "escaped.json"  # the tag's slash escaped: JSON's same string
    escaped.write_text(json.dumps(files["last.json"]).replace("scenario/1", "scenario\\/1"))
    found, scenarios = game_files([tmp_path])
    # a game with a scenario's tag past its head is an Overcooked game: SAR files name their format in the head
    assert [p.name for p in found] == ["game-tagged-inside.json", "game-tagged-last.json", "game.json"]
    assert [p.name for p in scenarios] == ["escaped.json", "first.json", "last.json"]


@needs_study
def test_the_walk_loads_no_sar_world():
    code = ("import sys; from strips_int.batch.games import game_files\n"
            f"found, scenarios = game_files([{str(USER_STUDY)!r}])\n"
            "print(len(found), len(scenarios), sorted(m for m in sys.modules if m.startswith('strips_int.grounders.sar')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split("\n")[0] == "302 0 ['strips_int.grounders.sar', 'strips_int.grounders.sar.tags']"


def test_sar_files_are_still_told_apart_by_their_grounder():
    for name, kind in (("fire-door.scenario.json", "scenario"), ("fire-door.log.json", "log"),
                       ("kit-pass.trace.json", None)):
        path = EXAMPLES / name
        assert sar_detect(path) == kind
        assert (grounder_for(path).name if grounder_for(path) else None) == ("sar" if kind else None)
