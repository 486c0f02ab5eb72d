"""hanab.live game JSON built by the tests: a deck whose top is given card by card, and the actions.

Cards are written ``"r1"``, ``"p5"`` (the first letter of a No Variant suit, then the
rank) or as ``(suitIndex, rank)``. :func:`deck` puts the given cards on top and the rest
of the variant's deck under them; :func:`game` makes the JSON object.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

from strips_int.grounders.hanabi.variants import RANKS, variant as named

SUITS = "rygbp"
PLAY, DISCARD, COLOUR, RANK, END = range(5)
RED, YELLOW, GREEN, BLUE, PURPLE = range(5)


def card(text: str | tuple[int, int]) -> tuple[int, int]:
    return text if isinstance(text, tuple) else (SUITS.index(text[0]), int(text[1:]))


def deck(top: Sequence[str | tuple[int, int]], variant: str = "No Variant") -> list[dict[str, int]]:
    """A full deck of ``variant`` (its cards as strips_int reads them) starting with ``top``."""
    rules = named(variant)
    left = Counter({(s, r): rules.copies(s, r) for s in range(len(rules.suits)) for r in RANKS})
    cards = [card(c) for c in top]
    left.subtract(cards)
    assert min(left.values()) >= 0, "more copies on top than the deck has"
    cards += sorted(left.elements())
    return [{"suitIndex": s, "rank": r} for s, r in cards]


def game(top: Sequence[str | tuple[int, int]], actions: Sequence[Sequence[int]], players: int = 2,
         **options: Any) -> dict[str, Any]:
    """A game of ``players`` players (Alice, Bob, ...); actions as (type, target[, value])."""
    return {"players": ["Alice", "Bob", "Cathy", "Donald", "Emily", "Frank"][:players],
            "deck": deck(top, options.get("variant", "No Variant")),
            "actions": [dict(zip(("type", "target", "value"), a)) for a in actions],
            **({"options": options} if options else {})}


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


#: Two players: Alice holds y1 r2 g1 b1 b2, Bob r1 r3 g2 p4 y4. Alice tells Bob red (r1, r3) and, with the
#: token Bob's discard gave back, ones (r1); Bob plays r1 knowing it; Alice plays y1 blind; Bob misplays g2.
HELP = game(["y1", "r2", "g1", "b1", "b2", "r1", "r3", "g2", "p4", "y4", "p1"],
            [(COLOUR, 1, RED), (DISCARD, 9), (RANK, 1, 1), (PLAY, 5), (PLAY, 0), (PLAY, 7)])



def clue_and_discard(cards: list[dict[str, int]], left: int = 0) -> tuple[list[dict[str, int]], list[list[int]]]:
    """Two players' actions: Alice clues Bob the rank of his oldest card and Bob discards it, in turn, until
    ``left`` cards are left in the deck; and the hands then."""
    hands, top, actions = [list(range(5)), list(range(5, 10))], 10, []
    while len(cards) - top > left:
        actions.append({"type": RANK, "target": 1, "value": cards[hands[1][0]]["rank"]})
        actions.append({"type": DISCARD, "target": hands[1].pop(0)})
        hands[1].append(top)
        top += 1
    return actions, hands


def shuffled_game(seed: int) -> dict[str, Any]:
    """A two-player No Variant game of a deck shuffled by ``seed``: clue and discard in turn until the deck is out."""
    cards = deck([])
    random.Random(seed).shuffle(cards)
    actions, _ = clue_and_discard(cards)
    return {"players": ["Alice", "Bob"], "deck": cards, "actions": actions}
