"""A replayed Hanabi game lifted into a problem and a trace of ``domains/hanabi.pddl``.

The problem is the game's deck and players: one object per card (``c12-red3``),
player (``player0``), hand (``hand0``), suit and clue colour (one ``hue`` each:
``red`` is the red suit and the red clue), clue token (the 8 of the start, one
per token given back and one spare, so what a player could still have done
does not depend on what they did: definitions section 11) and strike. Every action
k of the game is a step at ``t = k`` of its player, and what follows from it
at once (the knowledge a clue gave, the card fitting or failing, the draw) is
environment steps at the same ``t``; an end-game action is no step. The goal
is every firework complete; ``meta`` has the players' names, their number, the
variant, the score (also as ``reward``, for the tables), how the game ended
and the file's ``id``, ``seed`` and ``engine``.
"""

from __future__ import annotations

import re
from typing import Iterator

from strips_int.model.domain import Domain
from strips_int.model.problem import make_problem
from strips_int.model.task import Fact, Problem
from strips_int.model.trace import ActionGrounder, Step, Trace

from .replay import Replay, Turn
from .variants import RANKS

#: The action schemas the lifter writes (checked against the domain before a game is read).
NEEDED_ACTIONS = frozenset({"clue", "note-touch", "learn-suit", "learn-rank", "play-informed", "play-suit-known",
                            "play-rank-known", "play-touched", "play-blind", "discard", "fit", "fit-five",
                            "fail-early", "fail-duplicate", "draw", "draw-last"})
_LEARNED = {"touch": "note-touch", "suit": "learn-suit", "rank": "learn-rank"}
STRIKES = ("strike1", "strike2", "strike3")


def hue(name: str) -> str:
    """A suit's or clue colour's object name: ``red``, ``dark-rainbow``."""
    return name.lower().replace(" ", "-")


class _Names:
    """The object names of one game."""

    def __init__(self, replay: Replay) -> None:
        game = replay.game
        self.suits = [hue(s.name) for s in game.variant.suits]
        self.cards = [f"c{i}-{self.suits[s]}{r}" for i, (s, r) in enumerate(game.deck)]
        self.players = [f"player{p}" for p in range(len(game.players))]
        self.hands = [f"hand{p}" for p in range(len(game.players))]

    @staticmethod
    def token(number: int) -> str:
        return f"token{number}"


def game_problem(domain: Domain, replay: Replay, names: _Names) -> Problem:
    """The game's objects, its deal and deck as the initial state, and every firework complete as the goal."""
    game = replay.game
    deck = names.cards
    hues = dict.fromkeys(names.suits + [hue(c) for c in game.variant.colours])
    spare = replay.tokens + 1  # one token beyond those the game gave back
    objects = {**dict.fromkeys(deck, "card"), **dict.fromkeys(names.players, "player"),
               **dict.fromkeys(names.hands, "hand"), **dict.fromkeys(hues, "hue"),
               **dict.fromkeys((names.token(n) for n in range(1, spare + 1)), "token"),
               **dict.fromkeys(STRIKES, "strike")}
    init: list[Fact] = [("holds", p, h) for p, h in zip(names.players, names.hands)]
    for card, (suit, rank) in zip(deck, game.deck):
        init += [("card-suit", card, names.suits[suit]), ("card-rank", card, f"r{rank}")]
    init += [("rank-after", f"r{r - 1}", f"r{r}") for r in RANKS]
    top = len(game.players) * game.hand_size
    if top < len(deck):
        init += [("deck-top", deck[top]), ("deck-last", deck[-1])]
        init += [("deck-next", a, b) for a, b in zip(deck[top:], deck[top + 1:])]
    init += [("in-hand", deck[c], names.hands[p]) for p, hand in enumerate(replay.dealt) for c in hand]
    init += [("firework", s, "r0") for s in names.suits]
    init += [("available", names.token(n)) for n in range(1, 9)]
    init += [("unissued", names.token(n)) for n in range(9, spare + 1)]
    init += [("strike-left", k) for k in STRIKES]
    goal = [("firework", s, f"r{r}") for s in names.suits for r in RANKS]
    variant = re.sub(r"[^a-z0-9]+", "-", game.variant.name.lower()).strip("-")
    return make_problem(domain, f"hanabi-{variant}-{len(game.players)}p", objects, init, goal, game.source)


def turn_atoms(turn: Turn, replay: Replay, names: _Names) -> Iterator[Fact]:
    """The ground atoms of one turn: the player's action, then what follows from it."""
    game, card = replay.game, turn.card
    player, hand = names.players[turn.player], names.hands[turn.player]
    if turn.kind == "clue":
        receiver, token = turn.receiver, names.token(turn.token)
        yield "clue", player, names.players[receiver], names.hands[receiver], turn.value, token
        for learned, what in turn.learned:
            yield _LEARNED[what], names.cards[learned], names.hands[receiver], token
        return
    if turn.kind == "end":
        return
    if turn.from_deck:
        yield _draw(turn.drawn, hand, names)
    if turn.kind == "discard":
        yield "discard", player, names.cards[card], hand, names.token(turn.token)
    else:
        yield f"play-{turn.knew}", player, names.cards[card], hand
        suit, rank = game.deck[card]
        suit_name, rank_name, below = names.suits[suit], f"r{rank}", f"r{rank - 1}"
        if turn.outcome == "fit":
            yield "fit", names.cards[card], suit_name, rank_name, below
        elif turn.outcome == "fit-five":
            yield "fit-five", names.cards[card], suit_name, names.token(turn.token)
        elif turn.outcome == "fail-early":
            yield "fail-early", names.cards[card], suit_name, rank_name, below, STRIKES[turn.strike - 1]
        else:
            yield "fail-duplicate", names.cards[card], suit_name, rank_name, STRIKES[turn.strike - 1]
    if turn.drawn is not None and not turn.from_deck:
        yield _draw(turn.drawn, hand, names)


def _draw(card: int, hand: str, names: _Names) -> Fact:
    if card == len(names.cards) - 1:
        return "draw-last", names.cards[card], hand
    return "draw", names.cards[card], names.cards[card + 1], hand


def lift(replay: Replay, domain: Domain) -> Trace:
    """The trace of a replayed game (see the module docstring)."""
    game = replay.game
    names = _Names(replay)
    problem = game_problem(domain, replay, names)
    grounder = ActionGrounder(domain, problem, game.source)
    times, actions = [], []
    for turn in replay.turns:
        for atom in turn_atoms(turn, replay, names):
            times.append(turn.index)
            actions.append(grounder.ground(atom, f"action {turn.index}"))
    meta = {"players": list(game.players), "num_players": len(game.players), "variant": game.variant.name,
            "score": replay.score, "reward": replay.score, "end": replay.end, **game.meta}
    return Trace(source=game.source, problem=problem, steps=Step.numbered(times, actions), meta=meta)
