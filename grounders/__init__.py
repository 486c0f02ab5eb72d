"""Grounders: lift raw environment logs into a PDDL problem and a strips_int trace.

Installed as ``strips_int.grounders``. The registry holds the built-in
grounders (each subpackage here with a module-level ``GROUNDER``: Overcooked,
SAR, ...) and those of other packages, which declare an entry point in the
group ``strips_int.grounders`` naming their grounder (or a module with a
``GROUNDER``); both are loaded on first use, once.

:func:`read_input` is the boundary: whatever a grounder (or its recognizer)
raises for one input comes out as that input's :class:`StripsIntError`,
``KeyboardInterrupt`` excepted.
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
import sys
from importlib.machinery import PathFinder
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from strips_int.errors import StripsIntError, internal_error

from .base import GAMES, START, Alternative, BaseGrounder, Drawing, Grounder, Kind, Option, check_actions

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.task import Problem
    from strips_int.model.trace import Trace

__all__ = ["GAMES", "START", "Alternative", "BaseGrounder", "Drawing", "Grounder", "Kind", "Option", "all_options",
           "check_options", "commands", "drawing_for", "grounder_for", "kind_of", "read_input", "register", "registered",
           "start_alternatives", "start_names"]

ENTRY_POINTS = "strips_int.grounders"
_added: dict[str, Grounder] = {}


def _loaded(value: Any) -> Grounder:
    return getattr(value, "GROUNDER", value)


def entry_points(group: str) -> Iterable[Any]:
    """The installed packages' entry points in ``group``, by importlib.metadata (some 20 ms of imports
    and scanning per process), which is loaded only when some package may declare one."""
    if not may_declare(group):
        return ()
    from importlib import metadata

    return metadata.entry_points(group=group)


def may_declare(group: str) -> bool:
    """False when no distribution importlib.metadata would find declares ``group``: no
    ``entry_points.txt`` of a ``*.dist-info`` or ``*.egg-info`` folder on ``sys.path`` mentions it
    (2 ms). By hand, as a cheap proof of absence only: what it cannot look into (a zip or an egg on
    the path, a finder with distributions of its own) counts as a yes, and importlib.metadata decides."""
    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return True
    mention = group.encode()
    for entry in sys.path:
        if not isinstance(entry, str) or entry.lower().endswith(".egg"):
            return True
        try:
            children = os.listdir(entry or ".")
        except OSError:
            if os.path.exists(entry):  # a zip, or a folder we may not list
                return True
            continue
        for child in children:
            if child.lower().endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(entry, child, "entry_points.txt"), "rb") as handle:
                        if mention in handle.read():
                            return True
                except OSError:  # none, or an .egg-info file (no entry points)
                    pass
    return False


@functools.cache
def _found() -> dict[str, Grounder]:
    """Built-ins (subpackages with a ``GROUNDER``, by name), then the entry points of installed packages."""
    packages = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)
    modules = [importlib.import_module(f"{__name__}.{name}") for name in packages]
    found = [m.GROUNDER for m in modules if hasattr(m, "GROUNDER")]
    found += [_loaded(point.load()) for point in entry_points(group=ENTRY_POINTS)]
    return {g.name: g for g in found}


def register(grounder: Grounder) -> None:
    """Add (or replace) a grounder by its name, e.g. from a notebook or a test."""
    _added[grounder.name] = grounder


def registered() -> dict[str, Grounder]:
    """Every grounder by name: built-ins, entry points, then those given to :func:`register`."""
    return {**_found(), **_added}


def grounder_for(path: str | Path) -> Grounder | None:
    """The first grounder that recognizes ``path``, or None (then it should be a strips-int trace).

    Parameters:
        path: a game file.

    Returns:
        The grounder that reads it, or None.
    """
    found = kind_of(path)
    return None if found is None else found[0]


def kind_of(path: str | Path) -> tuple[Grounder, Kind] | None:
    """The first grounder that recognizes ``path`` and what the file is to it (games, or a start problem)."""
    path = path if isinstance(path, Path) else Path(path)  # once: a Path built again parses its parts again
    for grounder in registered().values():
        kind = grounder.recognizes(path)
        if kind:
            return grounder, kind
    return None


def commands() -> dict[str, tuple[str, str]]:
    """The grounders' own command lines: subcommand -> (module whose ``main`` runs it, one-line help)."""
    found: dict[str, tuple[str, str]] = {}
    for grounder in registered().values():
        found.update(getattr(grounder, "commands", {}))
    return found


def drawing_for(domain: str, problem: Problem) -> Drawing | None:
    """How a grounder of ``domain`` (a domain's name) draws a state of ``problem``, or None."""
    for grounder in registered().values():
        draw = getattr(grounder, "drawing", None)
        if grounder.domain == domain and draw is not None:
            found = draw(problem)
            if found is not None:
                return found
    return None


def check_options(paths: Sequence[Path], options: Mapping[str, Any]) -> None:
    """Each grounder's :meth:`~.base.Grounder.check_options` on a batch's files, with the options it declares."""
    for grounder in registered().values():
        check = getattr(grounder, "check_options", None)
        mine = own_options(grounder, options)
        if check is not None and mine:
            check(paths, **mine)


def own_options(grounder: Grounder, options: Mapping[str, Any]) -> dict[str, Any]:
    """Of ``options`` (by ``dest``), those ``grounder`` declares that were given (not None)."""
    return {o.dest: options[o.dest] for o in grounder.options if options.get(o.dest) is not None}


def all_options() -> tuple[Option, ...]:
    """Every grounder's command-line options, once per ``dest`` (the first declaration wins)."""
    seen: dict[str, Option] = {}
    for grounder in registered().values():
        for option in grounder.options:
            seen.setdefault(option.dest, option)
    return tuple(seen.values())


def start_alternatives(grounder: Grounder, name: str, domain: Domain, **options: Any
                       ) -> tuple[Alternative, ...] | None:
    """The start problem of ``name`` as its alternative goals, by the grounder's own ``start_alternatives``,
    else :meth:`BaseGrounder.start_alternatives` (its start problem as the only one); None when it does not
    know ``name``."""
    own = getattr(grounder, "start_alternatives", None)
    if own is not None:
        return own(name, domain, **options)
    return BaseGrounder.start_alternatives(grounder, name, domain, **options)  # type: ignore[arg-type]


def start_names(grounder: Grounder) -> list[str]:
    """The layouts or scenarios the grounder knows by name (none when it does not say)."""
    own = getattr(grounder, "start_names", None)
    return list(own()) if own is not None else []


#: Game-file suffixes a strips-int trace never has: such a file no grounder recognizes is no game at all.
NOT_TRACES = (".csv", ".pkl", ".pickle")


def read_input(
    path: str | Path, domain: Domain, problem: Problem | None = None, **options: Any
) -> Iterator[Trace | StripsIntError]:
    """Each game in one input file as a trace, or as the error that stops it (one bad game hides no other).

    A file no grounder recognizes is read as a strips-int trace (``problem``
    overrides its own). ``options`` are grounder options by ``dest``; each
    grounder gets those it declares that are not None. Any other exception
    raised while reading (a grounder's bug, a RecursionError on a deep file)
    is yielded as an internal error of ``path`` and ends that file.

    Parameters:
        path: one input file.
        domain: the environment's domain.
        problem: the problem of a trace, instead of its own.
        **options: grounder options by ``dest``.

    Returns:
        An iterator of the file's games as traces, or the error that stops each.
    """
    try:
        yield from _read(Path(path), domain, problem, options)
    except Exception as exc:  # the boundary: see the module docstring
        yield internal_error(str(path), "reading", exc)


def _read(path: Path, domain: Domain, problem: Problem | None, options: dict[str, Any]) -> Iterator[Trace | StripsIntError]:
    from strips_int.files import regular_file
    from strips_int.model.trace_file import load_trace

    try:
        regular_file(path)
    except StripsIntError as exc:
        yield exc
        return
    grounder = grounder_for(path)
    if grounder is None and path.suffix.lower() in NOT_TRACES:
        names = ", ".join(registered())
        yield StripsIntError(str(path), None, f"not a game: no grounder ({names}) reads this {path.suffix} file, "
                             "and a strips-int trace is JSON")
        return
    if grounder is None:
        try:
            yield load_trace(path, domain, problem)
        except StripsIntError as exc:
            yield exc
        return
    try:
        check_actions(grounder.actions, domain, grounder.domain, str(path))
    except StripsIntError as exc:
        yield exc
        return
    try:  # a grounder that raises instead of yielding still costs only the rest of its file
        yield from grounder.read(path, domain, **own_options(grounder, options))
    except StripsIntError as exc:
        yield exc
