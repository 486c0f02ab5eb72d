"""Play one JaxMARL Overcooked episode with random actions and save it for strips_int.

    python examples/jaxmarl/rollout.py OUT.npz [LAYOUT] [SEED]    # default cramped_room, seed 0

Needs the extra: pip install -e '.[jaxmarl]'. Then: strips-int check overcooked OUT.npz
"""

import sys

import jax
import jaxmarl
from jaxmarl.environments.overcooked.layouts import overcooked_layouts

from strips_int.grounders.jaxmarl import save_rollout

out, layout, seed = sys.argv[1], (sys.argv[2:3] or ["cramped_room"])[0], int((sys.argv[3:4] or [0])[0])
env = jaxmarl.make("overcooked", layout=overcooked_layouts[layout])
key = jax.random.PRNGKey(seed)
key, sub = jax.random.split(key)
_, state = env.reset(sub)
states, actions, rewards = [state], [], []
step = jax.jit(env.step)
for t in range(400):
    key, k0, k1, sub = jax.random.split(key, 4)
    joint = {a: int(jax.random.randint(k, (), 0, 6)) for a, k in zip(env.agents, (k0, k1))}
    _, state, reward, done, _ = step(sub, state, joint)
    states.append(state)
    actions.append([joint[a] for a in env.agents])
    rewards.append(float(reward["agent_0"]))
save_rollout(out, env, states, actions, rewards)
