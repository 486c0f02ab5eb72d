"""CPU per gfootball dump: reading (restricted unpickling, per-step checks, lifting) and analysing it.

    python benchmarks/football_cost.py [DUMP_OR_FOLDER...] [--rounds 5]

Default: every dump in ../shared/data/grf. Each round reads and analyses every
dump once (the left team), in CPU seconds of this process (time.process_time),
beside its number of steps: unpickling and reading are each dump's median over
the rounds; analysing is shown cold (the first round, what a command line
pays) and warm (the median of the others: the analysis caches what it found
for a problem it has seen).
The issue's bound: a full 3,000-step game in under 5 s.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from hanabi_cost import cpu_model  # this folder's: a script's own folder is on sys.path

from strips_int import analyze, load_domain
from strips_int.grounders.football import read_trace
from strips_int.grounders.football.dump import read_frames

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "grf"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", type=Path, nargs="*", default=[DEFAULT])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    domain = load_domain("football")
    dumps = sorted(p for path in args.paths for p in ([path] if path.is_file() else path.rglob("*.dump")))
    print(f"CPU: {cpu_model()}; median of {args.rounds} rounds, CPU seconds")
    print(f"{'dump':55} {'steps':>6} {'unpickle':>9} {'read':>6} {'analyse cold':>13} {'warm':>6} {'total cold':>11}")
    for path in dumps:
        unpickle, read, analysed = [], [], []
        for _ in range(args.rounds):
            start = time.process_time()
            frames = read_frames(path)
            unpickle.append(time.process_time() - start)
            start = time.process_time()
            trace = read_trace(path, domain)
            read.append(time.process_time() - start)
            start = time.process_time()
            report = analyze(domain, trace)
            report.to_dict()  # every count, trigger and required check (a report computes them on first use)
            analysed.append(time.process_time() - start)
        r, cold, warm = statistics.median(read), analysed[0], statistics.median(analysed[1:] or analysed)
        name = f"{path.parent.name}/{path.name}"
        print(f"{name:55} {len(frames):6d} {statistics.median(unpickle):9.3f} {r:6.3f} {cold:13.3f} {warm:6.3f} "
              f"{r + cold:11.3f}")


if __name__ == "__main__":
    main()
