"""``python -m strips_int.check DOMAIN TRACE... [--problem P] [--json] [grounder options]`` (or ``strips-int check``)

Analyse one or more traces, or raw games a grounder recognizes (Overcooked
JSON, pickles, CSV; SAR grid-world logs), against a PDDL domain in one
process. Exit status: 0 all analysed, 1 some trace failed (each failure is
one error line; the others are still reported), 2 a bad domain or bad usage.
``--plot``, ``--graphml`` and ``--html`` create the folders they write into.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from strips_int.errors import StripsIntError, guarded
from strips_int.files import output_file

from .contract import (Parser, add_domain_argument, add_grounder_options, add_help_cost_option, add_pragma_options,
                       command, domain_of, fail, grounder_options, swapped_arguments)


def build_parser(prog: str = "python -m strips_int.check") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Find who helped whom in recorded multi-agent traces (interdependencies, "
        "their categories, triggers).",
    )
    add_domain_argument(parser)
    parser.add_argument("traces", type=Path, nargs="+", metavar="TRACE",
                        help="strips-int-trace/1 JSON files, plan files (one ground action a line), or raw "
                        "games an installed grounder reads (Overcooked, JaxMARL, SAR, Hanabi, Collab and football logs "
                        "among them)")
    parser.add_argument("--problem", type=Path, help="PDDL problem file for every trace (overrides the trace's "
                        "own) or plan (default: the problem beside the plan)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per trace per line")
    parser.add_argument("--plot", type=Path, metavar="OUT", help="draw each trace's timeline: OUT.png/.pdf/.svg, "
                        "or a folder with several traces (folders are created)")
    parser.add_argument("--graphml", type=Path, metavar="OUT", help="write each trace's causal graph: "
                        "OUT.graphml, or a folder with several traces (folders are created)")
    parser.add_argument("--html", type=Path, metavar="OUT", help="write each trace's self-contained HTML report: "
                        "OUT.html, or a folder with several traces (folders are created)")
    add_help_cost_option(parser)
    add_pragma_options(parser)
    add_grounder_options(parser, "read")
    return parser


class _Outputs:
    """Where each trace's figure or graph goes: OUT itself for one trace, else OUT/<trace name><suffix>."""

    def __init__(self, several: bool) -> None:
        self.several = several
        self.used: set[Path] = set()

    def path(self, out: Path, source: str, suffix: str) -> Path:
        if not self.several and not out.is_dir() and out.suffix and out not in self.used:
            self.used.add(out)
            return out
        self.several = True  # a second game from one file (a CSV of trials) also needs a folder
        stem = Path(source).name.removesuffix(".json").removesuffix(".trace")
        path, n = out / f"{stem}{suffix}", 1
        while path in self.used:
            n += 1
            path = out / f"{stem}-{n}{suffix}"
        self.used.add(path)
        return path


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.check") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    from strips_int.analysis.report import format_text
    from strips_int.batch.games import analyze_file
    from strips_int.model.problem import load_problem

    if args.plot or args.graphml or args.html:  # matplotlib only when a figure is asked for
        from strips_int.visualize import plot_timeline, save, write_graphml, write_html
    try:
        for out in (args.plot, args.graphml, args.html):  # before any work: a FIFO there would block the write
            if out is not None:
                output_file(out, folder=True)
        domain = domain_of(args)
        problem = guarded(str(args.problem), "problem", lambda: load_problem(domain, args.problem)) \
            if args.problem else None
    except StripsIntError as exc:
        return fail(swapped_arguments(args.domain, args.traces, prog) or exc)
    options = grounder_options(parser, args, domain)
    from strips_int.batch.workers import quiet_gc

    quiet_gc()  # a long game makes millions of objects and no cycle: full collections made 100,000 steps super-linear
    outputs = _Outputs(several=len(args.traces) > 1)
    failed = printed = 0
    for path in args.traces:
        if path.is_dir():
            failed += 1
            evaluate = prog.replace("check", "evaluate")
            print(f"error: {path}: a folder; check reads game files, evaluate a folder of them "
                  f"({evaluate} {args.domain} {path} --out DIR)", file=sys.stderr, flush=True)
            continue
        for report in analyze_file(domain, path, problem, args.help_cost, **options):
            try:
                if isinstance(report, StripsIntError):
                    raise report
                if args.plot:
                    out = outputs.path(args.plot, report.source, ".png")
                    guarded(str(out), "plot", lambda: save(plot_timeline(report), out))
                if args.graphml:
                    out = outputs.path(args.graphml, report.source, ".graphml")
                    guarded(str(out), "graphml", lambda: write_graphml(report, out))
                if args.html:
                    out = outputs.path(args.html, report.source, ".html")
                    guarded(str(out), "html", lambda: write_html(report, out))
                text = guarded(report.source, "output",
                               lambda: json.dumps(report.to_dict()) if args.json else format_text(report))
                print(("\n" if printed and not args.json else "") + text, flush=True)
                printed += 1
            except StripsIntError as exc:
                failed += 1
                if args.json:
                    print(json.dumps({"source": str(path), "error": str(exc)}), flush=True)
                else:
                    print(f"error: {exc}", file=sys.stderr, flush=True)
    return 1 if failed else 0
