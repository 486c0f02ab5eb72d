"""The analysis's fast paths give what the definitions give, on real games.

``execute`` finds causal links by fact id (each action compiled once to an itemgetter) and keeps its state as fact
ids; the analysis reads each action through a per-action view; ``Step`` is a named tuple made in bulk; an agent's
reach alone is a fixpoint over the team exploration's ground actions; the objects each schema parameter may take are
found by type; relevant steps are found with INIT as a key of the search's own table; symmetry classes skip what
cannot merge; a domain grounds each action once; counts need no networkx graph (built on first use), and one
exploration serves every game whose problem folds to the same one."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze, analyze_run, execute, load_domain, load_trace
from strips_int.analysis.causal import INIT, relevant_steps
from strips_int.analysis.interdependence import classify, find_interdependences, object_states_before
from strips_int.analysis.reachability import allowed_objects, projected_facts, relaxed_reachable, symmetry_classes
from strips_int.analysis.views import analysis_lens, step_views
from strips_int.errors import StripsIntError
from strips_int.grounders import read_input
from strips_int.model.trace import Step, Trace


def _defined_links(trace) -> tuple[tuple, dict]:
    """definitions section 3 read literally: the last earlier step whose add list holds the fact, else INIT."""
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
    sets = [_sar_traces(), *([_user_study(25, 8)] if (SHARED_DATA / "user-study").is_dir() else [])]
    for domain, trace in ((domain, trace) for domain, traces in sets for trace in traces):
        run = execute(trace, domain.cache if shared else None)
        achievers, goal = _defined_links(trace)
        assert run.links.achievers == achievers, trace.source
        assert dict(run.links.goal) == goal and list(run.links.goal) == list(goal), trace.source


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")
def test_classify_makes_the_views_it_is_not_given():
    domain, traces = _user_study(25, 12)
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
    """Object states (definitions section 5) replayed from the views equal states read off the full state."""
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


needs_data = pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")


def _user_study(every: int = 10, count: int | None = None) -> tuple:
    """The user-study games, every ``every``-th file (the first ``count`` of them)."""
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    paths = sorted((SHARED_DATA / "user-study").glob("*/*.json"))[::every][:count]
    return domain, [trace for path in paths for trace in read_input(path, domain)]


def _sar() -> tuple:
    domain = load_domain(SAR)
    return domain, [load_trace(path, domain) for path in sorted(EXAMPLES.glob("*.trace.json"))]


def _traces() -> tuple:
    domain, traces = _sar()
    found = [(domain, trace) for trace in traces]
    if (SHARED_DATA / "user-study").is_dir():
        domain, traces = _user_study()
        found += [(domain, trace) for trace in traces]
    return found


def test_steps_made_in_bulk_are_the_steps_made_one_by_one():
    domain, traces = _sar()
    for trace in traces:
        steps = trace.steps
        made = Step.numbered([s.t for s in steps], [s.action for s in steps])
        assert made == steps and all(type(step) is Step for step in made)
        for step, again in zip(steps, made):
            by_keyword = Step(index=step.index, t=step.t, action=step.action)
            assert again == by_keyword == Step(step.index, step.t, step.action)
            assert hash(again) == hash(by_keyword)
            assert (again.index, again.t, again.action, again.agent) == (step.index, step.t, step.action,
                                                                        step.action.actor)
            assert again.describe() == (f"step {step.index} (t={step.t}, agent {step.action.actor})"
                                        if step.action.actor else f"step {step.index} (t={step.t}, environment)")
        assert len(set(made)) == len(made)
        if len(steps) > 1:
            assert steps[0] != steps[1] and Step(0, steps[0].t, steps[1].action) != steps[0]


def test_execution_by_fact_ids_replays_the_definitions():
    """Final state, each step's newly true facts and the causal links, as definitions sections 2-3 read them."""
    for _, trace in _traces():
        run = execute(trace)
        state, last = set(trace.problem.init), {}
        for step, new, achievers in zip(trace.steps, run.new_facts, run.links.achievers, strict=True):
            assert step.action.pre <= state and state.isdisjoint(step.action.neg_pre)
            assert new == step.action.add - state
            assert achievers == tuple(last.get(fact, INIT) for fact in step.action.pre)
            last.update(dict.fromkeys(step.action.add, step.index))
            state -= step.action.delete
            state |= step.action.add
        assert run.final == frozenset(state)
        assert dict(run.links.goal) == {f: last.get(f, INIT) for f in sorted(trace.problem.goal & state)}


def test_an_inapplicable_step_is_named_with_its_failed_preconditions():
    domain, traces = _sar()
    trace = next(t for t in traces if len(t.steps) > 3)
    dropped = trace.steps[1:]  # the first step's effects never happen: a later step fails
    broken = Trace(source=trace.source, problem=trace.problem,
                   steps=Step.numbered([s.t for s in dropped], [s.action for s in dropped]), meta=trace.meta)
    state = set(trace.problem.init)
    for step in broken.steps:
        if not step.action.applicable(state):
            expected = f"{trace.source}: {step.describe()}: {step.action.not_applicable(state)}"
            break
        state -= step.action.delete
        state |= step.action.add
    else:
        pytest.skip("every step still applies")
    with pytest.raises(StripsIntError) as info:
        execute(broken)
    assert str(info.value) == expected


@needs_data
def test_reach_alone_from_the_team_exploration_is_a_new_exploration():
    domain, traces = _user_study(every=5)
    compared = 0
    seen = set()
    for trace in traces:
        team = relaxed_reachable(domain, trace.problem)
        if team.explored in seen:
            continue
        seen.add(team.explored)
        keyed_problem = team.explored
        agents = sorted(o for o, t in keyed_problem.value.objects.items() if domain.is_agent_type(t))
        for size in (0, 1, len(agents)):
            for actors in itertools.combinations(agents, size):
                explored = relaxed_reachable(domain, keyed_problem.value, actors=actors).facts
                assert projected_facts(domain, keyed_problem, actors) == explored
                compared += 1
    assert compared >= 8


def test_reach_alone_on_sar_is_a_new_exploration():
    domain, traces = _sar()
    for trace in traces:
        team = relaxed_reachable(domain, trace.problem)
        keyed_problem = team.explored
        for agent in sorted(o for o, t in keyed_problem.value.objects.items() if domain.is_agent_type(t)):
            alone = relaxed_reachable(domain, keyed_problem.value, actors=[agent]).facts
            assert projected_facts(domain, keyed_problem, [agent]) == alone
            assert alone <= team.facts


def test_allowed_objects_are_each_objects_fit():
    for domain, trace in _traces()[::7]:
        objects = trace.problem.objects
        found = allowed_objects(domain, objects)
        assert found == {name: [frozenset(o for o, t in objects.items() if domain.fits(t, types))
                                for types in schema.param_types]
                         for name, schema in domain.schemas.items()}


def test_relevant_steps_are_those_with_a_carrying_chain_to_the_goal():
    """definitions section 3 as a fixpoint: the last achievers of goal facts, then every achiever, through a
    fact that carries relevance, of a relevant step; each named with an achieved goal fact."""
    checked = 0
    for domain, trace in _traces():
        run = execute(trace)
        agents = frozenset(o for o, t in trace.problem.objects.items() if domain.is_agent_type(t))
        views = step_views(trace.steps, analysis_lens(domain, agents))
        relevant = {a for a in run.links.goal.values() if a != INIT}
        grew = True
        while grew:
            before = len(relevant)
            for node in list(relevant):
                relevant |= {run.links.achievers[node][i] for i in views[node].carrying} - {INIT}
            grew = len(relevant) > before
        found = relevant_steps(run.links, views)
        assert set(found) == relevant, trace.source
        assert set(found.values()) <= set(run.links.goal)
        checked += len(found)
    assert checked > 100


def _classes_by_definition(domain, problem, keep=()) -> dict:
    """Objects of one type, not agents, constants nor kept, with the same initial facts with themselves
    blanked out; a class of more than the type's width, each mapped to its first ``width`` members."""
    def signature(obj: str) -> frozenset:
        return frozenset((f[0], i, tuple(None if a == obj else a for a in f[1:]))
                         for f in problem.init for i, a in enumerate(f[1:]) if a == obj)

    groups: dict = {}
    for obj, obj_type in problem.objects.items():
        if not domain.is_agent_type(obj_type) and obj not in domain.constants and obj not in keep:
            groups.setdefault((obj_type, signature(obj)), []).append(obj)
    found = {}
    for (obj_type, _), members in groups.items():
        if len(members) > domain.width(obj_type):
            reps = tuple(sorted(members)[:domain.width(obj_type)])
            found.update({member: reps for member in members})
    return found


def test_symmetry_classes_are_those_of_the_definition():
    compared = 0
    for domain, trace in _traces():
        problem = trace.problem
        assert symmetry_classes(domain, problem) == _classes_by_definition(domain, problem), trace.source
        kept = sorted(problem.objects)[::3]
        assert symmetry_classes(domain, problem, kept) == _classes_by_definition(domain, problem, kept)
        compared += bool(symmetry_classes(domain, problem))
    assert compared > 10


def test_a_domain_grounds_each_action_once_for_lifting_and_reachability():
    domain, traces = _sar()
    trace = traces[0]
    by_name = {(step.action.name, step.action.args): step.action for trace in traces for step in trace.steps}
    team = relaxed_reachable(domain, trace.problem)
    shared = [action for action in team.actions if (action.name, action.args) in by_name]
    assert shared and all(by_name[action.name, action.args] is action for action in shared)
    for (name, args), action in by_name.items():
        assert domain.ground(domain.schemas[name], args) is action
        assert domain.schemas[name].ground(args) == action


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
