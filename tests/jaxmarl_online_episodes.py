"""JaxMARL Overcooked episodes played in the online wrapper, for ``test_online_jaxmarl.py``, in their own process.

``python tests/jaxmarl_online_episodes.py OUTDIR`` plays full episodes (400 steps, JaxMARL's own end and reset)
of random agents (interacting half the time) on two layouts, and ``jaxmarl_rollouts.py``'s counter hand-over (a
constructive interdependence) then staying, through
``strips_int.grounders.jaxmarl.online.OnlineJaxMARL`` with jitted ``reset`` and ``step``, saves each rollout with
``save_rollout`` (``LAYOUT.npz``) and what the wrapper's ``infos`` said at each step (``LAYOUT.json``). jax runs
here, never in pytest's own process.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import jax
import jaxmarl
import numpy as np
from jaxmarl.environments.overcooked.layouts import overcooked_layouts

from strips_int.grounders.jaxmarl import save_rollout
from strips_int.grounders.jaxmarl.online import OnlineJaxMARL
from strips_int.grounders.overcooked.online import Shaping

from jaxmarl_rollouts import counter_handover  # noqa: E402 (beside this script)

#: Name, layout, seed, and the joint actions to play first (then random, or with ``stay`` staying).
EPISODES = [("cramped_room", "cramped_room", 0, [], False), ("forced_coord", "forced_coord", 1, [], False),
            ("handover", "cramped_room", 7, counter_handover(), True)]
BIASED = np.array([0.1, 0.1, 0.1, 0.1, 0.1, 0.5])
STAY = 4


def main(out: Path) -> None:
    for name, layout, seed, script, stay in EPISODES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # jaxmarl suggests OvercookedV2
            env = jaxmarl.make("overcooked", layout=overcooked_layouts[layout])
        online = OnlineJaxMARL(env, reset=jax.jit(env.reset), step=jax.jit(env.step), shaping=Shaping(0.5, 3.0))
        rng = np.random.default_rng(seed)
        key = jax.random.PRNGKey(seed)
        key, sub = jax.random.split(key)
        _, state = online.reset(sub)
        states, actions, rewards, said = [state], [], [], []
        done = False
        while not done:
            t = len(actions)
            joint = ({agent: int(a) for agent, a in zip(env.agents, script[t])} if t < len(script) else
                     {agent: STAY if stay else int(rng.choice(6, p=BIASED)) for agent in env.agents})
            key, sub = jax.random.split(key)
            _, state, reward, dones, infos = online.step(sub, state, joint)
            done = bool(dones["__all__"])
            states.append(state)
            actions.append(joint)
            rewards.append(float(reward[env.agents[0]]) - infos["interdependence_reward"])
            said.append({key: infos[key] for key in ("interdependencies", "subtasks", "triggers",
                                                     "interdependence_reward", "interdependence_report")
                         if key in infos})
        save_rollout(out / f"{name}.npz", env, states, actions, rewards)
        (out / f"{name}.json").write_text(json.dumps(said))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
