"""How a hanab.live game file shows itself in its head, apart from the reader (:mod:`.game`), so that
recognizing a file imports no rules or variants (the registry shows every file to every recognizer)."""

from __future__ import annotations

import re

from ..base import Head

#: How a hanab.live game shows itself in a file's first bytes: a card of the deck, or one of the game's own keys
#: that may come before it (an action's ``target``, the game's ``deck`` or ``notes``).
_CARD_KEY = b'"suitIndex"'
_CARD = re.compile(rb'"suitIndex"\s*:')
_GAME_KEYS = (b'"target"', b'"deck"', b'"notes"')
_GAME_KEY = re.compile(rb'"(?:target|deck|notes)"\s*:')


def detect(head: Head) -> bool:
    """Whether the file of ``head`` looks like a hanab.live game (never raises): a ``.json`` file whose head
    holds a card of the deck, or a key of the game that may come first (an action's ``target``, ``deck``,
    ``notes``: the format fixes no key order) and, further on (:meth:`~..base.Head.whole`), a card (the
    reader parses it once)."""
    if not head.path.name.lower().endswith(".json"):
        return False
    if head.mentions(_CARD_KEY):  # a substring search first: most files are no game, and have neither key
        return bool(_CARD.search(head.data))
    # the rest is read only within the input limit: a larger file is refused by its size when read
    return (any(map(head.mentions, _GAME_KEYS)) and bool(_GAME_KEY.search(head.data)) and head.size > len(head.data)
            and (whole := head.whole()) is not None and bool(_CARD.search(whole)))
