"""``python -m strips_int.evaluate DOMAIN PATH... --out DIR [--jobs N] [--group-by KEY,...]``
``python -m strips_int.evaluate merge DIR... --out DIR`` (see :mod:`strips_int.merge`)

Analyse every game under the given files and folders, in parallel, and write
paper tables:

* ``DIR/games.jsonl`` then ``DIR/games.csv``: one row per game (source,
  group keys, reward, every count, each role's trigger figures and required
  interdependences given and received, error);
* ``DIR/summary.csv`` (long: one row per group and metric), ``summary.md`` and
  ``summary.tex``: n, mean, standard deviation and 95 % bootstrap interval of
  reward, Int_cons (and its required and optional parts, SPEC section 10),
  Int_non-cons and the trigger percentages, per group.

Rows are streamed to disk as games finish, so memory stays flat in the number
of games; a broken game is a row with its error and makes the exit status 1,
whatever broke it, a dead worker process included (:mod:`strips_int.workers`).
The output folder is locked, written atomically, described by ``manifest.json``
and resumable after an interruption (:mod:`strips_int.outputs`).
From Python, :func:`evaluate_games` returns the rows (a ``pandas.DataFrame``
with ``frame=True``, given the optional extra ``pandas``).
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import signal
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .cli import Parser, add_domain_argument, add_grounder_options, command, grounder_options, whole
from .domain import Domain
from .errors import StripsIntError, internal_error
from .files import atomic_open, write_atomic
from .games import GAME_SUFFIXES, as_domain, game_files, read_file, report_of
from .outputs import (JOURNAL, PROGRESS, fresh, locked, now, resumable, run_inputs,
                      write_run_manifest)
from .report import Report
from .shards import manifest, parse_shard, pick, read_file_list, write_manifest
from .stats import Summary, group_rows, markdown_table, number, summarize_all, tex
from .workers import map_files, quiet_gc

COUNTS = ("interdependencies", "constructive", "non_constructive", "looping", "irrelevant")
#: The metrics of the summary tables, with the names papers use.
METRIC_NAMES = {"reward": "reward", "constructive": "Int_cons", "constructive_required": "Int_cons,req",
                "constructive_optional": "Int_cons,opt", "non_constructive": "Int_non-cons"}
ROLE_METRICS = ("pct_triggers", "pct_not_accepted")
#: How text a spreadsheet runs as a formula starts (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def available_cpus() -> int:
    """The CPUs this process may run on (a job scheduler's grant, where the OS tells), else all."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def game_row(report: Report) -> dict[str, Any]:
    """One row of ``games.csv``: group keys from ``meta``, reward, counts and each role's agent metrics."""
    meta = report.meta
    roles = meta.get("roles") or {}
    row: dict[str, Any] = {"source": report.source, "folder": Path(report.source).parent.name}
    row.update({k: v for k, v in meta.items() if isinstance(v, (str, int, float, bool)) and k not in row})
    row["roles"] = ";".join(f"{agent}={role}" for agent, role in roles.items())
    row["steps"] = len(report.steps)
    row["goal_facts"], row["goal_achieved"] = len(report.goal), len(report.achieved)
    row.update(report.counts)
    for agent, metrics in report.agent_metrics().items():
        role = roles.get(agent, agent)
        row.update({f"{role}_{name}": value for name, value in metrics.items() if name != "type"})
    row["error"] = ""
    return row


def error_row(source: str, error: StripsIntError) -> dict[str, Any]:
    """The row of a game that could not be read or analysed."""
    return {"source": source, "folder": Path(source).parent.name, "error": str(error)}


def file_rows(domain: Domain, options: Mapping[str, Any], path: Path) -> list[dict[str, Any]]:
    """The rows of every game in one file; a game that cannot be read or analysed is a row with its
    error, whatever the exception (a reader that fails outside a game costs the rest of its file)."""
    rows = []
    for result in read_file(path, domain, **options):
        try:
            rows.append(game_row(report_of(domain, result)))
        except StripsIntError as exc:
            rows.append(error_row(exc.source if exc.source.startswith(str(path)) else str(path), exc))
        except Exception as exc:  # noqa: BLE001 - one game's failure of any kind is its row
            rows.append(error_row(str(path), internal_error(str(path), None, exc)))
    return rows


def died_rows(path: Path, how: str) -> list[dict[str, Any]]:
    """The row of a file whose worker process died on it twice."""
    return [error_row(str(path), StripsIntError(str(path), None, f"worker died on this file twice ({how}; "
                                                "out of memory?)"))]


def evaluate(domain: Domain, files: Sequence[Path], options: Mapping[str, Any], jobs: int = 1
             ) -> Iterator[list[dict[str, Any]]]:
    """The rows of each file, in ``files`` order, computed by ``jobs`` processes (a worker that dies
    costs a retry, then the file's error row: :mod:`strips_int.workers`)."""
    work = functools.partial(file_rows, domain, dict(options))
    if jobs <= 1:
        yield from map(work, files)
        return
    import multiprocessing  # only here: one process needs none of it

    # fork where the platform has it (cheap: workers share the loaded code); spawn elsewhere (Windows)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    yield from map_files(multiprocessing.get_context(method), work, files, jobs, died_rows)


def evaluate_games(domain: Domain | str | Path, *paths: str | Path, jobs: int = 1, frame: bool = False,
                   **options: Any) -> Any:
    """The rows of ``games.csv`` for every game under ``paths`` (files or folders), as a list of dicts,
    or a ``pandas.DataFrame`` with ``frame=True`` (``pip install strips_int[pandas]``).

    ``options`` are grounder options (``layout``, ``roles``, ...); a broken game is a row with its error.
    """
    domain = as_domain(domain)
    files, _ = game_files(paths)
    rows = [row for file in evaluate(domain, files, options, jobs) for row in file]
    if not frame:
        return rows
    try:
        import pandas
    except ImportError:
        raise StripsIntError("pandas", None, "not installed: pip install 'strips_int[pandas]'") from None
    return pandas.DataFrame(rows)


def read_journal(jsonl: Path, keys: Sequence[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The columns of ``games.jsonl`` in ``games.csv`` order; and of each analysed game (errors left out)
    the cells the summaries read, its group keys and metrics, so memory holds a few numbers a game."""
    columns: dict[str, None] = {}
    cells = []
    kept = functools.cache(lambda column: column in keys or is_metric(column))  # rows share their columns
    with open(jsonl) as handle:
        for row in map(journal_row, handle):
            columns.update(dict.fromkeys(row))
            if not row["error"]:
                cells.append({k: v for k, v in row.items() if kept(k)})
    first = ["source", "folder", "layout", "agent", "partner", "roles", "reward"]
    ordered = [c for c in first if c in columns] + [c for c in columns if c not in first and c != "error"]
    return [*ordered, "error"], cells


def journal_row(line: str) -> dict[str, Any]:
    """A line of ``games.jsonl`` as :func:`json.loads` reads it (the same value, the same errors), at a
    quarter of the cost by msgspec; json reads what msgspec refuses (NaN, Infinity, a lone surrogate:
    ``json.dumps`` writes them) and raises what neither reads."""
    import msgspec  # the Overcooked reader's decoder, so loaded already in a run of Overcooked games

    try:
        return msgspec.json.decode(line)
    except msgspec.DecodeError:
        return json.loads(line)


def write_games_csv(jsonl: Path, out: Path, columns: Sequence[str]) -> None:
    """``games.csv`` from the streamed ``games.jsonl``, row by row (the columns read first: :func:`read_journal`)."""
    with open(jsonl) as handle, atomic_open(out, newline="") as target:
        writer = csv.writer(target)
        writer.writerow(columns)
        for line in handle:
            row = journal_row(line)
            writer.writerow([cell_text(row.get(column)) for column in columns])  # a column a row lacks is empty


def cell_text(value: Any) -> Any:
    """A CSV cell: text a spreadsheet would run as a formula (``=HYPERLINK(...)``: it starts with
    ``= + - @``, a tab or a carriage return, and goes on) gets a leading ``'``; numbers, text that is
    one, and a lone sign (``-``, the summaries' missing group key) stay."""
    if isinstance(value, str) and len(value) > 1 and value.startswith(FORMULA_STARTS) and number(value) is None:
        return "'" + value
    return "" if value is None else value


def summary_metrics(columns: Sequence[str]) -> list[str]:
    """Reward, Int_cons, Int_cons,req, Int_cons,opt, Int_non-cons, then each role's trigger percentages."""
    metrics = [m for m in METRIC_NAMES if m in columns]
    return metrics + [c for c in columns if c.endswith(ROLE_METRICS)]


def is_metric(column: str) -> bool:
    """Whether :func:`summary_metrics` takes ``column`` when a game has it."""
    return column in METRIC_NAMES or column.endswith(ROLE_METRICS)


def summarize_games(cells: Sequence[Mapping[str, Any]], columns: Sequence[str], keys: Sequence[str],
                    resamples: int = 2000, seed: int = 0
                    ) -> tuple[list[str], dict[tuple[str, ...], dict[str, Summary]]]:
    """Per group of the analysed games, each metric's :class:`Summary`, from the games' cells of
    :func:`read_journal` (the rows as analysed: no CSV field limit, no cell made safe for spreadsheets)."""
    metrics = summary_metrics(columns)
    groups = group_rows(cells, keys)
    values = [[number(r.get(m)) for r in members] for members in groups.values() for m in metrics]
    summaries = iter(summarize_all(values, resamples, seed))  # one call: draws shared across groups
    return metrics, {group: {m: next(summaries) for m in metrics} for group in groups}


def metric_label(metric: str) -> str:
    if metric in METRIC_NAMES:
        return METRIC_NAMES[metric]
    role, _, what = metric.rpartition("_pct_")
    return f"%{role} {'trig' if what == 'triggers' else 'not-acc'}"


def write_summaries(out: Path, keys: Sequence[str], metrics: Sequence[str],
                    table: dict[tuple[str, ...], dict[str, Summary]]) -> None:
    """``summary.csv`` (long), ``summary.md`` and ``summary.tex`` (one row per group: mean [95 % CI])."""
    with atomic_open(out / "summary.csv", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([*keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"])
        for group, cells in table.items():
            for metric, s in cells.items():
                writer.writerow([*map(cell_text, group), metric, s.n,
                                 *(f"{v:.4f}" for v in (s.mean, s.sd, s.ci_low, s.ci_high))])

    def cell(s: Summary, games: int) -> str:
        if s.n == 0:
            return "-"
        text = f"{s.mean:.2f}" if s.n < 2 else f"{s.mean:.2f} [{s.ci_low:.2f}, {s.ci_high:.2f}]"
        return text if s.n == games else f"{text} (n={s.n})"

    header = [*keys, "games", *(metric_label(m) for m in metrics)]
    body = []
    for group, cells in table.items():
        games = max(s.n for s in cells.values())
        body.append([*group, str(games), *(cell(cells[m], games) for m in metrics)])
    note = "Mean [95 % bootstrap CI] per group; (n=k) where a cell rests on fewer games; no CI under 2 games."
    write_atomic(out / "summary.md", note + "\n\n" + markdown_table(header, body))

    lines = [r"\begin{tabular}{" + "l" * len(keys) + "r" * (len(header) - len(keys)) + "}", r"\toprule",
             " & ".join(tex(h) for h in header) + r" \\", r"\midrule"]
    lines += [" & ".join(tex(c) for c in r) + r" \\" for r in body]
    lines += [r"\bottomrule", r"\end{tabular}"]
    write_atomic(out / "summary.tex", f"% {note} Needs \\usepackage{{booktabs}}\n" + "\n".join(lines) + "\n")


def write_tables(out: Path, keys: Sequence[str], resamples: int, seed: int) -> list[str]:
    """``games.csv`` and the summaries from ``out/games.jsonl``; returns the games table's columns."""
    columns, cells = read_journal(out / JOURNAL, keys)
    write_games_csv(out / JOURNAL, out / "games.csv", columns)
    metrics, table = summarize_games(cells, columns, keys, resamples, seed)
    write_summaries(out, keys, metrics, table)
    return columns


def build_parser(prog: str = "python -m strips_int.evaluate") -> argparse.ArgumentParser:
    parser = Parser(prog=prog,
                                     description="Analyse many games and write per-game and grouped tables.")
    add_domain_argument(parser)
    parser.add_argument("paths", type=Path, nargs="*", metavar="PATH", help="game files or folders (walked)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--jobs", type=int, default=available_cpus(),
                        help="processes, or local Dask workers (default: the CPUs this process may use)")
    parser.add_argument("--scheduler", metavar="ADDRESS|local",
                        help="run the games on the Dask cluster at ADDRESS (tcp://host:8786), or on a local one")
    parser.add_argument("--files-from", type=Path, metavar="LIST", help="a file naming game files or folders, "
                        "one per line (with or instead of PATH)")
    parser.add_argument("--shard", default="0/1", metavar="i/n",
                        help="evaluate only files k with k mod n = i of the whole list (merge the shards "
                        "with: merge DIR... --out DIR)")
    parser.add_argument("--group-by", default="layout,agent", type=lambda t: [k for k in t.split(",") if k],
                        metavar="KEY,...", help="group keys: meta keys (layout, agent, partner, rules, format, ...) "
                        "or folder (default: layout,agent)")
    parser.add_argument("--resamples", type=whole(1, 100_000), default=2000,
                        help="bootstrap resamples, 1 to 100,000 (default 2000)")
    parser.add_argument("--seed", type=whole(0, 2**32 - 1), default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--resume", action="store_true", help="go on with the interrupted run in --out "
                        "(the same inputs and options): its finished files are not done again")
    add_grounder_options(parser, "read")
    return parser


def _progress(done: int, total: int, games: int, errors: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    print(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} files, {games} games, {errors} errors",
          end="", file=sys.stderr, flush=True)


@dataclass
class Tally:
    """How far a run got: files done of all, games analysed and error rows (the manifest's counts)."""

    files: int
    done: int = 0
    games: int = 0
    errors: int = 0

    def add(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self.done += 1
        self.errors += sum(bool(row["error"]) for row in rows)
        self.games += sum(not row["error"] for row in rows)


def stream(out: Path, batches: Iterable[list[dict[str, Any]]], counts: list[int], tally: Tally) -> None:
    """Append each file's rows to ``games.jsonl``, then the file's line to ``games.progress`` (a resume
    trusts the rows of the files that line counts), and report errors and progress."""
    tty = sys.stderr.isatty()
    with open(out / JOURNAL, "a") as journal, open(out / PROGRESS, "a") as progress:
        for read in batches:
            pairs = [journal_line(row) for row in read]
            rows = [row for row, _ in pairs]
            journal.write("".join(line for _, line in pairs))
            journal.flush()
            progress.write(f"{len(counts)} {len(rows)}\n")
            progress.flush()
            counts.append(len(rows))
            tally.add(rows)
            for row in rows:
                if row["error"]:
                    print(("\r\033[K" if tty else "") + f"error: {row['error']}", file=sys.stderr)
            if tty:
                _progress(tally.done, tally.files, tally.games, tally.errors)
    if tty:
        print(file=sys.stderr)


def journal_line(row: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``row`` and its line of ``games.jsonl``; a row JSON cannot hold (a number of more than 4,300
    digits, which a pickle can carry) is replaced by its game's error row."""
    try:
        return row, json.dumps(row) + "\n"
    except ValueError as exc:
        row = error_row(row["source"], internal_error(row["source"], None, exc))
        return row, json.dumps(row) + "\n"


def journal_tally(out: Path, counts: Sequence[int], files: int) -> Tally:
    """The tally of the files a resumed run had finished, from their rows in ``games.jsonl``."""
    tally = Tally(files)
    with open(out / JOURNAL) as handle:
        for n in counts:
            tally.add([journal_row(handle.readline()) for _ in range(n)])
    return tally


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM (a scheduler's stop, ``kill``) as Ctrl-C: the run ends the same way, as interrupted."""
    raise KeyboardInterrupt(signum)


def interrupted_status(stop: KeyboardInterrupt) -> int:
    """The shell's exit status of a process the signal stopped: 128 + its number (130 for Ctrl-C)."""
    return 128 + (stop.args[0] if stop.args else signal.SIGINT)


def run(args: argparse.Namespace, command: Sequence[str], domain: Domain, files: Sequence[Path],
        picked: Sequence[int], options: dict[str, Any], inputs: dict[str, Any], scenarios: int) -> int:
    """Evaluate ``files[k] for k in picked`` into ``args.out`` (locked by the caller), from where an
    interrupted run stopped with ``--resume``; the manifest says how the run ended. An earlier run's
    outputs are removed once the engine is up (a scheduler that cannot be reached leaves them)."""
    start = time.perf_counter()
    counts = resumable(args.out, inputs) if args.resume else []
    todo = [files[k] for k in picked[len(counts):]]
    if args.scheduler:
        from .cluster import evaluate_on_cluster  # imports dask, an optional extra, when first used

        batches = evaluate_on_cluster(domain, todo, options, args.scheduler, args.jobs)
    else:
        batches = evaluate(domain, todo, options, args.jobs)
    if scenarios:
        print(f"note: passed over {scenarios} SAR scenario file(s) (simulator inputs, not games)", file=sys.stderr)
    if args.resume:
        print(f"resuming: {len(counts)} of {len(picked)} files were done", file=sys.stderr)
    else:
        fresh(args.out)
    tally = journal_tally(args.out, counts, len(picked)) if counts else Tally(len(picked))
    started, status = now(), "failed"
    write_run_manifest(args.out, command, inputs, started, "running", asdict(tally))
    try:
        stream(args.out, batches, counts, tally)
        write_manifest(args.out, manifest(domain.source, files, picked, counts, parse_shard(args.shard),
                                          inputs["options"]))
        columns = write_tables(args.out, args.group_by, args.resamples, args.seed)
        status = "complete"
    except KeyboardInterrupt as stop:
        status = "interrupted"
        print(f"\ninterrupted: {tally.done} of {tally.files} files done; the same command with --resume "
              f"goes on -> {args.out}", file=sys.stderr)
        return interrupted_status(stop)
    finally:
        write_run_manifest(args.out, command, inputs, started, status, asdict(tally))
    (args.out / PROGRESS).unlink(missing_ok=True)
    missing = [k for k in args.group_by if k not in columns]
    if missing:
        print(f"warning: no game has the group key(s) {', '.join(missing)}; they read '-'", file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"{tally.games} games, {tally.errors} errors, {seconds:.1f} s ({tally.games / seconds:.1f} games/s) "
          f"-> {args.out}", file=sys.stderr)
    return 1 if tally.errors else 0


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.evaluate") -> int:
    if argv is None:
        argv = sys.argv[1:]
    quiet_gc()  # from here: the grounders' imports and the domain cost no collections
    # numpy (the bootstrap) needs no BLAS; OpenBLAS's idle threads would spin some 40 ms of CPU
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if argv[:1] == ["merge"]:
        from .merge import main as merge_main  # merge builds on this module's table writers

        return merge_main(argv[1:])
    args = build_parser(prog).parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        domain = as_domain(args.domain)
        quiet_gc()  # again, so that collections do not walk the domain and the grounders either
        files, scenarios = game_files([*args.paths, *(read_file_list(args.files_from) if args.files_from else [])],
                                      skip=args.out)
        if not files:
            raise StripsIntError(" ".join(map(str, args.paths)), None, f"no game files ({', '.join(GAME_SUFFIXES)})")
        picked = pick(len(files), parse_shard(args.shard))
        options = grounder_options(args)
        settings = {**options, "group_by": args.group_by, "resamples": args.resamples, "seed": args.seed}
        inputs = run_inputs(domain.source, [files[k] for k in picked], settings, args.shard)
        with locked(args.out):
            return run(args, [*prog.split(), *argv], domain, files, picked, options, inputs, len(scenarios))
    except (StripsIntError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        print(f"\ninterrupted -> {args.out}", file=sys.stderr)
        return interrupted_status(stop)
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
