"""OvercookedV2's rules (jaxmarl 0.2), restated over plain values: one step of a kitchen and what it did.

Read from ``jaxmarl/environments/overcooked_v2/`` (``overcooked.py``: ``step_agents`` and
``process_interact``; ``common.py``; ``settings.py``) and restated here, so that a rollout is
checked without jax. One step:

1. Moves. Actions 0-3 are right, down, left, up: the agent turns that way and steps, unless the
   cell (clipped to the grid) is not floor. Agents whose new cells coincide stay where they were
   (again, until none coincide); then two agents that would swap cells both stay.
2. Interactions, agent 0 first, each on the grid the one before left, on the faced tile: a pile
   gives its plate or ingredient to an empty hand; a counter gives what lies on it to an empty
   hand and takes anything onto itself when empty; an idle pot (neither cooking nor cooked) takes
   an ingredient while it holds fewer than three; a cooked pot gives its soup to a plate; the goal
   takes any plated cooked soup, for 20 when it is exactly the recipe, else -20 under
   ``negative_rewards``, else 0; an empty hand lights a button indicator for 10 steps, at a cost
   of 5. A pot starts cooking (20 steps) when an interaction leaves it idle with three
   ingredients, or, under ``start_cooking_interaction`` instead, when an empty hand interacts with
   it idle and not empty. Anything else does nothing.
3. Timers: a cooking pot counts down and is cooked at 0; a lit button counts down to 0.
4. After a correct delivery, under ``sample_recipe_on_delivery``, the recipe is drawn again (at
   random: :mod:`.v2_lift` checks only that it is a possible one).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping, NamedTuple

Pos = tuple[int, int]

# common.StaticObject: the tiles.
EMPTY, WALL, GOAL, POT, INDICATOR, BUTTON, PLATE_PILE, PILE_BASE = 0, 1, 4, 5, 6, 7, 9, 10
# common.DynamicObject: the bits of a held or placed object; each ingredient kind has two bits (a count).
PLATE, COOKED, FIRST_INGREDIENT = 1, 2, 4
# settings.py
COOK_TIME, INDICATOR_TIME, DELIVERY_REWARD, ACTIVATION_COST = 20, 10, 20.0, 5.0
MAX_INGREDIENTS = 3
#: The largest object code: every bit of ten ingredient kinds, a plate and cooked.
MAX_CODE = (1 << 22) - 1
#: common.DIR_TO_VEC by common.Direction (up, down, right, left).
VECTORS: tuple[Pos, ...] = ((0, -1), (0, 1), (1, 0), (-1, 0))
DIRECTIONS = ("up", "down", "right", "left")
#: common.OvercookedActionsEnum (right, down, left, up, stay, interact): the direction of each move.
MOVE_DIRECTION = (2, 1, 3, 0)
STAY, INTERACT = 4, 5


def ingredient(kind: int) -> int:
    """The code of one ingredient of ``kind`` (``DynamicObject.ingredient``)."""
    return FIRST_INGREDIENT << 2 * kind


def kinds(code: int) -> tuple[int, ...]:
    """The ingredient kinds in an object code, sorted, each as often as it is in it (none in a negative code)."""
    found: list[int] = []
    code >>= 2
    kind = 0
    while code > 0:
        found += [kind] * (code & 3)
        code >>= 2
        kind += 1
    return tuple(found)


def recipe_code(recipe: tuple[int, ...]) -> int:
    """The code of a recipe's ingredients (``DynamicObject.get_recipe_encoding``)."""
    return sum(ingredient(kind) for kind in recipe)


def is_ingredient(code: int) -> bool:
    """``DynamicObject.is_ingredient``: ingredient bits and no plate (what a pot takes)."""
    return code >> 2 != 0 and not code & PLATE


def describe(code: int) -> str:
    """An object code in words, for messages (a code no object has by its number)."""
    if not 0 <= code <= MAX_CODE:
        return f"code {code}"
    if code == 0:
        return "nothing"
    if code == PLATE:
        return "a plate"
    what = "+".join(map(str, kinds(code))) or "no ingredient"
    if code & PLATE:
        return f"a dish of {what}" if code & COOKED else f"plate code {code}"
    return f"cooked soup {what}" if code & COOKED else f"ingredient {what}" if len(kinds(code)) == 1 else f"soup {what}"


@dataclass(frozen=True)
class V2Layout:
    """An OvercookedV2 layout: static tiles (rows of ``StaticObject`` codes), the agents' start cells and
    the possible recipes (each its ingredient kinds, sorted), one of which is drawn for an episode."""

    name: str
    static: tuple[tuple[int, ...], ...]
    starts: tuple[Pos, ...]
    recipes: tuple[tuple[int, ...], ...]

    def positions(self) -> list[Pos]:
        """Every position, row by row."""
        return [(x, y) for y, row in enumerate(self.static) for x in range(len(row))]

    def tile(self, pos: Pos) -> int | None:
        """The tile code at ``pos``, None off the grid."""
        x, y = pos
        return self.static[y][x] if 0 <= y < len(self.static) and 0 <= x < len(self.static[0]) else None


class Agent(NamedTuple):
    pos: Pos
    facing: int
    held: int


class KitchenState(NamedTuple):
    """What the rules read and write: agents, the objects on tiles and the tiles' timers (nonzero ones
    only, by position), the recipe's code and whether the step that led here delivered it."""

    agents: tuple[Agent, ...]
    items: Mapping[Pos, int]
    timers: Mapping[Pos, int]
    recipe: int
    correct: bool = False


class Event(NamedTuple):
    """One thing a step did, in the order it did it.

    ``what``: ``move`` (``origin`` to ``at``), ``pile`` (``code`` taken from the pile at ``at``),
    ``take``/``put`` (``code`` from/onto the counter), ``place`` (ingredient ``code`` into the pot),
    ``start`` (an agent starts the pot), ``auto`` (the pot starts by itself), ``plate`` (the pot's soup
    ``code`` onto a plate), ``deliver`` (dish ``code``), ``activate`` (a button), ``cooked`` (a pot's
    timer ran out), ``off`` (a button's did). ``agent`` is None for the last three and ``auto``.
    """

    what: str
    agent: int | None
    at: Pos
    code: int = 0
    origin: Pos | None = None


class Transition(NamedTuple):
    state: KitchenState
    events: tuple[Event, ...]
    reward: float


class RuleError(Exception):
    """A step the restated rules do not follow (the caller names the step)."""


@dataclass(frozen=True)
class Kitchen:
    """A layout's static tiles (rows of ``StaticObject`` codes) under an environment's options."""

    static: tuple[tuple[int, ...], ...]
    start_cooking_interaction: bool = False
    negative_rewards: bool = False

    @property
    def width(self) -> int:
        return len(self.static[0])

    @property
    def height(self) -> int:
        return len(self.static)

    def tile(self, pos: Pos) -> int:
        return self.static[pos[1]][pos[0]]

    def step(self, state: KitchenState, joint: tuple[int, ...]) -> Transition:
        """The state after ``joint`` (one action per agent) and the events and reward of the step; the
        recipe is left as it was (a redraw is random) and ``correct`` tells whether one was due."""
        events: list[Event] = []
        agents = self._move(state.agents, joint, events)
        items, timers = dict(state.items), dict(state.timers)
        reward, correct = 0.0, False
        for j, action in enumerate(joint):
            if action == INTERACT:
                held, paid, right = self._interact(j, agents[j], items, timers, state.recipe, events)
                agents[j] = agents[j]._replace(held=held)
                reward += paid
                correct = correct or right
        for pos in sorted(timers, key=lambda p: (p[1], p[0])):
            left = timers[pos] - 1
            if left > 0:
                timers[pos] = left
                continue
            del timers[pos]
            if self.tile(pos) == POT:
                items[pos] |= COOKED
                events.append(Event("cooked", None, pos))
            else:
                events.append(Event("off", None, pos))
        return Transition(KitchenState(tuple(agents), items, timers, state.recipe, correct), tuple(events), reward)

    def _move(self, agents: tuple[Agent, ...], joint: tuple[int, ...], events: list[Event]) -> list[Agent]:
        """Agents after the moves of ``joint``; each move that happened appended to ``events`` in an order in
        which every agent steps into a cell nobody stands in."""
        wanted, facing = [], []
        for agent, action in zip(agents, joint):
            if action >= len(MOVE_DIRECTION):
                wanted.append(agent.pos)
                facing.append(agent.facing)
                continue
            direction = MOVE_DIRECTION[action]
            dx, dy = VECTORS[direction]
            x = min(max(agent.pos[0] + dx, 0), self.width - 1)
            y = min(max(agent.pos[1] + dy, 0), self.height - 1)
            wanted.append((x, y) if self.static[y][x] == EMPTY else agent.pos)
            facing.append(direction)
        origin = [agent.pos for agent in agents]
        if wanted == origin:  # nobody steps (hot: most steps of most agents)
            return [Agent(a.pos, d, a.held) for a, d in zip(agents, facing)]
        stay = [False] * len(agents)
        where = wanted
        while len(set(where)) < len(where):
            counts = Counter(where)
            stay = [s or counts[p] > 1 for s, p in zip(stay, where)]
            where = [o if s else w for o, w, s in zip(origin, wanted, stay)]
        pairs = range(len(agents))
        swapped = [any(i != j and where[i] == origin[j] and where[j] == origin[i] for j in pairs) for i in pairs]
        final = [o if s else w for o, w, s in zip(origin, where, swapped)]
        pending = [j for j in pairs if final[j] != origin[j]]
        taken = set(origin)
        while pending:
            j = next((j for j in pending if final[j] not in taken), None)
            if j is None:
                raise RuleError(f"agents {', '.join(map(str, pending))} move round in a cycle, which no order of "
                                "single moves makes")
            pending.remove(j)
            taken.discard(origin[j])
            taken.add(final[j])
            events.append(Event("move", j, final[j], origin=origin[j]))
        return [Agent(f, d, a.held) for a, f, d in zip(agents, final, facing)]

    def _interact(self, j: int, agent: Agent, items: dict[Pos, int], timers: dict[Pos, int], recipe: int,
                  events: list[Event]) -> tuple[int, float, bool]:
        """Agent ``j``'s interaction (``process_interact``) on ``items`` and ``timers`` in place: what it then
        holds, the reward and whether it delivered the recipe."""
        dx, dy = VECTORS[agent.facing]
        at = (agent.pos[0] + dx, agent.pos[1] + dy)
        if not (0 <= at[0] < self.width and 0 <= at[1] < self.height):
            raise RuleError(f"agent {j} interacts facing {at}, off the grid (jax's clamped indexing is not restated)")
        tile, here, held = self.tile(at), items.get(at, 0), agent.held
        if tile == PLATE_PILE or tile >= PILE_BASE:
            if held:
                return held, 0.0, False
            code = PLATE if tile == PLATE_PILE else ingredient(tile - PILE_BASE)
            events.append(Event("pile", j, at, code))
            return code, 0.0, False
        if tile == WALL:
            if here and not held:
                del items[at]
                events.append(Event("take", j, at, here))
                return here, 0.0, False
            if held and not here:
                items[at] = held
                events.append(Event("put", j, at, held))
                return 0, 0.0, False
            return held, 0.0, False
        if tile == GOAL:
            if not held & COOKED:
                return held, 0.0, False
            events.append(Event("deliver", j, at, held))
            right = held == recipe | PLATE | COOKED
            return 0, DELIVERY_REWARD if right else -DELIVERY_REWARD if self.negative_rewards else 0.0, right
        if tile == BUTTON:
            if held:
                return held, 0.0, False
            timers[at] = INDICATOR_TIME
            events.append(Event("activate", j, at))
            return 0, -ACTIVATION_COST, False
        if tile != POT:
            return held, 0.0, False
        idle = not timers.get(at) and not here & COOKED
        if here & COOKED and held == PLATE:
            del items[at]
            events.append(Event("plate", j, at, here))
            return here | PLATE, 0.0, False
        if idle and is_ingredient(held) and len(kinds(here)) < MAX_INGREDIENTS:
            items[at] = here = here + held
            events.append(Event("place", j, at, held))
            held = 0
        elif idle and here and not held and self.start_cooking_interaction:
            timers[at] = COOK_TIME
            events.append(Event("start", j, at))
            return 0, 0.0, False
        if idle and not self.start_cooking_interaction and len(kinds(here)) == MAX_INGREDIENTS:
            timers[at] = COOK_TIME
            events.append(Event("auto", None, at))
        return held, 0.0, False
