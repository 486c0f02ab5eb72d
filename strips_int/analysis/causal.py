"""The causal links of an executed trace: relevance, and their graph on request (definitions sections 3 and 7).

There is one causal link per precondition fact of each step (achiever ->
consumer). The achiever of a fact for step k is the last earlier step whose
add list holds it (even if it already held: that is the STRIPS add list,
which the definitions name), else ``INIT``. Execution finds them, in its one pass
over the steps (:attr:`strips_int.model.trace.Run.links`).

Links are kept as plain per-step tuples (a few hundred bytes a step); the
networkx graph, which costs ten times as much time and memory, is built only
for plots, GraphML and notebooks (:func:`causal_graph`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from strips_int.model.execution import INIT, CausalLinks
from strips_int.model.task import Fact, format_fact
from strips_int.model.trace import Step

from .views import View

if TYPE_CHECKING:
    import networkx as nx

def causal_graph(steps: Sequence[Step], links: CausalLinks, objects_of: Callable[[Fact], tuple[str, ...]]
                 ) -> nx.MultiDiGraph:
    """The links as a graph: one node per step (index, t, agent, action, kind) plus ``INIT``, one edge per
    link keyed by its fact's PDDL text (attributes fact and objects, from ``objects_of``, definitions section 4).
    ``graph.graph["goal"]`` maps each achieved goal fact to its last achiever."""
    import networkx as nx

    graph = nx.MultiDiGraph()
    graph.add_node(INIT, index=-1, t=-1, agent=None, action="init", kind="init")
    graph.add_nodes_from(
        (step.index, {"index": step.index, "t": step.t, "agent": step.action.actor, "action": str(step.action),
                      "kind": "agent" if step.action.actor else "environment"})
        for step in steps
    )
    graph.add_edges_from(
        (achiever, step.index, format_fact(fact), {"fact": fact, "objects": objects_of(fact)})
        for step in steps
        for fact, achiever in zip(step.action.pre, links.achievers[step.index])
    )
    graph.graph["goal"] = dict(links.goal)
    return graph


def relevant_steps(links: CausalLinks, views: Sequence[View]) -> dict[int, Fact]:
    """Steps with a chain of causal links to an achieved goal fact, each with one such fact.

    A step is relevant when it last achieved a goal fact, or has a causal link,
    through a fact that carries relevance (:func:`~strips_int.analysis.views.carries_relevance`),
    to a relevant step (definitions section 3): a backward search from the achievers. The
    last achiever of a goal fact is relevant whatever the goal fact is. ``views``:
    each step's action (:func:`~strips_int.analysis.views.view`).
    """
    reason: dict = {INIT: None}  # INIT is never relevant: as a key, one test skips it and steps already seen
    for fact, achiever in links.goal.items():
        if achiever not in reason:
            reason[achiever] = fact
    queue = list(reason)[1:]  # breadth first: the loop also visits the steps appended as it goes
    all_achievers = links.achievers
    for node in queue:
        positions = views[node].carrying
        achievers = all_achievers[node]
        if len(positions) == 1:  # most steps (a move needs where its agent stands)
            earlier = achievers[positions[0]]
            if earlier not in reason:
                reason[earlier] = reason[node]
                queue.append(earlier)
            continue
        chosen = set(map(achievers.__getitem__, positions))
        goal = reason[node]
        for earlier in achievers:  # each achiever in the order of its first link (a repeat is then in reason)
            if earlier not in reason and earlier in chosen:
                reason[earlier] = goal
                queue.append(earlier)
    del reason[INIT]
    return reason


def influence_trajectory(graph: nx.MultiDiGraph, obj: str | None = None, since: int = 0) -> nx.MultiDiGraph:
    """definitions section 7: the steps at or after time ``since`` whose action mentions ``obj``, with their links.

    ``obj`` None keeps every step from ``since`` (the whole influence graph).
    """

    def mentions(data: dict) -> bool:
        return obj is None or obj in data["action"][1:-1].split()[1:]

    keep = [n for n, data in graph.nodes(data=True) if n != INIT and data["t"] >= since and mentions(data)]
    return graph.subgraph(keep).copy()
