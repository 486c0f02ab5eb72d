"""Plan files as traces (definitions section 1): one ground action a line, as Fast Downward's ``sas_plan`` and VAL
write them, read with the problem they solve.

    ; a comment (Fast Downward's last line: "; cost = 11 (unit cost)")
    (load pkg1 truck1 depot1)
    0.000: (drive-truck truck1 depot1 port1 city1) [1.000]

An optional ``N:`` prefix and ``[duration]`` suffix are read and dropped; step ``t`` is the line's index
among the actions. A file is a plan by its content: its first line that is neither blank nor a comment is
such an action (or it has only comments: an empty plan); one that starts with ``;`` or ``(``, which JSON
never does, is read as a plan to say what is wrong with it. Written by hand: `pddl`'s plan grammar takes
neither prefixes nor durations, and a line's number must name its errors.

**Which problem.** ``--problem P`` (one problem for every plan), else the problem beside the plan: the
plan's name without its ``.N`` count, its plan suffix (``.plan``, ``.soln``, ``.sol``, ``.txt``) and
``.pddl``, with ``.pddl`` (IPC folders: ``p01.pddl`` and ``p01.plan``; ``p01.pddl.soln``), else the only
problem file in the plan's folder (Fast Downward's ``sas_plan``, ``sas_plan.1``, ... next to the problem
it solved).
"""

from __future__ import annotations

import re
from pathlib import Path

from strips_int.errors import StripsIntError, brief, cut

from .domain import Domain
from .pddl import defines
from .problem import load_problem, read_atom
from .task import Problem
from .trace import ActionGrounder, Step, Trace

#: One action line: an optional ``N:`` (or ``0.000:``) prefix, the action, an optional ``[d]`` and comment.
PLAN_LINE = re.compile(r"\s*(?:\d+(?:\.\d*)?\s*:\s*)?(\([^()]*\))\s*(?:\[[^\]]*\])?\s*(?:;.*)?")
#: What a plan's name may end with after its problem's name (and a ``.N`` count after that).
PLAN_SUFFIX = re.compile(r"(?P<stem>.+?)(?:\.pddl)?\.(?:plan|soln|sol|txt)(?:\.\d+)?")
#: How many bytes of a file say whether it is a plan or a problem.
HEAD_BYTES = 4096


def is_plan(data: bytes) -> bool:
    """Whether a file holding ``data`` is read as a plan (not JSON): it starts with a comment or a
    parenthesis, which JSON never does, or it :func:`opens_as_plan` (``0.000: (...)``)."""
    return data.lstrip()[:1] in (b";", b"(") or opens_as_plan(data)


def opens_as_plan(data: bytes) -> bool:
    """Whether ``data`` (a file, or its first bytes) opens as a plan: its first line that is neither blank
    nor a ``;`` comment is an action line, or it holds comments only (an empty plan). A problem file, which
    starts ``(define (problem``, does not."""
    comments = False
    for line in data.splitlines():
        text = line.strip()
        if not text:
            continue
        if text.startswith(b";"):
            comments = True
            continue
        try:
            return PLAN_LINE.fullmatch(text.decode("utf-8")) is not None
        except UnicodeDecodeError:
            return False
    return comments


def plan_file(path: Path) -> bool:
    """Whether the regular file ``path`` is a plan, from its first bytes (a folder walk asks of each file)."""
    try:
        with open(path, "rb") as handle:
            return opens_as_plan(handle.read(HEAD_BYTES))
    except OSError:
        return False


def trace_from_plan(text: str, domain: Domain, problem: Problem | str | Path | None, path: Path) -> Trace:
    """A plan's text as a trace of ``problem`` (None: the problem beside the plan, see the module docstring).
    A line that is no action, names an unknown action or object, or has the wrong arity or types is an
    error naming the line; so is an inapplicable one, when executed (:attr:`Trace.lines`)."""
    source = str(path)
    if not isinstance(problem, Problem):
        problem = load_problem(domain, problem) if problem is not None else load_problem(domain, problem_beside(path))
    grounder = ActionGrounder(domain, problem, source)
    actions, lines = [], []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        where = f"line {lineno}"
        match = PLAN_LINE.fullmatch(stripped)
        if match is None:
            raise StripsIntError(source, where, f"a plan line is one ground action, '(name arg ...)', optionally "
                                 f"with 'N:' before and '[duration]' after; found {brief(stripped)}")
        actions.append(grounder.ground(read_atom(match.group(1), source, where), where))
        lines.append(lineno)
    return Trace(source=source, problem=problem, steps=Step.numbered(range(len(actions)), actions),
                 meta={"format": "plan", "problem": problem.name}, lines=tuple(lines))


def problem_beside(plan: Path) -> Path:
    """The problem file of a plan given without one (the module docstring's convention), or an error."""
    named = PLAN_SUFFIX.fullmatch(plan.name)
    if named is not None:
        candidate = plan.with_name(named.group("stem") + ".pddl")
        if candidate.is_file():
            return candidate
    folder = plan.parent
    try:
        problems = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".pddl" and p.is_file() and _is_problem(p))
    except OSError as exc:
        raise StripsIntError(str(plan), None, f"cannot look for its problem in {folder}: {exc.strerror}") from None
    if len(problems) == 1:
        return problems[0]
    expected = f"{named.group('stem')}.pddl beside it or " if named is not None else ""
    if not problems:
        raise StripsIntError(str(plan), None, f"no problem for this plan: give its problem, or put {expected}one "
                             "problem file in its folder")
    shown = cut(", ".join(p.name for p in problems), 120)
    raise StripsIntError(str(plan), None, f"{len(problems)} problem files beside this plan ({shown}): give its "
                         "problem, or name the plan after its problem (p01.pddl: p01.plan)")


def _is_problem(path: Path) -> bool:
    """Whether a ``.pddl`` file defines a problem (not a domain), from its first bytes."""
    try:
        with open(path, "rb") as handle:
            return defines(handle.read(HEAD_BYTES)) == "problem"
    except OSError:
        return False
