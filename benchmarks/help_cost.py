"""Self-help cost (definitions section 14) on the 302 user-study games: its CPU beside the analysis without it.

    python benchmarks/help_cost.py [--rounds 3] [--data ../shared/data]

Each round runs, as child processes one after the other, ``python -m strips_int.evaluate overcooked GAMES
--jobs 1`` without and with ``--help-cost`` (after one warm-up each); the CPU of a run is the child's user +
sys time, start-up included, per game (as ``benchmarks/paper.py`` measures it). Then, in this process, it
tallies the costs found: integers, ``inf`` and ``unknown``. It prints each round, the medians with min-max,
the ratio and the CPU model. Without ``../shared`` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

from paper import ROOT, SHARED, child_cpu, machine, spread, user_study

from strips_int import analyze_games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data", type=Path, default=SHARED / "data")
    args = parser.parse_args()
    found = user_study(args.data)
    if found is None:
        return 0
    study, games = found
    runs: dict[str, list[float]] = {"without": [], "with": []}
    with tempfile.TemporaryDirectory() as out:
        base = [sys.executable, "-m", "strips_int.evaluate", "overcooked", str(study.resolve()), "--jobs", "1"]
        commands = {"without": [*base, "--out", str(Path(out) / "a")],
                    "with": [*base, "--out", str(Path(out) / "b"), "--help-cost"]}
        for command in commands.values():
            child_cpu(command, ROOT)
        for attempt in range(1, args.rounds + 1):
            for name, command in commands.items():
                cpu, last = child_cpu(command, ROOT)
                if not last.startswith(f"{games} games, 0 errors"):
                    raise SystemExit(f"{name} did not analyse the {games} games: {last}")
                runs[name].append(1000 * cpu / games)
                print(f"round {attempt}: {name:<7} {runs[name][-1]:6.2f} ms CPU per game", file=sys.stderr)
    tally: Counter = Counter()
    for report in analyze_games("overcooked", study, help_cost=True):
        tally.update("int" if isinstance(f.self_help_cost, int) else f.self_help_cost for f in report.interdependencies)
    ratios = [w / o for o, w in zip(runs["without"], runs["with"])]
    print(f"{machine()['cpu']}, {games} games, {args.rounds} alternating rounds, CPU ms per game:")
    for name in runs:
        s = spread(runs[name])
        print(f"  {name:<7} median {s['median']:.2f} (min {s['min']:.2f}, max {s['max']:.2f})")
    r = spread(ratios)
    print(f"  with / without: {statistics.median(runs['with']) / statistics.median(runs['without']):.2f} of the "
          f"medians; per round {r['min']:.2f}-{r['max']:.2f}")
    print(f"  costs: {tally['int']} numbers, {tally['inf']} inf, {tally['unknown']} unknown "
          f"of {sum(tally.values())} interdependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
