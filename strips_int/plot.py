"""``python -m strips_int.plot``: figures for papers.

    python -m strips_int.plot timeline DOMAIN TRACE [--window T0:T1] --out FIG.{png,pdf,svg}
    python -m strips_int.plot influence DOMAIN TRACE [--object O | --all] [--since T] --out FIG
    python -m strips_int.plot agents DOMAIN PATH... --out FIG
    python -m strips_int.plot summary DIR/summary.csv --out FIG

``TRACE`` is anything ``strips_int.check`` reads (its first game); ``agents``
adds up every game in the given files and folders (one batch group). Exit
status 0, or 2 with one ``error:`` line for bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from strips_int.grounders import read_input
from strips_int.visualize import parse_window, plot_agents, plot_influence, plot_summary, plot_timeline, save

from .domain import load_domain
from .errors import StripsIntError
from .evaluate import game_files
from .report import Report, analyze


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m strips_int.plot", description="Figures for papers.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("timeline", "lanes per agent, interdependences as arrows"),
                       ("influence", "the object-influence graph (SPEC section 7)")):
        command = commands.add_parser(name, help=text)
        command.add_argument("domain", type=Path)
        command.add_argument("trace", type=Path)
        command.add_argument("--layout", help="Overcooked layout name (default: the game's)")
        command.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    commands.choices["timeline"].add_argument("--window", metavar="T0:T1",
                                              help="only time steps T0..T1 (either may be left out)")
    influence = commands.choices["influence"]
    influence.add_argument("--object", help="the object to follow (default: the one most interdependences name)")
    influence.add_argument("--all", action="store_true", help="every step of the game, in agent lanes")
    agents = commands.add_parser("agents", help="who helped whom: giver -> receiver counts by category")
    agents.add_argument("domain", type=Path)
    agents.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="games (files or folders), added up")
    agents.add_argument("--layout", help="Overcooked layout name (default: the game's)")
    agents.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    influence.add_argument("--since", type=int, default=0, help="from this time step (default 0)")
    summary = commands.add_parser("summary", help="Int_cons, Int_non-cons and reward per group, with 95 %% CIs")
    summary.add_argument("summary", type=Path, help="summary.csv written by strips_int.evaluate")
    summary.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    return parser


def first_report(domain_path: Path, trace_path: Path, layout: str | None) -> Report:
    domain = load_domain(domain_path)
    for trace in read_input(trace_path, domain, layout=layout):
        return analyze(domain, trace)
    raise StripsIntError(str(trace_path), None, "no game in the file")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "summary":
            figure = plot_summary(args.summary)
        elif args.command == "timeline":
            figure = plot_timeline(first_report(args.domain, args.trace, args.layout), 
                                   window=parse_window(args.window) if args.window else None)
        elif args.command == "agents":
            domain = load_domain(args.domain)
            files = game_files(args.paths)[0]
            if not files:
                raise StripsIntError(" ".join(map(str, args.paths)), None, "no game files")
            figure = plot_agents([analyze(domain, trace).to_dict() for path in files
                                  for trace in read_input(path, domain, layout=args.layout)])
        else:
            figure = plot_influence(first_report(args.domain, args.trace, args.layout), args.object, args.since,
                                    whole=args.all)
        print(save(figure, args.out))
    except StripsIntError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
