"""The grounder both Collab games share: an episode file is recognized by its first line, read and
checked turn by turn (:func:`.episode.read_episode`) and lifted (:mod:`.lift`); ``rc`` is refused.

RC (docs/definitions.md section 8) asks whether some player alone could reach the goal with the
environment's actions. Here the environment is the thief or the killer, which follows a policy and
not a plan: a planner free to choose its moves would walk the thief into a player, or the killer
away from every survivor, so the answer would be about another game. ``rc`` says so (:data:`NO_RC`)
instead of answering.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from strips_int.errors import StripsIntError

from ..base import GAMES, TAGGED, BaseGrounder, Claim, Head, Option

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.task import Problem
    from strips_int.model.trace import Trace

#: Why ``rc`` cannot mean anything for these games (said by ``rc`` and the docs), by game.
NO_RC = {
    "collab_capture": "the thief follows a policy (away from the players' next rooms), not a plan: a planner that "
                      "moves it at will walks it into a player, so whether one player alone can catch it would be "
                      "a question about another game; rc is refused for collab_capture",
    "collab_escape": "the killer follows a policy (after a survivor next to it, else at random), not a plan: a "
                     "planner that moves it at will keeps it away from every survivor, so whether one survivor "
                     "alone can escape would be a question about another game; rc is refused for collab_escape",
}
class CollabGrounder(BaseGrounder):
    """One Collab game's grounder (see :mod:`strips_int.grounders.base`)."""

    def __init__(self, game: str, flag: str) -> None:
        self.name = self.domain = game
        who = "thief" if game == "collab_capture" else "killer"
        self.options = (Option(flag, f"{game}_start", f"RC: refused for {game}, whose {who} follows a policy, not a "
                               "plan", "NAME", use="start", names=True),)

    @property
    def actions(self) -> frozenset[str]:
        from .lift import CAPTURE_ACTIONS, ESCAPE_ACTIONS

        return CAPTURE_ACTIONS if self.name == "collab_capture" else ESCAPE_ACTIONS

    def recognizes(self, head: Head) -> Claim | None:
        """Episodes whose first line names this game in the ``collab-episode/1`` format (a tag)."""
        from .tags import FORMAT, game_of

        if not head.mentions(FORMAT.encode()):  # most files: no need to decode the head
            return None
        return Claim(GAMES, TAGGED) if game_of(head.data.decode("utf-8", "replace")) == self.name else None

    def read(self, path: Path, domain: Domain, **_: Any) -> Iterator[Trace | StripsIntError]:
        from .episode import read_episode
        from .lift import capture_trace, escape_trace

        try:
            episode = read_episode(path)
            yield (capture_trace if self.name == "collab_capture" else escape_trace)(episode, domain)
        except StripsIntError as exc:
            yield exc

    def start_problem(self, name: str, domain: Domain, **_: Any) -> Problem | None:
        raise StripsIntError(self.name, None, NO_RC[self.name])
