"""Traces (``strips-int-trace/1``): reading them and grounding their steps and attempts (definitions section 1).

Executing a trace is :func:`strips_int.model.execution.execute`.

Every problem with a trace is an error naming the file, the step (index, ``t``,
agent) and what is wrong; no step is ever skipped.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from strips_int.errors import StripsIntError, brief

from .domain import Domain
from .problem import MAX_ATOM_CHARS, load_problem, problem_from_dict, read_atom
from .task import Fact, GroundAction, Problem, format_fact

FORMAT = "strips-int-trace/1"


class Step(NamedTuple):
    """One executed action: its position, environment time and ground action.

    A named tuple, not a frozen dataclass: a game makes hundreds, and a tuple is made in C
    (:meth:`numbered`), without a frozen dataclass's ``object.__setattr__`` per field.
    """

    index: int
    t: int
    action: GroundAction

    @property
    def agent(self) -> str | None:
        """The actor, or None for an environment step."""
        return self.action.actor

    def describe(self) -> str:
        """``step 3 (t=4, agent nurse1)``, the way errors and reports name a step."""
        who = f"agent {self.agent}" if self.agent else "environment"
        return f"step {self.index} (t={self.t}, {who})"

    @classmethod
    def numbered(cls, times: Iterable[int], actions: Iterable[GroundAction]) -> tuple[Step, ...]:
        """Steps 0, 1, ... taking ``actions`` at ``times``: ``Step(index, t, action)`` for each, made by
        ``tuple.__new__`` straight from the zipped fields (no Python call per step)."""
        return tuple(map(tuple.__new__, itertools.repeat(cls), zip(itertools.count(), times, actions)))


class Attempt(NamedTuple):
    """An action an agent chose that did not happen (definitions section 13): its position in the trace's
    ``attempts``, environment time and ground action. Never executed."""

    index: int
    t: int
    action: GroundAction

    @property
    def agent(self) -> str:
        """The agent that chose it (an attempt is always an agent's)."""
        return self.action.actor or ""

    def describe(self) -> str:
        """``attempt 2 (t=7, agent player1)``, the way errors and reports name an attempt."""
        return f"attempt {self.index} (t={self.t}, agent {self.agent})"


@dataclass(frozen=True)
class Trace:
    """A problem, the ground steps taken from its initial state and the attempts that did not happen."""

    source: str
    problem: Problem
    steps: tuple[Step, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: The file line of each step, for a plan file (:mod:`.plan`), so that its errors name the line.
    lines: tuple[int, ...] = ()
    #: The actions agents chose that did not happen (definitions section 13), in time order; not executed.
    #: None when the record shows no choices (a plan, a trace without ``attempts``): blocks are then unknown.
    attempts: tuple[Attempt, ...] | None = None

    def place(self, step: Step) -> str:
        """How an error names ``step``: ``step 3 (t=4, agent nurse1)``, after its line in a plan file."""
        return step.describe() if not self.lines else f"line {self.lines[step.index]}, {step.describe()}"


def step_label(index: int, t: object, agent: str | None, kind: str = "step") -> str:
    """How an error names a step (or an attempt: ``kind``) before its action is known to be well-formed."""
    return f"{kind} {index} (t={t}, agent {agent})" if agent else f"{kind} {index} (t={t})"


class ActionGrounder:
    """Turns action text into ground actions of one problem, checking every argument.

    Ground actions are cached by name and arguments: games repeat the same moves.
    A grounder that builds its problem as it goes passes ``objects``, a mapping
    it keeps adding to, in place of the problem's.
    """

    def __init__(self, domain: Domain, problem: Problem | None, source: str,
                 objects: Mapping[str, str] | None = None) -> None:
        self.domain = domain
        self.objects = objects if objects is not None else problem.objects if problem is not None else {}
        self.source = source
        #: The ground action of each atom grounded so far (a caller may look an atom up here first: a hit
        #: needs no call, nor the text of ``where``).
        self.grounded: dict[Fact, GroundAction] = {}

    def ground(self, atom: Fact, where: str) -> GroundAction:
        """The ground action for ``(name arg ...)``; raises naming ``where`` if it is malformed."""
        cached = self.grounded.get(atom)
        if cached is not None:
            return cached
        name, args = atom[0], atom[1:]
        schema = self.domain.schemas.get(name)
        if schema is None:
            raise StripsIntError(self.source, where, f"unknown action {name!r} in {format_fact(atom)}")
        if len(args) != len(schema.params):
            raise StripsIntError(
                self.source, where, f"{format_fact(atom)} has {len(args)} arguments, {name} takes {len(schema.params)}"
            )
        objects = self.objects
        for arg, param, allowed in zip(args, schema.params, schema.param_types):
            if arg not in objects:
                raise StripsIntError(self.source, where, f"unknown object {arg!r} in {format_fact(atom)}")
            if not self.domain.fits(objects[arg], allowed):
                raise StripsIntError(
                    self.source,
                    where,
                    f"{arg} is a {objects[arg]}, but ?{param} of {name} must be a {'/'.join(sorted(allowed))}",
                )
        failed = schema.failed_equalities(args)
        if failed:
            raise StripsIntError(
                self.source, where, f"{format_fact(atom)} is not applicable: failed {', '.join(failed)}"
            )
        action = self.domain.ground(schema, args)
        self.grounded[atom] = action
        return action


def trace_from_dict(
    data: Any,
    domain: Domain,
    source: str,
    problem: Problem | str | Path | None = None,
    base: Path = Path("."),
) -> Trace:
    """Build a trace from its parsed JSON (see :func:`strips_int.model.trace_file.load_trace`)."""
    if not isinstance(data, dict):
        raise StripsIntError(source, None, f"a trace is a JSON object with \"format\": \"{FORMAT}\", found {brief(data)}")
    if data.get("format") != FORMAT:
        raise StripsIntError(source, "format", f"expected \"{FORMAT}\", found {brief(data.get('format'))}")
    named = data.get("domain")
    if named is not None and (not isinstance(named, str) or named.lower() != domain.name):
        raise StripsIntError(source, "domain", f"trace is for domain {brief(named)}, not {domain.name!r}")
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise StripsIntError(source, "meta", f"must be a JSON object, found {brief(meta)}")
    roles = meta.get("roles")
    if roles is not None and not (isinstance(roles, dict) and all(isinstance(r, str) for r in roles.values())):
        raise StripsIntError(source, "meta.roles", f"must be an object {{agent: role name}}, found {brief(roles)}")
    problem = _resolve_problem(domain, data.get("problem") if problem is None else problem, source, base)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list):
        raise StripsIntError(source, "steps", f"must be a list of {{\"t\", \"agent\", \"action\"}}, found {brief(raw_steps)}")
    raw_attempts = data.get("attempts")
    if raw_attempts is not None and not isinstance(raw_attempts, list):
        raise StripsIntError(source, "attempts", f"must be a list of {{\"t\", \"agent\", \"action\"}}, "
                             f"found {brief(raw_attempts)}")
    return Trace(source=source, problem=problem, steps=parse_steps(raw_steps, domain, problem, source), meta=meta,
                 attempts=None if raw_attempts is None else parse_attempts(raw_attempts, domain, problem, source))


#: The longest problem path a trace may give (Linux's PATH_MAX).
MAX_PATH_CHARS = 4096


def _resolve_problem(domain: Domain, spec: Any, source: str, base: Path) -> Problem:
    if isinstance(spec, Problem):
        return spec
    if isinstance(spec, str) and (not spec or len(spec) > MAX_PATH_CHARS or "\0" in spec):
        raise StripsIntError(source, "problem", f"{brief(spec)} is not a file path")
    if isinstance(spec, Path):
        return load_problem(domain, spec)
    if isinstance(spec, str):  # the trace's own problem file: its error also says which trace named it
        path = Path(spec)
        try:
            return load_problem(domain, path if path.is_absolute() else base / path)
        except StripsIntError as exc:
            raise StripsIntError(source, "problem", str(exc)) from None
    if isinstance(spec, dict):
        return problem_from_dict(domain, spec, source)
    raise StripsIntError(source, "problem", "no problem: give a path or an inline object, or pass a problem to use instead"
                         + ("" if spec is None else f"; found {brief(spec)}"))


def parse_steps(raw_steps: Sequence[Any], domain: Domain, problem: Problem, source: str) -> tuple[Step, ...]:
    """Ground the JSON steps, checking time order, agents, objects and arities."""
    grounder = ActionGrounder(domain, problem, source)
    return tuple(Step(index, t, action) for index, t, action in _entries(raw_steps, grounder, "step"))


def parse_attempts(raw_attempts: Sequence[Any], domain: Domain, problem: Problem, source: str) -> tuple[Attempt, ...]:
    """Ground the JSON attempts (definitions section 13) as the steps are, each an agent's action (an
    environment action is refused: only agents choose); they are checked, never executed."""
    grounder = ActionGrounder(domain, problem, source)
    attempts = []
    for index, t, action in _entries(raw_attempts, grounder, "attempt"):
        if action.actor is None:
            raise StripsIntError(source, step_label(index, t, None, "attempt"),
                                 f"{action} is an environment action: an attempt is an agent's action")
        attempts.append(Attempt(index, t, action))
    return tuple(attempts)


def _entries(raw: Sequence[Any], grounder: ActionGrounder, kind: str) -> list[tuple[int, int, GroundAction]]:
    """Each JSON step or attempt (``kind``) as its index, ``t`` and ground action, checking time order,
    agents, objects and arities; an error names the file and the entry (``step 3 (t=4, agent nurse1)``)."""
    source = grounder.source
    found = []
    last_t = None
    for index, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), str):
            raise StripsIntError(source, f"{kind} {index}", f'a{"n" if kind == "attempt" else ""} {kind} is '
                                 '{"t": int, "agent": name, "action": "(name args)"}'
                                 + (f", found {brief(entry)}" if not isinstance(entry, dict) else
                                    f"; its action is {brief(entry.get('action'))}"))
        t = entry.get("t", index)
        if not isinstance(t, int) or isinstance(t, bool) or t < 0:
            raise StripsIntError(source, f"{kind} {index}", f"t must be a whole number >= 0, found {brief(t)}")
        agent = entry.get("agent")
        if agent is not None and (not isinstance(agent, str) or not agent or len(agent) > MAX_ATOM_CHARS):
            raise StripsIntError(source, f"{kind} {index} (t={t})", f"agent must be a name, found {brief(agent)}")
        if agent is not None:
            agent = agent.lower()
        where = step_label(index, t, agent, kind)
        action = grounder.ground(read_atom(entry["action"], source, where), where)
        if action.actor is None and agent is not None:
            raise StripsIntError(source, where,
                                 f"{action} is an environment action, but the {kind} names agent {agent}")
        if agent is not None and agent != action.actor:
            raise StripsIntError(source, where, f"agent {agent} is not the actor of {action} (its actor is {action.actor})")
        if last_t is not None and t < last_t:
            who = f"agent {action.actor}" if action.actor else "environment"
            raise StripsIntError(source, f"{kind} {index} (t={t}, {who})",
                                 f"t goes back in time (previous {kind} has t={last_t})")
        last_t = t
        found.append((index, t, action))
    return found


