"""Fuzzing published PDDL and plan files (issue 27), in the manner of ``tests/test_fuzz.py``: what PDDL
says is the same (keywords and names in any case, whitespace and comments anywhere) compiles to the same
domain, and every mutated domain, problem or plan file either reads and analyses or is one bounded error
line naming its file. Derandomized; ``FUZZ_SCALE=10`` runs ten times as many examples."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from fuzz_inputs import expect_error, mutated_pddl, read_and_analyse, written
from helpers import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strips_int import load_domain, load_problem
from strips_int.model.domain import domain_to_json, parse_domain

FREIGHT = ROOT / "examples" / "freight"
DATA = ROOT / "tests" / "data"
#: The published domains (an IPC one, CoDMAP's MA-PDDL, and the tests' data written as both publish), each
#: with its problem and plan where there is one; freight's agent types are given, the others' are pragmas.
#: (The packaged domains are tests/test_fuzz.py's.)
DOMAINS = {"ipc": FREIGHT / "domain.pddl", "codmap": DATA / "freight-codmap.pddl", "haulage": DATA / "haulage.pddl",
           "haulage-codmap": DATA / "haulage-codmap.pddl", "workshop": DATA / "workshop.pddl"}
PROBLEMS = {"ipc": FREIGHT / "p01.pddl", "codmap": DATA / "freight-codmap-p01.pddl",
            "haulage": DATA / "haulage-p01.pddl", "haulage-codmap": DATA / "haulage-p01.pddl",
            "workshop": DATA / "workshop-p01.pddl"}
PLANS = {"ipc": FREIGHT / "p01.plan", "haulage": DATA / "haulage-p01.plan",
         "haulage-codmap": DATA / "haulage-codmap.plan"}
FREIGHT_AGENTS = {"agent-types": ["truck", "airplane"]}
AGENTS = {name: FREIGHT_AGENTS if name in ("ipc", "codmap") else None for name in DOMAINS}

SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
FUZZ = settings(derandomize=True, database=None, deadline=timedelta(seconds=20), max_examples=30 * SCALE,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

#: What the published forms add to PDDL, and tokens that probe the readers around them.
TOKENS = ["(", ")", ":agent", ":private", "?agent", "-", "object", "either", "increase", "decrease", "total-cost",
          "(total-cost)", "7", ":action-costs", ":multi-agent", ":unfactored-privacy", ":numeric-fluents",
          ":functions", "number", "DEFINE", ":INIT", "AND", "NOT", "truck", "airplane", "=", ":metric", "minimize"]
#: The edits a mutation makes (``insert`` besides those of ``tests/test_fuzz.py``).
KINDS = ("drop", "replace", "insert", "repeat", "cut")
_TOKEN = re.compile(r";[^\n]*|\(|\)|[^\s()]+")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """One folder for the mutated files (the parsers reset themselves before each parse)."""
    return tmp_path_factory.mktemp("published-fuzz")


def compiled(text: str) -> dict:
    """What a domain's text compiles to (its source left out)."""
    return domain_to_json(parse_domain(text, "domain.pddl"))


@st.composite
def respelled(draw: st.DrawFn, text: str) -> str:
    """``text`` with each token outside comments in a random case, and random whitespace and comments
    between tokens: the same PDDL."""
    parts = []
    for token in _TOKEN.findall(text):
        if not token.startswith(";"):
            token = "".join(c.upper() if draw(st.booleans()) else c.lower() for c in token) \
                if draw(st.integers(0, 3)) == 0 else token
        gap = draw(st.sampled_from([" ", "  ", "\t", "\n", " ; a comment\n", "\r\n"]))
        parts.append(token + ("\n" if token.startswith(";") else gap))
    return "".join(parts)


@FUZZ
@given(st.sampled_from(sorted(DOMAINS)).flatmap(lambda name: respelled(DOMAINS[name].read_text()).map(
    lambda text: (name, text))))
def test_a_domain_in_any_case_and_spacing_compiles_the_same(case):
    name, text = case
    assert compiled(text) == compiled(DOMAINS[name].read_text())


@FUZZ
@given(st.sampled_from(sorted(DOMAINS)).flatmap(
    lambda name: mutated_pddl(DOMAINS[name].read_text(), TOKENS, KINDS).map(lambda text: (name, text))))
def test_published_domain_mutations(workdir, case):
    name, text = case
    path = written(workdir / f"mutated-{name}.pddl", text)
    loaded = []
    expect_error(path, lambda: loaded.append(load_domain(path, AGENTS[name])))
    if loaded and name in PROBLEMS:
        problem = []
        expect_error(PROBLEMS[name], lambda: problem.append(load_problem(loaded[0], PROBLEMS[name])))
        if problem and name in PLANS:
            read_and_analyse(PLANS[name], loaded[0], problem[0])


@FUZZ
@given(st.sampled_from(sorted(PROBLEMS)).flatmap(
    lambda name: mutated_pddl(PROBLEMS[name].read_text(), TOKENS, KINDS).map(lambda text: (name, text))))
def test_published_problem_mutations(workdir, case):
    name, text = case
    domain = load_domain(DOMAINS[name], AGENTS[name])
    path = written(workdir / f"mutated-{name}-p01.pddl", text)
    problem = []
    expect_error(path, lambda: problem.append(load_problem(domain, path)))
    if problem and name in PLANS:
        read_and_analyse(PLANS[name], domain, problem[0])


PLAN_LINES = {name: [line.strip() for line in plan.read_text().splitlines() if line.strip() and not line.startswith(";")]
              for name, plan in PLANS.items()}


@st.composite
def plan_text(draw: st.DrawFn, name: str) -> str:
    """Plan ``name``, rewritten the ways planners write plans and damaged: lines dropped, repeated,
    swapped, respelled, prefixed with ``N:``, followed by ``[d]`` or a comment, or replaced."""
    lines = list(PLAN_LINES[name])
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines) - 1)) if lines else 0
        kind = draw(st.sampled_from(["drop", "repeat", "swap", "case", "prefix", "suffix", "comment", "junk"]))
        if not lines:
            lines.append(draw(st.sampled_from(PLAN_LINES[name])))
        elif kind == "drop":
            del lines[at]
        elif kind == "repeat":
            lines.insert(at, lines[at])
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "case":
            lines[at] = lines[at].upper()
        elif kind == "prefix":
            lines[at] = draw(st.sampled_from(["0: ", "12:", "3.500: ", "-1: ", ": "])) + lines[at]
        elif kind == "suffix":
            lines[at] += draw(st.sampled_from([" [1]", " [1.000]", " ; why", " [", "]", " (extra)"]))
        elif kind == "comment":
            lines.insert(at, draw(st.sampled_from(["; cost = 18 (unit cost)", "", "   ", ";"])))
        else:
            lines[at] = draw(st.text(alphabet="()abc ?-:;[]0123456789\t", max_size=30))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n; cost = 18 (unit cost)\n"]))


@FUZZ
@given(st.sampled_from(sorted(PLANS)).flatmap(lambda name: plan_text(name).map(lambda text: (name, text))))
def test_plan_file_mutations(workdir, case):
    name, text = case
    domain = load_domain(DOMAINS[name], AGENTS[name])
    problem = load_problem(domain, PROBLEMS[name])
    outcomes = read_and_analyse(written(workdir / "mutated.plan", text), domain, problem)
    if [line.strip() for line in text.splitlines() if line.strip()] == PLAN_LINES[name]:
        assert outcomes == ["ok"]
