"""JaxMARL Overcooked V1 and V2 rollouts (made by jaxmarl in a child process) fed to the online analysis step by
step give their batch reports, number for number, and the V1 online wrapper's ``infos`` are, step by step, the
online analysis of the rollout it played, saved and read back (docs/definitions.md section 15)."""

from __future__ import annotations

import json

import pytest
from helpers import child_rollouts

from strips_int import load_domain, read_games
from strips_int.online import Online
from test_online import same_reports

pytest.importorskip("jaxmarl")


@pytest.fixture(scope="module")
def overcooked():
    return load_domain("overcooked")


@pytest.fixture(scope="module")
def wrapped(tmp_path_factory):
    """Episodes played in ``OnlineJaxMARL``: each rollout and what the wrapper said at each step."""
    return child_rollouts("jaxmarl_online_episodes.py", tmp_path_factory.mktemp("jaxmarl_online"))


def test_v1_rollouts_of_the_wrapper_replayed_give_their_batch_reports(overcooked, wrapped):
    rollouts = sorted(wrapped.glob("*.npz"))
    assert len(rollouts) == 3
    assert sum(same_reports(overcooked, path) for path in rollouts) == 3


def test_v2_rollouts_replayed_give_their_batch_reports(overcooked, tmp_path):
    rollouts = sorted(child_rollouts("jaxmarl_v2_rollouts.py", tmp_path, "recipes_redrawn", "button_clues",
                                     "clue").glob("*.npz"))
    assert len(rollouts) == 4  # (and the clue's, saved through jaxmarl's LogWrapper)
    assert sum(same_reports(overcooked, path) for path in rollouts) == 4


def test_wrapper_infos_are_the_online_analysis_of_the_saved_rollout(overcooked, wrapped):
    found = 0
    for path in sorted(wrapped.glob("*.npz")):
        said = json.loads(path.with_suffix(".json").read_text())
        [trace] = list(read_games(overcooked, path))
        online = Online(overcooked, trace.problem, trace.source, trace.meta)
        by_t: list[list] = [[] for _ in said]
        for step in trace.steps:
            result = online.step(step.action, step.t)
            by_t[step.t].append(result)
        for t, (results, info) in enumerate(zip(by_t, said, strict=True)):
            items = [item for result in results for item in result.to_dict()["interdependencies"]]
            assert info["interdependencies"] == items, (path.name, t)
            assert info["subtasks"] == [r.step.agent for r in results if r.subtask], (path.name, t)
            assert info["triggers"] == [r.step.agent for r in results if r.trigger], (path.name, t)
            assert info["interdependence_reward"] == 0.5 * len(items) + (
                3.0 * info["interdependence_report"]["counts"]["constructive"] if t == len(said) - 1 else 0)
            found += len(items)
        batch = online.finish().to_dict()
        ended = said[-1]["interdependence_report"]
        assert {k: ended[k] for k in ("steps", "goal", "counts", "agents", "interdependencies")} == {
            k: batch[k] for k in ("steps", "goal", "counts", "agents", "interdependencies")}, path.name
    assert found >= 5
