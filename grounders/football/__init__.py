"""Google Research Football: gfootball's episode dumps lifted into ``domains/football.pddl``.

    from strips_int import analyze
    report = analyze("football", "episode-1.dump")           # the left team, by default
    report = analyze("football", "episode-1.dump", team="right")

A completed pass is an interdependence from the passer to the receiver:
constructive when the chain reaches a goal, looping when the ball comes back
unchanged, irrelevant when the team loses it. ``meta`` has the game's events as
ZSC-Eval counts them (:mod:`.events`). ``GROUNDER`` is this environment's entry
in :mod:`strips_int.grounders`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from strips_int.errors import StripsIntError

from ..base import CONTAINER, GAMES, BaseGrounder, Claim, Head, Option

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.trace import Trace

__all__ = ["GROUNDER", "read_trace"]


def _team(text: str) -> str:
    """``--team``: left or right (argparse shows the ValueError's type as an invalid value)."""
    if text not in ("left", "right"):
        raise ValueError(text)
    return text


def _players(text: str) -> str:
    """``--football-players``: controlled or all."""
    if text not in ("controlled", "all"):
        raise ValueError(text)
    return text


def read_trace(path: str | Path, domain: Domain, team: str = "left", players: str = "controlled") -> Trace:
    """The trace of one dump; raises the first error (naming the file and step)."""
    from .game import dump_trace

    return dump_trace(Path(path), domain, team, players)


#: pickle.PROTO: the opcode a pickle of protocol 2 or later begins with.
PICKLE_PROTO = b"\x80"


class _Football(BaseGrounder):
    """The gfootball grounder (see :mod:`strips_int.grounders.base`)."""

    name = "football"
    domain = "football"
    options = (
        Option("--team", "team", "gfootball dumps: the team whose players are the agents (default left)", "left|right",
               _team, use="read"),
        Option("--football-players", "football_players", "gfootball dumps: the team's agent-controlled players "
               "only, where the dump names them (default), or all its players", "controlled|all", _players,
               use="read"),
    )

    @property
    def actions(self) -> frozenset[str]:
        from .lift import NEEDED_ACTIONS

        return NEEDED_ACTIONS

    def recognizes(self, head: Head) -> Claim | None:
        """A ``.dump`` file that opens as a pickle (protocol 2 or later): gfootball's dumps name no format."""
        # by hand, not through .dump: recognizing a file imports neither numpy nor pickle
        return Claim(GAMES, CONTAINER) if head.path.suffix.lower() == ".dump" and head.data[:1] == PICKLE_PROTO else None

    def read(self, path: Path, domain: Domain, team: str = "left", football_players: str = "controlled",
             **_: Any) -> Iterator[Trace | StripsIntError]:
        try:
            yield read_trace(path, domain, team, football_players)
        except StripsIntError as exc:
            yield exc


GROUNDER = _Football()
