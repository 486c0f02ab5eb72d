"""Two revisions of strips_int side by side on the 302 user-study games: is a change slower?

    python benchmarks/revisions.py OTHER_CHECKOUT [--python OTHER_PYTHON] [--rounds 7] [--data ../shared/data]
        [--games N]

``OTHER_CHECKOUT`` is another working tree of this repository with its own install (``git worktree add
/tmp/old COMMIT``, then the README's install command there); ``--python`` is its interpreter (default:
``OTHER_CHECKOUT/.venv/bin/python``). Each round runs, as child processes one after the other, this
checkout's and the other's ``python -m strips_int.evaluate overcooked GAMES --jobs 1``, alternating
A B A B ... after one warm-up each, each in its own checkout's folder; the CPU of a run is the child's
user + sys time, start-up included, per game (as ``benchmarks/paper.py`` measures it, with bytecode cached). It prints each
round, then the medians with min-max and the ratio per round, and the CPU model: a ratio depends on
the machine. ``--games N`` takes the first N games (sorted) instead of the folder: ``--games 1`` sets
the fixed costs of a run side by side. Without ``../shared`` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from paper import ROOT, SHARED, cached_bytecode, child_cpu, machine, spread, user_study


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other revision's checkout")
    parser.add_argument("--python", type=Path, help="its interpreter (default: OTHER/.venv/bin/python)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--data", type=Path, default=SHARED / "data")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--games", type=int, help="the first N games only (1: a run's fixed cost)")
    args = parser.parse_args()
    found = user_study(args.data)
    if found is None:
        return 0
    study, _ = found
    files = sorted(study.resolve().glob("*/*.json"))[:args.games]
    inputs = [str(study.resolve())] if args.games is None else [str(path) for path in files]
    games = len(files)
    other_python = args.python or args.other / ".venv" / "bin" / "python"
    runs: dict[str, list[float]] = {"this": [], "other": []}
    with cached_bytecode(), tempfile.TemporaryDirectory() as out:
        commands = {name: ([str(python), "-m", "strips_int.evaluate", "overcooked", *inputs, "--out",
                            str(Path(out) / name), "--jobs", "1"], folder)
                    for name, python, folder in (("this", sys.executable, ROOT), ("other", other_python, args.other))}
        for command, folder in commands.values():  # warm-up: bytecode cached, files in the page cache
            child_cpu(command, folder)
        for attempt in range(1, args.rounds + 1):
            for name, (command, folder) in commands.items():
                cpu, last = child_cpu(command, folder)
                if not last.startswith(f"{games} games, 0 errors"):
                    raise SystemExit(f"{name} did not analyse the {games} games: {last}")
                runs[name].append(1000 * cpu / games)
                print(f"round {attempt}: {name:<5} {runs[name][-1]:6.2f} ms CPU per game", file=sys.stderr)
    ratios = [o / t for t, o in zip(runs["this"], runs["other"])]
    figures = {"machine": machine(), "games": games, "rounds": args.rounds, "this_ms": spread(runs["this"]),
               "other_ms": spread(runs["other"]), "other_over_this_per_round": spread(ratios),
               "other_over_this_of_medians": statistics.median(runs["other"]) / statistics.median(runs["this"]),
               "runs": runs}
    print(f"{figures['machine']['cpu']}, {games} games, {args.rounds} alternating rounds, CPU ms per game:")
    for name in ("this", "other"):
        s = figures[f"{name}_ms"]
        print(f"  {name:<5} median {s['median']:.2f} (min {s['min']:.2f}, max {s['max']:.2f})")
    r = figures["other_over_this_per_round"]
    print(f"  other / this: {figures['other_over_this_of_medians']:.3f} of the medians; per round median "
          f"{r['median']:.3f} ({r['min']:.3f}-{r['max']:.3f})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
