"""Time grounding and analysing the user study's 302 Overcooked games (goal: < 10 ms per game).

    python benchmarks/overcooked_study.py [DATA_DIR]    # default ../shared/data

Prints, per stage (read + ground, analyse), the total and per-game time on one core.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from strips_int import analyze_run, execute, load_domain
from strips_int.grounders.overcooked import read_traces

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data"
    games = sorted((data / "user-study").glob("*/*.json"))
    if not games:
        sys.exit(f"no user-study games under {data}")
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    ground = analyse = 0.0
    steps = 0
    for path in games:
        t0 = time.perf_counter()
        [trace] = read_traces(path, domain)
        t1 = time.perf_counter()
        analyze_run(domain, execute(trace))
        t2 = time.perf_counter()
        ground += t1 - t0
        analyse += t2 - t1
        steps += len(trace.steps)
    n = len(games)
    print(f"{n} games, {steps} symbolic steps")
    print(f"read + ground: {ground:.2f} s ({1000 * ground / n:.1f} ms/game)")
    print(f"analyse:       {analyse:.2f} s ({1000 * analyse / n:.1f} ms/game)")
    print(f"total:         {ground + analyse:.2f} s ({1000 * (ground + analyse) / n:.1f} ms/game, "
          f"{n / (ground + analyse):.0f} games/s)")


if __name__ == "__main__":
    main()
