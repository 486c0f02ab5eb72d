"""Issue 16, execution and analysis: the fast paths give what the definitions give, on real games.

``execute`` finds causal links by fact id (each action compiled once to an itemgetter), numbering
initial facts that had no id yet; the analysis reads each action through a
per-action view, and ``classify`` makes its own views when not handed the report's.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze_run, execute, load_domain, load_trace
from strips_int.analysis.causal import INIT
from strips_int.grounders import read_input
from strips_int.analysis.causal import relevant_steps
from strips_int.analysis.interdependence import classify, find_interdependences, object_states_before
from strips_int.analysis.views import analysis_lens, step_views


def _user_study(count: int) -> list:
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    paths = sorted((SHARED_DATA / "user-study").glob("*/*.json"))[::25][:count]
    return domain, [trace for path in paths for trace in read_input(path, domain)]


def _defined_links(trace) -> tuple[tuple, dict]:
    """SPEC section 3 read literally: the last earlier step whose add list holds the fact, else INIT."""
    last: dict = {}
    achievers = []
    for step in trace.steps:
        achievers.append(tuple(last.get(fact, INIT) for fact in step.action.pre))
        last.update(dict.fromkeys(step.action.add, step.index))
    state = set(trace.problem.init)
    for step in trace.steps:
        state -= step.action.delete
        state |= step.action.add
    goal = {fact: last.get(fact, INIT) for fact in sorted(trace.problem.goal & state)}
    return tuple(achievers), goal


def _sar_traces() -> tuple:
    domain = load_domain(SAR)
    return domain, [load_trace(path, domain) for path in sorted(EXAMPLES.glob("*.trace.json"))]


@pytest.mark.parametrize("shared", [False, True])
def test_links_by_fact_id_are_the_last_adders(shared):
    """Without a cache no fact has an id yet: every initial fact is numbered as the trace starts; with the
    domain's, ids are shared by the traces."""
    sets = [_sar_traces(), *([_user_study(8)] if (SHARED_DATA / "user-study").is_dir() else [])]
    for domain, trace in ((domain, trace) for domain, traces in sets for trace in traces):
        run = execute(trace, domain.cache if shared else None)
        achievers, goal = _defined_links(trace)
        assert run.links.achievers == achievers, trace.source
        assert dict(run.links.goal) == goal and list(run.links.goal) == list(goal), trace.source


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")
def test_classify_makes_the_views_it_is_not_given():
    domain, traces = _user_study(12)
    looked_at = 0
    for trace in traces:
        run = execute(trace)
        report = analyze_run(domain, run)
        agents = frozenset(report.agents)
        views = step_views(trace.steps, analysis_lens(domain, agents))
        inters = find_interdependences(trace.steps, run.links, views, agents)
        relevant = relevant_steps(run.links, views)
        given = classify(inters, run, relevant, agents, domain.position_predicates, views)
        made = classify(inters, run, relevant, agents, domain.position_predicates)
        assert given == made
        assert [v.category for v in given] == [f.category for f in report.interdependencies]
        looked_at += len(inters)
    assert looked_at > 20


def test_views_count_only_effects_on_objects_state():
    """Object states (SPEC section 5) replayed from the views equal states read off the full state."""
    domain, traces = _sar_traces()
    checked = 0
    for trace in traces:
        run = execute(trace)
        report = analyze_run(domain, run)
        agents = frozenset(report.agents)
        positions = domain.position_predicates
        wanted = defaultdict(set)
        for finding in report.interdependencies:
            wanted[finding.receiver.index].update(finding.objects)
        state = set(trace.problem.init)
        expected = {}
        for step in trace.steps:
            for obj in wanted.get(step.index, ()):
                expected[step.index, obj] = frozenset(
                    f for f in state if obj in f[1:] and f[0] not in positions and agents.isdisjoint(f[1:]))
            state -= step.action.delete
            state |= step.action.add
        views = step_views(trace.steps, analysis_lens(domain, agents))
        assert object_states_before(run, wanted, agents, positions, views) == expected
        checked += len(expected)
    assert checked > 5
