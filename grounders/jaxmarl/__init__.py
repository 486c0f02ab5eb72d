"""JaxMARL Overcooked and OvercookedV2: rollouts saved as ``.npz`` and lifted into ``domains/overcooked.pddl`` traces.

    import jax, jaxmarl
    from strips_int.grounders.jaxmarl import save_rollout, rollout_trace
    env = jaxmarl.make("overcooked", layout=overcooked_layouts["cramped_room"])  # or "overcooked_v2", layout=NAME
    ...  # states (reset's first, then one per step), joint actions, rewards
    save_rollout("game.npz", env, states, actions, rewards)   # then: check / evaluate game.npz
    trace = rollout_trace(states, actions, rewards, env, domain)  # or straight from memory

Reading a file needs numpy only; saving, the layouts by name and the
in-memory reader need the ``jaxmarl`` extra. ``GROUNDER`` is this
environment's entry in :mod:`strips_int.grounders`.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from strips_int.errors import ArgumentError, StripsIntError, argument, brief, closest, of_type

from ..base import GAMES, TAGGED, Alternative, BaseGrounder, Claim, Head, Option
from ..overcooked.layouts import Layout, known_layouts
from ..overcooked.lift import layout_problem, lift_game
from .archive import first_member

if TYPE_CHECKING:
    import numpy as np

    from strips_int.model.domain import Domain
    from strips_int.model.task import Problem
    from strips_int.model.trace import Trace

    from .v2_kitchen import V2Layout

__all__ = ["FORMAT", "GROUNDER", "arrays_trace", "jaxmarl_layout", "jaxmarl_v2_layout", "read_rollout", "rollout_trace",
           "save_rollout"]


def __getattr__(name: str) -> Any:
    """``FORMAT`` and ``save_rollout`` on first use: the rollout module imports numpy (50 ms), which the
    registry, loading this package for its options, should not pay."""
    if name not in ("FORMAT", "save_rollout"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(".rollout", __name__), name)

#: The prefix of OvercookedV2's layouts for ``rc --layout``.
V2_PREFIX = "jaxmarl_v2:"
#: The action schemas of ``domains/overcooked.pddl`` a JaxMARL game lifts into (onions only, old rules;
#: OvercookedV2's are ``v2_lift.V2_ACTIONS``, checked when one is read).
ACTIONS = frozenset({"move", "take", "take-onion", "take-dish", "put", "start-soup", "add-ingredient", "auto-cook",
                     "finish-cooking", "plate-soup", "deliver"})


def arrays_trace(arrays: dict[str, np.ndarray], domain: Domain, source: str) -> Trace:
    """The trace of a rollout's arrays. Overcooked: every step's reward must be 20 per soup delivered in it
    (the old-rules check of :func:`~strips_int.grounders.overcooked.lift.rewarded_soups`); OvercookedV2: every
    step replayed under its rules (:mod:`.v2_lift`)."""
    from .record import FORMAT_V2

    if str(arrays.get("format")) == FORMAT_V2:
        from .v2_lift import lift_episode
        from .v2_rollout import read_episode

        return lift_episode(read_episode(arrays, source), domain)
    from .game import rollout_game

    return lift_game(*rollout_game(arrays, source), domain)


def read_rollout(path: str | Path, domain: Domain) -> Trace:
    """The trace of a rollout file written by :func:`save_rollout` (no jax needed)."""
    from .rollout import load_rollout

    return arrays_trace(load_rollout(Path(path)), domain, str(path))


def rollout_trace(states: Sequence[Any], actions: Sequence[Any], rewards: Sequence[Any], env: Any, domain: Domain,
                  source: str = "<rollout>") -> Trace:
    """The trace of a rollout in memory (a notebook's ``states, actions, rewards`` of ``env``). Arguments
    that are not a rollout of ``env`` are an :class:`~strips_int.errors.ArgumentError`."""
    from strips_int.model.domain import as_domain

    from .rollout import rollout_arrays

    for name, value in (("states", states), ("actions", actions), ("rewards", rewards)):
        argument("rollout_trace", name, value, isinstance(value, Sequence) and not isinstance(value, (str, bytes)),
                 f"a list of the rollout's {name}")
    argument("rollout_trace", "env", env, hasattr(env, "agents") and hasattr(env, "layout"),
             "a JaxMARL Overcooked or OvercookedV2 environment (jaxmarl.make)")
    of_type("rollout_trace", "source", source, str, "a name for the rollout in messages")
    domain = as_domain(domain, "rollout_trace")
    try:
        arrays = rollout_arrays(env, states, actions, rewards)
    except (TypeError, AttributeError, ValueError, KeyError, IndexError) as exc:  # what numpy and the env's
        # classes raise on values that are not its states, joint actions and rewards
        raise ArgumentError("rollout_trace", "states", f"the states, joint actions and rewards of a rollout of "
                            f"env ({type(exc).__name__} making its arrays)", states) from None
    return arrays_trace(arrays, domain, source)


#: Run in a child process: prints JaxMARL's layout ``sys.argv[1]`` as JSON lists (or null), last line.
_LAYOUT_CHILD = """
import json, sys
import numpy as np
from jaxmarl.environments.overcooked.layouts import overcooked_layouts
layout = overcooked_layouts.get(sys.argv[1])
print(json.dumps({"known": sorted(overcooked_layouts)} if layout is None else {
    key: np.asarray(value).ravel().tolist() for key, value in layout.items()}))
"""
#: The same for OvercookedV2's ``overcooked_v2_layouts``: static tiles, start cells, possible recipes (or, for a
#: name it does not have, the names it has).
_V2_LAYOUT_CHILD = """
import json, sys
import numpy as np
from jaxmarl.environments.overcooked_v2.layouts import overcooked_v2_layouts
layout = overcooked_v2_layouts.get(sys.argv[1])
print(json.dumps({"known": sorted(overcooked_v2_layouts)} if layout is None else {
    "static": np.asarray(layout.static_objects).tolist(), "starts": [[int(c) for c in p] for p in layout.agent_positions],
    "recipes": [sorted(int(k) for k in r) for r in layout.possible_recipes]}))
"""


def _from_jaxmarl(code: str, name: str) -> Any:
    """What ``code`` prints for layout ``name`` in a child process, as JSON (None: jaxmarl not installed).

    jaxmarl is imported in a child process: importing it starts JAX's threads (and prints), and the
    planner then forks its time-limited child, which JAX's threads can deadlock.
    """
    import subprocess  # only here: reading rollouts needs no child

    if importlib.util.find_spec("jaxmarl") is None:
        return None
    child = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True)
    lines = child.stdout.strip().splitlines()
    if child.returncode != 0 or not lines:
        last = (child.stderr.strip().splitlines() or ["no output"])[-1]
        raise StripsIntError(f"jaxmarl layout {name}", None, f"reading it from jaxmarl failed: {last}")
    return json.loads(lines[-1])


def _unknown(source: str, kind: str, name: str, known: list[str]) -> StripsIntError:
    """The error for a layout name jaxmarl does not have: the closest of its names, and all of them."""
    close = closest(name, known)
    return StripsIntError(source, None, f"unknown {kind} layout {brief(name)}"
                          + (f"; did you mean {close}?" if close else "")
                          + f" ({len(known)} known: {', '.join(known)})")


def jaxmarl_layout(name: str, named: bool = False) -> Layout | None:
    """JaxMARL's layout ``name`` (from ``overcooked_layouts``, agents on its start tiles), or None:
    unknown, or jaxmarl not installed. ``named``: the name came with the ``jaxmarl:`` prefix, so an
    unknown one is an error naming JaxMARL's layouts."""
    from .rollout import layout_rows

    layout = _from_jaxmarl(_LAYOUT_CHILD, name)
    if layout is None:
        return None
    if "known" in layout:
        if named:
            raise _unknown(f"layout {brief('jaxmarl:' + name)}", "JaxMARL Overcooked", name, layout["known"])
        return None
    width = int(layout["width"][0])
    layout["height"], layout["width"] = int(layout["height"][0]), width
    starts = [(int(i) % width, int(i) // width) for i in layout["agent_idx"]]
    return Layout(name=name, rows=layout_rows(layout, starts))


def jaxmarl_v2_layout(name: str) -> V2Layout:
    """OvercookedV2's layout ``name`` (from ``overcooked_v2_layouts``); an unknown name, or jaxmarl not
    installed, is an error (the ``jaxmarl_v2:`` prefix says the name is OvercookedV2's)."""
    from .v2_kitchen import V2Layout

    source = f"layout {brief(V2_PREFIX + name)}"
    layout = _from_jaxmarl(_V2_LAYOUT_CHILD, name)
    if layout is None:
        raise StripsIntError(source, None, "OvercookedV2's layouts are read from jaxmarl: install the extra "
                             "(pip install -e '.[jaxmarl]')")
    if "known" in layout:
        raise _unknown(source, "OvercookedV2", name, layout["known"])
    return V2Layout(name=name, static=tuple(map(tuple, layout["static"])), starts=tuple(map(tuple, layout["starts"])),
                    recipes=tuple(map(tuple, layout["recipes"])))


def recipe_kinds(text: str) -> tuple[int, ...]:
    """``--recipe 0,0,2``: ingredient kinds (argparse reports a ValueError as an invalid value)."""
    return tuple(int(kind) for kind in text.split(","))


class _JaxMARL(BaseGrounder):
    """The JaxMARL Overcooked grounder (see :mod:`strips_int.grounders.base`)."""

    name = "jaxmarl"
    domain = "overcooked"
    actions = ACTIONS
    options = (Option("--layout", "layout", "layout name (default: the one the game names; jaxmarl:NAME for "
                      "JaxMARL's own where an Overcooked layout has the same name; jaxmarl_v2:NAME for "
                      "OvercookedV2's)", "NAME", names=True),
               Option("--soups", "soups", "RC on a layout: soups to deliver (default 1)", "N", int, use="start"),
               Option("--recipe", "recipe", "RC on an OvercookedV2 layout (jaxmarl_v2:NAME): the order, as "
                      "ingredient kinds (default: the layout's first possible recipe)", "K,K,K", recipe_kinds,
                      use="start"))

    def recognizes(self, head: Head) -> Claim | None:
        """A rollout by the format tag of its ``format`` array: an archive whose first member is a numpy
        array (``np.savez`` writes ``NAME.npy`` members) is opened (all of it: :meth:`~..base.Head.whole`);
        every other file (another zip archive too) is told apart by its head, without importing numpy."""
        if not first_member(head.data).endswith(b".npy") or (whole := head.whole()) is None:
            return None
        from .rollout import is_rollout

        return Claim(GAMES, TAGGED) if is_rollout(head.path, whole) else None

    def read(self, path: Path, domain: Domain, **_: Any) -> Iterator[Trace | StripsIntError]:
        try:
            yield read_rollout(path, domain)
        except StripsIntError as exc:
            yield exc

    def start_problem(self, name: str, domain: Domain, soups: int | None = None,
                      recipe: tuple[int, ...] | None = None, **_: Any) -> Problem | None:
        """Players at the start tiles of JaxMARL layout ``name`` (``jaxmarl:`` prefix optional, to tell
        its ``cramped_room`` from the classic one), to deliver ``soups`` soups; None for another name.
        ``jaxmarl_v2:NAME`` is OvercookedV2's layout, to deliver soups of ``recipe`` (one of its possible ones)."""
        if name.startswith(V2_PREFIX):
            from .v2_lift import v2_layout_problem

            return v2_layout_problem(jaxmarl_v2_layout(name.removeprefix(V2_PREFIX)), domain, soups or 1, recipe)
        layout = _named_layout(name)
        return None if layout is None else layout_problem(layout, domain, soups or 1)

    def start_alternatives(self, name: str, domain: Domain, soups: int | None = None,
                           recipe: tuple[int, ...] | None = None, **_: Any) -> tuple[Alternative, ...] | None:
        """:meth:`start_problem` as Overcooked's :func:`~..overcooked.layout_alternatives` (one per
        makeable order under new rules); an OvercookedV2 layout's, of its ``recipe``, as the only one."""
        if name.startswith(V2_PREFIX):
            return super().start_alternatives(name, domain, soups=soups, recipe=recipe)
        from ..overcooked import layout_alternatives

        layout = _named_layout(name)
        return None if layout is None else layout_alternatives(layout, domain, soups or 1)


def _named_layout(name: str) -> Layout | None:
    """JaxMARL's layout ``name``; None for another name, or for an Overcooked layout's name without
    the ``jaxmarl:`` prefix (the Overcooked one comes first)."""
    if not name.startswith("jaxmarl:") and name in known_layouts():
        return None
    return jaxmarl_layout(name.removeprefix("jaxmarl:"), named=name.startswith("jaxmarl:"))


GROUNDER = _JaxMARL()
