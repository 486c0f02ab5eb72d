"""The fast path against the planner path, layout by layout: the same verdicts, reasons and witnesses.

    python benchmarks/rc_fast_path.py [--count 300] [--seed 1] [--jobs 2] [--no-known]

Classifies every known layout and ``--count`` generated ones (``generated_layouts.py``) both ways
(``strips_int.analysis.rc.some_goal``, ``search="fast"`` and ``"planner"``) and prints each difference
(:func:`differences`) and a tally. ``tests/test_rc_fast_path.py`` runs the same comparison on the
known layouts and a sample of generated ones; this script is the big run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generated_layouts  # noqa: E402 - the generator beside this script

from strips_int.analysis.rc import SOLVED, RCResult, plan_trace, some_goal  # noqa: E402
from strips_int.errors import StripsIntError  # noqa: E402
from strips_int.model.execution import execute  # noqa: E402


def witness_problems(result: RCResult) -> list[str]:
    """What is wrong with each witness of ``result``: a plan that does not execute, acts for another agent,
    or misses the goal."""
    wrong = []
    for agent, answer in result.agents.items():
        if answer.search.status != SOLVED:
            continue
        plan = answer.search.plan or ()
        others = sorted({a.actor for a in plan if a.actor not in (None, agent)})
        if others:
            wrong.append(f"{agent}'s witness has actions of {', '.join(others)}")
        try:
            run = execute(plan_trace(result.problem, plan, f"{result.problem.source} witness of {agent}"))
        except StripsIntError as exc:
            wrong.append(f"{agent}'s witness does not execute: {exc}")
            continue
        if not result.problem.goal <= run.final:
            wrong.append(f"{agent}'s witness misses the goal")
    return wrong


def differences(domain: Any, problems: Sequence[Any], jobs: int | None = None) -> tuple[list[str], RCResult]:
    """How the fast path's answer on a start problem's alternatives differs from the planner path's:
    the deciding alternative, verdict, reason, each agent both decided (alone or not, and why), and
    the fast path's witnesses (each must execute, act for its agent alone and reach the goal). Also the
    fast result."""
    (i, fast), (j, slow) = (some_goal(domain, problems, search=s, jobs=jobs) for s in ("fast", "planner"))
    found = []
    if (i, fast.verdict, fast.reason) != (j, slow.verdict, slow.reason):
        found.append(f"alternative {i} {fast.verdict} ({fast.reason}) against {j} {slow.verdict} ({slow.reason})")
    for agent, mine in fast.agents.items():
        theirs = slow.agents[agent]
        if None not in (mine.solvable_alone, theirs.solvable_alone) and (mine.solvable_alone, mine.why) != (
                theirs.solvable_alone, theirs.why):
            found.append(f"{agent}: {mine.solvable_alone} {mine.why} against {theirs.solvable_alone} {theirs.why}")
        elif (mine.solvable_alone is None) != (theirs.solvable_alone is None):
            found.append(f"{agent}: {mine.search.detail} against {theirs.search.detail}")
    return found + witness_problems(fast), fast


def main() -> None:
    from strips_int.grounders.overcooked import get_layout, known_layouts, layout_alternatives, load_grid
    from strips_int.model.domain import load_domain

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="generated layouts (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="planner calls at once (default 2)")
    parser.add_argument("--no-known", action="store_true", help="only the generated layouts")
    args = parser.parse_args()
    domain = load_domain("overcooked")
    with tempfile.TemporaryDirectory(prefix="rc-fast-path-") as tmp:
        layouts = [] if args.no_known else [(name, get_layout(name)) for name in known_layouts(aliases=False)]
        layouts += [(p.name, load_grid(p)) for p in generated_layouts.write(Path(tmp), args.count, args.seed)]
        started, tally, differing = time.perf_counter(), {}, 0
        for name, layout in layouts:
            found, fast = differences(domain, [a.problem for a in layout_alternatives(layout, domain)], args.jobs)
            tally[fast.verdict] = tally.get(fast.verdict, 0) + 1
            differing += bool(found)
            for line in found:
                print(f"{name}: {line}", flush=True)
    print(f"{len(layouts)} layouts ({', '.join(f'{v} {n}' for v, n in sorted(tally.items()))}), "
          f"{differing} differing, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
