"""Scaling ``evaluate`` out: shards and their merge, the Dask engine, a worker lost mid-run."""

from __future__ import annotations

import json
import os
import signal

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int.batch.engines import available_cpus
from strips_int.batch.engines import Processes
from strips_int.batch.games import game_files
from strips_int.cli.evaluate import main
from strips_int.model.domain import load_domain

TABLES = ("games.jsonl", "games.csv", "summary.csv", "summary.md", "summary.tex", "shard.json")
USER_STUDY = SHARED_DATA / "user-study"
OVERCOOKED = ROOT / "domains" / "overcooked.pddl"


def run(*args):
    return main([*map(str, args), "--jobs", "1"])


def test_shards_merge_into_the_tables_of_one_run_byte_for_byte(tmp_path, capsys):
    assert run(SAR, EXAMPLES, "--out", tmp_path / "whole", "--group-by", "folder") == 0
    for i in range(3):
        assert run(SAR, EXAMPLES, "--out", tmp_path / f"s{i}", "--group-by", "folder", "--shard", f"{i}/3") == 0
    shard = json.loads((tmp_path / "s1" / "shard.json").read_text())
    assert [k for k, _, _ in shard["files"]] == [1, 4] and shard["total"] == 7  # file k goes to shard k mod 3
    shards = [tmp_path / f"s{i}" for i in (2, 0, 1)]  # any order
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 0
    assert "7 games, 0 errors from 3 shard(s)" in capsys.readouterr().err
    for name in TABLES:
        assert (tmp_path / "merged" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name


def test_a_merge_of_shards_of_different_runs_is_refused_in_one_line(tmp_path, capsys):
    assert run(SAR, EXAMPLES, "--out", tmp_path / "s0", "--shard", "0/2") == 0
    assert run(SAR, EXAMPLES, "--out", tmp_path / "s1", "--shard", "1/2", "--seed", "7") == 0
    assert run(SAR, EXAMPLES, "--out", tmp_path / "s1b", "--shard", "1/2", "--ego-seat", "auto") == 0
    capsys.readouterr()
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {tmp_path / 's1'}: made with other options than {tmp_path / 's0'}: seed 7 vs 0\n"
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1b"), "--out", str(tmp_path / "m")]) == 2
    assert 'ego_seat "auto" vs null' in capsys.readouterr().err
    edited = tmp_path / "sar.pddl"
    edited.write_text(SAR.read_text() + "; edited\n")
    assert run(edited, EXAMPLES, "--out", tmp_path / "s1c", "--shard", "1/2") == 0
    capsys.readouterr()
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1c"), "--out", str(tmp_path / "m")]) == 2
    assert f"made with another domain than {tmp_path / 's0'}: {edited} (sha256 " in capsys.readouterr().err
    assert main(["merge", str(tmp_path / "s0"), "--out", str(tmp_path / "m")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 's0'}: missing shard(s) 1/2 of this run\n"
    assert not (tmp_path / "m" / "games.csv").exists()


def test_files_from_a_list_and_its_errors(tmp_path, capsys):
    listed = tmp_path / "list.txt"
    listed.write_text(f"{EXAMPLES / 'kit-pass.trace.json'}\n\n{EXAMPLES / 'fire-door.log.json'}\n")
    assert run(SAR, "--files-from", listed, "--out", tmp_path / "out") == 0
    assert "2 games, 0 errors" in capsys.readouterr().err
    listed.write_text(f"{EXAMPLES / 'kit-pass.trace.json'}\n{tmp_path / 'gone.json'}\n")
    assert run(SAR, "--files-from", listed, "--out", tmp_path / "out") == 2
    assert capsys.readouterr().err == f"error: {listed}: line 2: no such file or folder: {tmp_path / 'gone.json'}\n"
    assert run(SAR, EXAMPLES, "--out", tmp_path / "out", "--shard", "2/2") == 2
    assert capsys.readouterr().err == "error: 2/2: a shard is i/n with 0 <= i < n (e.g. 0/4)\n"


def test_jobs_default_to_the_cpus_this_process_may_use():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert available_cpus() == expected


# --- the Dask engine -------------------------------------------------------------------------------

needs_study = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="needs ../shared/data")


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="module")
def twenty_games(tmp_path_factory):
    """The first 20 user-study games (a list file) and the tables of a local run over them."""
    files = sorted(p for p in USER_STUDY.rglob("*.json"))[:20]
    folder = tmp_path_factory.mktemp("study")
    (folder / "list.txt").write_text("".join(f"{p}\n" for p in files))
    assert main([str(OVERCOOKED), "--files-from", str(folder / "list.txt"), "--out", str(folder / "local"),
                 "--jobs", "2"]) == 0
    return folder


@needs_study
def test_a_dask_cluster_of_two_workers_writes_the_rows_of_a_local_run(cluster, twenty_games, tmp_path):
    out = tmp_path / "dask"
    assert main([str(OVERCOOKED), "--files-from", str(twenty_games / "list.txt"), "--out", str(out),
                 "--scheduler", cluster.scheduler_address]) == 0
    for name in TABLES:
        assert (out / name).read_bytes() == (twenty_games / "local" / name).read_bytes(), name


def test_an_unreachable_scheduler_is_one_line(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    from strips_int.batch import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    assert run(SAR, EXAMPLES, "--out", tmp_path / "out", "--scheduler", "tcp://127.0.0.1:9") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: tcp://127.0.0.1:9: cannot reach the Dask scheduler") and err.count("\n") == 1


@needs_study
def test_a_worker_killed_mid_run_loses_no_game(cluster, twenty_games):
    from distributed import Client

    from strips_int.batch.cluster import evaluate_on_cluster

    domain = load_domain(OVERCOOKED)
    files, _ = game_files([p.strip() for p in (twenty_games / "list.txt").read_text().splitlines()])
    rows = evaluate_on_cluster(domain, files, {}, cluster.scheduler_address)
    got = [next(rows)]
    with Client(cluster) as client:
        victim = next(iter(client.run(os.getpid).values()))
        os.kill(victim, signal.SIGKILL)  # its batches (running or done, not yet gathered) are recomputed
    got += list(rows)
    assert got == list(Processes(1).rows(domain, files, {}))
    assert len(got) == 20 and not any(r["error"] for rows_ in got for r in rows_)
