"""overcooked-ai's environment with its interdependences as they happen (docs/definitions.md section 15).

    env = OnlineOvercooked(OvercookedEnv.from_mdp(mdp, horizon=400), shaping=Shaping())
    env.reset()
    state, reward, done, info = env.step(joint_action)
    info["interdependencies"]      # those whose receiver is this transition's: giver, receiver, facts, objects

The wrapper keeps the environment's interface (``step``, ``reset``, every other attribute passed through): each
transition, one overcooked-ai state and joint action, is lifted as a recorded game's is
(:class:`~.lift._Lifter`, one :meth:`~.lift._Lifter.transition` at a time) and fed to a
:class:`strips_int.online.Online`; objects that a dispenser or pot makes enter that analysis as they appear
(:meth:`~strips_int.online.Online.introduce`). At the end of the episode :meth:`OnlineOvercooked.report` is the
report of the game lifted whole. Only the environment object is used: overcooked-ai itself is not imported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain, as_domain
from strips_int.online import Online, Report, StepResult

from ..base import check_actions
from . import GROUNDER, game_terrain
from .formats import Game, _episode_game, _episode_params, _joint, _state
from .lift import NEEDED_ACTIONS, _Lifter, _problem


@dataclass(frozen=True)
class Shaping:
    """Weights of the shaped reward added to the environment's own (issue 41): ``interdependence`` per
    interdependence at its receiver's step, ``constructive`` per constructive one when the episode ends (only
    then is a category known, docs/definitions.md section 5), ``block`` per block as a penalty (section 13;
    counted once blocks are reported: until then no block is found, and this weight changes nothing)."""

    interdependence: float = 1.0
    constructive: float = 5.0
    block: float = 1.0


class OnlineOvercooked:
    """An overcooked-ai ``OvercookedEnv`` (or any object with its ``state``, ``mdp``, ``step`` and ``reset``)
    whose ``step`` also gives ``info["interdependencies"]`` (each as in :meth:`StepResult.to_dict`: giver,
    receiver, facts, objects), ``info["subtasks"]`` and ``info["triggers"]`` (agents whose step of this
    transition was one) and, with ``shaping``, adds the shaped reward (``info["interdependence_reward"]``).
    At the end of an episode ``info["interdependence_report"]`` is the game's report as JSON."""

    def __init__(self, env: Any, domain: Domain | str = "overcooked", shaping: Shaping | None = None,
                 source: str = "overcooked-ai env") -> None:
        self.env = env
        self.domain = as_domain(domain)
        check_actions(NEEDED_ACTIONS, self.domain, GROUNDER.domain, source)
        self.shaping = shaping
        self.source = source
        self._begin()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def reset(self, *args: Any, **kwargs: Any) -> Any:
        """The environment's reset; a new episode's analysis begins."""
        found = self.env.reset(*args, **kwargs)
        self._begin()
        return found

    def _begin(self) -> None:
        """The lifter and the online analysis of an episode from the environment's current state."""
        self.saved: tuple[dict, dict] = ({}, {})
        raw = self._as_saved(self.env.state)
        params, layout, cook_time = _episode_params(dict(self.env.mdp.mdp_params), None, self.source, None)
        first = _state(raw, self.source, 0, cook_time)
        game = _episode_game(self.source, layout, params, cook_time, [first], "all_orders" in raw, [], None)
        self.game, self.raw, self.rewards = game, raw, []
        self.cook_time = cook_time
        terrain, named = game_terrain(game)
        self.lifter = lifter = _Lifter(game, terrain, self.domain, GROUNDER._grounder(self.domain), game.old_rules)
        lifter.check_terrain(game.states)
        lifter.begin()
        # One fresh object of each kind that can appear (``kind0``: the lifter numbers objects from 1), to stand
        # for those that enter later (Online.introduce).
        self.spares = {kind: f"{kind}0" for kind in ("onion", "tomato", "dish", "soup")}
        objects = {**lifter.objects, **lifter.tracker.kinds, **{name: kind for kind, name in self.spares.items()}}
        init = lifter.init | lifter.static | {("fresh", name) for name in self.spares.values()}
        problem = _problem(self.domain, f"overcooked-{terrain.name}", objects, init, [], self.source)
        self.meta = {"layout": named or terrain.name, "terrain": terrain.name,
                     "rules": "old" if game.old_rules else "new"}
        self.online = Online(self.domain, problem, self.source, self.meta)
        self.results: list[StepResult] = []

    def step(self, joint_action: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any, bool, dict]:
        """The environment's step, its ``info`` with this transition's interdependences (and, with shaping,
        the shaped reward added)."""
        state, reward, done, info = self.env.step(joint_action, *args, **kwargs)
        found = self.transition(joint_action, reward)
        info = dict(info or {})
        info["interdependencies"] = [item for result in found for item in result.to_dict()["interdependencies"]]
        info["subtasks"] = [r.step.agent for r in found if r.subtask]
        info["triggers"] = [r.step.agent for r in found if r.trigger]
        bonus = 0.0
        if self.shaping is not None:
            bonus += self.shaping.interdependence * len(info["interdependencies"])
        if done:
            report = self.report()
            info["interdependence_report"] = report.to_dict()
            if self.shaping is not None:
                bonus += self.shaping.constructive * report.counts["constructive"]
        if self.shaping is not None:
            info["interdependence_reward"] = bonus
            reward = reward + bonus
        return state, reward, done, info

    def transition(self, joint_action: Any, reward: float) -> list[StepResult]:
        """Lift the transition to the environment's current state by ``joint_action`` (which earned
        ``reward``) and feed its steps to the online analysis: what each step says."""
        game, lifter, source = self.game, self.lifter, self.source
        i = len(game.actions)
        raw = self._as_saved(self.env.state)
        game.states.append(_state(raw, source, i + 1, self.cook_time, self.raw, game.states[-1]))
        game.actions.append(_joint(joint_action, source, i))
        self.raw = raw
        self.rewards.append(float(reward))
        created, lifted = len(lifter.tracker.created), len(lifter.actions)
        lifter.transition(i)
        tracker = lifter.tracker
        new = tracker.created[created:]
        if new:
            unknown = sorted({tracker.kinds[name] for name in new} - self.spares.keys())
            if unknown:
                raise StripsIntError(source, f"step {i}", f"a {unknown[0]} appeared: no spare of its kind")
            self.online.introduce({name: tracker.kinds[name] for name in new}, [("fresh", name) for name in new],
                                  {name: self.spares[tracker.kinds[name]] for name in new})
        found = [self.online.step(action, t) for action, t in zip(lifter.actions[lifted:], lifter.times[lifted:])]
        self.results += found
        return found

    def _as_saved(self, state: Any) -> dict:
        """An overcooked-ai state as its saver writes it (``to_dict`` through JSON: tuples become lists), for the
        reader's one path (:func:`~.formats._state`); each part equal to the last state's is converted once."""
        shown = state.to_dict()
        last, converted = self.saved
        raw = {key: converted[key] if key in last and last[key] == value else _lists(value)
               for key, value in shown.items()}
        self.saved = (shown, raw)
        return raw

    def report(self) -> Report:
        """The report of the episode so far, as the game lifted whole (its problem: the objects that
        appeared, the spares, the goal of the soups whose delivery earned reward)."""
        self.game.rewards, self.game.reward = tuple(self.rewards), sum(self.rewards)
        return self.online.finish(self.lifter.end())


def _lists(value: Any) -> Any:
    """``value`` as JSON would give it back: tuples as lists (the saver's files hold lists)."""
    kind = type(value)
    if kind is dict:
        return {key: _lists(item) for key, item in value.items()}
    if kind is tuple or kind is list:
        return [_lists(item) for item in value]
    return value
