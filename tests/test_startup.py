"""Start-up and fixed cost of ``evaluate``: what a run imports, the GC settings it runs
under, and a summary step that gives the numbers of the plain per-column bootstrap."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
import sys

import numpy as np
import pytest
from helpers import EXAMPLES, ROOT, SAR

from strips_int.batch.journal import read_journal
from strips_int.batch.stats import Summary, summarize, summarize_all

#: Modules a run in one process must not load: the bootstrap's numpy where no cell has an interval,
#: the worker pool's multiprocessing with --jobs 1.
HEAVY = ("numpy", "multiprocessing")


def imported(*args: str) -> set[str]:
    """The modules ``python -m strips_int.evaluate ARGS`` imports, as ``-X importtime`` lists them."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "strips_int.evaluate", *args],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_help_imports_neither_numpy_nor_multiprocessing():
    modules = imported("--help")
    assert "strips_int.cli.evaluate" in modules and "strips_int.grounders" in modules
    assert not {m for m in modules if m.split(".")[0] in HEAVY}


def test_a_one_game_run_in_one_process_imports_neither(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for name in ("kit-pass.trace.json", "kit-pass.problem.pddl"):
        shutil.copy(EXAMPLES / name, games)
    modules = imported(str(SAR), str(games), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert not {m for m in modules if m.split(".")[0] in HEAVY}
    summary = (tmp_path / "out" / "summary.csv").read_text().splitlines()
    assert summary[0] == "layout,agent,metric,n,mean,sd,ci_low,ci_high"
    cells = [line.split(",")[3:] for line in summary[1:]]
    assert ["1", "1.0000", "nan", "nan", "nan"] in cells  # constructive: one game, no spread
    assert all(n in ("0", "1") and rest[1:] == ["nan", "nan", "nan"] for n, *rest in cells)


def test_a_run_with_intervals_imports_numpy_and_still_no_multiprocessing(tmp_path):
    modules = imported(str(SAR), str(EXAMPLES), "--out", str(tmp_path / "out"), "--jobs", "1", "--group-by", "folder")
    assert "numpy" in modules and not {m for m in modules if m.split(".")[0] == "multiprocessing"}
    rows = [line.split(",") for line in (tmp_path / "out" / "summary.csv").read_text().splitlines()[1:]]
    spread = [row for row in rows if int(row[2]) >= 2]
    assert len(spread) >= 5 and all(float(row[5]) <= float(row[3]) <= float(row[6]) for row in spread)


def test_a_run_in_one_process_runs_under_the_quiet_gc_settings(tmp_path):
    """The collector is frozen and seldom runs in the process that analyses the games (--jobs 1)."""
    code = ("import gc, sys; from strips_int.cli.evaluate import main; seen = []\n"
            "import strips_int.batch.rows as e; rows = e.file_rows\n"
            "e.file_rows = lambda *a: seen.append((gc.get_threshold(), gc.get_freeze_count())) or rows(*a)\n"
            f"code = main([{str(SAR)!r}, {str(EXAMPLES)!r}, '--out', {str(tmp_path / 'out')!r}, '--jobs', '1'])\n"
            "print(code, seen[0][0], min(n for _, n in seen) > 10000)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split("\n")[-2] == "0 (200000, 50, 100) True", done.stderr[-2000:]


def bootstrap(values: list[float], resamples: int, seed: int) -> Summary:
    """The summary as defined before the draws were shared: a fresh generator per column."""
    data = np.asarray([v for v in values if v is not None and not math.isnan(v)], dtype=float)
    nan = float("nan")
    if data.size < 2:
        return Summary(int(data.size), float(data[0]) if data.size else nan, nan, nan, nan)
    means = data[np.random.default_rng(seed).integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Summary(int(data.size), float(data.mean()), float(data.std(ddof=1)), float(low), float(high))


def same(a: Summary, b: Summary) -> bool:
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(vars(a).values(), vars(b).values()))


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_summaries_of_many_columns_at_once_are_those_of_each_column_alone(seed):
    """Columns of one size share their draws, and one percentile call serves all: the numbers stay
    those of a fresh generator per column, to the last bit."""
    pick = random.Random(seed)
    columns = []
    for _ in range(40):
        size = pick.choice([0, 1, 2, 3, 8, 9, 35, 35, 36, 130])
        columns.append([pick.choice([None, float("nan"), pick.uniform(0, 100), float(pick.randint(0, 9)),
                                     pick.gauss(0, 1e6)]) for _ in range(size)])
    for resamples in (1, 10, 2000):
        together = summarize_all(columns, resamples, seed)
        assert len(together) == len(columns)
        for column, summary in zip(columns, together):
            assert same(summary, bootstrap(column, resamples, seed))
            assert same(summary, summarize(column, resamples, seed))


def test_under_two_values_there_is_no_numpy_work():
    code = ("import sys; from strips_int.batch.stats import summarize_all\n"
            "print(summarize_all([[], [3.0], [float('nan'), 2.5, None]]), 'numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ("[Summary(n=0, mean=nan, sd=nan, ci_low=nan, ci_high=nan), "
                                   "Summary(n=1, mean=3.0, sd=nan, ci_low=nan, ci_high=nan), "
                                   "Summary(n=1, mean=2.5, sd=nan, ci_low=nan, ci_high=nan)] False")


def test_the_journal_is_read_for_the_summaries_as_group_keys_and_metrics_only(tmp_path):
    journal = tmp_path / "games.jsonl"
    rows = [{"source": "a", "folder": "f", "layout": "x", "reward": 1.0, "steps": 9, "human_pct_triggers": 50.0,
             "human_triggers": 3, "error": ""},
            {"source": "b", "folder": "f", "error": "b: broken"},
            {"source": "c", "folder": "g", "layout": "y", "reward": 2.0, "constructive": 4, "notes": "=1+1",
             "error": ""}]
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    columns, cells = read_journal(journal, ["layout"])
    assert columns == ["source", "folder", "layout", "reward", "steps", "human_pct_triggers", "human_triggers",
                       "constructive", "notes", "error"]
    assert cells == [{"layout": "x", "reward": 1.0, "human_pct_triggers": 50.0},
                     {"layout": "y", "reward": 2.0, "constructive": 4}]


def test_commands_load_importlib_metadata_only_when_a_package_may_declare_grounders():
    """Asked of a fresh interpreter like the command's: in this one, a library imported by another
    test (importlib_metadata) may have added a finder of its own, which counts as a yes."""
    modules = imported("--help")
    code = "from strips_int.grounders import ENTRY_POINTS, may_declare; print(may_declare(ENTRY_POINTS))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert ("importlib.metadata" in modules) == (done.stdout.strip() == "True")
    assert "socket" not in modules or "importlib.metadata" in modules  # the lock's host name is uname's


#: Run in a fresh interpreter: importlib_metadata (imported by some tests' libraries) takes distribution
#: finding over from the standard library's finder for the rest of the process.
DECLARED = """
import importlib.metadata  # before sys.path is cut down to the test's folders
import sys
from pathlib import Path
from strips_int.grounders import ENTRY_POINTS, entry_points, may_declare
root = Path(sys.argv[1])
seen = []
sys.path[:] = [str(root), str(root / "missing")]
seen.append([may_declare(ENTRY_POINTS), list(entry_points(ENTRY_POINTS))])
toy = root / "Toy_Plugin-2.0.dist-info"
toy.mkdir()
(toy / "entry_points.txt").write_text("[strips_int.grounders]\\ntoy = toy_grounder:GROUNDER\\n")
seen.append([may_declare(ENTRY_POINTS), [(p.name, p.value) for p in entry_points(ENTRY_POINTS)]])
(root / "plugins.zip").write_bytes(b"PK\\x05\\x06" + bytes(18))  # an empty zip
sys.path[:] = [str(root / "plugins.zip")]
seen.append(may_declare(ENTRY_POINTS))
sys.meta_path.append(type("Finder", (), {"find_distributions": lambda self, context: []})())
sys.path[:] = [str(root / "missing")]
seen.append(may_declare(ENTRY_POINTS))
print(seen)
"""


def test_a_declared_grounder_group_is_found_and_anything_unreadable_counts_as_declared(tmp_path):
    other = tmp_path / "other-1.0.dist-info"
    other.mkdir()
    (other / "entry_points.txt").write_text("[console_scripts]\nother = other:main\n")
    (tmp_path / "old-0.1.egg-info").write_text("Metadata-Version: 1.0\n")  # a file: no entry points
    done = subprocess.run([sys.executable, "-c", DECLARED, str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "[[False, []], [True, [('toy', 'toy_grounder:GROUNDER')]], True, True]", done.stderr
