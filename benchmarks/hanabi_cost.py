"""CPU per Hanabi game: reading (parse, replay, lift) and analysing (execute, interdependencies, triggers, required).

    python benchmarks/hanabi_cost.py GAME_OR_FOLDER... [--rounds 5]

Each round reads and analyses every game once, from cold caches (every game has
its own deck, so nothing is shared between games in a real run either); the
figures are each game's median over the rounds, summarized per number of
players (median, min-max over the games), in CPU ms of this process; then the CPU per turn (an
agent step: read and analysed), median and min-max over the files.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections import defaultdict
from pathlib import Path

from strips_int import analyze, load_domain
from strips_int.batch.games import game_files
from strips_int.errors import StripsIntError
from strips_int.grounders import read_input


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    domain = load_domain("hanabi")
    files, _ = game_files(args.paths)
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    players: dict[str, int] = {}
    turns: dict[str, int] = {}  # agent steps (turns) of each file, over all rounds
    in_file: dict[str, int] = {}  # games in each file
    for _ in range(args.rounds):
        for path in files:
            domain.cache.clear()
            start = time.process_time()
            results = list(read_input(path, domain))
            read = time.process_time()
            in_file[str(path)] = len(results)
            for result in results:
                if isinstance(result, StripsIntError):
                    raise SystemExit(f"error: {result}")
                analyze(domain, result)
                players[result.source] = result.meta["num_players"]
                turns[str(path)] = turns.get(str(path), 0) + sum(step.agent is not None for step in result.steps)
            done = time.process_time()
            times[str(path)].append(((read - start) / len(results), (done - read) / len(results)))
    per_turn = [1e6 * statistics.median(r + a for r, a in rounds) * in_file[source] / (turns[source] / args.rounds)
                for source, rounds in times.items()]
    by_count: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for source, rounds in times.items():
        by_count[players[source]].append((statistics.median(r for r, _ in rounds),
                                           statistics.median(a for _, a in rounds)))
    print(f"CPU: {cpu_model()}; {len(files)} games, {args.rounds} rounds, CPU ms per game (median, min-max over games)")
    for count, games in sorted(by_count.items()):
        parts = []
        for label, values in (("read", [r for r, _ in games]), ("analyse", [a for _, a in games]),
                              ("total", [r + a for r, a in games])):
            values = [1000 * v for v in values]
            parts.append(f"{label} {statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})")
        print(f"{count} players, {len(games)} games: " + ", ".join(parts))
    print(f"per turn (agent step), read and analysed: {statistics.median(per_turn):.0f} us "
          f"({min(per_turn):.0f}-{max(per_turn):.0f} over the files)")


if __name__ == "__main__":
    main()
