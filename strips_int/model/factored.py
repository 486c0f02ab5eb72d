"""CoDMAP-15's factored MA-PDDL, read as the union of the agents' files (SPEC section 1).

A factored problem is a folder holding, for each agent, ``domain-AGENT.pddl`` (the actions that agent
takes, the predicates it knows, its private ones in a ``(:private ...)`` group) and ``problem-AGENT.pddl``
(the objects and facts it knows, its private objects in a ``(:private ...)`` group), as CoDMAP-15
distributed them. It is given where a domain file or a problem file goes (``check FOLDER PLAN --problem
FOLDER``) and read as one unfactored problem:

* the domain: every type, constant, predicate and action of the agents' domain files, each once. An
  action is the same in every file that has it (parameters may be named differently), as are a type's
  parent, a constant's type and a predicate's arguments; a difference is an error naming both files;
* each action's first parameter is its actor, as an unfactored file's ``:agent`` line (so, as there, its
  type must be an agent type: ``agent`` or one ``--agent-types`` names);
* the problem: every object and fact, private or public, of the agents' problem files, each once; an
  object is of one type, and the problem's name and its goal are the union of the files';
* every agent's actions with that agent as actor: the agent a file is named for is an object of the
  problem, of a type its actions' actors may have, and an agent takes only the actions of its own domain
  file. strips_int's actions are typed, not per object, so every agent whose type may take an action
  must have it in its file (CoDMAP's agents of one type share their actions); an agent of such a type
  without a file, or whose file lacks the action, is an error rather than an agent given actions it does
  not have.

Any other ``.pddl`` file in the folder is an error (a folder mixing factored and other files is not read
half). Each file is parsed on its own first, so a syntax error names that file's own line.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, TypeVar

from strips_int.errors import StripsIntError, brief, cut

from .domain import Domain, Schema, compiled_domain
from .problem import load_problem, make_problem
from .task import Problem

_FILE = re.compile(r"(domain|problem)-(.+)\.pddl", re.IGNORECASE)
V = TypeVar("V")


@dataclass(frozen=True)
class AgentFiles:
    """One agent's pair of files in a factored folder."""

    agent: str
    domain: Path
    problem: Path


def agent_files(folder: Path) -> list[AgentFiles]:
    """The ``domain-AGENT.pddl`` / ``problem-AGENT.pddl`` pairs of ``folder``, by agent; a file without its
    pair, another ``.pddl`` file, or no pair at all is an error naming the folder."""
    found: dict[str, dict[str, Path]] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() != ".pddl":
            continue
        match = _FILE.fullmatch(path.name)
        if match is None:
            raise StripsIntError(str(folder), path.name, "a folder of factored MA-PDDL holds only domain-AGENT.pddl "
                                 "and problem-AGENT.pddl files (CoDMAP-15's names), one of each per agent")
        kind, agent = match.group(1).lower(), match.group(2).lower()
        if kind in found.setdefault(agent, {}):
            raise StripsIntError(str(folder), path.name, f"a second {kind} file of agent {cut(agent)} "
                                 f"(the first: {found[agent][kind].name})")
        found[agent][kind] = path
    if not found:
        raise StripsIntError(str(folder), None, "no domain-AGENT.pddl and problem-AGENT.pddl files: a folder given "
                             "as a domain or a problem holds CoDMAP-15's factored MA-PDDL")
    for agent, pair in sorted(found.items()):
        for kind in ("domain", "problem"):
            if kind not in pair:
                other = next(iter(pair.values()))
                raise StripsIntError(str(folder), other.name, f"has no {kind}-{agent}.pddl beside it")
    return [AgentFiles(agent, pair["domain"], pair["problem"]) for agent, pair in sorted(found.items())]


def factored_domain(folder: Path) -> Domain:
    """The union of the agents' domain files of ``folder`` (see the module docstring), unchecked for agents
    (:func:`~strips_int.model.domain.load_domain` adds the command line's pragmas and checks them)."""
    parts = [(files.domain.name, compiled_domain(files.domain)) for files in agent_files(folder)]
    first_file, first = parts[0]
    for name, part in parts[1:]:
        if part.name != first.name:
            raise StripsIntError(str(folder), name, f"is domain {brief(part.name)}, but {first_file} is {brief(first.name)}")

    def union(field: str, what: str, same=lambda a, b: a == b) -> dict:
        return _union(folder, ((name, getattr(part, field)) for name, part in parts), what, same)

    def pragma(field: str) -> frozenset[str]:
        return frozenset().union(*(getattr(part, field) for _, part in parts))

    schemas = union("schemas", "action", same=_same_schema)
    merged = Domain(
        name=first.name, source=str(folder), parents=union("parents", "type"), constants=union("constants", "constant"),
        predicates=union("predicates", "predicate"), schemas=schemas,
        navigation_actions=pragma("navigation_actions"), position_predicates=pragma("position_predicates"),
        ignore_predicates=pragma("ignore_predicates"), agent_types=pragma("agent_types"),
        cost_functions=pragma("cost_functions"), agent_lines=frozenset(schemas),
    )
    merged = dataclasses.replace(merged, type_ancestors={t: merged.ancestors(t) for t in merged.declared_types()})
    return dataclasses.replace(merged, schemas={name: merged.with_actor(s) for name, s in schemas.items()})


def factored_problem(domain: Domain, folder: Path) -> Problem:
    """The union of the agents' problem files of ``folder``, each read against ``domain`` (the union of
    their domain files), with every agent's actions its own (see the module docstring)."""
    files = agent_files(folder)
    parts = [(f.problem.name, load_problem(domain, f.problem)) for f in files]
    first_file, first = parts[0]
    for name, part in parts[1:]:
        if part.name != first.name:
            raise StripsIntError(str(folder), name, f"is problem {brief(part.name)}, but {first_file} is {brief(first.name)}")
    objects = _union(folder, ((name, part.objects) for name, part in parts), "object")
    init = frozenset().union(*(part.init for _, part in parts))
    goal = frozenset().union(*(part.goal for _, part in parts))
    problem = make_problem(domain, first.name, objects, init, goal, str(folder))
    _check_actors(domain, problem, files, folder)
    return problem


def _check_actors(domain: Domain, problem: Problem, files: list[AgentFiles], folder: Path) -> None:
    """Every agent's actions with that agent as actor: each file's agent is an object that may act its
    file's actions, and each agent that may act an action by its type has it in its own file."""
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


def _same_schema(a: Schema, b: Schema) -> bool:
    """Two definitions of one action say the same, whatever their parameters are named."""
    return dataclasses.replace(a, params=b.params) == b


def _union(folder: Path, parts: Iterable[tuple[str, Mapping[str, V]]], what: str, same=lambda a, b: a == b) -> dict[str, V]:
    """The union of the named mappings; a key two files give differently is an error naming both."""
    found: dict[str, V] = {}
    where: dict[str, str] = {}
    for file_name, mapping in parts:
        for key, value in mapping.items():
            if key in found and not same(found[key], value):
                raise StripsIntError(str(folder), file_name, f"{what} {cut(key)} differs from its definition in "
                                     f"{where[key]}: the agents' files are read as one domain and problem")
            found.setdefault(key, value)
            where.setdefault(key, file_name)
    return found
