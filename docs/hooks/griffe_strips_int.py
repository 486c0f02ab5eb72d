"""A griffe extension for the API pages: strips_int as installed, and its docstrings' Sphinx roles as code.

- ``grounders/``, ``planners/``, ``visualize/`` and ``domains/`` install inside
  ``strips_int`` (pyproject's ``package-dir``), which griffe's static finder
  cannot follow; each is loaded from its folder and mounted where it installs,
  so the pages name ``strips_int.grounders.register``, as users import it.
- ``strips_int``'s public names are imported on first use (its module
  ``__getattr__``), so griffe sees none of them there: each name of its
  ``__all__`` is added as an alias of where it is defined, and the pages show
  ``strips_int.analyze``.
- The docstrings cite names with Sphinx roles (``:func:`~strips_int.x.y```);
  mkdocstrings renders Markdown, which would show the roles raw: each becomes a
  code span of the name as Sphinx would print it.

Written by hand: neither griffe nor mkdocstrings maps package-dir folders or
reads Sphinx roles.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import griffe

import strips_int

ROOT = Path(__file__).resolve().parents[2]
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|data|exc|obj|const):`(~?)([^`]+)`")


def mounted() -> list[str]:
    """The repository's top-level packages that install inside ``strips_int`` (pyproject's ``package-dir``),
    as the installed package finds them."""
    found = []
    for folder in sorted(ROOT.iterdir()):
        if folder.name != "strips_int" and (folder / "__init__.py").is_file():
            spec = importlib.util.find_spec(f"strips_int.{folder.name}")
            if spec is not None and [Path(p).resolve() for p in spec.submodule_search_locations or ()] == [folder]:
                found.append(folder.name)
    return found


def plain_roles(text: str) -> str:
    """``:func:`~a.b.c``` -> ```c```; ``:class:`a.b.C``` -> ```a.b.C```."""
    return ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)


class StripsInt(griffe.Extension):
    """Mount the package-dir folders under ``strips_int``, alias its public names; plain roles in docstrings."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "strips_int":
            return
        for name in mounted():
            pkg.set_member(name, loader.load(name))
        for name in strips_int.__all__:
            where = getattr(getattr(strips_int, name), "__module__", None)  # a class or function: where defined
            if where is not None and where != "strips_int":
                pkg.set_member(name, griffe.Alias(name, f"{where}.{name}", parent=pkg))

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
