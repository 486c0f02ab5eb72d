"""Hanabi games played in JaxMARL for ``test_hanabi_engines.py``, in a process of their own.

``python tests/hanabi_engine_games.py OUTDIR [GAMES_PER_COUNT]`` plays games of 2 to 5
players and writes each with ``save_game`` as ``jaxmarl_<players>p_<seed>.json``, and
``facts.json``: per game JaxMARL's own score and number of steps, and the error ``save_game``
gives for games that are not what JaxMARL played. The tests run it as a
subprocess so that pytest's process never imports jax (see ``jaxmarl_rollouts.py``).

The games are played with JaxMARL's own dynamics (``reset_game`` and ``step_game``, which
``env.reset`` and ``env.step`` wrap with observations; leaving those out saves most of the
compilation). The policy is a simple cooperative one with noise, so that every kind of
turn occurs: play a card whose every possible identity (JaxMARL's own card knowledge, from
clues) fits; else, with a token, clue a partner's playable card by its rank or colour;
else discard the oldest card; now and then play a card blind instead.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import jax
import jaxmarl
import numpy as np

from strips_int.errors import StripsIntError
from strips_int.grounders.hanabi import save_game

PLAYER_COUNTS = (2, 3, 4, 5)
BLIND = 0.025  # how often a player plays a card blind


def fits(fireworks: np.ndarray, colour: int, rank: int) -> bool:
    return int(fireworks[colour].sum()) == rank


def choose(env, state, rng: np.random.Generator) -> int:
    """The acting player's move (JaxMARL's encoding) under the policy of the module docstring."""
    seat = int(np.argmax(np.asarray(state.cur_player_idx)))
    size, colours, ranks, players = env.hand_size, env.num_colors, env.num_ranks, env.num_agents
    hands, fireworks = np.asarray(state.player_hands), np.asarray(state.fireworks)
    tokens = int(np.asarray(state.info_tokens).sum())
    held = [slot for slot in range(size) if hands[seat][slot].any()]
    knowledge = np.asarray(state.card_knowledge)[seat].reshape(size, colours, ranks)
    if rng.random() < BLIND:
        return size + int(rng.choice(held))
    for slot in held:
        if all(fits(fireworks, c, r) for c, r in np.argwhere(knowledge[slot] > 0)):
            return size + slot
    hints = []  # (move, partner's card playable)
    for offset in range(players - 1):
        for card in hands[(seat + 1 + offset) % players]:
            if card.any():
                colour, rank = (int(i) for i in np.argwhere(card)[0])
                useful = fits(fireworks, colour, rank)
                hints += [(2 * size + offset * colours + colour, useful),
                          (2 * size + (players - 1) * colours + offset * ranks + rank, useful)]
    if tokens and rng.random() < 0.85 and any(useful for _, useful in hints):
        return int(rng.choice([move for move, useful in hints if useful]))
    if tokens < env.max_info_tokens:
        return held[0]
    return int(rng.choice([move for move, _ in hints]))


@functools.cache
def compiled(players: int) -> tuple:
    """JaxMARL's Hanabi for ``players``, its reset and its step, jitted once."""
    env = jaxmarl.make("hanabi", num_agents=players)
    return env, jax.jit(env.reset_game), jax.jit(env.step_game)


def play(players: int, seed: int) -> tuple:
    env, reset, step = compiled(players)
    rng = np.random.default_rng(seed)
    state = reset(jax.random.PRNGKey(seed))
    states, actions = [state], []
    while not bool(state.done):
        seat = int(np.argmax(np.asarray(state.cur_player_idx)))
        move = choose(env, state, rng)
        state, _ = step(state, np.int32(seat), np.int32(move))
        states.append(state)
        actions.append(move)
    return env, states, actions


def main(out: Path, games: int) -> None:
    facts: dict = {"games": {}}
    for players in PLAYER_COUNTS:
        for seed in range(games):
            env, states, actions = play(players, seed)
            path = save_game(out / f"jaxmarl_{players}p_{seed}.json", env, states, actions)
            facts["games"][path.name] = {"score": int(np.asarray(states[-1].score)), "steps": len(actions)}
    # save_game must refuse, writing nothing, one game's actions with another game's states, and a game whose
    # first play below 8 clue tokens is recorded as a discard
    env, states, actions = play(2, 0)
    changed = next(t for t, move in enumerate(actions) if env.hand_size <= move < 2 * env.hand_size
                   and int(np.asarray(states[t].info_tokens).sum()) < env.max_info_tokens)
    altered = [*actions[:changed], actions[changed] - env.hand_size, *actions[changed + 1:]]
    for name, moves in (("mismatch", play(2, 1)[2]), ("altered", altered)):
        try:
            save_game(out / f"{name}.json", env, states, moves)
        except StripsIntError as exc:
            facts[name] = str(exc)
    (out / "facts.json").write_text(json.dumps(facts, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2)
