"""The cost of the Dask engine: a local process pool against a local Dask cluster of the same size.

    python benchmarks/dask_overhead.py [DATA_DIR] [--workers 2] [--repeat 3] [--json dask_overhead.json]

Evaluates the 302 user-study games (default ``../shared/data/user-study``)
with ``--workers`` pool processes and on a ``distributed.LocalCluster`` of
``--workers`` single-threaded worker processes through ``--scheduler``'s code
path, the runs interleaved so a busy machine slows both alike; prints games/s
of each (best of ``--repeat``), the difference per game, and Dask's own cost
per task (empty batches, in order) spread over the games of a batch; writes
them as JSON. The cluster's start-up and its first (cold) run, when each
worker imports strips_int, are reported apart.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from distributed import Client, LocalCluster

from strips_int import load_domain
from strips_int.batch.cluster import batch_rows, batches, evaluate_on_cluster
from strips_int.batch.engines import Processes
from strips_int.batch.games import game_files

ROOT = Path(__file__).resolve().parents[1]


def timed(rows) -> tuple[float, list]:
    start = time.perf_counter()
    result = list(rows)
    return time.perf_counter() - start, result


def task_seconds(address: str, domain, tasks: int = 200) -> float:
    """Dask's own cost per batch: empty batches submitted and gathered in order, as evaluate does."""
    with Client(address) as client:
        shared = client.scatter(domain, broadcast=True)
        start = time.perf_counter()
        futures = [client.submit(batch_rows, shared, {}, [], pure=False) for _ in range(tasks)]
        for future in futures:
            future.result()
        return (time.perf_counter() - start) / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="?", default=ROOT.parent / "shared" / "data" / "user-study")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=Path("dask_overhead.json"))
    args = parser.parse_args()
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    files, _ = game_files([args.data])
    start = time.perf_counter()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        startup = time.perf_counter() - start
        runs = [timed(evaluate_on_cluster(domain, files, {}, c.scheduler_address))]
        pool = []
        for _ in range(args.repeat):  # interleaved, so a busy machine slows both alike
            pool.append(timed(Processes(args.workers).rows(domain, files, {})))
            runs.append(timed(evaluate_on_cluster(domain, files, {}, c.scheduler_address)))
        per_task = task_seconds(c.scheduler_address, domain)
    reference = pool[0][1]
    assert all(rows == reference for _, rows in pool + runs), "the Dask rows differ from the pool's"
    games = sum(len(rows) for rows in reference)
    best_pool, best_dask = min(s for s, _ in pool), min(s for s, _ in runs[1:])
    figures = {"games": games, "files": len(files), "workers": args.workers, "repeat": args.repeat,
               "pool_seconds": [round(s, 3) for s, _ in pool], "dask_startup_seconds": round(startup, 3),
               "dask_cold_seconds": round(runs[0][0], 3), "dask_seconds": [round(s, 3) for s, _ in runs[1:]],
               "pool_games_per_s": round(games / best_pool, 1), "dask_games_per_s": round(games / best_dask, 1),
               "dask_overhead_ms_per_game": round(1000 * (best_dask - best_pool) / games, 2),
               "batches": len(batches(files, args.workers)), "task_ms": round(1000 * per_task, 2),
               "task_ms_per_game": round(1000 * per_task * len(batches(files, args.workers)) / games, 3)}
    print(f"{games} games in {len(files)} files, {args.workers} workers, best of {args.repeat}:")
    print(f"  process pool      {figures['pool_games_per_s']:6.1f} games/s  ({best_pool:.2f} s)")
    print(f"  local Dask cluster {figures['dask_games_per_s']:5.1f} games/s  ({best_dask:.2f} s; start-up "
          f"{startup:.2f} s, first run {runs[0][0]:.2f} s)")
    print(f"  Dask overhead     {figures['dask_overhead_ms_per_game']:6.2f} ms per game (difference of the bests)")
    print(f"  Dask per task     {figures['task_ms']:6.2f} ms, {figures['batches']} batches: "
          f"{figures['task_ms_per_game']:.3f} ms per game")
    args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
