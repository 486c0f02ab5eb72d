"""The ground STRIPS vocabulary: facts, ground actions and problems.

A fact is a tuple ``(predicate, arg1, ...)``; a state is a frozenset of facts.
Tuples rather than objects keep hashing and set algebra cheap on long traces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

Fact = tuple[str, ...]
State = frozenset[Fact]

_ATOM = re.compile(r"^\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)$")


def parse_atom(text: str) -> Fact:
    """Parse one ground atom such as ``(at nurse1 kitchen)``; names are lower-cased.

    Written by hand because `pddl` exposes no entry point for a lone ground atom,
    and traces hold tens of thousands of them.
    """
    match = _ATOM.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is not a ground atom like '(name arg1 arg2)'")
    return (match.group(1).lower(), *match.group(2).lower().split())


def format_fact(fact: Fact) -> str:
    """Render a fact (or a ground action's name and arguments) as PDDL."""
    return "(" + " ".join(fact) + ")"


@dataclass(frozen=True)
class GroundAction:
    """An action schema with its parameters bound: a small immutable value.

    ``actor`` is the first agent-typed argument, or None for an environment action.
    """

    name: str
    args: tuple[str, ...]
    actor: str | None
    pre: frozenset[Fact]
    neg_pre: frozenset[Fact]
    add: frozenset[Fact]
    delete: frozenset[Fact]
    if TYPE_CHECKING:  # set by __post_init__, for type checkers only (a field would be part of asdict)
        memo: dict

    def __post_init__(self) -> None:
        """Give the action its ``memo``: what each analysis context reads of it
        (:func:`strips_int.analysis.views.view`) and how execution compiles it, kept on the action (grounders
        share ground actions between games) as part of its domain's cache
        (:meth:`strips_int.model.cache.Cache.clear` empties it). An attribute, not a field, so that
        ``dataclasses.asdict`` and pandas see only the action's PDDL (the memo's keys are not data)."""
        object.__setattr__(self, "memo", {})

    def __str__(self) -> str:
        return format_fact((self.name, *self.args))

    def __getstate__(self) -> dict:
        """Pickled without its memo: what this process worked out (compiled closures among it) stays here,
        so a planner's child process can send back the ground actions of its plan."""
        return {**self.__dict__, "memo": {}}

    def applicable(self, state: frozenset[Fact] | set[Fact]) -> bool:
        """Positive preconditions hold in ``state`` and negative ones do not."""
        return self.pre <= state and state.isdisjoint(self.neg_pre)

    def not_applicable(self, state: frozenset[Fact] | set[Fact]) -> str:
        """Why the action cannot run in ``state``: each failed precondition, as PDDL."""
        return f"{self} is not applicable: failed {', '.join(self.failed_preconditions(state))}"

    def failed_preconditions(self, state: frozenset[Fact] | set[Fact]) -> list[str]:
        """The preconditions that do not hold in ``state``, as PDDL text."""
        missing = [format_fact(f) for f in sorted(self.pre - state)]
        present = [f"(not {format_fact(f)})" for f in sorted(self.neg_pre & state)]
        return missing + present


@dataclass(frozen=True)
class Problem:
    """Objects (name -> type, domain constants included), initial state and goal."""

    name: str
    objects: Mapping[str, str]
    init: frozenset[Fact]
    goal: frozenset[Fact]
    source: str
