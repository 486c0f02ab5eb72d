"""Play one JaxMARL Hanabi game with a random policy and save it as hanab.live's game JSON for strips_int.

    python examples/hanabi/random_game.py OUT.json [PLAYERS] [SEED]    # default 3 players, seed 0

Needs the extra: pip install -e '.[jaxmarl]'. Then: strips-int check hanabi OUT.json
"""

import sys

import jax
import jaxmarl
import numpy as np

from strips_int.grounders.hanabi import save_game

out, players, seed = sys.argv[1], int((sys.argv[2:3] or [3])[0]), int((sys.argv[3:4] or [0])[0])
env = jaxmarl.make("hanabi", num_agents=players)
step, legal_moves = jax.jit(env.step_env), jax.jit(env.get_legal_moves)
key, rng = jax.random.PRNGKey(seed), np.random.default_rng(seed)
_, state = env.reset(key)
states, actions = [state], []
while not state.done:
    legal = legal_moves(state)  # a random policy: one legal move per agent (a no-op for those not to act)
    joint = {agent: np.int32(rng.choice(np.flatnonzero(legal[agent]))) for agent in env.agents}
    key, sub = jax.random.split(key)
    _, state, _, _, _ = step(sub, state, joint)
    states.append(state)
    actions.append(joint)
save_game(out, env, states, actions)  # checked against every state, then written
