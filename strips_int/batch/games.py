"""Many games at once, lazily: files and folders of raw games or traces, read and analysed one by one.

    for result in analyze_games("overcooked", "user-study/"):
        if isinstance(result, StripsIntError): print(result); continue
        print(result.source, result.counts)
"""

from __future__ import annotations

import itertools
import os
import stat
from pathlib import Path
from typing import Any, Iterable, Iterator

from strips_int.analysis.report import Report, analyze_run
from strips_int.errors import StripsIntError, brief, guarded, of_type, path_argument
from strips_int.model.domain import Domain, as_domain
from strips_int.model.execution import Run, execute
from strips_int.model.problem import load_problem, problem_argument
from strips_int.model.task import Problem
from strips_int.model.trace import Trace

#: File kinds a folder walk picks up (traces, Overcooked JSON, pickles, CSV; and plan files, by content).
GAME_SUFFIXES = (".json", ".pkl", ".pickle", ".csv")


def game_files(paths: Iterable[str | Path], skip: Path | None = None) -> tuple[list[Path], list[Path]]:
    """The given files and every game file under the given folders (a game suffix, a file some
    grounder recognizes, or a plan file), each folder's sorted; and the SAR scenarios a folder walk passed over
    (simulator inputs, not games). A missing path is an error.

    Linked folders are walked, each real folder once (a link to an ancestor does not loop); a file
    reached twice (a folder given twice, two links) is taken once, by the first path; what the walk
    cannot read (a folder, a file, a broken link) is taken as a file, so its error row says why;
    the folder ``skip`` (the run's own output) is not walked."""
    found: list[Path] = []
    scenarios: list[Path] = []
    seen: set[object] = set()
    for path in map(Path, paths):
        if path.is_dir():
            walked = walk(path, skip)
        elif path.exists():  # a file, or a device or FIFO that reading will refuse in its row
            walked = [(path, False, identity(path))]
        else:
            raise StripsIntError(str(path), None, "no such file or folder")
        for file, scenario, same in walked:
            if same not in seen:
                seen.add(same)
                (scenarios if scenario else found).append(file)
    return found, scenarios


def identity(path: Path, status: os.stat_result | None = None) -> object:
    """What makes two paths one file: device and inode (of ``status``, when the caller has it), or the
    real path of what cannot be looked at."""
    try:
        status = status if status is not None else path.stat()
        return (status.st_dev, status.st_ino)
    except OSError:
        return os.path.realpath(path)


def walk(folder: Path, skip: Path | None) -> list[tuple[Path, bool, object]]:
    """The game files under ``folder``, sorted, each with whether it is a SAR scenario (see
    :func:`game_files`) and its :func:`identity`; the folders, files and links it could not read are
    among them. One ``stat`` a file: it says whether the file exists, is a regular file and which it is."""
    from strips_int.grounders import START, kind_of
    from strips_int.model.plan import plan_file

    visited: set[str] = set()
    unreadable: list[Path] = []
    candidates: list[tuple[Path, bool, object]] = []
    skipped = os.path.realpath(skip) if skip is not None else None
    for root, folders, names in os.walk(folder, onerror=lambda exc: unreadable.append(Path(exc.filename)),
                                        followlinks=True):
        real = os.path.realpath(root)
        if real in visited or real == skipped:
            folders[:] = []
            continue
        visited.add(real)
        folders.sort(key=lambda name: (os.path.islink(os.path.join(root, name)), name))  # real ones first
        for name in names:
            file = Path(root, name)
            try:
                status = file.stat()  # through links, as exists() and is_file()
            except OSError:
                file.exists()  # raises, as before, what exists() does not take for a missing file
                status = None
            if status is None or not os.access(file, os.R_OK):  # a broken link, a file we may not read
                if file.suffix in GAME_SUFFIXES or status is not None:
                    unreadable.append(file)
                continue
            if not stat.S_ISREG(status.st_mode):
                continue
            try:
                found = kind_of(file)
                if file.suffix in GAME_SUFFIXES or found is not None or plan_file(file):
                    candidates.append((file, found is not None and found[1] == START, identity(file, status)))
            except Exception:  # noqa: BLE001 - a recognizer that fails on a file: reading it will say why
                candidates.append((file, False, identity(file, status)))
    walked = [*candidates, *((path, False, identity(path)) for path in unreadable)]
    return sorted(walked, key=lambda item: item[0].parts)  # Path order (by parts), without Path's slow __lt__


def named_domain(domain: Domain | str | Path, function: str = "named_domain") -> Domain:
    """A loaded domain as it is; a path, a packaged domain's name or an installed grounder's domain name
    (:func:`strips_int.grounders.domain_path`) loaded; anything else an
    :class:`~strips_int.errors.ArgumentError` of ``function``'s argument ``domain``."""
    from strips_int.grounders import domain_path

    if isinstance(domain, Domain):
        return domain
    named = path_argument(function, "domain", domain, "a Domain, or a packaged domain's name or a path")
    return as_domain(domain_path(named), function)


def read_games(domain: Domain | str | Path, *paths: str | Path, **options: Any) -> Iterator[Trace | StripsIntError]:
    """Every game under ``paths`` (files or folders), one at a time, as a trace or the error that stops it.

    ``options`` are grounder options (``layout``, ``grid``, ``roles``, ``ego_seat``, ...); the parameters are
    :func:`analyze_games`'s. The arguments are checked at the call, the files read as the games are asked for.

    Returns:
        An iterator of traces, or for a game that could not be read its error, in file order.
    """
    domain = named_domain(domain, "read_games")
    paths = paths_argument("read_games", paths)
    return (game for path in game_files(paths)[0] for game in read_file(path, domain, **options))


def paths_argument(function: str, paths: Iterable[object]) -> list[Path]:
    """``function``'s ``*paths``, each a path (:func:`~strips_int.errors.path_argument`)."""
    return [path_argument(function, "paths", path) for path in paths]


def read_file(path: Path, domain: Domain, problem: Problem | None = None, **options: Any
              ) -> Iterator[Trace | StripsIntError]:
    """The games of one file as the grounder registry reads them (``read_input``, which makes any exception
    of a reader the file's error); a folder is the path's one error (the walk lists the folders it
    could not read among the files, so that their rows say why)."""
    from strips_int.grounders import read_input

    if path.is_dir():
        unreadable = folder_error(path)
        yield StripsIntError(str(path), None, "cannot read: is a folder, not a file" if unreadable is None
                             else f"cannot read the folder: {unreadable}")
        return
    yield from read_input(path, domain, problem, **options)


def folder_error(path: Path) -> str | None:
    """Why a folder cannot be listed, or None when it can."""
    try:
        os.listdir(path)
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def analyze_file(domain: Domain, path: Path, problem: Problem | None = None, help_cost: bool = False, **options: Any
                 ) -> Iterator[Report | StripsIntError]:
    """Each game in one file analysed, or the error that stopped it: the one way from a path to reports,
    which every command and :func:`analyze_games` take. ``problem`` overrides a trace's own; ``help_cost``
    adds each interdependence's self-help cost (definitions section 14); ``options`` are grounder options.
    Any exception of the analysis is the game's internal error at ``analysis``."""
    for result in read_file(path, domain, problem, **options):
        if isinstance(result, StripsIntError):
            yield result
            continue
        if not isinstance(result, Trace):  # a buggy grounder may yield anything
            yield StripsIntError(str(path), "analysis", f"internal error: the grounder gave {brief(result)}, "
                                 "not a trace")
            continue
        try:
            yield guarded(result.source, "analysis",
                          lambda: analyze_run(domain, execute(result, domain.cache), help_cost))
        except StripsIntError as exc:
            yield exc


def analyze_games(domain: Domain | str | Path, *paths: str | Path, **options: Any) -> Iterator[Report | StripsIntError]:
    """Every game under ``paths`` (files or folders) analysed: a report, or the error that stopped that game
    (the arguments checked at the call, the games analysed as they are asked for).

    Parameters:
        domain: a loaded domain, a PDDL path, or a packaged domain's name.
        *paths: game files and folders (walked).
        **options: grounder options by name.

    Returns:
        An iterator of reports, or for a game that could not be analysed its error, in file order.
    """
    domain = named_domain(domain, "analyze_games")
    paths = paths_argument("analyze_games", paths)
    return (report for path in game_files(paths)[0] for report in analyze_file(domain, path, **options))


def analyze(domain: Domain | str | Path, game: Trace | Run | str | Path, problem: Problem | str | Path | None = None,
            help_cost: bool = False, **options: Any) -> Report:
    """The report of one game: a trace or run in memory, or a file holding exactly one game (a strips-int
    trace or a raw game a grounder recognizes, with grounder ``options`` such as ``layout``).

    ``domain`` may be loaded, a path, or a domain's name (packaged, ``"overcooked"``, or an installed
    grounder's: :func:`named_domain`);
    ``problem`` overrides the one a trace names; ``help_cost`` adds each interdependence's self-help cost
    (definitions section 14). A file with several games is refused (use :func:`analyze_games`). Raises
    :class:`~strips_int.errors.StripsIntError` on bad input.

    Parameters:
        domain: a loaded domain, a PDDL path, or a packaged domain's name.
        game: a trace or an executed run in memory, or a file holding one game.
        problem: the problem to use instead of the one a trace names.
        help_cost: whether to add each interdependence's self-help cost (definitions section 14).
        **options: grounder options by name (``layout``, ``roles``, ``grid``, ...).

    Returns:
        The game's report: interdependencies, categories, triggers, required help, blocks (and self-help
        costs with ``help_cost``).
    """
    domain = named_domain(domain, "analyze")
    help_cost = of_type("analyze", "help_cost", help_cost, bool, "True or False")
    if isinstance(game, Run):
        return analyze_run(domain, game, help_cost)
    if isinstance(game, Trace):
        return analyze_run(domain, execute(game, domain.cache), help_cost)
    game = path_argument("analyze", "game", game, "a Trace, a Run or a game file's path")
    problem = problem_argument("analyze", problem)
    if isinstance(problem, Path):
        problem = load_problem(domain, problem)
    results = list(itertools.islice(analyze_file(domain, Path(game), problem, help_cost, **options), 2))
    if len(results) != 1:
        raise StripsIntError(str(game), None, "holds no game" if not results else
                             "holds several games: read them with strips_int.analyze_games")
    if isinstance(results[0], StripsIntError):
        raise results[0]
    return results[0]
