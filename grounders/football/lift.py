"""A gfootball episode, checked step by step and lifted into a problem and a trace of ``domains/football.pddl``.

Only what changes who has the ball is a step: at dump step ``t`` the owner
before (``ball_owned_team`` / ``ball_owned_player`` of step ``t - 1``) loses it
(``kick`` into play, or ``lose`` when the next owner takes it at once or play
stops), a goal is ``score`` or ``concede``, play stopping (``game_mode`` leaving
normal play) is ``stop``, play resuming (normal play again, or a set piece's
taker owning the ball) is ``restart``, and the new owner's ``gain`` (an
``other-gain`` for a player no agent of the study is) comes last. A step where
the owner does not change needs no action. A restart names its set piece:
the ``game_mode`` play stood still in (a kick-off after a goal).

Each dump step is checked against the one before (:func:`check_step`): the
owner is at the ball, a score changes by one goal of one side with the ball
at that goal the step before, a ball inside a goal mouth is a goal at the next
step, the ball does not jump across the pitch in normal play, ``steps_left``
counts down by one, and the logged reward is the goal difference of the step
(gfootball's ``scoring`` reward, the one these dumps are written with). A step
that fails is one error naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain
from strips_int.model.problem import make_problem
from strips_int.model.task import Fact
from strips_int.model.trace import ActionGrounder, Step, Trace

from .dump import Frame

#: The action schemas the lifter writes (checked against the domain before a dump is read).
NEEDED_ACTIONS = frozenset({"gain", "kick", "lose", "other-gain", "other-kick", "other-lose", "score", "concede",
                            "stop", "restart"})
TEAMS = ("left", "right")
ZONES = ("own-third", "middle-third", "final-third")
NORMAL = 0
#: gfootball's game_mode 1 to 6, as the domain's set-piece constants.
SET_PIECES = ("kick-off", "goal-kick", "free-kick", "corner", "throw-in", "penalty")
#: How far (pitch units: x in [-1, 1]) the owner may be from the ball; gfootball's owners are within 0.025.
OWNER_REACH = 0.06
#: The most the ball moves in one step of normal play (shots move it under 0.1).
MAX_BALL_STEP = 0.3
#: The goal mouth: the line at |x| = 1, |y| below 0.044 (7.32 m), under the bar (2.44 m; z is in metres).
GOAL_HALF_WIDTH, GOAL_HEIGHT = 0.044, 2.44
#: Beyond the line by this much the whole ball is in (its radius is 0.11 m, 0.002 in x); the engine
#: decides a goal between two observations, so the check allows a margin on both sides.
IN_GOAL = 1.02
#: The ball the step before a score change is within this of the goal line it crossed.
AT_GOAL = 0.1


@dataclass
class Lifted:
    """The steps of one episode as ground atoms, and what the problem needs."""

    atoms: list[tuple[int, Fact]] = field(default_factory=list)
    spells: int = 0
    goals: int = 0  # the study team's
    loose_at_start: bool = True


def player(team: int, index: int) -> str:
    """A player's object name: ``left03`` is the left team's player 3 (gfootball's index, 0 the keeper; two
    digits, so that names sort as the indices do in every table)."""
    return f"{TEAMS[team]}{index:02d}"


def zone(x: float, team: int) -> str:
    """The third of the pitch x is in, from ``team``'s attacking direction (left attacks x > 0)."""
    forward = x if team == 0 else -x
    return ZONES[0] if forward < -1 / 3 else ZONES[2] if forward > 1 / 3 else ZONES[1]


def check_step(frames: Sequence[Frame], k: int, source: str) -> None:
    """Dump step ``k`` checked against step ``k - 1`` (the module docstring says what); raises naming it."""
    _check_owner(frames, k, source)
    if k == 0:
        return
    now, before, where = frames[k], frames[k - 1], f"step {k}"
    if now.players != before.players:
        raise StripsIntError(source, where, f"{now.players} players, but the step before had {before.players}")
    if now.steps_left != before.steps_left - 1:
        raise StripsIntError(source, where, f"steps_left {now.steps_left} after {before.steps_left}: it counts "
                             "down by one a step (a step missing or repeated?)")
    gained = (now.score[0] - before.score[0], now.score[1] - before.score[1])
    if gained not in ((0, 0), (1, 0), (0, 1)):
        raise StripsIntError(source, where, f"score {list(now.score)} after {list(before.score)}: a step adds at "
                             "most one goal")
    if now.reward != gained[0] - gained[1]:
        raise StripsIntError(source, where, f"reward {now.reward:g}, but the step's goals make "
                             f"{gained[0] - gained[1]} (gfootball's scoring reward)")
    if gained != (0, 0):
        _check_goal(before, 0 if gained[0] else 1, source, where)
    else:
        _check_ball(before, now, k, source)


def _check_owner(frames: Sequence[Frame], k: int, source: str) -> None:
    """The owner of step ``k`` is at the ball."""
    now = frames[k]
    owner = _owner_distance(now)
    if owner is None or owner <= OWNER_REACH:
        return
    changed = k == 0 or (frames[k - 1].owner_team, frames[k - 1].owner_player) != (now.owner_team, now.owner_player)
    who = player(now.owner_team, now.owner_player)
    raise StripsIntError(source, f"step {k}", (f"owner change to {who} with no ball movement to them" if changed
                                               else f"{who} owns the ball") + f": they are {owner:.2f} from it "
                         f"(an owner is within {OWNER_REACH})")


def _check_goal(before: Frame, scorer: int, source: str, where: str) -> None:
    """A goal of ``scorer``'s team: the ball was at the goal it attacks the step before."""
    bx, by = before.ball[:2]
    line = 1.0 if scorer == 0 else -1.0  # the left team scores at x = 1
    if abs(bx - line) > AT_GOAL or abs(by) > GOAL_HALF_WIDTH + AT_GOAL:
        raise StripsIntError(source, where, f"a goal for the {TEAMS[scorer]} team, but the ball was at "
                             f"({bx:.2f}, {by:.2f}) the step before, not at the goal (x={line:g})")


def _check_ball(before: Frame, now: Frame, k: int, source: str) -> None:
    """No goal at step ``k``: the ball did not go in, nor jump, in normal play."""
    bx, by, bz = before.ball
    moved = ((now.ball[0] - bx) ** 2 + (now.ball[1] - by) ** 2) ** 0.5
    mouth = abs(by) < GOAL_HALF_WIDTH and bz < GOAL_HEIGHT
    reset = moved > MAX_BALL_STEP and abs(bx) > 1 - AT_GOAL / 5 and now.game_mode == NORMAL
    if mouth and (abs(bx) > IN_GOAL or reset) and before.game_mode == NORMAL:
        raise StripsIntError(source, f"step {k}", f"a goal without a score change: the ball was in the goal mouth "
                             f"at ({bx:.3f}, {by:.3f}, {bz:.2f}) at step {k - 1}"
                             + (f", then at ({now.ball[0]:.2f}, {now.ball[1]:.2f})" if reset else "")
                             + f", and the score stays {list(now.score)}")
    if moved > MAX_BALL_STEP and now.game_mode == before.game_mode == NORMAL:
        raise StripsIntError(source, f"step {k}", f"the ball moved {moved:.2f} in one step of normal play (at "
                             f"most {MAX_BALL_STEP})")


def _owner_distance(f: Frame) -> float | None:
    if f.owner_team < 0:
        return None
    x, y = f.positions[f.owner_team][f.owner_player]
    return ((x - f.ball[0]) ** 2 + (y - f.ball[1]) ** 2) ** 0.5


class _Lifter:
    """Walks the frames once, writing the atoms of :class:`Lifted` (see the module docstring)."""

    def __init__(self, team: int, agents: frozenset[tuple[int, int]], first: Frame) -> None:
        self.team, self.agents, self.out = team, agents, Lifted()
        self.zone = zone(first.ball[0], team)
        self.dead = first.game_mode != NORMAL
        self.out.loose_at_start = not self.dead
        self.piece = SET_PIECES[first.game_mode - 1] if self.dead else SET_PIECES[0]  # the set piece play waits for
        self.owner: tuple[int, int] | None = None

    def spell(self) -> tuple[str, str]:
        self.out.spells += 1
        return f"spell{self.out.spells - 1}", f"spell{self.out.spells}"

    def emit(self, t: int, *atom: str) -> None:
        self.out.atoms.append((t, atom))

    def moved(self, f: Frame) -> tuple[str, str]:
        """The ball's zone before and now, updating it."""
        before, self.zone = self.zone, zone(f.ball[0], self.team)
        return before, self.zone

    def release(self, t: int, f: Frame, owner: tuple[int, int], kicked: bool) -> None:
        """``owner`` loses the ball: into play (``kicked``), or without a kick."""
        name, mine = player(*owner), owner in self.agents
        verb = ("kick" if kicked else "lose") if mine else ("other-kick" if kicked else "other-lose")
        self.emit(t, verb, name, "ball", *self.moved(f))
        self.owner = None

    def step(self, t: int, f: Frame, before: Frame | None) -> None:
        now = (f.owner_team, f.owner_player) if f.owner_team >= 0 else None
        goal = before is not None and f.score != before.score
        stops = not self.dead and before is not None and before.game_mode == NORMAL and f.game_mode != NORMAL
        if self.owner is not None and (now != self.owner or goal or stops):
            # Into play when it goes in, or is then loose or a team-mate's of the study; lost otherwise.
            kicked = goal or (not stops and (now is None or now in self.agents))
            self.release(t, f, self.owner, kicked)
        if goal and before is not None:
            if self.dead:  # a set piece that went straight in: the ball was in play
                self.emit(t, "restart", "ball", self.piece, *self.moved(f))
            self.piece = SET_PIECES[f.game_mode - 1] if f.game_mode != NORMAL else "kick-off"
            if f.score[self.team] != before.score[self.team]:
                self.out.goals += 1
                self.emit(t, "score", "ball", f"goal{self.out.goals}", *self.moved(f), *self.spell())
            else:
                self.emit(t, "concede", "ball", *self.moved(f), *self.spell())
            self.dead = True
        elif stops:
            self.emit(t, "stop", "ball", *self.moved(f), *self.spell())
            self.dead = True
        if self.dead and f.game_mode != NORMAL:
            self.piece = SET_PIECES[f.game_mode - 1]
        if self.dead and (f.game_mode == NORMAL or (now is not None and now != self.owner)):
            self.emit(t, "restart", "ball", self.piece, *self.moved(f))
            self.dead = False
        if now is not None and now != self.owner:
            if now in self.agents:
                self.emit(t, "gain", player(*now), "ball", *self.moved(f))
            else:
                self.emit(t, "other-gain", player(*now), "ball", *self.moved(f), *self.spell())
            self.owner = now


def lift_frames(frames: Sequence[Frame], team: int, agents: frozenset[tuple[int, int]], source: str) -> Lifted:
    """Check every step (:func:`check_step`) and lift the episode for ``team`` with ``agents`` (team, index)."""
    lifter = _Lifter(team, agents, frames[0])
    before = None
    for k, f in enumerate(frames):
        check_step(frames, k, source)
        lifter.step(k, f, before)
        before = f
    return lifter.out


def agents_of(frames: Sequence[Frame], team: int, controlled: bool) -> frozenset[tuple[int, int]]:
    """The study's agents: ``team``'s players that an agent controlled at some step (``controlled`` and the
    dump says which), else all of its players."""
    if controlled:
        chosen = {(team, i) for f in frames for i in f.controlled[team]}
        if chosen:
            return frozenset(chosen)
    return frozenset((team, i) for i in range(frames[0].players[team]))


def build_trace(frames: Sequence[Frame], lifted: Lifted, team: int, agents: frozenset[tuple[int, int]],
                domain: Domain, source: str, meta: dict[str, Any]) -> Trace:
    """The problem (players, the ball, zones, spells, the team's goals) and the grounded trace."""
    sizes = frames[0].players
    objects = {player(s, i): "player" if (s, i) in agents else "other" for s in (0, 1) for i in range(sizes[s])}
    objects["ball"] = "ball"
    objects.update(dict.fromkeys(ZONES, "zone"))
    spells = [f"spell{i}" for i in range(lifted.spells + 1)]
    objects.update(dict.fromkeys(spells, "spell"))
    goals = [f"goal{i}" for i in range(1, max(lifted.goals, 1) + 1)]
    objects.update(dict.fromkeys(goals, "goal"))
    init: list[Fact] = [("ball-in", "ball", zone(frames[0].ball[0], team)), ("spell", "ball", "spell0")]
    init.append(("loose", "ball") if lifted.loose_at_start else ("dead", "ball"))
    if lifted.loose_at_start:
        init.append(("free", "ball"))
    init += [("next-spell", a, b) for a, b in zip(spells, spells[1:])]
    init += [("unscored", g) for g in goals]
    problem = make_problem(domain, f"football-{TEAMS[team]}", objects, init, [("scored", g) for g in goals], source)
    grounder = ActionGrounder(domain, problem, source)
    actions = [grounder.ground(atom, f"step {t}") for t, atom in lifted.atoms]
    return Trace(source, problem, Step.numbered((t for t, _ in lifted.atoms), actions), meta)

