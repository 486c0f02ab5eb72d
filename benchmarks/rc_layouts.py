"""Time the RC classification of every known Overcooked layout (goal: under 5 s each on one core).

    python benchmarks/rc_layouts.py [--soups 1] [--repeat 3]

Prints, per layout, the best of ``--repeat`` runs end to end (conversion,
relaxed reachability, every planner call, analysis of the joint plan) and
the planner's share of it. Fast Downward runs single-threaded.
"""

from __future__ import annotations

import argparse

from strips_int.grounders.overcooked import known_layouts
from strips_int.rc_cli import classify_layouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soups", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = known_layouts(aliases=False)
    best: dict[str, tuple[float, float, str]] = {}
    for _ in range(args.repeat):
        for result in classify_layouts(names, args.soups):
            name = result.problem.name.removeprefix("overcooked-")
            planner = sum(a.search.seconds for a in result.agents.values()) + result.joint.seconds
            if name not in best or result.seconds < best[name][0]:
                best[name] = (result.seconds, planner, result.verdict)
    print(f"{'layout':<26} {'verdict':<8} {'seconds':>8} {'planner':>8}")
    for name, (seconds, planner, verdict) in best.items():
        print(f"{name:<26} {verdict:<8} {seconds:>8.2f} {planner:>8.2f}")
    print(f"slowest: {max(s for s, _, _ in best.values()):.2f} s (goal < 5 s)")


if __name__ == "__main__":
    main()
