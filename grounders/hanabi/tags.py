"""How a hanab.live game file shows itself in its head, apart from the reader (:mod:`.game`), so that
recognizing a file imports no rules or variants (the registry shows every file to every recognizer)."""

from __future__ import annotations

import re

from ..base import Head

#: How a hanab.live game shows itself in a file's first bytes: a card of the deck, or an action object.
_CARD_KEY, _ACTION_KEY = b'"suitIndex"', b'"target"'
_CARD = re.compile(rb'"suitIndex"\s*:')
_ACTION = re.compile(rb'"target"\s*:')


def detect(head: Head) -> bool:
    """Whether the file of ``head`` looks like a hanab.live game (never raises): a ``.json`` file whose head
    holds a card of the deck, or an action object and, further on (:meth:`~..base.Head.whole`), a card
    (the reader parses it once)."""
    if not head.path.name.lower().endswith(".json"):
        return False
    if head.mentions(_CARD_KEY):  # a substring search first: most files are no game, and have neither key
        return bool(_CARD.search(head.data))
    # the rest is read only within the input limit: a larger file is refused by its size when read
    return (head.mentions(_ACTION_KEY) and bool(_ACTION.search(head.data)) and head.size > len(head.data)
            and (whole := head.whole()) is not None and bool(_CARD.search(whole)))
