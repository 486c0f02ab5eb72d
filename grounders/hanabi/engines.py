"""Games played in a learning environment, written as hanab.live's game JSON: ``save_game``.

JaxMARL's Hanabi (``jaxmarl.make("hanabi", ...)``, jaxmarl 0.2): a game is its
states (the one ``reset`` gives first, then one per step; a state after the
last step that ``env.step`` reset is left out) and its actions (one per step:
the dict of every agent's action ``env.step`` takes, or the acting agent's
action). The deck is read from the first state (the hands in seat order, then
the rest of the deck), each action from JaxMARL's encoding (discard and play by
hand slot, clues by colour or rank to a player counted from the giver) into
hanab.live's (a card's place in the deck, a player's index). Seats are
hanab.live's players, named by the JaxMARL agent in each seat; colour i of
JaxMARL (R Y G W B, M) is suit i of No Variant (6 Suits for six colours): the
names differ, the game does not. A hand size that is not hanab.live's for the
number of players is written as ``oneExtraCard`` / ``oneLessCard``.

The JSON is checked against the game it records as it is written: it is
replayed by hanab.live's rules (:class:`.replay.Table`) and after each step
whose state is given the cards on the fireworks, the clue tokens, the strikes,
the card in every hand slot and what its holder knows of it (JaxMARL's
``card_knowledge``) must be JaxMARL's, and at the end the score. Only numpy is
used (the states' arrays are read with ``numpy.asarray``); jax is the caller's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from strips_int.errors import StripsIntError
from strips_int.files import write_atomic

from .game import HAND_SIZES, Action, game_from_json
from .replay import MAX_STRIKES, MAX_TOKENS, Table
from .variants import COPIES

ENGINE = "jaxmarl"


def jaxmarl_game(env: Any, states: Sequence[Any], actions: Sequence[Any], names: Sequence[str] | None = None,
                 source: str = "<jaxmarl game>") -> dict[str, Any]:
    """The hanab.live game JSON (a dict) of a JaxMARL Hanabi game, checked step by step against its states
    (see the module docstring); a step where they differ is an error naming it."""
    _check_rules(env, source)
    players, size = int(env.num_agents), int(env.hand_size)
    first = states[0]
    seats = [int(i) for i in np.asarray(first.seat_order)]
    cards = [_identity(card, source, f"the first state's hand {p} slot {i}")
             for p, hand in enumerate(np.asarray(first.player_hands)) for i, card in enumerate(hand)]
    cards += [_identity(card, source, f"the first state's deck card {i}")
              for i, card in enumerate(np.asarray(first.deck)[players * size:], start=players * size)]
    options: dict[str, Any] = {"variant": "No Variant" if int(env.num_colors) == 5 else "6 Suits"}
    if size != HAND_SIZES[players]:
        options["oneExtraCard" if size > HAND_SIZES[players] else "oneLessCard"] = True
    data = {"players": list(names) if names else [str(env.agents[s]) for s in seats],
            "deck": [{"suitIndex": s, "rank": r} for s, r in cards], "actions": [], "options": options,
            "engine": ENGINE}
    table = Table(game_from_json(data, source))
    slots: list[list[int | None]] = [list(range(p * size, (p + 1) * size)) for p in range(players)]
    for t, joint in enumerate(actions):
        seat = t % players
        move = int(joint[env.agents[seats[seat]]] if isinstance(joint, Mapping) else joint)
        action = _action(env, move, seat, slots[seat], source, t)
        data["actions"].append(action)
        table.act(t, Action(action["type"], action["target"], action.get("value", 0)))
        turn = table.turns[-1]
        if turn.card is not None:  # JaxMARL empties the slot and puts the new card (if any) last
            slots[seat].remove(turn.card)
            slots[seat].append(turn.drawn)
        if t + 1 < len(states) and int(np.asarray(states[t + 1].step)) == t + 1:  # not env.step's reset
            _compare(states[t + 1], table, slots, source, t)
    return data


def save_game(path: str | Path, env: Any, states: Sequence[Any], actions: Sequence[Any],
              names: Sequence[str] | None = None) -> Path:
    """Write a JaxMARL Hanabi game as hanab.live's game JSON, once it is checked to replay as JaxMARL played it
    (:func:`jaxmarl_game`); ``names`` names the players (default: the JaxMARL agent in each seat)."""
    path = Path(path)
    write_atomic(path, _text(jaxmarl_game(env, states, actions, names, str(path))))
    return path


def _text(data: dict[str, Any]) -> str:
    """The JSON with a card or an action a line, as hanab.live's example game is written."""
    def block(key: str) -> str:
        items = ",\n".join(f"    {json.dumps(item)}" for item in data[key])
        return f'  "{key}": [\n{items}\n  ]' if items else f'  "{key}": []'

    rest = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()
            if key not in ("deck", "actions")]
    return "{\n" + ",\n".join([rest[0], block("deck"), block("actions"), *rest[1:]]) + "\n}\n"


def _compare(state: Any, table: Table, slots: list[list[int | None]], source: str, t: int) -> None:
    """JaxMARL's state after action ``t`` against the replay's: tokens, fireworks, strikes, hands, knowledge."""
    def fail(message: str) -> StripsIntError:
        return StripsIntError(source, f"action {t}", f"JaxMARL and the replay of the JSON differ: {message}")

    engine = (int(np.asarray(state.fireworks).sum()), int(np.asarray(state.info_tokens).sum()),
              MAX_STRIKES - int(np.asarray(state.life_tokens).sum()))
    replayed = (sum(table.stacks), len(table.available), table.strikes)
    if engine != replayed:
        raise fail(f"fireworks, clue tokens, strikes {engine} in JaxMARL, {replayed} replayed")
    hands, knowledge = np.asarray(state.player_hands), np.asarray(state.card_knowledge)
    deck, full = table.game.deck, (1 << len(table.variant.identities)) - 1
    for seat, held in enumerate(slots):
        for slot, card in enumerate(held):
            hot = np.argwhere(hands[seat][slot] > 0)
            there = (int(hot[0][0]), int(hot[0][1]) + 1) if len(hot) else None
            if there != (None if card is None else deck[card]):
                raise fail(f"player{seat}'s slot {slot} holds {there} in JaxMARL, card {card} replayed")
            known = sum(1 << int(i) for i in np.flatnonzero(knowledge[seat][slot] > 0))
            if card is not None and known != table.knowledge[seat].possible.get(card, full):
                raise fail(f"player{seat} knows card {card} otherwise in JaxMARL")
    if bool(np.asarray(state.done)) and int(np.asarray(state.score)) != table.result().score:
        raise fail(f"JaxMARL scores {int(np.asarray(state.score))}, the replay {table.result().score}")


def _check_rules(env: Any, source: str) -> None:
    """hanab.live plays 5 ranks of 3-2-2-2-1 cards, 5 or 6 colours, 8 tokens, 3 strikes, 2 to 6 players."""
    ranks = [int(n) for n in np.asarray(env.num_cards_of_rank)]
    rules = (int(env.num_ranks), ranks, int(env.max_info_tokens), int(env.max_life_tokens))
    if rules != (5, list(COPIES.values()), MAX_TOKENS, MAX_STRIKES) or int(env.num_colors) not in (5, 6) \
            or abs(int(env.hand_size) - HAND_SIZES.get(int(env.num_agents), -9)) > 1:
        raise StripsIntError(source, None, "only JaxMARL's standard Hanabi (5 ranks of 3-2-2-2-1 cards, 5 or 6 "
                             "colours, 8 clue tokens, 3 lives, hanab.live's hand size or one more or less) has a "
                             "hanab.live game")


def _identity(card: Any, source: str, where: str) -> tuple[int, int]:
    """A one-hot card (colours x ranks) as (suit index, rank)."""
    hot = np.argwhere(np.asarray(card) > 0)
    if len(hot) != 1:
        raise StripsIntError(source, where, f"is not one card ({len(hot)} identities set)")
    return int(hot[0][0]), int(hot[0][1]) + 1


def _action(env: Any, move: int, seat: int, slots: list[int | None], source: str, t: int) -> dict[str, int]:
    """JaxMARL's action ``move`` of the player in ``seat`` as a hanab.live action."""
    size, players, colours, ranks = int(env.hand_size), int(env.num_agents), int(env.num_colors), int(env.num_ranks)
    if 0 <= move < 2 * size:
        card = slots[move % size]
        if card is None:
            raise StripsIntError(source, f"action {t}", f"player{seat} acts on slot {move % size}, which is empty")
        return {"type": 1 if move < size else 0, "target": card}
    hint = move - 2 * size
    if 0 <= hint < (players - 1) * colours:
        return {"type": 2, "target": (seat + 1 + hint // colours) % players, "value": hint % colours}
    hint -= (players - 1) * colours
    if 0 <= hint < (players - 1) * ranks:
        return {"type": 3, "target": (seat + 1 + hint // ranks) % players, "value": hint % ranks + 1}
    raise StripsIntError(source, f"action {t}", f"player{seat}'s action {move} is no move on their turn")
