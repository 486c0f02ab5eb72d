"""Memory of one process that analyses many Hanabi games in turn: what the domain's cache keeps is bounded.

    python benchmarks/hanabi_memory.py [GAMES] [EVERY]    # default 320 games, a line every 40

Each game is a two-player No Variant game of its own shuffle (clue a rank, discard, in turn, until the deck
is out), analysed with one loaded domain as ``evaluate`` and ``analyze_games`` do. Prints, every EVERY
games, the process's resident memory and the entries of each table of the domain's cache.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from hanabi_json import shuffled_game, write  # noqa: E402

from strips_int import analyze, load_domain  # noqa: E402


def resident_mib() -> float:
    """This process's resident memory now (``/proc/self/statm``), else its peak."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(games: int = 320, every: int = 40) -> None:
    domain = load_domain("hanabi")
    started = time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        for k in range(1, games + 1):
            analyze(domain, write(Path(folder) / f"g{k}.json", shuffled_game(k)))
            if k % every == 0:
                sizes = {name: len(table) for name, table in domain.cache._tables.items()}
                print(f"{k:5d} games  {resident_mib():7.1f} MiB  {time.process_time() - started:6.1f} s CPU  {sizes}",
                      flush=True)


if __name__ == "__main__":
    main(*map(int, sys.argv[1:3]))
