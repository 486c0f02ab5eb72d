"""Interdependences as they happen: a game analysed one step at a time (docs/definitions.md section 15).

    online = Online("sar", "examples/sar/kit-pass.problem.pddl", source="live")
    result = online.step("(give firefighter1 nurse1 kit1 hall)", t=3)  # a GroundAction, or its text
    result.interdependences, result.subtask, result.trigger            # what this step says now
    report = online.finish()          # the batch report of the same game, number for number

Each step is executed (:class:`~strips_int.model.execution.Execution`) and analysed
(:class:`~strips_int.analysis.stepwise.Stepwise`) as it comes, with work per step independent of how
many came before; :meth:`Online.finish` works out what needs the whole game (relevance, categories,
accepted triggers, required help) with the same functions as a batch report, which is made the same way
(:func:`~strips_int.analysis.report.analyze_run` feeds its steps to a ``Stepwise`` too).
Environment wrappers (an overcooked-ai ``OvercookedEnv``) are their grounders' (``strips_int.grounders``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from strips_int.analysis.reachability import relaxed_reachable
from strips_int.analysis.report import Report, report_of
from strips_int.analysis.stepwise import StepResult, Stepwise
from strips_int.errors import StripsIntError, brief
from strips_int.model.domain import Domain, as_domain
from strips_int.model.execution import Execution, fact_ids
from strips_int.model.problem import load_problem, read_atom
from strips_int.model.task import Fact, GroundAction, Problem, format_fact
from strips_int.model.trace import ActionGrounder, Step, Trace, step_label

__all__ = ["Online", "Report", "StepResult", "replay", "replay_games"]


class Online:
    """One game analysed as it is played: :meth:`step` per step, :meth:`finish` for the report.

    ``domain``: loaded, a path or a packaged domain's name; ``problem``: loaded or a PDDL path.
    ``source`` names the game in errors and in the report; ``meta`` is the report's.
    An inapplicable step is an error naming it, and leaves the analysis as it was.
    """

    def __init__(self, domain: Domain | str | Path, problem: Problem | str | Path, source: str = "online",
                 meta: Mapping[str, Any] | None = None) -> None:
        self.domain = as_domain(domain)
        self.problem = problem if isinstance(problem, Problem) else load_problem(self.domain, Path(problem))
        self.source = source
        self.meta = dict(meta or {})
        self.execution = Execution(self.problem, fact_ids(self.domain.cache))
        self.analysis = Stepwise(self.domain, self.problem, source)
        self.grounder: ActionGrounder | None = None  # made on the first step given as text
        self.introduced: dict[str, str] = {}  # objects that entered the game after its start, by type
        self.objects = dict(self.problem.objects)  # those of the problem and those introduced, by type

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps taken so far."""
        return tuple(self.analysis.steps)

    def step(self, action: GroundAction | str, t: int | None = None) -> StepResult:
        """Take the next step: ``action`` (ground, or its text such as ``"(move p0 c1 c2)"``) at time ``t``
        (default: the last step's, 0 for the first). Returns the interdependences whose receiver it is and
        whether it is a sub-task and a trigger; the categories wait for :meth:`finish`."""
        steps = self.analysis.steps
        index, last_t = len(steps), steps[-1].t if steps else 0
        t = last_t if t is None else t
        if not isinstance(t, int) or isinstance(t, bool) or t < (last_t if steps else 0):
            raise StripsIntError(self.source, step_label(index, t, None),
                                 f"t must be a whole number >= {last_t if steps else 0}, found {brief(t)}")
        if isinstance(action, str):
            if self.grounder is None:
                self.grounder = ActionGrounder(self.domain, None, self.source, self.objects)
            where = step_label(index, t, None)
            action = self.grounder.ground(read_atom(action, self.source, where), where)
        step = Step(index, t, action)
        failed = self.execution.apply(action)
        if failed is not None:
            raise StripsIntError(self.source, step.describe(), failed)
        execution = self.execution
        return self.analysis.step(step, execution.achievers[-1], execution.new_facts[-1])

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
        self.analysis.aliases.update((name, like[name]) for name in objects)

    def finish(self, problem: Problem | None = None) -> Report:
        """The report of the steps taken so far, equal to the batch report of the same game (definitions
        section 15); it may be asked at any point, and steps may follow. ``problem``: the problem the game
        turned out to have, when objects entered it (:meth:`introduce`) or its goal is known only at its end
        (its initial state the one begun with, less objects that never entered, plus those introduced)."""
        if problem is not None and problem is not self.problem:
            missing = sorted(set(self.introduced) - set(problem.objects))
            if missing:
                raise StripsIntError(self.source, f"problem {problem.name}", "lacks objects that entered the game: "
                                     + ", ".join(missing))
            trace = Trace(source=self.source, problem=problem, steps=self.steps, meta=self.meta)
            return report_of(self.analysis, self.execution.run(trace), relaxed_reachable(self.domain, problem))
        trace = Trace(source=self.source, problem=self.problem, steps=self.steps, meta=self.meta)
        return report_of(self.analysis, self.execution.run(trace))


def replay_games(domain: Domain | str | Path, path: str | Path, problem: Problem | None = None,
                 **options: Any) -> Iterator[Report | StripsIntError]:
    """Each game of a recorded file, read by its grounder and fed to :class:`Online` one step at a time:
    its final report, or the error that stopped it. ``options`` are grounder options (``layout``, ...)."""
    from strips_int.grounders import read_input

    domain = as_domain(domain)
    for game in read_input(path, domain, problem, **options):
        if isinstance(game, StripsIntError):
            yield game
            continue
        try:
            yield _replayed(domain, game)
        except StripsIntError as exc:
            yield exc


def _replayed(domain: Domain, trace: Trace) -> Report:
    online = Online(domain, trace.problem, trace.source, trace.meta)
    for step in trace.steps:
        online.step(step.action, step.t)
    return online.finish()


def replay(domain: Domain | str | Path, path: str | Path, problem: Problem | None = None, **options: Any) -> Report:
    """The final report of the one game in a recorded file, fed step by step (:func:`replay_games`); a file
    with no game or several is an error."""
    found = []
    for result in replay_games(domain, path, problem, **options):
        if isinstance(result, StripsIntError):
            raise result
        found.append(result)
        if len(found) > 1:
            raise StripsIntError(str(path), None, "holds several games: replay them with strips_int.online.replay_games")
    if not found:
        raise StripsIntError(str(path), None, "holds no game")
    return found[0]
