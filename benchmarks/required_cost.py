"""Time the required/optional split (definitions section 10) per game on the user study (goal: under 1 ms).

    python benchmarks/required_cost.py [DATA_DIR]    # default ../shared/data

Grounds and analyses the 302 games, then times ``interdependence_needs`` over
all of them on one core: once from an empty cache (each layout's per-agent
reachability computed once, then shared) and once more with the cache warm.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from strips_int import analyze_run, execute, load_domain
from strips_int.model.domain import packaged_domain
from strips_int.errors import StripsIntError
from strips_int.grounders import read_input
from strips_int.analysis.reachability import relaxed_reachable
from strips_int.analysis.required import interdependence_needs

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="?", default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    domain = load_domain(packaged_domain("overcooked"))
    games = []
    for path in sorted((args.data / "user-study").rglob("*.json")):
        for trace in read_input(path, domain):
            if isinstance(trace, StripsIntError):
                raise SystemExit(f"error: {trace}")
            report = analyze_run(domain, execute(trace))
            receivers = [i.receiver.agent for i in report.interdependencies]
            games.append((trace.problem, relaxed_reachable(domain, trace.problem), report.interdependencies,
                          receivers))
    inters = sum(len(g[2]) for g in games)
    for label in ("cold cache", "warm cache"):
        if label == "cold cache":
            domain.cache.clear()
        start = time.perf_counter()
        for problem, team, found, receivers in games:
            interdependence_needs(domain, problem, team, found, receivers)
        seconds = time.perf_counter() - start
        print(f"{label}: {len(games)} games, {inters} interdependencies, {seconds:.3f} s, "
              f"{1000 * seconds / len(games):.3f} ms per game")


if __name__ == "__main__":
    main()
