"""``python -m strips_int.rc`` (or ``strips-int rc``): the required-cooperation command line.

    strips-int rc DOMAIN PROBLEM            # a PDDL problem
    strips-int rc --layout cramped_room     # a grounder's start problem (layout, grid, SAR scenario)
    strips-int rc --all-layouts --out rc.md # the table of every known Overcooked layout

The algorithm is :func:`strips_int.rc.required_cooperation`; this module reads
arguments, finds the start problem through the grounder registry and prints.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from .cli import DOMAIN_HELP, add_grounder_options, grounder_options
from .errors import StripsIntError

TABLE_COLUMNS = ("layout", "verdict", "reason", "joint plan length", "interdependencies", "constructive", "seconds")


def classify_layouts(names: list[str], soups: int = 1, planner: str = "auto", timeout: float = 60.0,
                     others: str = "idle") -> Iterator[Any]:
    """The RC result of each Overcooked layout, in ``names`` order (old rules, ``soups`` to deliver)."""
    from strips_int.grounders.overcooked import GROUNDER
    from strips_int.rc import required_cooperation

    from .domain import load_domain

    domain = load_domain(GROUNDER.domain)
    for name in names:
        yield required_cooperation(domain, GROUNDER.start_problem(name, domain, soups=soups), planner, timeout, others)


def table_row(result: Any) -> dict[str, Any]:
    """One row of the ``--all-layouts`` table."""
    counts = result.reports[0].counts if result.reports else {}
    return {
        "layout": result.problem.name.removeprefix("overcooked-"),
        "verdict": result.verdict,
        "reason": result.reason or "",
        "joint plan length": len(result.joint.plan) if result.joint.plan is not None else "",
        "interdependencies": counts.get("interdependencies", ""),
        "constructive": counts.get("constructive", ""),
        "seconds": f"{result.seconds:.2f}",
    }


def build_parser(prog: str = "python -m strips_int.rc") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Does a problem require cooperation? Plans each agent's projection and the joint "
        "problem (SPEC section 8) and analyses a joint plan's interdependences.",
    )
    parser.add_argument("domain", nargs="?", help=f"{DOMAIN_HELP} (default: the domain of the grounder whose "
                        "start problem is asked for)")
    parser.add_argument("problem", type=Path, nargs="?", help="PDDL problem file")
    parser.add_argument("--all-layouts", action="store_true", help="classify every known Overcooked layout")
    parser.add_argument("--out", type=Path, help="--all-layouts: write the table to FILE (.csv or .md)")
    parser.add_argument("--planner", default="auto", help="auto (Fast Downward, else pyperplan), "
                        "fast-downward, pyperplan")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per planner call (default 60)")
    parser.add_argument("--others", choices=("idle", "absent"), default="idle",
                        help="in a projection the other agents stay where they are (idle) or are removed")
    parser.add_argument("--plans", type=int, default=1, metavar="K", help="up to K joint plans (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_grounder_options(parser)
    return parser


def _write_table(rows: list[dict[str, Any]], out: Path | None) -> None:
    from .stats import markdown_table

    if out is not None and out.suffix == ".csv":
        with open(out, "w", newline="") as handle:
            writer = csv.DictWriter(handle, TABLE_COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        return
    text = markdown_table(TABLE_COLUMNS, ([row[c] for c in TABLE_COLUMNS] for row in rows))
    if out is None:
        print(text, end="")
    else:
        out.write_text(text)


def start_problem(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[Any, Any]:
    """The domain and problem the arguments name: a PDDL pair, or the start problem of the one grounder
    whose options are given (its first given option names the layout or scenario)."""
    from strips_int.grounders import registered

    from .domain import load_domain, load_problem

    given = grounder_options(args)
    chosen = [g for g in registered().values() if any(o.dest in given for o in g.options)]
    named = load_domain(args.domain) if args.domain else None
    if len(chosen) > 1 and named is not None:  # grounders sharing an option (--layout): DOMAIN decides
        chosen = [g for g in chosen if g.domain == named.name]
    if len(chosen) > 1:
        parser.error(f"options of several grounders given ({', '.join(g.name for g in chosen)}): name DOMAIN")
    if chosen:
        grounder = chosen[0]
        mine = {o.dest: given[o.dest] for o in grounder.options if o.dest in given}
        domain = named or load_domain(grounder.domain)
        problem = grounder.start_problem(str(next(iter(mine.values()))), domain, **mine)
        if problem is None:
            parser.error(f"the {grounder.name} grounder has no start problems")
        return domain, problem
    if named is not None and args.problem:
        return named, load_problem(named, args.problem)
    parser.error("give DOMAIN PROBLEM, a grounder's start problem (--layout NAME, --grid FILE, --scenario FILE) "
                 "or --all-layouts")


def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.rc") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.plans < 1 or args.timeout <= 0:
        parser.error("--plans must be at least 1 and --timeout positive")
    from strips_int.rc import format_text, required_cooperation

    try:
        if args.all_layouts:
            from strips_int.grounders.overcooked import known_layouts

            start, rows = time.perf_counter(), []
            for result in classify_layouts(known_layouts(aliases=False), 1 if args.soups is None else args.soups, args.planner,
                                           args.timeout, args.others):
                rows.append(table_row(result))
                print(f"{rows[-1]['layout']}: {result.verdict} ({result.seconds:.2f} s)", file=sys.stderr, flush=True)
            _write_table(rows, args.out)
            print(f"{len(rows)} layouts in {time.perf_counter() - start:.1f} s", file=sys.stderr)
            return 0
        domain, problem = start_problem(args, parser)
        result = required_cooperation(domain, problem, args.planner, args.timeout, args.others, args.plans)
    except StripsIntError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict()) if args.json else format_text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
