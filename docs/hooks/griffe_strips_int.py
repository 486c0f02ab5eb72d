"""A griffe extension for the API pages: strips_int as installed, and its docstrings' Sphinx roles as code.

- ``grounders/``, ``planners/``, ``visualize/`` and ``domains/`` install inside
  ``strips_int`` (pyproject's ``package-dir``), which griffe's static finder
  cannot follow; each is loaded from its folder and mounted where it installs,
  so the pages name ``strips_int.grounders.register``, as users import it.
- ``strips_int``'s public names are imported on first use (its module
  ``__getattr__``), so griffe sees none of them there: each is added as an
  alias of where it is defined, and the pages show ``strips_int.analyze``.
- The docstrings cite names with Sphinx roles (``:func:`~strips_int.x.y```);
  mkdocstrings renders Markdown, which would show the roles raw: each becomes a
  code span of the name as Sphinx would print it.

Written by hand: neither griffe nor mkdocstrings maps package-dir folders or
reads Sphinx roles.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import griffe

import strips_int

ROOT = Path(__file__).resolve().parents[2]
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|data|exc|obj|const):`(~?)([^`]+)`")


def mounted() -> dict[str, str]:
    """Subpackage name under ``strips_int`` -> its folder's name, from pyproject's ``package-dir``."""
    with open(ROOT / "pyproject.toml", "rb") as handle:
        folders = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    return {name.split(".", 1)[1]: folder for name, folder in folders.items() if name.startswith("strips_int.")}


def plain_roles(text: str) -> str:
    """``:func:`~a.b.c``` -> ```c```; ``:class:`a.b.C``` -> ```a.b.C```."""
    return ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)


class StripsInt(griffe.Extension):
    """Mount the package-dir folders under ``strips_int``, alias its public names; plain roles in docstrings."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "strips_int":
            return
        for name, folder in mounted().items():
            module = loader.load(folder)
            pkg.set_member(name, module)
        for name, where in strips_int._WHERE.items():  # the package's own index of its public names
            pkg.set_member(name, griffe.Alias(name, f"strips_int.{where}.{name}", parent=pkg))

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
