"""Grounders: lift raw environment logs into a PDDL problem and a strips_int trace.

Installed as ``strips_int.grounders``. The registry holds the built-in
grounders (each subpackage here with a module-level ``GROUNDER``: Overcooked,
SAR, ...) and those of other packages, which declare an entry point in the
group ``strips_int.grounders`` naming their grounder (or a module with a
``GROUNDER``); both are loaded on first use, once.

Grounders never collide: a file goes to the grounder with the strongest claim
on the head every recognizer is shown (:func:`kind_of`), whatever their names;
each declares its own options (:func:`declared`: two may share a flag); a
plug-in's domain is found by its name (:func:`domain_path`).

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
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Literal, Mapping, Sequence

from strips_int.errors import StripsIntError, argument, internal_error, of_type, path_argument

from .base import (CONTAINER, EVIDENCE, GAMES, HEAD_BYTES, SHAPED, START, TAGGED, Alternative, BaseGrounder, Claim,
                   Drawing, Grounder, Head, Kind, Option, check_actions)

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.task import Problem
    from strips_int.model.trace import Trace

__all__ = ["CONTAINER", "GAMES", "HEAD_BYTES", "SHAPED", "START", "TAGGED", "Alternative", "BaseGrounder", "Claim",
           "Drawing", "Grounder", "Head", "Kind", "Option", "check_options", "commands", "declared", "domain_path",
           "drawing_for", "grounder_for", "kind_of", "read_input", "register", "registered",
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
    """Add (or replace) a grounder by its name, e.g. from a notebook or a test. It must follow the protocol
    (:class:`~strips_int.grounders.base.Grounder`): a name and a domain's name (non-empty strings), the
    action names it produces, its options, and the methods ``recognizes`` and ``read``; anything else is an
    :class:`~strips_int.errors.ArgumentError` here, rather than an error at every later read."""
    options = getattr(grounder, "options", ())
    for part, ok in (
            ("name", isinstance(getattr(grounder, "name", None), str) and grounder.name != ""),
            ("domain", isinstance(getattr(grounder, "domain", None), str) and grounder.domain != ""),
            ("actions", isinstance(getattr(grounder, "actions", None), (set, frozenset))
             and all(isinstance(a, str) for a in grounder.actions)),
            ("options", isinstance(options, tuple) and all(isinstance(o, Option) for o in options)),
            ("recognizes", callable(getattr(grounder, "recognizes", None))),
            ("read", callable(getattr(grounder, "read", None)))):
        argument("register", "grounder", grounder, ok, f"a Grounder (strips_int.grounders.base.Grounder), with "
                 f"{part} as the protocol has it")
    _added[grounder.name] = grounder


def registered() -> dict[str, Grounder]:
    """Every grounder by name: built-ins, entry points, then those given to :func:`register`."""
    return {**_found(), **_added}


def grounder_for(path: str | Path) -> Grounder | None:
    """The grounder that recognizes ``path`` (see :func:`kind_of`), or None (then it should be a strips-int trace);
    a FIFO, device or socket is no grounder's (none is opened: a FIFO would block).

    Parameters:
        path: a game file.

    Returns:
        The grounder that reads it, or None.
    """
    found = kind_of(path_argument("grounder_for", "path", path))
    return None if found is None else found[0]


def kind_of(path: str | Path) -> tuple[Grounder, Kind] | None:
    """The grounder that recognizes ``path`` with the strongest evidence, and what the file is to it (games,
    or a start problem); None when none does (or the file cannot be read: reading it says why).

    Every recognizer is shown the same :class:`~.base.Head`, read once, so neither the grounders' order
    nor their number changes the answer or what is read; two claims of the same strongest evidence are
    one error naming both grounders.
    """
    try:
        head = Head.of(path)
    except StripsIntError:
        return None
    claims = []
    for grounder in registered().values():
        claim = grounder.recognizes(head)
        if claim:
            claims.append((grounder, claim if isinstance(claim, Claim) else Claim(claim, SHAPED)))
    if not claims:
        return None
    strongest = max(claim.strength for _, claim in claims)
    tied = [(grounder, claim) for grounder, claim in claims if claim.strength == strongest]
    if len(tied) > 1:
        names = " and ".join(grounder.name for grounder, _ in tied[:2])
        raise StripsIntError(str(path), None, f"two grounders claim this file, {names}: for each it "
                             f"{EVIDENCE.get(strongest, f'has evidence {strongest}')} (its format is ambiguous)")
    return tied[0][0], tied[0][1].kind


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


def declared(use: Literal["read", "start"] | None = None) -> dict[str, list[tuple[Grounder, Option]]]:
    """Each command-line flag the grounders declare for ``use`` (``read``: games; ``start``: rc; None: any),
    with every grounder that declares it and its own :class:`Option`, in registry order.

    A flag is no shared destination: two grounders may both declare ``--layout``, each with its own
    ``dest``, type and help; the command line gives the value to the grounder its command is about
    (:mod:`strips_int.cli.contract`), converted by that grounder's own type."""
    found: dict[str, list[tuple[Grounder, Option]]] = {}
    for grounder in registered().values():
        for option in grounder.options:
            if use is None or option.use in (use, "both"):
                found.setdefault(option.flag, []).append((grounder, option))
    return found


def domain_path(name: str | Path) -> str | Path:
    """``name`` itself, or the PDDL file of a registered grounder whose domain it names (an installed
    plug-in's ``domain_file``): a domain by name is a file, else a packaged one (``domains/NAME.pddl``,
    which ``load_domain`` resolves), else a plug-in's."""
    from strips_int.model.domain import packaged_domain

    if not Path(name).exists() and len(Path(name).parts) == 1:
        try:
            return packaged_domain(str(name))
        except StripsIntError:
            pass
        for grounder in registered().values():
            own = getattr(grounder, "domain_file", None)
            if grounder.domain == str(name) and own is not None:
                return own
    return name


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
    from strips_int.model.domain import domain_argument
    from strips_int.model.task import Problem

    path = path_argument("read_input", "path", path)
    domain_argument("read_input", domain)
    of_type("read_input", "problem", problem, (Problem, type(None)), "None or a Problem (strips_int.load_problem)")
    return _read_input(path, domain, problem, options)


def _read_input(path: Path, domain: Domain, problem: Problem | None, options: dict[str, Any]
                ) -> Iterator[Trace | StripsIntError]:
    try:
        yield from _read(path, domain, problem, options)
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
    try:
        grounder = grounder_for(path)
    except StripsIntError as exc:  # two grounders claim it equally
        yield exc
        return
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
