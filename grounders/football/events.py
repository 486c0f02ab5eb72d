"""Per-game events as ZSC-Eval's ``zsceval/envs/grf/stats_process.py`` (``StatsObserver.observe``) counts them.

ZSC-Eval walks (observation, action, next observation) and keeps a ``ball_tracer``:
(team, player, game_mode, own score) of every observation where someone owns the
ball. For the players its agents control:

- ``passes`` / ``shots``: steps where the player who owns the ball (in the
  observation the action was chosen from) chose a pass (long, high or short) /
  a shot: presses, not kicks;
- ``completed_passes`` (its ``actual_pass``): the next owner is a team-mate's
  agent and the tracer's last owner another agent of the team;
- ``goals`` (its ``score``): the own score rises while the tracer's last owner
  is one of the agents; ``assists``: then, walking the tracer back past the
  scorer's own entries, the owner before is another agent of the team.

Here a dump's step ``t`` observation follows its ``debug.action``, so the action
of step ``t`` was chosen from the observation of step ``t - 1``. Where ours
differs (docs/environments/football.md says why):

- a goal and its assist count once; ZSC-Eval counts them again at every step
  until someone owns the ball again (academy episodes, as ZSC-Eval plays them,
  end at the goal, so there the counts agree);
- a dump of the built-in AI records no actions, so ``passes`` and ``shots``
  come from the ball (``events_from`` = ``ball``): a pass is a kick by an agent
  into play that is no shot, a shot a kick whose ball next goes in, crosses the
  opponents' goal line or reaches their keeper.
"""

from __future__ import annotations

from typing import Sequence

from .dump import Frame

PASSES = frozenset({"long_pass", "high_pass", "short_pass"})
SHOT = "shot"
#: Beyond this |x| the ball is at a goal line (the pitch is x in [-1, 1]).
GOAL_LINE = 0.99


def chosen(frames: Sequence[Frame], k: int, team: int) -> dict[int, str]:
    """The actions of ``team``'s controlled players at step ``k`` (chosen from step ``k - 1``), by player;
    gfootball lists the left team's agents' actions first."""
    before = frames[k - 1]
    left = len(before.controlled[0])
    mine = frames[k].actions[:left] if team == 0 else frames[k].actions[left:]
    return dict(zip(before.controlled[team], mine))


def zsc_events(frames: Sequence[Frame], team: int, agents: frozenset[int]) -> dict[str, int | str]:
    """The five counts for ``team`` with ``agents`` (player indices), and ``events_from``."""
    counts = {"passes": 0, "shots": 0, "completed_passes": 0, "goals": 0, "assists": 0}
    acted = any(f.actions for f in frames)
    tracer: list[tuple[int, int, int]] = []  # team, player, own score
    for k in range(1, len(frames)):
        obs, nxt = frames[k - 1], frames[k]
        if obs.owner_team >= 0:
            tracer.append((obs.owner_team, obs.owner_player, obs.score[team]))
            if obs.owner_team == team and obs.owner_player in agents and acted:
                action = chosen(frames, k, team).get(obs.owner_player)
                counts["passes"] += action in PASSES
                counts["shots"] += action == SHOT
        if not tracer:
            continue
        last_team, last_player, last_score = tracer[-1]
        if nxt.owner_team == team and last_team == team and last_player != nxt.owner_player \
                and last_player in agents and nxt.owner_player in agents:
            counts["completed_passes"] += 1
        scored = nxt.score[team] > obs.score[team]  # once per goal: see the module docstring
        if scored and nxt.score[team] > last_score and last_team == team and last_player in agents:
            counts["goals"] += 1
            i = len(tracer) - 2
            while i >= 0 and tracer[i][:2] == (team, last_player):
                i -= 1
            if i >= 0 and tracer[i][0] == team and tracer[i][1] in agents:
                counts["assists"] += 1
    if not acted:
        counts["passes"], counts["shots"] = kicks_from_ball(frames, team, agents)
    return {**counts, "events_from": "actions" if acted else "ball"}


def kicks_from_ball(frames: Sequence[Frame], team: int, agents: frozenset[int]) -> tuple[int, int]:
    """(passes, shots) read from the ball where no action is recorded (the module docstring)."""
    passes = shots = 0
    kicker = None  # the agent whose kick the ball is on, while nobody owns it
    attack = 1.0 if team == 0 else -1.0
    for k in range(1, len(frames)):
        obs, f = frames[k - 1], frames[k]
        into_play = f.owner_team < 0 or (f.owner_team == team and f.owner_player != obs.owner_player)
        if obs.owner_team == team and obs.owner_player in agents and into_play and f.game_mode == 0:
            kicker = obs.owner_player
            passes += 1
        if kicker is None:
            continue
        at_line = f.ball[0] * attack >= GOAL_LINE or f.score[team] > obs.score[team]
        keeper = f.owner_team == 1 - team and f.owner_player == f.keepers[1 - team]
        if at_line or keeper:
            shots, passes, kicker = shots + 1, passes - 1, None
        elif f.owner_team >= 0 or f.game_mode != 0:
            kicker = None
    return passes, shots
