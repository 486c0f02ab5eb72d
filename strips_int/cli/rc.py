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

from .contract import (DOMAIN_HELP, Parser, add_grounder_options, add_pragma_options, command, domain_of, fail,
                       grounder_options)

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
        "problem (SPEC section 8) and analyses a joint plan's interdependences.",
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
        "soups": (getattr(args, "soups", None) is None or 1 <= args.soups <= MAX_SOUPS,
                  f"at least 1 soup and at most {MAX_SOUPS}"),
    }
    return next((f"argument --{dest}: need {need}, not {brief(getattr(args, dest, None))}"
                 for dest, (ok, need) in needs.items() if not ok), None)  # NaN fails every comparison


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

    ``--all-layouts``: every name every grounder knows (of the named domain). Else the grounders that
    declare a given option are asked, the one declaring most of the given options first (registry order
    breaks ties); the first given option of the first one that names start problems gives one start
    problem per value (a folder: its files of the option's suffixes), and each is asked of those
    grounders in turn, so ``--layout NAME`` reaches JaxMARL's layouts when no Overcooked layout has that name.
    """
    from strips_int.batch.layouts import Start
    from strips_int.grounders import own_options, registered, start_names

    given = {dest: value[0] if isinstance(value, list) and len(value) == 1 else value
             for dest, value in grounder_options(args).items()}
    named = domain_of(args) if args.domain else None
    fits = [g for g in registered().values() if named is None or g.domain == named.name]
    if args.all_layouts:
        chosen = [g for g in fits if start_names(g)]
        found = [Start(name, (g.name,), tuple(own_options(g, given).items())) for g in chosen
                 for name in start_names(g)]
    else:
        chosen = sorted((g for g in fits if any(o.dest in given for o in g.options)),
                        key=lambda g: -sum(o.dest in given for o in g.options))
        mine = [o for g in chosen[:1] for o in g.options if o.dest in given]
        option = next((o for o in mine if o.names), mine[0] if mine else None)
        if option is None:
            return ({named.name: named} if named else {}), []
        several = [o.flag for g in chosen for o in g.options
                   if o.dest != option.dest and isinstance(given.get(o.dest), list)]
        if several:
            parser.error(f"only {option.flag} may name several start problems, not {several[0]}")
        values = given[option.dest] if isinstance(given[option.dest], list) else [given[option.dest]]
        found = [Start(str(value), tuple(g.name for g in chosen), tuple({**given, option.dest: value}.items()))
                 for value in _values(values, option.suffixes)]
    domains = {named.name: named} if named else {g.domain: domain_of(args, g.domain) for g in chosen}
    return domains, found


def _values(values: Sequence[str], suffixes: Sequence[str]) -> list[str]:
    """The values of a start-naming option, each folder replaced by its files of ``suffixes`` (walked,
    in path order)."""
    found = []
    for value in values:
        folder = Path(value)
        if suffixes and folder.is_dir():
            found += sorted((str(p) for p in folder.rglob("*") if p.suffix in suffixes and p.is_file()),
                            key=lambda p: Path(p).parts)
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
    from strips_int.grounders import all_options

    return [v for o in all_options() if o.names for v in (getattr(args, o.dest, None) or [])]
