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
CODMAP = ROOT / "tests" / "data" / "freight-codmap.pddl"
CODMAP_P01 = ROOT / "tests" / "data" / "freight-codmap-p01.pddl"
DOMAINS = {"ipc": FREIGHT / "domain.pddl", "codmap": CODMAP}
PROBLEMS = {"ipc": FREIGHT / "p01.pddl", "codmap": CODMAP_P01}
AGENTS = {"agent-types": ["truck", "airplane"]}

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
    expect_error(path, lambda: loaded.append(load_domain(path, AGENTS)))
    if loaded:
        problem = []
        expect_error(PROBLEMS[name], lambda: problem.append(load_problem(loaded[0], PROBLEMS[name])))
        if problem and name == "ipc":
            read_and_analyse(FREIGHT / "p01.plan", loaded[0], problem[0])


@FUZZ
@given(st.sampled_from(sorted(PROBLEMS)).flatmap(
    lambda name: mutated_pddl(PROBLEMS[name].read_text(), TOKENS, KINDS).map(lambda text: (name, text))))
def test_published_problem_mutations(workdir, case):
    name, text = case
    domain = load_domain(DOMAINS[name], AGENTS)
    path = written(workdir / f"mutated-{name}-p01.pddl", text)
    problem = []
    expect_error(path, lambda: problem.append(load_problem(domain, path)))
    if problem and name == "ipc":
        read_and_analyse(FREIGHT / "p01.plan", domain, problem[0])


PLAN_LINES = [line for line in (FREIGHT / "p01.plan").read_text().splitlines() if not line.startswith(";")]


@st.composite
def plan_text(draw: st.DrawFn) -> str:
    """The freight plan, rewritten the ways planners write plans and damaged: lines dropped, repeated,
    swapped, respelled, prefixed with ``N:``, followed by ``[d]`` or a comment, or replaced."""
    lines = list(PLAN_LINES)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines) - 1)) if lines else 0
        kind = draw(st.sampled_from(["drop", "repeat", "swap", "case", "prefix", "suffix", "comment", "junk"]))
        if not lines:
            lines.append(draw(st.sampled_from(PLAN_LINES)))
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
@given(plan_text())
def test_plan_file_mutations(workdir, text):
    domain = load_domain(FREIGHT / "domain.pddl", AGENTS)
    problem = load_problem(domain, FREIGHT / "p01.pddl")
    outcomes = read_and_analyse(written(workdir / "mutated.plan", text), domain, problem)
    if text.strip() and all(line.strip() in PLAN_LINES for line in text.splitlines() if line.strip()) \
            and [line.strip() for line in text.splitlines() if line.strip()] == PLAN_LINES:
        assert outcomes == ["ok"]
