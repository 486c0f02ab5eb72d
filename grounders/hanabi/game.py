"""hanab.live's game JSON (format 3.0.0), read and checked field by field; recognized by content.

The format (``misc/example_game_with_comments.jsonc`` in the hanabi-live
repository): ``players`` (names, player 0 acts first unless
``options.startingPlayer``), ``deck`` (``{"suitIndex", "rank"}`` from the top;
dealt to player 0 until the hand is full, then player 1, ...), ``actions``
(``{"type", "target", "value"}``: 0 play and 1 discard of the card ``target``,
the card's place in the deck; 2 colour and 3 rank clue to player ``target``; 4
end game, and 5 end game by vote as the server writes it), ``options``
(``variant``, default "No Variant"; ``emptyClues``, ``deckPlays``,
``oneExtraCard``, ``oneLessCard``, ``startingPlayer``, ``speedrun`` are played;
``cardCycle``, timing and table options change nothing here;
``allOrNothing`` and ``detrimentalCharacters`` change the rules and are
refused) and the optional ``id``, ``seed`` and ``notes``. A file may also hold
a list of such games (``FILE#k``). Whether each action is legal is the
replay's business (:mod:`.replay`); here every value is checked for its type
and range, and an error names the field (``actions 12 target``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from strips_int.errors import StripsIntError, brief
from strips_int.files import read_json

from .variants import SUPPORTED, Variant, variant

PLAY, DISCARD, COLOUR_CLUE, RANK_CLUE, END_GAME, END_GAME_BY_VOTE = range(6)
#: Cards in a hand by number of players (hanab.live's table), before oneExtraCard / oneLessCard.
HAND_SIZES = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}
#: The longest player name kept (hanab.live's are short; a name is carried into every report).
MAX_NAME = 100
#: The most actions read: a game has at most a few hundred (a 60-card deck and 8 tokens allow ~100).
MAX_ACTIONS = 10_000
_RULE_CHANGERS = ("allOrNothing", "detrimentalCharacters")


@dataclass(frozen=True)
class Action:
    """One entry of ``actions``: its type, target and value (0 when absent)."""

    kind: int
    target: int
    value: int


@dataclass(frozen=True)
class Game:
    """One game as read: players' names, the deck as (suit index, rank), the actions and the rules in play."""

    source: str
    players: tuple[str, ...]
    deck: tuple[tuple[int, int], ...]
    actions: tuple[Action, ...]
    variant: Variant
    hand_size: int
    starting_player: int = 0
    empty_clues: bool = False
    deck_plays: bool = False
    speedrun: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


def read_games(path: Path) -> Iterator[Game | StripsIntError]:
    """Every game of a file (one, or each of a list: ``FILE#k``); a game that cannot be read is its error."""
    source = str(path)
    try:
        data = read_json(path)
    except StripsIntError as exc:
        yield exc
        return
    if isinstance(data, list):
        strays = [k for k, item in enumerate(data) if not (isinstance(item, dict) and "deck" in item)]
        if strays or not data:
            found = f"this item is {brief(data[strays[0]])} without a deck" if strays else "it is empty"
            yield StripsIntError(source, f"item {strays[0]}" if strays else None, "a file of several hanab.live "
                                 f"games is a list of game objects (with players, deck and actions); {found}")
            return
        for k, item in enumerate(data):
            try:
                yield game_from_json(item, f"{source}#{k}")
            except StripsIntError as exc:
                yield exc
        return
    try:
        yield game_from_json(data, source)
    except StripsIntError as exc:
        yield exc


def game_from_json(data: Any, source: str) -> Game:
    """A game from its parsed JSON; a field of the wrong type or out of range is an error naming it."""
    if not isinstance(data, dict):
        raise StripsIntError(source, None, f"a hanab.live game is a JSON object, found {brief(data)}")
    players = _list(source, data.get("players"), "players")
    if not 2 <= len(players) <= 6:
        raise StripsIntError(source, "players", f"{len(players)} players; hanab.live plays 2 to 6")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name or len(name) > MAX_NAME:
            raise StripsIntError(source, f"players {i}", f"a name is a string of 1 to {MAX_NAME} characters, "
                                 f"found {brief(name)}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise StripsIntError(source, "options", f"must be a JSON object, found {brief(options)}")
    name = options.get("variant", "No Variant")
    rules = variant(name) if isinstance(name, str) else None
    if rules is None:
        raise StripsIntError(source, "options.variant", f"{brief(name)} is not a variant read here: {SUPPORTED}")
    flags = {key: _flag(source, options, key) for key in ("emptyClues", "deckPlays", "oneExtraCard", "oneLessCard",
                                                          "speedrun", *_RULE_CHANGERS)}
    changed = [key for key in _RULE_CHANGERS if flags[key]]
    if changed:
        raise StripsIntError(source, f"options.{changed[0]}", "changes the rules of the game; not read here")
    starting = options.get("startingPlayer", 0)
    if not _whole(starting) or not 0 <= starting < len(players):
        raise StripsIntError(source, "options.startingPlayer", f"must be a player index 0 to {len(players) - 1}, "
                             f"found {brief(starting)}")
    deck = tuple(_card(source, rules, item, i) for i, item in enumerate(_list(source, data.get("deck"), "deck")))
    if len(deck) != rules.deck_size:
        raise StripsIntError(source, "deck", f"{len(deck)} cards; a {rules.name} deck has {rules.deck_size}")
    for (suit, rank), count in sorted(Counter(deck).items()):
        if count != rules.copies(suit, rank):
            raise StripsIntError(source, "deck", f"{count} cards {rules.suits[suit].name} {rank}; a {rules.name} deck "
                                 f"has {rules.copies(suit, rank)}")
    raw = _list(source, data.get("actions"), "actions")
    if len(raw) > MAX_ACTIONS:
        raise StripsIntError(source, "actions", f"{len(raw)} actions; at most {MAX_ACTIONS} are read")
    hand = HAND_SIZES[len(players)] + flags["oneExtraCard"] - flags["oneLessCard"]
    if hand * len(players) > len(deck):
        raise StripsIntError(source, "options", f"the deal needs {hand * len(players)} cards ({len(players)} players, "
                             f"{hand} each) and a {rules.name} deck has {len(deck)}")
    meta = {key: data[key] for key in ("id", "seed", "engine") if _plain(data.get(key))}
    return Game(source=source, players=tuple(players), deck=deck,
                actions=tuple(_action(source, item, i) for i, item in enumerate(raw)), variant=rules, hand_size=hand,
                starting_player=starting, empty_clues=flags["emptyClues"], deck_plays=flags["deckPlays"],
                speedrun=flags["speedrun"], meta=meta)


def _list(source: str, value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise StripsIntError(source, where, f"must be a list, found {brief(value)}")
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value: Any) -> bool:
    """A short string or a whole number: what ``meta`` takes from the file (``id``, ``seed``, ``engine``)."""
    return (isinstance(value, str) and 0 < len(value) <= MAX_NAME) or (_whole(value) and abs(value) < 2**63)


def _flag(source: str, options: dict, key: str) -> bool:
    value = options.get(key, False)
    if not isinstance(value, bool):
        raise StripsIntError(source, f"options.{key}", f"must be true or false, found {brief(value)}")
    return value


def _card(source: str, rules: Variant, item: Any, i: int) -> tuple[int, int]:
    where = f"deck {i}"
    if not isinstance(item, dict):
        raise StripsIntError(source, where, f'a card is {{"suitIndex": S, "rank": R}}, found {brief(item)}')
    suit, rank = item.get("suitIndex"), item.get("rank")
    if not _whole(suit) or not 0 <= suit < len(rules.suits):
        raise StripsIntError(source, f"{where} suitIndex", f"must be 0 to {len(rules.suits) - 1} in {rules.name}, "
                             f"found {brief(suit)}")
    if not _whole(rank) or not 1 <= rank <= 5:
        raise StripsIntError(source, f"{where} rank", f"must be 1 to 5, found {brief(rank)}")
    return suit, rank


def _action(source: str, item: Any, i: int) -> Action:
    where = f"action {i}"
    if not isinstance(item, dict):
        raise StripsIntError(source, where, f'an action is {{"type", "target", "value"}}, found {brief(item)}')
    values = []
    for key in ("type", "target", "value"):
        value = item.get(key, 0 if key == "value" else None)
        if not _whole(value) or abs(value) >= 2**31:
            raise StripsIntError(source, f"{where} {key}", f"must be a whole number, found {brief(value)}")
        values.append(value)
    return Action(*values)
