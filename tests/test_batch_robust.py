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
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA, default_sigint

from strips_int import StripsIntError, analyze_games
from strips_int.cli.evaluate import main

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
    return {"deep.json": "nested more than", "digits.json": "", "deep-plain.json": "nested more than", "huge.pkl": ""}


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
    results = list(analyze_games(SAR, games / "poison"))  # the library's lazy reading, too
    assert all(isinstance(r, StripsIntError) for r in results) and len(results) == len(words)


def test_every_exception_is_a_row_in_worker_processes_too(tmp_path, capsys):
    words = poison(tmp_path / "poison")
    assert main([str(SAR), str(tmp_path / "poison"), str(EXAMPLES), "--out", str(tmp_path / "out"),
                 "--jobs", "2"]) == 1
    assert "7 games, 4 errors" in capsys.readouterr().err
    assert len(read_csv(tmp_path / "out" / "games.csv")) == 7 + len(words)


def text_now(path: Path) -> str:
    """What ``path`` holds at this instant, or "" while it is absent (a run replaces and removes files as it goes)."""
    try:
        return path.read_text()
    except (FileNotFoundError, ProcessLookupError):  # the latter: /proc of a process being reaped
        return ""


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    return [int(p) for p in text_now(Path(f"/proc/{pid}/task/{pid}/children")).split()]


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
            if len(workers) == 2 and text_now(jsonl).count("\n") >= 3:
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


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers in /proc")
def test_workers_end_when_the_evaluate_process_is_killed(tmp_path):
    """SIGKILL of evaluate's main process mid-run: its worker processes end too, nothing is left running."""
    games = tmp_path / "games"
    games.mkdir()
    trace = {**json.loads((EXAMPLES / "kit-pass.trace.json").read_text()),
             "problem": str(EXAMPLES / "kit-pass.problem.pddl")}
    for k in range(400):
        (games / f"kit-{k}.trace.json").write_text(json.dumps(trace))
    out = tmp_path / "out"
    run = subprocess.Popen(evaluate_command(SAR, games, "--out", out, "--jobs", "2"), stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while run.poll() is None and time.monotonic() < deadline:
            workers = children(run.pid)
            jsonl = out / "games.jsonl"
            if len(workers) == 2 and text_now(jsonl).count("\n") >= 3:
                run.kill()
                break
            time.sleep(0.01)
        run.wait(timeout=60)
        assert run.returncode == -signal.SIGKILL and len(workers) == 2, "the run ended before it could be killed"
        deadline = time.monotonic() + 60  # the kernel kills them at once; a loaded machine may be slow to tell
        while any(map(running, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if running(pid)], "workers outlived the killed evaluate"
    finally:
        for pid in workers:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        run.kill()


def die_on_second(path: Path) -> list[dict]:
    """Analysis stand-in for the pool's own test: the worker working on "second" is killed, every time."""
    if path.name == "second":
        os.kill(os.getpid(), signal.SIGKILL)
    return [{"source": str(path)}]


def test_a_file_whose_worker_dies_twice_is_an_error_row_and_the_rest_finish():
    import multiprocessing

    from strips_int.batch.workers import map_files

    files = [Path(name) for name in ("first", "second", "third", "fourth", "fifth")]
    died = []

    def on_death(path, how):
        died.append(path)
        return [{"source": str(path), "error": how}]

    rows = list(map_files(multiprocessing.get_context("fork"), die_on_second, files, 2, on_death))
    assert [r[0]["source"] for r in rows] == [str(f) for f in files]
    assert died == [Path("second")] and rows[1][0]["error"] == "killed by SIGKILL"


# --- the output folder -----------------------------------------------------------------------------


def sixty_games(tmp_path: Path) -> Path:
    listed = tmp_path / "list.txt"
    listed.write_text("".join(f"{p}\n" for p in sorted(USER_STUDY.rglob("*.json"))[:60]))
    return listed


def interrupted(command: list, out: Path, signum: int) -> subprocess.CompletedProcess:
    """``command`` run until a few of its games are in ``out/games.jsonl``, then sent ``signum``."""
    run = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    try:
        while run.poll() is None:
            running = '"running"' in text_now(out / "manifest.json")
            if running and text_now(out / "games.jsonl").count("\n") >= 3:
                # frozen while the signal is sent, so a loaded machine cannot let the run finish first (the
                # parent hands out one file at a time: its workers take no new file while it is stopped)
                run.send_signal(signal.SIGSTOP)
                run.send_signal(signum)
                run.send_signal(signal.SIGCONT)
                break
            time.sleep(0.01)
        _, err = run.communicate(timeout=120)
    finally:
        for pid in children(run.pid):
            os.kill(pid, signal.SIGKILL)
        run.kill()
    return subprocess.CompletedProcess(command, run.returncode, "", err)


@needs_study
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_rerun_leaves_no_complete_looking_tables_and_resumes(tmp_path, signum):
    listed = sixty_games(tmp_path)
    whole = tmp_path / "whole"
    assert main([str(OVERCOOKED), "--files-from", str(listed), "--out", str(whole), "--jobs", "2"]) == 0
    out = tmp_path / "out"
    assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1"]) == 0  # a previous, complete run
    command = evaluate_command(OVERCOOKED, "--files-from", listed, "--out", out, "--jobs", "2", "--overwrite")
    stopped = interrupted(command, out, signum)
    assert stopped.returncode == 128 + signum, stopped.stderr
    assert "interrupted: " in stopped.stderr and "Traceback" not in stopped.stderr
    run_manifest = json.loads((out / "manifest.json").read_text())
    assert run_manifest["status"] == "interrupted" and run_manifest["counts"]["done"] < 60
    assert [f["path"] for f in run_manifest["inputs"]["files"]] == listed.read_text().split()
    assert all(len(f["sha256"]) == 64 and f["size"] > 0 for f in run_manifest["inputs"]["files"])
    for name in ("games.csv", "summary.csv", "summary.md", "summary.tex", "shard.json"):
        assert not (out / name).exists(), name  # neither this run's nor the previous run's
    assert not (out / ".lock").exists()
    done = run_manifest["counts"]["done"]
    resumed = subprocess.run(command, stderr=subprocess.PIPE, text=True, timeout=300)  # the same command goes on
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: {done} of 60 files were done by the interrupted run in {out} (--restart starts over)" \
        in resumed.stderr and "60 games, 0 errors" in resumed.stderr
    for name in ("games.jsonl", "games.csv", "summary.csv", "summary.tex", "shard.json"):
        assert (out / name).read_bytes() == (whole / name).read_bytes(), name
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_resume_refuses_other_inputs_a_complete_run_and_an_empty_folder(tmp_path, capsys):
    out = tmp_path / "out"
    assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1", "--resume"]) == 2
    assert capsys.readouterr().err == f"error: {out}: nothing to resume: no manifest.json\n"
    assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1", "--resume"]) == 2
    assert capsys.readouterr().err == f"error: {out}: nothing to resume: the run there is complete\n"
    run_manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**run_manifest, "status": "interrupted"}))
    assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1", "--resume", "--seed", "3"]) == 2
    assert capsys.readouterr().err == f"error: {out}: cannot resume: not the same options as the interrupted run\n"
    games = tmp_path / "games"
    shutil.copytree(EXAMPLES, games)
    (out / "manifest.json").write_text(json.dumps({**run_manifest, "status": "interrupted"}))
    assert main([str(SAR), str(games), "--out", str(out), "--jobs", "1", "--resume"]) == 2
    assert "cannot resume: not the same game file" in capsys.readouterr().err


def test_a_second_run_into_a_folder_in_use_is_refused_and_a_stale_lock_taken_over(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / ".lock").write_text(f"{holder.pid} {os.uname().nodename}\n")
        assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1"]) == 2
        assert capsys.readouterr().err.startswith(f"error: {out}: in use by process {holder.pid} on ")
        assert not (out / "games.jsonl").exists()
    finally:
        holder.kill()
        holder.wait()
    assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1"]) == 0  # its process is gone
    assert "7 games, 0 errors" in capsys.readouterr().err and not (out / ".lock").exists()


@needs_study
def test_two_runs_at_once_into_one_folder_one_is_refused(tmp_path, capsys):
    """The first run reads all 302 games, so it still holds the folder when the second (started once its
    first game is written) asks for it."""
    out = tmp_path / "out"
    first = subprocess.Popen(evaluate_command(OVERCOOKED, USER_STUDY, "--out", out, "--jobs", "1"),
                             stderr=subprocess.PIPE, text=True)
    try:
        while not (out / "games.jsonl").exists() and first.poll() is None:
            time.sleep(0.01)
        assert main([str(SAR), str(EXAMPLES), "--out", str(out), "--jobs", "1"]) == 2
        assert f"in use by process {first.pid}" in capsys.readouterr().err
        _, err = first.communicate(timeout=300)
    finally:
        first.kill()
    assert first.returncode == 0 and "302 games, 0 errors" in err
    assert len(read_csv(out / "games.csv")) == 302


# --- the walk --------------------------------------------------------------------------------------


def test_the_walk_follows_linked_folders_once_counts_each_file_once_and_skips_its_output(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    (games / "examples").symlink_to(EXAMPLES, target_is_directory=True)
    (games / "again").symlink_to(EXAMPLES, target_is_directory=True)  # the same folder by a second link
    (games / "examples-loop").symlink_to(games, target_is_directory=True)  # a link to an ancestor
    (games / "gone.json").symlink_to(tmp_path / "nowhere.json")  # a broken link
    out = games / "out"  # inside the walked folder
    args = [str(SAR), str(games), str(games), str(EXAMPLES / "kit-pass.trace.json"), "--out", str(out), "--jobs", "1"]
    for _ in range(2):  # the second run must not read the first one's tables
        assert main(args) == 1
        assert "7 games, 1 errors" in capsys.readouterr().err
        rows = read_csv(out / "games.csv")
        assert [r["source"] for r in rows] == [str(games / "again" / p.name) for p in sorted(EXAMPLES.iterdir())
                                               if "scenario" not in p.name and p.suffix == ".json"
                                               ] + [str(games / "gone.json")]
        assert rows[-1]["error"].startswith(f"{games / 'gone.json'}: cannot read: ")


def drop_root_powers() -> list[str]:
    """A command prefix under which root, too, is refused files it has no permission for."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root reads everything; needs setpriv to drop that power")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def test_what_the_walk_cannot_read_is_an_error_row(tmp_path):
    games = tmp_path / "games"
    shutil.copytree(EXAMPLES, games)
    locked = games / "locked"
    locked.mkdir()
    shutil.copy(EXAMPLES / "fire-door.log.json", locked / "hidden.log.json")
    (games / "secret.log.json").write_text((EXAMPLES / "fire-door.log.json").read_text())
    (games / "secret.log.json").chmod(0)
    locked.chmod(0)
    try:
        done = subprocess.run([*drop_root_powers(), *evaluate_command(SAR, games, "--out", tmp_path / "out",
                                                                      "--jobs", "2")],
                              stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        locked.chmod(0o755)
    assert done.returncode == 1 and "7 games, 2 errors" in done.stderr, done.stderr
    rows = {Path(r["source"]).name: r["error"] for r in read_csv(tmp_path / "out" / "games.csv")}
    assert rows["locked"] == f"{locked}: cannot read the folder: Permission denied"
    assert rows["secret.log.json"].startswith(f"{games / 'secret.log.json'}: ")
    assert "Permission denied" in rows["secret.log.json"]


# --- what input text can do to the tables ----------------------------------------------------------


def game_with_meta(folder: Path, **meta) -> Path:
    """The kit-pass example trace (one constructive interdependence) with ``meta`` of our own."""
    folder.mkdir(exist_ok=True)
    shutil.copy(EXAMPLES / "kit-pass.problem.pddl", folder)
    trace = json.loads((EXAMPLES / "kit-pass.trace.json").read_text())
    path = folder / f"game-{len(list(folder.glob('*.trace.json')))}.trace.json"
    path.write_text(json.dumps({**trace, "meta": meta}))
    return path


def test_text_from_input_cannot_be_a_spreadsheet_formula_or_latex(tmp_path):
    games = tmp_path / "games"
    team = "=cmd|' /C calc'!A0 #1 $a {b} ~c ^d \\e & 50% f_g"
    game_with_meta(games, team=team, link='=HYPERLINK("http://x","y")', sum="@SUM(A1)", plus="+1+2",
                   tab="\tx", minus="-3", plain="kitchen", count=-2)
    out = tmp_path / "out"
    assert main([str(SAR), str(games), "--out", str(out), "--jobs", "1", "--group-by", "team"]) == 0
    (row,) = read_csv(out / "games.csv")
    assert (row["link"], row["sum"], row["plus"], row["tab"]) == (
        "'=HYPERLINK(\"http://x\",\"y\")", "'@SUM(A1)", "'+1+2", "'\tx")
    assert (row["team"], row["minus"], row["plain"], row["count"]) == ("'" + team, "-3", "kitchen", "-2")
    assert row["constructive"] == "1"
    assert {r["team"] for r in read_csv(out / "summary.csv")} == {"'" + team}
    # A key this long wraps in its column (issue 33): break points aside, the cell is the escaped text.
    tex = (out / "summary.tex").read_text().replace(r"\allowbreak{}", "").replace(r"\raggedright ", "")
    assert (r"=cmd\textbar{}' /C calc'!A0 \#1 \$a \{b\} \textasciitilde{}c \textasciicircum{}d \textbackslash{}e \& 50\% "
            r"f\_g & 1 &") in tex
    assert r"| =cmd\|' /C calc'!A0 #1" in (out / "summary.md").read_text()


def test_text_utf8_cannot_carry_is_written_escaped(tmp_path, monkeypatch):
    """orjson refuses lone surrogates (the game is an error row); json, its fallback, and pickles pass them."""
    import strips_int.files

    monkeypatch.setattr(strips_int.files, "orjson", None)
    games = tmp_path / "games"
    game_with_meta(games, x="a\ud800b", **{"key\udc00": "y"})  # lone surrogates, as JSON "\ud800" gives
    out = tmp_path / "out"
    assert main([str(SAR), str(games), "--out", str(out), "--jobs", "1", "--group-by", "x"]) == 0
    (row,) = read_csv(out / "games.csv")
    assert (row["x"], row["key\\udc00"]) == ("a\\ud800b", "y")
    assert "a\\ud800b" in (out / "summary.md").read_text()


def test_a_cell_over_the_csv_field_limit_and_a_long_line_in_a_file_list(tmp_path, capsys):
    games = tmp_path / "games"
    game_with_meta(games, note="x" * 200_000)
    out = tmp_path / "out"
    assert main([str(SAR), str(games), "--out", str(out), "--jobs", "1"]) == 0
    assert "1 games, 0 errors" in capsys.readouterr().err
    assert len(read_csv_unlimited(out / "games.csv")[0]["note"]) == 200_000
    listed = tmp_path / "list.txt"
    for line in ("y" * 200_000, "a\0b"):
        listed.write_text(f"{games}\n{line}\n")
        assert main([str(SAR), "--files-from", str(listed), "--out", str(out), "--jobs", "1"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {listed}: line 2: no such file or folder: ") and len(err) < 300, err
        assert err.count("\n") == 1


def test_a_row_json_cannot_hold_is_its_games_error_row(tmp_path):
    """A pickle can carry an integer of more than 4,300 digits, which no JSON writer takes."""
    from strips_int.batch.journal import Tally, stream

    (tmp_path / "games.jsonl").touch()
    rows = [{"source": "a.pkl", "folder": "", "reward": 10**5000, "error": ""},
            {"source": "b.pkl", "folder": "", "reward": 3, "error": ""}]
    counts, tally = [], Tally(1)
    stream(tmp_path, [rows], counts, tally)
    first, second = map(json.loads, (tmp_path / "games.jsonl").read_text().splitlines())
    assert first["error"].startswith("a.pkl: internal error: ValueError: Exceeds the limit") and "reward" not in first
    assert second == rows[1] and counts == [2] and (tally.games, tally.errors) == (1, 1)


def read_csv_unlimited(path):
    limit = csv.field_size_limit(1 << 24)
    try:
        return read_csv(path)
    finally:
        csv.field_size_limit(limit)


def test_a_shard_with_a_broken_row_is_one_error_line_in_merge(tmp_path, capsys):
    for i in range(2):
        assert main([str(SAR), str(EXAMPLES), "--out", str(tmp_path / f"s{i}"), "--jobs", "1", "--shard", f"{i}/2"]) == 0
    journal = tmp_path / "s1" / "games.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    for broken in ("[" * 100_000 + "\n", '{"source": "x"}\n', "{\n"):
        journal.write_text("".join([lines[0], broken, *lines[2:]]))
        capsys.readouterr()
        assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(tmp_path / "m")]) == 2
        assert capsys.readouterr().err == f"error: {journal}: line 2: not a row of an evaluate run\n"


# --- the Dask engine -------------------------------------------------------------------------------


@needs_study
def test_a_dask_batch_whose_worker_died_is_retried_file_by_file(tmp_path):
    """With no second chance from the scheduler (allowed-failures 0), the batch running on a killed
    worker fails at once (KilledWorker): its files are retried one by one, and none is lost."""
    distributed = pytest.importorskip("distributed")
    import dask

    from strips_int.batch.cluster import evaluate_on_cluster
    from strips_int.model.domain import load_domain
    from strips_int.batch.engines import Processes
    from strips_int.batch.games import game_files

    domain = load_domain(OVERCOOKED)
    files, _ = game_files([p.strip() for p in sixty_games(tmp_path).read_text().splitlines()[:24]])
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        rows = evaluate_on_cluster(domain, files, {}, cluster.scheduler_address)
        got = [next(rows)]
        with distributed.Client(cluster) as client:
            processing = client.processing()  # worker address -> the tasks it is running or holds
            # A busy worker, else (on a loaded machine every batch may be done by now) the one holding the
            # most finished batches: its results are lost and computed again.
            busy = next((address for address, tasks in processing.items() if tasks), None) or max(
                client.has_what().items(), key=lambda item: len(item[1]))[0]
            os.kill(client.run(os.getpid, workers=[busy])[busy], signal.SIGKILL)
        got += list(rows)
    assert got == list(Processes(1).rows(domain, files, {}))
