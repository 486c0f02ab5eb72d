"""``python -m strips_int.evaluate DOMAIN PATH... --out DIR [--jobs N] [--group-by KEY,...]`` (or ``strips-int evaluate``)
``python -m strips_int.evaluate merge DIR... --out DIR`` (see :mod:`strips_int.cli.merge`)

Analyse every game under the given files and folders, in parallel, and write
paper tables into DIR (:mod:`strips_int.batch.evaluate`). A broken game is a
row with its error and makes the exit status 1; bad usage or input that stops
the whole run is one ``error:`` line and exit 2; Ctrl-C or SIGTERM stops the
run as interrupted (128 + the signal), and ``--resume`` goes on from there.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from strips_int.errors import printable

from .contract import (Parser, add_domain_argument, add_grounder_options, add_help_cost_option, add_pragma_options,
                       command, domain_of, fail, grounder_options, out_folder, pragmas, whole)


def build_parser(prog: str = "python -m strips_int.evaluate") -> argparse.ArgumentParser:
    from strips_int.batch.engines import available_cpus

    parser = Parser(prog=prog, description="Analyse many games and write per-game and grouped tables.")
    add_domain_argument(parser)
    parser.add_argument("paths", type=Path, nargs="*", metavar="PATH", help="game files or folders (walked): "
                        "traces, raw games, plan files")
    parser.add_argument("--out", type=out_folder, required=True, help="output folder (created if missing)")
    parser.add_argument("--problem", type=Path, help="the PDDL problem of every plan and trace (default: a "
                        "trace's own; a plan's beside it: p01.pddl for p01.plan, else the one problem in its folder)")
    parser.add_argument("--jobs", type=int, default=available_cpus(),
                        help="processes, or local Dask workers (default: the CPUs this process may use)")
    parser.add_argument("--scheduler", metavar="ADDRESS|local",
                        help="run the games on the Dask cluster at ADDRESS (tcp://host:8786), or on a local one")
    parser.add_argument("--files-from", type=Path, metavar="LIST", help="a file naming game files or folders, "
                        "one per line (with or instead of PATH)")
    parser.add_argument("--shard", default="0/1", metavar="i/n",
                        help="evaluate only files k with k mod n = i of the whole list (merge the shards "
                        "with: merge DIR... --out DIR)")
    parser.add_argument("--group-by", type=lambda t: [k for k in t.split(",") if k],
                        metavar="KEY,...", help="group keys: meta keys (layout, agent, partner, rules, format, ...) "
                        "or folder (default: layout,agent)")
    parser.add_argument("--resamples", type=whole(1, 100_000), default=2000,
                        help="bootstrap resamples, 1 to 100,000 (default 2000)")
    parser.add_argument("--seed", type=whole(0, 2**32 - 1), default=0, help="bootstrap seed (default 0)")
    again = parser.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true", default=None,
                       help="go on with the interrupted run in --out (the same inputs and options), an error if "
                       "there is none (without --resume or --restart, the same command goes on by itself)")
    again.add_argument("--restart", dest="resume", action="store_false", default=None,
                       help="start the run in --out over, even where an interrupted run of the same inputs could go on")
    parser.add_argument("--overwrite", action="store_true",
                        help="write into --out even when it holds another study (replaced) or files no run "
                        "wrote (left beside the tables); by default such a folder is refused")
    add_help_cost_option(parser)
    add_pragma_options(parser)
    add_grounder_options(parser, "read")
    return parser


#: How many files an error shared by many is printed for.
REPEATS = 3


class Printed:
    """A run's events on standard error: each error row, and a progress bar on a terminal."""

    def __init__(self, out: Path, scenarios: int = 0) -> None:
        self.out = out
        self.tty = sys.stderr.isatty()
        self.scenarios = scenarios
        self.tally: Any = None
        #: How often each error (without its file) was seen: one that many files share is printed
        #: :data:`REPEATS` times, then once with the count of the others (every row has it).
        self.errors: dict[str, int] = {}

    def started(self, tally: Any, resumed: bool) -> None:
        self.tally = tally
        if self.scenarios:
            print(f"note: passed over {self.scenarios} SAR scenario file(s) (simulator inputs, not games)",
                  file=sys.stderr)
        if resumed:
            print(f"resuming: {tally.done} of {tally.files} files were done by the interrupted run in {self.out} "
                  "(--restart starts over)", file=sys.stderr)

    def file_done(self, rows: list[dict[str, Any]], tally: Any) -> None:
        self.tally = tally
        for row in rows:
            if row["error"]:
                what = row["error"].removeprefix(f"{printable(row['source'])}: ")
                self.errors[what] = seen = self.errors.get(what, 0) + 1
                if seen <= REPEATS:
                    print(("\r\033[K" if self.tty else "") + f"error: {row['error']}", file=sys.stderr)
        if self.tty:
            width = 30
            filled = width * tally.done // max(tally.files, 1)
            print(f"\r[{'#' * filled}{' ' * (width - filled)}] {tally.done}/{tally.files} files, {tally.games} "
                  f"games, {tally.errors} errors", end="", file=sys.stderr, flush=True)

    def finished(self) -> None:
        if self.tty:
            print(file=sys.stderr)
        for what, seen in self.errors.items():
            if seen > REPEATS:
                print(f"error: {seen - REPEATS} more files (in games.csv): {what}", file=sys.stderr)


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM (a scheduler's stop, ``kill``) as Ctrl-C: the run ends the same way, as interrupted."""
    raise KeyboardInterrupt(signum)


def interrupted_status(stop: KeyboardInterrupt) -> int:
    """The shell's exit status of a process the signal stopped: 128 + its number (130 for Ctrl-C)."""
    return 128 + (stop.args[0] if stop.args else signal.SIGINT)


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.evaluate") -> int:
    if argv is None:
        argv = sys.argv[1:]
    from strips_int.batch.workers import quiet_gc

    quiet_gc()  # from here: the grounders' imports and the domain cost no collections
    # numpy (the bootstrap) needs no BLAS; OpenBLAS's idle threads would spin some 40 ms of CPU
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if argv[:1] == ["merge"]:
        from .merge import main as merge_main

        return merge_main(argv[1:])
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    from strips_int.batch.engines import engine
    from strips_int.batch.evaluate import Study, run_study
    from strips_int.batch.games import GAME_SUFFIXES, game_files
    from strips_int.batch.outputs import Occupied, locked
    from strips_int.batch.shards import parse_shard, read_file_list
    from strips_int.errors import StripsIntError, guarded
    from strips_int.grounders import check_options
    from strips_int.model.problem import load_problem

    previous = signal.signal(signal.SIGTERM, _interrupt)
    start = time.perf_counter()
    printed = Printed(args.out)
    try:
        domain = domain_of(args)
        options = grounder_options(parser, args, domain)
        problem = guarded(str(args.problem), "problem", lambda: load_problem(domain, args.problem)) \
            if args.problem else None
        quiet_gc()  # again, so that collections do not walk the domain and the grounders either
        files, scenarios = game_files([*args.paths, *(read_file_list(args.files_from) if args.files_from else [])],
                                      skip=args.out)
        if not files:
            raise StripsIntError(" ".join(map(str, args.paths)), None, f"no game files ({', '.join(GAME_SUFFIXES)})")
        chosen = args.group_by is not None  # a key of the user's that no game has is an error; a default one not
        options = {**options, **({"help_cost": True} if args.help_cost else {})}
        study = Study(domain, tuple(files), options, tuple(args.group_by or Study.group_by),
                      args.resamples, args.seed, parse_shard(args.shard), pragmas(args), problem, chosen)
        check_options(study.files, study.options)
        printed.scenarios = len(scenarios)
        with locked(args.out):
            try:
                tally, columns = run_study(study, args.out, [*prog.split(), *argv], engine(args.jobs, args.scheduler),
                                           args.resume, printed, args.overwrite)
            except KeyboardInterrupt as stop:
                if printed.tally is None:  # stopped before the run began
                    raise
                print(f"\ninterrupted: {printed.tally.done} of {printed.tally.files} files done; the same command "
                      f"goes on from there -> {args.out}", file=sys.stderr)
                return interrupted_status(stop)
            printed.finished()
    except Occupied as exc:
        return fail(f"{exc} (--overwrite writes there anyway, or choose another --out)")
    except (StripsIntError, OSError) as exc:
        return fail(exc)
    except KeyboardInterrupt as stop:
        print(f"\ninterrupted -> {args.out}", file=sys.stderr)
        return interrupted_status(stop)
    finally:
        signal.signal(signal.SIGTERM, previous)
    missing = [k for k in study.group_by if k not in columns]
    if missing:  # default keys another environment's games lack, or (chosen keys) every game failed
        print(f"warning: no game has the group key(s) {', '.join(missing)}; they read '-'", file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"{tally.games} games, {tally.errors} errors, {seconds:.1f} s ({tally.games / seconds:.1f} games/s) "
          f"-> {args.out}", file=sys.stderr)
    return 1 if tally.errors else 0
