"""Agents of a domain written without types, named by static unary predicates (definitions v4 section 1):
``--agent-types runner`` on ``tests/data/relay.pddl`` (written here in IPC's untyped STRIPS style), and on
IPC's own logistics, driverlog, satellite and zenotravel, read unedited from a mirror of
aibasel/downward-benchmarks when it is there (skipped when not), with Fast Downward's plans, against the
independent reading of ``tests/spec_oracle.py``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, mirrored
from spec_oracle import agents_of, compare, random_walk, schema_actor

from strips_int import StripsIntError, load_domain, load_problem
from strips_int.batch.games import analyze_file
from strips_int.model.problem import problem_from_dict
from strips_int.model.trace import Trace, trace_from_dict

DATA = ROOT / "tests" / "data"
RELAY = DATA / "relay.pddl"
RELAY_P01 = DATA / "relay-p01.pddl"
RUNNERS = {"agent-types": ["runner"]}
#: The IPC domains, the predicates that name their agents, and a problem with two agents or more.
IPC = {
    "logistics00": (["truck", "airplane"], "probLOGISTICS-4-0.pddl", {"tru1", "tru2", "apn1"}),
    "driverlog": (["driver", "truck"], "p01.pddl", {"driver1", "driver2", "truck1", "truck2"}),
    "satellite": (["satellite"], "p03-pfile3.pddl", {"satellite0", "satellite1"}),
    "zenotravel": (["aircraft"], "p03.pddl", {"plane1", "plane2"}),
}


@pytest.fixture(scope="module")
def relay():
    return load_domain(RELAY, RUNNERS)


def cli(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *map(str, args)], capture_output=True, text=True, timeout=300,
                          check=False)


def test_a_static_unary_predicate_names_the_agents_and_the_actor(relay):
    assert relay.agent_predicates == {"runner"} and relay.is_agent_type("runner")
    actors = {name: (schema.actor, sorted(schema.param_types[schema.actor]) if schema.actor is not None else None)
              for name, schema in relay.schemas.items()}
    assert actors == {"walk": (0, ["runner"]), "pick": (1, ["runner"]), "drop": (1, ["runner"]), "stamp": (None, None)}
    problem = load_problem(relay, RELAY_P01)
    assert {o: t for o, t in problem.objects.items() if t != "object"} == {"r1": "runner", "r2": "runner"}
    assert agents_of(relay, problem) == {"r1", "r2"}  # the oracle's own reading: (runner o) in the initial state
    assert [schema_actor(relay, relay.schemas[n]) for n in ("walk", "pick", "drop", "stamp")] == [0, 1, 1, None]


def test_the_pragma_in_the_file_reads_the_same_as_the_option(tmp_path, relay):
    pragma = tmp_path / "relay.pddl"
    pragma.write_text("; @strips-int agent-types: runner\n" + RELAY.read_text())
    for _ in range(2):  # compiled, then read back from the domain cache
        domain = load_domain(pragma)
        assert {n: (s.param_types, s.actor) for n, s in domain.schemas.items()} == \
            {n: (s.param_types, s.actor) for n, s in relay.schemas.items()}


def test_check_on_a_fast_downward_plan_finds_the_hand_over(relay):
    result = cli("strips_int.check", RELAY, DATA / "relay-p01.plan", "--problem", RELAY_P01, "--agent-types", "runner")
    assert result.returncode == 0, result.stderr
    assert "agents: r1 (runner), r2 (runner)" in result.stdout
    assert "interdependencies: 1 (constructive 1," in result.stdout
    assert "step 3 (t=3) r1 -> step 4 (t=4) r2: (drop p1 r1 b) => (pick p1 r2 b); objects p1; constructive" \
        in result.stdout
    [report] = analyze_file(relay, DATA / "relay-p01.plan", load_problem(relay, RELAY_P01))
    assert compare(relay, Trace(report.source, report.problem, report.steps), report=report) == []


def test_random_walks_agree_with_the_oracle(relay):
    start = load_problem(relay, RELAY_P01)
    found = [f"walk {seed}: {diff}" for seed in range(8) for diff in compare(relay, random_walk(relay, start, 30, seed))]
    assert found == []


def test_a_name_neither_a_type_nor_a_static_unary_predicate_is_refused_naming_both():
    statics = "office parcel place runner"
    for name, what in (("free", "is a predicate that actions add or delete, not a static one"),
                       ("zone", "is a predicate of 2 arguments, not one"),
                       ("courier", "is no type nor predicate of the domain")):
        with pytest.raises(StripsIntError) as info:
            load_domain(RELAY, {"agent-types": [name]})
        assert str(info.value) == (f"{RELAY}: agent-types: '{name}' {what}: name a type (it declares none) or, in a "
                                   "domain written without types, a static unary predicate (one no action adds or "
                                   f"deletes: {statics})")
    result = cli("strips_int.check", RELAY, DATA / "relay-p01.plan", "--problem", RELAY_P01, "--agent-types", "free")
    assert (result.returncode, result.stdout) == (2, "") and "'free' is a predicate that actions add" in result.stderr
    with pytest.raises(StripsIntError, match=r"relay.pddl: no agent type: .* \(it declares no types; its static unary "
                                             r"predicates, which agent-types may name: office parcel place runner\)$"):
        load_domain(RELAY)


def test_a_static_unary_predicate_of_a_typed_domain_is_refused(tmp_path):
    typed = tmp_path / "typed.pddl"
    typed.write_text("(define (domain t) (:requirements :typing) (:types thing place)\n"
                     "(:predicates (mobile ?x - thing) (at ?x - thing ?p - place))\n"
                     "(:action go :parameters (?x - thing ?a ?b - place) :precondition (and (mobile ?x) (at ?x ?a))\n"
                     " :effect (and (at ?x ?b) (not (at ?x ?a)))))\n")
    with pytest.raises(StripsIntError, match=r"typed.pddl: agent-types: 'mobile' is a predicate, not a type: a static "
                                             r"unary predicate names agents only in a domain written without types, "
                                             r"and this one declares types \(place thing\): name a type$"):
        load_domain(typed, {"agent-types": ["mobile"]})


def test_an_object_of_two_agent_predicates_or_declared_against_the_initial_state_is_refused(relay, tmp_path):
    two = tmp_path / "two.pddl"
    two.write_text(RELAY.read_text())
    domain = load_domain(two, {"agent-types": ["runner", "parcel"]})
    base = {"objects": {"r1": "object", "p1": "object", "a": "object"},
            "init": ["(runner r1)", "(parcel p1)", "(place a)", "(at r1 a)", "(at p1 a)", "(free r1)"],
            "goal": []}
    assert problem_from_dict(domain, base, "inline").objects["p1"] == "parcel"
    both = {**base, "init": [*base["init"], "(runner p1)"]}
    with pytest.raises(StripsIntError, match=r"^inline: object p1: \(parcel p1\) and \(runner p1\) both hold in the "
                                             r"initial state, and both predicates name agents"):
        problem_from_dict(domain, both, "inline")
    declared = {**base, "objects": {**base["objects"], "a": "runner"}}
    with pytest.raises(StripsIntError, match=r"^inline: object a: is declared a runner, but \(runner a\) does not hold "
                                             r"in the initial state"):
        problem_from_dict(relay, declared, "inline")


def test_a_trace_naming_another_agent_as_actor_is_an_error(relay):
    problem = load_problem(relay, RELAY_P01)
    with pytest.raises(StripsIntError, match=r"p1 is a object, but \?r of pick must be a runner"):
        trace_from_dict({"format": "strips-int-trace/1", "domain": "relay", "steps": [{"action": "(pick r1 p1 a)"}]},
                        relay, "t.json", problem)


@pytest.mark.parametrize("name", sorted(IPC))
def test_ipc_untyped_domains_with_fast_downward_plans_agree_with_the_oracle(name, tmp_path):
    from strips_int.planners import Call, solve_all

    types, problem_name, agents = IPC[name]
    domain_path = mirrored("aibasel/downward-benchmarks", f"{name}/domain.pddl", tmp_path / "domain.pddl")
    problem_path = mirrored("aibasel/downward-benchmarks", f"{name}/{problem_name}", tmp_path / problem_name)
    if domain_path is None or problem_path is None:
        pytest.skip("no mirror of aibasel/downward-benchmarks beside the worktree")
    domain = load_domain(domain_path, {"agent-types": types})
    problem = load_problem(domain, problem_path)
    assert agents_of(domain, problem) == agents
    [answer] = solve_all([Call(domain, problem, tuple(sorted(agents)), "fast-downward")], time.monotonic() + 120)
    assert answer.plan is not None, answer.detail
    plan = tmp_path / "sas_plan"
    plan.write_text("\n".join(map(str, answer.plan)) + f"\n; cost = {len(answer.plan)} (unit cost)\n")
    result = cli("strips_int.check", domain_path, plan, "--problem", problem_path, "--agent-types", *types, "--json")
    assert result.returncode == 0, result.stderr
    [report] = analyze_file(domain, plan, problem)
    assert report.achieved == problem.goal
    assert compare(domain, Trace(report.source, report.problem, report.steps), report=report) == []
    walks = [diff for seed in range(2) for diff in compare(domain, random_walk(domain, problem, 30, seed))]
    assert walks == []
