"""The package list, found at build time: ``strips_int/`` and the folders that install inside it.

``grounders/``, ``planners/``, ``visualize/`` and ``domains/`` live beside ``strips_int/`` and install
as ``strips_int.grounders`` and so on (the package-dir mapping). setuptools' ``find_packages`` walks
each folder, so a new sub-package (a grounder) is in the wheel without a line anywhere; pyproject.toml
holds the rest of the configuration. By hand because ``[tool.setuptools.packages.find]`` cannot map
a folder to a name inside another package.
"""

from __future__ import annotations

from setuptools import find_packages, setup

#: Folder -> the package it installs as.
PACKAGE_DIR = {"strips_int": "strips_int", "strips_int.grounders": "grounders", "strips_int.planners": "planners",
               "strips_int.visualize": "visualize", "strips_int.domains": "domains"}


def packages() -> list[str]:
    """Every package of the distribution: each mapped folder and the sub-packages found under it."""
    return sorted(name for package, folder in PACKAGE_DIR.items()
                  for name in (package, *(f"{package}.{sub}" for sub in find_packages(folder))))


if __name__ == "__main__":
    setup(packages=packages(), package_dir={k: v for k, v in PACKAGE_DIR.items() if k != v})
