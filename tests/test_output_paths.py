"""Where the command lines write (issue 31): an existing output path that is not a regular file (a FIFO, which
would block the writer forever) is refused at once in one line, before any work; a write that fails (a full
disk) is one line naming the file, and ``manifest.json`` then says ``failed``, never ``running``."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fuzz_inputs import KIT_PASS, KIT_PROBLEM, check_cli, run_cli, written

#: A refusal must come at once: well within this, where a blocked writer would never return.
AT_ONCE = 30


def one_line(result: subprocess.CompletedProcess, names: Path, code: int = 2) -> str:
    lines = check_cli(result, codes=(code,))
    assert len(lines) == 1 and str(names) in lines[0], result.stderr.decode()
    return lines[0]


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "out.fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("option", ["--html", "--plot", "--graphml"])
def test_check_refuses_a_fifo_as_its_output(fifo, option):
    line = one_line(run_cli("strips_int.check", "sar", str(KIT_PASS), option, str(fifo), timeout=AT_ONCE), fifo)
    assert "not a regular file" in line


def test_plot_refuses_a_fifo_as_its_figure(fifo):
    one_line(run_cli("strips_int.plot", "timeline", "sar", str(KIT_PASS), "--out", str(fifo), timeout=AT_ONCE), fifo)


def test_rc_refuses_a_fifo_as_its_table_before_planning(tmp_path):
    table = tmp_path / "rc.csv"
    os.mkfifo(table)
    one_line(run_cli("strips_int.rc", "--all-layouts", "--out", str(table), timeout=AT_ONCE), table)


def test_rc_refuses_a_table_in_a_missing_folder_before_planning(tmp_path):
    """It planned every layout (26-52 s) and only then failed with an internal FileNotFoundError."""
    table = tmp_path / "missing" / "rc.csv"
    assert one_line(run_cli("strips_int.rc", "--all-layouts", "--out", str(table), timeout=AT_ONCE), table) \
        == f"error: {table}: cannot write: no folder {table.parent}"


def test_a_table_whose_folder_is_a_file_is_refused_before_it_is_written(tmp_path):
    from strips_int.batch.tables import write_table
    from strips_int.errors import StripsIntError

    table = written(tmp_path / "file", "") / "rc.csv"
    with pytest.raises(StripsIntError) as error:
        write_table(table, ["a"], [[1]])
    assert str(error.value) == f"{table}: cannot write: no folder {table.parent}"


@pytest.mark.parametrize("name", ["games.csv", "games.jsonl", "manifest.json", ".lock"])
def test_evaluate_refuses_a_fifo_among_the_files_of_its_folder(tmp_path, name):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / name)
    one_line(run_cli("strips_int.evaluate", "sar", str(KIT_PASS), "--out", str(out), "--jobs", "1", timeout=AT_ONCE),
             out / name)


def test_evaluate_and_merge_refuse_a_fifo_as_their_folder(tmp_path, fifo):
    one_line(run_cli("strips_int.evaluate", "sar", str(KIT_PASS), "--out", str(fifo), "--jobs", "1",
                     timeout=AT_ONCE), fifo)
    shard = tmp_path / "shard"
    assert check_cli(run_cli("strips_int.evaluate", "sar", str(KIT_PASS), "--out", str(shard), "--jobs", "1",
                             "--resamples", "10"), codes=(0,)) == []
    one_line(run_cli("strips_int.evaluate", "merge", str(shard), "--out", str(fifo), timeout=AT_ONCE), fifo)


# ---------------------------------------------------------------- a full disk

def many_games(folder: Path, count: int) -> Path:
    """``count`` copies of the kit-pass trace (each its own file, so each its own row of some 3 KB)."""
    folder.mkdir()
    trace = {**json.loads(KIT_PASS.read_text()), "problem": str(KIT_PROBLEM), "meta": {"layout": "x" * 3000}}
    for k in range(count):
        written(folder / f"kit-{k}.trace.json", json.dumps(trace))
    return folder


def test_a_file_size_limit_is_one_line_naming_the_file(tmp_path):
    """Writes beyond ``RLIMIT_FSIZE`` fail as on a full disk (EFBIG; Python ignores SIGXFSZ): the error names
    games.jsonl and the manifest says the run failed."""
    games, out = many_games(tmp_path / "games", 40), tmp_path / "out"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (65_536, 65_536))

    result = subprocess.run([sys.executable, "-m", "strips_int.evaluate", "sar", str(games), "--out", str(out),
                             "--jobs", "1"], capture_output=True, timeout=120, preexec_fn=limit)
    line = one_line(result, out / "games.jsonl")
    assert "cannot write: File too large" in line
    run = json.loads((out / "manifest.json").read_text())
    assert run["status"] == "failed" and run["ended"] and 0 < run["counts"]["done"] < 40


def tmpfs(path: Path, size: str) -> bool:
    """Whether a tmpfs of ``size`` could be mounted at ``path`` (root, and a system that lets it)."""
    path.mkdir()
    return os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                                                capture_output=True).returncode == 0


def test_a_full_disk_is_one_line_naming_the_file_and_the_manifest_says_failed(tmp_path):
    """A real full disk: a 128 KiB tmpfs that the journal fills. The final manifest no longer fits as a new
    file, so it is written over the running one in place."""
    disk = tmp_path / "disk"
    if not tmpfs(disk, "128k"):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        games, out = many_games(tmp_path / "games", 100), disk / "out"
        result = run_cli("strips_int.evaluate", "sar", str(games), "--out", str(out), "--jobs", "1", timeout=120)
        line = one_line(result, out / "games.jsonl")
        assert "No space left on device" in line
        run = json.loads((out / "manifest.json").read_text())
        assert run["status"] == "failed" and run["ended"] and 0 < run["counts"]["done"] < 100
        assert not (out / ".lock").exists() and not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    finally:
        for _ in range(50):  # the child has exited; the mount may still be busy for a moment
            if subprocess.run(["umount", str(disk)], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
