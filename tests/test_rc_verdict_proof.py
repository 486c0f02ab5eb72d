"""``rc`` gives a verdict only with a proof or a plan: a search the time limit stopped makes the verdict
``unknown`` naming it, never ``unsolvable`` (issue 37: ``--soups 30 --timeout 3`` said "unsolvable
(relaxed reachability)" of a kitchen player0 alone can serve). Each run in a child process, bounded."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT


def run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m strips_int.rc ARGS`` in a child (``timeout``: a hang guard, not a verdict)."""
    return subprocess.run([sys.executable, "-m", "strips_int.rc", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_thirty_soups_in_three_seconds_are_unknown_or_served_never_unsolvable():
    done = run(["--layout", "cramped_room", "--soups", "30", "--timeout", "3", "--json"])
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] in ("non-RC", "unknown") and data["joint_proof"] is None, data
    if not data["agents"]:  # a loaded machine: the limit came while the layout was being read
        assert data["reason"] in ("time limit reached in reading", "time limit reached in start-up"), data["reason"]
        return
    player0 = data["agents"]["player0"]
    if data["verdict"] == "non-RC":  # a fast machine: player0's plan is the witness
        assert player0["solvable_alone"] is True and player0["plan_length"] > 0
    else:
        assert player0["solvable_alone"] is None and player0["proof"] is None
        assert "time limit reached in" in data["reason"]
        # the joint problem is not searched after player0's stopped search, or the whole classification was
        # stopped (a loaded machine: it did not answer within the grace after the limit)
        assert data["joint_detail"].startswith(("not searched: the time limit stopped player0's search",
                                                "time limit reached in ")), data["joint_detail"]
    # player1 cannot reach the dish alone: that is a proof (given unless the limit came in relaxed reachability)
    player1 = data["agents"]["player1"]
    assert (player1["solvable_alone"], player1["proof"]) in ((False, "relaxed reachability"), (None, None))


SWEEP = """
import json, sys
from strips_int import load_domain
from strips_int.analysis.rc import required_cooperation
from strips_int.grounders.overcooked import get_layout
from strips_int.grounders.overcooked.lift import layout_problem

domain = load_domain("overcooked")
for name in sys.argv[1:]:
    problem = layout_problem(get_layout(name), domain)
    full = required_cooperation(domain, problem, jobs=1)
    for timeout in (0.001, 0.003, 0.006, 0.01, 0.02, 0.04):
        tight = required_cooperation(domain, problem, timeout=timeout, jobs=1)
        print(json.dumps([name, timeout, full.verdict, tight.verdict, tight.joint.status, tight.joint.proof,
                          tight.reason]))
"""


def test_tight_time_limits_give_the_verdict_or_unknown():
    """Every limit from 1 ms to 40 ms stops some search somewhere (at 5 ms, before the fix: "unsolvable");
    whatever the machine's pace, each answer is the untimed verdict or unknown with the reason."""
    layouts = ["cramped_room", "forced_coordination", "asymmetric_advantages"]
    done = subprocess.run([sys.executable, "-c", SWEEP, *layouts], capture_output=True, text=True, timeout=240,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 18
    full = {name: verdict for name, _, verdict, *_ in lines}
    assert full == {"cramped_room": "non-RC", "forced_coordination": "RC", "asymmetric_advantages": "non-RC"}
    for name, timeout, verdict, tight, joint, proof, reason in lines:
        assert tight in (verdict, "unknown"), (name, timeout, tight)
        assert (joint == "unsolvable") == (proof is not None), (name, timeout, joint, proof)
        if tight == "unknown":
            assert reason and ("time limit" in reason or "not searched" in reason), (name, timeout, reason)
    assert any(line[3] == "unknown" for line in lines)  # 1 ms stops every layout's search
