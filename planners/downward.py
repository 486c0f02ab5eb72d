"""Fast Downward's search engine on a task strips_int has ground itself: no unified-planning, no translator.

Required cooperation asks a planner about every agent's projection of many layouts. Through
unified-planning (:mod:`.solve`) each call costs 0.3-2 s of CPU before Fast Downward searches: the
import, the conversion, and Fast Downward's translator, in Python, grounding the problem again. The
projections are ground already (:mod:`strips_int.analysis.ground_task`), so :func:`search` writes them
straight in Fast Downward's input format, SAS+, and runs its search binary: a median 13 ms of CPU per
call on generated kitchens. A greedy search written here in Python, guided by FF alone, took seconds
where a soup needs three onions (FF counts one onion thrice); Fast Downward's landmarks see that
each must be fetched. No one configuration is fast on all: the ``lama-first`` alias (landmarks and
FF) solves each single agent's projection within 0.5 s, yet took up to 4 s on a joint problem that
lazy greedy search on FF alone solves in 0.1 s, and the other way round. So :data:`CONFIGURATIONS`
run in turn, each but the last for a slice of time (a search stopped by its slice is exit code 12,
"unsolved", never a proof; each runs in a process of its own, as Fast Downward's evaluators are not
meant to be shared by two searches).

SAS+ is written by hand because no library writes it from ground actions (Fast Downward's translator
starts from PDDL): each fact is a variable of two values, ``0`` true and ``1`` false, so negative
preconditions are preconditions on value ``1``; no mutex groups are declared (they only guide).
"""

from __future__ import annotations

import importlib.util
import resource
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Collection

from strips_int.model.task import Fact, GroundAction

from .result import BY_SEARCH, SOLVED, UNKNOWN, UNSOLVABLE, PlanResult, stopped

#: The phase named when the time limit stops this search.
SEARCH = "search"
#: Fast Downward's ``lama-first`` alias (driver/aliases.py), with a time limit as ``max_time``.
LAMA_FIRST = ("let(hlm, eval_modify_costs(landmark_sum(lm_factory=lm_reasonable_orders_hps(lm_rhw()),pref=false),"
              "cost_type=one),let(hff, eval_modify_costs(ff(),cost_type=one),"
              "lazy_greedy([hff,hlm],preferred=[hff,hlm],cost_type=one,reopen_closed=false,max_time={seconds:.3f})))")
#: Lazy greedy search on FF with preferred operators.
LAZY_FF = "let(hff, ff(),lazy_greedy([hff],preferred=[hff],max_time={seconds:.3f}))"
#: The configurations tried in turn and the seconds each but the last may take (the last: all that is left).
CONFIGURATIONS = ((LAMA_FIRST, 0.5), (LAZY_FF, None))
#: Exit codes of the search binary (Fast Downward's driver/returncodes.py).
_FOUND, _UNSOLVABLE, _UNSOLVED = 0, 11, 12


def binary() -> Path | None:
    """The ``downward`` search binary that up-fast-downward ships, or None where it is not installed."""
    spec = importlib.util.find_spec("up_fast_downward")
    folders = (spec.submodule_search_locations or ()) if spec is not None else ()
    for folder in folders:
        path = Path(folder, "downward", "builds", "release", "bin", "downward")
        if path.is_file():
            return path
    return None


def search(init: frozenset[Fact], goal: frozenset[Fact], actions: Collection[GroundAction], deadline: float,
           lasting: frozenset[Fact] = frozenset()) -> PlanResult:
    """A plan from ``init`` to ``goal`` with ``actions``, a proof that there is none (Fast Downward
    explored every state: ``exhausted search``), or unknown: the time limit (a ``time.monotonic()``
    ``deadline``), an incomplete search or a missing binary (the caller may ask the planner path).
    ``lasting`` facts hold throughout (no action deletes them): they are not written."""
    started = time.perf_counter()
    path = binary()
    if path is None:
        return PlanResult(UNKNOWN, detail="Fast Downward's search binary is not installed (up-fast-downward)")
    actions = list(actions)
    text = sas(init, goal, actions, lasting)
    if deadline <= time.monotonic():
        return stopped(SEARCH, 0.0)
    before = _children_cpu()
    with tempfile.TemporaryDirectory(prefix="strips-int-search-") as folder:
        plan_file = Path(folder, "plan")
        for configuration, slice_ in CONFIGURATIONS:
            left = deadline - time.monotonic()
            limit = left if slice_ is None else min(left, slice_)
            try:
                done = subprocess.run([str(path), "--search", configuration.format(seconds=limit),
                                       "--internal-plan-file", str(plan_file)], input=text, capture_output=True,
                                      text=True, cwd=folder, timeout=left)
            except subprocess.TimeoutExpired:
                return stopped(SEARCH, time.perf_counter() - started)
            if done.returncode != _UNSOLVED or limit == left:
                break
        found = plan_file.read_text() if done.returncode == _FOUND and plan_file.is_file() else None
    seconds, cpu = time.perf_counter() - started, _children_cpu() - before
    if found is not None:
        plan = tuple(actions[int(line.strip("()\n").removeprefix("a"))] for line in found.splitlines()
                     if line.startswith("("))
        return PlanResult(SOLVED, (plan,), seconds=seconds, detail="fast-downward search: 1 plan", cpu=cpu)
    if done.returncode == _UNSOLVABLE:
        return PlanResult(UNSOLVABLE, proof=BY_SEARCH, seconds=seconds, detail="fast-downward search: search space "
                          "exhausted", cpu=cpu)
    if time.monotonic() >= deadline:
        return stopped(SEARCH, seconds)
    last = (done.stdout.strip().splitlines() or [""])[-1]
    return PlanResult(UNKNOWN, seconds=seconds, detail=f"fast-downward search: exit code {done.returncode} {last}",
                      cpu=cpu)


def sas(init: frozenset[Fact], goal: frozenset[Fact], actions: Collection[GroundAction],
        lasting: frozenset[Fact] = frozenset()) -> str:
    """The task in SAS+ (Fast Downward's translator output format, version 3); operator ``a<k>`` is
    ``actions[k]``. A fact both added and deleted is added (PDDL: an add wins); conditions on
    ``lasting`` facts hold and are left out."""
    facts = sorted((init | goal | {f for a in actions for f in (*a.pre, *a.neg_pre, *a.add, *a.delete)}) - lasting)
    var = {fact: i for i, fact in enumerate(facts)}
    lines = ["begin_version", "3", "end_version", "begin_metric", "0", "end_metric", str(len(facts))]
    for i in range(len(facts)):  # atom names only label; "p<i>()" is what the landmark factory parses
        lines += ["begin_variable", f"var{i}", "-1", "2", f"Atom p{i}()", f"NegatedAtom p{i}()", "end_variable"]
    lines += ["0", "begin_state", *("0" if fact in init else "1" for fact in facts), "end_state",
              "begin_goal", str(len(goal)), *(f"{var[f]} 0" for f in sorted(goal)), "end_goal", str(len(actions))]
    for k, action in enumerate(actions):
        wanted = {var[f]: 0 for f in action.pre - lasting} | {var[f]: 1 for f in action.neg_pre}
        becomes = {var[f]: 1 for f in action.delete} | {var[f]: 0 for f in action.add}
        prevail = [f"{v} {value}" for v, value in sorted(wanted.items()) if v not in becomes]
        effects = [f"0 {v} {wanted.get(v, -1)} {value}" for v, value in sorted(becomes.items())]
        lines += ["begin_operator", f"a{k}", str(len(prevail)), *prevail, str(len(effects)), *effects, "1",
                  "end_operator"]
    lines.append("0")  # no axioms
    return "\n".join(lines) + "\n"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
