"""hanab.live's rules, replayed action by action: what each action did, and each illegal action as the error.

As hanab.live's server replays a game: player ``(startingPlayer + k) mod n``
takes action k. A play puts the card on its firework when it is the next rank,
else it is a strike and the card is discarded; a discard gives back a clue
token, and may not be made at 8; a played 5 gives one back below 8; a clue
costs one, goes to another player and must touch a card (unless
``emptyClues``). After a play or a discard the player draws, while the deck
lasts; once the last card is drawn every player has one more turn (with
``deckPlays``, the last card may be played straight from the deck). The game
ends at the third strike, after that final round, when every firework is
complete, at an end-game action, or in a speedrun once the full score cannot
be reached; an action after the end is an error. The score is the cards on
the fireworks, or 0 after a strikeout, an end-game action or a failed
speedrun (hanab.live's and the learning environments' "bomb-0" scoring).

hanab.live's server also ends a game when no card that can still be played
is left; the learning environments (hanabi-learning-environment, JaxMARL,
OpenSpiel) play on to the end of the deck, and so does this replay: from
there only strikes and the score can change, and a game that stops at that
point says so in its end.

What the players know of their cards is what the clues told them, positive and
negative: each card's possible identities are narrowed by each clue to its
hand (see :class:`Knowledge`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from strips_int.errors import StripsIntError

from .game import COLOUR_CLUE, DISCARD, END_GAME, END_GAME_BY_VOTE, PLAY, RANK_CLUE, Action, Game
from .variants import RANKS, Variant

MAX_TOKENS = 8
MAX_STRIKES = 3
#: The end conditions an end-game action may give (hanab.live's EndCondition values the server accepts).
END_CONDITIONS = {3: "timeout", 4: "terminated by a player", 6: "idle timeout", 8: "all or nothing failed",
                  10: "terminated by vote"}
#: What a player knew of the card they played, as the domain's play actions are named.
INFORMED, SUIT_KNOWN, RANK_KNOWN, TOUCHED, BLIND = "informed", "suit-known", "rank-known", "touched", "blind"


@dataclass(frozen=True)
class Turn:
    """What action ``index`` did. ``learned`` lists, for a clue, what each card of the receiver's hand newly
    became (``touch``, ``suit``, ``rank``, in hand order); ``height``, ``clues`` and ``strikes`` are the cards
    on the fireworks, the clue tokens and the strikes after it."""

    index: int
    player: int
    kind: str  # "play", "discard", "clue", "end"
    height: int
    clues: int
    strikes: int
    card: int | None = None
    knew: str | None = None
    outcome: str | None = None  # a play: "fit", "fit-five", "fail-early" or "fail-duplicate"
    receiver: int | None = None
    value: str | None = None  # a clue: the colour's or the rank's PDDL name
    token: int | None = None  # the token a clue spent, or a discard or a 5 gave back
    strike: int | None = None
    learned: tuple[tuple[int, str], ...] = ()
    drawn: int | None = None
    from_deck: bool = False  # a deck play: ``drawn`` is the card played, drawn just before


@dataclass(frozen=True)
class Replay:
    """A whole game replayed: its turns, each player's first hand, the tokens issued in all (8 and each
    one given back), each firework's height, the score and how the game ended."""

    game: Game
    turns: tuple[Turn, ...]
    dealt: tuple[tuple[int, ...], ...]
    tokens: int
    fireworks: tuple[int, ...]
    score: int
    end: str


class Knowledge:
    """What one player may know of each card in their hand: its possible identities as a bit mask over the
    variant's (suit, rank) pairs, narrowed by every clue to that hand (touched: inside the clue's set,
    not touched: outside it). No counting of the cards the player sees, no conventions."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.possible: dict[int, int] = {}
        self.touched: set[int] = set()
        self.suit: set[int] = set()
        self.rank: set[int] = set()

    def clue(self, hand: Iterable[int], identity: dict[int, int], mask: int) -> tuple[tuple[int, str], ...]:
        """Apply a clue touching the identities in ``mask`` to ``hand`` (``identity``: each card's bit);
        what each card newly became, in hand order."""
        learned = []
        full = (1 << len(self.variant.identities)) - 1
        for card in hand:
            touched = bool(mask & identity[card])
            possible = self.possible.get(card, full) & (mask if touched else ~mask)
            self.possible[card] = possible
            if touched and card not in self.touched:
                self.touched.add(card)
                learned.append((card, "touch"))
            for known, masks, what in ((self.suit, self.variant.suit_masks, "suit"),
                                       (self.rank, self.variant.rank_masks, "rank")):
                if card not in known and any(possible & ~m == 0 for m in masks):
                    known.add(card)
                    learned.append((card, what))
        return tuple(learned)

    def of(self, card: int) -> str:
        """What is known of ``card``, as a play's kind."""
        suit, rank = card in self.suit, card in self.rank
        if suit and rank:
            return INFORMED
        if suit or rank:
            return SUIT_KNOWN if suit else RANK_KNOWN
        return TOUCHED if card in self.touched else BLIND


class Table:
    """A game being replayed (see the module docstring): :meth:`act` takes one action at a time (only the
    game's setup is read from ``game``), :meth:`result` says how it went. An engine's saver checks its own
    states against one as it writes the actions."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.variant = game.variant
        n, size = len(game.players), game.hand_size
        self.hands = [list(range(p * size, (p + 1) * size)) for p in range(n)]
        self.dealt = tuple(tuple(hand) for hand in self.hands)
        self.top = n * size
        self.stacks = [0] * len(self.variant.suits)
        self.available = list(range(1, MAX_TOKENS + 1))  # token ids, the last is spent first
        self.issued = MAX_TOKENS
        self.strikes = 0
        self.knowledge = [Knowledge(self.variant) for _ in range(n)]
        self.identity = {c: self.variant.bit(*card) for c, card in enumerate(game.deck)}
        self.final_action: int | None = None  # the last action of the final round, once the deck is out
        self.finished: set[int] = set()  # players who had their final turn (hanab.live: cards cannot be played)
        self.turns: list[Turn] = []
        self.ended: tuple[int, str, bool] | None = None  # action index, reason, score counts

    def fail(self, k: int, message: str) -> StripsIntError:
        return StripsIntError(self.game.source, f"action {k}", message)

    def describe(self, card: int) -> str:
        suit, rank = self.game.deck[card]
        return f"card {card} ({self.variant.suits[suit].name} {rank})"

    def act(self, k: int, action: Action) -> None:
        if self.ended is not None:
            at, reason, _ = self.ended
            raise self.fail(k, f"the game ended at action {at} ({reason}); no action may follow")
        player = (self.game.starting_player + k) % len(self.game.players)
        if action.kind in (PLAY, DISCARD):
            turn = self.play(k, player, action) if action.kind == PLAY else self.discard(k, player, action)
        elif action.kind in (COLOUR_CLUE, RANK_CLUE):
            turn = self.clue(k, player, action)
        elif action.kind in (END_GAME, END_GAME_BY_VOTE):
            turn = self.end_game(k, player, action)
        else:
            raise self.fail(k, f"unknown action type {action.kind} (0 play, 1 discard, 2 colour clue, 3 rank clue, "
                            "4 end game)")
        self.turns.append(turn)
        if self.ended is None:
            self.check_end(k, player)

    def turn(self, k: int, player: int, kind: str, **fields) -> Turn:
        return Turn(k, player, kind, sum(self.stacks), len(self.available), self.strikes, **fields)

    def in_hand(self, k: int, player: int, action: Action, verb: str) -> int:
        card, hand = action.target, self.hands[player]
        if card not in hand:
            held = " ".join(map(str, hand)) or "none"
            raise self.fail(k, f"player{player} {verb} card {card}, which is not in their hand (cards {held})")
        return card

    def play(self, k: int, player: int, action: Action) -> Turn:
        deck = len(self.game.deck)
        from_deck = self.game.deck_plays and self.top == deck - 1 and action.target == deck - 1
        if from_deck:  # hanab.live: the last card of the deck is drawn and played at once
            self.hands[player].append(self.draw(k))
        card = self.in_hand(k, player, action, "plays")
        knew = BLIND if from_deck else self.knowledge[player].of(card)
        self.hands[player].remove(card)
        suit, rank = self.game.deck[card]
        fields: dict = {}
        if self.stacks[suit] == rank - 1:
            self.stacks[suit] = rank
            outcome = "fit"
            if rank == RANKS[-1] and len(self.available) < MAX_TOKENS:
                outcome, fields["token"] = "fit-five", self.give_back()
        else:
            outcome = "fail-early" if self.stacks[suit] < rank - 1 else "fail-duplicate"
            self.strikes += 1
            fields["strike"] = self.strikes
        drawn = self.top - 1 if from_deck else self.draw_after(k, player)
        return self.turn(k, player, "play", card=card, knew=knew, outcome=outcome, drawn=drawn, from_deck=from_deck,
                         **fields)

    def discard(self, k: int, player: int, action: Action) -> Turn:
        card = self.in_hand(k, player, action, "discards")
        if len(self.available) >= MAX_TOKENS:
            raise self.fail(k, f"player{player} discards {self.describe(card)} at {MAX_TOKENS} clue tokens "
                            "(a discard gives a token back, and 8 is the most)")
        self.hands[player].remove(card)
        token = self.give_back()
        return self.turn(k, player, "discard", card=card, token=token, drawn=self.draw_after(k, player))

    def clue(self, k: int, player: int, action: Action) -> Turn:
        n, target = len(self.game.players), action.target
        colour = action.kind == COLOUR_CLUE
        if not 0 <= target < n:
            raise self.fail(k, f"a clue to player {target}; the players are 0 to {n - 1}")
        if target == player:
            raise self.fail(k, f"player{player} gives a clue to themselves")
        if not self.available:
            raise self.fail(k, f"player{player} gives a clue with no clue token left")
        if colour and not 0 <= action.value < len(self.variant.colours):
            raise self.fail(k, f"colour clue value {action.value}; {self.variant.name} has colours 0 to "
                            f"{len(self.variant.colours) - 1} ({', '.join(self.variant.colours)})")
        if not colour and action.value not in RANKS:
            raise self.fail(k, f"rank clue value {action.value}; ranks are 1 to 5")
        mask = (self.variant.colour_masks[action.value] if colour else self.variant.rank_clue_masks[action.value])
        hand = self.hands[target]
        if not self.game.empty_clues and not any(mask & self.identity[c] for c in hand):
            told = self.variant.colours[action.value] if colour else f"rank {action.value}"
            raise self.fail(k, f"player{player}'s clue ({told}) to player{target} touches no card "
                            "(allowed only with the emptyClues option)")
        token = self.available.pop()
        learned = self.knowledge[target].clue(hand, self.identity, mask)
        value = self.variant.colours[action.value].lower().replace(" ", "-") if colour else f"r{action.value}"
        return self.turn(k, player, "clue", receiver=target, value=value, token=token, learned=learned)

    def end_game(self, k: int, player: int, action: Action) -> Turn:
        n = len(self.game.players)
        if action.value not in END_CONDITIONS or not -1 <= action.target < n:
            raise self.fail(k, f"an end-game action with target {action.target} and value {action.value}; the "
                            f"target is a player (or -1) and the value one of {sorted(END_CONDITIONS)}")
        self.ended = (k, END_CONDITIONS[action.value], False)
        return self.turn(k, player, "end")

    def give_back(self) -> int:
        self.issued += 1
        self.available.append(self.issued)
        return self.issued

    def draw(self, k: int) -> int:
        card = self.top
        self.top += 1
        if self.top == len(self.game.deck):
            self.final_action = k + len(self.game.players)
        return card

    def draw_after(self, k: int, player: int) -> int | None:
        if self.top >= len(self.game.deck):
            return None
        card = self.draw(k)
        self.hands[player].append(card)
        return card

    def check_end(self, k: int, player: int) -> None:
        if self.final_action is not None and k != self.final_action - len(self.game.players):
            self.finished.add(player)
        if self.strikes >= MAX_STRIKES:
            self.ended = (k, "strikeout", False)
        elif sum(self.stacks) == self.variant.max_score:
            self.ended = (k, "every firework complete", True)
        elif self.final_action is not None and k >= self.final_action:
            self.ended = (k, "final round over", True)
        elif self.game.speedrun and self.reachable(self.unplayed(range(len(self.hands)))) < self.variant.max_score:
            self.ended = (k, "speedrun: the full score is out of reach", False)

    def reachable(self, cards: Iterable[int]) -> int:
        """The most cards the fireworks can reach with ``cards``: each climbs while one of its next rank is there."""
        left = {self.game.deck[card] for card in cards}
        total = 0
        for suit, height in enumerate(self.stacks):
            while height < RANKS[-1] and (suit, height + 1) in left:
                height += 1
            total += height
        return total

    def unplayed(self, players: Iterable[int]) -> set[int]:
        """The cards left in the deck and in these players' hands."""
        return set(range(self.top, len(self.game.deck))).union(*(self.hands[p] for p in players))

    def result(self) -> Replay:
        height = sum(self.stacks)
        if self.ended is not None:
            end, counts = self.ended[1], self.ended[2]
        else:
            # hanab.live ends a game here when no card that may still be played is left
            waiting = self.unplayed(p for p in range(len(self.hands)) if p not in self.finished)
            end, counts = ("no card can be played" if self.reachable(waiting) == height else "unfinished"), True
        return Replay(self.game, tuple(self.turns), self.dealt, self.issued, tuple(self.stacks),
                      height if counts else 0, end)


def replay(game: Game) -> Replay:
    """Replay ``game`` by hanab.live's rules; the first illegal action is an error naming its index."""
    table = Table(game)
    for k, action in enumerate(game.actions):
        table.act(k, action)
    return table.result()
