"""Issue 16: counts need no networkx graph (built on first use), and one exploration serves every
game whose problem folds to the same one."""

from __future__ import annotations

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze, load_domain
from strips_int.analysis.causal import INIT
from strips_int.grounders import read_input
from strips_int.analysis.reachability import relaxed_reachable


def test_the_graph_is_built_on_first_use_and_holds_every_causal_link():
    report = analyze(SAR, EXAMPLES / "kit-pass.trace.json")
    assert report.counts["constructive"] == 1
    assert "graph" not in vars(report)  # the counts above did not need it
    graph = report.graph
    assert graph is report.graph  # built once
    assert graph.number_of_nodes() == len(report.steps) + 1
    assert graph.number_of_edges() == sum(len(step.action.pre) for step in report.steps)
    for step in report.steps:
        into = {data["fact"]: u for u, _, data in graph.in_edges(step.index, data=True)}
        assert into == dict(zip(step.action.pre, report.links.achievers[step.index]))
    assert all(achiever == INIT or achiever in graph for achiever in graph.graph["goal"].values())


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")
def test_games_that_fold_to_one_problem_share_one_exploration():
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    games = sorted((SHARED_DATA / "user-study" / "cole").glob("*.json"))[:2]
    first, second = (next(iter(read_input(path, domain))).problem for path in games)
    assert first.objects != second.objects
    domain.cache.clear()
    one, two = relaxed_reachable(domain, first), relaxed_reachable(domain, second)
    assert one.actions is two.actions and one.facts is two.facts  # the second game explored nothing
    assert one.classes != two.classes  # each keeps its own renaming
    assert one.needers(domain.ignore_predicates) is two.needers(domain.ignore_predicates)
    domain.cache.clear()
    again = relaxed_reachable(domain, second)
    assert again.actions is not two.actions and again.facts == two.facts and again.actions == two.actions
