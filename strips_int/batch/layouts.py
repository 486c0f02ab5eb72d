"""Required cooperation of many start problems (``rc --all-layouts``, ``rc --grid F1 F2 ...``): a table row each.

A start problem is named by a name (a layout, a grid file, a scenario file) and the grounders that
may know it, each asked through the registry (:func:`strips_int.grounders.start_alternatives`; two
that know it are an error);
it is classified under its own rules as "some goal" (:func:`strips_int.analysis.rc.some_goal`) in a
child process of its own (:func:`strips_int.planners.bounded.run_all`), so that the time limit bounds
all of it, relaxed reachability included: a classification still running then is killed with what
it started, and is ``unknown`` with the phase it was in. Many start problems run on an engine
(:mod:`.engines`: local processes or Dask), rows in the order given; one that cannot be read, or
whose process dies, is its own error row.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from strips_int.analysis.rc import FAST, IDLE, PLANNER, RCResult, some_goal, unfinished
from strips_int.errors import StripsIntError, guarded
from strips_int.grounders import Alternative, registered, start_alternatives
from strips_int.model.domain import Domain
from strips_int.model.task import Problem
from strips_int.planners.bounded import PRELOAD, Died, Partial, Stopped, fork_is_safe, run_all

from .engines import Engine
from .tables import table_text, write_table

#: Seconds a classification may take past its time limit to send what it found (it stops its own
#: searches and planner calls at the limit) before it is killed.
GRACE = 3.0
#: The RC table's columns (stable names; ``seconds`` last, to be dropped at will).
TABLE_COLUMNS = ("layout", "rules", "recipe", "verdict", "reason", "joint_plan_length", "interdependencies",
                 "constructive", "error", "seconds")


@dataclass(frozen=True)
class Start:
    """A start problem to classify: its name, the grounders that may know it (each asked) and each one's
    own options by ``dest`` (``grid``, ``soups``, ...), by grounder name."""

    name: str
    grounders: tuple[str, ...]
    options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()


@dataclass(frozen=True)
class Settings:
    """How to classify (:func:`strips_int.analysis.rc.required_cooperation`'s options); ``timeout`` is
    per start problem, over all its alternatives."""

    planner: str = "auto"
    timeout: float = 60.0
    others: str = IDLE
    plans: int | None = None
    jobs: int | None = None
    search: str = FAST


@dataclass(frozen=True)
class Outcome:
    """A start problem's classification: the deciding alternative and its result, or the error (as text:
    a :class:`StripsIntError` does not survive pickling)."""

    start: Start
    alternative: Alternative | None = None
    result: RCResult | None = None
    error: str = ""
    seconds: float = 0.0


def alternatives(domains: Mapping[str, Domain], start: Start) -> tuple[Domain, tuple[Alternative, ...]]:
    """The domain and alternative goals of ``start``, from the one of its grounders that knows the name
    (so ``--layout NAME`` reaches JaxMARL's layouts where no Overcooked layout has that name, and a
    plug-in's where neither has it); two that know it are one error naming both, whatever their order;
    when none does, the first one's error. ``domains`` holds each grounder's domain by name (or the one
    domain the user named)."""
    found, own = registered(), dict(start.options)
    first: StripsIntError | None = None
    known: list[tuple[str, Domain, tuple[Alternative, ...]]] = []
    for name in start.grounders:
        grounder = found[name]
        domain = domains.get(grounder.domain) or next(iter(domains.values()))
        options = dict(own.get(name, ()))
        try:
            answer = guarded(start.name, "reading", lambda: start_alternatives(grounder, start.name, domain, **options))
        except StripsIntError as exc:
            first = first or exc
            continue
        if answer:
            known.append((name, domain, answer))
    if len(known) > 1:
        raise StripsIntError(start.name, None, f"two grounders have a start problem of this name, {known[0][0]} "
                             f"(domain {found[known[0][0]].domain}) and {known[1][0]} (domain "
                             f"{found[known[1][0]].domain}): name the domain to choose")
    if known:
        return known[0][1], known[0][2]
    raise first or StripsIntError(start.name, None, f"no grounder has a start problem named {start.name!r}")


def problem_file(domain: Domain, path: Path) -> tuple[Domain, tuple[Alternative, ...]]:
    """A PDDL problem file of ``domain`` as its only alternative (``rc DOMAIN PROBLEM``)."""
    from strips_int.model.problem import load_problem

    return domain, (Alternative(load_problem(domain, path)),)


#: The phase a classification is in while it reads its start problem (named when the time limit stops it).
READING = "reading"
Reader = Callable[[], tuple[Domain, Sequence[Alternative]]]


class _TimeUp(BaseException):
    """The time limit, reached while reading: a BaseException, so that no reader's guard takes it for its error."""


@dataclass(frozen=True)
class _Classification:
    """The classification of one start problem, read by ``read`` (picklable: a module-level function
    with its arguments bound), for a child process of its own."""

    read: Reader
    name: str
    settings: Settings
    deadline: float
    preload: tuple[str, ...] = ()
    #: The caller's working folder, which relative file names are read from (the child works in a folder of its own).
    cwd: str = dataclasses.field(default_factory=os.getcwd)

    def run(self, phase: Callable[[Any], None], timeout: float) -> tuple[Alternative, RCResult]:
        """Read (stopped at the deadline by an alarm: a reader does not look at the clock), then classify."""
        s = self.settings
        began = time.perf_counter()
        phase(READING)
        try:
            signal.signal(signal.SIGALRM, _time_up)
            signal.setitimer(signal.ITIMER_REAL, max(self.deadline - time.monotonic(), 1e-6))
            own = os.getcwd()
            os.chdir(self.cwd)
            try:
                domain, found = self.read()
            finally:  # (within the outer try: an alarm up to the moment it is cancelled is caught there)
                signal.setitimer(signal.ITIMER_REAL, 0)
                os.chdir(own)
        except _TimeUp:
            unread = _unread(self.name)
            return unread, unfinished(unread.problem, (), READING, time.perf_counter() - began, s.planner,
                                      s.others, s.search)
        agents = tuple(sorted(o for o, t in found[0].problem.objects.items() if domain.is_agent_type(t)))
        phase(Partial((_outline(found[0], agents), agents)))
        index, result = some_goal(domain, tuple(a.problem for a in found), s.planner, s.timeout, s.others, s.plans,
                                  s.jobs, self.deadline, s.search, phase)
        return found[index], result


def _time_up(signum: int, frame: Any) -> None:
    raise _TimeUp


def _given(domain: Domain, found: tuple[Alternative, ...]) -> tuple[Domain, tuple[Alternative, ...]]:
    """A start problem read already, as a reader gives it."""
    return domain, found


def _unread(name: str) -> Alternative:
    """A start problem not read yet, known by its ``name`` alone."""
    return Alternative(Problem(name, {}, frozenset(), frozenset(), name))


def _outline(alternative: Alternative, agents: tuple[str, ...]) -> Alternative:
    """``alternative`` with only what an unknown result shows (names, source, agents): cheap to send."""
    problem = alternative.problem
    kept = Problem(problem.name, {a: problem.objects[a] for a in agents}, frozenset(), frozenset(), problem.source)
    return dataclasses.replace(alternative, problem=kept)


def classify(domains: Mapping[str, Domain], settings: Settings, start: Start) -> Outcome:
    """``start`` classified within ``settings.timeout`` seconds, reading included."""
    began, deadline = time.perf_counter(), time.monotonic() + settings.timeout
    try:
        alternative, result = classify_alternatives(functools.partial(alternatives, domains, start), start.name,
                                                    settings, deadline)
    except StripsIntError as exc:
        return Outcome(start, error=str(exc), seconds=time.perf_counter() - began)
    return Outcome(start, alternative, result, seconds=time.perf_counter() - began)


def classify_alternatives(read: Reader, name: str, settings: Settings, deadline: float
                          ) -> tuple[Alternative, RCResult]:
    """The deciding alternative of the start problem ``read`` gives (``name`` names it until it is read)
    and its result, read and classified in a child process of its own by ``deadline`` (a
    ``time.monotonic()`` instant): the time limit covers the reading and lifting too (a 500 x 500 grid
    took 5 s of them past ``--timeout 1``). The reader's error is raised here; a child that dies is an error."""
    began = time.perf_counter()
    if not fork_is_safe():  # a fresh interpreter lacks this one's state (grounders registered at run time)
        domain, found = read()
        if time.monotonic() >= deadline:
            unread = _unread(name)
            return unread, unfinished(unread.problem, (), READING, time.perf_counter() - began, settings.planner,
                                      settings.others, settings.search)
        read = functools.partial(_given, domain, tuple(found))
    # The planner path calls the planner for every problem: unified-planning is imported once, here,
    # not in each classification's process (1.5 s); the fast path seldom calls it.
    planned = settings.search == PLANNER or settings.plans is not None
    work = _Classification(read, name, settings, deadline, PRELOAD if planned else ())
    [answer] = run_all([work], deadline, jobs=1, grace=GRACE)
    if isinstance(answer, Died):
        raise StripsIntError(name, None, f"its classification's process died (exit code {answer.exit_code}; "
                             "out of memory?)")
    if isinstance(answer, Stopped):
        alternative, agents = answer.partial or (_unread(name), ())
        return alternative, unfinished(alternative.problem, agents, answer.phase, time.perf_counter() - began,
                                       settings.planner, settings.others, settings.search)
    return answer


def table_row(outcome: Outcome) -> dict[str, Any]:
    """One row of the RC table (:data:`TABLE_COLUMNS`)."""
    row = {**dict.fromkeys(TABLE_COLUMNS, ""), "layout": outcome.start.name}
    if outcome.result is None:
        return {**row, "verdict": "error", "error": outcome.error}
    result, alternative = outcome.result, outcome.alternative
    counts = result.reports[0].counts if result.reports else {}
    return {
        **row,
        "rules": alternative.rules if alternative else "",
        "recipe": alternative.recipe if alternative else "",
        "verdict": result.verdict,
        "reason": result.reason or "",
        "joint_plan_length": len(result.joint.plan) if result.joint.plan is not None else "",
        "interdependencies": counts.get("interdependencies", ""),
        "constructive": counts.get("constructive", ""),
        "seconds": f"{outcome.seconds:.2f}",
    }


def classified_row(shared: tuple[Mapping[str, Domain], Settings], start: Start) -> dict[str, Any]:
    """:func:`table_row` of :func:`classify` (an engine's work: ``shared`` reaches each worker once)."""
    domains, settings = shared
    return table_row(classify(domains, settings, start))


def lost_row(start: Start, how: str) -> dict[str, Any]:
    """The row of a start problem whose worker died on it twice, or that the cluster lost."""
    return table_row(Outcome(start, error=f"{start.name}: its classification was lost ({how})"))


def table(engine: Engine, domains: Mapping[str, Domain], settings: Settings, starts: Sequence[Start]
          ) -> Iterator[dict[str, Any]]:
    """The table's rows of ``starts``, in order, classified on ``engine``."""
    return engine.map(classified_row, (dict(domains), settings), starts, lost_row)


def write_layout_table(rows: list[dict[str, Any]], out: Path | None, as_json: bool = False) -> None:
    """The table as JSON lines (``as_json``), or to ``out`` by its suffix (.csv, .md, .tex), or Markdown on stdout."""
    if as_json and out is None:
        for row in rows:
            print(json.dumps(row))
        return
    cells = [[row[c] for c in TABLE_COLUMNS] for row in rows]
    if out is None:
        print(table_text(".md", TABLE_COLUMNS, cells), end="")
    else:
        write_table(out, TABLE_COLUMNS, cells)
