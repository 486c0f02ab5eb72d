"""One dump read, checked and lifted, with its events and failed choices in ``meta``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain
from strips_int.model.trace import Trace

from .dump import Frame, read_episode
from .events import PASSES, SHOT, chosen, zsc_events
from .lift import TEAMS, agents_of, build_trace, lift_frames, player, zone


def dump_trace(path: Path, domain: Domain, team: str, players: str) -> Trace:
    """The trace of the dump at ``path`` for ``team`` ("left" or "right"), its agents the team's controlled
    players (``players`` = "controlled", where the dump names them) or all of them."""
    source = str(path)
    frames, config = read_episode(path)
    side = TEAMS.index(team)
    if not frames[0].players[side]:
        raise StripsIntError(source, "step 0", f"the {team} team has no players")
    agents = agents_of(frames, side, players == "controlled")
    lifted = lift_frames(frames, side, agents, source)
    mine = frozenset(i for _, i in agents)
    named = players == "controlled" and any(f.controlled[side] for f in frames)  # the dump says which
    last = frames[-1]
    meta: dict[str, Any] = {
        **config, "team": team, "agents": sorted(player(*a) for a in agents),
        "players": "controlled" if named else "all", "dump_steps": len(frames), "score_for": last.score[side],
        "score_against": last.score[1 - side], "reward": last.score[side], **zsc_events(frames, side, mine)}
    failed = failed_kicks(frames, side, mine)
    meta["failed_kicks"] = len(failed)
    if failed:
        meta["failed_kick_choices"] = failed
    return build_trace(frames, lifted, side, agents, domain, source, meta)


def failed_kicks(frames: Sequence[Frame], team: int, agents: frozenset[int]) -> list[dict[str, Any]]:
    """Chosen passes and shots that never left the chooser's feet: the owner chose one and lost the ball
    without kicking it (taken at once by another player, or play stopped), one per possession: ``t`` the step
    the ball was lost, where the ground ``action`` it would have been fails (as definitions section 1's
    ``attempts`` write one), ``chosen_at`` the step of the choice. strips_int's core has
    no attempts (definitions section 13's blocks) yet, so they are listed here."""
    failed: list[dict[str, Any]] = []
    pending: dict[str, Any] | None = None
    for k in range(1, len(frames)):
        obs, f = frames[k - 1], frames[k]
        owner = (obs.owner_team, obs.owner_player)
        if owner[0] == team and owner[1] in agents:
            action = chosen(frames, k, team).get(owner[1])
            if action in PASSES or action == SHOT:
                here = zone(obs.ball[0], team)
                pending = pending or {"chosen_at": k, "agent": player(*owner), "chose": action,
                                      "action": f"(kick {player(*owner)} ball {here} {here})"}
        if pending is None or (f.owner_team, f.owner_player) == owner:
            continue
        lost = f.owner_team >= 0 or f.game_mode != 0  # taken at once, or play stopped: no kick
        if lost and f.score == obs.score:
            failed.append({"t": k, **pending})
        pending = None
    return failed
