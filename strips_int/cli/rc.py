"""``python -m strips_int.rc`` (or ``strips-int rc``): the required-cooperation command line.

    strips-int rc DOMAIN PROBLEM                  # a PDDL problem
    strips-int rc --layout cramped_room           # a grounder's start problem (layout, grid, SAR scenario)
    strips-int rc --grid a.layout b.grid DIR/ --out rc.csv --jobs 2   # a table row per start problem
    strips-int rc --all-layouts --out rc.md       # the table of every layout a grounder knows by name

The algorithm is :func:`strips_int.analysis.rc.required_cooperation`; start problems come from the
grounders through the registry and the protocol (:func:`strips_int.grounders.start_alternatives`),
tables from :mod:`strips_int.batch.layouts`. This module reads arguments and prints.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from strips_int.errors import StripsIntError, brief

from .contract import (DOMAIN_HELP, Parser, add_grounder_options, add_pragma_options, command, converted, domain_of,
                       fail, given_flags)

#: The most soups ``--soups`` asks for. Each soup adds five objects (soup, dish, three ingredients) to every
#: planner problem; no layout was classified with 68 within 60 s, most stopped at 20 to 45
#: (docs/required-cooperation.md, ``benchmarks/rc_layouts.py --scaling``), so more could only end
#: "unknown", ever more slowly built.
MAX_SOUPS = 100
#: Limits of the other numeric options: a thousand joint plans, jobs (the time limit's is the library's,
#: :data:`strips_int.analysis.rc.MAX_TIMEOUT`: a week).
MAX_PLANS, MAX_JOBS = 1000, 1024


def build_parser(prog: str = "python -m strips_int.rc") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Does a problem require cooperation? Decides each agent's projection and the joint "
        "problem (definitions section 8) and analyses a joint plan's interdependencies.",
    )
    parser.add_argument("domain", nargs="?", help=f"{DOMAIN_HELP} (default: the domain of the grounder whose "
                        "start problem is asked for)")
    parser.add_argument("problem", type=Path, nargs="?", help="PDDL problem file")
    parser.add_argument("--all-layouts", action="store_true", help="a table row for every layout or scenario "
                        "a grounder knows by name")
    parser.add_argument("--out", type=Path, help="write the table (--all-layouts, several start problems) to "
                        "FILE (.csv, .md or .tex)")
    parser.add_argument("--search", choices=("fast", "planner"), default="fast",
                        help="fast: relaxed reachability, then Fast Downward's search on the ground projection, "
                        "the planner only for what they leave open (default); planner: every call by the planner")
    parser.add_argument("--planner", default="auto", help="auto (Fast Downward, else pyperplan), "
                        "fast-downward, pyperplan")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds of wall time for one problem "
                        "(a start problem: over all its alternatives), reading, relaxed reachability, search and "
                        "every planner call included (default 60)")
    parser.add_argument("--others", choices=("idle", "absent"), default="idle",
                        help="in a projection the other agents stay where they are (idle) or are removed")
    parser.add_argument("--plans", type=int, metavar="K", help="up to K joint plans from the planner (default: "
                        "none where the verdict needs none; the planner path asks for 1)")
    parser.add_argument("--jobs", type=int, metavar="N", help="planner calls at once, or start problems at once "
                        "in a table (default: the CPUs this process may use)")
    parser.add_argument("--scheduler", metavar="ADDRESS|local", help="a table's start problems on the Dask "
                        "cluster at ADDRESS (tcp://host:8786), or on a local one")
    parser.add_argument("--json", action="store_true", help="print one JSON object (a table: one per row)")
    add_pragma_options(parser)
    add_grounder_options(parser, "start", several=True)
    return parser


def check_numbers(args: argparse.Namespace) -> str | None:
    """The first numeric option outside its limits, as a usage error; checked before anything is read or planned."""
    from strips_int.analysis.rc import MAX_TIMEOUT

    needs = {
        "timeout": (0 < args.timeout <= MAX_TIMEOUT, f"seconds above 0 and at most {MAX_TIMEOUT:g}"),
        "plans": (args.plans is None or 1 <= args.plans <= MAX_PLANS, f"from 1 to {MAX_PLANS} plans"),
        "jobs": (args.jobs is None or 1 <= args.jobs <= MAX_JOBS, f"from 1 to {MAX_JOBS} jobs"),
    }
    return next((f"argument --{dest}: need {need}, not {brief(getattr(args, dest, None))}"
                 for dest, (ok, need) in needs.items() if not ok), None)  # NaN fails every comparison


def check_soups(found: Sequence[Any]) -> str | None:
    """``--soups`` outside its limits (a grounder option: checked once each grounder has read it), as a
    usage error; None when it is within them or not given."""
    soups = {value for start in found for _, options in start.options for dest, value in options if dest == "soups"}
    wrong = next((n for n in sorted(soups) if not 1 <= n <= MAX_SOUPS), None)
    return None if wrong is None else f"argument --soups: need at least 1 soup and at most {MAX_SOUPS}, not {wrong}"


def check_out(out: Path | None) -> str | None:
    """Why the table cannot be written as ``out`` (its suffix, or no permission), found before anything is
    planned; None when it can. :func:`~strips_int.files.output_file` says the rest (no folder, a FIFO)."""
    from strips_int.batch.tables import SUFFIXES

    if out is None:
        return None
    if out.suffix not in SUFFIXES:
        return f"--out {out}: the table is written as {', '.join(SUFFIXES)}"
    folder = out.parent if str(out.parent) else Path(".")
    if folder.is_dir() and (not os.access(folder, os.W_OK) or (out.is_file() and not os.access(out, os.W_OK))):
        return f"--out {out}: cannot be written"
    return None


def starts(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[dict[str, Any], list[Any]]:
    """The domains by name and the start problems the arguments name (:class:`~strips_int.batch.layouts.Start`).

    Each grounder flag given goes to the grounders (of the named domain, when one is named) that declare
    it, converted by each one's own type. ``--all-layouts``: every name every such grounder knows. Else
    the first flag given that names start problems (declared with ``names``, else the first given) gives a start
    problem per value (a folder: its files of the option's suffixes), asked of every grounder declaring
    that flag: the one that knows the name answers, two that know it are one error naming both
    (:func:`strips_int.batch.layouts.alternatives`), so ``rc --layout corridor`` is Overcooked's whatever
    else declares ``--layout``.
    """
    from strips_int.batch.layouts import Start
    from strips_int.grounders import declared, registered, start_names

    given = given_flags(args)
    named = domain_of(args) if args.domain else None
    everyone = declared("start")
    owners = {flag: list(dict.fromkeys(g for g, _ in found if named is None or g.domain == named.name))
              for flag, found in everyone.items()}
    for flag in given:
        if not owners[flag]:
            takers = ", ".join(dict.fromkeys(g.name for g, _ in everyone[flag]))
            parser.error(f"argument {flag}: no grounder of the {named.name} domain takes it ({takers} do)")
    if args.all_layouts:
        chosen = [g for g in registered().values() if (named is None or g.domain == named.name) and start_names(g)]
        found = [Start(name, (g.name,), ((g.name, tuple(converted(parser, g, given).items())),))
                 for g in chosen for name in start_names(g)]
    else:
        naming = [f for f in given if any(o.names for _, o in everyone[f])] or list(given)
        if not naming:
            return ({named.name: named} if named else {}), []
        flag = naming[0]  # the first declared: --layout NAME --grid FILE is the grid, named NAME
        several = [f for f in given if f != flag and isinstance(given[f], list) and len(given[f]) > 1]
        if several:
            parser.error(f"only {flag} may name several start problems, not {several[0]}")
        chosen = owners[flag]
        for other in given:
            if not set(owners[other]) & set(chosen):
                parser.error(f"argument {other}: not taken by {', '.join(g.name for g in chosen)}, whose start "
                             f"problems {flag} names")
        values = given[flag] if isinstance(given[flag], list) else [given[flag]]
        suffixes = tuple(dict.fromkeys(x for _, o in everyone[flag] if o.names for x in o.suffixes))
        found = [Start(value, tuple(g.name for g in chosen),
                       tuple((g.name, tuple(converted(parser, g, {**given, flag: value}, len(chosen) > 1).items()))
                             for g in chosen))
                 for value in _values(values, suffixes)]
    domains = {named.name: named} if named else {g.domain: domain_of(args, g.domain) for g in chosen}
    return domains, found


def _values(values: Sequence[str], suffixes: Sequence[str]) -> list[str]:
    """The values of a start-naming option, each folder replaced by its files of ``suffixes`` (walked,
    in path order)."""
    found = []
    for value in values:
        folder = Path(value)
        if suffixes and folder.is_dir():
            inside = sorted((str(p) for p in folder.rglob("*") if p.suffix in suffixes and p.is_file()),
                            key=lambda p: Path(p).parts)
            if not inside:
                raise StripsIntError(value, None, f"a folder with no start problem in it (no {' or '.join(suffixes)} "
                                     "file)")
            found += inside
        else:
            found.append(value)
    return found


def run_table(args: argparse.Namespace, domains: dict[str, Any], found: list[Any]) -> int:
    """Classify ``found`` on the engine the arguments name, a row each (progress on standard error), and
    write the table; exit status 1 when a row is an error."""
    from strips_int.batch.engines import available_cpus, engine
    from strips_int.batch.layouts import Settings, table, write_layout_table

    settings = Settings(args.planner, args.timeout, args.others, args.plans, 1, args.search)
    start, rows = time.perf_counter(), []
    for row in table(engine(args.jobs or available_cpus(), args.scheduler, nested=True), domains, settings, found):
        rows.append(row)
        print(f"{row['layout']}: {row['verdict']} ({row['seconds'] or row['error']})", file=sys.stderr, flush=True)
    write_layout_table(rows, args.out, args.json)
    errors = sum(row["verdict"] == "error" for row in rows)
    print(f"{len(rows)} start problems, {errors} errors, in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 1 if errors else 0


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.rc") -> int:
    began = time.monotonic()  # one problem's --timeout counts from here: reading and lifting are within it
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    wrong = check_numbers(args)
    if wrong is not None:
        print(f"{parser.prog}: error: {wrong}", file=sys.stderr)
        return 2
    if (unwritable := check_out(args.out)) is not None:
        parser.error(unwritable)
    from strips_int.analysis.rc import format_text, resolve_planner
    from strips_int.batch.layouts import Settings, alternatives, classify_alternatives, problem_file
    from strips_int.files import output_file

    try:
        if args.out is not None:
            output_file(args.out, parent=True)  # before planning: a FIFO there would block the writing
        resolve_planner(args.planner)  # an unknown or missing planner is refused before anything is read
        domains, found = starts(args, parser)
        if (wrong := check_soups(found)) is not None:
            print(f"{parser.prog}: error: {wrong}", file=sys.stderr)
            return 2
        several = args.all_layouts or len(found) > 1 or any(Path(v).is_dir() for v in _named_values(args))
        if several or args.out is not None or args.scheduler:
            if not found:
                parser.error("no start problems: give --all-layouts, or names or folders of start problems")
            return run_table(args, domains, found)
        settings = Settings(args.planner, args.timeout, args.others, args.plans, args.jobs, args.search)
        if found:
            read, name = functools.partial(alternatives, domains, found[0]), found[0].name
        else:
            if not (args.domain and args.problem):
                parser.error("give DOMAIN PROBLEM, a grounder's start problem (--layout NAME, --grid FILE, "
                             "--scenario FILE) or --all-layouts")
            read, name = functools.partial(problem_file, next(iter(domains.values())), args.problem), str(args.problem)
        alternative, result = classify_alternatives(read, name, settings, began + args.timeout)
    except StripsIntError as exc:
        return fail(exc)
    labels = {"rules": alternative.rules, "recipe": alternative.recipe} if alternative.rules else {}
    if args.json:
        print(json.dumps({**result.to_dict(), **labels}))
    else:
        print(format_text(result))
        if labels:
            print(f"  rules {labels['rules']}, recipe {labels['recipe']}")
    return 0


def _named_values(args: argparse.Namespace) -> list[str]:
    """The values of the grounder flags given several values (those that name start problems)."""
    return [v for value in given_flags(args).values() if isinstance(value, list) for v in value]
