"""The causal graph of an executed trace (SPEC sections 3 and 7).

Nodes are step indices plus ``INIT``; there is one edge per causal link
(achiever -> consumer, one per precondition fact). The achiever of a fact for
step k is the last earlier step whose add list holds it (even if it already
held: that is the STRIPS add list, which the SPEC names), else ``INIT``.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

import networkx as nx

from .task import Fact, format_fact
from .trace import Run

INIT = "init"


def build_graph(run: Run, objects_of: Callable[[Fact], tuple[str, ...]]) -> nx.MultiDiGraph:
    """One node per step (index, t, agent, action, kind) plus ``INIT``; one edge per causal link.

    ``objects_of`` gives a fact's objects (SPEC section 4) for the edge attribute.
    The goal facts that hold at the end are recorded as ``graph.graph["goal"]``
    mapping each fact to its last achiever.
    """
    graph = nx.MultiDiGraph()
    graph.add_node(INIT, index=-1, t=-1, agent=None, action="init", kind="init")
    last_adder: dict[Fact, int | str] = {}
    nodes, edges = [], []
    for step in run.trace.steps:
        action = step.action
        k = step.index
        nodes.append(
            (k, {"index": k, "t": step.t, "agent": action.actor, "action": str(action),
                 "kind": "agent" if action.actor else "environment"})
        )
        for fact in action.pre:
            text = format_fact(fact)
            edges.append((last_adder.get(fact, INIT), k, text, {"fact": fact, "objects": objects_of(fact)}))
        for fact in action.add:
            last_adder[fact] = k
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    graph.graph["goal"] = {fact: last_adder.get(fact, INIT) for fact in sorted(run.goal_achieved)}
    return graph


def carries_relevance(fact: Fact, ignored: frozenset[str], agents: frozenset[str]) -> bool:
    """SPEC section 3: bookkeeping (an ignored predicate) and an agent's own status carry no relevance.

    An agent's own status is a fact with arguments, all of them agents, such as
    ``(hand-empty player0)``: freeing one's hands for the next task does not make
    the task that freed them serve the goal. A 0-ary fact carries relevance.
    """
    if fact[0] in ignored:
        return False
    return len(fact) == 1 or not agents.issuperset(fact[1:])


def relevant_steps(graph: nx.MultiDiGraph, ignored: frozenset[str], agents: frozenset[str]) -> dict[int, Fact]:
    """Steps with a chain of causal links to an achieved goal fact, each with one such fact.

    A step is relevant when it last achieved a goal fact, or has a causal link,
    through a fact that carries relevance (:func:`carries_relevance`), to a
    relevant step (SPEC section 3): a backward search from the achievers. The
    last achiever of a goal fact is relevant whatever the goal fact is.
    """
    reason: dict[int, Fact] = {}
    queue: deque[int] = deque()
    for fact, achiever in graph.graph["goal"].items():
        if achiever != INIT and achiever not in reason:
            reason[achiever] = fact
            queue.append(achiever)
    pred = graph.pred
    while queue:
        node = queue.popleft()
        for earlier, links in pred[node].items():
            if earlier == INIT or earlier in reason:
                continue
            if any(carries_relevance(data["fact"], ignored, agents) for data in links.values()):
                reason[earlier] = reason[node]
                queue.append(earlier)
    return reason


def influence_trajectory(graph: nx.MultiDiGraph, obj: str | None = None, since: int = 0) -> nx.MultiDiGraph:
    """SPEC section 7: the steps at or after time ``since`` whose action mentions ``obj``, with their links.

    ``obj`` None keeps every step from ``since`` (the whole influence graph).
    """

    def mentions(data: dict) -> bool:
        return obj is None or obj in data["action"][1:-1].split()[1:]

    keep = [n for n, data in graph.nodes(data=True) if n != INIT and data["t"] >= since and mentions(data)]
    return graph.subgraph(keep).copy()
