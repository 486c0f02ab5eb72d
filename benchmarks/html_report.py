"""The cost of ``check --html`` beside ``check`` (text) for one game, each a process of its own.

    python benchmarks/html_report.py [GAME] [--repeat 3]

Runs ``python -m strips_int.check overcooked GAME`` with and without ``--html``, interleaved so a busy machine
slows both alike, and prints each one's CPU (user + system, of the process and its children) and wall seconds,
the best of ``--repeat``; then, in this process, the CPU of the page's parts for that game: the state drawings,
the timeline and the whole page. GAME defaults to the user-study game of the Getting started page.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT.parent / "shared" / "data" / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"


def run(args: list[str]) -> tuple[float, float]:
    """CPU and wall seconds of ``python -m strips_int.check ARGS`` (it must succeed)."""
    before, start = os.times(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "strips_int.check", *args], check=True, stdout=subprocess.DEVNULL)
    wall, after = time.perf_counter() - start, os.times()
    return after.children_user + after.children_system - before.children_user - before.children_system, wall


def parts(game: Path) -> dict[str, float]:
    """CPU seconds of the page's parts, in this process (imports done first, a first page drawn to warm up)."""
    from strips_int import analyze
    from strips_int.grounders import drawing_for
    from strips_int.visualize import html, plot_timeline

    report = analyze("overcooked", game)
    html.html_report(report)
    data, draw = report.to_dict(), drawing_for(report.domain, report.problem)
    before = list(html.states(report.problem.init, [s.action for s in report.steps]))
    found = {}
    for name, work in (("state drawings", lambda: [html._states(report, draw, item, before)
                                                    for item in data["interdependencies"]]),
                       ("timeline", lambda: html.data_uri(plot_timeline(report, width=7.0), "svg")),
                       ("whole page", lambda: html.html_report(report))):
        start = time.process_time()
        work()
        found[name] = time.process_time() - start
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", type=Path, default=GAME)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeat):
            for name, extra in (("text", []), ("html", ["--html", str(Path(folder) / "game.html")])):
                cpu, wall = run(["overcooked", str(args.game), *extra])
                best[name] = min(best.get(name, (cpu, wall)), (cpu, wall))
    for name, (cpu, wall) in best.items():
        print(f"check {name}: {cpu:.2f} s CPU, {wall:.2f} s wall (best of {args.repeat})")
    for name, seconds in parts(args.game).items():
        print(f"  {name}: {seconds:.2f} s CPU")


if __name__ == "__main__":
    main()
