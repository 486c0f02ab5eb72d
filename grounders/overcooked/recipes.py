"""overcooked-ai's new-rules recipes: which soups are ordered, what a delivery earns, how long each cooks.

Mirrors ``overcooked_ai_py.mdp.overcooked_mdp`` (``Recipe.value``, ``Recipe.time``
and ``OvercookedGridworld.get_recipe_value``; ZSC-Eval's multi-recipe layouts
use the same keys): a soup of no order earns 0; an ordered one its value
(``delivery_reward``, else ``recipe_values`` by order, else ``onion_value`` and
``tomato_value`` per ingredient, else 20), times ``order_bonus`` (default 2)
when it is a bonus order. A soup cooks ``cook_time`` steps, else its
``recipe_times`` entry, else ``onion_time`` and ``tomato_time`` per ingredient,
else 20.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

#: A recipe: its ingredients, sorted (overcooked-ai's recipes are multisets).
Recipe = tuple[str, ...]
INGREDIENTS = ("onion", "tomato")
MAX_INGREDIENTS = 3
DEFAULT_VALUE = 20.0
DEFAULT_COOK_TIME = 20
DEFAULT_ORDER_BONUS = 2.0


def recipe(ingredients: Any) -> Recipe:
    """A recipe from an order dict ``{"ingredients": [...]}`` or a list of ingredient names."""
    if isinstance(ingredients, Mapping):
        ingredients = ingredients.get("ingredients", ())
    return tuple(sorted(str(i) for i in ingredients))


def orders_of(value: Any) -> tuple[Recipe, ...] | None:
    """Orders as overcooked-ai writes them, a list of ``{"ingredients": [...]}`` of 1 to 3 onions or
    tomatoes, as recipes; None when ``value`` is not that (the caller names the place)."""
    if isinstance(value, list) and all(
            isinstance(o, dict) and isinstance(o.get("ingredients"), list)
            and 0 < len(o["ingredients"]) <= MAX_INGREDIENTS and all(i in INGREDIENTS for i in o["ingredients"])
            for o in value):
        return tuple(tuple(sorted(o["ingredients"])) for o in value)
    return None


def every_recipe() -> tuple[Recipe, ...]:
    """All recipes of 1 to 3 onions and tomatoes (overcooked-ai's ``Recipe.ALL_RECIPES``)."""
    found = {recipe((INGREDIENTS[0],) * onions + (INGREDIENTS[1],) * (n - onions))
             for n in range(1, MAX_INGREDIENTS + 1) for onions in range(n + 1)}
    return tuple(sorted(found, key=lambda r: (len(r), r)))


@dataclass(frozen=True)
class Values:
    """A layout's value configuration (overcooked-ai's ``Recipe.configure`` keys); None: not configured."""

    delivery_reward: float | None = None
    recipe_values: tuple[tuple[Recipe, float], ...] = ()
    onion_value: float | None = None
    tomato_value: float | None = None
    order_bonus: float = DEFAULT_ORDER_BONUS

    def value(self, soup: Recipe) -> float:
        """``Recipe.value``: the base value of a soup."""
        return _per_recipe(soup, self.delivery_reward, self.recipe_values, self.onion_value, self.tomato_value,
                           DEFAULT_VALUE)

    def reward(self, soup: Recipe, orders: tuple[Recipe, ...], bonus: tuple[Recipe, ...]) -> float:
        """``get_recipe_value``: 0 for no order, the value, or the value times the bonus for a bonus order."""
        if soup not in orders:
            return 0.0
        return self.value(soup) * (self.order_bonus if soup in bonus else 1.0)


@dataclass(frozen=True)
class Times:
    """A layout's cooking times (overcooked-ai's ``Recipe.configure`` keys); None: not configured."""

    cook_time: int | None = None
    recipe_times: tuple[tuple[Recipe, int], ...] = ()
    onion_time: int | None = None
    tomato_time: int | None = None

    def time(self, soup: Recipe) -> int:
        """``Recipe.time``: the steps a soup of ``soup`` cooks before it is ready."""
        return _per_recipe(soup, self.cook_time, self.recipe_times, self.onion_time, self.tomato_time,
                           DEFAULT_COOK_TIME)


def _per_recipe(soup: Recipe, every: Any, by_recipe: tuple[tuple[Recipe, Any], ...], onion: Any, tomato: Any,
                default: Any) -> Any:
    """How overcooked-ai's ``Recipe.value`` and ``Recipe.time`` pick a soup's figure: one for every soup, else
    the soup's own entry, else one per onion and per tomato (both configured), else the default."""
    if every:
        return every
    mapping = dict(by_recipe)
    if soup in mapping:
        return mapping[soup]
    if onion and tomato:
        return onion * soup.count("onion") + tomato * soup.count("tomato")
    return default


def layout_times(data: Mapping[str, Any]) -> Times:
    """The cooking times of an overcooked-ai layout dict (``.layout`` file)."""
    orders = [recipe(o) for o in data.get("start_all_orders") or ()]
    return Times(cook_time=_whole(data.get("cook_time")),
                 recipe_times=tuple(zip(orders, (int(t) for t in data.get("recipe_times") or ()))),
                 onion_time=_whole(data.get("onion_time")), tomato_time=_whole(data.get("tomato_time")))


def layout_values(data: Mapping[str, Any]) -> Values:
    """The value configuration of an overcooked-ai layout dict (``.layout`` file or ``mdp_params``)."""
    orders = [recipe(o) for o in data.get("start_all_orders") or ()]
    values = data.get("recipe_values") or ()
    return Values(
        delivery_reward=_number(data.get("delivery_reward")),
        recipe_values=tuple(zip(orders, (float(v) for v in values))),
        onion_value=_number(data.get("onion_value")),
        tomato_value=_number(data.get("tomato_value")),
        order_bonus=_number(data.get("order_bonus")) or DEFAULT_ORDER_BONUS,
    )


def layout_orders(data: Mapping[str, Any]) -> tuple[tuple[Recipe, ...], tuple[Recipe, ...]]:
    """A layout dict's orders and bonus orders; no orders means every recipe (as overcooked-ai does)."""
    orders = tuple(recipe(o) for o in data.get("start_all_orders") or ()) or every_recipe()
    bonus = tuple(recipe(o) for o in data.get("start_bonus_orders") or ())
    return orders, bonus


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _whole(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
