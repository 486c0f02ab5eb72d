"""``merge`` records what it merged and how it ended in ``manifest.json``, as ``evaluate`` does: a merge killed
between its tables (SIGKILL, in a child process) leaves a manifest that says ``running``, so the folder is
seen to be incomplete, and running the merge again completes it, byte for byte as one whole run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_inputs import check_cli, run_cli
from helpers import EXAMPLES, SAR

from strips_int.cli.evaluate import main as evaluate

TABLES = ("games.jsonl", "games.csv", "summary.csv", "summary.md", "summary.tex", "shard.json")
#: A merge that kills itself (SIGKILL, as the OOM killer would) once games.csv is written, before its summaries.
DYING_MERGE = """
import os, signal, sys
import strips_int.batch.evaluate as batch
batch.write_summaries = lambda *args: os.kill(os.getpid(), signal.SIGKILL)
from strips_int.cli.merge import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """One evaluate run of the SAR examples (``whole``) and the same in two shards (``s0``, ``s1``)."""
    folder = tmp_path_factory.mktemp("merge")
    assert evaluate([str(SAR), str(EXAMPLES), "--out", str(folder / "whole"), "--jobs", "1"]) == 0
    for i in range(2):
        assert evaluate([str(SAR), str(EXAMPLES), "--out", str(folder / f"s{i}"), "--shard", f"{i}/2",
                         "--jobs", "1"]) == 0
    return folder


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def test_a_merge_records_what_it_merged_and_that_it_is_complete(runs):
    out = runs / "merged"
    done = run_cli("strips_int.merge", str(runs / "s0"), str(runs / "s1"), "--out", str(out))
    assert check_cli(done, (0,)) == [], done.stderr
    found = manifest(out)
    assert found["status"] == "complete" and found["ended"]
    assert found["counts"] == {"shards": 2, "games": 7, "errors": 0}
    assert found["command"][-4:] == [str(runs / "s0"), str(runs / "s1"), "--out", str(out)]
    assert [Path(f["path"]).name for f in found["inputs"]["shards"]] == ["shard.json", "games.jsonl"] * 2
    assert all(len(f["sha256"]) == 64 for f in found["inputs"]["shards"])
    for name in TABLES:
        assert (out / name).read_bytes() == (runs / "whole" / name).read_bytes(), name


def test_a_killed_merge_is_marked_incomplete_and_a_rerun_completes_it(runs):
    out = runs / "killed"
    killed = subprocess.run([sys.executable, "-c", DYING_MERGE, str(runs / "s0"), str(runs / "s1"), "--out", str(out)],
                            capture_output=True, timeout=60)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert (out / "games.csv").is_file() and not (out / "summary.tex").exists()
    assert manifest(out)["status"] == "running" and manifest(out)["ended"] is None
    done = run_cli("strips_int.merge", str(runs / "s0"), str(runs / "s1"), "--out", str(out))
    assert check_cli(done, (0,)) == [], done.stderr
    assert manifest(out)["status"] == "complete"
    for name in TABLES:
        assert (out / name).read_bytes() == (runs / "whole" / name).read_bytes(), name
