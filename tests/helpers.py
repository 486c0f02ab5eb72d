"""Paths the tests share: the repository's own files and the third-party games beside it; and the rollouts
that a script of their own makes in a child process."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAR = ROOT / "domains" / "sar.pddl"
EXAMPLES = ROOT / "examples" / "sar"
#: The third-party games, read in place; tests that need them skip without them.
SHARED_DATA = ROOT.parent / "shared" / "data"
#: Why a test that runs JaxMARL (or jax) is skipped without it: the default tests need neither.
NO_JAXMARL = "needs JaxMARL and jax: pip install -e '.[jaxmarl-tests]'"
#: The mark of a test that runs JaxMARL or jax: selected with ``pytest -m jaxmarl``, skipped without them.
needs_jaxmarl = [pytest.mark.jaxmarl,
                 pytest.mark.skipif(importlib.util.find_spec("jaxmarl") is None, reason=NO_JAXMARL)]


def child_rollouts(script: str, out: Path) -> Path:
    """``out``, filled by ``python tests/SCRIPT out`` (it must succeed): jax runs in that child, never in
    pytest's own process (jax is multithreaded, and other tests fork)."""
    done = subprocess.run([sys.executable, str(ROOT / "tests" / script), str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def npz_arrays(path: Path) -> dict:
    """Every array of an ``.npz`` file, loaded without pickle."""
    import numpy as np

    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def check_without_jax(*args: str | Path) -> str:
    """What ``python -m strips_int.check ARGS`` prints in a child process that cannot import jax or jaxmarl (it must succeed)."""
    code = ("import sys; sys.modules['jax'] = None; sys.modules['jaxmarl'] = None\n"
            "from strips_int.cli.check import main; sys.exit(main())")
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout
