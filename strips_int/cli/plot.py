"""``python -m strips_int.plot``: figures for papers.

    python -m strips_int.plot timeline DOMAIN TRACE [--window T0:T1] --out FIG.{png,pdf,svg}
    python -m strips_int.plot influence DOMAIN TRACE [--object O | --all] [--since T] --out FIG
    python -m strips_int.plot agents DOMAIN PATH... --out FIG
    python -m strips_int.plot summary DIR/summary.csv --out FIG

``TRACE`` is anything ``strips_int.check`` reads (its first game); ``agents``
adds up every game in the given files and folders (one batch group), and
draws nothing if one of them fails. The folders of ``--out`` are created.
Exit status 0, or 2 with one ``error:`` line for bad input of any kind.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Sequence

from strips_int.analysis.report import Report
from strips_int.batch.games import analyze_file, analyze_games
from strips_int.errors import StripsIntError, guarded
from strips_int.files import output_file
from strips_int.model.domain import Domain

from .contract import (Parser, add_domain_argument, add_grounder_options, add_pragma_options, command, domain_of, fail,
                       grounder_options, swapped_arguments)


def build_parser(prog: str = "python -m strips_int.plot") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Figures for papers.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("timeline", "lanes per agent, interdependencies as arrows"),
                       ("influence", "the object-influence graph (definitions section 7)")):
        command = commands.add_parser(name, help=text)
        add_domain_argument(command)
        command.add_argument("trace", type=Path, help="a trace, plan file or raw game (its first game is drawn)")
        add_readers(command)
        command.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    commands.choices["timeline"].add_argument("--window", metavar="T0:T1",
                                              help="only time steps T0..T1 (either may be left out)")
    influence = commands.choices["influence"]
    influence.add_argument("--object", help="the object to follow (default: the one most interdependencies name)")
    influence.add_argument("--all", action="store_true", help="every step of the game, in agent lanes")
    influence.add_argument("--since", type=int, default=0, help="from this time step (default 0)")
    agents = commands.add_parser("agents", help="who helped whom: giver -> receiver counts by category")
    add_domain_argument(agents)
    agents.add_argument("paths", type=Path, nargs="+", metavar="PATH", help="games (files or folders), added up")
    add_readers(agents)
    agents.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    summary = commands.add_parser("summary", help="Int_cons, Int_non-cons and reward per group, with 95 %% CIs")
    summary.add_argument("summary", type=Path, help="summary.csv written by strips_int.evaluate")
    summary.add_argument("--out", type=Path, required=True, help="figure file: .png, .pdf or .svg")
    return parser


def add_readers(command: argparse.ArgumentParser) -> None:
    """What reading games takes: the problem of plans, the domain's pragmas, the grounders' options."""
    command.add_argument("--problem", type=Path, help="PDDL problem of a plan or trace (default: a trace's own, "
                         "the one beside a plan)")
    add_pragma_options(command)
    add_grounder_options(command, "read")


def reading(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[Domain, dict[str, Any]]:
    """The domain (with the pragmas given) and what games are read with: ``problem`` and grounder options."""
    from strips_int.model.problem import load_problem

    domain = domain_of(args)
    problem = guarded(str(args.problem), "problem", lambda: load_problem(domain, args.problem)) \
        if args.problem else None
    return domain, {**grounder_options(parser, args, domain), **({"problem": problem} if problem is not None else {})}


def first_report(domain: Domain, trace_path: Path, **options: Any) -> Report:
    """The report of the first game in ``trace_path``."""
    for result in analyze_file(domain, trace_path, **options):
        return raised(result)
    raise StripsIntError(str(trace_path), None, "no game in the file")


def raised(result: Report | StripsIntError) -> Report:
    """The report; the error a result is, raised."""
    if isinstance(result, StripsIntError):
        raise result
    return result


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.plot") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    from strips_int.visualize import parse_window, plot_agents, plot_influence, plot_summary, plot_timeline, save

    try:
        output_file(args.out)  # before drawing: a FIFO there would block the write
        if args.command == "summary":
            figure = guarded(str(args.summary), "summary", lambda: plot_summary(args.summary))
        elif args.command == "timeline":
            window = parse_window(args.window) if args.window else None
            domain, options = reading(parser, args)
            report = first_report(domain, args.trace, **options)
            figure = guarded(report.source, "timeline", lambda: plot_timeline(report, window=window))
        elif args.command == "agents":
            domain, options = reading(parser, args)
            reports = [raised(result).to_dict() for result in analyze_games(domain, *args.paths, **options)]
            if not reports:
                raise StripsIntError(" ".join(map(str, args.paths)), None, "no game files")
            figure = guarded(" ".join(map(str, args.paths)), "agents", lambda: plot_agents(reports))
        else:
            domain, options = reading(parser, args)
            report = first_report(domain, args.trace, **options)
            figure = guarded(report.source, "influence",
                             lambda: plot_influence(report, args.object, args.since, whole=args.all))
        print(guarded(str(args.out), "saving", lambda: save(figure, args.out)))
    except StripsIntError as exc:
        games = [] if args.command == "summary" else args.paths if args.command == "agents" else [args.trace]
        return fail((games and swapped_arguments(args.domain, games, f"{prog} {args.command}")) or exc)
    return 0

