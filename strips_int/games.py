"""Many games at once, lazily: files and folders of raw games or traces, read and analysed one by one.

    for result in analyze_games("overcooked", "user-study/"):
        if isinstance(result, StripsIntError): print(result); continue
        print(result.source, result.counts)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator

from .domain import Domain, load_domain
from .errors import StripsIntError
from .report import Report, analyze_run
from .trace import Trace, execute

#: File kinds a folder walk picks up (traces, Overcooked JSON, pickles, CSV).
GAME_SUFFIXES = (".json", ".pkl", ".pickle", ".csv")


def game_files(paths: Iterable[str | Path], skip: Path | None = None) -> tuple[list[Path], list[Path]]:
    """The given files and every game file under the given folders (a game suffix, or a file some
    grounder recognizes), sorted; and the SAR scenarios a folder walk passed over (simulator inputs,
    not games). A missing path is an error."""
    from strips_int.grounders import grounder_for, sar

    found: list[Path] = []
    scenarios: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            for file in sorted(p for p in path.rglob("*")
                               if p.is_file() and (p.suffix in GAME_SUFFIXES or grounder_for(p) is not None)):
                (scenarios if sar.detect(file) == "scenario" else found).append(file)
        elif path.is_file():
            found.append(path)
        else:
            raise StripsIntError(str(path), None, "no such file or folder")
    return found, scenarios


def as_domain(domain: Domain | str | Path) -> Domain:
    """A loaded domain as it is; a path or a packaged name (``"overcooked"``, ``"sar"``) loaded."""
    return domain if isinstance(domain, Domain) else load_domain(domain)


def read_games(domain: Domain | str | Path, *paths: str | Path, **options: Any) -> Iterator[Trace | StripsIntError]:
    """Every game under ``paths`` (files or folders), one at a time, as a trace or the error that stops it.

    ``options`` are grounder options (``layout``, ``grid``, ``roles``, ``ego_seat``, ...).
    """
    from strips_int.grounders import read_input

    domain = as_domain(domain)
    files, _ = game_files(paths)
    for path in files:
        yield from read_input(path, domain, **options)


def report_of(domain: Domain, result: Trace | StripsIntError) -> Report:
    """The report of one result of :func:`read_games` (or ``read_input``); the error a result is, raised."""
    if isinstance(result, StripsIntError):
        raise result
    return analyze_run(domain, execute(result))


def analyze_games(domain: Domain | str | Path, *paths: str | Path, **options: Any) -> Iterator[Report | StripsIntError]:
    """:func:`read_games`, each game analysed: a report, or the error that stopped that game."""
    domain = as_domain(domain)
    for result in read_games(domain, *paths, **options):
        try:
            yield report_of(domain, result)
        except StripsIntError as exc:
            yield exc
