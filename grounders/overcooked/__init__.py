"""Overcooked: recorded games (four formats) lifted into ``domains/overcooked.pddl`` traces.

    from strips_int.grounders.overcooked import read_traces
    for trace in read_traces("game.json", domain, layout="forced_coordination"):
        report = analyze(domain, trace)

``GROUNDER`` is this environment's entry in :mod:`strips_int.grounders`;
:func:`states_trace` lifts overcooked-ai state dicts held in memory.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from strips_int.model.domain import Domain
from strips_int.errors import StripsIntError, argument, brief, closest, of_type
from strips_int.model.task import Problem
from strips_int.model.trace import ActionGrounder, Trace

from ..base import CONTAINER, GAMES, SHAPED, Alternative, BaseGrounder, Claim, Drawing, Head, Option, check_actions
from .formats import Game, detect, detect_head, episode_game, human_seat, read_games
from .layouts import (ALIASES, OLD_RULES_NAMES, Layout, overcooked_ai_layout_files, blank_starts, get_layout,
                      known_layouts, load_grid, parse_grid)
from .lift import NEEDED_ACTIONS, agent_name, layout_grounder, layout_problem, lift_game, makeable_recipes

__all__ = ["GROUNDER", "Layout", "dataset_keys", "detect", "game_trace", "get_layout", "known_layouts",
           "layout_alternatives", "lift_game", "load_grid", "parse_grid", "read_traces", "recorded_terrain",
           "roles_for", "rollout_seat", "states_trace"]

#: ZSC-Eval's rollout file names, ``traj_<rank>_<n>.pkl``, with or without a ``<run>__`` prefix.
_RANK = re.compile(r"(?:^|_)traj_(\d+)_\d+\.pkl$")


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
    if game.humans is not None and len(game.humans) == players:
        return {agent_name(j): "human" if human else "ai" for j, human in enumerate(game.humans)}
    if ego_seat is None:
        return None
    if ego_seat.startswith("auto"):
        seat = rollout_seat(game.source, ego_seat)
    else:
        seat = int(ego_seat)
        if seat >= players:  # (no ego at all is no reading of the game)
            raise StripsIntError(game.source, "ego seat", f"seat {seat}, but the game has {players} players "
                                 f"(seats 0 to {players - 1})")
    return {agent_name(j): "ego" if j == seat else "partner" for j in range(players)}


def rollout_seat(source: str, rule: str = "auto") -> int:
    """The ego agent's seat in a ZSC-Eval rollout: of N parallel games, rank < N/2 has it in seat 0.

    ``rule`` is ``auto`` to take N from the ranks present beside the file, as ZSC-Eval's output folder
    ``trajs/<layout>/`` holds them (0 to N-1, N even; a sample of a run cannot tell N, and the seat is
    then an error saying what to give, never a guess); ``auto:N`` for a known N; or
    ``auto:PARTNER=N,...,N`` for N by the partner population of the file's folder
    ``<partner>-<agent>`` (:func:`dataset_keys`), the last N for any other, e.g. ``auto:h-proxy=40,10``.
    """
    path = Path(source)
    match = _RANK.search(path.name)
    if match is None:
        raise StripsIntError(source, "ego seat auto", "file name has no traj_<rank>_<n>.pkl")
    rank = int(match.group(1))
    if rule.startswith("auto:"):
        parallel = _parallel(source, rule.removeprefix("auto:"))
    else:
        ranks = _ranks(path.parent)
        parallel = len(ranks)
        if not _whole_run(ranks):
            raise StripsIntError(source, "ego seat auto", f"ranks {_shown(ranks)} present beside it: {_UNKNOWN_N}")
    if not 0 <= rank < parallel:
        raise StripsIntError(source, "ego seat", f"rank {rank} is not among {parallel} parallel games")
    return 0 if rank < parallel // 2 else 1


#: Why ``auto`` cannot tell the seats of a sample of a run, and what to give instead.
_UNKNOWN_N = ("not a whole run of parallel games, so their number N is unknown; give the ego seat as auto:N (N: the "
              "run's n_eval_rollout_threads), or N by partner population, e.g. auto:h-proxy=40,10")
#: What ``--ego-seat`` takes: a seat, ``auto``, ``auto:N`` or ``auto:PARTNER=N,...,N``.
_EGO_SEAT = re.compile(r"\d+|auto|auto:(?:[\w.-]+=)?\d+(?:,(?:[\w.-]+=)?\d+)*")


def ego_seat(text: str) -> str:
    """``--ego-seat`` checked as it is read (argparse shows the ValueError as an invalid value)."""
    if not _EGO_SEAT.fullmatch(text):
        raise ValueError(text)
    return text


def _ranks(folder: Path) -> list[int]:
    """The ranks of the ZSC-Eval rollout files in ``folder``, sorted."""
    return sorted({int(m.group(1)) for f in folder.glob("*.pkl") if (m := _RANK.search(f.name))})


def _whole_run(ranks: list[int]) -> bool:
    """Whether ``ranks`` are every rank of one run of parallel games: 0 to N-1, N even."""
    return ranks == list(range(len(ranks))) and len(ranks) % 2 == 0


def _shown(ranks: list[int]) -> str:
    return ", ".join(map(str, ranks[:8])) + (", ..." if len(ranks) > 8 else "")


def check_rollout_seats(paths: Sequence[Path], rule: str) -> None:
    """Before a batch: with ``auto``, every folder of ZSC-Eval rollouts among ``paths`` must hold a whole run
    (else one error for them all, saying what to give)."""
    if rule != "auto":
        return
    folders = sorted({path.parent for path in paths if _RANK.search(path.name)})
    partial = [(folder, ranks) for folder in folders if not _whole_run(ranks := _ranks(folder))]
    if partial:
        (folder, ranks), others = partial[0], len(partial) - 1
        raise StripsIntError(f"{folder}{f' (and {others} more folders)' if others else ''}", "ego seat auto",
                             f"ranks {_shown(ranks)} present: {_UNKNOWN_N}")


def _parallel(source: str, spec: str) -> int:
    """N of ``auto:N`` or ``auto:PARTNER=N,...,N`` (see :func:`rollout_seat`) for the game in ``source``."""
    partner = dataset_keys(source).get("partner")
    chosen: str | None = None
    for part in spec.split(","):
        key, sep, value = part.rpartition("=")
        if not sep:
            chosen = value if chosen is None else chosen
        elif key == partner:
            chosen = value
            break
    try:
        if chosen is None:
            raise ValueError
        return int(chosen)
    except ValueError:
        raise StripsIntError(source, "ego seat", f"auto:{spec!r}: expected auto:N or auto:PARTNER=N,...,N with N "
                             f"parallel games{f' (none for partner {partner})' if partner else ''}") from None


def dataset_keys(path: str | Path) -> dict[str, str]:
    """Group keys from the folder names of the data sets in shared/data/README.md.

    ``user-study/<agent>/<date>_human=<seat>.json`` gives agent and partner
    ``human``; ``<layout>/<partner>-<agent>/<run>__traj_<rank>_<n>.pkl`` gives
    agent and partner population. Other paths give nothing.
    """
    path = str(path)  # os.path on the text, not Path: asked for every game, and Path parsing costs more
    folder = os.path.basename(os.path.dirname(path))
    if human_seat(path) is not None:
        return {"agent": folder, "partner": "human"}
    if _RANK.search(os.path.basename(path)) and "-" in folder:
        partner, agent = folder.rsplit("-", 1)
        return {"agent": agent, "partner": partner}
    return {}


def read_traces(
    path: str | Path,
    domain: Domain,
    layout: str | None = None,
    grid: str | Path | None = None,
    roles: Sequence[str] | None = None,
    ego_seat: str | None = None,
    rules: str | None = None,
) -> Iterator[Trace]:
    """The traces of every game in an Overcooked file (format detected from its content); raises at a bad game."""
    for result in GROUNDER.read(Path(path), domain, layout=layout, grid=grid, roles=roles, ego_seat=ego_seat,
                                rules=rules):
        if isinstance(result, StripsIntError):
            raise result
        yield result


def game_trace(
    game: Game,
    domain: Domain,
    terrain: Layout | None = None,
    roles: Sequence[str] | None = None,
    ego_seat: str | None = None,
    grounder: ActionGrounder | None = None,
    rules: str | None = None,
) -> Trace:
    """One read game as a trace on ``terrain``, else the terrain the game records, else its layout by name;
    roles and data-set keys in ``meta``; ``grounder`` and ``rules`` as :func:`~.lift.lift_game` takes them."""
    who = roles_for(game, roles, ego_seat)
    meta = {**dataset_keys(game.source), **({"roles": who} if who else {})}
    terrain, named = game_terrain(game, terrain, rules)
    if named is not None:
        meta["layout"] = named
    return lift_game(game, terrain, domain, meta, grounder, rules)


def game_terrain(game: Game, terrain: Layout | None = None, rules: str | None = None) -> tuple[Layout, str | None]:
    """The layout a game is lifted on: ``terrain``, else the terrain the game records, else its layout by name
    (then also the layout name its report gives)."""
    if terrain is None and game.terrain is not None:
        terrain = recorded_terrain(game)
    if terrain is not None:
        return terrain, None
    if not game.layout:
        raise StripsIntError(game.source, None, "no layout name in the game: give a layout name or a grid file")
    # An old-rules game named counter_circuit is the paper's web game: overcooked-ai's newer
    # counter_circuit has tomatoes and new rules. The game keeps its own name as its layout. (The rules
    # given, else those the file names or its shape suggests: the terrain comes before its dynamics.)
    old = rules == "old" if rules is not None else game.old_rules
    named = OLD_RULES_NAMES.get(game.layout, game.layout) if old else game.layout
    try:
        return get_layout(named), ALIASES.get(game.layout, game.layout)
    except StripsIntError as exc:  # which game asked for it
        raise StripsIntError(game.source, None, str(exc)) from None


def recorded_terrain(game: Game) -> Layout:
    """The terrain a game records; with the orders and values of the overcooked-ai layout of its name
    when that layout has the same grid (the recorded files do not log recipe values)."""
    recorded = parse_grid("\n".join(game.terrain or ()), game.layout or "recorded", game.source)
    path = overcooked_ai_layout_files().get(game.layout or "")
    if path is not None:
        named = load_grid(path)
        if blank_starts(named.rows) == recorded.rows:
            return replace(named, rows=recorded.rows)
    return recorded


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
    from strips_int.model.domain import as_domain

    for name, value in (("states", states), ("actions", actions)):
        argument("states_trace", name, value, isinstance(value, Sequence) and not isinstance(value, (str, bytes)),
                 "a list (of state dicts, of joint actions)")
    of_type("states_trace", "layout", layout, (str, Layout), "a layout's name or a Layout")
    of_type("states_trace", "source", source, str, "a name for the states in messages")
    domain = as_domain(domain, "states_trace")
    check_actions(NEEDED_ACTIONS, domain, GROUNDER.domain, source)
    terrain = layout if isinstance(layout, Layout) else None
    name = layout.name if isinstance(layout, Layout) else layout
    game = episode_game({"ep_states": list(states), "ep_actions": list(actions), **episode}, source, name)
    return game_trace(game, domain, terrain)


def layout_alternatives(layout: Layout, domain: Domain, soups: int = 1) -> tuple[Alternative, ...]:
    """A layout's start problem as RC's alternative goals, under its own rules (definitions section 8): old
    rules, one problem (three of any ingredient it dispenses make a soup, recipe ``any 3``); new rules,
    one per makeable ordered recipe (:func:`~.lift.makeable_recipes`: the smallest of each set of
    ingredient kinds), done when one such soup is delivered."""
    if layout.old_rules:
        return (Alternative(layout_problem(layout, domain, soups), "old", "any 3"),)
    recipes = makeable_recipes(layout) or [None]  # none: layout_problem says that no order can be made
    return tuple(Alternative(layout_problem(layout, domain, soups, recipe=recipe), "new", "+".join(recipe or ()))
                 for recipe in recipes)


def _rules(text: str) -> str:
    """``--rules``: old or new; anything else is a usage error saying which (and the one meant, if close)."""
    if text not in ("old", "new"):
        import argparse

        meant = closest(text, ("old", "new"))
        raise argparse.ArgumentTypeError(f"need old or new, not {brief(text)}"
                                         + (f"; did you mean {meant}?" if meant else ""))
    return text


class _Overcooked(BaseGrounder):
    """The Overcooked grounder (see :mod:`strips_int.grounders.base`)."""

    name = "overcooked"
    domain = "overcooked"
    actions = NEEDED_ACTIONS
    options = (
        Option("--layout", "layout", "Overcooked layout name (default: the one the game names; rc: one or more)",
               "NAME", names=True),
        Option("--grid", "grid", "Overcooked grid text file (or overcooked-ai .layout file; rc: one or more, or "
               "folders of .layout and .grid files)", "FILE", names=True, suffixes=(".layout", ".grid")),
        Option("--roles", "roles", "who played each seat, e.g. human,ai (default: human=<seat> in user-study "
               "file names)", "ROLE,ROLE", lambda text: tuple(text.split(",")), use="read"),
        Option("--ego-seat", "ego_seat", "rollouts: the ego agent's seat, or 'auto' (N parallel games from the "
               "ranks beside the file), 'auto:N' or 'auto:PARTNER=N,...,N' (N by partner population, e.g. "
               "auto:h-proxy=40,10) for the ZSC-Eval rank rule", "auto|auto:N|SEAT", ego_seat, use="read"),
        Option("--rules", "rules", "Overcooked rules: old (a pot starts by itself at three) or new (a player "
               "starts it); default: the rules that explain the game", "old|new", _rules, use="read"),
        Option("--soups", "soups", "RC on a layout: soups to deliver (default 1)", "N", int, use="start"),
    )

    def __init__(self) -> None:
        #: The domain of the last file read and the grounder its games share (:func:`.lift.layout_grounder`):
        #: a batch reads every game in one domain, and grounds each action once.
        self._shared: tuple[Domain, ActionGrounder] | None = None

    def recognizes(self, head: Head) -> Claim | None:
        """Games by the keys of their format (:func:`.formats.detect_head`); a pickle by its container only."""
        found = detect_head(head)
        return None if found is None else Claim(GAMES, CONTAINER if found == "zsceval-pickle" else SHAPED)

    def _grounder(self, domain: Domain) -> ActionGrounder:
        if self._shared is None or self._shared[0] is not domain:
            self._shared = (domain, layout_grounder(domain))
        return self._shared[1]

    def read(self, path: Path, domain: Domain, layout: str | None = None, grid: str | Path | None = None,
             roles: Sequence[str] | None = None, ego_seat: str | None = None, rules: str | None = None,
             **_: Any) -> Iterator[Trace | StripsIntError]:
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
                yield game_trace(game, domain, terrain, roles, ego_seat, self._grounder(domain), rules)
            except StripsIntError as exc:
                yield exc

    def check_options(self, paths: Sequence[Path], ego_seat: str | None = None, **_: Any) -> None:
        """With ``auto`` seats, the rollout folders among ``paths`` must each hold a whole run."""
        if ego_seat is not None:
            check_rollout_seats(paths, ego_seat)

    def start_problem(self, name: str, domain: Domain, grid: str | Path | None = None, soups: int | None = None,
                      **_: Any) -> Problem | None:
        """Players at the start tiles of layout ``name`` (or of ``grid``), to deliver ``soups`` soups (of the
        first makeable ordered recipe: :meth:`start_alternatives` has them all)."""
        return layout_problem(load_grid(grid) if grid else get_layout(name), domain, 1 if soups is None else soups)

    def start_alternatives(self, name: str, domain: Domain, grid: str | Path | None = None,
                           soups: int | None = None, **_: Any) -> tuple[Alternative, ...]:
        """:func:`layout_alternatives` of layout ``name`` (or of ``grid``), to deliver ``soups`` soups."""
        return layout_alternatives(load_grid(grid) if grid else get_layout(name), domain,
                                   1 if soups is None else soups)

    def start_names(self) -> list[str]:
        """Every layout known by name: the classic ones, and overcooked-ai's when it is installed."""
        return known_layouts(aliases=False)

    def drawing(self, problem: Problem) -> Drawing | None:
        """The problem's kitchen (:mod:`.draw`), when it has a tile grid."""
        from .draw import kitchen_drawing

        return kitchen_drawing(problem)


GROUNDER = _Overcooked()
