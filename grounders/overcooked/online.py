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
from typing import Any, Mapping

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain, as_domain
from strips_int.online import Online, Report, StepResult

from ..base import check_actions
from . import GROUNDER, game_terrain
from .formats import Game, Move, RawState, _episode_game, _episode_params, _joint, _state
from .layouts import Layout
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


class LiveGame:
    """A game lifted and analysed as it is played: its first state, then one transition at a time
    (:meth:`transition`: the next state, or None after the last joint action when there is none, as a rollout
    that resets at its end), and :meth:`report`. What an environment wrapper shares: the states come from its
    own reader (overcooked-ai's state dicts, JaxMARL's arrays), the lifting and analysis are the recorded
    game's."""

    def __init__(self, game: Game, layout: Layout, domain: Domain, meta: Mapping[str, Any]) -> None:
        self.game, self.source = game, game.source
        self.rewards: list[float] = []
        self.lifter = lifter = _Lifter(game, layout, domain, GROUNDER._grounder(domain), game.old_rules)
        lifter.check_terrain(game.states)
        lifter.begin()
        # One fresh object of each kind that can appear (``kind0``: the lifter numbers objects from 1), to stand
        # for those that enter later (Online.introduce).
        self.spares = {kind: f"{kind}0" for kind in ("onion", "tomato", "dish", "soup")}
        objects = {**lifter.objects, **lifter.tracker.kinds, **{name: kind for kind, name in self.spares.items()}}
        init = lifter.init | lifter.static | {("fresh", name) for name in self.spares.values()}
        problem = _problem(domain, f"overcooked-{layout.name}", objects, init, [], self.source)
        self.online = Online(domain, problem, self.source, {"rules": "old" if game.old_rules else "new", **meta})

    def transition(self, after: RawState | None, joint: tuple[Move, ...], reward: float) -> list[StepResult]:
        """Lift the transition by ``joint`` (which earned ``reward``) to ``after`` and feed its steps to the
        online analysis: what each step says."""
        game, lifter, source = self.game, self.lifter, self.source
        i = len(game.actions)
        if after is not None:
            game.states.append(after)
        game.actions.append(joint)
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
        return [self.online.step(action, t) for action, t in zip(lifter.actions[lifted:], lifter.times[lifted:])]

    def report(self) -> Report:
        """The report of the game so far, as the game lifted whole (its problem: the objects that appeared,
        the spares, the goal of the soups whose delivery earned reward)."""
        self.game.rewards, self.game.reward = tuple(self.rewards), sum(self.rewards)
        return self.online.finish(self.lifter.end())


def step_info(live: LiveGame, found: list[StepResult], done: bool, shaping: Shaping | None) -> tuple[dict, float]:
    """What a wrapper adds to a step's ``info`` (``interdependencies``, ``subtasks``, ``triggers``; at the end
    ``interdependence_report``; with shaping ``interdependence_reward``) and the reward it adds."""
    info: dict[str, Any] = {
        "interdependencies": [item for result in found for item in result.to_dict()["interdependencies"]],
        "subtasks": [result.step.agent for result in found if result.subtask],
        "triggers": [result.step.agent for result in found if result.trigger],
    }
    bonus = 0.0 if shaping is None else shaping.interdependence * len(info["interdependencies"])
    if done:
        report = live.report()
        info["interdependence_report"] = report.to_dict()
        if shaping is not None:
            bonus += shaping.constructive * report.counts["constructive"]
    if shaping is not None:
        info["interdependence_reward"] = bonus
    return info, bonus


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

    @property
    def online(self) -> Online:
        """The episode's online analysis."""
        return self.live.online

    def reset(self, *args: Any, **kwargs: Any) -> Any:
        """The environment's reset; a new episode's analysis begins."""
        found = self.env.reset(*args, **kwargs)
        self._begin()
        return found

    def _begin(self) -> None:
        """The lifter and the online analysis of an episode from the environment's current state."""
        self.saved: tuple[dict, dict] = ({}, {})
        self.raw = raw = self._as_saved(self.env.state)
        params, layout, self.cook_time = _episode_params(dict(self.env.mdp.mdp_params), None, self.source, None)
        first = _state(raw, self.source, 0, self.cook_time)
        game = _episode_game(self.source, layout, params, self.cook_time, [first], "all_orders" in raw, [], None)
        terrain, named = game_terrain(game)
        self.live = LiveGame(game, terrain, self.domain, {"layout": named or terrain.name, "terrain": terrain.name})

    def step(self, joint_action: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any, bool, dict]:
        """The environment's step, its ``info`` with this transition's interdependences (and, with shaping,
        the shaped reward added)."""
        state, reward, done, info = self.env.step(joint_action, *args, **kwargs)
        added, bonus = step_info(self.live, self.transition(joint_action, reward), done, self.shaping)
        return state, reward + bonus if self.shaping is not None else reward, done, {**(info or {}), **added}

    def transition(self, joint_action: Any, reward: float) -> list[StepResult]:
        """Lift the transition to the environment's current state by ``joint_action`` (which earned
        ``reward``) and feed its steps to the online analysis: what each step says."""
        i = len(self.live.game.actions)
        raw = self._as_saved(self.env.state)
        after = _state(raw, self.source, i + 1, self.cook_time, self.raw, self.live.game.states[-1])
        self.raw = raw
        return self.live.transition(after, _joint(joint_action, self.source, i), reward)

    def report(self) -> Report:
        """The report of the episode so far, as the game lifted whole."""
        return self.live.report()

    def _as_saved(self, state: Any) -> dict:
        """An overcooked-ai state as its saver writes it (``to_dict`` through JSON: tuples become lists), for the
        reader's one path (:func:`~.formats._state`); each part equal to the last state's is converted once."""
        shown = state.to_dict()
        last, converted = self.saved
        raw = {key: converted[key] if key in last and last[key] == value else _lists(value)
               for key, value in shown.items()}
        self.saved = (shown, raw)
        return raw

def _lists(value: Any) -> Any:
    """``value`` as JSON would give it back: tuples as lists (the saver's files hold lists)."""
    kind = type(value)
    if kind is dict:
        return {key: _lists(item) for key, item in value.items()}
    if kind is tuple or kind is list:
        return [_lists(item) for item in value]
    return value
