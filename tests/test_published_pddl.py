"""Domains and problems read as they are published (definitions v3 section 1): keywords in any case, the built-in
type ``object``, ``either`` types, action costs read and dropped, CoDMAP-15's unfactored MA-PDDL, agents
named by type (``--agent-types``, the pragma); a domain with no agent type, other numbers and negative
goals refused. The domains are written here in the published style (``examples/freight``: IPC style;
``tests/data/freight-codmap*.pddl``: CoDMAP style), and Fast Downward's plans of them are made through
unified-planning."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT
from spec_oracle import compare, random_walk

from strips_int import StripsIntError, analyze, load_domain, load_problem
from strips_int.batch.games import analyze_file
from strips_int.model.domain import parse_domain
from strips_int.model.trace import Trace

FREIGHT = ROOT / "examples" / "freight"
CODMAP = ROOT / "tests" / "data" / "freight-codmap.pddl"
CODMAP_P01 = ROOT / "tests" / "data" / "freight-codmap-p01.pddl"
AGENTS = {"agent-types": ["truck", "airplane"]}


@pytest.fixture(scope="module")
def freight():
    return load_domain(FREIGHT / "domain.pddl", AGENTS)


@pytest.fixture(scope="module")
def codmap():
    return load_domain(CODMAP, AGENTS)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *map(str, args)], capture_output=True, text=True, timeout=300, check=False)


def written(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------- IPC style: case, either, costs

def test_upper_case_keywords_either_and_action_costs_are_read(freight):
    assert freight.name == "freight" and sorted(freight.schemas) == ["drive-truck", "fly-airplane", "load", "unload"]
    load = freight.schemas["load"]
    assert load.param_types[1] == {"truck", "airplane"}
    assert load.actor == 1  # (either truck airplane): every type of it is an agent type
    assert (freight.schemas["drive-truck"].actor, freight.schemas["fly-airplane"].actor) == (0, 0)
    assert load.add == (("in", (0, 1)),) and load.delete == (("at", (0, 2)),)  # (increase (total-cost) 1) dropped
    assert freight.cost_functions == {"total-cost", "road-length"}
    note = f"{FREIGHT / 'domain.pddl'}: action costs (road-length, total-cost) read and dropped: they change no fact"
    assert freight.notes == (note,)


def test_a_problem_drops_its_cost_values_and_metric(freight):
    problem = load_problem(freight, FREIGHT / "p01.pddl")
    assert problem.name == "freight-p01"
    assert len(problem.init) == 10 and all(fact[0] in ("in-city", "at") for fact in problem.init)
    assert problem.goal == {("at", "pkg1", "depot2"), ("at", "pkg2", "port1"), ("at", "pkg3", "depot1")}


def test_a_domain_without_an_agent_type_is_refused_saying_how_to_name_them():
    with pytest.raises(StripsIntError) as info:
        load_domain(FREIGHT / "domain.pddl")
    assert str(info.value) == (
        f"{FREIGHT / 'domain.pddl'}: no agent type: declare a type agent (with subtypes), or name the agents' "
        "types with agent-types T... (the pragma '; @strips-int agent-types: T...' or the option of that name) "
        "(its types: airplane airport city location package physobj place truck vehicle)")
    result = cli("strips_int.check", FREIGHT / "domain.pddl", FREIGHT / "p01.plan")
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"error: {info.value}\n")


def test_the_agent_types_pragma_and_its_errors(tmp_path):
    text = (FREIGHT / "domain.pddl").read_text()
    domain = load_domain(written(tmp_path, "pragma.pddl", "; @strips-int agent-types: truck airplane\n" + text))
    assert domain.agent_types == {"truck", "airplane"} and domain.schemas["load"].actor == 1
    only_trucks = load_domain(written(tmp_path, "trucks.pddl", "; @strips-int agent-types: truck\n" + text))
    assert only_trucks.schemas["load"].actor is None  # (either truck airplane) is not all agent types
    assert only_trucks.schemas["fly-airplane"].actor is None  # an environment action now
    with pytest.raises(StripsIntError, match=r"pragma.pddl: agent-types: 'lorry' is no type nor predicate of the "
                                             r"domain: name a type \(airplane airport .* vehicle\) or, in a domain "
                                             r"written without types, a static unary predicate"):
        load_domain(tmp_path / "pragma.pddl", {"agent-types": ["lorry"]})
    with pytest.raises(StripsIntError, match=r"bad.pddl: line 1: agent-types: 'object' is no type nor predicate"):
        load_domain(written(tmp_path, "bad.pddl", "; @strips-int agent-types: object\n" + text))
    untyped = written(tmp_path, "untyped.pddl", "(define (domain u) (:predicates (truck ?x) (at ?x ?y))\n"
                      "(:action drive :parameters (?t ?a ?b) :precondition (and (truck ?t) (at ?t ?a))\n"
                      ":effect (and (at ?t ?b) (not (at ?t ?a)))))")
    with pytest.raises(StripsIntError, match=r"untyped.pddl: agent-types: 'lorry' is no type nor predicate of the "
                                             r"domain: name a type \(it declares none\) or, in a domain written "
                                             r"without types, a static unary predicate \(one no action adds or "
                                             r"deletes: truck\)$"):
        load_domain(untyped, {"agent-types": ["lorry"]})
    assert load_domain(untyped, {"agent-types": ["truck"]}).schemas["drive"].actor == 0


def test_object_is_a_built_in_type(codmap):
    assert codmap.predicates["at"] == ({"object"}, {"place"})
    assert "object" not in codmap.parents and codmap.parents["place"] == "object"


def test_syntax_errors_still_name_the_files_own_lines(tmp_path):
    lines = (FREIGHT / "domain.pddl").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "(:ACTION UNLOAD" in line)
    lines[at] = lines[at].replace("(:ACTION UNLOAD", "(:ACTION UNLOAD UNLOAD")
    with pytest.raises(StripsIntError, match=rf"broken.pddl: line {at + 1}, column \d+: syntax error"):
        load_domain(written(tmp_path, "broken.pddl", "\n".join(lines)), AGENTS)


def test_numbers_other_than_action_costs_are_not_strips(tmp_path):
    fuel = (FREIGHT / "domain.pddl").read_text().replace(":ACTION-COSTS", ":ACTION-COSTS :NUMERIC-FLUENTS").replace(
        "(road-length ?from ?to - place) - number", "(road-length ?from ?to - place) - number (fuel ?t - truck) - number")
    spent = fuel.replace("(increase (total-cost) (road-length ?from ?to))", "(decrease (fuel ?truck) 1)")
    with pytest.raises(StripsIntError, match=r"action drive-truck: effect \(decrease \(fuel \?truck\) 1\) is not STRIPS"):
        load_domain(written(tmp_path, "spent.pddl", spent), AGENTS)
    tested = fuel.replace("(AND (at ?truck ?from)", "(AND (> (fuel ?truck) 0) (at ?truck ?from)")
    with pytest.raises(StripsIntError, match=r"action drive-truck: precondition .* is not STRIPS"):
        load_domain(written(tmp_path, "tested.pddl", tested), AGENTS)
    plain = load_domain(ROOT / "domains" / "sar.pddl")
    problem = (ROOT / "examples" / "sar" / "kit-pass.problem.pddl").read_text().replace("(:init", "(:init (= (fuel) 3)")
    with pytest.raises(StripsIntError, match=r"init: \(= \(fuel\) 3\) is not a positive ground atom: numbers are not"):
        load_problem(plain, written(tmp_path, "fuel.pddl", problem))


def test_a_negative_goal_is_one_error_naming_the_problem(tmp_path, freight):
    problem = (FREIGHT / "p01.pddl").read_text().replace("(:GOAL (AND", "(:GOAL (AND (not (at pkg3 port1))")
    with pytest.raises(StripsIntError) as info:
        load_problem(freight, written(tmp_path, "negative.pddl", problem))
    assert str(info.value) == (f"{tmp_path / 'negative.pddl'}: goal of problem freight-p01: (not (at pkg3 port1)) is a "
                               "negative goal literal, which strips_int refuses: a goal is a conjunction of positive "
                               "atoms (the facts whose last achievers make steps relevant)")
    result = cli("strips_int.check", FREIGHT / "domain.pddl", FREIGHT / "p01.plan", "--problem",
                 tmp_path / "negative.pddl", "--agent-types", "truck", "airplane")
    assert result.returncode == 2 and f"error: {info.value}\n" in result.stderr


# ---------------------------------------------------------------- CoDMAP-15's unfactored MA-PDDL

def test_ma_pddl_agent_lines_are_the_first_parameter_and_the_actor(codmap):
    assert codmap.agent_lines == set(codmap.schemas)
    assert {name: (s.params[0], s.actor) for name, s in codmap.schemas.items()} == {
        "load-truck": ("truck", 0), "unload-truck": ("truck", 0), "drive-truck": ("truck", 0),
        "load-airplane": ("airplane", 0), "unload-airplane": ("airplane", 0), "fly-airplane": ("airplane", 0)}
    assert codmap.predicates["in-city"] == ({"truck"}, {"place"}, {"city"})  # its (:private ...) group opened
    problem = load_problem(codmap, CODMAP_P01)  # its objects' (:private ...) groups opened
    assert {o: problem.objects[o] for o in ("plane1", "truck1", "city2")} == {
        "plane1": "airplane", "truck1": "truck", "city2": "city"}


def test_an_ma_pddl_agent_of_no_agent_type_is_refused(tmp_path):
    with pytest.raises(StripsIntError, match=r"freight-codmap.pddl: action fly-airplane: its :agent \?airplane is a "
                                             r"airplane, not an agent type: name it with agent-types \(the pragma or the option\)"):
        load_domain(CODMAP, {"agent-types": ["truck"]})


def test_an_ipc_plan_and_a_codmap_plan_of_one_problem_are_analysed_alike(tmp_path, freight, codmap):
    moved = []
    for line in (FREIGHT / "p01.plan").read_text().splitlines():
        name, *args = line.strip("()").split()
        if name in ("load", "unload"):  # the vehicle, second in the IPC action, is CoDMAP's :agent, first
            pkg, vehicle, place = args
            name, args = f"{name}-{'truck' if vehicle.startswith('truck') else 'airplane'}", [vehicle, pkg, place]
        moved.append(f"({' '.join([name, *args])})" if not line.startswith(";") else line)
    plan = written(tmp_path, "codmap.plan", "\n".join(moved) + "\n")
    ipc = analyze(freight, FREIGHT / "p01.plan", FREIGHT / "p01.pddl")
    ma = analyze(codmap, plan, CODMAP_P01)
    assert ipc.counts == ma.counts and ipc.agent_metrics() == ma.agent_metrics()
    assert [(f.giver.index, f.receiver.index, f.objects) for f in ipc.interdependencies] == [
        (f.giver.index, f.receiver.index, f.objects) for f in ma.interdependencies]


# ---------------------------------------------------------------- against the oracle: plans and random walks

def test_random_walks_in_published_style_domains_agree_with_the_oracle(freight, codmap):
    found = []
    for domain, problem in ((freight, FREIGHT / "p01.pddl"), (codmap, CODMAP_P01)):
        start = load_problem(domain, problem)
        for seed in range(6):
            trace = random_walk(domain, start, 40, seed)
            found += [f"{domain.source} walk {seed}: {diff}" for diff in compare(domain, trace)]
    assert found == []


def test_fast_downward_plans_of_published_style_domains_agree_with_the_oracle(tmp_path, freight, codmap):
    from strips_int.planners import Call, solve_all

    for domain, problem_path in ((freight, FREIGHT / "p01.pddl"), (codmap, CODMAP_P01)):
        problem = load_problem(domain, problem_path)
        agents = tuple(sorted(o for o, t in problem.objects.items() if domain.is_agent_type(t)))
        [answer] = solve_all([Call(domain, problem, agents, "fast-downward")], time.monotonic() + 120)
        assert answer.plan is not None, answer.detail
        plan = written(tmp_path, "sas_plan", "\n".join(map(str, answer.plan)) + f"\n; cost = {len(answer.plan)} "
                       "(unit cost)\n")
        [report] = analyze_file(domain, plan, problem)
        assert not isinstance(report, StripsIntError), report
        assert report.achieved == problem.goal and report.counts["constructive"] >= 2
        assert compare(domain, Trace(report.source, report.problem, report.steps), report=report) == []


# ---------------------------------------------------------------- the command lines

def test_rc_on_a_published_domain_needs_the_airplane_for_its_capability():
    result = cli("strips_int.rc", FREIGHT / "domain.pddl", FREIGHT / "p01.pddl", "--agent-types", "truck", "airplane",
                 "--json", "--timeout", "120")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["verdict"], answer["reason"]) == ("RC", "capability")
    assert {a: (r["reason"], r["missing_actions"]) for a, r in answer["agents"].items()} == {
        "plane1": ("capability", ["drive-truck"]), "truck1": ("capability", ["fly-airplane"]),
        "truck2": ("capability", ["fly-airplane"])}
    handed = {(i["giver"]["agent"], i["receiver"]["agent"], tuple(i["objects"])) for i in answer["interdependencies"]}
    assert {("truck1", "plane1", ("pkg1",)), ("plane1", "truck2", ("pkg1",))} <= handed
    assert answer["counts"]["constructive"] == len(answer["interdependencies"]) >= 3


def test_agent_types_on_plot(tmp_path):
    out = tmp_path / "timeline.png"
    result = cli("strips_int.plot", "timeline", FREIGHT / "domain.pddl", FREIGHT / "p01.plan", "--agent-types",
                 "truck", "airplane", "--out", out)
    assert result.returncode == 0 and out.stat().st_size > 0, result.stderr


def test_parse_domain_reads_the_pragma_before_compiling():
    text = "; @strips-int agent-types: robot\n(DEFINE (DOMAIN d) (:REQUIREMENTS :TYPING) (:TYPES robot box)" \
           " (:PREDICATES (p ?b - box)) (:ACTION push :PARAMETERS (?b - box ?r - robot) :PRECONDITION (AND) :EFFECT (p ?b)))"
    assert parse_domain(text, "d.pddl").schemas["push"].actor == 1


def test_a_typed_list_with_no_names_before_its_type_is_read(tmp_path, freight):
    # IPC-2008 woodworking's generator writes "- board" when a problem has no boards.
    problem = (FREIGHT / "p01.pddl").read_text().replace("pkg1 pkg2 pkg3 - package", "- location pkg1 pkg2 pkg3 - package")
    assert load_problem(freight, written(tmp_path, "unnamed.pddl", problem)).objects == \
        load_problem(freight, FREIGHT / "p01.pddl").objects


def test_the_planner_is_given_either_types_and_types_named_like_objects(freight):
    # unified-planning types have one parent: an action with an either parameter becomes one action per
    # type (mapped back to its schema); and a type named like an object (CoDMAP's wireless: base - base)
    # gets a name of its own.
    from strips_int.planners import to_unified_planning

    problem = load_problem(freight, FREIGHT / "p01.pddl")
    named = dataclasses.replace(problem, objects={**problem.objects, "truck": "truck"})
    task = to_unified_planning(freight, named, ["truck1", "plane1"])
    assert sorted(task.action_names.items())[:4] == [
        ("drive-truck", "drive-truck"), ("fly-airplane", "fly-airplane"), ("load-as-package-airplane-place", "load"),
        ("load-as-package-truck-place", "load")]
    assert task.ground_named("load-as-package-truck-place", ("pkg1", "truck1", "depot1")).actor == "truck1"
    assert {t.name for t in task.up.user_types} >= {"truck-type", "airplane", "package"}


def test_a_problem_without_agents_is_an_error_not_empty_counts(tmp_path, freight):
    text = (FREIGHT / "p01.pddl").read_text()
    for vehicle in ("truck1 truck2 - truck plane1 - airplane", "(at truck1 depot1) (at truck2 depot2) (at plane1 port1)"):
        text = text.replace(vehicle, "")
    problem = load_problem(freight, written(tmp_path, "empty.pddl", text))
    plan = written(tmp_path, "empty.plan", "; cost = 0 (unit cost)\n")
    with pytest.raises(StripsIntError, match=r"empty.plan: problem freight-p01: no agents: no object is of an agent "
                                             r"type \(airplane, truck\)"):
        analyze(freight, plan, problem)
