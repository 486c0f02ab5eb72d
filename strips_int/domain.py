"""PDDL domains and problems: parsed by `pddl` (lark), compiled for fast grounding.

A domain is compiled once into :class:`Schema` values whose atoms refer to
parameters by position, so grounding a step is a tuple substitution.
Names are lower-cased on load, since PDDL is case-insensitive.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import lark
from pddl.exceptions import PDDLValidationError
from pddl.logic.base import And, Not
from pddl.logic.predicates import EqualTo, Predicate
from pddl.logic.terms import Constant, Variable
from pddl.parser.domain import DomainParser
from pddl.parser.problem import ProblemParser

from .errors import StripsIntError
from .files import read_text
from .task import Fact, GroundAction, Problem, format_fact, parse_atom

#: A term of a compiled atom: a parameter position (int) or a constant name (str).
Term = int | str
#: A compiled atom: predicate name and terms.
Template = tuple[str, tuple[Term, ...]]

PRAGMA_KEYS = ("navigation-actions", "position-predicates", "ignore-predicates")
_PRAGMA = re.compile(r";\s*@strips-int\s+([\w-]+)\s*:(.*)$")
_ROOT_TYPE = "object"


@dataclass(frozen=True)
class Schema:
    """A lifted action compiled for grounding: STRIPS with negation and equality."""

    name: str
    params: tuple[str, ...]
    param_types: tuple[frozenset[str], ...]
    pre: tuple[Template, ...]
    neg_pre: tuple[Template, ...]
    add: tuple[Template, ...]
    delete: tuple[Template, ...]
    equal: tuple[tuple[Term, Term], ...]
    unequal: tuple[tuple[Term, Term], ...]
    actor: int | None

    def ground(self, args: tuple[str, ...]) -> GroundAction:
        """Bind the parameters to ``args`` (arity and types are the caller's check)."""

        def bind(templates: tuple[Template, ...]) -> frozenset[Fact]:
            return frozenset(
                (pred, *(args[t] if isinstance(t, int) else t for t in terms))
                for pred, terms in templates
            )

        return GroundAction(
            name=self.name,
            args=args,
            actor=None if self.actor is None else args[self.actor],
            pre=bind(self.pre),
            neg_pre=bind(self.neg_pre),
            add=bind(self.add),
            delete=bind(self.delete),
        )

    def failed_equalities(self, args: tuple[str, ...]) -> list[str]:
        """The (in)equality preconditions that ``args`` violate, as PDDL text."""

        def value(term: Term) -> str:
            return args[term] if isinstance(term, int) else term

        failed = [f"(= {value(a)} {value(b)})" for a, b in self.equal if value(a) != value(b)]
        failed += [
            f"(not (= {value(a)} {value(b)}))" for a, b in self.unequal if value(a) == value(b)
        ]
        return failed


@dataclass(frozen=True)
class Domain:
    """A parsed and checked PDDL domain with the strips_int pragmas (SPEC section 1)."""

    name: str
    source: str
    parents: Mapping[str, str]
    constants: Mapping[str, str]
    predicates: Mapping[str, tuple[frozenset[str], ...]]
    schemas: Mapping[str, Schema]
    navigation_actions: frozenset[str]
    position_predicates: frozenset[str]
    ignore_predicates: frozenset[str]
    type_ancestors: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)

    def ancestors(self, obj_type: str) -> frozenset[str]:
        """``obj_type`` and every type above it, ``object`` included."""
        return self.type_ancestors.get(obj_type) or _ancestors(self.parents, obj_type)

    def is_subtype(self, child: str, ancestor: str) -> bool:
        """Whether type ``child`` is ``ancestor`` or below it (everything is an object)."""
        return ancestor in self.ancestors(child)

    def fits(self, obj_type: str, allowed: frozenset[str]) -> bool:
        """Whether an object of ``obj_type`` may bind a term declared ``allowed``."""
        return not self.ancestors(obj_type).isdisjoint(allowed)

    def is_agent_type(self, obj_type: str) -> bool:
        """Agents are objects of type ``agent`` or any subtype of it."""
        return self.is_subtype(obj_type, "agent")

    def type_names(self) -> frozenset[str]:
        """Every declared type name, ``object`` included."""
        return frozenset(self.parents) | frozenset(self.parents.values()) | {_ROOT_TYPE}

    def with_pragmas(self, pragmas: Mapping[str, Iterable[str]]) -> "Domain":
        """This domain with more pragma names (as the CLI adds them), checked."""
        extra = {key: frozenset(n.lower() for n in names) for key, names in pragmas.items()}
        _check_pragma_names(self, extra, where=None)
        return dataclasses.replace(
            self,
            navigation_actions=self.navigation_actions | extra.get("navigation-actions", frozenset()),
            position_predicates=self.position_predicates
            | extra.get("position-predicates", frozenset()),
            ignore_predicates=self.ignore_predicates | extra.get("ignore-predicates", frozenset()),
        )

    def is_navigation(self, schema: Schema) -> bool:
        """SPEC section 6: by pragma, else when every add/delete mentions the actor."""
        if self.navigation_actions:
            return schema.name in self.navigation_actions
        if schema.actor is None:
            return False
        effects = schema.add + schema.delete
        return bool(effects) and all(schema.actor in terms for _, terms in effects)


def _ancestors(parents: Mapping[str, str], obj_type: str) -> frozenset[str]:
    found = {obj_type, _ROOT_TYPE}
    while obj_type in parents and parents[obj_type] not in found:
        obj_type = parents[obj_type]
        found.add(obj_type)
    return frozenset(found)


@functools.cache
def _domain_parser() -> DomainParser:
    """Building a lark parser takes ~0.1 s; build it once per process."""
    return DomainParser()


@functools.cache
def _problem_parser() -> ProblemParser:
    """Building a lark parser takes ~0.1 s; build it once per process."""
    return ProblemParser()


def _parse(parser, text: str, source: str):
    try:
        return parser(text)
    except lark.exceptions.UnexpectedInput as exc:
        first = str(exc).strip().splitlines()[0]
        raise StripsIntError(source, f"line {exc.line}, column {exc.column}", first) from None
    except (lark.exceptions.LarkError, PDDLValidationError) as exc:
        raise StripsIntError(source, None, f"invalid PDDL: {exc}") from None


def packaged_domain(name: str) -> Path:
    """The path of a domain shipped with strips_int (``domains/NAME.pddl``, installed as package data)."""
    folder = importlib.resources.files("strips_int.domains")
    path = Path(str(folder / f"{name}.pddl"))
    if not path.is_file():
        known = sorted(p.name.removesuffix(".pddl") for p in folder.iterdir() if p.name.endswith(".pddl"))
        raise StripsIntError(name, None, f"no such file, nor a packaged domain (packaged: {', '.join(known)})")
    return path


def domain_file(path: str | Path) -> Path:
    """``path`` itself, or the packaged domain it names (``"overcooked"``, ``"sar"``) when no such file exists."""
    path = Path(path)
    if not path.exists() and path.suffix == "" and len(path.parts) == 1:
        return packaged_domain(path.name)
    return path


def load_domain(path: str | Path) -> Domain:
    """Parse and check a PDDL domain file (or a packaged domain by name), with its ``; @strips-int`` pragmas."""
    path = domain_file(path)
    source = str(path)
    text = read_text(path)
    parsed = _parse(_domain_parser(), text, source)
    parents = {str(t).lower(): (str(p).lower() if p else _ROOT_TYPE) for t, p in parsed.types.items()}
    parents.pop(_ROOT_TYPE, None)
    constants = {str(c.name).lower(): _single_type(c.type_tags) for c in parsed.constants}
    predicates = {
        str(p.name).lower(): tuple(_types(t.type_tags) for t in p.terms) for p in parsed.predicates
    }
    partial = Domain(
        name=str(parsed.name).lower(),
        source=source,
        parents=parents,
        constants=constants,
        predicates=predicates,
        schemas={},
        navigation_actions=frozenset(),
        position_predicates=frozenset(),
        ignore_predicates=frozenset(),
        type_ancestors={t: _ancestors(parents, t) for t in set(parents) | set(parents.values())},
    )
    schemas = {}
    for action in sorted(parsed.actions, key=lambda a: str(a.name)):
        schema = _compile(partial, action, source)
        schemas[schema.name] = schema
    domain = dataclasses.replace(partial, schemas=schemas)
    pragmas: dict[str, frozenset[str]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        match = _PRAGMA.search(line)
        if match is None:
            continue
        key, names = match.group(1).lower(), frozenset(match.group(2).lower().split())
        if key not in PRAGMA_KEYS:
            raise StripsIntError(
                source, f"line {lineno}", f"unknown pragma {key!r} (known: {', '.join(PRAGMA_KEYS)})"
            )
        _check_pragma_names(domain, {key: names}, where=f"line {lineno}")
        pragmas[key] = pragmas.get(key, frozenset()) | names
    return dataclasses.replace(
        domain,
        navigation_actions=pragmas.get("navigation-actions", frozenset()),
        position_predicates=pragmas.get("position-predicates", frozenset()),
        ignore_predicates=pragmas.get("ignore-predicates", frozenset()),
    )


def _check_pragma_names(domain: Domain, pragmas: Mapping[str, frozenset[str]], where: str | None):
    for key, names in pragmas.items():
        if key not in PRAGMA_KEYS:
            raise StripsIntError(domain.source, where, f"unknown pragma {key!r}")
        known = domain.schemas if key == "navigation-actions" else domain.predicates
        kind = "action" if key == "navigation-actions" else "predicate"
        for name in sorted(names - set(known)):
            raise StripsIntError(domain.source, where, f"{key}: no {kind} named {name!r} in the domain")


def _types(tags) -> frozenset[str]:
    return frozenset(str(t).lower() for t in tags) or frozenset({_ROOT_TYPE})


def _single_type(tags) -> str:
    return min(_types(tags))


def _compile(domain: Domain, action, source: str) -> Schema:
    """Turn a `pddl` action into a :class:`Schema`, rejecting what STRIPS cannot say."""
    name = str(action.name).lower()
    where = f"action {name}"
    params = tuple(str(p.name).lower() for p in action.parameters)
    param_types = tuple(_types(p.type_tags) for p in action.parameters)
    position = {p: i for i, p in enumerate(params)}

    def term(t) -> Term:
        if isinstance(t, Variable):
            key = str(t.name).lower()
            if key not in position:
                raise StripsIntError(source, where, f"?{key} is not a parameter")
            return position[key]
        if isinstance(t, Constant):
            key = str(t.name).lower()
            if key not in domain.constants:
                raise StripsIntError(source, where, f"{key} is not a declared constant")
            return key
        raise StripsIntError(source, where, f"unsupported term {t}")

    def atom(p: Predicate) -> Template:
        pred = str(p.name).lower()
        if pred not in domain.predicates:
            raise StripsIntError(source, where, f"undeclared predicate {pred!r} in {p}")
        if len(p.terms) != len(domain.predicates[pred]):
            raise StripsIntError(
                source, where, f"{p} has {len(p.terms)} arguments, {pred} takes {len(domain.predicates[pred])}"
            )
        return pred, tuple(term(t) for t in p.terms)

    def conjuncts(formula) -> list:
        if formula is None:
            return []
        if isinstance(formula, And):
            return [c for op in formula.operands for c in conjuncts(op)]
        return [formula]

    pre, neg_pre, equal, unequal = [], [], [], []
    for lit in conjuncts(action.precondition):
        if isinstance(lit, Predicate):
            pre.append(atom(lit))
        elif isinstance(lit, Not) and isinstance(lit.argument, Predicate):
            neg_pre.append(atom(lit.argument))
        elif isinstance(lit, EqualTo):
            equal.append((term(lit.left), term(lit.right)))
        elif isinstance(lit, Not) and isinstance(lit.argument, EqualTo):
            unequal.append((term(lit.argument.left), term(lit.argument.right)))
        else:
            raise StripsIntError(
                source, where, f"precondition {lit} is not a literal (only conjunctions of literals are supported)"
            )
    add, delete = [], []
    for lit in conjuncts(action.effect):
        if isinstance(lit, Predicate):
            add.append(atom(lit))
        elif isinstance(lit, Not) and isinstance(lit.argument, Predicate):
            delete.append(atom(lit.argument))
        else:
            raise StripsIntError(source, where, f"effect {lit} is not a literal (conditional and quantified effects are not supported)")
    actor = next(
        (i for i, types in enumerate(param_types) if any(domain.is_agent_type(t) for t in types)),
        None,
    )
    return Schema(
        name=name,
        params=params,
        param_types=param_types,
        pre=tuple(pre),
        neg_pre=tuple(neg_pre),
        add=tuple(add),
        delete=tuple(delete),
        equal=tuple(equal),
        unequal=tuple(unequal),
        actor=actor,
    )


def check_fact(domain: Domain, objects: Mapping[str, str], fact: Fact) -> str | None:
    """Why ``fact`` is not a well-formed ground atom of the domain, or None."""
    pred, args = fact[0], fact[1:]
    if pred not in domain.predicates:
        return f"unknown predicate {pred!r} in {format_fact(fact)}"
    types = domain.predicates[pred]
    if len(args) != len(types):
        return f"{format_fact(fact)} has {len(args)} arguments, {pred} takes {len(types)}"
    for arg, allowed in zip(args, types):
        if arg not in objects:
            return f"unknown object {arg!r} in {format_fact(fact)}"
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
    """Build a :class:`Problem`, checking types, predicates, arities and objects."""
    all_objects = {**domain.constants, **{o.lower(): t.lower() for o, t in objects.items()}}
    known_types = domain.type_names()
    for obj, obj_type in sorted(all_objects.items()):
        if obj_type not in known_types:
            raise StripsIntError(source, f"object {obj}", f"unknown type {obj_type!r}")
    init, goal = frozenset(init), frozenset(goal)
    for part, facts in (("init", init), ("goal", goal)):
        for fact in sorted(facts):
            problem = check_fact(domain, all_objects, fact)
            if problem:
                raise StripsIntError(source, part, problem)
    return Problem(name=name, objects=all_objects, init=init, goal=goal, source=source)


def load_problem(domain: Domain, path: str | Path) -> Problem:
    """Parse a PDDL problem file with `pddl` and check it against ``domain``."""
    source = str(path)
    parsed = _parse(_problem_parser(), read_text(path), source)
    if parsed.domain_name and str(parsed.domain_name).lower() != domain.name:
        raise StripsIntError(
            source, "(:domain ...)", f"problem is for domain {str(parsed.domain_name).lower()!r}, not {domain.name!r}"
        )
    objects = {str(o.name): _single_type(o.type_tags) for o in parsed.objects}
    init = [_fact_of(p, source, "init") for p in parsed.init]
    goal = []
    goal_parts = parsed.goal.operands if isinstance(parsed.goal, And) else [parsed.goal]
    for part in goal_parts:
        if not isinstance(part, Predicate):
            raise StripsIntError(source, "goal", f"{part} is not a positive atom (goals are conjunctions of atoms)")
        goal.append(_fact_of(part, source, "goal"))
    return make_problem(domain, str(parsed.name).lower(), objects, init, goal, source)


def _fact_of(p, source: str, where: str) -> Fact:
    if not isinstance(p, Predicate):
        raise StripsIntError(source, where, f"{p} is not a positive ground atom")
    return (str(p.name).lower(), *(str(t.name).lower() for t in p.terms))


def problem_from_dict(domain: Domain, data: object, source: str) -> Problem:
    """A problem written inline in a trace: ``{"objects", "init", "goal"}``."""
    if not isinstance(data, dict) or not isinstance(data.get("objects"), dict):
        raise StripsIntError(source, "problem", 'an inline problem needs "objects": {name: type}, "init" and "goal"')

    def atoms(key: str) -> list[Fact]:
        items = data.get(key, [])
        if not isinstance(items, list):
            raise StripsIntError(source, f"problem.{key}", "must be a list of atoms like '(p a b)'")
        try:
            return [parse_atom(item) for item in items]
        except ValueError as exc:
            raise StripsIntError(source, f"problem.{key}", str(exc)) from None

    for obj, obj_type in data["objects"].items():
        if not isinstance(obj_type, str):
            raise StripsIntError(source, f"problem.objects.{obj}", "the type must be a string")
    return make_problem(
        domain, str(data.get("name", "inline")), data["objects"], atoms("init"), atoms("goal"), source
    )
