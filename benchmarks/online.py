"""Per-step cost of the online analysis against overcooked-ai's own ``env.step`` (docs/speed.md).

    .venv/bin/python benchmarks/online.py [--lengths 400 4000 40000] [--rounds 2] [--jaxmarl]

Random agents (interacting half the time, else moving or staying) play cramped_room episodes of each length
in the wrapped environment (``strips_int.grounders.overcooked.online.OnlineOvercooked``). Each step times
overcooked-ai's ``env.step`` and then the analysis of that transition (lifting it and ``Online.step``),
alternating, so that both see the same load; printed: per-step medians with the interquartile range, for the
whole episode and its last 400 steps (a cost that grew with the episode would show there), and the time of
the report at the end (``finish``: what needs the whole game). Episodes of the lengths alternate round by
round. With ``--jaxmarl``, the same for JaxMARL's Overcooked (``OnlineJaxMARL``): its ``env.step`` jitted (until
its result is ready) against the analysis of the transition (the state brought to the host, decoded, lifted and
analysed), at the same lengths (``max_steps``). overcooked-ai 1.1.0 names ``np.Inf``, gone from numpy 2: set
back here before it is imported.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import numpy as np


def quartiles(values: list[float]) -> str:
    """Median and interquartile range, in microseconds."""
    q1, median, q3 = statistics.quantiles(values, n=4)
    return f"{median:7.1f} us (IQR {q1:.1f}-{q3:.1f})"


def episode(length: int, seed: int) -> dict[str, object]:
    """One episode of ``length`` steps: per-step times (us) of env.step and of the analysis, and finish's (ms)."""
    from overcooked_ai_py.mdp.actions import Action
    from overcooked_ai_py.mdp.overcooked_env import OvercookedEnv
    from overcooked_ai_py.mdp.overcooked_mdp import OvercookedGridworld

    from strips_int.grounders.overcooked.online import OnlineOvercooked

    mdp = OvercookedGridworld.from_layout_name("cramped_room")
    wrapped = OnlineOvercooked(OvercookedEnv.from_mdp(mdp, horizon=length, info_level=0))
    env = wrapped.env
    rng = random.Random(seed)
    moves = Action.ALL_ACTIONS[:5]
    env_times, analysis_times = [], []
    clock = time.perf_counter_ns
    for _ in range(length):
        joint = tuple("interact" if rng.random() < 0.5 else rng.choice(moves) for _ in "ab")
        start = clock()
        _, reward, _, _ = env.step(joint)
        middle = clock()
        wrapped.transition(joint, reward)
        end = clock()
        env_times.append((middle - start) / 1e3)
        analysis_times.append((end - middle) / 1e3)
    start = clock()
    report = wrapped.report()
    finish = (clock() - start) / 1e6
    return {"env": env_times, "analysis": analysis_times, "finish": finish, "steps": len(report.steps),
            "interdependencies": report.counts["interdependencies"]}


def jaxmarl_episode(length: int, seed: int) -> dict[str, object]:
    """:func:`episode` for JaxMARL's Overcooked (cramped_room, ``max_steps=length``), its step jitted."""
    import jax
    import jaxmarl
    from jaxmarl.environments.overcooked.layouts import overcooked_layouts

    from strips_int.grounders.jaxmarl.online import OnlineJaxMARL

    env = jaxmarl.make("overcooked", layout=overcooked_layouts["cramped_room"], max_steps=length)
    step = jax.jit(env.step)
    wrapped = OnlineJaxMARL(env, reset=jax.jit(env.reset), step=step)
    key = jax.random.PRNGKey(seed)
    _, state = wrapped.reset(key)
    rng = np.random.default_rng(seed)
    env_times, analysis_times = [], []
    clock = time.perf_counter_ns
    for _ in range(length - 1):  # (the last step resets: the report is asked before it)
        joint = {agent: int(rng.choice(6, p=[0.1] * 5 + [0.5])) for agent in env.agents}
        key, sub = jax.random.split(key)
        start = clock()
        _, after, rewards, dones, _ = jax.block_until_ready(step(sub, state, joint))
        middle = clock()
        wrapped.transition(joint, after, rewards, dones)
        end = clock()
        state = after
        env_times.append((middle - start) / 1e3)
        analysis_times.append((end - middle) / 1e3)
    start = clock()
    report = wrapped.report()
    finish = (clock() - start) / 1e6
    return {"env": env_times[1:], "analysis": analysis_times[1:], "finish": finish, "steps": len(report.steps),
            "interdependencies": report.counts["interdependencies"]}  # (the first step compiles)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[400, 4000, 40000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jaxmarl", action="store_true", help="JaxMARL's Overcooked instead of overcooked-ai's")
    args = parser.parse_args()
    np.Inf = np.inf  # type: ignore[attr-defined]  # overcooked-ai 1.1.0 under numpy 2
    print(f"CPU: {cpu_model()}; Python {platform.python_version()}; "
          f"{'JaxMARL Overcooked' if args.jaxmarl else 'overcooked-ai'}")
    play = jaxmarl_episode if args.jaxmarl else episode
    found: dict[int, list[dict]] = {length: [] for length in args.lengths}
    started = time.process_time()
    for round_ in range(args.rounds):
        for length in args.lengths:
            found[length].append(play(length, seed=round_))
    for length, runs in found.items():
        env = [t for run in runs for t in run["env"]]
        analysis = [t for run in runs for t in run["analysis"]]
        tail_env = [t for run in runs for t in run["env"][-400:]]
        tail = [t for run in runs for t in run["analysis"][-400:]]
        ratio = statistics.median(analysis) / statistics.median(env)
        print(f"{length:>6} steps x {len(runs)}: env.step {quartiles(env)}; analysis {quartiles(analysis)}; "
              f"ratio {ratio:.2f}")
        print(f"{'':>6} last 400 steps: env.step {quartiles(tail_env)}; analysis {quartiles(tail)}; "
              f"finish {statistics.median(run['finish'] for run in runs):.1f} ms "
              f"({runs[0]['steps']} lifted steps, {runs[0]['interdependencies']} interdependences)")
    print(f"CPU time of the run: {time.process_time() - started:.1f} s")


def cpu_model() -> str:
    """The CPU's model name (Linux ``/proc/cpuinfo``), else what ``platform`` says."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


if __name__ == "__main__":
    main()
