"""``evaluate`` batches never die, hang or lose games (issue 15): any exception of one game is its
error row, a killed worker costs a retry, outputs are atomic with a manifest, a run can resume,
the walk follows links once and reports what it cannot read, and table cells carry no formulas."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int.evaluate import main

OVERCOOKED = ROOT / "domains" / "overcooked.pddl"
USER_STUDY = SHARED_DATA / "user-study"
needs_study = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="needs ../shared/data")
TRACE = '{"format": "strips-int-trace/1", "domain": "sar", '


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def evaluate_command(*args):
    return [sys.executable, "-m", "strips_int.evaluate", *map(str, args)]


def poison(folder: Path) -> dict[str, str]:
    """Files that raise something other than StripsIntError in a reader, by name, with the words
    their error row must carry."""
    folder.mkdir()
    (folder / "deep.json").write_text(TRACE + '"steps": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (folder / "digits.json").write_text('{"format": "strips-int-trace/1", "steps": [], "t": ' + "9" * 5000 + "}")
    (folder / "deep-plain.json").write_text("[" * 100_000 + "]" * 100_000)
    # protocol 4, SHORT_BINUNICODE's big sibling BINUNICODE8 declaring a 2**62-byte string
    (folder / "huge.pkl").write_bytes(b"\x80\x04\x8d" + (2**62).to_bytes(8, "little") + b"..")
    return {"deep.json": "Recursion", "digits.json": "digits", "deep-plain.json": "Recursion", "huge.pkl": ""}


def test_a_batch_with_poisoned_files_writes_an_error_row_for_each(tmp_path, capsys):
    games = tmp_path / "games"
    shutil.copytree(EXAMPLES, games)
    words = poison(games / "poison")
    out = tmp_path / "out"
    assert main([str(SAR), str(games), "--out", str(out), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "7 games, 4 errors" in err
    rows = {Path(r["source"]).name: r for r in read_csv(out / "games.csv")}
    assert len(rows) == 11 and sum(bool(r["error"]) for r in rows.values()) == 4
    for name, word in words.items():
        error = rows[name]["error"]
        assert error.startswith(f"{games / 'poison' / name}: ") and word in error and len(error) < 400, error
    assert rows["kit-pass.trace.json"]["constructive"] == "1"


def test_every_exception_is_a_row_in_worker_processes_too(tmp_path, capsys):
    words = poison(tmp_path / "poison")
    assert main([str(SAR), str(tmp_path / "poison"), str(EXAMPLES), "--out", str(tmp_path / "out"),
                 "--jobs", "2"]) == 1
    assert "7 games, 4 errors" in capsys.readouterr().err
    assert len(read_csv(tmp_path / "out" / "games.csv")) == 7 + len(words)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@needs_study
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers in /proc")
def test_a_killed_worker_does_not_hang_the_batch_and_loses_no_game(tmp_path):
    listed = tmp_path / "list.txt"
    listed.write_text("".join(f"{p}\n" for p in sorted(USER_STUDY.rglob("*.json"))[:60]))
    whole = tmp_path / "whole"
    assert main([str(OVERCOOKED), "--files-from", str(listed), "--out", str(whole), "--jobs", "1"]) == 0
    out = tmp_path / "killed"
    run = subprocess.Popen(evaluate_command(OVERCOOKED, "--files-from", listed, "--out", out, "--jobs", "2"),
                           stderr=subprocess.PIPE, text=True)
    victim = None
    try:
        while victim is None and run.poll() is None:
            jsonl = out / "games.jsonl"
            workers = children(run.pid)
            if len(workers) == 2 and jsonl.exists() and jsonl.read_text().count("\n") >= 3:
                victim = workers[0]
                os.kill(victim, signal.SIGKILL)  # as the OOM killer does
            time.sleep(0.01)
        _, err = run.communicate(timeout=120)
    finally:  # a hung batch fails the test rather than hanging it
        for pid in children(run.pid):
            os.kill(pid, signal.SIGKILL)
        run.kill()
    assert victim is not None, "the batch ended before a worker could be killed"
    assert run.returncode == 0, err
    assert "60 games, 0 errors" in err
    assert (out / "games.csv").read_bytes() == (whole / "games.csv").read_bytes()


def die_on_second(path: Path) -> list[dict]:
    """Analysis stand-in for the pool's own test: the worker working on "second" is killed, every time."""
    if path.name == "second":
        os.kill(os.getpid(), signal.SIGKILL)
    return [{"source": str(path)}]


def test_a_file_whose_worker_dies_twice_is_an_error_row_and_the_rest_finish():
    import multiprocessing

    from strips_int.workers import map_files

    files = [Path(name) for name in ("first", "second", "third", "fourth", "fifth")]
    died = []

    def on_death(path, how):
        died.append(path)
        return [{"source": str(path), "error": how}]

    rows = list(map_files(multiprocessing.get_context("fork"), die_on_second, files, 2, on_death))
    assert [r[0]["source"] for r in rows] == [str(f) for f in files]
    assert died == [Path("second")] and rows[1][0]["error"] == "killed by SIGKILL"
