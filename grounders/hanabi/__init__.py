"""Hanabi: hanab.live's game JSON (and engine-played games saved in it) lifted into ``domains/hanabi.pddl``.

    from strips_int import analyze
    report = analyze("hanabi", "game.json")          # a hanab.live game, recognized by its content
    from strips_int.grounders.hanabi import save_game
    save_game("selfplay.json", env, states, actions)  # a JaxMARL game, in the same JSON

Help here is information and clue tokens: a clue is the giver of an
interdependence with each play that needed the knowledge it gave, and a
discard (or a played 5) with the clue that spends the token it gave back.
``GROUNDER`` is this environment's entry in :mod:`strips_int.grounders`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from strips_int.errors import StripsIntError

from ..base import GAMES, BaseGrounder, Head, Kind

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.trace import Trace

    from .game import Game

__all__ = ["GROUNDER", "game_trace", "read_traces", "save_game", "jaxmarl_game"]


def __getattr__(name: str) -> Any:
    """The engine savers on first use: the registry loads this package for its options, and reading a game
    needs none of them."""
    if name not in ("save_game", "jaxmarl_game"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(".engines", __name__), name)


def game_trace(game: Game, domain: Domain) -> Trace:
    """A read game, replayed by hanab.live's rules and lifted; an illegal action is an error naming it."""
    from .lift import lift
    from .replay import replay

    return lift(replay(game), domain)


def read_traces(path: str | Path, domain: Domain) -> Iterator[Trace]:
    """The traces of every game in a hanab.live JSON file; raises at a bad game."""
    for result in GROUNDER.read(Path(path), domain):
        if isinstance(result, StripsIntError):
            raise result
        yield result


class _Hanabi(BaseGrounder):
    """The Hanabi grounder (see :mod:`strips_int.grounders.base`)."""

    name = "hanabi"
    domain = "hanabi"

    @property
    def actions(self) -> frozenset[str]:
        from .lift import NEEDED_ACTIONS

        return NEEDED_ACTIONS

    def recognizes(self, head: Head) -> Kind | None:
        """Games by a card of the deck (:func:`.tags.detect`): the format's keys."""
        from .tags import detect

        return GAMES if detect(head) else None

    def read(self, path: Path, domain: Domain, **_: Any) -> Iterator[Trace | StripsIntError]:
        from .game import read_games

        for game in read_games(path):
            if isinstance(game, StripsIntError):
                yield game
                continue
            try:
                yield game_trace(game, domain)
            except StripsIntError as exc:
                yield exc


GROUNDER = _Hanabi()
