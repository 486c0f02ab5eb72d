"""Planning problems: checked against their domain, read from PDDL files or written inline in a trace.

A problem's objects, initial state and goal are checked for types, predicates,
arities and objects when it is made (:func:`make_problem`), whichever way it
was read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Mapping

from strips_int.errors import StripsIntError, brief, cut, path_argument
from strips_int.files import read_text

from .domain import TOTAL_COST, Domain, compiled_domain, domain_argument
from .factored import AgentFiles, agent_files, one_name, union
from .pddl import MAX_PDDL_BYTES, PDDL_NAME, ROOT_TYPE, conjuncts, parse, problem_parser, single_type, unique
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
    if domain.agent_predicates:
        all_objects = _agents_by_predicate(domain, all_objects, init, source)
    for part, facts in (("init", init), ("goal", goal)):
        for fact in sorted(facts):
            problem = check_fact(domain, all_objects, fact)
            if problem:
                raise StripsIntError(source, part, problem)
    return Problem(name=name, objects=all_objects, init=init, goal=goal, source=source)


def _agents_by_predicate(domain: Domain, objects: Mapping[str, str], init: frozenset[Fact],
                         source: str) -> dict[str, str]:
    """``objects`` with each object for which an agent predicate holds in ``init`` of that predicate's type
    (definitions section 1: ``(truck t1)`` makes t1 a truck, an agent). An object is of one type: one for which
    two agent predicates hold is an error, and so is one declared of an agent predicate's type for which
    the predicate does not hold (the initial state decides who the agents are)."""
    held: dict[str, list[str]] = {}
    for fact in sorted(init):
        if fact[0] in domain.agent_predicates and len(fact) == 2:
            held.setdefault(fact[1], []).append(fact[0])
    typed = dict(objects)
    for obj, obj_type in sorted(objects.items()):
        preds = held.get(obj, [])
        if len(preds) > 1:
            raise StripsIntError(source, f"object {cut(obj)}", f"{' and '.join(f'({p} {obj})' for p in preds)} both "
                                 "hold in the initial state, and both predicates name agents (agent-types): an "
                                 "object is of one agent type; name one of them")
        if obj_type in domain.agent_predicates and preds != [obj_type]:
            raise StripsIntError(source, f"object {cut(obj)}", f"is declared a {obj_type}, but ({obj_type} {obj}) "
                                 "does not hold in the initial state, which decides the agents of a predicate")
        if preds and obj_type == ROOT_TYPE:
            typed[obj] = preds[0]
        elif preds and obj_type != preds[0]:
            raise StripsIntError(source, f"object {cut(obj)}", f"is a {obj_type}, yet ({preds[0]} {obj}) holds: "
                                 "a predicate names agents only among objects of no declared type")
    return typed


def problem_argument(function: str, problem: object) -> Problem | Path | None:
    """``function``'s argument ``problem``: None, a :class:`Problem`, or the path of a problem file (as a
    :class:`~pathlib.Path`); anything else an :class:`~strips_int.errors.ArgumentError`."""
    if problem is None or isinstance(problem, Problem):
        return problem
    return path_argument(function, "problem", problem, "None, a Problem or a problem file's path")


def load_problem(domain: Domain, path: str | Path) -> Problem:
    """Parse a PDDL problem file with `pddl` (as published: :mod:`.published`) and check it against ``domain``;
    a folder of CoDMAP's factored files is read as the union of its agents' problems (:mod:`.factored`).

    The initial values of the domain's action costs (``(= (total-cost) 0)``, ``(= (travel-slow n0 n1) 6)``)
    and the ``:metric`` are dropped, as the costs are (definitions section 1); a negative goal literal is refused.

    Parameters:
        domain: the domain the problem is of.
        path: a PDDL problem file.

    Returns:
        The problem: its objects (domain constants included), initial state and goal.
    """
    from pddl.logic.base import Not
    from pddl.logic.predicates import Predicate

    domain_argument("load_problem", domain)
    path = path_argument("load_problem", "path", path)
    if path.is_dir():
        return factored_problem(domain, path)
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


def factored_problem(domain: Domain, folder: Path) -> Problem:
    """The union of the agents' problem files of ``folder`` (CoDMAP's factored MA-PDDL, :mod:`.factored`),
    each read against ``domain`` (the union of their domain files): every object and fact once, and every
    agent's actions its own (:func:`_check_actors`)."""
    files = agent_files(folder)
    parts = [(f.problem.name, load_problem(domain, f.problem)) for f in files]
    name = one_name(folder, ((file_name, part.name) for file_name, part in parts), "problem")
    objects = union(folder, ((file_name, part.objects) for file_name, part in parts), "object")
    init = frozenset().union(*(part.init for _, part in parts))
    goal = frozenset().union(*(part.goal for _, part in parts))
    problem = make_problem(domain, name, objects, init, goal, str(folder))
    _check_actors(domain, problem, files, folder)
    return problem


def _check_actors(domain: Domain, problem: Problem, files: list[AgentFiles], folder: Path) -> None:
    """Every agent's actions with that agent as actor: each file's agent is an object that may act its
    file's actions, and each agent that may act an action by its type has it in its own file (strips_int's
    actions are typed, not per object)."""
    own = {f.agent: frozenset(compiled_domain(f.domain).schemas) for f in files}
    for f in files:
        if f.agent not in problem.objects:
            raise StripsIntError(str(folder), f.domain.name, f"is agent {cut(f.agent)}'s, but no problem file declares "
                                 f"an object {cut(f.agent)}")
        for name in sorted(own[f.agent]):
            actor = domain.schemas[name].param_types[0]
            if not domain.fits(problem.objects[f.agent], actor):
                raise StripsIntError(str(folder), f.domain.name, f"action {cut(name)}'s actor is a "
                                     f"{'/'.join(sorted(actor))}, but {f.agent} is a {problem.objects[f.agent]}")
    for name, schema in sorted(domain.schemas.items()):
        for obj, obj_type in sorted(problem.objects.items()):
            if domain.fits(obj_type, schema.param_types[0]) and name not in own.get(obj, frozenset()):
                where = f"domain-{obj}.pddl has no action {name}" if obj in own else f"there is no domain-{obj}.pddl"
                raise StripsIntError(str(folder), f"action {cut(name)}", f"{obj} is a {obj_type}, which may take it "
                                     f"by its type, but {where}: strips_int reads factored files whose agents of one "
                                     "type have the same actions")


def negative_goal(literal: str) -> str:
    """The refusal of a negative goal literal (definitions section 12)."""
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
