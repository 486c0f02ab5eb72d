"""Many games at once, lazily: files and folders of raw games or traces, read and analysed one by one.

    for result in analyze_games("overcooked", "user-study/"):
        if isinstance(result, StripsIntError): print(result); continue
        print(result.source, result.counts)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Iterable, Iterator

from .domain import Domain, load_domain
from .errors import StripsIntError, guarded
from .report import Report, analyze_run
from .trace import Trace, execute

#: File kinds a folder walk picks up (traces, Overcooked JSON, pickles, CSV).
GAME_SUFFIXES = (".json", ".pkl", ".pickle", ".csv")


def game_files(paths: Iterable[str | Path], skip: Path | None = None) -> tuple[list[Path], list[Path]]:
    """The given files and every game file under the given folders (a game suffix, or a file some
    grounder recognizes), each folder's sorted; and the SAR scenarios a folder walk passed over
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
    from strips_int.grounders import grounder_for, sar

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
                if file.suffix in GAME_SUFFIXES or grounder_for(file) is not None:
                    candidates.append((file, sar.detect(file) == "scenario", identity(file, status)))
            except Exception:  # noqa: BLE001 - a recognizer that fails on a file: reading it will say why
                candidates.append((file, False, identity(file, status)))
    walked = [*candidates, *((path, False, identity(path)) for path in unreadable)]
    return sorted(walked, key=lambda item: item[0].parts)  # Path order (by parts), without Path's slow __lt__


def as_domain(domain: Domain | str | Path) -> Domain:
    """A loaded domain as it is; a path or a packaged name (``"overcooked"``, ``"sar"``) loaded."""
    return domain if isinstance(domain, Domain) else load_domain(domain)


def read_games(domain: Domain | str | Path, *paths: str | Path, **options: Any) -> Iterator[Trace | StripsIntError]:
    """Every game under ``paths`` (files or folders), one at a time, as a trace or the error that stops it.

    ``options`` are grounder options (``layout``, ``grid``, ``roles``, ``ego_seat``, ...).
    """
    domain = as_domain(domain)
    files, _ = game_files(paths)
    for path in files:
        yield from read_file(path, domain, **options)


def read_file(path: Path, domain: Domain, **options: Any) -> Iterator[Trace | StripsIntError]:
    """The games of one path of :func:`game_files` as ``read_input`` gives them (which makes any exception
    of a reader the file's error); a folder the walk could not read is the file's one result."""
    from strips_int.grounders import read_input

    if path.is_dir():
        yield StripsIntError(str(path), None, f"cannot read the folder: {folder_error(path)}")
        return
    yield from read_input(path, domain, **options)


def folder_error(path: Path) -> str:
    try:
        os.listdir(path)
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return "it was unreadable during the walk"


def report_of(domain: Domain, result: Trace | StripsIntError) -> Report:
    """The report of one result of :func:`read_games` (or ``read_input``); the error a result is, raised."""
    if isinstance(result, StripsIntError):
        raise result
    return analyze_run(domain, execute(result))


def analysed(domain: Domain, result: Trace | StripsIntError, source: str) -> Report:
    """The report of one result of ``read_input`` (:func:`report_of`), any exception of the analysis as
    the game's error at ``analysis`` (the game's own source, else ``source``)."""
    return guarded(result.source if isinstance(result, Trace) else source, "analysis",
                   lambda: report_of(domain, result))


def analyze_games(domain: Domain | str | Path, *paths: str | Path, **options: Any) -> Iterator[Report | StripsIntError]:
    """:func:`read_games`, each game analysed: a report, or the error that stopped that game."""
    domain = as_domain(domain)
    for result in read_games(domain, *paths, **options):
        try:
            yield analysed(domain, result, result.source)
        except StripsIntError as exc:
            yield exc
