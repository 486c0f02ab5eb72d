"""PDDL domains: parsed by `pddl` (lark), checked, and compiled for fast grounding.

A domain is compiled once into :class:`Schema` values whose atoms refer to
parameters by position, so grounding a step is a tuple substitution.
Names are lower-cased on load, since PDDL is case-insensitive.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from strips_int.errors import StripsIntError, argument, brief, closest, cut, of_type, path_argument
from strips_int.files import decode, read_bytes

from . import domain_cache
from .cache import Cache
from .factored import agent_files, one_name, union
from .pddl import MAX_PDDL_BYTES, ROOT_TYPE, conjuncts, domain_parser, parse, single_type, types_of, unique
from .published import dropped_by_pddl, readable
from .task import Fact, GroundAction

#: A term of a compiled atom: a parameter position (int) or a constant name (str).
Term = int | str
#: A compiled atom: predicate name and terms.
Template = tuple[str, tuple[Term, ...]]

PRAGMA_KEYS = ("agent-types", "navigation-actions", "position-predicates", "ignore-predicates")
#: The type whose objects (and its subtypes') are agents in every domain (definitions section 1).
AGENT_TYPE = "agent"
#: The function of PDDL's action costs (``:action-costs``).
TOTAL_COST = "total-cost"
_PRAGMA = re.compile(r";\s*@strips-int\s+([\w-]+)\s*:(.*)$", re.IGNORECASE)
#: The field of :class:`Domain` that holds each pragma's names.
_FIELD = {key: key.replace("-", "_") for key in PRAGMA_KEYS}
#: The name of :meth:`Domain.ground`'s table in :attr:`Domain.cache`, and how many ground actions it keeps
#: (the most recently used: a layout's, or some dozens of Hanabi games' own).
_GROUNDED = ("ground", 20_000)

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

        def bind(templates: tuple[Template, ...]) -> frozenset[Fact]:  # (list comprehensions: no generator frames)
            return frozenset([(pred, *[args[t] if t.__class__ is int else t for t in terms])
                              for pred, terms in templates])

        # (positional: GroundAction's fields in order)
        return GroundAction(self.name, args, None if self.actor is None else args[self.actor],
                            bind(self.pre), bind(self.neg_pre), bind(self.add), bind(self.delete))

    def failed_equalities(self, args: tuple[str, ...]) -> list[str]:
        """The (in)equality preconditions that ``args`` violate, as PDDL text."""
        if not (self.equal or self.unequal):  # most schemas (all of Overcooked's): no call per atom grounded
            return []

        def value(term: Term) -> str:
            return args[term] if isinstance(term, int) else term

        failed = [f"(= {value(a)} {value(b)})" for a, b in self.equal if value(a) != value(b)]
        failed += [
            f"(not (= {value(a)} {value(b)}))" for a, b in self.unequal if value(a) == value(b)
        ]
        return failed


@dataclass(frozen=True)
class Domain:
    """A parsed and checked PDDL domain with the strips_int pragmas (definitions section 1)."""

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
    #: The types named by the ``agent-types`` pragma: with ``agent``, their objects (and their subtypes') are agents.
    agent_types: frozenset[str] = frozenset()
    #: The numeric functions of the domain's action costs (``total-cost`` and what it is increased by),
    #: read and dropped: they change no fact (definitions section 1).
    cost_functions: frozenset[str] = frozenset()
    #: The actions whose first parameter is an MA-PDDL ``:agent`` (its type must be an agent type).
    agent_lines: frozenset[str] = frozenset()
    #: What is worked out once for this domain and kept (:mod:`strips_int.model.cache`): one owner, one clear().
    cache: Cache = dataclasses.field(default_factory=Cache, init=False, compare=False, repr=False)

    def ground(self, schema: Schema, args: tuple[str, ...]) -> GroundAction:
        """``schema.ground(args)`` made once per domain: lifting, reachability and the reasons of
        required help then share ground actions, and what is kept in their memos."""
        grounded = self.cache.table(*_GROUNDED)
        key = (schema.name, args)
        action = grounded.get(key)
        return action if action is not None else grounded.keep(key, schema.ground(args))

    def ancestors(self, obj_type: str) -> frozenset[str]:
        """``obj_type`` and every type above it, ``object`` included."""
        return self.type_ancestors.get(obj_type) or _ancestors(self.parents, obj_type)

    def is_subtype(self, child: str, ancestor: str) -> bool:
        """Whether type ``child`` is ``ancestor`` or below it (everything is an object)."""
        return ancestor in self.ancestors(child)

    def fits(self, obj_type: str, allowed: frozenset[str]) -> bool:
        """Whether an object of ``obj_type`` may bind a term declared ``allowed``."""
        return not self.ancestors(obj_type).isdisjoint(allowed)

    @functools.cached_property
    def agent_predicates(self) -> frozenset[str]:
        """The names of ``agent-types`` that are no type but a static unary predicate (``(truck ?t)`` of IPC's
        untyped logistics), read as types (definitions section 1): the objects for which one holds in the initial
        state are of that type (:func:`strips_int.model.problem.make_problem`), and a parameter of which an
        action's precondition holds it is declared of it (:func:`agent_parameters`)."""
        return frozenset(self.agent_types - self.declared_types()) & self.unary_statics

    @functools.cached_property
    def unary_statics(self) -> frozenset[str]:
        """The static predicates of one argument: those that may name agents in a domain without types."""
        return frozenset(p for p in self.static_predicates if len(self.predicates[p]) == 1)

    def is_agent_type(self, obj_type: str) -> bool:
        """Agents are objects of type ``agent``, of a type the ``agent-types`` pragma names, or of a subtype."""
        ancestors = self.ancestors(obj_type)
        return AGENT_TYPE in ancestors or not ancestors.isdisjoint(self.agent_types)

    def actor_position(self, param_types: Iterable[frozenset[str]]) -> int | None:
        """definitions section 1: the first parameter declared with an agent type (an ``either`` type counts only
        when every type in it is one), or None: an environment action."""
        return next((i for i, types in enumerate(param_types) if all(map(self.is_agent_type, types))), None)

    def check_agents(self) -> Domain:
        """This domain, if it has agents to speak of: some type is an agent type, and the ``:agent`` of each
        MA-PDDL action is of one. Otherwise an error that says how to name them (definitions section 1)."""
        if not any(map(self.is_agent_type, self.type_names())):
            declared = sorted(self.type_names() - {ROOT_TYPE})
            raise StripsIntError(self.source, None, "no agent type: declare a type agent (with subtypes), or name "
                                 "the agents' types with agent-types T... (the pragma '; @strips-int agent-types: T...' "
                                 "or the option of that name)" + (f" (its types: {cut(' '.join(declared), 120)})" if declared
                                                         else " (it declares no types; its static unary predicates, "
                                                         "which agent-types may name: "
                                                         f"{cut(' '.join(sorted(self.unary_statics)), 120) or 'none'})"))
        for name in sorted(self.agent_lines):
            schema = self.schemas[name]
            if schema.actor != 0:
                raise StripsIntError(self.source, f"action {cut(name)}", f"its :agent ?{schema.params[0]} is a "
                                     f"{'/'.join(sorted(schema.param_types[0]))}, not an agent type: name it with "
                                     "agent-types (the pragma or the option)")
        return self

    def is_navigation(self, action: GroundAction) -> bool:
        """definitions section 6: by pragma (exactly its schemas), else decided on the ground step."""
        return is_navigation(action, self.navigation_actions)

    @property
    def notes(self) -> tuple[str, ...]:
        """What was read and dropped from the file, and why no interdependence can be found in it, to be
        said once (definitions section 1; :attr:`negative_links_note`)."""
        found = []
        if self.cost_functions:
            costs = ", ".join(sorted(self.cost_functions))
            found.append(f"{self.source}: action costs ({costs}) read and dropped: they change no fact")
        if self.negative_links_note:
            found.append(self.negative_links_note)
        return tuple(found)

    @functools.cached_property
    def negative_links_note(self) -> str | None:
        """Why this domain can have no interdependence, when one agent's action can affect another's only
        through a negative precondition (a door one opens, ``(not (locked ?d))``, that the other needs
        open): definitions section 3 links steps on positive preconditions only. None when some positive
        precondition may link two agents (or nothing links them at all).

        Decided on the schemas: an added atom and a needed atom of one predicate (not ignored) may link
        two agents unless both actions have an actor and both atoms hold it at the same argument (then
        the fact is one agent's own, such as ``(at ?a ?c)`` for a move); a precondition link through an
        environment action may always reach another agent."""
        def crossing(needed: Iterable[tuple[Schema, Template]], made: Iterable[tuple[Schema, Template]]) -> set[str]:
            made = list(made)
            return {pred for s, (pred, terms) in needed for t, (other, made_terms) in made
                    if pred == other and pred not in self.ignore_predicates
                    and not _own_fact(s, terms, t, made_terms)}

        schemas = list(self.schemas.values())
        adds = [(t, atom) for t in schemas for atom in t.add]
        if crossing(((s, atom) for s in schemas for atom in s.pre), adds):
            return None
        negative = crossing(((s, atom) for s in schemas for atom in s.neg_pre),
                            adds + [(t, atom) for t in schemas for atom in t.delete])
        if not negative:
            return None
        return (f"{self.source}: no interdependence can be found here: one agent's action affects another's only "
                f"through negative preconditions ({', '.join(f'(not ({p} ...))' for p in sorted(negative))}), and "
                "interdependencies are causal links on positive preconditions (definitions section 3)")

    def declared_types(self) -> frozenset[str]:
        """Every type name the domain declares, ``object`` included."""
        return frozenset(self.parents) | frozenset(self.parents.values()) | {ROOT_TYPE}

    def type_names(self) -> frozenset[str]:
        """Every type name: the declared ones and the agent predicates read as types (definitions section 1)."""
        return self.declared_types() | self.agent_predicates

    def with_pragmas(self, pragmas: Mapping[str, Iterable[str]]) -> Domain:
        """This domain with more pragma names (as the CLI adds them), checked; more agent types make
        the actors of the schemas again."""
        extra = {key: frozenset(n.lower() for n in names) for key, names in pragmas.items()}
        _check_pragma_names(self, extra, where=None)
        if not any(extra.values()):
            return self
        domain = dataclasses.replace(
            self,
            agent_types=self.agent_types | extra.get("agent-types", frozenset()),
            navigation_actions=self.navigation_actions | extra.get("navigation-actions", frozenset()),
            position_predicates=self.position_predicates
            | extra.get("position-predicates", frozenset()),
            ignore_predicates=self.ignore_predicates | extra.get("ignore-predicates", frozenset()),
        )
        if domain.agent_types == self.agent_types:
            return domain
        return dataclasses.replace(domain, schemas={name: domain.with_actor(schema)
                                                    for name, schema in domain.schemas.items()})

    def with_actor(self, schema: Schema) -> Schema:
        """``schema`` with its parameters of agent predicates declared of them and its actor, both from
        this domain's agent types (definitions section 1)."""
        param_types = agent_parameters(schema.params, schema.param_types, schema.pre, self.agent_predicates)
        return dataclasses.replace(schema, param_types=param_types, actor=self.actor_position(param_types))

    def width(self, obj_type: str) -> int:
        """The most parameters of one action that can hold an object of ``obj_type`` (at least 1)."""
        found = self._widths.get(obj_type)
        if found is None:
            ancestors = self.ancestors(obj_type)
            found = self._widths[obj_type] = max([sum(not ancestors.isdisjoint(types) for types in schema.param_types)
                                                  for schema in self.schemas.values()] + [1])
        return found

    @functools.cached_property
    def _widths(self) -> dict[str, int]:
        """:meth:`width` by type, as asked."""
        return {}

    @functools.cached_property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action adds or deletes: their facts only ever come from the initial state."""
        changed = {pred for s in self.schemas.values() for pred, _ in s.add + s.delete}
        return frozenset(self.predicates) - changed


def agent_parameters(params: tuple[str, ...], param_types: tuple[frozenset[str], ...], pre: Iterable[Template],
                     predicates: frozenset[str]) -> tuple[frozenset[str], ...]:
    """The types of an action's parameters when ``predicates`` (static unary ones) name agents in a domain
    without types (definitions section 1): a parameter of which the precondition holds some of them is declared of
    those (an ``either`` of them), any other keeps its type (``object``). Written again from the precondition
    each time, so naming more agent predicates later gives the same as naming them all at once."""
    held: dict[int, set[str]] = {}
    for pred, terms in pre:
        if pred in predicates and isinstance(terms[0], int):
            held.setdefault(terms[0], set()).add(pred)
    return tuple(frozenset(held[i]) if i in held else types - predicates or frozenset({ROOT_TYPE})
                 for i, types in enumerate(param_types[:len(params)]))


def _own_fact(needs: Schema, needed: tuple[Term, ...], makes: Schema, made: tuple[Term, ...]) -> bool:
    """Whether a fact ``makes`` adds (or deletes) as ``made`` and ``needs`` needs as ``needed`` is always one
    agent's own when they meet: both actions have actors, held at the same argument of the atom."""
    return needs.actor is not None and makes.actor is not None and any(
        a == needs.actor and b == makes.actor for a, b in zip(needed, made))


def is_navigation(action: GroundAction, named: frozenset[str]) -> bool:
    """definitions section 6: with the ``navigation-actions`` pragma (``named``), exactly its schemas; else a step of
    an agent is navigation when every fact its ground action adds or deletes mentions its actor, decided on
    the step, not the schema (handing an item to oneself is navigation, to another agent not); one that
    adds and deletes nothing (a wait) is navigation too. An environment step is never a sub-task either way."""
    if named:
        return action.name in named
    actor = action.actor
    return actor is not None and all(actor in fact[1:] for facts in (action.add, action.delete) for fact in facts)


def _ancestors(parents: Mapping[str, str], obj_type: str) -> frozenset[str]:
    found = {obj_type, ROOT_TYPE}
    while obj_type in parents and parents[obj_type] not in found:
        obj_type = parents[obj_type]
        found.add(obj_type)
    return frozenset(found)


def packaged_domain(name: str) -> Path:
    """The path of a domain shipped with strips_int (``domains/NAME.pddl``, installed as package data)."""
    import importlib.resources  # only here: with tempfile and shutil, 6-8 ms of imports a domain path needs not

    folder = importlib.resources.files("strips_int.domains")
    path = Path(str(folder / f"{name}.pddl"))
    if not path.is_file():
        known = sorted(p.name.removesuffix(".pddl") for p in folder.iterdir() if p.name.endswith(".pddl"))
        meant = closest(name, known)
        raise StripsIntError(name, None, "no such file, nor a packaged domain ("
                             + (f"did you mean {meant}? " if meant else "") + f"packaged: {', '.join(known)})")
    return path


def domain_file(path: str | Path) -> Path:
    """``path`` itself, or the packaged domain it names (``"overcooked"``, ``"sar"``) when no such file exists."""
    path = Path(path)
    if not path.exists() and path.suffix == "" and len(path.parts) == 1:
        return packaged_domain(path.name)
    return path


def as_domain(domain: Domain | str | Path, function: str = "as_domain") -> Domain:
    """A loaded domain as it is; a path or a packaged name (``"overcooked"``, ``"sar"``) loaded; anything
    else an :class:`~strips_int.errors.ArgumentError` of ``function``'s argument ``domain``."""
    if isinstance(domain, Domain):
        return domain
    return load_domain(path_argument(function, "domain", domain, "a Domain, or a packaged domain's name or a path"))


def domain_argument(function: str, domain: object) -> Domain:
    """``domain`` when it is a loaded :class:`Domain` (``function``'s argument ``domain``), else an
    :class:`~strips_int.errors.ArgumentError`."""
    return of_type(function, "domain", domain, Domain, "a Domain (strips_int.load_domain)")


def load_domain(path: str | Path, pragmas: Mapping[str, Iterable[str]] | None = None) -> Domain:
    """Parse and check a PDDL domain file (or a packaged domain by name, or a folder of CoDMAP's factored
    files: :mod:`.factored`), with its ``; @strips-int`` pragmas and those of ``pragmas`` (as the CLI adds
    them: ``{"agent-types": ["truck", "airplane"]}``).

    A domain with no agent type is refused, with how to name them (definitions section 1). Compiled once: the
    result is kept in the on-disk cache (:mod:`strips_int.model.domain_cache`), keyed by the file's bytes,
    so later processes skip the parser (0.1-0.2 s).

    Parameters:
        path: a PDDL domain file, or a packaged domain's name (``"overcooked"``, ``"sar"``, ``"hanabi"``).
        pragmas: pragma names to add, by pragma (``agent-types``, ``navigation-actions``, ...).

    Returns:
        The checked domain.
    """
    path = domain_file(path_argument("load_domain", "path", path))
    pragmas = _pragmas_argument(pragmas)
    domain = factored_domain(path) if path.is_dir() else compiled_domain(path)
    return domain.with_pragmas(pragmas).check_agents()



def factored_domain(folder: Path) -> Domain:
    """The union of the agents' domain files of ``folder``, CoDMAP's factored MA-PDDL (:mod:`.factored`):
    every type, constant, predicate and action once, each action's first parameter its actor (as an
    ``:agent`` line); unchecked for agents, as :func:`compiled_domain`."""
    parts = [(files.domain.name, compiled_domain(files.domain)) for files in agent_files(folder)]
    first = parts[0][1]

    def joined(field: str, what: str, same=lambda a, b: a == b) -> dict:
        return union(folder, ((name, getattr(part, field)) for name, part in parts), what, same)

    def pragma(field: str) -> frozenset[str]:
        return frozenset().union(*(getattr(part, field) for _, part in parts))

    schemas = joined("schemas", "action", same=lambda a, b: dataclasses.replace(a, params=b.params) == b)
    merged = dataclasses.replace(
        first, name=one_name(folder, ((name, part.name) for name, part in parts), "domain"), source=str(folder),
        parents=joined("parents", "type"), constants=joined("constants", "constant"),
        predicates=joined("predicates", "predicate"), schemas=schemas,
        navigation_actions=pragma("navigation_actions"), position_predicates=pragma("position_predicates"),
        ignore_predicates=pragma("ignore_predicates"), agent_types=pragma("agent_types"),
        cost_functions=pragma("cost_functions"), agent_lines=frozenset(schemas),
    )
    _check_hierarchy(merged.parents, str(folder))
    merged = dataclasses.replace(merged, type_ancestors=_type_ancestors(merged.parents))
    return dataclasses.replace(merged, schemas={name: merged.with_actor(s) for name, s in schemas.items()})


def compiled_domain(path: Path) -> Domain:
    """The domain file ``path`` parsed and compiled, without the pragmas of a command line nor their checks;
    kept in the on-disk cache by the file's bytes (:func:`load_domain`)."""
    source = str(path)
    data = read_bytes(path, MAX_PDDL_BYTES)
    cached = domain_cache.load("domain", data)
    domain = None
    if cached is not None:
        try:
            domain = domain_from_json(cached, source)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # a damaged or foreign entry: compiled again and rewritten
    if domain is None:
        domain = parse_domain(decode(data, source), source)
        domain_cache.store("domain", data, domain_to_json(domain))
    return domain


def _pragmas_argument(pragmas: object) -> dict[str, tuple[str, ...]]:
    """:func:`load_domain`'s ``pragmas``: None, or pragma keys mapped to names (each a list of strings)."""
    fits = pragmas is None or (isinstance(pragmas, Mapping) and all(
        key in PRAGMA_KEYS and isinstance(names, Iterable) and not isinstance(names, (str, bytes, Mapping))
        for key, names in pragmas.items()))
    argument("load_domain", "pragmas", pragmas, fits, f"None or a dict of pragma keys ({', '.join(PRAGMA_KEYS)}) "
             "to lists of names")
    found = {key: tuple(names) for key, names in (pragmas or {}).items()}  # type: ignore[union-attr]
    argument("load_domain", "pragmas", pragmas, all(isinstance(n, str) for names in found.values() for n in names),
             "names as strings")
    return found


def read_pragmas(text: str, source: str) -> list[tuple[int, str, frozenset[str]]]:
    """The ``; @strips-int KEY: NAME...`` comment lines of a domain's text: line number, key and names
    (the names are checked against the compiled domain)."""
    found = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        match = _PRAGMA.search(line)
        if match is None:
            continue
        key, names = match.group(1).lower(), frozenset(match.group(2).lower().split())
        if key not in PRAGMA_KEYS:
            raise StripsIntError(
                source, f"line {lineno}", f"unknown pragma {brief(key)} (known: {', '.join(PRAGMA_KEYS)})"
            )
        found.append((lineno, key, names))
    return found


def parse_domain(text: str, source: str) -> Domain:
    """Parse and check a domain's PDDL text (see :func:`load_domain`; the text as published, :mod:`.published`)."""
    lines = read_pragmas(text, source)
    pragmas: dict[str, frozenset[str]] = {}
    for _, key, names in lines:
        pragmas[key] = pragmas.get(key, frozenset()) | names
    prepared = readable(text)
    parsed = parse(domain_parser(), prepared.text, source)
    dropped = dropped_by_pddl(text)
    if dropped is not None:
        raise StripsIntError(source, f"line {dropped[0]}", dropped[1])
    parents = unique(source, "type", ((single_type([t]), single_type([p]) if p else ROOT_TYPE)
                                       for t, p in parsed.types.items()))
    parents.pop(ROOT_TYPE, None)
    _check_hierarchy(parents, source)
    constants = unique(source, "constant", ((str(c.name).lower(), single_type(c.type_tags)) for c in parsed.constants))
    predicates = unique(source, "predicate", ((str(p.name).lower(), tuple(types_of(t.type_tags) for t in p.terms))
                                               for p in parsed.predicates))
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
        type_ancestors=_type_ancestors(parents),
        agent_types=pragmas.get("agent-types", frozenset()),
        cost_functions=frozenset(str(f.name).lower() for f in parsed.functions),
        agent_lines=prepared.agent_lines,
    )
    schemas = unique(source, "action", ((schema.name, schema) for schema in
                                         (_compile(partial, a, source) for a in sorted(parsed.actions, key=lambda a: str(a.name)))))
    domain = dataclasses.replace(partial, schemas=schemas)
    for lineno, key, names in lines:
        _check_pragma_names(domain, {key: names}, where=f"line {lineno}")
    if domain.agent_predicates:  # known only once every schema is compiled (which predicates are static)
        domain = dataclasses.replace(domain, schemas={name: domain.with_actor(s) for name, s in schemas.items()})
    return dataclasses.replace(
        domain,
        navigation_actions=pragmas.get("navigation-actions", frozenset()),
        position_predicates=pragmas.get("position-predicates", frozenset()),
        ignore_predicates=pragmas.get("ignore-predicates", frozenset()),
    )


def domain_to_json(domain: Domain) -> dict[str, Any]:
    """The compiled domain as JSON (for the cache; sets as sorted lists, order of dicts kept)."""
    return {
        "name": domain.name,
        "parents": dict(domain.parents),
        "constants": dict(domain.constants),
        "predicates": {p: [sorted(types) for types in args] for p, args in domain.predicates.items()},
        "schemas": [
            {"name": s.name, "params": list(s.params), "param_types": [sorted(t) for t in s.param_types],
             "pre": _templates_json(s.pre), "neg_pre": _templates_json(s.neg_pre), "add": _templates_json(s.add),
             "delete": _templates_json(s.delete), "equal": [list(e) for e in s.equal],
             "unequal": [list(e) for e in s.unequal], "actor": s.actor}
            for s in domain.schemas.values()
        ],
        **{key: sorted(getattr(domain, _FIELD[key])) for key in PRAGMA_KEYS},
        "cost_functions": sorted(domain.cost_functions),
        "agent_lines": sorted(domain.agent_lines),
    }


def domain_from_json(data: Any, source: str) -> Domain:
    """The domain :func:`domain_to_json` wrote; a value of the wrong shape raises TypeError or ValueError."""

    def names(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError("expected a list of names")
        return tuple(value)

    def mapping(value: Any) -> dict[str, str]:
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise TypeError("expected an object of names")
        return dict(value)

    def schema(value: dict) -> Schema:
        params = names(value["params"])

        def terms(items: Any) -> tuple[Term, ...]:
            if not isinstance(items, list) or not all(
                    (isinstance(t, int) and not isinstance(t, bool) and 0 <= t < len(params))
                    or (isinstance(t, str) and t in constants) for t in items):
                raise ValueError("a term is neither a parameter position nor a constant")
            return tuple(items)

        def templates(items: Any) -> tuple[Template, ...]:
            return tuple((pred, terms(args)) for pred, args in items if pred in predicates)

        actor = value["actor"]
        if actor is not None and not (isinstance(actor, int) and 0 <= actor < len(params)):
            raise ValueError("the actor is not a parameter position")
        compiled = Schema(
            name=value["name"], params=params, param_types=tuple(frozenset(names(t)) for t in value["param_types"]),
            pre=templates(value["pre"]), neg_pre=templates(value["neg_pre"]), add=templates(value["add"]),
            delete=templates(value["delete"]), equal=tuple(terms(e) for e in value["equal"]),
            unequal=tuple(terms(e) for e in value["unequal"]), actor=actor,
        )
        if (len(compiled.param_types) != len(params) or not isinstance(compiled.name, str)
                or any(len(e) != 2 for e in compiled.equal + compiled.unequal)
                or sum(map(len, (compiled.pre, compiled.neg_pre, compiled.add, compiled.delete)))
                != sum(len(value[k]) for k in ("pre", "neg_pre", "add", "delete"))):
            raise ValueError("a schema does not fit together")
        return compiled

    if not isinstance(data["name"], str):
        raise TypeError("the domain's name is not a string")
    parents, constants = mapping(data["parents"]), mapping(data["constants"])
    predicates = {p: tuple(frozenset(names(t)) for t in args) for p, args in data["predicates"].items()}
    schemas = {s.name: s for s in map(schema, data["schemas"])}
    return Domain(
        name=data["name"], source=source, parents=parents, constants=constants, predicates=predicates,
        schemas=schemas, **{_FIELD[key]: frozenset(names(data[key])) for key in PRAGMA_KEYS},
        type_ancestors=_type_ancestors(parents), cost_functions=frozenset(names(data["cost_functions"])),
        agent_lines=frozenset(names(data["agent_lines"])).intersection(schemas),
    )


def _templates_json(templates: tuple[Template, ...]) -> list:
    return [[pred, list(terms)] for pred, terms in templates]


def _check_hierarchy(parents: Mapping[str, str], source: str) -> None:
    """A type that is its own ancestor is an error (pddl checks names as written, not lower-cased)."""
    for start in sorted(parents):
        chain = [start]
        while chain[-1] in parents and chain[-1] != ROOT_TYPE:
            chain.append(parents[chain[-1]])
            if chain[-1] in chain[:-1]:
                shown = " -> ".join(cut(t) for t in chain[chain.index(chain[-1]):])
                raise StripsIntError(source, "(:types ...)", f"the type hierarchy has a cycle: {shown}")


def _type_ancestors(parents: Mapping[str, str]) -> dict[str, frozenset[str]]:
    return {t: _ancestors(parents, t) for t in set(parents) | set(parents.values())}


def _check_pragma_names(domain: Domain, pragmas: Mapping[str, frozenset[str]], where: str | None):
    for key, names in pragmas.items():
        if key not in PRAGMA_KEYS:
            raise StripsIntError(domain.source, where, f"unknown pragma {brief(key)}")
        if key == "agent-types":
            _check_agent_names(domain, names, where)
            continue
        known, kind = {"navigation-actions": (domain.schemas, "action")}.get(key, (domain.predicates, "predicate"))
        for name in sorted(names - set(known)):
            raise StripsIntError(domain.source, where, f"{key}: no {kind} named {brief(name)} in the domain")


def _check_agent_names(domain: Domain, names: frozenset[str], where: str | None) -> None:
    """Each name of ``agent-types`` is a type, or, in a domain written without types, a static unary
    predicate (definitions section 1); else an error naming both possibilities and what the name is instead."""
    types = domain.declared_types() - {ROOT_TYPE}
    for name in sorted(names - types):
        if name in domain.unary_statics and not types:
            continue
        if name in domain.unary_statics:
            why = (f"is a predicate, not a type: a static unary predicate names agents only in a domain written "
                   f"without types, and this one declares types ({cut(' '.join(sorted(types)), 120)}): name a type")
        else:
            arity = len(domain.predicates.get(name, ()))
            what = ("is no type nor predicate of the domain" if name not in domain.predicates
                    else f"is a predicate of {arity} arguments, not one" if arity != 1
                    else "is a predicate that actions add or delete, not a static one")
            statics = sorted(domain.unary_statics) if not types else []
            why = (f"{what}: name a type ({cut(' '.join(sorted(types)), 120) or 'it declares none'}) or, in a domain "
                   f"written without types, a static unary predicate (one no action adds or deletes"
                   + (f": {cut(' '.join(statics), 120)})" if statics else ")"))
        raise StripsIntError(domain.source, where, f"agent-types: {brief(name)} {why}")


def _action_cost(effect, functions: frozenset[str]) -> bool:
    """Whether ``effect`` is an action cost, ``(increase (total-cost) N)`` with N a number or a function of
    the domain (PDDL 3.1's :action-costs): dropped, as it changes no fact (definitions section 1)."""
    from pddl.logic.functions import Increase, NumericFunction, NumericValue

    if not isinstance(effect, Increase) or len(effect.operands) != 2:
        return False
    target, amount = effect.operands
    return (isinstance(target, NumericFunction) and str(target.name).lower() == TOTAL_COST
            and (isinstance(amount, NumericValue) or isinstance(amount, NumericFunction)
                 and str(amount.name).lower() in functions))


def _compile(domain: Domain, action, source: str) -> Schema:
    """Turn a `pddl` action into a :class:`Schema`, rejecting what STRIPS cannot say."""
    from pddl.logic.base import Not
    from pddl.logic.predicates import EqualTo, Predicate
    from pddl.logic.terms import Constant, Variable

    name = str(action.name).lower()
    where = f"action {cut(name)}"
    params = tuple(str(p.name).lower() for p in action.parameters)
    param_types = tuple(types_of(p.type_tags) for p in action.parameters)
    position = unique(source, f"{where}: parameter", ((p, i) for i, p in enumerate(params)))

    def term(t) -> Term:
        if isinstance(t, Variable):
            key = str(t.name).lower()
            if key not in position:
                raise StripsIntError(source, where, f"?{brief(key)} is not a parameter")
            return position[key]
        if isinstance(t, Constant):
            key = str(t.name).lower()
            if key not in domain.constants:
                raise StripsIntError(source, where, f"{brief(key)} is not a declared constant")
            return key
        raise StripsIntError(source, where, f"unsupported term {cut(str(t))}")

    def atom(p) -> Template:
        pred = str(p.name).lower()
        if pred not in domain.predicates:
            raise StripsIntError(source, where, f"undeclared predicate {brief(pred)} in {cut(str(p))}")
        if len(p.terms) != len(domain.predicates[pred]):
            raise StripsIntError(
                source, where, f"{cut(str(p))} has {len(p.terms)} arguments, {pred} takes {len(domain.predicates[pred])}"
            )
        return pred, tuple(term(t) for t in p.terms)

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
            raise StripsIntError(source, where, f"precondition {cut(str(lit))} is not STRIPS: "
                                 "preconditions are conjunctions of literals (no or, exists, forall, imply)")
    add, delete = [], []
    for lit in conjuncts(action.effect):
        if isinstance(lit, Predicate):
            add.append(atom(lit))
        elif isinstance(lit, Not) and isinstance(lit.argument, Predicate):
            delete.append(atom(lit.argument))
        elif not _action_cost(lit, domain.cost_functions):
            raise StripsIntError(source, where, f"effect {cut(str(lit))} is not STRIPS: effects are conjunctions "
                                 "of literals (no when, forall or numbers but action costs)")
    actor = domain.actor_position(param_types)
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


