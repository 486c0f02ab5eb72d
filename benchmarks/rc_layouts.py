"""Time RC on every known Overcooked layout, and find where ``--soups`` and grid size stop finishing in time.

    python benchmarks/rc_layouts.py [--soups 1] [--repeat 3] [--jobs N]
    python benchmarks/rc_layouts.py --scaling [--limit 60] [--sizes 10,20,28,40] [--jobs N]

The first form prints, per layout, the best of ``--repeat`` runs end to end
(conversion, relaxed reachability, every planner call, analysis of the joint
plan): wall seconds, and CPU seconds of this process plus the planner
processes (the forkserver's one-off start-up, about 1.5 s of imports, is not
in any row). ``--scaling`` classifies each layout, and open square grids of
``--sizes`` (counters around open floor, stations in two corners), with
1, 2, 3, 4, 6, 8, 12, ... soups (each step about 1.5 times the one before, up
to ``MAX_SOUPS``) under a ``--limit`` second time limit until one does not
finish (verdict unknown), and prints where each stops.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Iterator

from strips_int.model.domain import load_domain
from strips_int.grounders.overcooked import get_layout, known_layouts
from strips_int.grounders.overcooked.layouts import parse_grid
from strips_int.analysis.rc import UNKNOWN
from strips_int.cli.rc import MAX_SOUPS, classify_layouts, layout_rc


def open_grid(size: int) -> str:
    """A ``size`` x ``size`` grid: counters around open floor, onions and pot top left, dish and window bottom left."""
    rows = [["X"] * size for _ in range(size)]
    for y in range(1, size - 1):
        rows[y][1:size - 1] = [" "] * (size - 2)
    rows[0][1], rows[0][2], rows[size - 1][1], rows[size - 1][2] = "O", "P", "D", "S"
    rows[1][1], rows[size - 2][size - 2] = "1", "2"
    return "\n".join("".join(row) for row in rows) + "\n"


def cpu_seconds(result: Any, parent: float) -> float:
    """This process's CPU seconds (``parent``) plus those of the result's planner calls."""
    return parent + sum(a.search.cpu for a in result.agents.values()) + result.joint.cpu


def timed(run) -> tuple[Any, float, float]:
    """``run()``, its wall seconds and CPU seconds (this process and its planner processes)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, cpu_seconds(result, time.process_time() - cpu)


def layouts_table(soups: int, repeat: int, jobs: int | None) -> None:
    names = known_layouts(aliases=False)
    best: dict[str, tuple[float, float, str]] = {}
    for _ in range(repeat):
        results = classify_layouts(names, soups, jobs=jobs)
        for name in names:
            result, wall, cpu = timed(lambda: next(results))
            if name not in best or cpu < best[name][1]:
                best[name] = (wall, cpu, result.verdict)
    print(f"{'layout':<26} {'verdict':<8} {'wall s':>8} {'CPU s':>8}")
    for name, (wall, cpu, verdict) in best.items():
        print(f"{name:<26} {verdict:<8} {wall:>8.2f} {cpu:>8.2f}")
    print(f"slowest: {max(w for w, _, _ in best.values()):.2f} s wall, {max(c for _, c, _ in best.values()):.2f} s CPU")


def subjects(sizes: list[int]) -> Iterator[tuple[str, Any]]:
    for name in known_layouts(aliases=False):
        yield name, get_layout(name)
    for size in sizes:
        yield f"open {size}x{size}", parse_grid(open_grid(size), f"open{size}", f"open {size}x{size}")


def scaling(limit: float, sizes: list[int], jobs: int | None) -> None:
    domain = load_domain("overcooked")
    print(f"{'subject':<26} {'soups':>5} {'verdict':<8} {'wall s':>8} {'CPU s':>8}", flush=True)
    steps = sorted({1, 2, 3, *(int(4 * 1.5 ** k) for k in range(12) if 4 * 1.5 ** k < MAX_SOUPS), MAX_SOUPS})
    reach: dict[str, tuple[int, int | None]] = {}
    for name, layout in subjects(sizes):
        reach[name] = (0, None)
        for soups in steps:
            result, wall, cpu = timed(lambda: layout_rc(domain, layout, soups, timeout=limit, jobs=jobs))
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
    parser.add_argument("--soups", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="planner calls at once (default: every CPU)")
    parser.add_argument("--scaling", action="store_true", help="soups 1, 2, ... on layouts and open grids")
    parser.add_argument("--limit", type=float, default=60.0, help="--scaling: time limit per run (default 60)")
    parser.add_argument("--sizes", default="10,20,28,40", help="--scaling: open grid sizes (default 10,20,28,40)")
    args = parser.parse_args()
    if args.scaling:
        scaling(args.limit, [int(s) for s in args.sizes.split(",")], args.jobs)
    else:
        layouts_table(args.soups, args.repeat, args.jobs)


if __name__ == "__main__":
    main()
