"""CPU per layout of RC on generated layouts, side by side: the fast path, the planner path, the start commit.

    python benchmarks/rc_layouts.py [--count 300] [--seed 7] [--rounds 3] [--jobs 2]
                                    [--modes fast,planner,start] [--start-tree ../start]
    python benchmarks/rc_layouts.py --scaling [--limit 60] [--sizes 10,20,28,40] [--jobs N]

The first form writes ``--count`` two-player layouts (``generated_layouts.py``, ``--seed``) into a
temporary folder and classifies all of them once per mode and round, each run a child process
whose CPU (user + sys of its own and of every process below it: workers, classifications, Fast
Downward; start-up included) is read from the operating system when it ends (``paper.child_cpu``, as
``revisions.py`` measures two revisions):

* ``fast``: ``python -m strips_int.rc --grid FOLDER --jobs N --out fast.csv`` (this checkout);
* ``planner``: the same with ``--search planner`` (every projection and joint problem by the planner);
* ``start``: the start commit's code (``--start-tree``, a worktree of 65f3e68 with its own ``.venv``),
  whose ``rc --grid`` took one file and planned only the first ordered recipe: one process
  classifying every layout in turn with its ``layout_rc`` (every ordered recipe, as its
  ``--all-layouts`` did; ``--jobs`` planner calls at once).

Modes alternate within a round and rotate between rounds (no warm-up run: the rotation spreads what
a first run pays over the modes). It prints each run's CPU per layout, each
mode's median and spread over the rounds, the ratio of the medians to the fast path (and its range
over the rounds), the CPU model, and each mode's verdicts against an independent flood fill
(``generated_layouts.flood_fill_verdict``).

``--scaling`` classifies each known layout, and open square grids of ``--sizes`` (counters around
open floor, stations in two corners), with 1, 2, 3, 4, 6, 9, ... soups (each step about 1.5 times the
one before, up to ``MAX_SOUPS``) under a ``--limit`` second time limit until one does not finish
(verdict unknown), and prints where each stops.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generated_layouts  # noqa: E402 - the generator beside this script
from paper import ROOT, child_cpu, machine, spread  # noqa: E402 - the CPU of a child, as paper.py measures it

MODES = ("fast", "planner", "start")
#: The start commit classifying many layout files in one process (its ``rc --grid`` took one file).
START_SCRIPT = """
import json, sys
from strips_int.domain import load_domain
from strips_int.errors import StripsIntError
from strips_int.grounders.overcooked import load_grid
from strips_int.rc_cli import layout_rc
domain = load_domain("overcooked")
out, jobs = sys.argv[1], int(sys.argv[2])
verdicts = {}
for path in sys.argv[3:]:
    try:
        verdicts[path] = layout_rc(domain, load_grid(path), jobs=jobs).verdict
    except StripsIntError:
        verdicts[path] = "error"
with open(out, "w") as handle:
    json.dump(verdicts, handle)
print(len(verdicts), "layouts")
"""


def open_grid(size: int) -> str:
    """A ``size`` x ``size`` grid: counters around open floor, onions and pot top left, dish and window bottom left."""
    rows = [["X"] * size for _ in range(size)]
    for y in range(1, size - 1):
        rows[y][1:size - 1] = [" "] * (size - 2)
    rows[0][1], rows[0][2], rows[size - 1][1], rows[size - 1][2] = "O", "P", "D", "S"
    rows[1][1], rows[size - 2][size - 2] = "1", "2"
    return "\n".join("".join(row) for row in rows) + "\n"


def run(mode: str, folder: Path, paths: list[Path], jobs: int, start_tree: Path, work: Path
        ) -> tuple[float, float, dict[str, str]]:
    """One mode's run over every layout: its CPU and wall seconds, and each layout's verdict (a run that
    fails, an error row among them, stops the benchmark)."""
    out = work / f"{mode}.{'json' if mode == 'start' else 'csv'}"
    if mode == "start":
        command = [str(start_tree / ".venv" / "bin" / "python"), "-c", START_SCRIPT, str(out), str(jobs),
                   *map(str, paths)]
    else:
        command = [sys.executable, "-m", "strips_int.rc", "--grid", str(folder), "--jobs", str(jobs), "--out",
                   str(out), *(["--search", "planner"] if mode == "planner" else [])]
    wall = time.perf_counter()
    cpu, _ = child_cpu(command, start_tree if mode == "start" else ROOT)
    wall = time.perf_counter() - wall
    if mode == "start":
        verdicts = json.loads(out.read_text())
    else:
        with open(out, newline="") as handle:
            verdicts = {row["layout"]: row["verdict"] for row in csv.DictReader(handle)}
    return cpu, wall, verdicts


def compare(args: argparse.Namespace) -> None:
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        raise SystemExit(f"unknown modes {', '.join(sorted(unknown))} (known: {', '.join(MODES)})")
    with tempfile.TemporaryDirectory(prefix="rc-layouts-") as tmp:
        work = Path(tmp)
        folder = work / "layouts"
        paths = generated_layouts.write(folder, args.count, args.seed)
        truth = {str(p): generated_layouts.flood_fill_verdict(p.read_text(), p.suffix) for p in paths}
        print(f"{len(paths)} generated layouts (seed {args.seed}): " + ", ".join(
            f"{v} {n}" for v, n in sorted(_tally(truth.values()).items())) + " by flood fill")
        print(f"CPU: {machine()['cpu']} ({machine()['cores']} cores); jobs {args.jobs}; CPU seconds of each run's "
              "whole process tree / layouts\n")
        per_layout: dict[str, list[float]] = {m: [] for m in modes}
        agree: dict[str, list[int]] = {m: [] for m in modes}
        print(f"{'round':>5} {'mode':<8} {'CPU s':>8} {'wall s':>8} {'CPU ms/layout':>14} {'flood fill agrees':>18}")
        for r in range(args.rounds):
            order = modes[r % len(modes):] + modes[:r % len(modes)]
            for mode in order:
                cpu, wall, verdicts = run(mode, folder, paths, args.jobs, args.start_tree, work)
                same = sum(verdicts.get(path) == verdict for path, verdict in truth.items())
                per_layout[mode].append(1000 * cpu / len(paths))
                agree[mode].append(same)
                print(f"{r + 1:>5} {mode:<8} {cpu:>8.1f} {wall:>8.1f} {per_layout[mode][-1]:>14.1f} "
                      f"{same:>11}/{len(paths)}", flush=True)
                if same != len(paths):
                    for path, verdict in truth.items():
                        if verdicts.get(path) != verdict:
                            print(f"      {Path(path).name}: {mode} {verdicts.get(path)}, flood fill {verdict}")
        print(f"\n| mode | CPU ms per layout, median | min-max over {args.rounds} rounds | x fast (medians) "
              f"| x fast, per round | verdicts = flood fill |")
        print("|---|---|---|---|---|---|")
        base = per_layout.get("fast")
        for mode in modes:
            s = spread(per_layout[mode])
            ratio = rounds_ratio = ""
            if base and mode != "fast":
                ratio = f"{s['median'] / statistics.median(base):.1f}"
                each = spread([v / b for v, b in zip(per_layout[mode], base)])
                rounds_ratio = f"{each['min']:.1f}-{each['max']:.1f}"
            print(f"| {mode} | {s['median']:.1f} | {s['min']:.1f}-{s['max']:.1f} | {ratio} | {rounds_ratio} | "
                  f"{min(agree[mode])}/{len(paths)} |")


def _tally(values: Any) -> dict[str, int]:
    found: dict[str, int] = {}
    for value in values:
        found[value] = found.get(value, 0) + 1
    return found


def _own_cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the planner's)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _lifted(lift: Callable[..., Any], layout: Any, domain: Any, soups: int) -> tuple[Any, Any]:
    """A layout's alternatives lifted for ``soups`` soups, as ``classify_alternatives`` reads a start problem
    (in the classification's child, within its time limit)."""
    return domain, lift(layout, domain, soups)


def subjects(sizes: list[int]) -> Iterator[tuple[str, Any]]:
    from strips_int.grounders.overcooked import get_layout, known_layouts
    from strips_int.grounders.overcooked.layouts import parse_grid

    for name in known_layouts(aliases=False):
        yield name, get_layout(name)
    for size in sizes:
        yield f"open {size}x{size}", parse_grid(open_grid(size), f"open{size}", f"open {size}x{size}")


def scaling(limit: float, sizes: list[int], jobs: int | None) -> None:
    from strips_int.analysis.rc import UNKNOWN
    from strips_int.batch.layouts import Settings, classify_alternatives
    from strips_int.cli.rc import MAX_SOUPS
    from strips_int.grounders.overcooked import layout_alternatives
    from strips_int.model.domain import load_domain

    domain = load_domain("overcooked")
    print(f"{'subject':<26} {'soups':>5} {'verdict':<8} {'wall s':>8} {'CPU s':>8}", flush=True)
    steps = sorted({1, 2, 3, *(int(4 * 1.5 ** k) for k in range(12) if 4 * 1.5 ** k < MAX_SOUPS), MAX_SOUPS})
    reach: dict[str, tuple[int, int | None]] = {}
    for name, layout in subjects(sizes):
        reach[name] = (0, None)
        for soups in steps:
            wall, cpu = time.perf_counter(), _own_cpu()
            lifted = functools.partial(_lifted, layout_alternatives, layout, domain, soups)
            _, result = classify_alternatives(lifted, name, Settings(timeout=limit, jobs=jobs),
                                              time.monotonic() + limit)
            wall, cpu = time.perf_counter() - wall, _own_cpu() - cpu
            print(f"{name:<26} {soups:>5} {result.verdict:<8} {wall:>8.2f} {cpu:>8.2f}", flush=True)
            if result.verdict == UNKNOWN:
                reach[name] = (reach[name][0], soups)
                break
            reach[name] = (soups, None)
    print(f"\nclassified within {limit:g} s: most soups tried that finished, fewest that did not:")
    for name, (done, undone) in reach.items():
        print(f"  {name:<26} {done:>4} {undone or '-':>4}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="generated layouts (default 300)")
    parser.add_argument("--seed", type=int, default=7, help="generator seed (default 7; the tests use 0 and 1)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="layouts (start: planner calls) at once (default 2)")
    parser.add_argument("--modes", default=",".join(MODES), help="of fast, planner, start (default: all)")
    parser.add_argument("--start-tree", type=Path, default=ROOT.parent / "start",
                        help="a worktree of the start commit with its own .venv (default ../start)")
    parser.add_argument("--scaling", action="store_true", help="soups 1, 2, ... on layouts and open grids")
    parser.add_argument("--limit", type=float, default=60.0, help="--scaling: time limit per run (default 60)")
    parser.add_argument("--sizes", default="10,20,28,40", help="--scaling: open grid sizes (default 10,20,28,40)")
    args = parser.parse_args()
    if args.scaling:
        scaling(args.limit, [int(s) for s in args.sizes.split(",")], args.jobs)
    else:
        compare(args)


if __name__ == "__main__":
    main()
