"""Issue 16, execution and analysis, second round: what the faster paths give equals what the slower
ones gave, on real games.

``Step`` is a named tuple made in bulk by ``Step.numbered``; ``execute`` keeps its state as fact ids;
an agent's reach alone is a fixpoint over the team exploration's ground actions, not a new lifted
exploration; the objects each schema parameter may take are found by type; relevant steps are found
with INIT as a key of the search's own table; symmetry classes skip what cannot merge; a domain grounds
each action once for lifting and reachability.
"""

from __future__ import annotations

import itertools

import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import execute, load_domain, load_trace
from strips_int.analysis.causal import INIT, relevant_steps
from strips_int.errors import StripsIntError
from strips_int.grounders import read_input
from strips_int.analysis.reachability import allowed_objects, projected_facts, relaxed_reachable, symmetry_classes
from strips_int.model.trace import Step, Trace
from strips_int.analysis.views import analysis_lens, step_views

needs_data = pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data")


def _user_study(every: int = 10) -> tuple:
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    paths = sorted((SHARED_DATA / "user-study").glob("*/*.json"))[::every]
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
    """Final state, each step's newly true facts and the causal links, as SPEC sections 2-3 read them."""
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
    """SPEC section 3 as a fixpoint: the last achievers of goal facts, then every achiever, through a
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
