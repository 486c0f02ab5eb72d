"""Published PDDL, unedited, through strips_int and against the oracle of the definitions (issue 27).

For each domain given (a domain file, a folder of its problems, the agent types to name), the first
problems (smallest first) get a Fast Downward plan (through unified-planning, all agents acting) and
random walks (random applicable actions, agents' and environment's, from the initial state). Each is
written as a plan file, read back the way ``strips_int.check DOMAIN PLAN --problem P`` reads it, analysed,
and compared with the independent reading of definitions v3 in ``tests/spec_oracle.py``: every count, sub-task,
trigger, accepted trigger and interdependence. Prints one line per domain and each disagreement.

    python benchmarks/published_pddl.py --domain D.pddl --problems DIR [--agent-types T...] \\
        [--plans 3] [--walks 3] [--steps 40] [--timeout 60]

The published files are read where they are; nothing of them is kept. IPC's untyped STRIPS domains name
their agents by static unary predicates (definitions section 1): ``--agent-types truck airplane`` on
logistics00, ``driver truck`` on driverlog, ``satellite``, ``aircraft`` on zenotravel.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from spec_oracle import compare, random_walk

from strips_int.batch.games import analyze_file
from strips_int.errors import StripsIntError
from strips_int.model.domain import load_domain
from strips_int.model.plan import is_plan
from strips_int.model.problem import load_problem
from strips_int.model.task import Problem, format_fact
from strips_int.model.trace import Trace


def plan_text(actions, cost: bool = True) -> str:
    """Ground actions as Fast Downward writes ``sas_plan``: one a line, then the cost comment."""
    lines = [str(action) for action in actions]
    return "\n".join(lines + ([f"; cost = {len(lines)} (unit cost)"] if cost else [])) + "\n"


def problem_text(domain: str, problem: Problem) -> str:
    """``problem`` as PDDL (a random walk's problem: its own goal)."""
    objects = " ".join(f"{o} - {t}" for o, t in sorted(problem.objects.items()))
    init = " ".join(format_fact(f) for f in sorted(problem.init))
    goal = " ".join(format_fact(f) for f in sorted(problem.goal))
    return (f"(define (problem {problem.name}) (:domain {domain})\n (:objects {objects})\n (:init {init})\n"
            f" (:goal (and {goal})))\n")


def checked(domain, plan: Path, problem_path: Path, tally: dict, shown: list[str]) -> None:
    """Read ``plan`` as ``check`` does, analyse it, and compare with the oracle."""
    assert is_plan(plan.read_bytes()), plan
    problem = load_problem(domain, problem_path)
    [result] = list(analyze_file(domain, plan, problem))
    if isinstance(result, StripsIntError):
        tally["errors"] += 1
        shown.append(f"  error: {result}")
        return
    trace = Trace(result.source, problem, result.steps)
    diffs = compare(domain, trace, report=result)
    tally["traces"] += 1
    tally["steps"] += len(result.steps)
    tally["interdependencies"] += result.counts["interdependencies"]
    tally["triggers"] += sum(len(t.triggers) for t in result.tasks.values())
    if diffs:
        tally["disagree"] += 1
        shown += [f"  {plan.name}: {d}" for d in diffs[:5]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", type=Path, required=True)
    parser.add_argument("--problems", type=Path, required=True)
    parser.add_argument("--agent-types", nargs="*", default=[])
    parser.add_argument("--plans", type=int, default=3, help="problems planned by Fast Downward")
    parser.add_argument("--walks", type=int, default=3, help="random walks per problem")
    parser.add_argument("--steps", type=int, default=40, help="steps of a random walk")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)

    from strips_int.planners import Call, solve_all

    start = time.perf_counter()
    try:
        domain = load_domain(args.domain, {"agent-types": args.agent_types} if args.agent_types else None)
    except StripsIntError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problems = sorted((p for p in args.problems.iterdir() if p.suffix == ".pddl" and "domain" not in p.name),
                      key=lambda p: (p.stat().st_size, p.name))[:args.plans]
    tally = dict.fromkeys(("traces", "steps", "interdependencies", "triggers", "disagree", "errors", "unplanned"), 0)
    shown: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for number, path in enumerate(problems):
            try:
                problem = load_problem(domain, path)
            except StripsIntError as exc:
                tally["errors"] += 1
                shown.append(f"  error: {exc}")
                continue
            agents = tuple(sorted(o for o, t in problem.objects.items() if domain.is_agent_type(t)))
            [planned] = solve_all([Call(domain, problem, agents, "fast-downward")], time.monotonic() + args.timeout)
            if planned.plan is None:
                tally["unplanned"] += 1
                shown.append(f"  {path.name}: no plan ({planned.status}: {planned.detail})")
            else:
                plan = folder / f"sas_plan.{number}"
                plan.write_text(plan_text(planned.plan))
                checked(domain, plan, path, tally, shown)
            for seed in range(args.walks):
                walk = random_walk(domain, problem, args.steps, seed)
                own = folder / f"walk{number}-{seed}.pddl"
                own.write_text(problem_text(domain.name, walk.problem))
                plan = folder / f"walk{number}-{seed}.plan"
                plan.write_text(plan_text((s.action for s in walk.steps), cost=False))
                checked(domain, plan, own, tally, shown)
    print(f"{domain.name} ({args.domain}): {len(problems)} problems, {tally['traces']} traces of {tally['steps']} "
          f"steps, {tally['interdependencies']} interdependencies, {tally['triggers']} triggers; "
          f"{tally['disagree']} disagree with the oracle, {tally['errors']} errors, {tally['unplanned']} unplanned "
          f"({time.perf_counter() - start:.1f} s)")
    for line in shown:
        print(line)
    return 1 if tally["disagree"] or tally["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
