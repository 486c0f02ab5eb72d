"""Lift a recorded Overcooked game into a problem and a trace of ``domains/overcooked.pddl``.

Each player's action is inferred from consecutive states (the logged action is
only a cross-check: a blocked move does nothing); objects keep their identity
from dispenser to delivery; simultaneous actions are serialized in the first
player order that is applicable (Overcooked resolves interactions in player
order); cooking is environment steps, each checked against the rules (who
starts a pot, and after how many steps a soup is ready). The goal is the set of
soups whose delivery earned reward, checked against the logged reward
(:func:`rewarded_soups`). The rules are those that explain the game
(:func:`lift_game`, definitions section 11).

Choices: a game whose last action has no following state (the user-study
files) has that action grounded only when it is a delivery, the one action
whose effect the reward records. Orientation is not modelled.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from strips_int.model.domain import Domain
from strips_int.model.problem import make_problem
from strips_int.errors import StripsIntError
from strips_int.model.task import Fact, GroundAction, Problem
from strips_int.model.trace import ActionGrounder, Step, Trace
from strips_int.model.execution import apply

from .attempts import game_attempts
from .formats import INTERACT, Game, Item, Move, Pos, RawState
from .layouts import STATIONS, Layout
from .recipes import Recipe, Times, Values, every_recipe

#: The action schemas the lifter produces (checked against the domain before a game is read).
NEEDED_ACTIONS = frozenset({"move", "take", "take-onion", "take-tomato", "take-dish", "put", "start-soup", "add-ingredient",
                     "start-cooking", "auto-cook", "finish-cooking", "plate-soup", "deliver"})
_NUMS = ("n0", "n1", "n2", "n3")
#: The actions that change what lies on counters and in pots, and how many ingredients a pot holds.
_PLACING = frozenset({"take", "put", "start-soup", "add-ingredient", "plate-soup"})
_TAKE = {"onion-dispenser": ("take-onion", "onion"), "tomato-dispenser": ("take-tomato", "tomato"),
         "dish-dispenser": ("take-dish", "dish")}


def agent_name(seat: int) -> str:
    return f"player{seat}"


def cell(pos: Pos) -> str:
    return f"c{pos[0]}_{pos[1]}"


def station(layout: Layout, pos: Pos) -> str:
    kind = STATIONS[layout.tile(pos)]
    return f"{kind.split('-')[0]}{pos[0]}_{pos[1]}"


@functools.lru_cache(maxsize=64)
def _names(layout: Layout) -> tuple[Mapping[Pos, str], Mapping[Pos, str]]:
    """The :func:`cell` name of every position of ``layout`` and the :func:`station` name of every station, made
    once per layout (the lifter names them at every step)."""
    stations = {pos: station(layout, pos) for pos in layout.positions() if layout.tile(pos) in STATIONS}
    return MappingProxyType({pos: cell(pos) for pos in layout.positions()}), MappingProxyType(stations)


class _Move(NamedTuple):
    """A player's move to a neighbouring floor cell, grounded: its atom, its action and the step it takes."""

    atom: Fact
    action: GroundAction
    step: Pos


@functools.lru_cache(maxsize=64)
def _move_table(grounder: ActionGrounder, layout: Layout) -> dict[tuple[int, Pos, Pos], _Move]:
    """The plain moves (:func:`_plain_move`) ``grounder`` has grounded on ``layout``, by seat, from and to:
    the same in every game on it, so filled once per process."""
    return {}


@functools.lru_cache(maxsize=64)
def _vacant(layout: Layout) -> tuple[tuple[Pos, Fact], ...]:
    """Each counter's and pot's position and the fact that it is empty, in :meth:`Layout.positions` order."""
    return tuple((pos, ("empty" if layout.tile(pos) == "X" else "pot-empty", station(layout, pos)))
                 for pos in layout.positions() if layout.tile(pos) in ("X", "P"))


@dataclass
class _Checked:
    """What the lifter works out once per domain (kept in its ``cache``): whether nothing but moves changes
    where the players are, and the objects (name, type; lower case) and facts :func:`make_problem` passed.
    Names tell types (:func:`layout_grounder`), so what passed in one game passes in every game."""

    moves_alone: bool
    objects: set[tuple[str, str]] = field(default_factory=set)
    facts: set[Fact] = field(default_factory=set)


_POSITIONAL = frozenset({"at", "occupied", "adjacent"})


def _checked(domain: Domain) -> _Checked:
    return domain.cache.value(__name__, lambda: _Checked(all(
        pred not in _POSITIONAL for schema in domain.schemas.values() if schema.name != "move"
        for pred, _ in (*schema.add, *schema.delete))))


def _problem(domain: Domain, name: str, objects: dict[str, str], init: set[Fact], goal: list[Fact],
             source: str) -> Problem:
    """``make_problem(domain, name, objects, init, goal, source)``, checking only what did not pass before: none
    of it when all did (lower-case names stay as they are), else every object, the goal and the new facts
    (a bad fact is then the same first one)."""
    checked = _checked(domain)
    passed = checked.facts.issuperset
    if checked.objects.issuperset(objects.items()) and passed(init) and passed(goal):
        return Problem(name=name, objects={**domain.constants, **objects}, init=frozenset(init), goal=frozenset(goal),
                       source=source)
    problem = make_problem(domain, name, objects, [fact for fact in init if fact not in checked.facts], goal, source)
    checked.objects.update(pair for pair in objects.items() if pair == (pair[0].lower(), pair[1].lower()))
    checked.facts.update(init, goal)
    return Problem(name=name, objects=problem.objects, init=frozenset(init), goal=problem.goal, source=source)


def _plain_move(domain: Domain, action: GroundAction, agent: str, here: str, there: str) -> bool:
    """Whether ``action`` is the move of the packaged domain and nothing else in ``domain`` changes where the
    players are: then the positions alone tell when moves are applicable (see :meth:`_Lifter._lift`)."""
    return (_checked(domain).moves_alone and action.pre == {("at", agent, here), ("adjacent", here, there)}
            and action.neg_pre == {("occupied", there)} and action.add == {("at", agent, there), ("occupied", there)}
            and action.delete == {("at", agent, here), ("occupied", here)})


def _acted(i: int, j: int) -> str:
    """Where player ``j``'s action in transition ``i`` failed: built only for an error."""
    return f"step {i} (player {j})"


_MISSING = object()


class _Logged(dict):
    """A dict whose item assignments are logged while its tracker tries a player order
    (:meth:`_Tracker.checkpoint`), so that a failed order is undone entry by entry instead of a copy of
    every object ever made being taken for each try (which made long games quadratic). The tracker
    only assigns to these dicts, never deletes from them."""

    __slots__ = ("log",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.log: list[tuple[_Logged, Any, Any]] | None = None

    def __setitem__(self, key: Any, value: Any) -> None:
        if self.log is not None:
            self.log.append((self, key, self.get(key, _MISSING)))
        dict.__setitem__(self, key, value)


class _Checkpoint(NamedTuple):
    """A tracker as it was (:meth:`_Tracker.checkpoint`): the few live entries copied, the growing ones by
    their log and the length of ``created``."""

    holding: dict[int, str | None]
    counters: dict[Pos, str]
    pots: dict[Pos, str]
    due: list[str]
    created: int
    log: list[tuple[_Logged, Any, Any]]


@dataclass
class _Tracker:
    """Object identities as the game goes: who holds what, what lies where, each soup's progress."""

    holding: dict[int, str | None]
    counters: dict[Pos, str]
    pots: dict[Pos, str]
    size: dict[str, int] = field(default_factory=_Logged)
    status: dict[str, str] = field(default_factory=_Logged)
    kinds: dict[str, str] = field(default_factory=_Logged)
    created: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=_Logged)
    #: The transition in which each soup began cooking (soups cooking at the start are not in it).
    started: dict[str, int] = field(default_factory=_Logged)
    #: Old rules: the soups filled to three in this transition, which must start cooking in it.
    due: list[str] = field(default_factory=list)

    def new(self, kind: str) -> str:
        """A fresh object of ``kind`` (it starts (fresh) in the initial state)."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        name = f"{kind}{self.counts[kind]}"
        self.kinds[name] = kind
        self.created.append(name)
        return name

    def copy(self) -> _Tracker:
        """An independent copy (the lift's end adds the spares to one, so that an online analysis may go on)."""
        return _Tracker(dict(self.holding), dict(self.counters), dict(self.pots), _Logged(self.size),
                        _Logged(self.status), _Logged(self.kinds), list(self.created), _Logged(self.counts),
                        _Logged(self.started), list(self.due))

    def _growing(self) -> tuple[_Logged, ...]:
        return self.size, self.status, self.kinds, self.counts, self.started  # type: ignore[return-value]

    def checkpoint(self) -> _Checkpoint:
        """This tracker as it is, to :meth:`rollback` to while trying one order of the players' actions: the
        entries of the players, counters and pots are copied (they are as many as the layout has cells),
        the changes to the rest logged until :meth:`release` (in time with the changes, not the objects)."""
        log: list[tuple[_Logged, Any, Any]] = []
        for logged in self._growing():
            logged.log = log
        return _Checkpoint(dict(self.holding), dict(self.counters), dict(self.pots), list(self.due),
                           len(self.created), log)

    def rollback(self, point: _Checkpoint) -> None:
        """Back to ``point`` (logging goes on, so the same point may be rolled back to again)."""
        self.holding, self.counters, self.pots = dict(point.holding), dict(point.counters), dict(point.pots)
        self.due = list(point.due)
        del self.created[point.created:]
        for logged, key, old in reversed(point.log):
            if old is _MISSING:
                dict.__delitem__(logged, key)
            else:
                dict.__setitem__(logged, key, old)
        point.log.clear()

    def release(self) -> None:
        """Stop logging: the order tried is kept."""
        for logged in self._growing():
            logged.log = None


def terrain(layout: Layout, old_rules: bool) -> tuple[dict[str, str], set[Fact]]:
    """The objects (cells, stations) and static facts of a layout; ``(auto-cook)`` under old rules."""
    objects, static = _terrain(layout, old_rules)
    return dict(objects), set(static)


@functools.lru_cache(maxsize=64)
def _terrain(layout: Layout, old_rules: bool) -> tuple[Mapping[str, str], frozenset[Fact]]:
    """:func:`terrain`, computed once per layout (every game on it shares the answer)."""
    objects: dict[str, str] = {}
    static: set[Fact] = set()
    floor = set(layout.floor())
    for pos in layout.positions():
        if pos in floor:
            objects[cell(pos)] = "cell"
        elif layout.tile(pos) in STATIONS:
            objects[station(layout, pos)] = STATIONS[layout.tile(pos)]
    for x, y in floor:
        for dx, dy in ((0, -1), (0, 1), (1, 0), (-1, 0)):
            near = (x + dx, y + dy)
            if near in floor:
                static.add(("adjacent", cell((x, y)), cell(near)))
            elif layout.tile(near) in STATIONS:
                static.add(("next-to", cell((x, y)), station(layout, near)))
    static |= {("succ", a, b) for a, b in zip(_NUMS, _NUMS[1:])}
    if old_rules:
        static.add(("auto-cook",))
    return MappingProxyType(objects), frozenset(static)


def layout_problem(layout: Layout, domain: Domain, soups: int = 1, old_rules: bool | None = None,
                   recipe: Recipe | None = None) -> Problem:
    """A planning problem on ``layout``: players at their start tiles, empty-handed, to deliver ``soups`` soups.

    Under the layout's own rules (``old_rules`` overrides them). Old rules: every
    soup gets three fresh ingredients of each kind the layout dispenses (a pot
    cooks at three) and one dish. New rules: each soup gets exactly the
    ingredients of ``recipe`` (default: the layout's first makeable order) and the
    goal pins them in the soup, so only a soup of that ordered recipe counts.
    Nothing more is made fresh, which keeps the planner's state space small.
    """
    source = f"layout {layout.name}"
    if soups < 1:
        raise StripsIntError(source, "soups", f"need at least 1 soup, not {soups}")
    starts = layout.starts()
    if not starts:
        raise StripsIntError(source, None, "the grid has no start tiles (digits 1, 2, ... on floor)")
    old = layout.old_rules if old_rules is None else old_rules
    dispensed = {STATIONS[layout.tile(p)].split("-")[0] for p in layout.positions() if layout.tile(p) in ("O", "T")}
    if old:
        per_soup = tuple(k for k in ("onion", "tomato") if k in dispensed for _ in range(3))
    else:
        per_soup = recipe or next(iter(makeable_recipes(layout)), ())
        if not per_soup:
            raise StripsIntError(source, None, "no ordered recipe can be made from the layout's dispensers")
    # A soup of three cooks by itself: whoever adds the third ingredient stands at the pot and could start
    # it, so who-can-do-what is unchanged, and the planner is spared new cooking's dead ends (a pot
    # started too early can never take the rest of the recipe).
    objects, init = terrain(layout, old or len(per_soup) == 3)
    init.update(fact for _, fact in _vacant(layout))
    for j, pos in enumerate(starts):
        agent = agent_name(j)
        objects[agent] = "agent"
        init |= {("at", agent, cell(pos)), ("occupied", cell(pos)), ("hand-empty", agent)}
    counts: dict[str, int] = {}
    goal: list[Fact] = []
    for n in range(1, soups + 1):
        soup = f"soup{n}"
        goal.append(("delivered", soup))
        for kind in ("soup", "dish", *per_soup):
            counts[kind] = counts.get(kind, 0) + 1
            name = f"{kind}{counts[kind]}"
            objects[name] = kind
            init.add(("fresh", name))
            if not old and kind in dispensed:
                goal.append(("in-soup", name, soup))
    return make_problem(domain, f"overcooked-{layout.name}", objects, init, goal, source)


def makeable_recipes(layout: Layout) -> list[Recipe]:
    """The layout's ordered recipes its dispensers can make, one per set of ingredient kinds, the smallest.

    One per kind set because whether an agent can make a soup depends on the
    dispensers it reaches, not on how many trips it takes (the definitions are silent: the
    choice keeps RC to at most three planner problems per layout).
    """
    dispensed = {STATIONS[layout.tile(p)].split("-")[0] for p in layout.positions() if layout.tile(p) in ("O", "T")}
    chosen: dict[frozenset[str], Recipe] = {}
    for order in sorted(layout.orders or every_recipe(), key=lambda r: (len(r), r)):
        if set(order) <= dispensed:
            chosen.setdefault(frozenset(order), order)
    return list(chosen.values())


class _Lifter:
    """One game's grounding: the initial state, then one transition at a time."""

    def __init__(self, game: Game, layout: Layout, domain: Domain, grounder: ActionGrounder | None = None,
                 old_rules: bool | None = None) -> None:
        self.game, self.layout, self.domain = game, layout, domain
        self.source = game.source
        #: The rules the game is read under (default: those the file names or its shape suggests).
        self.old_rules = game.old_rules if old_rules is None else old_rules
        #: The cooking times to check soups against: the layout file's, else under the old rules the game's
        #: one cook time; None (new rules on a grid without its layout file): not checked.
        self.cook_times: Times | None = (layout.times if layout.configured else
                                    Times(cook_time=game.cook_time) if self.old_rules else None)
        #: Under the old rules, the game's one reward per soup once a delivery shows it (:func:`rewarded_soups`).
        self.soup_reward: float | None = None
        self.static: frozenset[Fact] = frozenset()
        self.init: set[Fact] = set()
        self.objects: dict[str, str] = {}
        self.grounder = grounder or layout_grounder(domain)
        self.cells, self.stations = _names(layout)
        self.tile = layout.tiles.get  # (Layout.tile, hot)
        #: Every object named so far (also in orders tried and dropped), for the grounder's type checks.
        self.known = self.grounder.objects
        self.grounded = self.grounder.grounded.get
        #: The lifted steps: their ground actions and the transitions they are in.
        self.actions: list[GroundAction] = []
        self.times: list[int] = []
        self._move_actions = _move_table(self.grounder, layout)
        self.agents = [agent_name(j) for j in range(len(game.states[0].players))]

    def fail(self, where: str, message: str) -> StripsIntError:
        return StripsIntError(self.source, where, message)

    def ground(self, atom: Fact, i: int) -> GroundAction:
        """``atom`` of transition ``i`` grounded (the one grounding code; the grounder may be shared, the error
        names this game)."""
        action = self.grounded(atom)
        if action is not None:  # hot: most atoms were grounded before (no text of the step made)
            return action
        try:
            return self.grounder.ground(atom, f"step {i}")
        except StripsIntError as exc:
            raise StripsIntError(self.source, exc.where, exc.message) from None

    # -- terrain and the initial state -------------------------------------------------
    def check_terrain(self, states: list[RawState]) -> None:
        """Players on floor, objects on counters and soups in pots, in each of ``states`` (each distinct one once)."""
        name = self.layout.name

        def shown(pos: Pos) -> str:
            char = self.layout.tile(pos)
            return f"outside layout {name}" if char is None else f"{char!r} in layout {name}"

        tile = self.layout.tiles.get
        last: RawState | None = None
        checked: dict[Pos, Item] | None = None
        for i, state in enumerate(states):
            if state is last:
                continue
            last = state
            for j, player in enumerate(state.players):
                if tile(player.pos) != " ":
                    raise self.fail(f"state {i}", f"player {j} stands at {player.pos}, which is "
                                    f"{shown(player.pos)}, not floor: the game does not fit this layout")
            if state.objects is checked:
                continue
            checked = state.objects
            for pos, item in state.objects.items():
                if tile(pos) not in ("X", "P") or (tile(pos) == "P" and item.kind != "soup"):
                    raise self.fail(f"state {i}", f"a {item.kind} lies at {pos}, which is {shown(pos)}: "
                                    "the game does not fit this layout")

    def build_init(self, first: RawState) -> _Tracker:
        layout = self.layout
        objects, self.static = _terrain(layout, self.old_rules)
        self.objects.update(objects)
        tracker = _Tracker(holding={}, counters={}, pots={})
        for pos, fact in _vacant(layout):
            if pos not in first.objects:
                self.init.add(fact)
        for j, player in enumerate(first.players):
            agent, here = self.agents[j], self.cells[player.pos]
            self.objects[agent] = "agent"
            self.init |= {("at", agent, here), ("occupied", here)}
            if player.held is None:
                self.init.add(("hand-empty", agent))
                tracker.holding[j] = None
            else:
                name = self._existing(tracker, player.held)
                tracker.holding[j] = name
                self.init.add(("holding", agent, name))
                if player.held.kind == "soup":  # a soup out of its pot is on a dish
                    self.init.add(("plated", name))
        for pos, item in first.objects.items():
            name = self._existing(tracker, item)
            if layout.tile(pos) == "X":
                tracker.counters[pos] = name
                self.init.add(("on", name, self.stations[pos]))
                if item.kind == "soup":
                    self.init.add(("plated", name))
            else:
                tracker.pots[pos] = name
                self.init.add(("in-pot", name, self.stations[pos]))
        return tracker

    def _existing(self, tracker: _Tracker, item: Item) -> str:
        """An object already in play at the start: not fresh, its soup contents made up of new ingredients."""
        name = tracker.new(item.kind)
        tracker.created.remove(name)
        if item.kind == "soup":
            tracker.size[name] = len(item.ingredients)
            tracker.status[name] = item.status or "ready"
            self.init.add(("size", name, _NUMS[len(item.ingredients)]))
            for kind in item.ingredients:
                part = tracker.new(kind)
                tracker.created.remove(part)
                self.init.add(("in-soup", part, name))
            if tracker.status[name] in ("cooking", "ready"):
                self.init.add((tracker.status[name], name))
        return name

    # -- transitions -------------------------------------------------------------------

    def player_action(self, tracker: _Tracker, i: int, j: int, before: RawState, after: RawState | None,
                      logged: Move) -> Fact | None:
        """The symbolic action of player ``j`` in transition ``i`` (None when nothing happened)."""
        p = before.players[j]
        agent, here = self.agents[j], self.cells[p.pos]
        target = (p.pos[0] + p.facing[0], p.pos[1] + p.facing[1])
        if after is None:  # no following state: only a logged delivery is certain
            if logged == INTERACT and p.held and p.held.kind == "soup" and self.layout.tile(target) == "S":
                soup = tracker.holding[j]
                tracker.holding[j] = None
                return ("deliver", agent, soup, self.stations[target], here)
            return None
        q = after.players[j]
        if q.pos != p.pos:
            return self._move(i, j, p.pos, q.pos, logged)
        tile = self.tile(target)
        h, g = p.held, q.held
        if h == g and not self._starts_cooking(tracker, target, before, after, h, logged):
            return None
        if logged != INTERACT:
            raise self.fail(_acted(i, j), f"player {j}'s hands changed ({_show(h)} -> {_show(g)}) but the logged "
                            f"action is {logged!r}, not interact")
        if tile not in STATIONS:
            raise self.fail(_acted(i, j), f"player {j} interacted facing {target}, which is not a station")
        place = self.stations[target]
        held = tracker.holding[j]
        if h is None and g is not None:
            if tile == "X":
                item = tracker.counters.pop(target, None)
                if item is None:
                    raise self.fail(_acted(i, j), f"player {j} took a {g.kind} from the empty counter at {target}")
                tracker.holding[j] = item
                return ("take", agent, item, place, here)
            if STATIONS[tile] in _TAKE:
                schema, kind = _TAKE[STATIONS[tile]]
                if g.kind != kind:
                    raise self.fail(_acted(i, j), f"player {j} took a {g.kind} from a {STATIONS[tile]}")
                item = tracker.new(kind)
                tracker.holding[j] = item
                return (schema, agent, item, place, here)
        elif h is not None and g is None:
            tracker.holding[j] = None
            if tile == "X":
                tracker.counters[target] = held
                return ("put", agent, held, place, here)
            if tile == "P" and h.kind in ("onion", "tomato"):
                soup = tracker.pots.get(target)
                if soup is None:
                    soup = tracker.new("soup")
                    tracker.pots[target], tracker.size[soup], tracker.status[soup] = soup, 1, "idle"
                    return ("start-soup", agent, held, soup, place, here)
                n = tracker.size[soup]
                tracker.size[soup] = n + 1
                if n + 1 >= len(_NUMS):
                    raise self.fail(_acted(i, j), f"player {j} put a fourth ingredient into the pot at {target}")
                if n + 1 == 3 and self.old_rules:
                    tracker.due.append(soup)
                return ("add-ingredient", agent, held, soup, place, here, _NUMS[n], _NUMS[n + 1])
            if tile == "S" and h.kind == "soup":
                return ("deliver", agent, held, place, here)
        elif h is not None and h.kind == "dish" and g is not None and g.kind == "soup" and tile == "P":
            soup = tracker.pots.pop(target, None)
            if soup is None:
                raise self.fail(_acted(i, j), f"player {j} filled a dish at the empty pot at {target}")
            tracker.holding[j] = soup
            return ("plate-soup", agent, held, soup, place, here)
        elif h is None and g is None and tile == "P":
            soup = tracker.pots[target]
            tracker.status[soup], tracker.started[soup] = "cooking", i
            return ("start-cooking", agent, soup, place, here)
        raise self.fail(_acted(i, j), f"cannot explain player {j}'s change from {_show(h)} to {_show(g)} "
                        f"facing {target} ({STATIONS.get(tile, 'floor')})")

    def _starts_cooking(self, tracker: _Tracker, target: Pos, before: RawState, after: RawState,
                        held: Item | None, logged: Move) -> bool:
        """New rules: an empty-handed interaction turns the faced pot from idle to cooking.

        As overcooked-ai resolves interactions, in player order: the first player
        (of the order being tried) who logged an interact facing the pot starts it;
        a player whose logged action is not interact did not, and once started the
        pot is no longer idle for the next player.
        """
        if self.old_rules or held is not None or target not in tracker.pots:
            return False
        if logged != INTERACT:
            return False
        old, new = before.objects.get(target), after.objects.get(target)
        return bool(old and new and tracker.status[tracker.pots[target]] == "idle" and old.status == "idle"
                    and new.status in ("cooking", "ready"))

    def environment(self, tracker: _Tracker, after: RawState, i: int) -> list[Fact]:
        """Cooking steps that bring each pot's soup to the status the next state shows, in transition ``i``.

        Checked against the rules: under the old rules a pot starts by itself in the transition that fills it
        to three, under the new rules only by a player's interaction (:meth:`_starts_cooking`); a soup is
        ready after its recipe's cooking time (where :attr:`cook_times` knows it), counted from that transition.
        """
        shown, status = after.objects.get, tracker.status
        if not tracker.due:
            for pos, soup in tracker.pots.items():  # hot: mostly every pot shows the status tracked
                item = shown(pos)
                if item is not None and item.status != status[soup]:
                    break
            else:
                return []
        steps = []
        for pos, soup in sorted(tracker.pots.items()):
            shown = after.objects.get(pos)
            if shown is None or shown.kind != "soup":
                continue
            if tracker.status[soup] == "idle" and shown.status in ("cooking", "ready"):
                if not self.old_rules:
                    raise self.fail(f"step {i}", f"the pot at {pos} started cooking with no player starting it: "
                                    "under the new rules a player starts a pot by interacting with it")
                if tracker.size[soup] != 3:
                    raise self.fail(f"step {i}", f"the pot at {pos} started cooking with {tracker.size[soup]} "
                                    "ingredient(s): under the old rules a pot starts by itself at three")
                steps.append(("auto-cook", soup, self.stations[pos]))
                tracker.status[soup], tracker.started[soup] = "cooking", i
            elif soup in tracker.due:
                raise self.fail(f"step {i}", f"the pot at {pos} holds three ingredients but did not start cooking: "
                                "under the old rules a pot starts by itself when the third goes in")
            if tracker.status[soup] == "cooking" and shown.status == "ready":
                self._check_cooked(tracker, soup, pos, shown, i)
                steps.append(("finish-cooking", soup, self.stations[pos]))
                tracker.status[soup] = "ready"
        tracker.due.clear()
        return steps

    def _check_cooked(self, tracker: _Tracker, soup: str, pos: Pos, shown: Item, i: int) -> None:
        """A soup that began cooking in the game must be ready after exactly its recipe's cooking time."""
        begun = tracker.started.get(soup)
        if begun is None or self.cook_times is None:
            return
        took, expected = i - begun + 1, self.cook_times.time(shown.ingredients)
        if took != expected:
            raise self.fail(f"step {i}", f"the soup in the pot at {pos} ({'+'.join(shown.ingredients)}) is ready "
                            f"after {took} steps of cooking (from step {begun}), but it cooks {expected}")

    def lift(self) -> Problem:
        """The problem; the steps in ``self.actions`` and ``self.times``.

        A game must fit the layout in every state (:meth:`check_terrain`), the first thing checked. Only the
        first state is checked up front: the others fit when lifting succeeds (a move needs a neighbouring
        floor cell, and every new grid is cross-checked against the counters and pots tracked), so they are
        checked in full only when it fails, for the misfit to be the error, as it comes first.
        """
        try:
            self.check_terrain(self.game.states[:1])
            return self._lift()
        except Exception:
            self.check_terrain(self.game.states)
            raise

    def _lift(self) -> Problem:
        self.begin()
        for i in range(len(self.game.actions)):
            self.transition(i)
        return self.end()

    def begin(self) -> None:
        """The initial state, objects and facts from the game's first state; then :meth:`transition` for each
        joint action in turn (an online analysis calls it as the game is played), and :meth:`end`."""
        game = self.game
        self.tracker = self.build_init(game.states[0])
        self.known.update({**self.domain.constants, **self.objects, **self.tracker.kinds})
        self.state = self.init | self.static  # a new set
        self.delivered: list[tuple[int, Fact]] = []  # the delivery steps, for the goal
        first = game.states[0].players
        # Hot: under old rules, two players at distinct positions whose hands a transition leaves as they were
        # are told from the positions alone: the state's at and occupied facts are the players' positions
        # (nothing else moves them, and they never share a cell: a move needs its cell free), and the move
        # table holds only plain moves between adjacent cells, so such a move is applicable when its cell is
        # not the other player's; their moves, in the order _serialize would find. A transition in which both
        # stay put and one player's hands change is that player's interaction alone (the other did nothing), the
        # one order _serialize would try. Anything else (a move never made before, an error) is left to _serialize.
        self.walk = self.old_rules and len(first) == 2 and first[0].pos != first[1].pos

    def transition(self, i: int) -> None:
        """Lift joint action ``i`` (from ``game.states[i]`` to the next state, None after the last): its steps
        appended to ``self.actions`` and ``self.times``."""
        states, joint = self.game.states, self.game.actions[i]
        before, after = states[i], states[i + 1] if i + 1 < len(states) else None
        if after is before:
            return  # the reader shares a state equal to the one before: nobody did anything
        actions, times, table, state = self.actions, self.times, self._move_actions, self.state
        chosen = alone = None
        if self.walk and after is not None:
            (p0, p1), (q0, q1) = before.players, after.players
            if p0.held == q0.held and p1.held == q1.held:
                a0, b0, a1, b1 = p0.pos, q0.pos, p1.pos, q1.pos
                if a0 == b0:
                    if a1 == b1:
                        chosen = ()
                    else:
                        move = table.get((1, a1, b1))
                        if move is not None and move.step == joint[1] and b1 != a0:
                            chosen = (move,)
                elif a1 == b1:
                    move = table.get((0, a0, b0))
                    if move is not None and move.step == joint[0] and b0 != a1:
                        chosen = (move,)
                else:
                    m0, m1 = table.get((0, a0, b0)), table.get((1, a1, b1))
                    if (m0 is not None and m1 is not None and m0.step == joint[0] and m1.step == joint[1]
                            and b0 != b1):
                        if b0 != a1:
                            chosen = (m0, m1)
                        elif b1 != a0:
                            chosen = (m1, m0)  # (else they swap cells: no order)
            elif p0.pos == q0.pos and p1.pos == q1.pos and (p0.held == q0.held or p1.held == q1.held):
                alone = 1 if p0.held == q0.held else 0
        if chosen is not None:
            for move in chosen:
                state -= move.action.delete
                state |= move.action.add
                actions.append(move.action)
                times.append(i)
            if after.objects is before.objects:
                return  # nothing else changed: as checked before
            placed = False
        else:
            if alone is None:
                self.tracker, chosen, self.state = self._serialize(self.tracker, state, i, joint, before, after)
                state = self.state
            else:
                done = self._act(self.tracker, state, i, alone, before, after, joint[alone], None)
                if type(done) is str:
                    raise self._unordered(i, done)
                chosen = (done,)
            placed = False  # whether what lies on counters and in pots changed
            for atom, action in chosen:
                times.append(i)
                actions.append(action)
                if atom[0] != "move":
                    placed = placed or atom[0] in _PLACING
                    if atom[0] == "deliver":
                        self.delivered.append((i, atom))
            if after is None:
                return
        tracker = self.tracker
        cooked = self.environment(tracker, after, i)
        for atom in cooked:
            action = self.ground(atom, i)
            failure = apply(state, action)
            if failure:
                raise self.fail(f"step {i}", failure)
            times.append(i)
            actions.append(action)
        # When neither the grid nor what lies on counters and in pots changed, they match as before (cooking
        # changes a soup's status only, which is not cross-checked).
        self._cross_check(tracker, i, after, placed or after.objects is not before.objects)

    def end(self) -> Problem:
        """The problem of the joint actions lifted so far: the spares, the fresh objects, the rewarded goal."""
        tracker, game = self.tracker.copy(), self.game  # (a copy: an online analysis may go on)
        for kind in self.layout.dispensed():  # definitions section 11: one spare of each kind a dispenser gives
            tracker.new(kind)
        init = self.init | {("fresh", name) for name in tracker.created}
        values = self.layout.values if self.layout.configured else None
        rewarded = rewarded_soups(game, self.delivered, values, self.layout.orders, self.old_rules)
        goal = [("delivered", soup) for soup in rewarded.soups]
        self.soup_reward = rewarded.soup_reward
        return _problem(self.domain, f"overcooked-{self.layout.name}", {**self.objects, **tracker.kinds},
                        self.static | init, goal, self.source)

    def _move(self, i: int, j: int, p: Pos, q: Pos, logged: Move) -> Fact:
        """Player ``j``'s move from ``p`` to ``q`` in transition ``i``, checked against the logged action."""
        step = (q[0] - p[0], q[1] - p[1])
        if logged != step:
            raise self.fail(_acted(i, j), f"player {j} moved by {step} but the logged action is {logged!r}")
        move = self._move_actions.get((j, p, q))
        if move is not None:
            return move.atom
        agent, here, there = self.agents[j], self.cells[p], self.cells[q]
        atom = ("move", agent, here, there)
        action = self.ground(atom, i)
        if ("adjacent", here, there) in self.static and _plain_move(self.domain, action, agent, here, there):
            self._move_actions[(j, p, q)] = _Move(atom, action, step)
        return atom

    def _serialize(self, tracker: _Tracker, state: set[Fact], i: int, joint, before: RawState,
                   after: RawState | None) -> tuple[_Tracker, list[tuple[Fact, GroundAction]], set[Fact]]:
        """The first player order whose actions are all applicable: its tracker, atoms (with their ground
        actions) and state.

        Hot, so the player order is tried in place, and copies are made only to try another order. Under
        old rules a player the reader shares between the two states, or who neither moved nor changed hands
        (who turned), did nothing, so is not asked.
        """
        players = range(len(before.players))
        if after is not None and self.old_rules:
            acting = [j for j, p, q in zip(players, before.players, after.players)
                      if p is not q and (p.pos != q.pos or p.held != q.held)]
        else:
            acting = list(players)
        if len(acting) < 2:  # one order only
            chosen, failure = self._attempt(tracker, state, i, joint, before, after, acting, None)
            if failure is None:
                return tracker, chosen, state
            raise self._unordered(i, failure)
        # The tracker changes only with an interaction: a player who stays put may interact.
        point = tracker.checkpoint() if after is None or any(
            before.players[j].pos == after.players[j].pos for j in acting) else None
        undo: list[tuple[set[Fact], set[Fact]]] = []
        chosen, failure = self._attempt(tracker, state, i, joint, before, after, acting, undo)
        orders, why = itertools.islice(itertools.permutations(players), 1, None), failure
        while why is not None:  # back to the start of the transition, to try the next order
            self._undo(state, undo)
            if point is None:
                point = tracker.checkpoint()
            else:
                tracker.rollback(point)
            order = next(orders, None)
            if order is None:
                tracker.release()
                raise self._unordered(i, failure)
            chosen, why = self._attempt(tracker, state, i, joint, before, after, order, undo)
        tracker.release()
        return tracker, chosen, state

    @staticmethod
    def _undo(state: set[Fact], undo: list[tuple[set[Fact], set[Fact]]]) -> None:
        """``state`` as it was before the changes logged in ``undo`` (emptied)."""
        for added, removed in reversed(undo):
            state -= added
            state |= removed
        undo.clear()

    def _unordered(self, i: int, failure: str) -> StripsIntError:
        return self.fail(f"step {i}", f"no order of the players' actions is applicable: {failure}")

    def _attempt(self, tracker: _Tracker, state: set[Fact], i: int, joint, before: RawState, after: RawState | None,
                 order, undo: list[tuple[set[Fact], set[Fact]]] | None) -> tuple[list[tuple[Fact, GroundAction]], str | None]:
        """The players' actions in ``order``, applied to ``tracker`` and ``state`` in place, up to the first that
        is not applicable (then also why); each change of ``state`` logged in ``undo`` (when given).
        """
        chosen = []
        for j in order:
            done = self._act(tracker, state, i, j, before, after, joint[j], undo)
            if type(done) is str:
                return chosen, done
            if done is not None:
                chosen.append(done)
        return chosen, None

    def _act(self, tracker: _Tracker, state: set[Fact], i: int, j: int, before: RawState, after: RawState | None,
             logged: Move, undo: list[tuple[set[Fact], set[Fact]]] | None) -> tuple[Fact, GroundAction] | str | None:
        """Player ``j``'s action in transition ``i`` applied to ``tracker`` and ``state`` in place (each change of
        ``state`` logged in ``undo``, when given): its atom and ground action, None when the player did nothing,
        or why it is not applicable.

        Objects first seen in this transition come from their dispenser, so are (fresh) until taken.
        """
        known = len(tracker.created)
        atom = self.player_action(tracker, i, j, before, after, logged)
        if atom is None:
            return None
        if len(tracker.created) > known:
            fresh = {("fresh", name) for name in tracker.created[known:]} - state
            state |= fresh
            if undo is not None:
                undo.append((fresh, set()))
            self.known.update((name, tracker.kinds[name]) for name in tracker.created[known:])
        action = self.ground(atom, i)
        if not (action.pre <= state and state.isdisjoint(action.neg_pre)):  # apply, inlined: hot
            return action.not_applicable(state)
        if undo is not None:
            undo.append((action.add - state, action.delete & state))
        state -= action.delete
        state |= action.add
        return atom, action

    def _cross_check(self, tracker: _Tracker, i: int, after: RawState, grid: bool = True) -> None:
        """The tracked holdings, and (with ``grid``) counters and pots, must match what the next state shows."""
        kinds, holding = tracker.kinds, tracker.holding
        for j, player in enumerate(after.players):
            name = holding[j]
            if (name is None) != (player.held is None) or (name and kinds[name] != player.held.kind):
                raise self.fail(f"step {i}", f"after it player {j} holds {_show(player.held)}, but the actions "
                                f"inferred leave {name or 'nothing'}")
        if not grid:
            return
        # Hot: the grid fits (counters and pots lie on X and P tiles, so never at one position); else the message.
        counters, pots, size = tracker.counters, tracker.pots, tracker.size
        if len(after.objects) == len(counters) + len(pots):
            for pos, item in after.objects.items():
                soup = pots.get(pos)
                if soup is None:
                    name = counters.get(pos)
                    if name is None or kinds[name] != item.kind:
                        break
                elif item.kind != "soup" or len(item.ingredients) != size[soup]:
                    break
            else:
                return
        shown = {pos: item.kind for pos, item in after.objects.items()}
        tracked = {**{p: tracker.kinds[n] for p, n in tracker.counters.items()},
                   **{p: "soup" for p in tracker.pots}}
        if shown != tracked:
            diff = sorted(set(shown.items()) ^ set(tracked.items()))
            raise self.fail(f"step {i}", f"objects on the grid after it differ from those inferred: {diff}")
        for pos, soup in tracker.pots.items():
            if len(after.objects[pos].ingredients) != tracker.size[soup]:
                raise self.fail(f"step {i}", f"the pot at {pos} shows {len(after.objects[pos].ingredients)} "
                                f"ingredients, the actions inferred put in {tracker.size[soup]}")


# -- definitions section 11: the logged reward must agree with the deliveries; it decides the goal --------------

class Rewarded(NamedTuple):
    """What :func:`rewarded_soups` finds: the goal soups and, under the old rules, the game's one reward per
    soup (None when no delivery shows it, or under the new rules)."""

    soups: list[str]
    soup_reward: float | None = None


def rewarded_soups(game: Game, steps: list[tuple[int, Fact]], values: Values | None = None,
                   orders: tuple[Recipe, ...] | None = None, old_rules: bool | None = None) -> Rewarded:
    """The soups whose delivery earned reward (the goal of a recorded game), checked against the log.

    ``steps`` are the lifted (transition, atom) pairs (the deliveries suffice); ``game.rewards[i]`` is the
    reward logged for transition ``i`` (all formats log it on the delivering action's own step). A soup
    earns reward only when its recipe is among the orders its state shows (a state that shows none: the
    layout's ``orders``, else every recipe, as overcooked-ai orders by default); a soup of no order is
    delivered for nothing and is no goal.

    Old rules (``old_rules``, default the game's): every ordered soup earns one constant reward, which the
    game itself shows (definitions section 11: 20 in the paper's games and overcooked-ai's default, 5 in its
    2019 human data) on its first step that delivers one; each step's reward must be exactly that per
    ordered soup it delivers. New rules: with the layout's ``values`` known the step's reward must be
    exactly what overcooked-ai's ``get_recipe_value`` gives (bonus orders included), else it must be
    positive exactly when an ordered soup is delivered. A game that logs no reward has every delivered
    soup as its goal.
    """
    old_rules = game.old_rules if old_rules is None else old_rules
    delivered: dict[int, list[tuple[str, Recipe | None]]] = {}
    for i, atom in steps:
        if atom[0] == "deliver":
            delivered.setdefault(i, []).append((atom[2], _delivered_recipe(game, i, atom[1])))
    if game.rewards is None:
        return Rewarded([soup for i in sorted(delivered) for soup, _ in delivered[i]])
    default = orders if orders is not None else every_recipe()
    goal: list[str] = []
    per_soup: float | None = None
    shown_by = -1  # the step whose reward shows the old rules' reward per soup
    # A step that logs no reward and delivers nothing agrees under either rules: only the others are checked.
    for i in sorted(delivered.keys() | set(itertools.compress(range(len(game.rewards)), game.rewards))):
        reward, soups = game.rewards[i], delivered.get(i, [])
        state = game.states[i]  # a game has a state before each action
        shown = state.orders if state.orders is not None else default
        ordered = [(soup, r) for soup, r in soups if r is None or r in shown]
        if old_rules:
            if per_soup is None and ordered:
                per_soup, shown_by = reward / len(ordered), i
                if per_soup <= 0:
                    raise StripsIntError(game.source, f"step {i}", f"logged reward {reward:g}, but the step delivers "
                                         f"{len(ordered)} soup(s) of an ordered recipe: under the old rules every "
                                         "such soup earns the game's one reward per soup")
            expected = (per_soup or 0.0) * len(ordered)
            if reward != expected:
                each = f"{per_soup:g} each under the old rules as step {shown_by} shows" if per_soup else "none shown yet"
                raise StripsIntError(game.source, f"step {i}", f"logged reward {reward:g}, but the step delivers "
                                     f"{len(soups)} soup(s), {len(ordered)} of an ordered recipe ({each}): "
                                     f"{expected:g}")
            goal += [soup for soup, _ in ordered]
            continue
        known = all(r is not None for _, r in soups)
        if values is not None and known:
            expected = sum(values.reward(r, shown, state.bonus) for _, r in soups)
            if reward != expected:
                raise StripsIntError(game.source, f"step {i}", f"logged reward {reward:g}, but the step delivers "
                                     f"{_recipes_shown(soups)}, worth {expected:g} by the layout's orders and values")
        elif reward < 0 or (reward > 0) != bool(ordered) and (reward > 0 or known):
            raise StripsIntError(game.source, f"step {i}", f"logged reward {reward:g}, but the step delivers "
                                 f"{len(soups)} soup(s), {len(ordered)} of an ordered recipe")
        if reward > 0:
            goal += [soup for soup, _ in ordered]
    return Rewarded(goal, per_soup)


def _delivered_recipe(game: Game, i: int, agent: str) -> Recipe | None:
    """The recipe of the soup ``agent`` holds in state ``i``, when the game shows it."""
    seat = int(agent.removeprefix("player"))
    state = game.states[i] if i < len(game.states) else None
    held = state.players[seat].held if state is not None and seat < len(state.players) else None
    return held.ingredients if held is not None and held.kind == "soup" and held.ingredients else None


def _recipes_shown(soups: list[tuple[str, Recipe | None]]) -> str:
    return ", ".join(f"{soup} ({'+'.join(r or ('?',))})" for soup, r in soups) or "no soup"


def _show(item: Item | None) -> str:
    return "nothing" if item is None else f"a {item.kind}"


def layout_grounder(domain: Domain) -> ActionGrounder:
    """A grounder for Overcooked games in ``domain``, to share among them (pass it to :func:`lift_game`).

    Sound to share, on any layouts: every object name the lifter makes tells its type (``c1_2`` a
    cell, ``counter4_0`` a counter, ``onion3`` an onion, ``player0`` an agent), so an atom grounded
    and checked for one game is the same ground action in every other.
    """
    return ActionGrounder(domain, None, "<overcooked layout>", objects={})


def lift_game(game: Game, layout: Layout, domain: Domain, meta: dict | None = None,
              grounder: ActionGrounder | None = None, rules: str | None = None) -> Trace:
    """The problem and trace of one recorded game, validated against the domain; ``grounder`` from
    :func:`layout_grounder` for ``domain``, shared with other games (default: a new one).

    The rules (definitions section 11): ``rules`` ("old" or "new") when given, else those the file names, else
    those that explain the game's transitions and rewards: the ones its shape suggests first (old-format
    soups: old), the others only when these fail, so a game costs one reading unless it needs two. A game
    neither explains is one error naming, for each rule set, the first step it cannot explain.
    ``meta`` tells the rules, the old rules' reward per soup and what could not be checked (``unchecked``).
    """
    if rules is not None and rules not in ("old", "new"):
        raise StripsIntError(game.source, "rules", f"{rules!r}: expected old or new")
    tried = ((rules == "old",) if rules is not None else (game.old_rules,) if game.rules_named
             else (game.old_rules, not game.old_rules))
    failures: list[tuple[bool, StripsIntError]] = []
    for old in tried:
        lifter = _Lifter(game, layout, domain, grounder, old)
        try:
            problem = lifter.lift()
            break
        except StripsIntError as exc:
            failures.append((old, exc))
    else:
        raise _unexplained(game.source, failures)
    steps = Step.numbered(lifter.times, lifter.actions)
    full_meta = {"layout": layout.name, "terrain": layout.name, "reward": game.reward,
                 "rules": "old" if old else "new", **game.meta, **(meta or {})}
    if lifter.soup_reward is not None:
        full_meta["soup_reward"] = lifter.soup_reward
    unchecked = "; ".join(note for note in (game.meta.get("unchecked"), _unchecked(game, layout, old)) if note)
    if unchecked:
        full_meta["unchecked"] = unchecked
    attempts = game_attempts(game, problem, steps, lifter.agents, (lifter.cells, lifter.stations), lifter.ground)
    return Trace(source=game.source, problem=problem, steps=steps, meta=full_meta, attempts=attempts)


def _unexplained(source: str, failures: list[tuple[bool, StripsIntError]]) -> StripsIntError:
    """The error of a game no rule set tried explains: the one failure, or each rule set's first."""
    if len(failures) == 1 or len({(e.where, e.message) for _, e in failures}) == 1:
        return failures[0][1]
    told = "; ".join(f"under the {'old' if old else 'new'} rules, {e.where or 'the game'}: {e.message}"
                     for old, e in failures)
    return StripsIntError(source, None, f"neither rule set explains the game: {told}")


def _unchecked(game: Game, layout: Layout, old_rules: bool) -> str | None:
    """What the grounder could not check in a game read under the new rules, said (definitions section 11)."""
    if old_rules or layout.configured:
        return None
    if game.rewards is None:
        return (f"cooking times: layout {layout.name} is known neither by name nor by a grid file (give its "
                "overcooked-ai .layout file)")
    return (f"recipe values and cooking times: layout {layout.name} is known neither by name nor by a grid file "
            "(give its overcooked-ai .layout file), so a delivery's reward was checked only for being "
            "positive exactly when the soup was ordered")
