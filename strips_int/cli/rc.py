"""``python -m strips_int.rc`` (or ``strips-int rc``): the required-cooperation command line.

    strips-int rc DOMAIN PROBLEM            # a PDDL problem
    strips-int rc --layout cramped_room     # a grounder's start problem (layout, grid, SAR scenario)
    strips-int rc --all-layouts --out rc.md # the table of every known Overcooked layout

The algorithm is :func:`strips_int.analysis.rc.required_cooperation`; this module reads
arguments, finds the start problem through the grounder registry and prints.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from strips_int.errors import StripsIntError, brief, guarded

from .contract import (
    DOMAIN_HELP,
    Parser,
    add_grounder_options,
    add_pragma_options,
    command,
    domain_of,
    fail,
    grounder_options,
)

#: The most soups ``--soups`` asks for. Each soup adds five objects (soup, dish, three ingredients) to every
#: planner problem; no layout was classified with 68 within 60 s, most stopped at 20 to 45
#: (docs/required-cooperation.md, ``benchmarks/rc_layouts.py --scaling``), so more could only end
#: "unknown", ever more slowly built.
MAX_SOUPS = 100
#: Limits of the other numeric options: a week of planning, a thousand joint plans, jobs.
MAX_TIMEOUT, MAX_PLANS, MAX_JOBS = 7 * 24 * 3600.0, 1000, 1024

def layout_rc(domain: Any, layout: Any, soups: int = 1, planner: str = "auto", timeout: float = 60.0,
              others: str = "idle", jobs: int | None = None) -> Any:
    """RC of an Overcooked layout under its own rules and recipes (SPEC section 8), all within ``timeout`` seconds.

    Old rules: one problem. New rules: one per set of ingredient kinds among the
    makeable orders (``makeable_recipes``), combined as "some ordered soup":
    non-RC when an agent alone makes one, else unknown when a planner limit left
    one open, else RC when the team makes one, else unsolvable. The result kept
    is the deciding recipe's.
    """
    from strips_int.analysis.rc import NON_RC, RC, UNKNOWN, required_cooperation
    from strips_int.grounders.overcooked.lift import layout_problem, makeable_recipes

    deadline = time.monotonic() + timeout
    source = f"layout {layout.name}"
    recipes = [None] if layout.old_rules else guarded(source, "reading", lambda: makeable_recipes(layout)) or [None]
    results = []
    for recipe in recipes:
        problem = guarded(source, "reading", lambda: layout_problem(layout, domain, soups, recipe=recipe))
        result = required_cooperation(domain, problem, planner, timeout, others, jobs=jobs, deadline=deadline)
        if result.verdict == NON_RC:
            return result
        results.append(result)
    return next((r for verdict in (UNKNOWN, RC) for r in results if r.verdict == verdict), results[0])


def classify_layouts(names: list[str], soups: int = 1, planner: str = "auto", timeout: float = 60.0,
                     others: str = "idle", jobs: int | None = None) -> Iterator[Any]:
    """The RC result of each Overcooked layout, in ``names`` order; a layout that cannot be read or planned is its error."""
    from strips_int.grounders.overcooked import GROUNDER, get_layout
    from strips_int.model.domain import load_domain

    domain = load_domain(GROUNDER.domain)
    for name in names:
        try:
            layout = guarded(f"layout {name}", "reading", lambda: get_layout(name))
            yield layout_rc(domain, layout, soups, planner, timeout, others, jobs)
        except StripsIntError as exc:
            yield exc


TABLE_COLUMNS = ("layout", "rules", "recipe", "verdict", "reason", "joint_plan_length", "interdependencies",
                 "constructive", "error", "seconds")


def table_row(result: Any, name: str = "") -> dict[str, Any]:
    """One row of the ``--all-layouts`` table (stable column names; ``seconds`` last, to be dropped at will)."""
    if isinstance(result, StripsIntError):
        return {**dict.fromkeys(TABLE_COLUMNS, ""), "layout": name, "verdict": "error", "error": str(result)}
    counts = result.reports[0].counts if result.reports else {}
    # A new-rules layout's goal pins its recipe's ingredients in the soup (layout_problem); old rules do not.
    recipe = sorted(result.problem.objects[f[1]] for f in result.problem.goal if f[0] == "in-soup" and f[2] == "soup1")
    return {
        "layout": result.problem.name.removeprefix("overcooked-"),
        "rules": "new" if recipe else "old",
        "recipe": "+".join(recipe) if recipe else "any 3",
        "verdict": result.verdict,
        "reason": result.reason or "",
        "joint_plan_length": len(result.joint.plan) if result.joint.plan is not None else "",
        "interdependencies": counts.get("interdependencies", ""),
        "constructive": counts.get("constructive", ""),
        "error": "",
        "seconds": f"{result.seconds:.2f}",
    }


def build_parser(prog: str = "python -m strips_int.rc") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Does a problem require cooperation? Plans each agent's projection and the joint "
        "problem (SPEC section 8) and analyses a joint plan's interdependences.",
    )
    parser.add_argument("domain", nargs="?", help=f"{DOMAIN_HELP} (default: the domain of the grounder whose "
                        "start problem is asked for)")
    parser.add_argument("problem", type=Path, nargs="?", help="PDDL problem file")
    parser.add_argument("--all-layouts", action="store_true", help="classify every known Overcooked layout")
    parser.add_argument("--out", type=Path, help="--all-layouts: write the table to FILE (.csv, .md or .tex)")
    parser.add_argument("--planner", default="auto", help="auto (Fast Downward, else pyperplan), "
                        "fast-downward, pyperplan")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds of wall time for one problem, "
                        "conversion and every planner call included (--all-layouts: per layout; default 60)")
    parser.add_argument("--others", choices=("idle", "absent"), default="idle",
                        help="in a projection the other agents stay where they are (idle) or are removed")
    parser.add_argument("--plans", type=int, default=1, metavar="K", help="up to K joint plans (default 1)")
    parser.add_argument("--jobs", type=int, metavar="N", help="planner calls at once (default: the CPUs "
                        "this process may use)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_pragma_options(parser)
    add_grounder_options(parser, "start")
    return parser


def _write_table(rows: list[dict[str, Any]], out: Path | None, as_json: bool = False) -> None:
    """The table as JSON lines (``as_json``), or to ``out`` by its suffix (.csv, .md, .tex), or Markdown on stdout."""
    from strips_int.batch.tables import table_text, write_table

    if as_json and out is None:
        for row in rows:
            print(json.dumps(row))
        return
    cells = [[row[c] for c in TABLE_COLUMNS] for row in rows]
    if out is None:
        print(table_text(".md", TABLE_COLUMNS, cells), end="")
    else:
        write_table(out, TABLE_COLUMNS, cells)


def start_problem(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[Any, Any]:
    """The domain and problem the arguments name: a PDDL pair, or a grounder's start problem.

    The grounders that declare a given option are asked in turn, the one declaring most of the given
    options first (registry order breaks ties); the first given option of the first one names the
    layout or scenario, and the first grounder that knows the name answers. So ``--layout NAME``
    reaches JaxMARL's layouts when no Overcooked layout has that name.
    """
    from strips_int.grounders import registered
    from strips_int.model.problem import load_problem

    given = grounder_options(args)
    named = domain_of(args) if args.domain else None
    chosen = [g for g in registered().values() if any(o.dest in given for o in g.options)
              and (named is None or g.domain == named.name)]
    chosen.sort(key=lambda g: -sum(o.dest in given for o in g.options))
    if chosen:
        name = str(next(given[o.dest] for o in chosen[0].options if o.dest in given))
        first_error = None
        for grounder in chosen:
            mine = {o.dest: given[o.dest] for o in grounder.options if o.dest in given}
            domain = named or domain_of(args, grounder.domain)
            try:
                problem = guarded(name, "reading", lambda: grounder.start_problem(name, domain, **mine))
            except StripsIntError as exc:
                first_error = first_error or exc
                continue
            if problem is not None:
                return domain, problem
        if first_error is not None:
            raise first_error
        parser.error(f"no grounder has a start problem named {name!r}")
    if named is not None and args.problem:
        return named, load_problem(named, args.problem)
    parser.error("give DOMAIN PROBLEM, a grounder's start problem (--layout NAME, --grid FILE, --scenario FILE) "
                 "or --all-layouts")


def check_numbers(args: argparse.Namespace) -> str | None:
    """The first numeric option outside its limits, as a usage error; checked before anything is read or planned."""
    needs = {
        "timeout": (0 < args.timeout <= MAX_TIMEOUT, f"seconds above 0 and at most {MAX_TIMEOUT:g}"),
        "plans": (1 <= args.plans <= MAX_PLANS, f"from 1 to {MAX_PLANS} plans"),
        "jobs": (args.jobs is None or 1 <= args.jobs <= MAX_JOBS, f"from 1 to {MAX_JOBS} jobs"),
        "soups": (getattr(args, "soups", None) is None or 1 <= args.soups <= MAX_SOUPS,
                  f"at least 1 soup and at most {MAX_SOUPS}"),
    }
    return next((f"argument --{dest}: need {need}, not {brief(getattr(args, dest, None))}"
                 for dest, (ok, need) in needs.items() if not ok), None)  # NaN fails every comparison


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.rc") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    wrong = check_numbers(args)
    if wrong is not None:
        print(f"{parser.prog}: error: {wrong}", file=sys.stderr)
        return 2
    from strips_int.analysis.rc import format_text, required_cooperation

    try:
        if args.all_layouts:
            from strips_int.batch.tables import SUFFIXES
            from strips_int.files import output_file
            from strips_int.grounders.overcooked import known_layouts

            if args.out is not None and args.out.suffix not in SUFFIXES:
                parser.error(f"--out {args.out}: the table is written as {', '.join(SUFFIXES)}")
            if args.out is not None:
                output_file(args.out, parent=True)  # before planning: a FIFO there would block the writing
            start, rows = time.perf_counter(), []
            names = known_layouts(aliases=False)
            for name, result in zip(names, classify_layouts(names, 1 if args.soups is None else args.soups,
                                                            args.planner, args.timeout, args.others, args.jobs)):
                rows.append(table_row(result, name))
                print(f"{name}: {rows[-1]['verdict']} ({rows[-1]['seconds'] or rows[-1]['error']})", file=sys.stderr,
                      flush=True)
            _write_table(rows, args.out, args.json)
            print(f"{len(rows)} layouts in {time.perf_counter() - start:.1f} s", file=sys.stderr)
            return 0
        domain, problem = start_problem(args, parser)
        result = required_cooperation(domain, problem, args.planner, args.timeout, args.others, args.plans, args.jobs)
    except StripsIntError as exc:
        return fail(exc)
    print(json.dumps(result.to_dict()) if args.json else format_text(result))
    return 0
