"""Time the whole pipeline on the real games, per stage (goal: 50x the paper's 0.53 s per game).

    python benchmarks/overcooked_study.py [DATA_DIR] [--jobs N]    # default ../shared/data, all cores

For the 302 user-study games and the 53 rollouts, on one core: read (file to
raw states), ground (raw states to a checked symbolic trace), analyse
(execute, causal graph, interdependences, triggers), per game and in games
per second. Then the same end to end through ``strips_int.evaluate`` with
``--jobs`` processes, the way a user runs it.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from strips_int import analyze_run, execute, load_domain
from strips_int.evaluate import Inputs, evaluate, game_files
from strips_int.grounders.overcooked import game_trace
from strips_int.grounders.overcooked.formats import read_games

ROOT = Path(__file__).resolve().parents[1]
PAPER_SECONDS_PER_GAME = 0.53


def stages(domain, files: list[Path]) -> tuple[int, int, float, float, float]:
    """Games, symbolic steps and seconds spent reading, grounding and analysing ``files`` on one core."""
    read = ground = analyse = 0.0
    games = steps = 0
    for path in files:
        t0 = time.perf_counter()
        raw = list(read_games(path))
        t1 = time.perf_counter()
        traces = [game_trace(g, domain) for g in raw]
        t2 = time.perf_counter()
        for trace in traces:
            analyze_run(domain, execute(trace))
        t3 = time.perf_counter()
        read, ground, analyse = read + t1 - t0, ground + t2 - t1, analyse + t3 - t2
        games += len(traces)
        steps += sum(len(t.steps) for t in traces)
    return games, steps, read, ground, analyse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="?", default=ROOT.parent / "shared" / "data")
    parser.add_argument("--jobs", type=int, default=None, help="processes for the end-to-end run (default: all)")
    args = parser.parse_args()
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    for name in ("user-study", "zsceval-rollouts"):
        files, _ = game_files([args.data / name])
        if not files:
            raise SystemExit(f"no games under {args.data / name}")
        games, steps, read, ground, analyse = stages(domain, files)
        total = read + ground + analyse
        print(f"{name}: {games} games, {steps} symbolic steps, one core")
        for stage, seconds in (("read", read), ("ground", ground), ("analyse", analyse), ("total", total)):
            print(f"  {stage:<8} {seconds:6.2f} s  {1000 * seconds / games:6.1f} ms/game")
        print(f"  {games / total:.0f} games/s; {PAPER_SECONDS_PER_GAME / (total / games):.0f}x the paper's 0.53 s/game")
        jobs = args.jobs or os.cpu_count() or 1
        start = time.perf_counter()
        rows = [r for batch in evaluate(domain, files, Inputs(), jobs) for r in batch]
        seconds = time.perf_counter() - start
        print(f"  end to end with {jobs} processes: {seconds:.2f} s, {len(rows) / seconds:.0f} games/s, "
              f"{PAPER_SECONDS_PER_GAME / (seconds / len(rows)):.0f}x the paper")


if __name__ == "__main__":
    main()
