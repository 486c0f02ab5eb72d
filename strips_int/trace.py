"""Traces (``strips-int-trace/1``): reading, grounding and executing them (SPEC sections 1-2).

Every problem with a trace is an error naming the file, the step (index, ``t``,
agent) and what is wrong; no step is ever skipped.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from .domain import MAX_ATOM_CHARS, Domain, load_problem, problem_from_dict, read_atom
from .errors import StripsIntError, brief
from .files import read_json
from .task import Fact, GroundAction, Problem, State, format_fact

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


@dataclass(frozen=True)
class Trace:
    """A problem and the ground steps taken from its initial state."""

    source: str
    problem: Problem
    steps: tuple[Step, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)


#: The achiever of a fact that held from the initial state on (SPEC section 3).
INIT = "init"
#: A causal link's achiever: a step index, or ``INIT``.
Achiever = int | str


@dataclass(frozen=True)
class CausalLinks:
    """The causal links of a run (SPEC section 3; :mod:`strips_int.causal`): each step's achievers,
    one per fact of its action's ``pre`` in that frozenset's own iteration order
    (``zip(step.action.pre, links.achievers[k])``), and each achieved goal fact's last achiever.

    A fact's achiever for step k is the last earlier step whose add list holds it (even if it
    already held), else ``INIT``; execution finds them in its one pass over the steps.
    """

    achievers: tuple[tuple[Achiever, ...], ...]
    goal: Mapping[Fact, Achiever]


@dataclass(frozen=True)
class Run:
    """The outcome of executing a trace: final state, what each step newly made true, causal links."""

    trace: Trace
    final: State
    new_facts: tuple[frozenset[Fact], ...]
    links: CausalLinks

    @property
    def goal_achieved(self) -> frozenset[Fact]:
        """The goal facts that hold at the end (partial progress counts)."""
        return self.trace.problem.goal & self.final


def step_label(index: int, t: object, agent: str | None) -> str:
    """How an error names a step before its action is known to be well-formed."""
    return f"step {index} (t={t}, agent {agent})" if agent else f"step {index} (t={t})"


class Grounder:
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


def load_trace(path: str | Path, domain: Domain, problem: Problem | str | Path | None = None) -> Trace:
    """Read a trace file; ``problem`` (a Problem or a path) overrides the trace's own."""
    return trace_from_dict(read_json(path), domain, str(path), problem, base=Path(path).parent)


def trace_from_dict(
    data: Any,
    domain: Domain,
    source: str,
    problem: Problem | str | Path | None = None,
    base: Path = Path("."),
) -> Trace:
    """Build a trace from its parsed JSON (see :func:`load_trace`)."""
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
    problem = _resolve_problem(domain, data.get("problem") if problem is None else problem, source, base)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list):
        raise StripsIntError(source, "steps", f"must be a list of {{\"t\", \"agent\", \"action\"}}, found {brief(raw_steps)}")
    return Trace(source=source, problem=problem, steps=parse_steps(raw_steps, domain, problem, source), meta=meta)


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
    grounder = Grounder(domain, problem, source)
    steps = []
    last_t = None
    for index, raw in enumerate(raw_steps):
        if not isinstance(raw, dict) or not isinstance(raw.get("action"), str):
            raise StripsIntError(source, f"step {index}", 'a step is {"t": int, "agent": name, "action": "(name args)"}'
                                 + (f", found {brief(raw)}" if not isinstance(raw, dict) else
                                    f"; its action is {brief(raw.get('action'))}"))
        t = raw.get("t", index)
        if not isinstance(t, int) or isinstance(t, bool) or t < 0:
            raise StripsIntError(source, f"step {index}", f"t must be a whole number >= 0, found {brief(t)}")
        agent = raw.get("agent")
        if agent is not None and (not isinstance(agent, str) or not agent or len(agent) > MAX_ATOM_CHARS):
            raise StripsIntError(source, f"step {index} (t={t})", f"agent must be a name, found {brief(agent)}")
        if agent is not None:
            agent = agent.lower()
        where = step_label(index, t, agent)
        action = grounder.ground(read_atom(raw["action"], source, where), where)
        if action.actor is None and agent is not None:
            raise StripsIntError(source, where, f"{action} is an environment action, but the step names agent {agent}")
        if agent is not None and agent != action.actor:
            raise StripsIntError(source, where, f"agent {agent} is not the actor of {action} (its actor is {action.actor})")
        step = Step(index=index, t=t, action=action)
        if last_t is not None and t < last_t:
            raise StripsIntError(source, step.describe(), f"t goes back in time (previous step has t={last_t})")
        last_t = t
        steps.append(step)
    return tuple(steps)


def apply(state: set[Fact], action: GroundAction) -> str | None:
    """Apply ``action`` to ``state`` in place (SPEC section 2), or say why it is not applicable.

    The one place actions are applied: executing traces, lifting games, benchmarks.
    """
    if not action.applicable(state):
        return action.not_applicable(state)
    state -= action.delete
    state |= action.add
    return None


class _FactIds:
    """Small integers for facts: :func:`execute` keeps its state and causal links by int, not by
    re-hashing tuples. A cache, shared by all traces; :func:`_fact_ids` starts a new one (and with it
    new compiled actions, since each is kept under its table) past ``_MAX_FACT_IDS``."""

    def __init__(self) -> None:
        self.table: dict[Fact, int] = {}
        self.facts: list[Fact] = []

    def ids(self, facts: Iterable[Fact]) -> list[int]:
        """The id of each fact, numbering those not seen before."""
        table, known = self.table, self.facts
        found = []
        for fact in facts:
            fact_id = table.get(fact)
            if fact_id is None:
                fact_id = table[fact] = len(known)
                known.append(fact)
            found.append(fact_id)
        return found

    def compiled(self, action: GroundAction) -> _Compiled:
        """``action`` for :func:`execute`: a getter of its ``pre`` facts' entries (in the frozenset's
        order), the ids of its ``pre``, ``neg_pre``, ``add`` and ``delete``; worked out once per action,
        kept in its memo."""
        pre = tuple(self.ids(action.pre))
        getter = operator.itemgetter(*pre) if len(pre) > 1 else lambda last: tuple(last[i] for i in pre)
        found = action.memo[self] = (getter, frozenset(pre), frozenset(self.ids(action.neg_pre)),
                                     frozenset(self.ids(action.add)), frozenset(self.ids(action.delete)))
        return found


#: A compiled action: achievers getter, then the ids of its pre, neg_pre, add and delete.
_Compiled = tuple[Callable[[Mapping[int, Achiever]], tuple], frozenset[int], frozenset[int], frozenset[int],
                  frozenset[int]]
_MAX_FACT_IDS = 1 << 20
_fact_table = [_FactIds()]


def _fact_ids() -> _FactIds:
    if len(_fact_table[0].table) > _MAX_FACT_IDS:
        _fact_table[0] = _FactIds()
    return _fact_table[0]


def execute(trace: Trace) -> Run:
    """Apply every step from the initial state (SPEC section 2); an inapplicable step is an error.

    The state is kept as fact ids, and the causal links are found on the way: each fact's last
    adder, by the fact's id."""
    ids = _fact_ids()
    state = set(ids.ids(trace.problem.init))
    last: dict[int, Achiever] = dict.fromkeys(state, INIT)
    new_facts, achievers = [], []
    memo_key = ids
    for index, step in enumerate(trace.steps):
        action = step.action
        compiled = action.memo.get(memo_key) or ids.compiled(action)
        getter, pre, neg_pre, add, delete = compiled
        if not (pre <= state and state.isdisjoint(neg_pre)):  # apply, inlined: the hot loop
            facts = ids.facts
            raise StripsIntError(trace.source, step.describe(), action.not_applicable({facts[i] for i in state}))
        # pre <= state: every pre id is in ``last`` (initial, or added by an earlier step)
        achievers.append(getter(last))
        new_facts.append(action.add if state.isdisjoint(add) else frozenset(map(ids.facts.__getitem__, add - state)))
        for fact_id in add:
            last[fact_id] = index
        state -= delete
        state |= add
    final = frozenset(map(ids.facts.__getitem__, state))
    table = ids.table
    goal = {fact: last.get(table.get(fact), INIT) for fact in sorted(trace.problem.goal & final)}
    return Run(trace=trace, final=final, new_facts=tuple(new_facts), links=CausalLinks(tuple(achievers), goal))
