"""Compare strips_int's reports with an independent reading of definitions v3 (``tests/spec_oracle.py``).

    python benchmarks/spec_check.py DOMAIN PATH... [--sample N] [--ego-seat auto:40] [--recorded] [--add-spares]
    python benchmarks/spec_check.py DOMAIN PROBLEM.pddl... --walks N [--steps S]

Every game of every input file under PATH (a file or a folder, read by the grounders' ``read_input``),
or N random walks from each PDDL problem, is analysed by the package and by the oracle. Each disagreement is printed with the game, what
differs (package value, oracle value) and which definitions v3 change explains it: the earlier (v2) reading
under which the package agrees with the oracle, if any. ``--recorded`` also checks what definitions section 11
asks of a recorded Overcooked game's problem. The summary gives the counts and the oracle's time per game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from spec_oracle import explain, oracle, random_walk, recorded_game_problems, with_spares  # noqa: E402

from strips_int import StripsIntError, analyze, load_domain, load_problem  # noqa: E402
from strips_int.grounders import read_input  # noqa: E402

SUFFIXES = (".json", ".pkl", ".csv", ".txt", ".plan", ".npz")


def inputs(paths: list[str], sample: int | None) -> list[Path]:
    """The input files under ``paths``, sorted; every ``sample``-th of them when asked."""
    files = []
    for path in map(Path, paths):
        files += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in SUFFIXES) if path.is_dir() else [path]
    return files[::sample] if sample else files


def games(args, domain) -> Iterator:
    """Each game to check (a trace, or the error that stops it)."""
    if args.walks:
        for path in args.paths:
            problem = load_problem(domain, path)
            for seed in range(args.walks):
                yield random_walk(domain, problem, args.steps, seed)
        return
    options = {"ego_seat": args.ego_seat} if args.ego_seat else {}
    for path in inputs(args.paths, args.sample):
        yield from read_input(path, domain, **options)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("domain")
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--sample", type=int, help="every N-th input file only")
    parser.add_argument("--ego-seat", help="rollouts: the ego agent's seat, e.g. auto:40")
    parser.add_argument("--recorded", action="store_true", help="also check definitions section 11 on each game's problem")
    parser.add_argument("--add-spares", action="store_true",
                        help="first add the spare fresh objects definitions section 11 asks for, where a game has none")
    parser.add_argument("--walks", type=int, help="PATHs are PDDL problems: this many random walks from each")
    parser.add_argument("--steps", type=int, default=60, help="steps of a random walk (default 60)")
    args = parser.parse_args()
    domain = load_domain(args.domain)
    checked = agree = errors = 0
    explained: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    oracle_times, package_times = [], []
    for trace in games(args, domain):
        if isinstance(trace, StripsIntError):
            errors += 1
            print(f"ERROR {trace}", flush=True)
            continue
        checked += 1
        if args.add_spares:
            trace = with_spares(trace)
        start = time.perf_counter()
        expected = oracle(domain, trace)
        oracle_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        report = analyze(domain, trace)
        package_times.append(time.perf_counter() - start)
        diffs, why = explain(domain, trace, expected, report)
        explanation = "; ".join(why) or ("no v2 reading explains it" if diffs else "analysis agrees; section 11 only")
        if args.recorded:
            diffs += recorded_game_problems(domain, trace)
        if not diffs:
            agree += 1
            continue
        explained[explanation] += 1
        print(f"DIFF {trace.source} ({len(trace.steps)} steps) [{explanation}]", flush=True)
        for diff in diffs:
            kinds[diff.kind if diff.where.startswith(("pair", "count", "section")) or diff.where in ("steps", "goal")
                  else f"agent {diff.kind}"] += 1
            print(f"    {diff}")
    print(f"\n{checked} games: {agree} agree, {checked - agree} differ; {errors} input errors")
    for explanation, n in explained.most_common():
        print(f"  {n:4d} games: {explanation}")
    for kind, n in kinds.most_common():
        print(f"  {n:4d} differences: {kind}")
    if oracle_times:
        print(f"oracle per game: median {statistics.median(oracle_times) * 1000:.0f} ms, "
              f"max {max(oracle_times) * 1000:.0f} ms; package analyze: median "
              f"{statistics.median(package_times) * 1000:.1f} ms")
    return 0 if agree == checked and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
