"""Rollouts of jaxmarl's OvercookedV2 for ``test_jaxmarl_v2.py``, made in their own process.

``python tests/jaxmarl_v2_rollouts.py OUTDIR`` plays a scripted policy (below) on several V2
layouts and options, writes each rollout with ``save_rollout`` and ``facts.json``: per rollout the
steps whose ``env.step_env`` state flags ``new_correct_delivery``, and what the in-memory reader
and ``start_problem`` give. ``... OUTDIR NAME ...`` plays only the rollouts named (the manual's
example plays ``clue``). ``... OUTDIR --every-layout SEED`` plays and checks every V2 layout
(:func:`every_layout`; the README's wider check). The tests run it as a subprocess so that pytest's own process never
imports jax: jax is multithreaded, and other tests fork (``evaluate --jobs``).

The policy: each agent picks a sub-goal from the state (a dish to the goal; a plate to a cooked
pot; an ingredient the recipe it believes in still needs, else into any pot that takes it, which
makes wrong dishes; with empty hands: start a pot under ``start_cooking_interaction``, fetch a
plate for a cooking pot, or the next needed ingredient), and walks there by breadth-first search
around the other agent, then turns to face the tile and interacts. It believes the recipe it saw
on an indicator in its view (until the next delivery may redraw it), else a guessed one; now and
then it acts at random or starts a pot early. A ``signaller`` only lights the button (now and then, or
once); a ``patient`` cook waits until it has seen the recipe.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, deque
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jaxmarl
import numpy as np

from strips_int import load_domain
from strips_int.errors import StripsIntError
from strips_int.grounders.jaxmarl import GROUNDER, rollout_trace, save_rollout

DOMAIN = Path(__file__).resolve().parents[1] / "domains" / "overcooked.pddl"
# OvercookedV2's codes (jaxmarl/environments/overcooked_v2/common.py).
EMPTY, WALL, GOAL, POT, INDICATOR, BUTTON, PLATE_PILE, PILE_BASE = 0, 1, 4, 5, 6, 7, 9, 10
PLATE, COOKED = 1, 2
VECTORS = ((0, -1), (0, 1), (1, 0), (-1, 0))  # by direction: up, down, right, left
MOVE = {(1, 0): 0, (0, 1): 1, (-1, 0): 2, (0, -1): 3}  # the action that turns and steps that way
STAY, INTERACT = 4, 5

#: The rollouts the tests check: name, layout, options, seed, steps, roles, noise.
ROLLOUTS = [
    ("recipes_redrawn", "cramped_room_v2", dict(negative_rewards=True, sample_recipe_on_delivery=True), 0, 1000,
     ("cook", "cook"), 0.1),
    ("button_clues", "grounded_coord_simple", dict(agent_view_size=2, start_cooking_interaction=True), 1, 1000,
     ("signaller", "cook"), 0.05),
    ("two_recipes", "asymm_advantages_recipes_center", dict(sample_recipe_on_delivery=True, agent_view_size=3), 2,
     1000, ("cook", "cook"), 0.1),
    ("random_resets", "counter_circuit", dict(random_reset=True, start_cooking_interaction=True,
                                              negative_rewards=True), 3, 1000, ("cook", "cook"), 0.1),
]
#: A short rollout with no noise: the signaller lights the button once, the cook reads it and cooks.
CLUE = ("clue", "grounded_coord_simple", dict(agent_view_size=2), 4, 80, ("signaller_once", "patient"), 0.0)


def kinds(code: int) -> list[int]:
    found, kind, code = [], 0, code >> 2
    while code:
        found += [kind] * (code & 3)
        code, kind = code >> 2, kind + 1
    return found


def fits(part: list[int], whole: tuple[int, ...]) -> bool:
    return not Counter(part) - Counter(whole)


class Policy:
    """The scripted policy of the module docstring, for one environment and episode."""

    def __init__(self, env, roles: tuple[str, ...], noise: float, seed: int) -> None:
        self.static = np.asarray(env.layout.static_objects)
        self.recipes = [tuple(sorted(r)) for r in env.layout.possible_recipes]
        self.view = env.agent_view_size
        self.cooking_interaction = bool(env.start_cooking_interaction)
        self.redraws = bool(env.sample_recipe_on_delivery)
        self.roles, self.noise = roles, noise
        self.rng = np.random.default_rng(seed)
        self.known: list[tuple[int, ...] | None] = [None] * len(roles)
        self.guess = [self.recipes[self.rng.integers(len(self.recipes))] for _ in roles]
        self.signalled = False
        height, width = self.static.shape
        self.tiles = {(x, y): int(self.static[y, x]) for y in range(height) for x in range(width)}

    def where(self, test) -> list[tuple[int, int]]:
        return [pos for pos, tile in self.tiles.items() if test(tile)]

    def act(self, state) -> list[int]:
        pos = [(int(x), int(y)) for x, y in zip(np.asarray(state.agents.pos.x), np.asarray(state.agents.pos.y))]
        facing = [int(d) for d in np.asarray(state.agents.dir)]
        held = [int(i) for i in np.asarray(state.agents.inventory)]
        grid = np.asarray(state.grid)
        items = {p: int(grid[p[1], p[0], 1]) for p in self.tiles}
        timers = {p: int(grid[p[1], p[0], 2]) for p in self.tiles}
        recipe = tuple(kinds(int(state.recipe)))
        for j, here in enumerate(pos):
            seen = [p for p, t in self.tiles.items() if (t == INDICATOR or (t == BUTTON and timers[p]))
                    and (self.view is None or max(abs(p[0] - here[0]), abs(p[1] - here[1])) <= self.view)]
            if seen:
                self.known[j] = recipe
        joint = []
        for j in range(len(pos)):
            targets = self.targets(j, held, items, timers)
            if self.rng.random() < self.noise:
                joint.append(int(self.rng.integers(6)))
            else:
                joint.append(self.route(pos[j], facing[j], [p for i, p in enumerate(pos) if i != j], targets))
        return joint

    def delivered(self) -> None:
        """After a delivery the recipe may be drawn again: what was seen is no longer known."""
        if self.redraws:
            self.known = [None] * len(self.known)

    def targets(self, j: int, held: list[int], items: dict, timers: dict) -> list[tuple[int, int]]:
        """The tiles agent ``j`` wants to interact with now (none: it stays)."""
        role, hand = self.roles[j], held[j]
        if role.startswith("signaller"):
            buttons = self.where(lambda t: t == BUTTON)
            self.signalled = self.signalled or any(timers[p] for p in buttons)
            if role == "signaller_once":
                return [] if self.signalled else buttons
            return [p for p in buttons if not timers[p]] if self.rng.random() < 0.3 else []
        if role == "patient" and self.known[j] is None:
            return []
        belief = self.known[j] or self.guess[j]
        pots = self.where(lambda t: t == POT)
        idle = [p for p in pots if not timers[p] and not items[p] & COOKED]
        counters = self.where(lambda t: t == WALL)
        if hand & COOKED:
            return self.where(lambda t: t == GOAL)
        if hand == PLATE:
            cooked = [p for p in pots if items[p] & COOKED]
            return cooked or [p for p in pots if timers[p]] or [p for p in counters if not items[p]]
        if hand:
            takes = [p for p in idle if len(kinds(items[p])) < 3]
            return [p for p in takes if fits(kinds(items[p]) + kinds(hand), belief)] or takes
        if self.cooking_interaction:
            start = [p for p in idle if items[p] and (fits(belief, kinds(items[p])) or not fits(kinds(items[p]), belief)
                                                       or self.rng.random() < 0.01)]
            if start:
                return start
        if any(timers[p] or items[p] & COOKED for p in pots) and PLATE not in held:
            return self.where(lambda t: t == PLATE_PILE) + [p for p in counters if items[p] == PLATE]
        needed: Counter = Counter()
        for p in idle:
            inside = kinds(items[p])
            needed += Counter(belief) - Counter(inside) if fits(inside, belief) else Counter(range(3))
        return self.where(lambda t: t >= PILE_BASE and t - PILE_BASE in needed)

    def route(self, start, facing: int, others: list, targets: list) -> int:
        """The action toward interacting with one of ``targets``: interact, turn to face it, or a step."""
        target_set = set(targets)
        for d, (dx, dy) in enumerate(VECTORS):
            if (start[0] + dx, start[1] + dy) in target_set:
                return INTERACT if d == facing else MOVE[(dx, dy)]
        if not targets:
            return STAY
        first = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if any((here[0] + dx, here[1] + dy) in target_set for dx, dy in VECTORS):
                while first[here] is not None and first[here] != start:
                    here = first[here]
                return MOVE[(here[0] - start[0], here[1] - start[1])]
            for dx, dy in VECTORS:
                near = (here[0] + dx, here[1] + dy)
                if self.tiles.get(near) == EMPTY and near not in first and near not in others:
                    first[near] = here
                    queue.append(near)
        return int(self.rng.integers(6))


class LogState(NamedTuple):
    """A state as jaxmarl's ``LogWrapper`` keeps it (``LogEnvState``; the wrapper itself needs ``six``)."""

    env_state: Any


def play(name: str, layout: str, options: dict, seed: int, steps: int, roles, noise: float, out: Path) -> dict:
    """One rollout saved to ``out/NAME.npz``; its flags, rewards and (for the clue) the in-memory trace's steps."""
    env = jaxmarl.make("overcooked_v2", layout=layout, max_steps=steps, **options)

    @jax.jit
    def turn(key, state, joint, first):
        """``env.step`` (at the end it resets to ``first``: a random reset compiles once) and the flag of the
        state before that reset."""
        acts = dict(zip(env.agents, joint))
        _, after, reward, _, _ = env.step(key, state, acts, reset_state=first)
        return after, reward[env.agents[0]], env.step_env(key, state, acts)[1].new_correct_delivery

    policy = Policy(env, roles, noise, seed)
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    _, state = jax.jit(env.reset)(sub)
    states, actions, rewards, flags = [state], [], [], []
    for _ in range(steps):
        joint = policy.act(state)
        key, sub = jax.random.split(key)
        state, reward, correct = turn(sub, state, jax.numpy.asarray(joint, dtype=jax.numpy.int32), states[0])
        if bool(correct):
            policy.delivered()
        states.append(state)
        actions.append(joint)
        rewards.append(float(reward))
        flags.append(bool(correct))
    save_rollout(out / f"{name}.npz", env, states, actions, rewards)
    facts = {"flags": [t for t, flag in enumerate(flags) if flag], "rewards": rewards}
    if name == CLUE[0]:
        # jaxmarl's LogWrapper passes the env's attributes through and keeps its state as ``env_state``
        save_rollout(out / f"{name}_wrapped.npz", env, [LogState(s) for s in states], actions, rewards)
        domain = load_domain(DOMAIN)
        as_dicts = [dict(zip(env.agents, joint)) for joint in actions]
        trace = rollout_trace(states, as_dicts, [{a: r for a in env.agents} for r in rewards], env, domain)
        facts["memory_steps"] = [str(step.action) for step in trace.steps]
    return facts


def main(out: Path, names: list[str]) -> None:
    """The rollouts named (all without names) and their ``facts.json``; with all, also what ``start_problem``
    gives."""
    facts: dict[str, Any] = {name: play(name, layout, options, seed, steps, roles, noise, out)
                             for name, layout, options, seed, steps, roles, noise in [*ROLLOUTS, CLUE]
                             if not names or name in names}
    if not names:
        facts["start"] = start_facts()
    (out / "facts.json").write_text(json.dumps(facts))


def start_facts() -> dict[str, Any]:
    """What ``start_problem`` gives for a V2 layout and recipe, and for a layout jaxmarl does not have."""
    domain = load_domain(DOMAIN)
    start = GROUNDER.start_problem("jaxmarl_v2:fun_coordination", domain, recipe=(1, 3, 1))
    return {
        "name": start.name,
        "goal": sorted(" ".join(f) for f in start.goal),
        "order": sorted(" ".join(f) for f in start.init if f[0] == "order"),
        "recipes": sorted(o for o, t in start.objects.items() if t == "recipe"),
        "unknown": unknown_layout_error(domain),
    }


def unknown_layout_error(domain) -> str:
    """The error ``start_problem`` raises for an OvercookedV2 layout jaxmarl does not have."""
    try:
        GROUNDER.start_problem("jaxmarl_v2:grounded_coord_simpel", domain)
    except StripsIntError as exc:
        return str(exc)
    raise AssertionError("an unknown OvercookedV2 layout gave a problem")


def every_layout(out: Path, seed: int) -> None:
    """The policy on every ``overcooked_v2_layouts`` layout for 1,000 steps, options drawn at random (a
    button-lighting partner half the time where there is a button), each rollout read back: one line
    each, whether its goal delivery steps are the flagged ones, then the totals."""
    from jaxmarl.environments.overcooked_v2.layouts import overcooked_v2_layouts

    from strips_int import analyze
    from strips_int.grounders.jaxmarl import read_rollout

    rng, domain, totals = np.random.default_rng(seed), load_domain(DOMAIN), Counter()
    for name, layout in sorted(overcooked_v2_layouts.items()):
        options = dict(random_reset=bool(rng.random() < .4), start_cooking_interaction=bool(rng.random() < .5),
                       negative_rewards=bool(rng.random() < .5), sample_recipe_on_delivery=bool(rng.random() < .6),
                       agent_view_size=[None, 2, 3][rng.integers(3)])
        roles = ("cook",) * len(layout.agent_positions)
        if len(roles) == 2 and (np.asarray(layout.static_objects) == BUTTON).any() and rng.random() < .5:
            roles = ("signaller", "cook")
        flags = play(name, name, options, seed, 1000, roles, 0.1, out)["flags"]
        trace = read_rollout(out / f"{name}.npz", domain)
        analyze(domain, trace)
        goal = {fact[1] for fact in trace.problem.goal}
        agree = sorted({s.t for s in trace.steps if s.action.name == "deliver" and s.action.args[1] in goal}) == flags
        meta = trace.meta
        totals.update(rollouts=1, agree=agree, correct=meta["correct_deliveries"], wrong=meta["wrong_deliveries"],
                      activations=meta["activations"])
        print(name, options, roles, "agrees" if agree else "DIFFERS", meta["correct_deliveries"],
              meta["wrong_deliveries"], meta["activations"], flush=True)
    print(dict(totals))


if __name__ == "__main__":
    if sys.argv[2:3] == ["--every-layout"]:
        every_layout(Path(sys.argv[1]), int(sys.argv[3]))
    else:
        main(Path(sys.argv[1]), sys.argv[2:])
