"""Games made by overcooked-ai itself for ``test_overcooked_field_data.py``: its own saver's rollouts.

overcooked-ai 1.1.0 (the package on PyPI) needs numpy < 2, which cannot be
installed beside this package's other dependencies, and its ``old_dynamics``
flag exists only in its current source. So the games are made once, by this
script, in separate virtual environments outside the repository, and only the
small files it writes are committed, under ``tests/data/overcooked_ai/``. They
are ours (made by running overcooked-ai's code), not third-party data. To remake
them::

    python3 -m venv /tmp/ocai-110
    /tmp/ocai-110/bin/pip install 'numpy<2' overcooked-ai==1.1.0
    /tmp/ocai-110/bin/python tests/overcooked_ai_games.py tests/data/overcooked_ai

    # old_dynamics: overcooked-ai's current source (github HumanCompatibleAI/overcooked_ai, src/),
    # on the path of a venv with its dependencies
    python3 -m venv /tmp/ocai-src
    /tmp/ocai-src/bin/pip install 'numpy<2' dill scipy tqdm gymnasium pygame ipython ipywidgets \
        'opencv-python-headless<4.11'
    PYTHONPATH=/path/to/overcooked_ai/src /tmp/ocai-src/bin/python tests/overcooked_ai_games.py \
        tests/data/overcooked_ai

Each run writes the games its overcooked-ai can make (old-dynamics games only
where ``OvercookedGridworld`` takes ``old_dynamics``), with
``AgentEvaluator.evaluate_agent_pair`` and ``AgentEvaluator.save_traj_as_json``
as a user of overcooked-ai would: two greedy agents (``GreedyHumanModel``,
Boltzmann-rational in their choice of goal so that games differ; on layouts of other orders than three
onions, which it refuses, :class:`RecipeCook`), fixed seeds. ``multi_recipe.layout``
is a layout of our own written in the keys of ZSC-Eval's multi-recipe layouts
(``start_all_orders`` of two and three ingredients, ``recipe_values``,
``recipe_times``); the tests give it as ``--grid``. ``games.json`` lists each
game file with the options it was made with. Remade, the games are the same as
JSON values (the order of keys in the files varies from run to run).
"""

from __future__ import annotations

import inspect
import json
import random
import sys
from pathlib import Path

import numpy as np
from overcooked_ai_py.agents.agent import AgentPair, GreedyHumanModel
from overcooked_ai_py.agents.benchmarking import AgentEvaluator
from overcooked_ai_py.mdp.overcooked_mdp import OvercookedGridworld

#: Our own multi-recipe layout, in the keys of ZSC-Eval's ``random3_m`` and kin (values and cooking times
#: per recipe, two-ingredient recipes cooking faster).
MULTI_RECIPE = {
    "grid": "XXPXX\nO  2T\nX1  X\nXDXSX",
    "start_all_orders": [{"ingredients": ["onion", "onion", "onion"]}, {"ingredients": ["onion", "onion", "tomato"]},
                         {"ingredients": ["onion", "onion"]}, {"ingredients": ["onion", "tomato"]}],
    "recipe_values": [20, 25, 10, 12],
    "recipe_times": [20, 18, 9, 7],
    "start_bonus_orders": [],
    "rew_shaping_params": None,
}
HORIZON = 120


class RecipeCook(GreedyHumanModel):
    """``GreedyHumanModel`` for any orders: it fills an idle pot towards an order its contents allow (one
    drawn at random when the pot is empty), starts it when it holds that order, and starts whatever a pot
    holds when no order fits (a soup of no order, delivered for nothing)."""

    def ml_action(self, state):
        player, other = state.players[self.agent_index], state.players[1 - self.agent_index]
        if player.has_object():
            return super().ml_action(state)
        am, mdp = self.mlam, self.mlam.mdp
        counters = mdp.get_counter_objects_dict(state, list(mdp.terrain_pos_dict["X"]))
        pots = mdp.get_pot_states(state)
        other_has_dish = other.has_object() and other.get_object().name == "dish"
        if (pots["ready"] or pots["cooking"]) and not other_has_dish:
            goals = am.pickup_dish_actions(counters)
        else:
            goals = self._fill_or_start(state, pots, counters)
        goals = [g for g in goals if am.motion_planner.is_valid_motion_start_goal_pair(player.pos_and_or, g)]
        return goals or [g for g in am.go_to_closest_feature_actions(player)
                         if am.motion_planner.is_valid_motion_start_goal_pair(player.pos_and_or, g)]

    def _fill_or_start(self, state, pots, counters):
        am = self.mlam
        orders = [sorted(order.ingredients) for order in state.all_orders]
        idle = [pos for key, found in pots.items() if key.endswith("_items") for pos in found]
        for pos in idle:
            held = sorted(state.get_object(pos).ingredients)
            fits = [order for order in orders if all(held.count(i) <= order.count(i) for i in set(held))
                    and len(order) > len(held)]
            if held in orders or not fits:
                return am._get_ml_actions_for_positions([pos])  # start it
            missing = [i for i in fits[np.random.randint(len(fits))] if held.count(i) < 1 or held.remove(i)]
            return self._fetch(missing[0], counters)
        if pots["empty"]:
            return self._fetch(orders[np.random.randint(len(orders))][0], counters)
        return am.pickup_dish_actions(counters)

    def _fetch(self, ingredient, counters):
        am = self.mlam
        return am.pickup_onion_actions(counters) if ingredient == "onion" else am.pickup_tomato_actions(counters)


def _layout_text(layout: dict) -> str:
    """A ``.layout`` file of ``layout`` as overcooked-ai reads them (a Python dict literal, grid in triple quotes)."""
    rest = ",\n".join(f"    {json.dumps(key)}: {json.dumps(value) if value is not None else 'None'}"
                      for key, value in layout.items() if key != "grid")
    return '{\n    "grid": """' + layout["grid"] + '""",\n' + rest + "\n}\n"


def _evaluator(layout: str | dict, old_dynamics: bool | None) -> AgentEvaluator:
    extra = {} if old_dynamics is None else {"old_dynamics": old_dynamics}
    env_params = {"horizon": HORIZON}
    if isinstance(layout, str):
        return AgentEvaluator.from_layout_name({"layout_name": layout, **extra}, env_params)
    params = {key: value for key, value in layout.items() if key != "grid"}
    mdp = OvercookedGridworld.from_grid(layout["grid"].split("\n"), {"layout_name": "multi_recipe", **params, **extra})
    return AgentEvaluator.from_mdp(mdp, env_params)


def play(out: Path, name: str, layout: str | dict, games: int, old_dynamics: bool | None = None, seed: int = 0) -> str:
    """Two greedy agents play ``games`` games on ``layout``; overcooked-ai's saver writes them to ``out/name.json``."""
    random.seed(seed)
    np.random.seed(seed)
    evaluator = _evaluator(layout, old_dynamics)
    mlam = evaluator.env.mlam
    onions_only = [order["ingredients"] for order in evaluator.env.mdp.start_all_orders] == [["onion"] * 3]
    kind = GreedyHumanModel if onions_only else RecipeCook
    agents = [kind(mlam, hl_boltzmann_rational=True, hl_temp=0.5)
              for _ in range(2)]
    trajectories = evaluator.evaluate_agent_pair(AgentPair(*agents), num_games=games, info=False)
    AgentEvaluator.save_traj_as_json(trajectories, str(out / name))
    return f"{name}.json"


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    listed = out / "games.json"
    made = json.loads(listed.read_text()) if listed.is_file() else {}
    old_dynamics = "old_dynamics" in inspect.signature(OvercookedGridworld.__init__).parameters
    if old_dynamics:  # overcooked-ai's current source
        made[play(out, "old_dynamics_cramped_room", "cramped_room", 2, old_dynamics=True)] = {"rules": "old",
                                                                                             "games": 2}
        made[play(out, "old_dynamics_coordination_ring", "coordination_ring", 1, old_dynamics=True, seed=1)] = \
            {"rules": "old"}
    else:  # overcooked-ai 1.1.0
        made[play(out, "classic_two_games", "asymmetric_advantages", 2, seed=1)] = {"rules": "new", "games": 2}
        made[play(out, "new_rules_tomato", "cramped_room_tomato", 1, seed=2)] = {"rules": "new"}
        (out / "multi_recipe.layout").write_text(_layout_text(MULTI_RECIPE))
        made[play(out, "multi_recipe", MULTI_RECIPE, 2, seed=3)] = {"rules": "new", "games": 2,
                                                                     "grid": "multi_recipe.layout"}
    listed.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
