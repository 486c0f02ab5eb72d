"""Paths the tests share: the repository's own files and the third-party games beside it; the rollouts
that a script of their own makes in a child process; the bytes a piece of work reads; and child processes
bounded in CPU time."""

from __future__ import annotations

import importlib.util
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

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


def child_rollouts(script: str, out: Path, *names: str) -> Path:
    """``out``, filled by ``python tests/SCRIPT out [NAMES]`` (it must succeed): jax runs in that child, never in
    pytest's own process (jax is multithreaded, and other tests fork)."""
    done = subprocess.run([sys.executable, str(ROOT / "tests" / script), str(out), *names], capture_output=True,
                          text=True)
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


#: Repositories fetched beside the worktree (``/work/.mirror/OWNER+NAME/repo``, git directories without a
#: work tree): published benchmarks read in place, never copied here; tests that need them skip without them.
MIRRORS = ROOT.parent / ".mirror"


def mirrored(repo: str, path: str, out: Path, commit: str = "HEAD") -> Path | None:
    """``path`` of the mirrored GitHub repository ``repo`` ("owner/name") at ``commit``, written to ``out``;
    None when the mirror or the file is absent."""
    root = MIRRORS / repo.replace("/", "+") / "repo"
    git_dir = root / ".git" if (root / ".git").is_dir() else root
    if not git_dir.is_dir():
        return None
    done = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"], capture_output=True)
    if done.returncode != 0:
        return None
    out.write_bytes(done.stdout)
    return out


#: The kernel's count of this process's reads (Linux).
PROC_IO = Path("/proc/self/io")


def bytes_read(work) -> int:
    """How many bytes the read calls of ``work()`` returned (``rchar`` of /proc/self/io; the counter's
    own line of the first look, some 100 bytes, is counted too)."""
    def rchar() -> int:
        with open(PROC_IO) as handle:
            return int(handle.readline().split()[1])

    before = rchar()
    work()
    return rchar() - before


#: How many times its CPU bound a child process may take in wall time before a test calls it hung. At load 15
#: on two cores a process gets an eighth of a CPU or less: a wall-clock bound is a hang guard, never a verdict.
LOADED = 20


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's ended children, each with the children it waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_within(command: Sequence[str], cpu: float, **options: Any) -> tuple[subprocess.CompletedProcess, float]:
    """``subprocess.run(command, **options)`` and the CPU seconds its process tree took, which must be at most
    ``cpu`` (a limit checked however loaded the machine is); :data:`LOADED` times that in wall time is a hang."""
    before = children_cpu()
    done = subprocess.run(command, timeout=cpu * LOADED, **options)
    used = children_cpu() - before
    assert used <= cpu, f"{used:.1f} s of CPU, more than {cpu:g}: {' '.join(map(str, command))}"
    return done, used


def refused_moves(actions, positions, vectors: dict, floor) -> tuple[int, int]:
    """Two players' refused moves and collisions, counted from a rollout's logged actions and positions alone:
    a move (``vectors``: action -> (dx, dy)) to a cell ``floor(x, y)`` accepts after which the player stands
    where it stood; both refused towards one cell or each other's cells: a collision."""
    refused = collisions = 0
    for t in range(len(actions)):
        targets = {}
        for j in (0, 1):
            move = vectors.get(int(actions[t][j]))
            if move and list(positions[t][j]) == list(positions[t + 1][j]):
                x, y = positions[t][j][0] + move[0], positions[t][j][1] + move[1]
                if floor(x, y):
                    targets[j] = [x, y]
        refused += len(targets)
        collisions += len(targets) == 2 and (targets[0] == targets[1] or (
            targets[0] == list(positions[t][1]) and targets[1] == list(positions[t][0])))
    return refused, collisions


def default_sigint() -> None:
    """``preexec_fn`` of a child a test interrupts: Ctrl-C at its default, as a terminal's program has it. A
    process started with SIGINT ignored keeps ignoring it (POSIX; Python installs no KeyboardInterrupt
    then), and a test process may have inherited it ignored: one loaded run's four interrupt tests saw
    their children finish or hang."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
