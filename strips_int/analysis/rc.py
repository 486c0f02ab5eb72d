"""Required cooperation (definitions section 8): can any single agent reach the goal alone?

``required_cooperation`` decides each agent's projection and the joint problem, and explains every
agent that cannot do it alone from delete-relaxed reachability:

* **capability**: an action schema reserved for other agents' types is necessary for the team's goal,
  or (when there are alternatives) the goal becomes relaxed-reachable once the agent may also use
  those schemas;
* **reach**: it has the schemas but cannot meet their preconditions (in Overcooked: a partner's idle
  body in its only way, which the relaxation sees, as it keeps negative preconditions: definitions section 6);
* **other**: relaxed-reachable, yet proven unsolvable.

Two paths give the same verdicts, reasons and kinds of witness. The **planner path** (``search="planner"``)
asks the planner (unified-planning and Fast Downward, :mod:`strips_int.planners.bounded`) for every
projection the relaxation leaves open, and for the joint plan. The **fast path** (the default) asks the
planner nothing the cheaper means settle: a goal that is relaxed-unreachable is proven unreachable; an
agent's projection is ground from relaxed reachability and searched by Fast Downward's own search
binary (:mod:`strips_int.planners.downward`, tens of milliseconds instead of seconds: no conversion,
no translator); the joint problem is searched only when the verdict needs it (no agent alone can, so
RC or unsolvable hangs on whether the team can) or when joint plans are asked for (``plans``: then
by the planner). Whatever that search leaves open, but for the time limit, goes to the planner.

A start problem may come as alternative goals (a layout's ordered recipes, :func:`some_goal`): non-RC
when some agent alone reaches some alternative.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from strips_int.errors import ArgumentError, StripsIntError
from strips_int.model.domain import Domain
from strips_int.model.execution import execute
from strips_int.model.task import Fact, GroundAction, Problem, format_fact
from strips_int.model.trace import Step, Trace
from strips_int.planners import downward
from strips_int.planners.bounded import Call, solve_all
from strips_int.planners.result import (BY_RELAXATION, BY_SEARCH, SOLVED, UNKNOWN, UNSOLVABLE, PlanResult,
                                        resolve_planner, stopped)

from .ground_task import ground_task
from .reachability import OutOfTime, Reachable, relaxed_reachable

if TYPE_CHECKING:
    from .report import Report

RC, NON_RC = "RC", "non-RC"
CAPABILITY, REACH, OTHER = "capability", "reach", "other"
IDLE, ABSENT = "idle", "absent"
FAST, PLANNER = "fast", "planner"
#: The phases a classification goes through, as reported to ``progress`` (and named when a time limit stops it).
RELAXATION, SEARCH, PLANNING = "relaxed reachability", downward.SEARCH, "planning"


@dataclass(frozen=True)
class Why:
    """Why an agent cannot reach the goal alone, from relaxed reachability."""

    reason: str
    unreachable_goals: tuple[Fact, ...] = ()
    first_missing: tuple[Fact, ...] = ()
    missing_actions: tuple[str, ...] = ()

    def describe(self) -> str:
        parts = [self.reason]
        if self.missing_actions:
            parts.append(f"needs {', '.join(self.missing_actions)} of another agent type")
        if self.unreachable_goals:
            parts.append(f"cannot reach {' '.join(format_fact(f) for f in self.unreachable_goals)}")
        if self.first_missing:
            shown = self.first_missing[:4]
            more = f" and {len(self.first_missing) - len(shown)} more" if len(self.first_missing) > len(shown) else ""
            parts.append(f"first cannot get {' '.join(format_fact(f) for f in shown)}{more}")
        return "; ".join(parts)


@dataclass(frozen=True)
class AgentResult:
    """One agent's projection: solvable alone (True / False / None = unknown), witness plan, reason."""

    agent: str
    solvable_alone: bool | None
    search: PlanResult
    why: Why | None


@dataclass(frozen=True)
class RCResult:
    """The verdict on one problem, each agent's projection, and the analysed joint plans."""

    problem: Problem
    verdict: str
    planner: str
    others: str
    agents: Mapping[str, AgentResult]
    joint: PlanResult
    reports: tuple[Report, ...]
    seconds: float
    search: str = FAST

    @property
    def reason(self) -> str | None:
        """RC: the reasons of the agents that cannot do it alone, joined (``reach``, ``capability/reach``).

        Unknown: what left the planner calls open (``time limit reached in planning``).
        """
        if self.verdict == UNKNOWN:
            searches = [self.joint, *(a.search for a in self.agents.values())]
            return "; ".join(sorted({s.detail for s in searches if s.status == UNKNOWN})) or None
        found = sorted({a.why.reason for a in self.agents.values() if a.why is not None})
        return "/".join(found) if self.verdict == RC and found else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``python -m strips_int.rc --json``)."""

        def plan(steps: tuple[GroundAction, ...] | None) -> list[str] | None:
            return None if steps is None else [str(a) for a in steps]

        agents = {}
        for name, result in self.agents.items():
            agents[name] = {
                "solvable_alone": result.solvable_alone,
                "reason": result.why.reason if result.why else None,
                "why": result.why.describe() if result.why else None,
                "unreachable_goals": [format_fact(f) for f in result.why.unreachable_goals] if result.why else [],
                "first_missing": [format_fact(f) for f in result.why.first_missing] if result.why else [],
                "missing_actions": list(result.why.missing_actions) if result.why else [],
                "proof": result.search.proof,
                "plan": plan(result.search.plan),
                "plan_length": len(result.search.plan) if result.search.plan is not None else None,
                "seconds": round(result.search.seconds, 3),
                "planner": result.search.detail,
            }
        return {
            "problem": self.problem.name,
            "source": self.problem.source,
            "verdict": self.verdict,
            "reason": self.reason,
            "search": self.search,
            "planner": self.planner,
            "others": self.others,
            "agents": agents,
            "joint_plan": plan(self.joint.plan),
            "joint_proof": self.joint.proof,
            "joint_detail": self.joint.detail,
            "counts": self.reports[0].counts if self.reports else None,
            "interdependencies": self.reports[0].to_dict()["interdependencies"] if self.reports else [],
            "plans": [
                {"plan": plan(tuple(s.action for s in r.steps)), "counts": r.counts} for r in self.reports
            ],
            "seconds": round(self.seconds, 3),
        }


def required_cooperation(
    domain: Domain,
    problem: Problem,
    planner: str = "auto",
    timeout: float = 60.0,
    others: str = IDLE,
    plans: int | None = None,
    jobs: int | None = None,
    deadline: float | None = None,
    search: str = FAST,
    progress: Callable[[str], None] | None = None,
) -> RCResult:
    """Classify ``problem`` as RC / non-RC / unsolvable / unknown (definitions section 8).

    ``others`` is ``idle`` (the other agents stay where they are) or ``absent``
    (initial facts naming them are dropped). ``timeout`` bounds the whole
    classification in seconds of wall time, conversion to the planner's form
    included (``deadline``, a ``time.monotonic()`` instant, instead bounds
    several problems together): a search or planner call still running then is
    unknown, named by the phase it stopped in (relaxed reachability too: on a
    400 x 400 grid it takes minutes). ``search`` is ``fast`` or ``planner`` (the
    module docstring). ``plans`` asks the planner for up to that many joint plans
    (the planner path asks for one when it is None). The planner calls run in up
    to ``jobs`` processes at once (default: every CPU this process may use).
    ``progress`` is told each phase as it begins. An argument outside these is an
    :class:`~strips_int.errors.ArgumentError` (a StripsIntError and a ValueError): a ``timeout`` of
    0 or less, NaN, infinite or above :data:`MAX_TIMEOUT` (a week: the clock and the child processes'
    CPU limits cannot hold more), a ``deadline`` that is not a number at most that far ahead.

    Parameters:
        domain: the domain.
        problem: the problem to classify.
        planner: a unified-planning planner's name, or ``auto``.
        timeout: seconds of wall time for the whole classification.
        others: ``idle`` or ``absent``: the other agents in a projection.
        plans: joint plans to ask the planner for.
        jobs: planner calls at once.
        deadline: a ``time.monotonic()`` instant bounding several problems together, instead of ``timeout``.
        search: ``fast`` or ``planner``.
        progress: called with each phase's name as it begins.

    Returns:
        The verdict with each agent's projection, the joint problem's answer and the joint plans' reports.
    """
    _check_arguments("required_cooperation", timeout, deadline, others=others, search=search, plans=plans, jobs=jobs)
    start = time.perf_counter()
    deadline = time.monotonic() + timeout if deadline is None else deadline
    told = progress or (lambda phase: None)
    planner = resolve_planner(planner)
    told(RELAXATION)
    agent_names = tuple(sorted(o for o, t in problem.objects.items() if domain.is_agent_type(t)))
    try:  # the time limit holds here too
        team = relaxed_reachable(domain, problem, deadline=deadline)
        bodies = {a: _body_facts(domain, problem, a, deadline) for a in agent_names} if others == ABSENT else {}
        alone = {a: _without(problem, {b: facts for b, facts in bodies.items() if b != a}) for a in agent_names}
        mine = {a: relaxed_reachable(domain, alone[a], actors=[a], deadline=deadline) for a in agent_names}
    except OutOfTime:
        return unfinished(problem, agent_names, RELAXATION, time.perf_counter() - start, planner, others, search)
    possible = {a for a in agent_names if _goal_reached(mine[a], problem.goal)}
    answers: dict[str | None, PlanResult] = {}
    if search == FAST:
        told(SEARCH)
        answers = _searched(domain, problem, alone, team, mine, possible, plans is None, deadline)
    calls = _calls(domain, problem, agent_names, alone, possible, _goal_reached(team, problem.goal), answers,
                   planner, plans if plans is not None or search == FAST else 1)
    if calls and time.monotonic() < deadline:
        told(PLANNING)
        answers.update(zip(calls, solve_all(list(calls.values()), deadline, jobs)))
    elif calls:
        answers.update((key, stopped(SEARCH if search == FAST else RELAXATION, time.perf_counter() - start))
                       for key in calls)
    agents = {}
    for agent in agent_names:
        answer = _settled(answers, agent, agent in possible)
        if answer.status == SOLVED:
            _check_witness(domain, alone[agent], agent, answer.plans[0])
        try:
            why = explain(domain, problem, alone[agent], agent, team, mine[agent], deadline) \
                if answer.status == UNSOLVABLE else None
        except OutOfTime:
            return unfinished(problem, agent_names, RELAXATION, time.perf_counter() - start, planner, others, search)
        agents[agent] = AgentResult(agent, {SOLVED: True, UNSOLVABLE: False}.get(answer.status), answer, why)
    joint = _settled(answers, None, _goal_reached(team, problem.goal))
    verdict = _verdict([a.solvable_alone for a in agents.values()], joint.status)
    reports = _analyse(domain, problem, joint)
    return RCResult(problem, verdict, planner, others, agents, joint, reports, time.perf_counter() - start, search)


#: The longest time limit, in seconds (a week): ``time.monotonic()`` and the CPU limits of the child processes
#: the planner calls run in overflow not far above (``timeout=10**30`` was an OverflowError).
MAX_TIMEOUT = 7 * 24 * 3600.0


def _check_arguments(function: str, timeout: Any, deadline: Any, **options: Any) -> None:
    """The first argument of ``function`` (:func:`required_cooperation`, :func:`some_goal`) outside what
    it takes, as an :class:`~strips_int.errors.ArgumentError`; comparisons only, so that no number is too
    big to check (``math.isfinite(10**400)`` overflows) and NaN fails each one."""
    real = (lambda n: isinstance(n, numbers.Real) and not isinstance(n, bool))
    whole = (lambda n: isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 1)
    values = {"timeout": timeout, "deadline": deadline, **options}
    for name, ok, need in (
            ("others", lambda v: v in (IDLE, ABSENT), f"{IDLE!r} or {ABSENT!r}"),
            ("search", lambda v: v in (FAST, PLANNER), f"{FAST!r} or {PLANNER!r}"),
            ("timeout", lambda v: real(v) and 0 < v <= MAX_TIMEOUT, f"seconds above 0 and at most {MAX_TIMEOUT:g}"),
            ("deadline", lambda v: v is None or (real(v) and -math.inf < v <= time.monotonic() + MAX_TIMEOUT),
             f"None or a time.monotonic() instant at most {MAX_TIMEOUT:g} seconds ahead"),
            ("plans", lambda v: v is None or whole(v), "None or a whole number of plans, at least 1"),
            ("jobs", lambda v: v is None or whole(v), "None or a whole number of jobs, at least 1")):
        if name in values and not ok(values[name]):
            raise ArgumentError(function, name, need, values[name])


#: Why the fast path left a problem unasked (its answer is ``unknown`` with this detail).
NOT_NEEDED = "not needed: {} alone is the witness"
NO_JOINT_PLAN = ("not planned: the verdict needs no joint plan (to have one, ask for K: --plans K on the command line, "
                 "plans=K in Python)")
#: The answer of a problem whose goal is relaxed-reachable and that no search or planner call answered: the
#: verdict hung on a search the time limit stopped first (``required_cooperation`` asks every other).
NOT_SEARCHED = "not searched: the time limit stopped {} first"


def _settled(answers: Mapping[str | None, PlanResult], key: str | None, relaxed_reachable_goal: bool
             ) -> PlanResult:
    """The answer for ``key`` (an agent, or None: the joint problem): unsolvable by relaxed reachability
    when its goal is relaxed-unreachable (a proof), else what a search or planner call answered, else
    unknown naming the searches that stopped: a verdict is only ever given with a proof or a plan."""
    if not relaxed_reachable_goal:
        return PlanResult(UNSOLVABLE, proof=BY_RELAXATION, detail="relaxed reachability")
    if key in answers:
        return answers[key]
    halted = [f"{'the joint problem' if k is None else k}'s {a.limit}" for k, a in answers.items()
              if a.limit is not None]
    return PlanResult(UNKNOWN, detail=NOT_SEARCHED.format(" and ".join(halted) or "a search"))


def _searched(domain: Domain, problem: Problem, alone: Mapping[str, Problem], team: Reachable,
              mine: Mapping[str, Reachable], possible: set[str], joint_needed: bool, deadline: float
              ) -> dict[str | None, PlanResult]:
    """The fast path's answers: each agent whose goal is relaxed-reachable searched on its ground
    projection; then the joint problem, when ``joint_needed`` and the verdict hangs on it (every agent
    proven unable, the team's goal relaxed-reachable). A witness makes the joint problem unasked."""
    answers: dict[str | None, PlanResult] = {a: _search(domain, alone[a], mine[a], deadline) for a in sorted(possible)}
    witness = next((a for a, answer in answers.items() if answer.status == SOLVED), None)
    if witness is not None:
        answers[None] = PlanResult(UNKNOWN, detail=NO_JOINT_PLAN)
        for agent, answer in answers.items():
            if agent is not None and answer.status == UNKNOWN and answer.limit is None:
                answers[agent] = dataclasses.replace(answer, detail=NOT_NEEDED.format(witness))
    elif joint_needed and all(a.status == UNSOLVABLE for a in answers.values()) and _goal_reached(team, problem.goal):
        answers[None] = _search(domain, problem, team, deadline)
    return answers


def _search(domain: Domain, problem: Problem, reachable: Reachable, deadline: float) -> PlanResult:
    """``problem`` (where the agents ``reachable`` allows act) ground and searched by Fast Downward's
    search binary; a task whose start is a dead end needs no search (:class:`~.ground_task.GroundTask`)."""
    started = time.perf_counter()
    task = ground_task(domain, problem, reachable)
    if task.dead:
        return PlanResult(UNSOLVABLE, proof=BY_SEARCH, seconds=time.perf_counter() - started,
                          detail="search space exhausted at the start: facts that hold for ever bar every way")
    if task.goal <= task.init:
        return PlanResult(SOLVED, ((),), seconds=time.perf_counter() - started, detail="the goal holds at the start")
    return downward.search(task.init, task.goal, task.actions, deadline, task.lasting)


def _calls(domain: Domain, problem: Problem, agents: tuple[str, ...], alone: Mapping[str, Problem],
           possible: set[str], team_possible: bool, answers: Mapping[str | None, PlanResult], planner: str,
           plans: int | None) -> dict[str | None, Call]:
    """The planner calls still to make (the planner path: all of them): each agent whose goal is
    relaxed-reachable and whose answer is missing or open (unknown, not for the time limit), unless
    some agent is a witness; the joint problem when ``plans`` are asked for, or when it is open and the
    verdict may hang on it."""
    def open_(key: str | None) -> bool:
        return key not in answers or (answers[key].status == UNKNOWN and answers[key].limit is None)

    if any(answers[a].status == SOLVED for a in possible if a in answers):
        return {None: Call(domain, problem, agents, planner, plans)} if plans is not None and team_possible else {}
    calls = {a: Call(domain, alone[a], (a,), planner) for a in sorted(possible) if open_(a)}
    if team_possible and (plans is not None or (open_(None) and (None in answers or calls))):
        calls = {None: Call(domain, problem, agents, planner, plans or 1), **calls}
    return calls


def some_goal(domain: Domain, problems: Sequence[Problem], planner: str = "auto", timeout: float = 60.0,
              others: str = IDLE, plans: int | None = None, jobs: int | None = None, deadline: float | None = None,
              search: str = FAST, progress: Callable[[str], None] | None = None) -> tuple[int, RCResult]:
    """RC of a start problem given as alternative goals, all within ``timeout`` (or by ``deadline``),
    as "some goal": non-RC when an agent alone reaches one (the rest are not tried), else unknown when
    one was left open, else RC when the team reaches one, else unsolvable. The deciding alternative's
    index and result (the first of its verdict). A layout's alternatives are its ordered recipes."""
    _check_arguments("some_goal", timeout, deadline)
    if not problems:
        raise ArgumentError("some_goal", "problems", "at least one alternative goal", problems)
    deadline = time.monotonic() + timeout if deadline is None else deadline
    results = []
    for problem in problems:
        result = required_cooperation(domain, problem, planner, timeout, others, plans, jobs, deadline, search,
                                      progress)
        if result.verdict == NON_RC:
            return len(results), result
        results.append(result)
    return next(((i, r) for verdict in (UNKNOWN, RC) for i, r in enumerate(results) if r.verdict == verdict),
                (0, results[0]))


def unfinished(problem: Problem, agent_names: Sequence[str], phase: str, seconds: float, planner: str = "auto",
               others: str = IDLE, search: str = FAST) -> RCResult:
    """The result of a classification of ``problem`` that the time limit stopped in ``phase`` (its
    process killed, with nothing to tell): unknown, every agent and the joint problem with it."""
    answer = stopped(phase, seconds)
    agents = {a: AgentResult(a, None, answer, None) for a in agent_names}
    return RCResult(problem, UNKNOWN, resolve_planner(planner), others, agents, answer, (), seconds, search)


def _check_witness(domain: Domain, problem: Problem, agent: str, plan: tuple[GroundAction, ...]) -> None:
    """A non-RC verdict's witness checked as the joint plans are (:func:`_analyse`): executing it validates
    each step; it must reach the goal, by ``agent`` and environment actions alone."""
    source = f"{problem.source} {agent}'s plan"
    run = execute(plan_trace(problem, plan, source), domain.cache)
    others = sorted({a.actor for a in plan if a.actor not in (agent, None)})
    if run.goal_achieved != problem.goal or others:
        missing = " ".join(format_fact(f) for f in sorted(problem.goal - run.goal_achieved))
        raise StripsIntError(source, None, f"the search's plan misses the goal facts {missing}" if missing
                             else f"the search's plan has actions of {', '.join(others)}")


def _analyse(domain: Domain, problem: Problem, joint: PlanResult) -> tuple[Report, ...]:
    """The joint plans analysed like recorded games: executing a plan validates it step by step; the goal is
    checked here."""
    from .report import analyze_run

    reports = tuple(analyze_run(domain, execute(plan_trace(problem, plan, f"{problem.source} joint plan {i + 1}"),
                                                   domain.cache))
                    for i, plan in enumerate(joint.plans))
    for report in reports:
        if report.achieved != problem.goal:
            raise StripsIntError(report.source, None, f"the planner's plan misses the goal facts "
                                 f"{' '.join(format_fact(f) for f in sorted(problem.goal - report.achieved))}")
    return reports


def _verdict(alone: list[bool | None], joint: str) -> str:
    if any(result is True for result in alone):
        return NON_RC
    if joint == UNSOLVABLE:
        return UNSOLVABLE
    if joint == SOLVED and all(result is False for result in alone):
        return RC
    return UNKNOWN


def _goal_reached(reachable: Reachable, goal: frozenset[Fact]) -> bool:
    return all(reachable.canonical(fact) in reachable.facts for fact in goal)


def _without(problem: Problem, absent: Mapping[str, frozenset[Fact]]) -> Problem:
    """``problem`` without the initial facts that name the ``absent`` agents or that their bodies hold."""
    if not absent:
        return problem
    held = frozenset().union(*absent.values())
    return dataclasses.replace(
        problem, init=frozenset(f for f in problem.init if absent.keys().isdisjoint(f[1:]) and f not in held))


def _body_facts(domain: Domain, problem: Problem, agent: str, deadline: float) -> frozenset[Fact]:
    """What an agent's body holds (``--others absent`` drops it with the agent's own facts).

    These are the delete effects of its navigation actions from its initial
    place that do not name it (Overcooked's ``(occupied ?cell)``).
    """
    reach = relaxed_reachable(domain, problem, actors=[agent], deadline=deadline)
    start = {reach.canonical(f) for f in problem.init}
    leaving = {
        fact
        for action in reach.actions
        if action.actor == agent and domain.is_navigation(action) and action.pre <= start
        for fact in action.delete
    }
    return frozenset(f for f in problem.init if agent not in f[1:] and reach.canonical(f) in leaving)


def explain(domain: Domain, team_problem: Problem, problem: Problem, agent: str, team: Reachable,
            mine: Reachable, deadline: float | None = None) -> Why:
    """Capability, reach or other, with the goal facts and first facts the agent cannot get.

    ``team_problem`` is the whole problem (``team`` its relaxed reachability),
    ``problem`` the agent's projection (``mine``). Capability: an action type
    the agent lacks is necessary for the team's goal, or, when there are
    alternatives, the goal is relaxed-reachable once it may use them all.
    """
    missing_goals = tuple(sorted(f for f in problem.goal if mine.canonical(f) not in mine.facts))
    if not missing_goals:
        return Why(OTHER)
    others = set(problem.objects) - {agent}
    others = {o for o in others if domain.is_agent_type(problem.objects[o])}
    gettable = {  # facts the agent cannot make but the team can, made from facts it has or others'
        fact
        for action in team.actions
        if all(f in mine.facts or not others.isdisjoint(f[1:]) for f in action.pre)
        for fact in action.add
        if fact not in mine.facts and others.isdisjoint(fact[1:]) and fact[0] not in domain.ignore_predicates
    }
    wanted = {f for action in team.actions if action.actor == agent for f in action.pre}
    first = sorted(gettable & wanted or gettable)
    lacking = _lacking_schemas(domain, problem.objects[agent])
    necessary = [  # action types the team cannot reach the goal without
        name for name in lacking
        if not _goal_reached(relaxed_reachable(_without_schema(domain, name), team_problem, deadline=deadline),
                             problem.goal)
    ]
    if necessary:
        return Why(CAPABILITY, missing_goals, tuple(first), tuple(necessary))
    if lacking and _goal_reached(relaxed_reachable(_widened(domain, lacking), problem, actors=[agent],
                                                   deadline=deadline), problem.goal):
        return Why(CAPABILITY, missing_goals, tuple(first), tuple(lacking))
    return Why(REACH, missing_goals, tuple(first))


def _lacking_schemas(domain: Domain, agent_type: str) -> list[str]:
    """Agent action schemas whose actor parameter an agent of ``agent_type`` cannot fill."""
    return [
        name for name, schema in domain.schemas.items()
        if schema.actor is not None and not domain.fits(agent_type, schema.param_types[schema.actor])
    ]


def _without_schema(domain: Domain, name: str) -> Domain:
    return dataclasses.replace(domain, schemas={n: s for n, s in domain.schemas.items() if n != name})


def _widened(domain: Domain, names: list[str]) -> Domain:
    """``domain`` with the actor of each schema in ``names`` open to every agent type."""
    schemas = dict(domain.schemas)
    every = frozenset(t for t in domain.type_names() if domain.is_agent_type(t))
    for name in names:
        schema = schemas[name]
        types = list(schema.param_types)
        types[schema.actor] = types[schema.actor] | every
        schemas[name] = dataclasses.replace(schema, param_types=tuple(types))
    return dataclasses.replace(domain, schemas=schemas)


def plan_trace(problem: Problem, plan: tuple[GroundAction, ...], source: str) -> Trace:
    """A plan as a trace: one step per action, environment time = step index."""
    steps = tuple(Step(index=i, t=i, action=action) for i, action in enumerate(plan))
    return Trace(source=source, problem=problem, steps=steps, meta={"plan": True})


def format_text(result: RCResult) -> str:
    """The human-readable verdict ``python -m strips_int.rc`` prints."""
    from .report import format_interdependence

    reason = f" ({result.reason})" if result.reason else ""
    lines = [
        f"{result.problem.source}: {result.verdict}{reason}",
        f"  search {result.search}, planner {result.planner}, others {result.others}, {result.seconds:.2f} s",
    ]
    for name, agent in result.agents.items():
        alone = {True: "solvable alone", False: "not alone", None: "unknown alone"}[agent.solvable_alone]
        length = f", plan of {len(agent.search.plan)} steps" if agent.search.plan is not None else ""
        proof = f", proof: {agent.search.proof}" if agent.search.proof else ""
        why = f"; {agent.why.describe()}" if agent.why else ""
        lines.append(f"  {name}: {alone}{length}{proof}{why} [{agent.search.detail}, {agent.search.seconds:.2f} s]")
    if result.joint.plan is None:
        lines.append(f"  joint problem: {result.joint.status} ({result.joint.detail})")
    for number, report in enumerate(result.reports, start=1):
        counts = report.counts
        lines.append(
            f"  joint plan {number}: {len(report.steps)} steps, interdependencies {counts['interdependencies']} "
            f"(constructive {counts['constructive']}, looping {counts['looping']}, irrelevant {counts['irrelevant']})"
        )
        if number == 1:
            lines += [f"    {step.index:>3} {step.action}" for step in report.steps]
            lines += [f"    {format_interdependence(item)}" for item in report.to_dict()["interdependencies"]]
    return "\n".join(lines)
