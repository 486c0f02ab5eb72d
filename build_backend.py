"""The package's build backend: setuptools', with one more line in an editable install.

setuptools installs this project in editable mode through an import hook, since
``grounders/``, ``planners/``, ``visualize/`` and ``domains/`` live beside
``strips_int/`` and install inside it. Python asks such a hook only after its
own search of ``sys.path``, which from the folder above a checkout finds the
checkout itself (a folder named ``strips_int``) as a namespace package first,
and the install is shadowed. The added ``.pth`` line puts setuptools' hook
first; it answers only for this package's names, so nothing else changes and
no top-level name is added. Written by hand: setuptools has no option for it.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile

from setuptools import build_meta
from setuptools.build_meta import (build_sdist, build_wheel, get_requires_for_build_editable,
                                   get_requires_for_build_sdist, get_requires_for_build_wheel,
                                   prepare_metadata_for_build_editable, prepare_metadata_for_build_wheel)

#: The PEP 517 and 660 hooks: setuptools' own, but for :func:`build_editable`.
__all__ = ["build_editable", "build_sdist", "build_wheel", "get_requires_for_build_editable",
           "get_requires_for_build_sdist", "get_requires_for_build_wheel", "prepare_metadata_for_build_editable",
           "prepare_metadata_for_build_wheel"]

#: The file the line goes into: after setuptools' own ``__editable__*.pth`` (``.pth`` files run in name order).
PTH = "zz_strips_int_editable_first.pth"


def build_editable(wheel_directory: str, config_settings: dict | None = None,
                   metadata_directory: str | None = None) -> str:
    """setuptools' editable wheel, with :data:`PTH` added when it installs through setuptools' hook."""
    name = build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
    path = os.path.join(wheel_directory, name)
    with zipfile.ZipFile(path) as wheel:
        entries = [(info, wheel.read(info)) for info in wheel.infolist()]
    finders = [info.filename[:-3] for info, _ in entries
               if info.filename.startswith("__editable___") and info.filename.endswith("_finder.py")]
    if len(finders) != 1:  # a static .pth install (no hook): nothing to put first
        return name
    line = (f"import sys, {finders[0]} as finder; hook = getattr(finder, '_EditableFinder', None); "
            "hook in sys.meta_path and sys.meta_path.remove(hook); hook and sys.meta_path.insert(0, hook)\n").encode()
    digest = base64.urlsafe_b64encode(hashlib.sha256(line).digest()).rstrip(b"=").decode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):
                data += f"{PTH},sha256={digest},{len(line)}\n".encode()
            wheel.writestr(info, data)
        wheel.writestr(PTH, line)
    return name
