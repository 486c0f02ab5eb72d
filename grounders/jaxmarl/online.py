"""JaxMARL Overcooked (the original, V1) with its interdependences as they happen (docs/definitions.md section 15).

    env = jaxmarl.make("overcooked", layout=overcooked_layouts["cramped_room"])
    online = OnlineJaxMARL(env, reset=jax.jit(env.reset), step=jax.jit(env.step), shaping=Shaping())
    obs, state = online.reset(key)
    obs, state, rewards, dones, infos = online.step(key, state, actions)
    infos["interdependencies"]

Outside ``jit``, around the rollout loop: ``reset`` and ``step`` (jitted or not, as given) run as JaxMARL's, then
each state is brought to the host (``numpy.asarray`` of its agent and maze arrays), decoded as a saved rollout's
(:func:`~.game.rollout_states`) and lifted and analysed one transition at a time
(:class:`~strips_int.grounders.overcooked.online.LiveGame`). A loop written as one ``lax.scan`` cannot be
wrapped so: save its rollout and replay it (:func:`strips_int.online.replay`). JaxMARL's ``step`` resets by itself
at an episode's end; the wrapper then begins the next episode's analysis from the state it returns. OvercookedV2
has its own lifter and no wrapper yet.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain, as_domain
from strips_int.online import Online, Report

from ..base import check_actions
from ..overcooked.formats import Game, RawState
from ..overcooked.layouts import Layout
from ..overcooked.online import LiveGame, Shaping, step_info
from . import ACTIONS as NEEDED_ACTIONS
from .game import COOK_TIME, _action, rollout_states
from .record import unwrapped
from .rollout import layout_name, layout_rows
from .v2_rollout import is_v2

#: The state arrays a state is decoded from.
_FIELDS = ("agent_pos", "agent_dir", "agent_inv", "maze_map")


class OnlineJaxMARL:
    """A JaxMARL Overcooked environment whose ``step`` also gives, in its ``infos``, ``interdependencies``,
    ``subtasks``, ``triggers`` (and at an episode's end ``interdependence_report``), as
    :class:`~strips_int.grounders.overcooked.online.OnlineOvercooked` does; with ``shaping`` each agent's reward
    gets the shaped reward. ``reset`` and ``step``: the environment's (default), or their jitted versions."""

    def __init__(self, env: Any, domain: Domain | str = "overcooked", shaping: Shaping | None = None,
                 reset: Callable | None = None, step: Callable | None = None, source: str = "jaxmarl env") -> None:
        if is_v2(env):
            raise StripsIntError(source, None, "OvercookedV2 has no online wrapper yet: save its rollouts "
                                 "(save_rollout) and replay them (strips_int.online.replay)")
        self.env = env
        self.domain = as_domain(domain)
        check_actions(NEEDED_ACTIONS, self.domain, "overcooked", source)
        self.shaping = shaping
        self.source = source
        self._reset, self._step = reset or env.reset, step or env.step
        self.live: LiveGame | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    @property
    def online(self) -> Online:
        """The episode's online analysis."""
        if self.live is None:
            raise StripsIntError(self.source, None, "no episode yet: reset the environment first")
        return self.live.online

    def reset(self, key: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        """The environment's reset; a new episode's analysis begins."""
        obs, state = self._reset(key, *args, **kwargs)
        self._begin(state)
        return obs, state

    def _begin(self, state: Any) -> None:
        inner = unwrapped(state)
        starts = [(int(x), int(y)) for x, y in np.asarray(inner.agent_pos)]
        self.layout = Layout(name=layout_name(self.env.layout), rows=layout_rows(self.env.layout, starts))
        game = Game(source=self.source, layout=self.layout.name, states=[self._decode(inner, 0)], actions=[],
                    reward=None, cook_time=COOK_TIME, old_rules=True, rules_named=True, meta={"format": "jaxmarl"})
        self.live = LiveGame(game, self.layout, self.domain, {"layout": self.layout.name,
                                                               "terrain": self.layout.name})

    def _decode(self, state: Any, t: int) -> RawState:
        """State ``t`` of the episode, brought to the host and decoded as a saved rollout's."""
        fields = {name: np.asarray(getattr(state, name))[None] for name in _FIELDS}
        return rollout_states(fields, self.layout, 1, self.source, t)[0]

    def step(self, key: Any, state: Any, actions: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any, Any, Any, dict]:
        """The environment's step, its ``infos`` with this transition's interdependences (and, with shaping,
        the shaped reward added to each agent's)."""
        if self.live is None:
            self._begin(state)
        obs, after, rewards, dones, infos = self._step(key, state, actions, *args, **kwargs)
        rewards, added = self.transition(actions, after, rewards, dones)
        return obs, after, rewards, dones, {**infos, **added}

    def transition(self, actions: Any, after: Any, rewards: Any, dones: Any) -> tuple[Any, dict]:
        """Lift and analyse the transition by ``actions`` to ``after`` (with its ``rewards`` and ``dones`` as
        ``step`` returns them): the rewards (with shaping, the shaped reward added) and what ``infos`` gains."""
        live, agents = self.live, list(self.env.agents)
        i = len(live.game.actions)
        joint = tuple(_action(int(actions[agent]), self.source, i, j) for j, agent in enumerate(agents))
        done = bool(dones["__all__"])
        # At the end JaxMARL returns the next episode's first state: the last joint action has no following one.
        found = live.transition(None if done else self._decode(unwrapped(after), i + 1), joint,
                                float(rewards[agents[0]]))
        added, bonus = step_info(live, found, done, self.shaping)
        if self.shaping is not None:
            rewards = {agent: reward + bonus for agent, reward in rewards.items()}
        if done:
            self._begin(after)
        return rewards, added

    def report(self) -> Report:
        """The report of the episode so far, as its saved rollout read whole."""
        if self.live is None:
            raise StripsIntError(self.source, None, "no episode yet: reset the environment first")
        return self.live.report()
