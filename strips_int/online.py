"""Interdependences as they happen: a game analysed one step at a time (docs/definitions.md section 15).

    online = Online("sar", "examples/sar/kit-pass.problem.pddl", source="live", choices=True)
    result = online.step("(give firefighter1 nurse1 kit1 hall)", t=3)  # a GroundAction, or its text
    result.interdependences, result.subtask, result.trigger            # what this step says now
    blocks = online.attempts(["(pick-up nurse1 kit1 storage)"], t=3)   # after time 3's steps: the blocks
    report = online.finish()          # the batch report of the same game, number for number

Each step is executed (:class:`~strips_int.model.execution.Execution`) and analysed
(:class:`~strips_int.analysis.stepwise.Stepwise`) as it comes, and the attempts of each time (actions agents
chose that did not happen, definitions section 13) once that time's steps are in, all together (two attempts
of one time may block each other: a collision), with work per step and per attempt independent of how many
came before; :meth:`Online.finish` works out what needs the whole game (relevance, categories,
accepted triggers, required help) with the same functions as a batch report, which is made the same way
(:func:`~strips_int.analysis.report.analyze_run` feeds its steps to a ``Stepwise`` too).
Environment wrappers (an overcooked-ai ``OvercookedEnv``) are their grounders' (``strips_int.grounders``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from strips_int.analysis.blocks import Block, by_time
from strips_int.analysis.reachability import relaxed_reachable
from strips_int.analysis.report import Report, report_of
from strips_int.analysis.stepwise import StepResult, Stepwise
from strips_int.errors import StripsIntError, brief, of_type
from strips_int.model.domain import Domain, as_domain
from strips_int.model.execution import Execution, fact_ids
from strips_int.model.problem import load_problem, read_atom
from strips_int.model.task import Fact, GroundAction, Problem, format_fact
from strips_int.model.trace import ActionGrounder, Attempt, Step, Trace, step_label

__all__ = ["Block", "Online", "Report", "StepResult", "replay", "replay_games"]


class Online:
    """One game analysed as it is played: :meth:`step` per step, :meth:`attempts` per time at which agents
    chose actions that did not happen, :meth:`finish` for the report.

    ``domain``: loaded, a path or a packaged domain's name; ``problem``: loaded or a PDDL path.
    ``source`` names the game in errors and in the report; ``meta`` is the report's. ``choices``: the game
    records the agents' choices, so its report has attempts and blocks (definitions section 13; without,
    they are unknown, as for a trace without ``attempts``, and :meth:`attempts` is refused).
    An inapplicable step is an error naming it, and leaves the analysis as it was.
    """

    def __init__(self, domain: Domain | str | Path, problem: Problem | str | Path, source: str = "online",
                 meta: Mapping[str, Any] | None = None, choices: bool = False) -> None:
        self.domain = as_domain(domain)
        self.problem = problem if isinstance(problem, Problem) else load_problem(self.domain, Path(problem))
        self.source = source
        self.meta = dict(meta or {})
        self.execution = Execution(self.problem, fact_ids(self.domain.cache))
        self.analysis = Stepwise(self.domain, self.problem, source, of_type("Online", "choices", choices, bool,
                                                                            "True or False"))
        #: The time of the last attempts given: steps and attempts after them come at a later time.
        self.attempted: int | None = None
        self.grounder: ActionGrounder | None = None  # made on the first step given as text
        self.introduced: dict[str, str] = {}  # objects that entered the game after its start, by type
        self.objects = dict(self.problem.objects)  # those of the problem and those introduced, by type

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps taken so far."""
        return tuple(self.analysis.steps)

    def step(self, action: GroundAction | str, t: int | None = None) -> StepResult:
        """Take the next step: ``action`` (ground, or its text such as ``"(move p0 c1 c2)"``) at time ``t``
        (default: the last step's, 0 for the first; after :meth:`attempts` of a time, a later one). Returns the
        interdependences whose receiver it is and whether it is a sub-task and a trigger; the categories wait
        for :meth:`finish`."""
        index = len(self.analysis.steps)
        t = self._time(t, index, "step")
        action = self._ground(action, step_label(index, t, None))
        step = Step(index, t, action)
        failed = self.execution.apply(action)
        if failed is not None:
            raise StripsIntError(self.source, step.describe(), failed)
        execution = self.execution
        return self.analysis.step(step, execution.achievers[-1], execution.new_facts[-1])

    def attempts(self, actions: Iterable[GroundAction | str], t: int | None = None) -> tuple[Block, ...]:
        """The actions agents chose at time ``t`` that did not happen (definitions section 13), all of that time
        together, once its steps are taken (default: the last step's time): the blocks they received, as the
        report will list them (two of them colliding block each other). Each is ground, or its text, an
        agent's action; none is executed. Only with ``choices``; later steps and attempts come at a later
        time."""
        if self.analysis.attempts is None:
            raise StripsIntError(self.source, "attempt 0", "this game was begun without choices=True: "
                                 "its report says nothing of attempts and blocks")
        first = len(self.analysis.attempts)
        t = self._time(t, first, "attempt")
        group = []
        for index, action in enumerate(actions, first):
            where = step_label(index, t, None, "attempt")
            action = self._ground(action, where)
            if action.actor is None:
                raise StripsIntError(self.source, where, f"{action} is an environment action: an attempt is an "
                                     "agent's action")
            group.append(Attempt(index, t, action))
        self.attempted = t
        return self.analysis.attempted(group)

    def _time(self, t: object, index: int, kind: str) -> int:
        """The time of the next step or attempts (``kind``): ``t``, by default the last step's; never before
        it, nor at or before the last attempts' (they come after every step of their time)."""
        steps = self.analysis.steps
        last_t = steps[-1].t if steps else 0
        t = last_t if t is None else t
        low = last_t if self.attempted is None else max(last_t, self.attempted + 1)
        if not isinstance(t, int) or isinstance(t, bool) or t < low:
            raise StripsIntError(self.source, step_label(index, t, None, kind),
                                 f"t must be a whole number >= {low}, found {brief(t)}")
        return t

    def _ground(self, action: GroundAction | str, where: str) -> GroundAction:
        """``action``, or its text grounded against the game's objects."""
        if not isinstance(action, str):
            return action
        if self.grounder is None:
            self.grounder = ActionGrounder(self.domain, None, self.source, self.objects)
        return self.grounder.ground(read_atom(action, self.source, where), where)

    def introduce(self, objects: Mapping[str, str], facts: Iterable[Fact], like: Mapping[str, str]) -> None:
        """Objects that enter the game now (an onion from a dispenser), by type, with their facts, true from
        now on as if from the start (a grounder that names objects as they appear lists them in its initial
        state). ``like`` gives each an object of the problem interchangeable with it (docs/definitions.md
        section 10: of its type, with the same facts), in whose place it is asked who can use a fact it is in
        (section 6). The report is then of the problem the game ends with (:meth:`finish`)."""
        known = self.objects
        facts = list(facts)
        where = step_label(len(self.analysis.steps), self.analysis.steps[-1].t if self.analysis.steps else 0, None)
        for name, kind in objects.items():
            if name in known:
                raise StripsIntError(self.source, where, f"object {name} is already in the game")
            if like.get(name) not in self.problem.objects or self.problem.objects[like[name]] != kind:
                raise StripsIntError(self.source, where, f"object {name} ({kind}) needs an object of its type in "
                                     f"the problem to stand for it, found {brief(like.get(name))}")
        for fact in facts:
            if not any(arg in objects for arg in fact[1:]):
                raise StripsIntError(self.source, where, f"{format_fact(fact)} is about no object introduced")
        self.introduced.update(objects)
        self.objects.update(objects)
        self.execution.introduce(facts)
        self.analysis.introduce(frozenset(facts), {name: like[name] for name in objects})

    def finish(self, problem: Problem | None = None, help_cost: bool = False) -> Report:
        """The report of the steps and attempts taken so far, equal to the batch report of the same game
        (definitions section 15); it may be asked at any point, and steps may follow. ``problem``: the problem
        the game turned out to have, when objects entered it (:meth:`introduce`) or its goal is known only at
        its end (its initial state the one begun with, less objects that never entered, plus those
        introduced). ``help_cost``: each interdependence's self-help cost too (section 14), as
        :func:`strips_int.analyze`'s."""
        of_type("Online.finish", "help_cost", help_cost, bool, "True or False")
        attempts = self.analysis.attempts
        reachable = None
        if problem is not None and problem is not self.problem:
            missing = sorted(set(self.introduced) - set(problem.objects))
            if missing:
                raise StripsIntError(self.source, f"problem {problem.name}", "lacks objects that entered the game: "
                                     + ", ".join(missing))
            reachable = relaxed_reachable(self.domain, problem)
        trace = Trace(source=self.source, problem=problem or self.problem, steps=self.steps, meta=self.meta,
                      attempts=None if attempts is None else tuple(attempts))
        return report_of(self.analysis, self.execution.run(trace), reachable, help_cost)


def replay_games(domain: Domain | str | Path, path: str | Path, problem: Problem | None = None,
                 help_cost: bool = False, **options: Any) -> Iterator[Report | StripsIntError]:
    """Each game of a recorded file, read by its grounder and fed to :class:`Online` one step at a time (the
    attempts of each time after its steps): its final report, or the error that stopped it. ``help_cost``:
    with self-help costs (:meth:`Online.finish`); ``options`` are grounder options (``layout``, ...)."""
    from strips_int.grounders import read_input

    of_type("replay_games", "help_cost", help_cost, bool, "True or False")
    domain = as_domain(domain)
    for game in read_input(path, domain, problem, **options):
        if isinstance(game, StripsIntError):
            yield game
            continue
        try:
            yield _replayed(domain, game, help_cost)
        except StripsIntError as exc:
            yield exc


def _replayed(domain: Domain, trace: Trace, help_cost: bool) -> Report:
    online = Online(domain, trace.problem, trace.source, trace.meta, choices=trace.attempts is not None)
    for steps, attempts in by_time(trace.steps, trace.attempts or ()):
        for step in steps:
            online.step(step.action, step.t)
        if attempts:
            online.attempts([attempt.action for attempt in attempts], attempts[0].t)
    return online.finish(help_cost=help_cost)


def replay(domain: Domain | str | Path, path: str | Path, problem: Problem | None = None, help_cost: bool = False,
           **options: Any) -> Report:
    """The final report of the one game in a recorded file, fed step by step (:func:`replay_games`); a file
    with no game or several is an error."""
    found = []
    for result in replay_games(domain, path, problem, help_cost, **options):
        if isinstance(result, StripsIntError):
            raise result
        found.append(result)
        if len(found) > 1:
            raise StripsIntError(str(path), None, "holds several games: replay them with strips_int.online.replay_games")
    if not found:
        raise StripsIntError(str(path), None, "holds no game")
    return found[0]
