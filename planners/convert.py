"""Our parsed domain and problem as a unified-planning problem in which only some agents act.

Every agent action gets one extra precondition ``(acting ?actor)`` on a static
fluent that is true for the acting agents only, so the joint problem and each
single-agent projection (definitions section 8) differ in initial values alone; Fast
Downward's translator drops the actions of agents that do not act, since their
precondition is static false.

UP types have one parent each, so an ``either`` type is compiled away: a
predicate's argument of type ``(either t1 t2)`` gets their closest common
ancestor (the domain's actions and the problem's facts are checked already),
and an action with ``either`` parameters becomes one UP action per choice of
a single type for each, mapped back to its schema.

Only the true initial facts are handed over (:class:`_ClosedWorldProblem`):
UP's own ``initial_values`` lists every ground fluent (532,703 on a 28x28
Overcooked grid, 18 s before the planner starts), and Fast Downward's grounder
does reachability itself.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass
from typing import Collection, Mapping

import unified_planning.model as upm
from unified_planning.environment import Environment, get_environment
from unified_planning.plans import ActionInstance

from strips_int.model.domain import Domain, Schema
from strips_int.model.task import Fact, GroundAction, Problem
from strips_int.model.trace import ActionGrounder

_ROOT = "object"


class _ClosedWorldProblem(upm.Problem):
    """A UP problem whose initial state is its explicitly set values: every fluent defaults to false.

    UP's ``initial_values`` enumerates every ground fluent of every fluent
    (and the PDDL writer Fast Downward is given calls it); the false ones are
    not written, so the explicit values say the same in a fraction of the time.
    """

    @property
    def initial_values(self) -> dict[upm.FNode, upm.FNode]:
        return dict(self.explicit_initial_values)


@dataclass(frozen=True)
class UPTask:
    """One problem in unified-planning form, where only ``actors`` act, and the way back to ground actions."""

    domain: Domain
    problem: Problem
    env: Environment
    up: upm.Problem
    actors: tuple[str, ...]
    action_names: Mapping[str, str]

    def ground(self, instance: ActionInstance) -> GroundAction:
        """A plan step as a ground action of our domain."""
        return self.ground_named(instance.action.name, tuple(str(p.object().name) for p in instance.actual_parameters))

    def ground_named(self, up_name: str, args: tuple[str, ...]) -> GroundAction:
        """The action UP calls ``up_name`` (renamed where it clashed) on ``args``, by the one grounding code."""
        name = self.action_names[up_name]
        return ActionGrounder(self.domain, self.problem, f"{self.problem.source} (planner)").ground(
            (name, *args), f"plan step ({name} {' '.join(args)})")


def _atom(problem: upm.Problem, fact: Fact) -> upm.FNode:
    fluent = problem.fluent(fact[0])
    return fluent(*(problem.object(arg) for arg in fact[1:]))


def to_unified_planning(domain: Domain, problem: Problem, actors: Collection[str]) -> UPTask:
    """Convert ``problem`` (with its domain) to a unified-planning problem in which only the agents ``actors`` act."""
    env = get_environment()  # UP's grounder (pyperplan's path) only works in the global environment
    types: dict[str, upm.Type] = {_ROOT: env.type_manager.UserType(_ROOT)}
    named = {*problem.objects, *domain.predicates, *domain.schemas}  # UP wants one name per element

    def user_type(name: str) -> upm.Type:
        if name not in types:
            parent = domain.parents.get(name, _ROOT)
            distinct = name
            while distinct in named:  # a type named like an object (CoDMAP's wireless: base - base)
                distinct += "-type"
            types[name] = env.type_manager.UserType(distinct, user_type(parent))
        return types[name]

    up_problem = _ClosedWorldProblem(problem.name, env)
    acting_name = "acting"
    while acting_name in domain.predicates:
        acting_name = "strips-int-" + acting_name
    acting = upm.Fluent(acting_name, env.type_manager.BoolType(), OrderedDict(a=user_type(_ROOT)), env)
    up_problem.add_fluent(acting, default_initial_value=False)
    for pred, arg_types in domain.predicates.items():
        signature = OrderedDict((f"x{i}", user_type(_common(domain, t))) for i, t in enumerate(arg_types))
        up_problem.add_fluent(upm.Fluent(pred, env.type_manager.BoolType(), signature, env),
                              default_initial_value=False)
    for obj, obj_type in sorted(problem.objects.items()):
        up_problem.add_object(upm.Object(obj, user_type(obj_type), env))
    names = {}
    taken = set(domain.predicates) | {acting_name}
    for schema in domain.schemas.values():
        choices = list(itertools.product(*map(sorted, schema.param_types)))
        for choice in choices:
            name = schema.name if len(choices) == 1 else "-".join((schema.name, "as", *choice))
            while name in taken:  # UP wants one name per element
                name += "-action"
            taken.add(name)
            names[name] = schema.name
            up_problem.add_action(_action(schema, name, up_problem, acting, tuple(map(user_type, choice)), env))
    for agent in sorted(actors):
        up_problem.set_initial_value(acting(up_problem.object(agent)), True)
    for fact in sorted(problem.init):
        up_problem.set_initial_value(_atom(up_problem, fact), True)
    for fact in sorted(problem.goal):
        up_problem.add_goal(_atom(up_problem, fact))
    return UPTask(domain, problem, env, up_problem, tuple(sorted(actors)), names)


def _common(domain: Domain, allowed: frozenset[str]) -> str:
    """The closest type above every type of ``allowed`` (itself for one type; ``object`` at worst)."""
    shared = frozenset.intersection(*map(domain.ancestors, allowed))
    return max(sorted(shared), key=lambda t: len(domain.ancestors(t)))


def _action(schema: Schema, name: str, up_problem: upm.Problem, acting: upm.Fluent, types: tuple[upm.Type, ...],
            env: Environment):
    params = OrderedDict(zip(schema.params, types))
    action = upm.InstantaneousAction(name, params, env)
    em = env.expression_manager

    def term(t: int | str):
        return action.parameter(schema.params[t]) if isinstance(t, int) else up_problem.object(t)

    def atom(template) -> upm.FNode:
        pred, terms = template
        return up_problem.fluent(pred)(*(term(t) for t in terms))

    if schema.actor is not None:
        action.add_precondition(acting(action.parameter(schema.params[schema.actor])))
    for template in schema.pre:
        action.add_precondition(atom(template))
    for template in schema.neg_pre:
        action.add_precondition(em.Not(atom(template)))
    for a, b in schema.equal:
        action.add_precondition(em.Equals(term(a), term(b)))
    for a, b in schema.unequal:
        action.add_precondition(em.Not(em.Equals(term(a), term(b))))
    for template in set(schema.delete) - set(schema.add):  # PDDL: an add wins over a delete
        action.add_effect(atom(template), False)
    for template in schema.add:
        action.add_effect(atom(template), True)
    return action
