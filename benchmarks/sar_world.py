"""Time the SAR grid world end to end on a long episode: simulate, write, read, lift, analyse.

    python benchmarks/sar_world.py [--ticks 2000] [--seed 0] [--repeat 3]

A house of 4 x 3 rooms joined by doors, a victim in every room, debris here
and there and a fire that spreads through one room. Two nurses, a firefighter
and a police officer walk seeded random tours for ``--ticks`` ticks,
interacting twice at every stop; every third stop of a nurse is a victim. Prints seconds per stage and per 1,000 ticks.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from strips_int import analyze, load_domain
from strips_int.grounders.sar import dump_log, lift_log, read_log, scenario_from_json, simulate

SAR = Path(__file__).resolve().parents[1] / "domains" / "sar.pddl"
ROOM_W, ROOM_H, COLS, ROWS = 6, 4, 4, 3


def house() -> list[list[str]]:
    """Rooms of ROOM_W x ROOM_H floor cells in a COLS x ROWS block, a door in the middle of every inner wall."""
    width, height = COLS * (ROOM_W + 1) + 1, ROWS * (ROOM_H + 1) + 1
    grid = [["#"] * width for _ in range(height)]
    for r in range(ROWS):
        for c in range(COLS):
            x0, y0 = c * (ROOM_W + 1) + 1, r * (ROOM_H + 1) + 1
            for y in range(y0, y0 + ROOM_H):
                for x in range(x0, x0 + ROOM_W):
                    grid[y][x] = "."
            if c + 1 < COLS:
                grid[y0 + ROOM_H // 2][x0 + ROOM_W] = "+"
            if r + 1 < ROWS:
                grid[y0 + ROOM_H][x0 + ROOM_W // 2] = "+"
    return grid


def scenario(ticks: int, seed: int) -> dict:
    rng = random.Random(seed)
    grid = house()
    floor = [(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == "."]
    fire_room = {(x, y) for x, y in floor if x > (COLS - 1) * (ROOM_W + 1) and y > (ROWS - 1) * (ROOM_H + 1)}
    legend, names = {}, iter("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    free = [p for p in floor if p not in fire_room]
    rng.shuffle(free)

    def place(name: str) -> tuple[int, int]:
        x, y = free.pop()
        key = next(names)
        grid[y][x] = key
        legend[key] = name
        return x, y

    agents = {"nurse1": ("nurse", ["kit1"]), "nurse2": ("nurse", ["kit2"]),
              "firefighter1": ("firefighter", ["ext1"]), "police1": ("police", [])}
    for name in agents:
        place(name)
    victims = [f"v{i}" for i in range(COLS * ROWS - 1)]
    spots = {victim: place(victim) for victim in victims}
    for x, y in free[:10]:
        grid[y][x] = "*"
    targets = free[10:]
    fx, fy = min(fire_room)
    grid[fy][fx] = "~"
    def tour(name: str) -> list[str]:
        """Random stops with an interact at each; nurses call at a victim's cell every third stop."""
        stops = []
        for k in range(ticks // 8):
            x, y = spots[rng.choice(victims)] if name.startswith("nurse") and k % 3 == 2 else rng.choice(targets)
            stops += [f"go {x} {y}", "interact", "interact"]
        return stops

    scripts = {name: tour(name) for name in agents}
    return {
        "format": "strips-int-sar-scenario/1", "name": "benchmark-house",
        "grid": ["".join(row) for row in grid], "legend": legend,
        "agents": {name: {"role": role, "holding": held, "script": scripts[name]}
                   for name, (role, held) in agents.items()},
        "items": {"kit1": "medkit", "kit2": "medkit", "ext1": "extinguisher"},
        "victims": victims, "spread_every": 40, "max_steps": ticks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    domain = load_domain(SAR)
    data = scenario(args.ticks, args.seed)
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "episode.log.json"
        for _ in range(args.repeat):
            times = {}
            start = time.perf_counter()
            log, _ = simulate(scenario_from_json(json.loads(json.dumps(data)), "benchmark"))
            times["simulate"] = time.perf_counter() - start
            start = time.perf_counter()
            path.write_text(dump_log(log))
            times["write"] = time.perf_counter() - start
            start = time.perf_counter()
            trace = lift_log(read_log(path), domain)
            times["read + lift"] = time.perf_counter() - start
            start = time.perf_counter()
            report = analyze(domain, trace)
            times["analyse"] = time.perf_counter() - start
            best = {k: min(v, best.get(k, v)) for k, v in times.items()}
        size = path.stat().st_size
    ticks = len(log.actions)
    env = sum(step.agent is None for step in trace.steps)
    print(f"{ticks} ticks, {len(trace.steps)} symbolic steps ({env} fire spreads), "
          f"{len(log.states[-1].treated)}/{len(log.world.victims)} victims treated, "
          f"{report.counts['interdependencies']} interdependencies; {size / 1e6:.1f} MB log")
    for stage, seconds in best.items():
        print(f"  {stage:12s} {seconds:6.2f} s  {1000 * seconds / ticks:6.2f} s per 1,000 ticks")
    lifted = best["read + lift"] + best["analyse"]
    print(f"  read, lift and analyse: {lifted:.2f} s (best of {args.repeat})")


if __name__ == "__main__":
    main()
