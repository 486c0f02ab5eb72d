"""How ``check`` grows with the length of a game and with the number of agents (issue 42).

    python benchmarks/scaling.py [--sizes 1000 10000 100000] [--repeat 3] [--agents 8 32] [--skip-length]
        [--skip-agents]

Length: for each workload and size, a game of about that many steps is written to a temporary folder
and ``check`` run on it in a child process (the median of ``--repeat`` runs); its CPU (user + sys, to
the end of the process) less that of its imports and less the rest of the same command on a game of
100 steps of the workload (the domain, the fixed part of the analysis) is the work of the steps,
printed per step, with the exponent ``k`` of a least-squares fit
of work ~ steps^k (1 is linear) and the child's peak resident memory. The workloads:

- Overcooked: a user-study game of the paper's data (``../shared/data/user-study``) that comes back
  to its first state after six deliveries, that loop played again and again (a valid game: the same
  moves from the same state; the game of 100 steps is its first 100); skipped, saying so, without the data;
- SAR: the synthetic ring of rooms of ``sar_synthetic.py`` (four agents, random valid actions);
- a published-PDDL walk: random applicable actions on ``examples/freight`` (IPC style), as a plan file.

Agents: the analysis of one SAR trace of 400 steps whose team has N agents (relaxed reachability, each
agent's reach alone and the required-help search included), each in a fresh process: CPU per agent, and the ratio of the
per-agent cost at the largest N to that at the smallest (goal: at most 1.5).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

STUDY = ROOT.parent / "shared" / "data" / "user-study"
FREIGHT = ROOT / "examples" / "freight"
SMALLEST = 100


def cpu_model() -> str:
    """The CPU model, as ``lscpu`` names it (a figure depends on it)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


#: Run in the child: ``check`` with the arguments given, after saying on standard error the CPU its imports
#: took, then its peak resident memory (VmHWM: of this program alone; a child's ru_maxrss also counts
#: the parent it was forked from).
CHECK = """import re, sys, time
from strips_int.cli.check import main
print('imported', time.process_time(), file=sys.stderr)
code = main(sys.argv[1:])
status = open('/proc/self/status').read()
print('peak-kib', re.search(r'VmHWM:\\s*(\\d+)', status).group(1), file=sys.stderr)
sys.exit(code)
"""


def child(args: list[str]) -> tuple[float, float, float]:
    """CPU seconds (user + sys) of ``check ARGS`` run in a child process, to its end (the interpreter's own
    end included), the part of them its imports took, and its peak resident MiB."""
    process = subprocess.Popen([sys.executable, "-c", CHECK, *args], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    error = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) not in (0, 1) or "peak-kib" not in error:  # 1: a game with an error
        raise SystemExit(f"check {' '.join(args)} failed: {error[-400:]}")
    imported = float(error.split("imported", 1)[1].split()[0])
    return usage.ru_utime + usage.ru_stime, imported, int(error.rsplit("peak-kib", 1)[1]) / 1024


def looped_study_game(steps: int, out: Path) -> int | None:
    """A user-study game of about ``steps`` steps (see the module docstring), written to ``out``; its number
    of states, or None without the data. The loop is the longest stretch between two equal states."""
    best = None
    for path in sorted(STUDY.glob("*/*.json")):
        data = json.loads(path.read_text())
        states = data["ep_states"][0]
        first: dict[str, int] = {}
        for t, state in enumerate(states):
            key = json.dumps(state, sort_keys=True)
            if key in first and (best is None or t - first[key] > best[2] - best[1]):
                best = (data, first[key], t)
            first.setdefault(key, t)
        if best is not None and best[2] - best[1] > 300:
            break
    if best is None:
        return None
    data, i, j = best
    times = max(1, (steps - (len(data["ep_states"][0]) - j + i)) // (j - i))
    for key in ("ep_states", "ep_actions", "ep_rewards"):
        whole = data[key][0]
        data[key] = [(whole[:i] + whole[i:j] * times + whole[j:])[:steps]]  # a short game: the loop's start
    out.write_text(json.dumps(data))
    return len(data["ep_states"][0])


def sar_trace(steps: int, out: Path, agents: int = 4) -> int:
    """The synthetic SAR trace of ``sar_synthetic.py`` (``agents`` agents), written to ``out``."""
    from sar_synthetic import synthetic_trace

    out.write_text(json.dumps(synthetic_trace(steps, 0, agents=agents)))
    return steps


def freight_walk(steps: int, out: Path) -> int:
    """A random walk of ``steps`` applicable actions on freight p01, as a plan file beside its problem."""
    from strips_int.model.domain import load_domain
    from strips_int.model.problem import load_problem
    from spec_oracle import ground_all

    domain = load_domain(FREIGHT / "domain.pddl", {"agent-types": ["truck", "airplane"]})
    problem = load_problem(domain, FREIGHT / "p01.pddl")
    actions = ground_all(domain, problem)
    rng, state, lines = random.Random(0), frozenset(problem.init), []
    while len(lines) < steps:
        action = rng.choice([a for a in actions if a.pre <= state and not a.neg_pre & state])
        state = (state - action.delete) | action.add
        lines.append(str(action))
    out.write_text("\n".join(lines) + "\n")
    (out.parent / "p01.pddl").write_bytes((FREIGHT / "p01.pddl").read_bytes())
    return steps


def exponent(points: list[tuple[int, float]]) -> float:
    """The least-squares slope of log(work) on log(steps)."""
    xs, ys = [math.log(n) for n, _ in points], [math.log(max(w, 1e-6)) for _, w in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def length(sizes: list[int], repeat: int) -> None:
    """The length workloads (see the module docstring): the median of ``repeat`` runs at each size."""
    workloads = {
        "Overcooked": (looped_study_game, lambda p: ["overcooked", str(p)], ".json"),
        "SAR": (sar_trace, lambda p: ["sar", str(p)], ".trace.json"),
        "freight walk": (freight_walk, lambda p: [str(FREIGHT / "domain.pddl"), str(p), "--problem",
                                                  str(p.parent / "p01.pddl"), "--agent-types", "truck",
                                                  "airplane"], ".plan"),
    }
    for name, (make, args, suffix) in workloads.items():
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp) / f"small{suffix}"
            if make(SMALLEST, base) is None:
                print(f"{name}: skipped (no {STUDY})")
                continue
            fixed = statistics.median(cpu - imported for cpu, imported, _ in (child(args(base)) for _ in range(repeat)))
            points, lines = [], []
            for size in sizes:
                path = Path(tmp) / f"g{size}{suffix}"
                steps = make(size, path)
                runs = [child(args(path)) for _ in range(repeat)]
                cpu = statistics.median(total for total, _, _ in runs)
                work = max(statistics.median(total - imported for total, imported, _ in runs) - fixed, 1e-6)
                peak = max(peak for _, _, peak in runs)
                points.append((steps, work))
                lines.append(f"  {steps:>7,} steps: {cpu:6.2f} s CPU, {work / steps * 1e6:6.1f} us a step "
                             f"beyond the imports and the fixed {fixed:.2f} s; peak {peak:,.0f} MiB")
                path.unlink()
            fitted = f"exponent k = {exponent(points):.2f} (work ~ steps^k; goal <= 1.1)" if len(points) > 1 else ""
            print(f"{name}: {fitted}")
            print("\n".join(lines))


#: Run in the child: the analysis of the trace given, timed from the trace read to the report (cold caches).
ANALYSE = """import sys, time
from strips_int import analyze_run, execute, load_domain, load_trace
domain = load_domain(sys.argv[1])
start = time.process_time()
analyze_run(domain, execute(load_trace(sys.argv[2], domain)))
print(time.process_time() - start)
"""


def agents(counts: list[int], repeat: int, steps: int = 400) -> None:
    """The analysis of one SAR trace per team size, each in a fresh child process (see the module docstring)."""
    from sar_synthetic import synthetic_trace

    per_agent = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            path = Path(tmp) / f"a{n}.trace.json"
            path.write_text(json.dumps(synthetic_trace(steps, 0, agents=n)))
            runs = sorted(float(subprocess.run([sys.executable, "-c", ANALYSE, str(ROOT / "domains" / "sar.pddl"),
                                                str(path)], check=True, capture_output=True, text=True,
                                               cwd=ROOT).stdout) for _ in range(repeat))
            cpu = runs[len(runs) // 2]
            per_agent[n] = cpu / n
            print(f"  {n:>3} agents, {steps} steps: {cpu:6.3f} s CPU, {cpu / n * 1e3:7.2f} ms an agent")
    low, high = min(counts), max(counts)
    print(f"agents: per-agent cost at {high} / at {low}: {per_agent[high] / per_agent[low]:.2f} (goal <= 1.5)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--agents", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each game (the median is shown)")
    parser.add_argument("--skip-length", action="store_true")
    parser.add_argument("--skip-agents", action="store_true")
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}; Python {platform.python_version()}; load {os.getloadavg()[0]:.1f}")
    if not args.skip_length:
        length(sorted(args.sizes), args.repeat)
    if not args.skip_agents:
        agents(sorted(args.agents), args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
