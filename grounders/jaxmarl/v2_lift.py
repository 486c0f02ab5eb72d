"""OvercookedV2 rollouts lifted into ``domains/overcooked.pddl``, and V2 layouts as planning problems.

Each step of a rollout is replayed under V2's rules (:mod:`.v2_kitchen`) from the state before
it; the next recorded state must be what the rules give (the recipe aside, drawn again at random
after a correct delivery under ``sample_recipe_on_delivery``: it must be a possible one), the
logged reward what they pay, and ``new_correct_delivery`` what they flag. What the step did
becomes the domain's actions, and every object keeps its identity from pile to delivery. The
goal is the soups delivered as the recipe then asked (definitions section 11): a wrong dish reaches no goal.

What an agent knows of the recipe (definitions sections 3-6 see it as facts, like a Hanabi clue):
every agent knows the recipe of a layout with one possible recipe from the start; otherwise an
agent learns it by reading a recipe indicator in its view (its ``agent_view_size`` window,
the whole grid without one), or a button indicator while lit, on the first state it can see
one since the recipe was last drawn (a plain indicator first: it would have shown the recipe
anyway), and keeps it until the next draw. An ingredient that agent then puts into a pot, when
the known recipe still needs it there, is put in by ``start-soup-informed``/
``add-ingredient-informed``, whose preconditions hold the knowledge: so a partner who lit the
button (``activate``) gives the reader ``(lit b)``, an interdependence, and it is goal-reaching
when the soup so informed is delivered as the recipe. Choices: an agent is taken to remember
what it read (a policy without memory may not); an interaction with an idle full pot that
starts it without ``start_cooking_interaction`` (only a reset can leave one) is lifted as the
environment's ``auto-cook``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain
from strips_int.model.execution import apply
from strips_int.model.problem import make_problem
from strips_int.model.task import Fact, GroundAction, Problem
from strips_int.model.trace import ActionGrounder, Attempt, Step, Trace

from ..base import check_actions
from ..overcooked.lift import agent_name, cell
from .v2_kitchen import (BUTTON, COOKED, EMPTY, GOAL, INDICATOR, INTERACT, MOVE_DIRECTION, PILE_BASE, PLATE,
                         PLATE_PILE, POT, VECTORS, WALL, Event, Kitchen, KitchenState, Pos, RuleError, Transition,
                         V2Layout, describe, kinds, recipe_code)
from .v2_rollout import Episode

#: The action schemas the V2 lifter produces (checked against the domain before a rollout is read).
V2_ACTIONS = frozenset({"move", "take", "take-ingredient", "take-dish", "put", "start-soup", "add-ingredient",
                        "start-soup-informed", "add-ingredient-informed", "start-cooking", "auto-cook",
                        "finish-cooking", "plate-soup", "deliver", "activate", "button-off", "read-recipe",
                        "read-button", "draw-recipe"})
_NUMS = ("n0", "n1", "n2", "n3")
#: Station type and object-name prefix by tile code (ingredient piles: every code from PILE_BASE).
_STATIONS = {WALL: ("counter", "counter"), GOAL: ("window", "window"), POT: ("pot", "pot"),
             INDICATOR: ("indicator", "indicator"), BUTTON: ("button", "button"),
             PLATE_PILE: ("dish-dispenser", "dish")}
_PILE = ("ingredient-dispenser", "pile")


def station_kind(tile: int) -> tuple[str, str] | None:
    """The station type and name prefix of a tile code, None for floor."""
    return _PILE if tile >= PILE_BASE else _STATIONS.get(tile)


def station(pos: Pos, tile: int) -> str:
    kind = station_kind(tile)
    assert kind is not None
    return f"{kind[1]}{pos[0]}_{pos[1]}"


def kind_name(kind: int) -> str:
    return f"k{kind}"


def recipe_name(recipe: tuple[int, ...]) -> str:
    return "recipe" + "_".join(map(str, recipe))


def in_view(viewer: Pos, seen: Pos, view: int | None) -> bool:
    """Whether an agent at ``viewer`` sees ``seen``: the whole grid, or its window of ``view`` cells each way."""
    return view is None or (abs(viewer[0] - seen[0]) <= view and abs(viewer[1] - seen[1]) <= view)


def v2_terrain(layout: V2Layout, view: int | None, auto_cook: bool) -> tuple[dict[str, str], set[Fact]]:
    """The objects (cells, stations, ingredient kinds, possible recipes) and static facts of a V2 layout."""
    objects: dict[str, str] = {}
    static: set[Fact] = {("succ", a, b) for a, b in zip(_NUMS, _NUMS[1:])}
    floor = [pos for pos in layout.positions() if layout.tile(pos) == EMPTY]
    shows = []  # indicators and buttons, by position
    used = {kind for recipe in layout.recipes for kind in recipe}
    for pos in layout.positions():
        tile = layout.tile(pos)
        kind = station_kind(tile)
        if kind is None:
            objects[cell(pos)] = "cell"
            continue
        name = station(pos, tile)
        objects[name] = kind[0]
        if tile >= PILE_BASE:
            used.add(tile - PILE_BASE)
            static.add(("dispenses", name, kind_name(tile - PILE_BASE)))
        elif tile in (INDICATOR, BUTTON):
            shows.append((pos, name))
    floor_set = set(floor)
    for x, y in floor:
        for dx, dy in ((0, -1), (0, 1), (1, 0), (-1, 0)):
            near = (x + dx, y + dy)
            tile = layout.tile(near)
            if near in floor_set:
                static.add(("adjacent", cell((x, y)), cell(near)))
            elif tile is not None and station_kind(tile) is not None:
                static.add(("next-to", cell((x, y)), station(near, tile)))
        static |= {("in-view", cell((x, y)), name) for pos, name in shows if in_view((x, y), pos, view)}
    objects.update({kind_name(kind): "kind" for kind in used})
    for recipe in layout.recipes:
        objects[recipe_name(recipe)] = "recipe"
        static |= {("needs", recipe_name(recipe), kind_name(kind)) for kind in recipe}
    if auto_cook:
        static.add(("auto-cook",))
    return objects, static


class _Objects:
    """The lifted game's objects as it goes: names by kind, who holds what, what lies where, soups' contents."""

    def __init__(self, objects: dict[str, str]) -> None:
        self.types = objects
        self.counts: Counter[str] = Counter()
        self.hands: dict[int, str | None] = {}
        self.on: dict[Pos, str] = {}
        self.pots: dict[Pos, str] = {}
        self.contents: dict[str, list[int]] = {}

    def new(self, prefix: str, kind: str) -> str:
        self.counts[prefix] += 1
        name = f"{prefix}{self.counts[prefix]}"
        self.types[name] = kind
        return name


class _V2Lifter:
    """One rollout's grounding: the initial state, then one replayed step at a time."""

    def __init__(self, episode: Episode, domain: Domain) -> None:
        self.episode, self.domain, self.source = episode, domain, episode.source
        options, layout = episode.options, episode.layout
        cooking_interaction = options["start_cooking_interaction"]
        self.kitchen = Kitchen(layout.static, cooking_interaction, options["negative_rewards"])
        self.view: int | None = options["agent_view_size"]
        self.redraws: bool = bool(options.get("sample_recipe_on_delivery"))
        objects, self.static = v2_terrain(layout, self.view, not cooking_interaction)
        objects.update(domain.constants)
        self.objects = _Objects(objects)
        self.grounder = ActionGrounder(domain, None, self.source, objects=objects)
        self.init: set[Fact] = set()
        self.state: set[Fact] = set()
        self.actions: list = []
        self.times: list[int] = []
        #: The choices that changed nothing (definitions section 13), in time order.
        self.attempts: list[Attempt] = []
        self.agents = [agent_name(j) for j in range(len(layout.starts))]
        self.recipes = {recipe_code(r): r for r in layout.recipes}
        #: The recipe code each agent knows (None: none since the last draw).
        self.knows: list[int | None] = [None] * len(self.agents)
        self.goal: list[str] = []
        #: The recipe codes of the episode: the first state's, then each one drawn.
        self.drawn: list[int] = []
        self.tally: Counter[str] = Counter()
        self.indicators = [(pos, station(pos, tile)) for pos in layout.positions()
                           if (tile := layout.tile(pos)) in (INDICATOR, BUTTON)]

    def fail(self, where: str, message: str) -> StripsIntError:
        return StripsIntError(self.source, where, message)

    # -- the initial state ---------------------------------------------------------------

    def _existing(self, code: int, in_pot: bool = False) -> str:
        """An object the first state shows (not fresh): a plate, an ingredient, or a soup of its ingredients
        (whatever is in a pot)."""
        if code == PLATE:
            return self.objects.new("dish", "dish")
        parts = kinds(code)
        if len(parts) == 1 and not code & (PLATE | COOKED) and not in_pot:
            return self._ingredient(parts[0], fresh=False)
        soup = self.objects.new("soup", "soup")
        self.objects.contents[soup] = list(parts)
        self.init.add(("size", soup, _NUMS[len(parts)]))
        self.init |= {("in-soup", self._ingredient(kind, fresh=False), soup) for kind in parts}
        if code & COOKED:
            self.init.add(("ready", soup))
        if code & PLATE:
            self.init.add(("plated", soup))
        return soup

    def _ingredient(self, kind: int, fresh: bool) -> str:
        """A new ingredient of ``kind`` (a kind no pile gives and no recipe needs is declared on first sight)."""
        name = self.objects.new(f"ing{kind}_", "ingredient")
        self.objects.types.setdefault(kind_name(kind), "kind")
        facts = {("of-kind", name, kind_name(kind))} | ({("fresh", name)} if fresh else set())
        self.init |= facts
        self.state |= facts
        return name

    def _fresh(self, prefix: str, kind: str) -> str:
        """A new object from a pile or an empty pot: fresh from the initial state until now."""
        name = self.objects.new(prefix, kind)
        self.init.add(("fresh", name))
        self.state.add(("fresh", name))
        return name

    def build_init(self, first: KitchenState) -> None:
        layout, objects = self.episode.layout, self.objects
        for j, agent in enumerate(first.agents):
            name, here = self.agents[j], cell(agent.pos)
            objects.types[name] = "agent"
            self.init |= {("at", name, here), ("occupied", here)}
            objects.hands[j] = self._existing(agent.held) if agent.held else None
            self.init.add(("holding", name, objects.hands[j]) if agent.held else ("hand-empty", name))
        for pos in layout.positions():
            tile = layout.tile(pos)
            code = first.items.get(pos, 0)
            if tile == WALL:
                if code:
                    objects.on[pos] = self._existing(code)
                self.init.add(("on", objects.on[pos], station(pos, tile)) if code else ("empty", station(pos, tile)))
            elif tile == POT:
                if code:
                    soup = objects.pots[pos] = self._existing(code, in_pot=True)
                    self.init.add(("in-pot", soup, station(pos, tile)))
                    if first.timers.get(pos):
                        self.init.add(("cooking", soup))
                else:
                    self.init.add(("pot-empty", station(pos, tile)))
            elif tile == BUTTON and first.timers.get(pos):
                self.init.add(("lit", station(pos, tile)))
        self.init.add(("order", recipe_name(self.recipes[first.recipe])))
        self.drawn.append(first.recipe)
        if len(self.recipes) == 1:  # the only possible recipe: known without looking
            self.init |= {("knows", name, recipe_name(self.recipes[first.recipe])) for name in self.agents}
            self.knows = [first.recipe] * len(self.agents)
        self.state |= self.init | self.static

    # -- steps ---------------------------------------------------------------------------

    def ground(self, atom: Fact, t: int) -> GroundAction:
        """``atom`` of step ``t`` grounded, an error naming this rollout."""
        try:
            return self.grounder.ground(atom, f"step {t}")
        except StripsIntError as exc:
            raise StripsIntError(self.source, exc.where, exc.message) from None

    def do(self, atom: Fact, t: int) -> None:
        """Ground ``atom`` of step ``t``, apply it to the state (it must be applicable) and record it."""
        action = self.ground(atom, t)
        failure = apply(self.state, action)
        if failure:
            raise self.fail(f"step {t}", f"the domain does not follow OvercookedV2 here: {failure}")
        self.actions.append(action)
        self.times.append(t)

    def read(self, state: KitchenState, t: int) -> None:
        """Each agent that does not know the recipe reads it off an indicator it sees in ``state``, if any."""
        recipe = recipe_name(self.recipes[state.recipe])
        for j, agent in enumerate(state.agents):
            if self.knows[j] == state.recipe:
                continue
            seen = [(pos, name) for pos, name in self.indicators if in_view(agent.pos, pos, self.view)]
            plain = [name for pos, name in seen if self.kitchen.tile(pos) == INDICATOR]
            lit = [name for pos, name in seen if self.kitchen.tile(pos) == BUTTON and state.timers.get(pos)]
            if plain:
                self.do(("read-recipe", self.agents[j], plain[0], recipe, cell(agent.pos)), t)
            elif lit:
                self.do(("read-button", self.agents[j], lit[0], recipe, cell(agent.pos)), t)
            else:
                continue
            self.knows[j] = state.recipe

    def event(self, event: Event, before: KitchenState, after: KitchenState, t: int) -> None:
        """The action of one event of step ``t`` (``after``: the state the rules give)."""
        objects, what, at = self.objects, event.what, event.at
        if what in ("cooked", "auto", "off"):
            name = station(at, self.kitchen.tile(at))
            self.do(("button-off", name) if what == "off" else
                    ("finish-cooking" if what == "cooked" else "auto-cook", objects.pots[at], name), t)
            return
        j = event.agent
        assert j is not None
        agent = self.agents[j]
        if what == "move":
            self.do(("move", agent, cell(event.origin), cell(at)), t)
            return
        here, place, held = cell(after.agents[j].pos), station(at, self.kitchen.tile(at)), objects.hands[j]
        self.tally[what] += 1
        if what == "pile":
            if event.code == PLATE:
                objects.hands[j] = self._fresh("dish", "dish")
                self.do(("take-dish", agent, objects.hands[j], place, here), t)
            else:
                kind = kinds(event.code)[0]
                objects.hands[j] = self._ingredient(kind, fresh=True)
                self.do(("take-ingredient", agent, objects.hands[j], place, kind_name(kind), here), t)
        elif what == "take":
            objects.hands[j] = objects.on.pop(at)
            self.do(("take", agent, objects.hands[j], place, here), t)
        elif what == "put":
            objects.on[at], objects.hands[j] = held, None
            self.do(("put", agent, held, place, here), t)
        elif what == "place":
            self._place(j, event, before, place, here, t)
        elif what == "start":
            self.do(("start-cooking", agent, objects.pots[at], place, here), t)
        elif what == "plate":
            objects.hands[j] = soup = objects.pots.pop(at)
            self.do(("plate-soup", agent, held, soup, place, here), t)
        elif what == "deliver":
            objects.hands[j] = None
            self.do(("deliver", agent, held, place, here), t)
            if event.code == before.recipe | PLATE | COOKED:
                self.goal.append(held)
                self.tally["correct"] += 1
        elif what == "activate":
            self.do(("activate", agent, place, here), t)

    def _place(self, j: int, event: Event, before: KitchenState, place: str, here: str, t: int) -> None:
        """An ingredient into a pot: informed when the agent knows the recipe and the recipe still needs it."""
        objects, agent, item = self.objects, self.agents[j], self.objects.hands[j]
        kind = kinds(event.code)[0]
        soup = objects.pots.get(event.at)
        size = 0 if soup is None else len(objects.contents[soup])
        wanted = Counter(self.recipes[before.recipe])
        informed = self.knows[j] == before.recipe and not Counter(
            [*(objects.contents[soup] if soup else []), kind]) - wanted
        extra = (recipe_name(self.recipes[before.recipe]), kind_name(kind)) if informed else ()
        suffix = "-informed" if informed else ""
        if soup is None:
            soup = objects.pots[event.at] = self._fresh("soup", "soup")
            objects.contents[soup] = []
            self.do((f"start-soup{suffix}", agent, item, soup, place, here, *extra), t)
        else:
            self.do((f"add-ingredient{suffix}", agent, item, soup, place, here, _NUMS[size], _NUMS[size + 1], *extra), t)
        objects.contents[soup].append(kind)
        objects.hands[j] = None
        self.tally["informed" if informed else "uninformed"] += 1

    def lift(self) -> Problem:
        """The problem; the steps in ``self.actions`` and ``self.times``."""
        episode = self.episode
        states, actions, rewards = episode.states, episode.actions, episode.rewards
        self.build_init(states[0])
        for t, joint in enumerate(actions):
            before = states[t]
            self.read(before, t)
            try:
                step = self.kitchen.step(before, joint)
            except RuleError as exc:
                raise self.fail(f"step {t}", str(exc)) from None
            recorded = states[t + 1] if t + 1 < len(states) else None
            if recorded is not None:
                self._compare(t, step.state, recorded)
            if abs(step.reward - rewards[t]) > 1e-4:
                raise self.fail(f"step {t}", f"logged reward {rewards[t]:g}, but under OvercookedV2's rules the step "
                                f"pays {step.reward:g} ({self._paid(step.events, before)})")
            on, hands = dict(self.objects.on), list(self.objects.hands)
            for event in step.events:
                self.event(event, before, step.state, t)
            self._attempts(t, joint, before, step, on, hands)
            if recorded is not None and step.state.correct and self.redraws:
                old, new = (recipe_name(self.recipes[r]) for r in (before.recipe, recorded.recipe))
                self.do(("draw-recipe", old, new), t)
                self.drawn.append(recorded.recipe)
                if len(self.recipes) > 1:  # (the only possible recipe stays known)
                    self.knows = [None] * len(self.agents)
        self._spares()
        goal = [("delivered", soup) for soup in self.goal]
        layout = episode.layout
        return make_problem(self.domain, f"overcooked-v2-{layout.name}", self.objects.types, self.init | self.static,
                            goal, self.source)

    def _attempts(self, t: int, joint: tuple[int, ...], before: KitchenState, step: Transition,
                  on: dict[Pos, str], hands: list[str | None]) -> None:
        """The attempts of step ``t`` (definitions sections 11 and 13; ``on`` and ``hands``: what lay on the
        counters and in the hands before it): a move to a floor cell that left its agent where it stood
        (cells that coincide, or a swap: V2 refuses both), and an interaction with a counter that did nothing
        because another agent took what lay there, or filled it, earlier in the step. A wait, a move into a
        wall and any other interaction that did nothing are none."""
        acted = {event.agent for event in step.events}
        kitchen = self.kitchen
        for j, (action, agent, after) in enumerate(zip(joint, before.agents, step.state.agents)):
            atom: Fact | None = None
            if action < len(MOVE_DIRECTION) and after.pos == agent.pos:
                dx, dy = VECTORS[MOVE_DIRECTION[action]]
                x, y = agent.pos[0] + dx, agent.pos[1] + dy
                if 0 <= x < kitchen.width and 0 <= y < kitchen.height and kitchen.static[y][x] == EMPTY:
                    atom = ("move", self.agents[j], cell(agent.pos), cell((x, y)))
            elif action == INTERACT and j not in acted:
                dx, dy = VECTORS[agent.facing]
                at = (agent.pos[0] + dx, agent.pos[1] + dy)
                if kitchen.tile(at) == WALL and any(e.at == at and e.agent not in (None, j)
                                                     and e.what in ("take", "put") for e in step.events):
                    place, here, held = station(at, WALL), cell(agent.pos), hands[j]
                    if held is None and at in on:
                        atom = ("take", self.agents[j], on[at], place, here)
                    elif held is not None and at not in on:
                        atom = ("put", self.agents[j], held, place, here)
            if atom is not None:
                self.attempts.append(Attempt(len(self.attempts), t, self.ground(atom, t)))

    def _spares(self) -> None:
        """One unused fresh object of each kind a pile gives (a plate, each ingredient kind), and a soup for an
        empty pot, so that triggers and required help see what the agents could still have fetched or started
        (definitions section 11; a soup is not dispensed, but starting one takes a fresh one in the domain)."""
        tiles = {tile for row in self.episode.layout.static for tile in row}
        if PLATE_PILE in tiles:
            self._fresh("dish", "dish")
        for tile in sorted(tiles):
            if tile >= PILE_BASE:
                self._ingredient(tile - PILE_BASE, fresh=True)
        if POT in tiles:
            self._fresh("soup", "soup")

    def _compare(self, t: int, given: KitchenState, recorded: KitchenState) -> None:
        """The recorded state after step ``t`` must be the one the rules give (a redrawn recipe aside)."""
        where = f"step {t}"
        lead = f"state {t + 1} does not follow from state {t} under OvercookedV2's rules:"
        for j, (mine, theirs) in enumerate(zip(given.agents, recorded.agents)):
            if mine != theirs:
                raise self.fail(where, f"{lead} agent {j} is at {theirs.pos} facing {theirs.facing} holding "
                                f"{describe(theirs.held)}; the rules give {mine.pos} facing {mine.facing} holding "
                                f"{describe(mine.held)}")
        for name, mine, theirs in (("objects", given.items, recorded.items), ("timers", given.timers, recorded.timers)):
            if mine != theirs:
                pos = min(set(mine.items()) ^ set(theirs.items()), key=lambda item: (item[0][1], item[0][0]))[0]
                shown = (lambda code: describe(code)) if name == "objects" else str
                raise self.fail(where, f"{lead} at {pos} the {name} show {shown(theirs.get(pos, 0))}; the rules give "
                                f"{shown(mine.get(pos, 0))}")
        if given.correct != recorded.correct:
            raise self.fail(where, f"{lead} new_correct_delivery is {recorded.correct}; the rules give {given.correct}")
        if recorded.recipe != given.recipe and not (given.correct and self.redraws):
            raise self.fail(where, f"{lead} the recipe changed to {describe(recorded.recipe)} without a correct "
                            "delivery under sample_recipe_on_delivery")
        if recorded.recipe not in self.recipes:
            raise self.fail(where, f"{lead} recipe code {recorded.recipe} is not a possible recipe")

    def _paid(self, events: tuple[Event, ...], before: KitchenState) -> str:
        """What a step's deliveries and activations were, for a reward message."""
        parts = [f"agent {e.agent} delivers {describe(e.code)} for recipe {describe(before.recipe)}"
                 for e in events if e.what == "deliver"]
        parts += [f"agent {e.agent} lights a button" for e in events if e.what == "activate"]
        return "; ".join(parts) or "no delivery, no button"


def lift_episode(episode: Episode, domain: Domain) -> Trace:
    """The problem and trace of one OvercookedV2 rollout, every step replayed under V2's rules."""
    check_actions(V2_ACTIONS, domain, "overcooked", episode.source)
    lifter = _V2Lifter(episode, domain)
    problem = lifter.lift()
    options, layout, tally = episode.options, episode.layout, lifter.tally
    meta: dict[str, Any] = {
        "format": "jaxmarl-v2-npz", "layout": layout.name, "terrain": layout.name, "rules": "v2",
        "reward": float(sum(episode.rewards)),
        "cooking": "interaction" if options["start_cooking_interaction"] else "auto",
        "view": "full" if lifter.view is None else lifter.view,
        "negative_rewards": options["negative_rewards"],
        "recipes": ",".join("+".join(map(str, lifter.recipes[r])) for r in lifter.drawn),
        "correct_deliveries": tally["correct"], "wrong_deliveries": tally["deliver"] - tally["correct"],
        "activations": tally["activate"], "informed_ingredients": tally["informed"],
        "options": options,
    }
    return Trace(source=episode.source, problem=problem, steps=Step.numbered(lifter.times, lifter.actions), meta=meta,
                 attempts=tuple(lifter.attempts))


def v2_layout_problem(layout: V2Layout, domain: Domain, soups: int = 1,
                      recipe: tuple[int, ...] | None = None) -> Problem:
    """A planning problem on a V2 layout: agents at their start cells, empty-handed, to deliver ``soups`` soups of
    the order ``recipe`` (default: the layout's first possible recipe; each possible one is a ``recipe`` object).

    Under V2's default rules: a pot cooks by itself at three ingredients, every agent sees the whole grid. Each
    soup gets exactly its recipe's ingredients and one plate, fresh, and the goal pins the ingredients in the
    soup, so only a soup of the order counts (as ``layout_problem`` does under overcooked-ai's new rules). Knowing
    the order is not asked of the plan: RC is about the physical task; what one agent tells another shows in
    the analysis of a rollout.
    """
    source = f"layout jaxmarl_v2:{layout.name}"
    order = tuple(sorted(recipe)) if recipe is not None else layout.recipes[0]
    if order not in layout.recipes:
        shown = ", ".join(",".join(map(str, r)) for r in layout.recipes)
        raise StripsIntError(source, "recipe", f"{','.join(map(str, order))} is not among its possible recipes: {shown}")
    if soups < 1:
        raise StripsIntError(source, "soups", f"need at least 1 soup, not {soups}")
    check_actions(V2_ACTIONS, domain, "overcooked", source)
    objects, init = v2_terrain(layout, None, True)
    for pos in layout.positions():
        tile = layout.tile(pos)
        if tile in (WALL, POT):
            init.add(("empty" if tile == WALL else "pot-empty", station(pos, tile)))
    agents = [agent_name(j) for j in range(len(layout.starts))]
    for name, pos in zip(agents, layout.starts):
        objects[name] = "agent"
        init |= {("at", name, cell(pos)), ("occupied", cell(pos)), ("hand-empty", name)}
    init.add(("order", recipe_name(order)))
    if len(layout.recipes) == 1:
        init |= {("knows", name, recipe_name(order)) for name in agents}
    made = _Objects(objects)
    goal: list[Fact] = []
    for _ in range(soups):
        soup, dish = made.new("soup", "soup"), made.new("dish", "dish")
        goal.append(("delivered", soup))
        init |= {("fresh", soup), ("fresh", dish)}
        for kind in order:
            part = made.new(f"ing{kind}_", "ingredient")
            init |= {("fresh", part), ("of-kind", part, kind_name(kind))}
            goal.append(("in-soup", part, soup))
    return make_problem(domain, f"overcooked-v2-{layout.name}", objects, init, goal, source)
