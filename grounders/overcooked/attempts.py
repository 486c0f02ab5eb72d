"""The attempts of a lifted Overcooked game: joint-action choices that changed nothing (definitions sections 11, 13).

Read from the game's own record after it is lifted: the logged joint actions, the raw states around each
of them and the lifted steps. A player's choice is an attempt when it names one ground action and that
action was refused:

- a logged move to a neighbouring floor cell that left the player where it was: overcooked-ai refuses it
  only when a player ends where another is, or two swap cells. Kept when the move is not applicable after
  the transition's steps (the partner's body holds the cell) or when another player's refused move
  targets the same cell or this player's cell (a collision: both are kept, and the analysis finds that
  each blocked the other);
- an interact that left the player's hands as they were and did nothing, facing a counter, where the
  take of the item that lay there or the put of the item held was applicable before the transition and is
  not after its steps (a partner took the item, or filled the counter, first).

Choices: a wait, a move into a counter or a wall (the player only turns) and an interact facing anything
else are none (a dispenser never runs out; a pot's refusals depend on rules this reading does not
model). A move refused for no reason the state or another move gives is none either: it names a ground
action whose preconditions held.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from strips_int.model.task import Fact, GroundAction, Problem
from strips_int.model.trace import Attempt, Step

from .formats import INTERACT, Game, Move, Player, Pos


def game_attempts(game: Game, problem: Problem, steps: Sequence[Step], agents: Sequence[str],
                  names: tuple[Mapping[Pos, str], Mapping[Pos, str]],
                  ground: Callable[[Fact, int], GroundAction]) -> tuple[Attempt, ...]:
    """The attempts of a lifted game (see the module's docstring), in time and player order; ``names``: the
    layout's cell and station names by position; ``ground`` grounds an atom of transition ``i``."""
    cells, stations = names
    state = set(problem.init)
    found: list[Attempt] = []
    k = 0
    for i, joint, before, after in zip(range(len(game.actions)), game.actions, game.states, game.states[1:]):
        start = k
        while k < len(steps) and steps[k].t <= i:
            k += 1
        acted = {step.agent for step in steps[start:k]}
        moves: dict[int, tuple[Pos, Pos]] = {}
        interacts = []
        for j, (p, q, logged) in enumerate(zip(before.players, after.players, joint)):
            if agents[j] in acted or p.pos != q.pos:
                continue
            if _is_move(logged):
                target = (p.pos[0] + logged[0], p.pos[1] + logged[1])
                if target in cells and ("adjacent", cells[p.pos], cells[target]) in problem.init:
                    moves[j] = (p.pos, target)
            elif logged == INTERACT and p.held == q.held:
                interacts.append(j)
        if not moves and not interacts:
            _advance(state, steps, start, k)
            continue
        old = set(state)
        _advance(state, steps, start, k)
        chosen: list[tuple[int, Fact]] = []
        for j, (here, there) in moves.items():
            atom = ("move", agents[j], cells[here], cells[there])
            collides = any(other != j and (to == there or (to == here and there == at))
                           for other, (at, to) in moves.items())
            if collides or not ground(atom, i).applicable(state):
                chosen.append((j, atom))
        for j in interacts:
            atom = _interaction(before.players[j], agents[j], cells, stations, old)
            if atom is not None:
                action = ground(atom, i)
                if action.applicable(old) and not action.applicable(state):
                    chosen.append((j, atom))
        for _, atom in sorted(chosen):
            found.append(Attempt(len(found), i, ground(atom, i)))
    return tuple(found)


def _advance(state: set[Fact], steps: Sequence[Step], start: int, end: int) -> None:
    for step in steps[start:end]:
        state -= step.action.delete
        state |= step.action.add


def _is_move(logged: Move) -> bool:
    return isinstance(logged, tuple) and logged != (0, 0)


def _interaction(player: Player, agent: str, cells: Mapping[Pos, str], stations: Mapping[Pos, str],
                 state: set[Fact]) -> Fact | None:
    """The take or put ``player`` would have made facing a counter in ``state``, or None."""
    target = (player.pos[0] + player.facing[0], player.pos[1] + player.facing[1])
    counter = stations.get(target, "")
    if not counter.startswith("counter"):
        return None
    here = cells[player.pos]
    if player.held is None:
        items = [fact[1] for fact in state if fact[0] == "on" and fact[2] == counter]
        return ("take", agent, items[0], counter, here) if len(items) == 1 else None
    held = [fact[2] for fact in state if fact[0] == "holding" and fact[1] == agent]
    return ("put", agent, held[0], counter, here) if len(held) == 1 else None
