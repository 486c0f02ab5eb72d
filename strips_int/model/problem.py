"""Planning problems: checked against their domain, read from PDDL files or written inline in a trace.

A problem's objects, initial state and goal are checked for types, predicates,
arities and objects when it is made (:func:`make_problem`), whichever way it
was read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Mapping

from strips_int.errors import StripsIntError, brief, cut
from strips_int.files import read_text

from .domain import TOTAL_COST, Domain
from .pddl import MAX_PDDL_BYTES, PDDL_NAME, conjuncts, parse, problem_parser, single_type, unique
from .published import readable
from .task import Fact, Problem, format_fact, parse_atom

#: How a negative literal written as text starts.
_NEGATIVE = re.compile(r"\s*\(\s*not[\s(]", re.IGNORECASE)
#: The longest atom text read from a trace (an action or an inline problem's fact). Real atoms
#: are under 100 characters; the bound keeps every message that shows an atom short.
MAX_ATOM_CHARS = 1000


def check_fact(domain: Domain, objects: Mapping[str, str], fact: Fact) -> str | None:
    """Why ``fact`` is not a well-formed ground atom of the domain, or None."""
    pred, args = fact[0], fact[1:]
    if pred not in domain.predicates:
        return f"unknown predicate {brief(pred)} in {cut(format_fact(fact))}"
    types = domain.predicates[pred]
    if len(args) != len(types):
        return f"{cut(format_fact(fact))} has {len(args)} arguments, {pred} takes {len(types)}"
    for arg, allowed in zip(args, types):
        if arg not in objects:
            return f"unknown object {brief(arg)} in {cut(format_fact(fact))}"
        if not domain.fits(objects[arg], allowed):
            return f"{arg} is a {objects[arg]}, not a {'/'.join(sorted(allowed))}, in {format_fact(fact)}"
    return None


def make_problem(
    domain: Domain,
    name: str,
    objects: Mapping[str, str],
    init: Iterable[Fact],
    goal: Iterable[Fact],
    source: str,
) -> Problem:
    """Build a :class:`Problem`, checking types, predicates, arities and objects.

    An object declared twice (names differ only in case) or declared with another type
    than the domain's constant of that name is an error.
    """
    declared = unique(source, "object", ((o.lower(), t.lower()) for o, t in objects.items()))
    for obj, obj_type in declared.items():
        if domain.constants.get(obj, obj_type) != obj_type:
            raise StripsIntError(source, f"object {cut(obj)}",
                                 f"is a constant of the domain, of type {domain.constants[obj]}, not {brief(obj_type)}")
    all_objects = {**domain.constants, **declared}
    known_types = domain.type_names()
    for obj, obj_type in sorted(all_objects.items()):
        if obj_type not in known_types:
            raise StripsIntError(source, f"object {cut(obj)}", f"unknown type {brief(obj_type)}")
    init, goal = frozenset(init), frozenset(goal)
    for part, facts in (("init", init), ("goal", goal)):
        for fact in sorted(facts):
            problem = check_fact(domain, all_objects, fact)
            if problem:
                raise StripsIntError(source, part, problem)
    return Problem(name=name, objects=all_objects, init=init, goal=goal, source=source)


def load_problem(domain: Domain, path: str | Path) -> Problem:
    """Parse a PDDL problem file with `pddl` (as published: :mod:`.published`) and check it against ``domain``.

    The initial values of the domain's action costs (``(= (total-cost) 0)``, ``(= (travel-slow n0 n1) 6)``)
    and the ``:metric`` are dropped, as the costs are (SPEC section 1); a negative goal literal is refused.

    Parameters:
        domain: the domain the problem is of.
        path: a PDDL problem file.

    Returns:
        The problem: its objects (domain constants included), initial state and goal.
    """
    from pddl.logic.base import Not
    from pddl.logic.predicates import Predicate

    source = str(path)
    parsed = parse(problem_parser(), readable(read_text(path, MAX_PDDL_BYTES)).text, source)
    name = str(parsed.name).lower()
    if parsed.domain_name and str(parsed.domain_name).lower() != domain.name:
        raise StripsIntError(
            source, "(:domain ...)", f"problem is for domain {brief(str(parsed.domain_name).lower())}, not {domain.name!r}"
        )
    objects = unique(source, "object", ((str(o.name).lower(), single_type(o.type_tags)) for o in parsed.objects))
    init = [_fact_of(p, source, "init") for p in parsed.init
            if not _cost_value(p, domain.cost_functions | {TOTAL_COST})]
    goal = []
    for part in conjuncts(parsed.goal):
        if isinstance(part, Not) and isinstance(part.argument, Predicate):
            raise StripsIntError(source, f"goal of problem {cut(name)}", negative_goal(str(part)))
        if not isinstance(part, Predicate):
            raise StripsIntError(source, f"goal of problem {cut(name)}", f"{cut(str(part))} is not STRIPS: goals are "
                                 "conjunctions of positive atoms (no or, exists, forall)")
        goal.append(_fact_of(part, source, "goal"))
    return make_problem(domain, name, objects, init, goal, source)


def negative_goal(literal: str) -> str:
    """The refusal of a negative goal literal (SPEC section 12)."""
    return (f"{cut(literal)} is a negative goal literal, which strips_int refuses: a goal is a conjunction of "
            "positive atoms (the facts whose last achievers make steps relevant)")


def _cost_value(item, functions: frozenset[str]) -> bool:
    """Whether an initial value is of an action cost, ``(= (total-cost) 0)``, ``(= (f a b) 7)`` (dropped)."""
    from pddl.logic.functions import EqualTo, NumericFunction

    return (isinstance(item, EqualTo) and bool(item.operands) and isinstance(item.operands[0], NumericFunction)
            and str(item.operands[0].name).lower() in functions)


def _fact_of(p, source: str, where: str) -> Fact:
    from pddl.logic.predicates import Predicate

    if not isinstance(p, Predicate):
        raise StripsIntError(source, where, f"{cut(str(p))} is not a positive ground atom" + (
            ": numbers are not STRIPS (strips_int reads only a domain's action costs, and drops them)"
            if "(=" in str(p) else ""))
    return (str(p.name).lower(), *(str(t.name).lower() for t in p.terms))


def read_atom(text: object, source: str, where: str) -> Fact:
    """A ground atom written in trace JSON; anything else is an error that describes (not echoes) it."""
    if isinstance(text, str) and len(text) <= MAX_ATOM_CHARS:
        try:
            return parse_atom(text)
        except ValueError:
            pass
    longer = f" of at most {MAX_ATOM_CHARS} characters" if isinstance(text, str) and len(text) > MAX_ATOM_CHARS else ""
    raise StripsIntError(source, where, f"{brief(text)} is not a ground atom like '(name arg1 arg2)'{longer}")


def problem_from_dict(domain: Domain, data: object, source: str) -> Problem:
    """A problem written inline in a trace: ``{"objects", "init", "goal"}``."""
    if not isinstance(data, dict) or not isinstance(data.get("objects"), dict):
        raise StripsIntError(source, "problem", 'an inline problem needs "objects": {name: type}, "init" and "goal"')

    def atoms(key: str) -> list[Fact]:
        items = data.get(key, [])
        if not isinstance(items, list):
            raise StripsIntError(source, f"problem.{key}", f"must be a list of atoms like '(p a b)', found {brief(items)}")
        for i, item in enumerate(items):
            if key == "goal" and isinstance(item, str) and _NEGATIVE.match(item):
                raise StripsIntError(source, f"problem.goal[{i}] of problem {brief(data.get('name', 'inline'))}",
                                     negative_goal(item))
        return [read_atom(item, source, f"problem.{key}[{i}]") for i, item in enumerate(items)]

    for obj, obj_type in data["objects"].items():
        if not all(isinstance(name, str) and PDDL_NAME.match(name) for name in (obj, obj_type)):
            raise StripsIntError(source, f"problem.objects {brief(obj)}",
                                 f"objects are written {{\"name\": \"type\"}}, each a PDDL name; found type {brief(obj_type)}")
    name = data.get("name", "inline")
    if not isinstance(name, str) or len(name) > MAX_ATOM_CHARS:
        raise StripsIntError(source, "problem.name", f"must be a short string, found {brief(name)}")
    return make_problem(domain, name, data["objects"], atoms("init"), atoms("goal"), source)
