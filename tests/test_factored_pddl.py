"""CoDMAP-15's factored MA-PDDL (definitions v4 section 1): a folder with a domain and a problem file per agent,
read as the union of the agents' files. ``tests/data/freight-factored`` is the freight problem of
``tests/data/freight-codmap*.pddl`` (unfactored) split per agent, written here in CoDMAP's factored style;
CoDMAP's own depot (pfile1, factored and unfactored) is read from a mirror of danfis/maplan when it is
there (skipped when not). Both forms must give the same counts on one Fast Downward plan."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, mirrored
from spec_oracle import compare

from strips_int import StripsIntError, load_domain, load_problem
from strips_int.batch.games import analyze_file
from strips_int.model.trace import Trace

DATA = ROOT / "tests" / "data"
FACTORED = DATA / "freight-factored"
UNFACTORED = (DATA / "freight-codmap.pddl", DATA / "freight-codmap-p01.pddl")
AGENTS = {"agent-types": ["truck", "airplane"]}
#: CoDMAP-15's depot pfile1, factored and unfactored, as danfis/maplan's test suite kept them at this commit.
MAPLAN = ("danfis/maplan", "d3f36893cfa3d7ceb71519f16233bef252ff133c", "testsuites/pddl")
DEPOT_AGENTS = ("depot0", "distributor0", "distributor1", "driver0", "driver1")


def cli(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *map(str, args)], capture_output=True, text=True, timeout=300,
                          check=False)


def planned(domain, problem, folder: Path) -> Path:
    """A Fast Downward plan of ``problem``, written as ``sas_plan``."""
    from strips_int.planners import Call, solve_all

    agents = tuple(sorted(o for o, t in problem.objects.items() if domain.is_agent_type(t)))
    [answer] = solve_all([Call(domain, problem, agents, "fast-downward")], time.monotonic() + 120)
    assert answer.plan is not None, answer.detail
    plan = folder / "sas_plan"
    plan.write_text("\n".join(map(str, answer.plan)) + f"\n; cost = {len(answer.plan)} (unit cost)\n")
    return plan


def same_analysis(factored: tuple, unfactored: tuple, plan: Path) -> dict:
    """The reports of ``plan`` under both forms ((domain, problem) each): equal counts, tasks and
    interdependences, each agreeing with the oracle; the counts."""
    reports = []
    for domain, problem in (factored, unfactored):
        [report] = analyze_file(domain, plan, problem)
        assert not isinstance(report, StripsIntError), report
        assert compare(domain, Trace(report.source, report.problem, report.steps), report=report) == []
        reports.append(report.to_dict())
    mine, theirs = reports
    for key in ("counts", "agents", "interdependencies"):
        assert mine[key] == theirs[key], key
    return mine["counts"]


def test_the_union_of_the_agents_files_is_the_unfactored_domain_and_problem():
    factored, unfactored = load_domain(FACTORED, AGENTS), load_domain(UNFACTORED[0], AGENTS)
    assert factored.source == str(FACTORED) and factored.name == "freight"
    assert factored.predicates == unfactored.predicates and dict(factored.parents) == dict(unfactored.parents)
    assert sorted(factored.schemas) == sorted(unfactored.schemas)
    for name, schema in factored.schemas.items():  # parameters named differently (?t, ?truck) are the same action
        other = unfactored.schemas[name]
        assert (schema.param_types, schema.pre, schema.add, schema.delete, schema.actor) == \
            (other.param_types, other.pre, other.add, other.delete, other.actor == 0 and 0)
    mine, theirs = load_problem(factored, FACTORED), load_problem(unfactored, UNFACTORED[1])
    assert (mine.name, mine.objects, mine.init, mine.goal) == (theirs.name, theirs.objects, theirs.init, theirs.goal)
    assert ("in-city", "truck1", "depot1", "city1") in mine.init  # a private fact of truck1's file, kept


def test_a_fast_downward_plan_counts_the_same_in_both_forms(tmp_path):
    factored = load_domain(FACTORED, AGENTS)
    unfactored = load_domain(UNFACTORED[0], AGENTS)
    problems = load_problem(factored, FACTORED), load_problem(unfactored, UNFACTORED[1])
    plan = planned(factored, problems[0], tmp_path)
    counts = same_analysis((factored, problems[0]), (unfactored, problems[1]), plan)
    assert counts["interdependencies"] >= 3 and counts["constructive"] == counts["interdependencies"]
    result = cli("strips_int.check", FACTORED, plan, "--problem", FACTORED, "--agent-types", "truck", "airplane")
    assert result.returncode == 0, result.stderr
    assert "domain freight, problem freight-p01" in result.stdout
    assert f"interdependencies: {counts['interdependencies']} (constructive {counts['constructive']}," in result.stdout


def copied(tmp_path: Path) -> Path:
    folder = tmp_path / "factored"
    shutil.copytree(FACTORED, folder)
    return folder


def refused(folder: Path, pattern: str) -> None:
    with pytest.raises(StripsIntError, match=pattern):
        load_problem(load_domain(folder, AGENTS), folder)


def test_a_file_without_its_pair_or_another_pddl_file_is_an_error(tmp_path):
    folder = copied(tmp_path)
    (folder / "problem-truck2.pddl").unlink()
    refused(folder, r"factored: domain-truck2.pddl: has no problem-truck2.pddl beside it$")
    (folder / "problem-truck2.pddl").write_text((FACTORED / "problem-truck2.pddl").read_text())
    (folder / "domain.pddl").write_text((FACTORED / "domain-truck2.pddl").read_text())
    refused(folder, r"factored: domain.pddl: a folder of factored MA-PDDL holds only domain-AGENT.pddl and "
                    r"problem-AGENT.pddl files")
    (tmp_path / "empty").mkdir()
    with pytest.raises(StripsIntError, match=r"empty: no domain-AGENT.pddl and problem-AGENT.pddl files"):
        load_domain(tmp_path / "empty", AGENTS)


def test_an_action_that_differs_between_files_is_an_error_naming_both(tmp_path):
    folder = copied(tmp_path)
    text = (folder / "domain-truck2.pddl").read_text()
    (folder / "domain-truck2.pddl").write_text(text.replace("(and (at ?truck ?loc) (at ?pkg ?loc))",
                                                            "(at ?pkg ?loc)"))
    with pytest.raises(StripsIntError, match=r"factored: domain-truck2.pddl: action load-truck differs from its "
                                             r"definition in domain-truck1.pddl"):
        load_domain(folder, AGENTS)


def test_an_agent_takes_only_the_actions_of_its_own_file(tmp_path):
    folder = copied(tmp_path)
    text = (folder / "domain-truck2.pddl").read_text()
    (folder / "domain-truck2.pddl").write_text(text[:text.index("(:action drive-truck")] + ")\n")
    refused(folder, r"factored: action drive-truck: truck2 is a truck, which may take it by its type, but "
                    r"domain-truck2.pddl has no action drive-truck")
    folder = copied(tmp_path / "two")
    (folder / "problem-truck3.pddl").write_text((folder / "problem-truck2.pddl").read_text().replace("truck2", "truck3"))
    (folder / "domain-truck3.pddl").write_text((folder / "domain-plane1.pddl").read_text())
    refused(folder, r"domain-truck3.pddl: action fly-airplane's actor is a airplane, but truck3 is a truck")


def test_a_file_of_an_agent_no_problem_declares_is_an_error(tmp_path):
    folder = copied(tmp_path)
    for kind in ("domain", "problem"):
        (folder / f"{kind}-truck9.pddl").write_text((folder / f"{kind}-truck2.pddl").read_text())
    refused(folder, r"factored: domain-truck9.pddl: is agent truck9's, but no problem file declares an object truck9")


def test_a_factored_private_group_keeps_every_predicate_it_declares(tmp_path):
    folder = copied(tmp_path)
    text = (folder / "domain-truck1.pddl").read_text().replace(
        "(in-city ?agent - truck ?loc - place ?city - city)",
        "(parked ?agent - truck)\n\t\t(in-city ?agent - truck ?loc - place ?city - city)")
    (folder / "domain-truck1.pddl").write_text(text)
    domain = load_domain(folder, AGENTS)  # truck2's file does not declare parked: a union, no conflict
    assert domain.predicates["parked"] == ({"truck"},) and "in-city" in domain.predicates


def test_codmap_factored_depot_counts_as_its_unfactored_form(tmp_path):
    repo, commit, base = MAPLAN
    folder = tmp_path / "depot-pfile1-factor"
    folder.mkdir()
    files = [f"{kind}-{agent}.pddl" for agent in DEPOT_AGENTS for kind in ("domain", "problem")]
    got = [mirrored(repo, f"{base}/depot-pfile1-factor/{name}", folder / name, commit) for name in files]
    domain_path = mirrored(repo, f"{base}/depot-domain.unfactor.pddl", tmp_path / "domain.pddl", commit)
    problem_path = mirrored(repo, f"{base}/depot-pfile1.unfactor.pddl", tmp_path / "pfile1.pddl", commit)
    if None in got or domain_path is None or problem_path is None:
        pytest.skip("no mirror of danfis/maplan beside the worktree")
    agents = {"agent-types": ["place", "driver"]}
    factored, unfactored = load_domain(folder, agents), load_domain(domain_path, agents)
    problems = load_problem(factored, folder), load_problem(unfactored, problem_path)
    assert (problems[0].objects, problems[0].init, problems[0].goal) == \
        (problems[1].objects, problems[1].init, problems[1].goal)
    plan = planned(unfactored, problems[1], tmp_path)
    counts = same_analysis((factored, problems[0]), (unfactored, problems[1]), plan)
    assert counts["interdependencies"] >= 1
