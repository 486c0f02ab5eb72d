"""hanab.live's variants that play by the standard rules: their suits, clue colours and which clues touch a card.

A variant is named as hanab.live names it: ``No Variant``, ``6 Suits``, ``4 Suits``,
``3 Suits``, ``<Suit> (N Suits)`` and ``<Suit> & <Suit> (N Suits)`` with special suits
such as Black, Rainbow, Pink, White, Brown, Omni or Null and their dark forms. Its suits
are the first plain suits (Red, Yellow, Green, Blue, Purple; Red and Blue for three)
and then the special ones. A suit is touched by its own colour (Pink and Brown are
colours too; a dark suit by the colour of its light one), by every colour (Rainbow,
Omni) or by none (White, Null); by every rank (Pink, Omni), by none (Brown, Null) or by
its own; a dark suit has one card of each rank. The variant's clue colours are its
suits' colours in order (checked against hanab.live's own variant list, which is not
copied here: it is GPL data). Variants with other rules (special ranks, Up or Down,
Prism, clue-starved, ...) are refused by name, never played by the wrong rules.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

#: Ranks 1 to 5, each card's copies in a normal suit.
RANKS = (1, 2, 3, 4, 5)
COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
PLAIN = ("Red", "Yellow", "Green", "Blue", "Purple")
#: The plain suits of a variant with k of them, as hanab.live takes them.
_PLAIN_FOR = {5: PLAIN, 4: PLAIN[:4], 3: ("Red", "Green", "Blue"), 2: ("Red", "Blue"), 1: ("Red",)}


@dataclass(frozen=True)
class Suit:
    """A suit and the clues that touch it: ``colours`` (None: every colour), ``ranks`` (True: every rank,
    False: none, None: its own), ``one_each`` (a dark suit: one card of each rank)."""

    name: str
    colours: tuple[str, ...] | None = None
    ranks: bool | None = None
    one_each: bool = False

    @property
    def key(self) -> str:
        """The suit as a PDDL name: ``red``, ``dark-rainbow``."""
        return self.name.lower().replace(" ", "-")


def _suits() -> dict[str, Suit]:
    table = {name: Suit(name, (name,)) for name in (*PLAIN, "Teal", "Black", "Pink", "Brown")}
    table["Black"] = Suit("Black", ("Black",), one_each=True)
    table["Pink"] = Suit("Pink", ("Pink",), ranks=True)
    table["Brown"] = Suit("Brown", ("Brown",), ranks=False)
    table.update({
        "Rainbow": Suit("Rainbow", None), "White": Suit("White", ()), "Omni": Suit("Omni", None, ranks=True),
        "Null": Suit("Null", (), ranks=False), "Muddy Rainbow": Suit("Muddy Rainbow", None, ranks=False),
        "Light Pink": Suit("Light Pink", (), ranks=True),
    })
    dark = {"Dark Rainbow": "Rainbow", "Dark Pink": "Pink", "Gray": "White", "Dark Brown": "Brown",
            "Dark Omni": "Omni", "Dark Null": "Null", "Cocoa Rainbow": "Muddy Rainbow", "Gray Pink": "Light Pink"}
    table.update({name: Suit(name, table[light].colours, table[light].ranks, True) for name, light in dark.items()})
    return table


SUITS = _suits()
#: Special suits a variant name may add to the plain ones.
SPECIAL = tuple(name for name in SUITS if name not in PLAIN and name != "Teal")
_NAMED = re.compile(r"(?P<special>[A-Za-z ]+?)(?: & (?P<second>[A-Za-z ]+?))? \((?P<n>[3-6]) Suits\)\Z")


@dataclass(frozen=True)
class Variant:
    """A variant's suits (by ``suitIndex``) and clue colours (by a colour clue's ``value``)."""

    name: str
    suits: tuple[Suit, ...]
    colours: tuple[str, ...]

    def copies(self, suit: int, rank: int) -> int:
        return 1 if self.suits[suit].one_each else COPIES[rank]

    @property
    def deck_size(self) -> int:
        return sum(self.copies(s, r) for s in range(len(self.suits)) for r in RANKS)

    @property
    def max_score(self) -> int:
        return len(self.suits) * len(RANKS)

    def touched_by_colour(self, colour: int, suit: int) -> bool:
        """Whether a clue of the variant's colour ``colour`` touches a card of suit ``suit``."""
        colours = self.suits[suit].colours
        return colours is None or self.colours[colour] in colours

    def touched_by_rank(self, value: int, suit: int, rank: int) -> bool:
        """Whether a clue of rank ``value`` touches a card ``(suit, rank)``."""
        ranks = self.suits[suit].ranks
        return ranks if ranks is not None else value == rank

    @functools.cached_property
    def identities(self) -> tuple[tuple[int, int], ...]:
        """Every (suit, rank) a card may be, in bit order of the masks below."""
        return tuple((s, r) for s in range(len(self.suits)) for r in RANKS)

    @functools.cached_property
    def suit_masks(self) -> tuple[int, ...]:
        """Per suit, the bits of its identities (a card's possibilities inside one: its suit is known)."""
        return tuple(sum(1 << i for i, (s, _) in enumerate(self.identities) if s == suit)
                     for suit in range(len(self.suits)))

    @functools.cached_property
    def rank_masks(self) -> tuple[int, ...]:
        return tuple(sum(1 << i for i, (_, r) in enumerate(self.identities) if r == rank) for rank in RANKS)

    @functools.cached_property
    def colour_masks(self) -> tuple[int, ...]:
        """Per clue colour, the identities it touches."""
        return tuple(sum(1 << i for i, (s, _) in enumerate(self.identities) if self.touched_by_colour(c, s))
                     for c in range(len(self.colours)))

    @functools.cached_property
    def rank_clue_masks(self) -> dict[int, int]:
        """Per rank clue value, the identities it touches."""
        return {v: sum(1 << i for i, (s, r) in enumerate(self.identities) if self.touched_by_rank(v, s, r))
                for v in RANKS}

    def bit(self, suit: int, rank: int) -> int:
        return 1 << (suit * len(RANKS) + rank - 1)


def _colours(suits: tuple[Suit, ...]) -> tuple[str, ...]:
    """The clue colours of a variant: its suits' own colours, in order, once each."""
    found: list[str] = []
    for suit in suits:
        found += [c for c in suit.colours or () if c not in found]
    return tuple(found)


#: What :func:`variant` reads, for messages.
SUPPORTED = (f"No Variant, 6 Suits, 4 Suits, 3 Suits, or 'S (N Suits)' / 'S & T (N Suits)' with S, T among "
             f"{', '.join(SPECIAL)} (other variants change the rules)")


@functools.lru_cache(maxsize=64)
def variant(name: str) -> Variant | None:
    """The variant named ``name`` (see the module docstring), or None when it is not one read here."""
    if name == "No Variant":
        names: tuple[str, ...] = PLAIN
    elif name in ("6 Suits", "4 Suits", "3 Suits"):
        names = {"6": (*PLAIN, "Teal"), "4": PLAIN[:4], "3": _PLAIN_FOR[3]}[name[0]]
    else:
        match = _NAMED.match(name)
        specials = [s for s in (match["special"], match["second"]) if s] if match else []
        if not match or not all(s in SPECIAL for s in specials) or len(set(specials)) < len(specials):
            return None
        names = _PLAIN_FOR[int(match["n"]) - len(specials)] + tuple(specials)
    suits = tuple(SUITS[n] for n in names)
    return Variant(name, suits, _colours(suits))
