"""CoDMAP-15's factored MA-PDDL, read as the union of the agents' files (definitions section 1).

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
half). Each file is parsed on its own first, so a syntax error names that file's own line. This module
finds the files and unites mappings; the union of domains is
:func:`strips_int.model.domain.factored_domain`, of problems :func:`strips_int.model.problem.factored_problem`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, TypeVar

from strips_int.errors import StripsIntError, brief, cut

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


def union(folder: Path, parts: Iterable[tuple[str, Mapping[str, V]]], what: str,
          same: Callable[[V, V], bool] = lambda a, b: a == b) -> dict[str, V]:
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


def one_name(folder: Path, parts: Iterable[tuple[str, str]], kind: str) -> str:
    """The one domain or problem name (``kind``) of the agents' files, given as (file name, name); two
    names are an error naming both files."""
    parts = list(parts)
    first_file, first = parts[0]
    for file_name, name in parts[1:]:
        if name != first:
            raise StripsIntError(str(folder), file_name, f"is {kind} {brief(name)}, but {first_file} is {brief(first)}")
    return first

