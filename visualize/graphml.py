"""The causal graph as GraphML for other tools: every attribute a plain string, integer or boolean, never None;
every string :func:`~strips_int.errors.printable` (control characters escaped: XML cannot hold them)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from strips_int.analysis.report import Report
from strips_int.errors import path_argument, printable
from strips_int.model.task import format_fact

from .style import report_argument, writing

if TYPE_CHECKING:
    import networkx as nx


def graphml_graph(report: Report) -> nx.MultiDiGraph:
    """The report's causal graph with plain attributes, plus one ``interdependence`` edge per pair.

    Nodes: index, t, agent ("" for the environment and ``init``), action, kind,
    goal (the goal fact it last achieved, or ""). Edges: link (``causal`` or
    ``interdependence``), fact, objects (comma-separated), category and need
    (``required`` or ``optional``, definitions section 10; both "" for causal links).
    """
    import networkx as nx  # (here: the HTML report and the figures need no networkx)

    source = report.graph
    goal = {achiever: format_fact(fact) for fact, achiever in source.graph["goal"].items()}
    plain = nx.MultiDiGraph(name=report.source, problem=report.problem.name, domain=report.domain)
    for node, data in source.nodes(data=True):
        plain.add_node(str(node), index=int(data["index"]), t=int(data["t"]), agent=data["agent"] or "",
                       action=data["action"], kind=data["kind"], goal=goal.get(node, ""))
    for u, v, data in source.edges(data=True):
        plain.add_edge(str(u), str(v), link="causal", fact=format_fact(data["fact"]),
                       objects=",".join(data["objects"]), category="", need="")
    for inter in report.interdependencies:
        plain.add_edge(str(inter.giver.index), str(inter.receiver.index), link="interdependence",
                       fact=" ".join(format_fact(f) for f in inter.facts), objects=",".join(inter.objects),
                       category=inter.category, need="required" if inter.required else "optional")
    for attributes in (plain.graph, *(d for _, d in plain.nodes(data=True)), *(d for *_, d in plain.edges(data=True))):
        for key, value in attributes.items():  # XML holds no control character (a file name may have one)
            if isinstance(value, str):
                attributes[key] = printable(value)
    return plain


def write_graphml(report: Report, path: str | Path) -> Path:
    """Write :func:`graphml_graph` to ``path``.

    Parameters:
        report: the game's report.
        path: the GraphML file.

    Returns:
        ``path``.
    """
    import networkx as nx

    report_argument("write_graphml", report)
    path = path_argument("write_graphml", "path", path)
    graph = graphml_graph(report)
    with writing(path):
        nx.write_graphml(graph, path)
    return path
