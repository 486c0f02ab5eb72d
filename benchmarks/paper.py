"""strips_int against the paper's published functions, side by side on the 302 user-study games (issue 16).

    python benchmarks/paper.py [--rounds 5] [--data ../shared/data] [--json FILE] [--no-memory]

Each round runs, as child processes one after the other, ``strips_int.evaluate
--jobs 1`` and the paper's map + detect functions (``run_paper.py --quiet
--clamp`` from ``../shared/baselines/paper-pipeline``) on the same games,
alternating A B A B ..., after one warm-up run of each. The CPU of a run is the child's user + sys
time (from ``getrusage(RUSAGE_CHILDREN)`` deltas), start-up included, divided by the number of
games; the figures are medians over the rounds with min–max. The children cache their bytecode as
on a usual machine, in a temporary ``PYTHONPYCACHEPREFIX`` (``PYTHONDONTWRITEBYTECODE`` unset), so
neither side compiles its modules anew in every run (nor does this process, which times reading and
the analysis in place).
Then where strips_int's time goes: the fixed cost of a run (``evaluate --jobs 1`` on a folder of
one game: start-up, domain, tables), reading alone (decode and lift the 302 games to traces) and
the analysis alone (execute to games.csv row, given the read traces), both in this process, warm;
``check`` on one game (wall, median of 5); and the memory per step of a synthetic 100,000-step SAR
trace (tracemalloc: the trace, and the analysis on top of it, no graph). ``--json`` writes all of
it, to compare revisions.
Without ``../shared`` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ONE_GAME = "user-study/cole/5_10_2025_15_21_40_human=0.json"


def machine() -> dict[str, Any]:
    """CPU model, cores and Python of this machine."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        model = found.group(1).strip() if found else model
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform()}


def child_cpu(command: Sequence[str], cwd: Path = ROOT) -> tuple[float, str]:
    """Run ``command`` in ``cwd`` to the end; the CPU seconds (user + sys) it took and its last line of output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} ... failed ({done.returncode}): {output[-500:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, output.splitlines()[-1] if output else ""


def cached_bytecode() -> tempfile.TemporaryDirectory:
    """Have the child processes cache their bytecode, as on a usual machine (``PYTHONDONTWRITEBYTECODE``
    unset), in a temporary ``PYTHONPYCACHEPREFIX`` (returned: it lasts as long as it is referenced)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    pycache = tempfile.TemporaryDirectory()
    os.environ["PYTHONPYCACHEPREFIX"] = pycache.name
    return pycache


def user_study(data: Path) -> tuple[Path, int] | None:
    """The user-study folder under ``data`` and how many games it holds; None, said on standard error, when
    there is none (a benchmark then has nothing to measure and exits 0)."""
    study = data / "user-study"
    if not study.is_dir():
        print(f"no {study}: nothing to measure", file=sys.stderr)
        return None
    return study, len(list(study.glob("*/*.json")))


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, min and max."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def side_by_side(data: Path, rounds: int) -> dict[str, Any]:
    """Per-game CPU (ms) of strips_int and of the paper's functions, alternating, ``rounds`` times each."""
    study = data / "user-study"
    games = len(list(study.glob("*/*.json")))
    paper = SHARED / "baselines" / "paper-pipeline" / "run_paper.py"
    ours_cpu, theirs_cpu = [], []
    with tempfile.TemporaryDirectory() as out:
        ours = [sys.executable, "-m", "strips_int.evaluate", str(ROOT / "domains" / "overcooked.pddl"), str(study),
                "--out", out, "--jobs", "1"]
        theirs = [sys.executable, str(paper), "--quiet", "--clamp", str(study)]
        for command in (ours, theirs):  # warm-up: bytecode cached, files in the page cache
            child_cpu(command)
        for attempt in range(1, rounds + 1):
            for command, times, name in ((ours, ours_cpu, "strips_int"), (theirs, theirs_cpu, "paper")):
                cpu, last = child_cpu(command)
                if not last.startswith(f"{games} games, 0 errors"):
                    raise SystemExit(f"{name} did not analyse the {games} games: {last}")
                times.append(1000 * cpu / games)
                print(f"round {attempt}: {name:<10} {times[-1]:7.2f} ms CPU per game", file=sys.stderr)
    ratios = [t / o for o, t in zip(ours_cpu, theirs_cpu)]
    return {"games": games, "rounds": rounds, "strips_int_ms": spread(ours_cpu), "paper_ms": spread(theirs_cpu),
            "ratio_of_medians": statistics.median(theirs_cpu) / statistics.median(ours_cpu),
            "ratio_per_round": spread(ratios), "strips_int_runs": ours_cpu, "paper_runs": theirs_cpu}


def fixed_cost(data: Path, rounds: int) -> dict[str, Any]:
    """CPU seconds of ``evaluate --jobs 1`` on a folder holding one game (a link to it): what a run costs
    besides its games (start-up, the domain, the summary tables)."""
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "games" / Path(ONE_GAME).name
        game.parent.mkdir()
        game.symlink_to(data / ONE_GAME)
        command = [sys.executable, "-m", "strips_int.evaluate", str(ROOT / "domains" / "overcooked.pddl"),
                   str(game.parent), "--out", str(Path(folder) / "out"), "--jobs", "1"]
        return spread([child_cpu(command)[0] for _ in range(rounds)])


def reading_only(data: Path, rounds: int) -> dict[str, Any]:
    """CPU ms per game of reading the 302 games into traces (decode, lift, validate), in this process;
    the first pass fills the caches."""
    from strips_int import load_domain
    from strips_int.batch.games import read_games
    from strips_int.batch.workers import quiet_gc

    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    quiet_gc()  # as evaluate does: start-up frozen, collections seldom
    times = []
    for _ in range(rounds + 1):
        start = time.process_time()
        games = sum(1 for _ in read_games(domain, data / "user-study"))
        times.append(1000 * (time.process_time() - start) / games)
    return {"games": games, "warm": spread(times[1:]), "first_pass": times[0]}


def analysis_only(data: Path, rounds: int) -> dict[str, Any]:
    """CPU ms per game of everything after a trace exists (execute, links, interdependencies, triggers,
    required help, the games.csv row), the traces read once beforehand; the first pass fills the caches."""
    from strips_int import analyze, load_domain
    from strips_int.batch.games import read_games
    from strips_int.batch.rows import game_row
    from strips_int.batch.workers import quiet_gc

    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    traces = list(read_games(domain, data / "user-study"))
    quiet_gc()  # as evaluate does: start-up frozen, collections seldom
    times = []
    for _ in range(rounds + 1):
        start = time.process_time()
        for trace in traces:
            game_row(analyze(domain, trace))
        times.append(1000 * (time.process_time() - start) / len(traces))
    return {"games": len(traces), "warm": spread(times[1:]), "first_pass": times[0]}


def check_wall(data: Path, repeat: int = 5) -> dict[str, float]:
    """Wall seconds of ``strips_int.check`` on one game (the process, imports included)."""
    command = [sys.executable, "-m", "strips_int.check", str(ROOT / "domains" / "overcooked.pddl"),
               str(data / ONE_GAME)]
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True, cwd=ROOT)
        walls.append(time.perf_counter() - start)
    return spread(walls)


def memory_per_step(steps: int = 100_000) -> dict[str, float]:
    """Bytes per step (tracemalloc) of a synthetic ``steps``-step SAR trace, and of its analysis on top
    (execute + analyse, no graph asked for): what is kept and the peak."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from sar_synthetic import SAR, synthetic_trace

    from strips_int import analyze_run, execute, load_domain
    from strips_int.model.trace import trace_from_dict

    domain = load_domain(SAR)
    data = synthetic_trace(steps, seed=0)
    tracemalloc.start()
    trace = trace_from_dict(data, domain, "synthetic")
    del data
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    report = analyze_run(domain, execute(trace))
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(report.steps) == steps
    return {"steps": steps, "trace_bytes_per_step": base / steps,
            "analysis_kept_bytes_per_step": (kept - base) / steps,
            "analysis_peak_bytes_per_step": (peak - base) / steps}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of A B (default 5)")
    parser.add_argument("--data", type=Path, default=SHARED / "data")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--no-memory", action="store_true", help="skip the 100,000-step memory figure")
    args = parser.parse_args()
    if not (args.data / "user-study").is_dir() or not (SHARED / "baselines" / "paper-pipeline").is_dir():
        print(f"skipped: needs {args.data / 'user-study'} and {SHARED / 'baselines' / 'paper-pipeline'}")
        return 0
    pycache = cached_bytecode()
    # and so does this process, whose reading and analysis are timed in place: a module it imports first
    # during a first pass is then loaded from the children's bytecode, not compiled inside the timing
    sys.pycache_prefix, sys.dont_write_bytecode = pycache.name, False
    result: dict[str, Any] = {"machine": machine(), "revision": _revision()}
    result["side_by_side"] = side_by_side(args.data, args.rounds)
    result["fixed_cost_cpu_s"] = fixed_cost(args.data, args.rounds)
    result["reading_only_ms"] = reading_only(args.data, args.rounds)
    result["analysis_only_ms"] = analysis_only(args.data, args.rounds)
    result["check_one_game_wall_s"] = check_wall(args.data)
    if not args.no_memory:
        result["memory"] = memory_per_step()
    pycache.cleanup()
    print(report_text(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


def report_text(result: dict[str, Any]) -> str:
    """The figures as a few lines of text."""
    m, s = result["machine"], result["side_by_side"]
    ours, theirs, ratio = s["strips_int_ms"], s["paper_ms"], s["ratio_per_round"]
    lines = [
        f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; revision {result['revision']}",
        f"{s['games']} user-study games, {s['rounds']} alternating rounds, CPU per game (user+sys, median, min-max):",
        f"  strips_int evaluate --jobs 1   {ours['median']:7.2f} ms  ({ours['min']:.2f}-{ours['max']:.2f})",
        f"  paper map + detect (--clamp)   {theirs['median']:7.2f} ms  ({theirs['min']:.2f}-{theirs['max']:.2f})",
        f"  ratio of the medians {s['ratio_of_medians']:.1f}x; per round median {ratio['median']:.1f}x "
        f"({ratio['min']:.1f}-{ratio['max']:.1f}x)",
    ]
    fixed = result["fixed_cost_cpu_s"]
    lines.append(f"fixed cost of a run (evaluate on one game): {fixed['median']:.3f} s CPU "
                 f"({fixed['min']:.3f}-{fixed['max']:.3f})")
    for key, what in (("reading_only_ms", "reading alone (decode + lift to traces)"),
                      ("analysis_only_ms", "analysis alone (given the traces)")):
        alone = result[key]
        lines.append(f"{what}: {alone['warm']['median']:.2f} ms CPU per game "
                     f"({alone['warm']['min']:.2f}-{alone['warm']['max']:.2f}; first pass {alone['first_pass']:.2f})")
    wall = result["check_one_game_wall_s"]
    lines.append(f"check on one game: {wall['median']:.2f} s wall ({wall['min']:.2f}-{wall['max']:.2f})")
    if "memory" in result:
        mem = result["memory"]
        lines.append(f"memory per step, {mem['steps']:,}-step SAR trace: trace {mem['trace_bytes_per_step']:.0f} B, "
                     f"analysis kept {mem['analysis_kept_bytes_per_step']:.0f} B "
                     f"(peak {mem['analysis_peak_bytes_per_step']:.0f} B), no graph")
    return "\n".join(lines)


def _revision() -> str:
    found = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=ROOT)
    return found.stdout.strip() or "unknown"


if __name__ == "__main__":
    sys.exit(main())
