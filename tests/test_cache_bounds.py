"""What a domain's cache keeps is bounded: one process analysing many Hanabi games, each on a deck (a
problem) of its own, holds every cache table within its bound and its memory flat (it grew by 137 MB over
40 games and 395 MB over 320 before the tables had bounds, issue 37). The games run in a child process,
whose resident memory is read from /proc after 40 and after 80 games."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import ROOT

from strips_int.model.cache import Table

#: The child: analyse games one by one with one domain; print table sizes and limits, and the memory.
MANY_GAMES = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from hanabi_json import shuffled_game, write
from strips_int import analyze, load_domain
domain = load_domain("hanabi")
def resident():
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 2**20
memory = {}
for k in range(1, 81):
    analyze(domain, write(Path(sys.argv[1]) / f"g{k}.json", shuffled_game(k)))
    if k in (40, 80):
        memory[k] = resident()
tables = {name: [len(table), table.limit] for name, table in domain.cache._tables.items()}
print(json.dumps({"memory": memory, "tables": tables}))
"""


def test_a_table_drops_the_least_recently_used_entry():
    table = Table(2)
    table.keep("a", 1)
    table.keep("b", 2)
    assert table.get("a") == 1  # now the most recent
    table.keep("c", 3)
    assert list(table) == ["a", "c"] and table.get("b") is None
    table.keep("a", 4)
    assert list(table) == ["c", "a"] and len(table) == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_memory_stays_flat_over_many_hanabi_games(tmp_path):
    done = subprocess.run([sys.executable, "-c", MANY_GAMES, str(tmp_path), str(ROOT / "tests")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    for name, (size, limit) in found["tables"].items():
        assert limit is not None and size <= limit, name
    assert found["tables"]["ground"][0] == found["tables"]["ground"][1]  # full: the bound is what holds it
    grown = found["memory"]["80"] - found["memory"]["40"]
    assert grown < 12, f"{grown:.1f} MiB more after 80 games than after 40 (unbounded: some 25)"
