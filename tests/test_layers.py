"""The package's layers, read from the source with ast (nothing imported or run): imports go one way
(command line -> batch -> analysis -> model), no module imports itself through others, and only
grounders import a particular grounder (the core reaches environments through the registry)."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import ROOT

#: The folders whose modules install as strips_int's (``grounders/`` is ``strips_int.grounders``, ...).
FOLDERS = {"strips_int": "strips_int", "grounders": "strips_int.grounders", "planners": "strips_int.planners",
           "visualize": "strips_int.visualize", "domains": "strips_int.domains"}
BASE = ("strips_int.errors", "strips_int.files")
#: The registry and the protocol: all the core may import of the grounders (the layers below allow the whole
#: folder; :func:`test_only_grounders_import_a_particular_grounder` allows only these).
REGISTRY = ("strips_int.grounders", "strips_int.grounders.base")
#: What each layer may import besides itself and the package's top (``strips_int.__version__``).
ALLOWED = {
    "strips_int.errors": BASE,
    "strips_int.files": BASE,
    "strips_int.model": BASE,
    "strips_int.planners": (*BASE, "strips_int.model"),
    "strips_int.analysis": (*BASE, "strips_int.model", "strips_int.planners"),
    "strips_int.grounders": (*BASE, "strips_int.model", "strips_int.cli.contract", "strips_int.online"),
    "strips_int.online": (*BASE, "strips_int.model", "strips_int.analysis", "strips_int.planners", *REGISTRY),
    "strips_int.batch": (*BASE, "strips_int.model", "strips_int.analysis", "strips_int.planners", *REGISTRY),
    "strips_int.visualize": (*BASE, "strips_int.model", "strips_int.analysis", *REGISTRY),
    "strips_int.cli": (*BASE, "strips_int.model", "strips_int.analysis", "strips_int.planners", "strips_int.batch",
                       "strips_int.visualize", *REGISTRY),
    "strips_int.domains": (),
}
#: The ``python -m strips_int.NAME`` entry points, which only run a command line.
SHIMS = ("strips_int.__main__", "strips_int.check", "strips_int.evaluate", "strips_int.merge", "strips_int.plot",
         "strips_int.rc")


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the installed package by name: its file and whether it is a package's ``__init__``."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = (path, path.name == "__init__.py")
    return found


def imports() -> dict[str, set[str]]:
    """Each module's imports of the package's modules, at any depth of its code (a lazy import counts)."""
    known = modules()
    graph = {}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    found.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
        graph[name] = {m for m in found if m in known and m != name}
    return graph


def layer(name: str) -> str:
    """The layer a module belongs to: the longest prefix of :data:`ALLOWED` that names it."""
    return max((key for key in ALLOWED if name == key or name.startswith(key + ".")), key=len)


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_no_module_imports_itself_through_others():
    graph = imports()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert cycles == []


def test_imports_go_one_way_through_the_layers():
    wrong = []
    for name, targets in sorted(imports().items()):
        if name in SHIMS or name == "strips_int":  # the top imports its names lazily, by their module's name
            wrong += [(name, t) for t in targets if not within(t, ("strips_int.cli",))]
            continue
        own = layer(name)
        wrong += [(name, t) for t in sorted(targets) if t != "strips_int" and layer(t) != own
                  and not within(t, ALLOWED[own])]
    assert wrong == []


def test_only_grounders_import_a_particular_grounder():
    particular = [name for name in modules() if name.startswith("strips_int.grounders.") and name not in REGISTRY]
    reaching = {(name, target) for name, targets in imports().items() if not name.startswith("strips_int.grounders")
                for target in targets if target in particular}
    assert reaching == set()
