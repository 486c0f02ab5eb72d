"""``python -m strips_int.plot``: figures for papers.

    python -m strips_int.plot timeline DOMAIN TRACE --out FIG.{png,pdf,svg}
    python -m strips_int.plot influence DOMAIN TRACE [--object O] [--since T] --out FIG
    python -m strips_int.plot summary DIR/summary.csv --out FIG

``TRACE`` is anything ``strips_int.check`` reads (its first game). Exit
status 0, or 2 with one ``error:`` line for bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from .cli import add_domain_argument, add_grounder_options, grounder_options
from .errors import StripsIntError
from .games import as_domain, report_of
from .report import Report


def build_parser(prog: str = "python -m strips_int.plot") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Figures for papers.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("timeline", "lanes per agent, interdependences as arrows"),
                       ("influence", "the object-influence graph (SPEC section 7)")):
        command = commands.add_parser(name, help=text)
        add_domain_argument(command)
        command.add_argument("trace", type=Path, help="a trace or raw game (its first game is drawn)")
        add_grounder_options(command)
        command.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    influence = commands.choices["influence"]
    influence.add_argument("--object", help="the object to follow (default: every step)")
    influence.add_argument("--since", type=int, default=0, help="from this time step (default 0)")
    summary = commands.add_parser("summary", help="Int_cons, Int_non-cons and reward per group, with 95 %% CIs")
    summary.add_argument("summary", type=Path, help="summary.csv written by strips_int.evaluate")
    summary.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    return parser


def first_report(domain_path: str | Path, trace_path: Path, **options: Any) -> Report:
    """The report of the first game in ``trace_path``."""
    from strips_int.grounders import read_input

    domain = as_domain(domain_path)
    for result in read_input(trace_path, domain, **options):
        return report_of(domain, result)
    raise StripsIntError(str(trace_path), None, "no game in the file")


def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.plot") -> int:
    args = build_parser(prog).parse_args(argv)
    from strips_int.visualize import plot_influence, plot_summary, plot_timeline, save

    try:
        if args.command == "summary":
            figure = plot_summary(args.summary)
        elif args.command == "timeline":
            figure = plot_timeline(first_report(args.domain, args.trace, **grounder_options(args)))
        else:
            figure = plot_influence(first_report(args.domain, args.trace, **grounder_options(args)), args.object,
                                    args.since)
        print(save(figure, args.out))
    except StripsIntError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
