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
of games; a broken game is a row with its error and makes the exit status 1.
From Python, :func:`evaluate_games` returns the rows (a ``pandas.DataFrame``
with ``frame=True``, given the optional extra ``pandas``).
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from .cli import Parser, add_domain_argument, add_grounder_options, command, grounder_options
from .domain import Domain
from .errors import StripsIntError
from .games import GAME_SUFFIXES, as_domain, game_files, report_of
from .report import Report
from .shards import manifest, parse_shard, pick, read_file_list, write_manifest
from .stats import Summary, group_rows, markdown_table, number, summarize

COUNTS = ("interdependencies", "constructive", "non_constructive", "looping", "irrelevant")
#: The metrics of the summary tables, with the names papers use.
METRIC_NAMES = {"reward": "reward", "constructive": "Int_cons", "constructive_required": "Int_cons,req",
                "constructive_optional": "Int_cons,opt", "non_constructive": "Int_non-cons"}
ROLE_METRICS = ("pct_triggers", "pct_not_accepted")


#: Fork where the platform has it (cheap: workers share the loaded code); spawn elsewhere (Windows).
START_METHOD = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


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
    """The rows of every game in one file; a game that cannot be read or analysed is a row with its error."""
    from strips_int.grounders import read_input

    rows = []
    for result in read_input(path, domain, **options):
        try:
            rows.append(game_row(report_of(domain, result)))
        except StripsIntError as exc:
            rows.append(error_row(exc.source if exc.source.startswith(str(path)) else str(path), exc))
    return rows


def evaluate(domain: Domain, files: Sequence[Path], options: Mapping[str, Any], jobs: int = 1
             ) -> Iterator[list[dict[str, Any]]]:
    """The rows of each file, in ``files`` order, computed by ``jobs`` processes."""
    work = functools.partial(file_rows, domain, dict(options))
    if jobs <= 1:
        yield from map(work, files)
        return
    with multiprocessing.get_context(START_METHOD).Pool(jobs) as pool:
        yield from pool.imap(work, files, chunksize=4)


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


def write_games_csv(jsonl: Path, out: Path) -> list[str]:
    """``games.csv`` from the streamed ``games.jsonl`` (two passes: columns, then rows); returns the columns."""
    columns: dict[str, None] = {}
    with open(jsonl) as handle:
        for line in handle:
            columns.update(dict.fromkeys(json.loads(line)))
    first = ["source", "folder", "layout", "agent", "partner", "roles", "reward"]
    ordered = [c for c in first if c in columns] + [c for c in columns if c not in first and c != "error"] + ["error"]
    with open(jsonl) as handle, open(out, "w", newline="") as target:
        writer = csv.DictWriter(target, ordered)
        writer.writeheader()
        for line in handle:
            writer.writerow({k: ("" if v is None else v) for k, v in json.loads(line).items()})
    return ordered


def summary_metrics(columns: Sequence[str]) -> list[str]:
    """Reward, Int_cons, Int_cons,req, Int_cons,opt, Int_non-cons, then each role's trigger percentages."""
    metrics = [m for m in METRIC_NAMES if m in columns]
    return metrics + [c for c in columns if c.endswith(ROLE_METRICS)]


def summarize_games(games_csv: Path, keys: Sequence[str], resamples: int = 2000, seed: int = 0
                    ) -> tuple[list[str], dict[tuple[str, ...], dict[str, Summary]]]:
    """Per group of the analysed games (errors left out), each metric's :class:`Summary`."""
    with open(games_csv, newline="") as handle:
        reader = csv.DictReader(handle)
        metrics = summary_metrics(reader.fieldnames or [])
        rows = [row for row in reader if not row["error"]]
    table = {}
    for group, members in group_rows(rows, keys).items():
        table[group] = {m: summarize([number(r[m]) for r in members], resamples, seed) for m in metrics}
    return metrics, table


def metric_label(metric: str) -> str:
    if metric in METRIC_NAMES:
        return METRIC_NAMES[metric]
    role, _, what = metric.rpartition("_pct_")
    return f"%{role} {'trig' if what == 'triggers' else 'not-acc'}"


def write_summaries(out: Path, keys: Sequence[str], metrics: Sequence[str],
                    table: dict[tuple[str, ...], dict[str, Summary]]) -> None:
    """``summary.csv`` (long), ``summary.md`` and ``summary.tex`` (one row per group: mean [95 % CI])."""
    with open(out / "summary.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([*keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"])
        for group, cells in table.items():
            for metric, s in cells.items():
                writer.writerow([*group, metric, s.n, *(f"{v:.4f}" for v in (s.mean, s.sd, s.ci_low, s.ci_high))])

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
    (out / "summary.md").write_text(note + "\n\n" + markdown_table(header, body))

    def tex(text: str) -> str:
        return text.replace("\\", r"\textbackslash{}").replace("_", r"\_").replace("%", r"\%").replace("&", r"\&")

    lines = [r"\begin{tabular}{" + "l" * len(keys) + "r" * (len(header) - len(keys)) + "}", r"\toprule",
             " & ".join(tex(h) for h in header) + r" \\", r"\midrule"]
    lines += [" & ".join(tex(c) for c in r) + r" \\" for r in body]
    lines += [r"\bottomrule", r"\end{tabular}"]
    (out / "summary.tex").write_text(f"% {note} Needs \\usepackage{{booktabs}}\n"
                                     + "\n".join(lines) + "\n")


def write_tables(out: Path, keys: Sequence[str], resamples: int, seed: int) -> list[str]:
    """``games.csv`` and the summaries from ``out/games.jsonl``; returns the games table's columns."""
    columns = write_games_csv(out / "games.jsonl", out / "games.csv")
    metrics, table = summarize_games(out / "games.csv", keys, resamples, seed)
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
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    add_grounder_options(parser, "read")
    return parser


def _progress(done: int, total: int, games: int, errors: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    print(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} files, {games} games, {errors} errors",
          end="", file=sys.stderr, flush=True)


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.evaluate") -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["merge"]:
        from .merge import main as merge_main  # merge builds on this module's table writers

        return merge_main(argv[1:])
    args = build_parser(prog).parse_args(argv)
    start = time.perf_counter()
    try:
        domain = as_domain(args.domain)
        files, scenarios = game_files([*args.paths, *(read_file_list(args.files_from) if args.files_from else [])])
        if not files:
            raise StripsIntError(" ".join(map(str, args.paths)), None, f"no game files ({', '.join(GAME_SUFFIXES)})")
        args.out.mkdir(parents=True, exist_ok=True)
        options = grounder_options(args)
        shard = parse_shard(args.shard)
        picked = pick(len(files), shard)
        shard_files = [files[k] for k in picked]
        if args.scheduler:
            from .cluster import evaluate_on_cluster  # imports dask, an optional extra, when first used

            batches = evaluate_on_cluster(domain, shard_files, options, args.scheduler, args.jobs)
        else:
            batches = evaluate(domain, shard_files, options, args.jobs)
    except (StripsIntError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if scenarios:
        print(f"note: passed over {len(scenarios)} SAR scenario file(s) (simulator inputs, not games)", file=sys.stderr)
    jsonl = args.out / "games.jsonl"
    games = errors = 0
    counts = []
    tty = sys.stderr.isatty()
    with open(jsonl, "w") as handle:
        for done, rows in enumerate(batches, start=1):
            counts.append(len(rows))
            for row in rows:
                handle.write(json.dumps(row) + "\n")
                games += not row["error"]
                errors += bool(row["error"])
                if row["error"]:
                    print(("\r\033[K" if tty else "") + f"error: {row['error']}", file=sys.stderr)
            if tty:
                _progress(done, len(shard_files), games, errors)
    if tty:
        print(file=sys.stderr)
    settings = {**options, "group_by": args.group_by, "resamples": args.resamples, "seed": args.seed}
    write_manifest(args.out, manifest(domain.source, files, picked, counts, shard, settings))
    columns = write_tables(args.out, args.group_by, args.resamples, args.seed)
    missing = [k for k in args.group_by if k not in columns]
    if missing:
        print(f"warning: no game has the group key(s) {', '.join(missing)}; they read '-'", file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"{games} games, {errors} errors, {seconds:.1f} s ({games / seconds:.1f} games/s) -> {args.out}",
          file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
