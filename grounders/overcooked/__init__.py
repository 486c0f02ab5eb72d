"""Overcooked: recorded games (four formats) lifted into ``domains/overcooked.pddl`` traces.

    from strips_int.grounders.overcooked import read_traces
    for trace in read_traces("game.json", domain, layout="forced_coordination"):
        report = analyze(domain, trace)

``GROUNDER`` is this environment's entry in :mod:`strips_int.grounders`;
:func:`states_trace` lifts overcooked-ai state dicts held in memory.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from strips_int.domain import Domain
from strips_int.errors import StripsIntError
from strips_int.task import Problem
from strips_int.trace import Trace

from ..base import Option, check_actions
from .formats import Game, detect, episode_game, human_seat, read_games
from .layouts import Layout, get_layout, known_layouts, load_grid, parse_grid
from .lift import NEEDED_ACTIONS, agent_name, layout_problem, lift_game

__all__ = ["GROUNDER", "Layout", "dataset_keys", "detect", "game_trace", "get_layout", "known_layouts", "lift_game",
           "load_grid", "parse_grid", "read_traces", "roles_for", "states_trace"]

_RANK = re.compile(r"__traj_(\d+)_\d+\.pkl$")


def roles_for(game: Game, roles: Sequence[str] | None = None, ego_seat: str | None = None) -> dict[str, str] | None:
    """Who played each seat: ``roles`` by seat, else ``human=<seat>`` in the file name,
    else, with ``ego_seat``, the rollout seat rule ("auto") or a seat number."""
    players = len(game.states[0].players) if game.states else 2
    if roles:
        if len(roles) != players:
            raise StripsIntError(game.source, "roles", f"{len(roles)} roles for {players} players")
        return {agent_name(j): role for j, role in enumerate(roles)}
    seat = human_seat(game.source)
    if seat is not None:
        return {agent_name(j): "human" if j == seat else "ai" for j in range(players)}
    if ego_seat is None:
        return None
    if ego_seat == "auto":
        match = _RANK.search(game.source)
        if match is None:
            raise StripsIntError(game.source, "ego seat auto", "file name has no __traj_<rank>_<n>.pkl")
        # shared/data/README.md: of N parallel games (40 for h-proxy runs, 10 for cross-play),
        # rank < N/2 has the ego agent in seat 0.
        parallel = 40 if Path(game.source).parent.name.startswith("h-proxy") else 10
        seat = 0 if int(match.group(1)) < parallel // 2 else 1
    else:
        seat = int(ego_seat)
    return {agent_name(j): "ego" if j == seat else "partner" for j in range(players)}


def dataset_keys(path: str | Path) -> dict[str, str]:
    """Group keys from the folder names of the data sets in shared/data/README.md.

    ``user-study/<agent>/<date>_human=<seat>.json`` gives agent and partner
    ``human``; ``<layout>/<partner>-<agent>/<run>__traj_<rank>_<n>.pkl`` gives
    agent and partner population. Other paths give nothing.
    """
    path = Path(path)
    if human_seat(str(path)) is not None:
        return {"agent": path.parent.name, "partner": "human"}
    if _RANK.search(path.name) and "-" in path.parent.name:
        partner, agent = path.parent.name.rsplit("-", 1)
        return {"agent": agent, "partner": partner}
    return {}


def read_traces(
    path: str | Path,
    domain: Domain,
    layout: str | None = None,
    grid: str | Path | None = None,
    roles: Sequence[str] | None = None,
    ego_seat: str | None = None,
) -> Iterator[Trace]:
    """The traces of every game in an Overcooked file (format detected from its content); raises at a bad game."""
    for result in GROUNDER.read(Path(path), domain, layout=layout, grid=grid, roles=roles, ego_seat=ego_seat):
        if isinstance(result, StripsIntError):
            raise result
        yield result


def game_trace(
    game: Game,
    domain: Domain,
    terrain: Layout | None = None,
    roles: Sequence[str] | None = None,
    ego_seat: str | None = None,
) -> Trace:
    """One read game as a trace on its layout (or ``terrain``), with roles and data-set keys in ``meta``."""
    if terrain is None and not game.layout:
        raise StripsIntError(game.source, None, "no layout name in the game: give a layout name or a grid file")
    who = roles_for(game, roles, ego_seat)
    meta = {**dataset_keys(game.source), **({"roles": who} if who else {})}
    return lift_game(game, terrain or get_layout(game.layout), domain, meta)


def states_trace(
    states: Sequence[Mapping[str, Any]],
    actions: Sequence[Sequence[Any]],
    domain: Domain | str,
    layout: str | Layout,
    source: str = "<states>",
    **episode: Any,
) -> Trace:
    """A trace from overcooked-ai state dicts (``OvercookedState.to_dict()``) and joint actions in memory.

    ``domain`` is loaded or a packaged name or path; ``layout`` a layout name
    or a :class:`Layout`; ``episode`` adds episode-JSON keys such as
    ``mdp_params`` or ``ep_rewards``.
    """
    from strips_int.games import as_domain

    domain = as_domain(domain)
    check_actions(NEEDED_ACTIONS, domain, GROUNDER.domain, source)
    terrain = layout if isinstance(layout, Layout) else None
    name = layout.name if isinstance(layout, Layout) else layout
    game = episode_game({"ep_states": list(states), "ep_actions": list(actions), **episode}, source, name)
    return game_trace(game, domain, terrain)


class _Overcooked:
    """The Overcooked grounder (see :mod:`strips_int.grounders.base`)."""

    name = "overcooked"
    domain = "overcooked"
    actions = NEEDED_ACTIONS
    options = (
        Option("--layout", "layout", "Overcooked layout name (default: the one the game names)", "NAME"),
        Option("--grid", "grid", "Overcooked grid text file (or overcooked-ai .layout file)", "FILE"),
        Option("--roles", "roles", "who played each seat, e.g. human,ai (default: human=<seat> in user-study "
               "file names)", "ROLE,ROLE", lambda text: tuple(text.split(","))),
        Option("--ego-seat", "ego_seat", "rollouts: the ego agent's seat, or 'auto' for the ZSC-Eval rank rule",
               "auto|SEAT"),
        Option("--soups", "soups", "RC on a layout: soups to deliver (default 1)", "N", int),
    )

    def recognizes(self, path: Path) -> bool:
        return detect(path) is not None

    def read(self, path: Path, domain: Domain, layout: str | None = None, grid: str | Path | None = None,
             roles: Sequence[str] | None = None, ego_seat: str | None = None, **_: Any) -> Iterator[Trace | StripsIntError]:
        try:
            terrain = load_grid(grid) if grid else None
        except StripsIntError as exc:
            yield exc
            return
        for game in read_games(path, layout):
            if isinstance(game, StripsIntError):
                yield game
                continue
            try:
                yield game_trace(game, domain, terrain, roles, ego_seat)
            except StripsIntError as exc:
                yield exc

    def start_problem(self, name: str, domain: Domain, grid: str | Path | None = None, soups: int | None = None,
                      **_: Any) -> Problem | None:
        """Players at the start tiles of layout ``name`` (or of ``grid``), to deliver ``soups`` soups."""
        return layout_problem(load_grid(grid) if grid else get_layout(name), domain, 1 if soups is None else soups)


GROUNDER = _Overcooked()
