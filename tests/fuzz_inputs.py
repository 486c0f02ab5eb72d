"""Small valid inputs of every format strips_int reads, the ways the fuzz suite breaks them, and the promise it checks.

The valid inputs are synthesized (an Overcooked game in five formats, a JaxMARL
rollout) or read from ``examples/`` (traces, PDDL, SAR logs and scenarios), so
the fuzz suite needs no third-party data. The promise (issue 15): an input
either reads and analyses, or fails with a ``StripsIntError`` whose text is one
bounded line naming the file; nothing else escapes, nothing runs unbounded.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import pickle
import re
import resource
import signal
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
from helpers import ROOT, run_within
from hypothesis import strategies as st

from strips_int.errors import StripsIntError

#: PDDL tokens that probe what the domain and problem readers admit.
PDDL_TOKENS = ["(", ")", "either", "=", "or", "exists", "forall", "not", "and", "when", ":equality", ":types",
               ":action", ":objects", "-", "object", "?x", "1e400", "9" * 5000, "location", "agent", ":parameters"]


@st.composite
def mutated_pddl(draw: st.DrawFn, text: str, tokens_from: list[str] | None = None,
                 kinds: tuple[str, ...] = ("drop", "replace", "repeat", "cut")) -> str:
    """PDDL text with one to three token edits: a token dropped, replaced or inserted (from ``tokens_from``,
    default :data:`PDDL_TOKENS`), an s-expression repeated (duplicate actions, types, objects), or the
    text cut."""
    tokens = re.findall(r";[^\n]*|\(|\)|[^\s()]+", text)
    pool = PDDL_TOKENS if tokens_from is None else tokens_from
    for _ in range(draw(st.integers(1, 3))):
        if not tokens:
            break
        at = draw(st.integers(0, len(tokens) - 1))
        kind = draw(st.sampled_from(list(kinds)))
        if kind == "drop":
            del tokens[at]
        elif kind == "replace":
            tokens[at] = draw(st.sampled_from(pool))
        elif kind == "insert":
            tokens.insert(at, draw(st.sampled_from(pool)))
        elif kind == "cut":
            del tokens[at:]
        elif "(" in tokens:
            at = draw(st.sampled_from([i for i, token in enumerate(tokens) if token == "("]))
            depth, end = 0, at
            for end in range(at, len(tokens)):
                depth += {"(": 1, ")": -1}.get(tokens[end], 0)
                if depth == 0:
                    break
            tokens[end + 1:end + 1] = tokens[at:end + 1]
    return " ".join(t + "\n" if t.startswith(";") else t for t in tokens)


#: The longest error line accepted: a path, a place and a message, never a whole input value.
MAX_ERROR = 600
#: Seconds one input may take, read and analysed, in process (a hang fails the example, not the run).
IN_PROCESS_SECONDS = 20
#: Bytes one input may grow the process by, in process (and the address space of a command line's process).
IN_PROCESS_MEMORY = 2 << 30
#: Seconds of CPU one command line (its whole process tree) may take on one bad input.
CLI_SECONDS = 60

# ---------------------------------------------------------------- a small Overcooked game, every format

#: Player 0 at (1,1) reaches the onion dispenser and the middle counter; player 1 at (3,1) the counter and the pot.
GRID = "XXXSX\nO1X2P\nXXXDX\n"
N, S, E, W, STAY, INTERACT = 0, 1, 2, 3, 4, 5
VECTORS = {N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0], STAY: [0, 0], INTERACT: "interact"}


def _player(pos: list[int], facing: list[int], held: str | None = None) -> dict:
    player = {"position": pos, "orientation": facing}
    return {**player, "held_object": {"name": held, "position": pos}} if held else player


def onion_pass() -> tuple[list[dict], list[list[int]], list[int]]:
    """Player 0 fetches an onion and leaves it on the counter; player 1 takes it into the pot (old rules).

    The states of the user-study format, one per joint action (the state after the last is the final one:
    :func:`final_state`), the joint actions as indices, the per-step rewards.
    """
    onion_on_counter = {"2,1": {"name": "onion", "position": [2, 1]}}
    rows = [  # (player 0, player 1, objects) before each joint action
        ((_player([1, 1], [-1, 0]), _player([3, 1], [-1, 0]), {}), [INTERACT, STAY]),
        ((_player([1, 1], [-1, 0], "onion"), _player([3, 1], [-1, 0]), {}), [E, STAY]),
        ((_player([1, 1], [1, 0], "onion"), _player([3, 1], [-1, 0]), {}), [INTERACT, STAY]),
        ((_player([1, 1], [1, 0]), _player([3, 1], [-1, 0]), onion_on_counter), [W, INTERACT]),
        ((_player([1, 1], [-1, 0]), _player([3, 1], [-1, 0], "onion"), {}), [STAY, E]),
        ((_player([1, 1], [-1, 0]), _player([3, 1], [1, 0], "onion"), {}), [STAY, INTERACT]),
    ]
    states = [{"players": [p0, p1], "objects": objects, "order_list": None} for (p0, p1, objects), _ in rows]
    return states, [joint for _, joint in rows], [0] * len(rows)


def final_state() -> dict:
    return {"players": [_player([1, 1], [-1, 0]), _player([3, 1], [1, 0])],
            "objects": {"4,1": {"name": "soup", "position": [4, 1], "state": ["onion", 1, 0]}}, "order_list": None}


def user_study_game() -> dict:
    """The web app's JSON (shared/data/user-study): one list of states and of actions, mdp_params a list."""
    states, actions, rewards = onion_pass()
    return {"ep_states": [states], "ep_actions": [actions], "ep_rewards": [rewards],
            "mdp_params": [{"layout_name": "scripted", "num_items_for_soup": 3, "cook_time": 20}]}


def _listed(state: dict) -> dict:
    return {**state, "objects": list(state["objects"].values())}


def episode_game() -> dict:
    """overcooked-ai's episode JSON: objects as a list, actions as vectors, a final state, the terrain recorded."""
    states, actions, rewards = onion_pass()
    return {"ep_states": [_listed(s) for s in [*states, final_state()]],
            "ep_actions": [[VECTORS[a] for a in joint] for joint in actions], "ep_rewards": rewards,
            "mdp_params": {"layout_name": "scripted", "cook_time": 20, "terrain": GRID.split()}}


def csv_rows() -> list[dict[str, Any]]:
    """overcooked-ai's human-data CSV rows (shared/data/overcooked-ai), cells parsed: two trials of the game."""
    states, actions, rewards = onion_pass()
    return [{"state": _listed(state), "joint_action": [VECTORS[a] for a in joint], "reward": reward,
             "layout_name": "scripted", "layout": GRID.split(), "trial_id": trial,
             "player_0_is_human": True, "player_1_is_human": True}
            for trial in ("a", "b") for state, joint, reward in zip(states, actions, rewards)]


def csv_text(rows: list[dict[str, Any]]) -> str:
    """The CSV of ``rows``: JSON cells as JSON text, the rest as they are."""
    fields = list(dict.fromkeys(key for row in rows for key in row)) or ["state"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fields)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: json_text(v) if isinstance(v, (dict, list)) else v for k, v in row.items()})
    return out.getvalue()


# ---------------------------------------------------------------- real overcooked-ai files, cut short

#: overcooked-ai's own saver's episode JSON, two episodes (tests/data/overcooked_ai).
TWO_EPISODES = ROOT / "tests" / "data" / "overcooked_ai" / "classic_two_games.json"
#: overcooked-ai's sample of its 2019 human-human games (third-party, read in place: shared/data/overcooked-ai).
HH_2019 = ROOT.parent / "shared" / "data" / "overcooked-ai" / "2019_hh_trials_sample.csv"
#: Steps kept of each real game: mutations and analysis stay fast, and a game's first steps are a whole game.
REAL_STEPS = 30


def two_episodes() -> dict:
    """overcooked-ai's episode JSON of two episodes (``save_traj_as_json``), each cut to its first steps."""
    data = json.loads(TWO_EPISODES.read_text())
    for key in ("ep_states", "ep_actions", "ep_rewards", "ep_dones"):
        data[key] = [episode[:REAL_STEPS] for episode in data[key]]
    return data


def hh_2019_rows() -> list[dict[str, Any]]:
    """The first steps of each trial of the 2019 human-human sample (the CSV pandas' ``to_csv`` wrote), its JSON
    cells (state, joint action, terrain) parsed, as :func:`csv_text` writes them back."""
    kept: dict[str, list[dict[str, Any]]] = {}
    with HH_2019.open(newline="") as handle:
        for row in csv.DictReader(handle):
            trial = kept.setdefault(row["trial_id"], [])
            if len(trial) < REAL_STEPS:
                trial.append({**row, "state": json.loads(row["state"]),
                              **{k: json.loads(row[k].replace("'", '"')) for k in ("joint_action", "layout")}})
    return [row for rows in kept.values() for row in rows]


def rollout_list(stride: int = 3) -> list:
    """A ZSC-Eval rollout pickle's list (shared/data/zsceval-rollouts): [state, (agent index,) joint action,
    events] per step, then the final state; positions as tuples."""
    states, actions, _ = onion_pass()

    def tupled(state: dict) -> dict:
        players = [{**p, "position": tuple(p["position"]), "orientation": tuple(p["orientation"]),
                    "held_object": p.get("held_object")} for p in state["players"]]
        return {**_listed(state), "players": players, "timestep": 0}

    out: list = []
    for state, joint in zip(states, actions):
        out += [tupled(state), *([0] if stride == 4 else []),
                tuple(tuple(VECTORS[a]) if a != INTERACT else "interact" for a in joint),
                [{"delivery": 0}, {"delivery": 0}]]
    return out + [tupled(final_state())]


#: JaxMARL's maze_map object codes of the grid characters (grounders/jaxmarl/game.py).
_JAX_CODES = {"X": 2, "O": 4, "D": 6, "S": 7, "P": 8, " ": 1, "1": 1, "2": 1}


def rollout_arrays() -> dict[str, np.ndarray]:
    """A JaxMARL rollout's arrays (grounders/jaxmarl/rollout.py): agent 0 takes an onion, then both stay."""
    from strips_int.grounders.jaxmarl import FORMAT

    rows = GRID.split("\n")[:3]
    height, width = len(rows), len(rows[0])
    inv = [[1, 1], [3, 1], [3, 1], [3, 1]]  # empty, then an onion in agent 0's hand
    maze = np.zeros((len(inv), height, width, 3), dtype=np.int64)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            maze[:, y, x, 0] = _JAX_CODES[char]
            maze[:, y, x, 2] = 23 if char == "P" else 0
    maze[:, 1, 1, 0] = maze[:, 1, 3, 0] = 10  # the agents
    return {
        "format": np.array(FORMAT), "layout": np.array("custom"), "grid": np.array(rows), "max_steps": np.array(400),
        "actions": np.array([[5, 4], [4, 4], [4, 4]], dtype=np.int64), "rewards": np.zeros(3),
        "agent_pos": np.array([[[1, 1], [3, 1]]] * 4), "agent_dir": np.array([[[-1, 0], [-1, 0]]] * 4),
        "agent_dir_idx": np.array([[3, 3]] * 4), "agent_inv": np.array(inv), "maze_map": maze,
        "step": np.arange(4), "done": np.zeros(4, dtype=bool),
    }


def v2_rollout_arrays() -> dict[str, np.ndarray]:
    """An OvercookedV2 rollout's arrays (grounders/jaxmarl/v2_rollout.py) on a small layout with a recipe
    indicator: agent 0 takes an ingredient of kind 0 from the pile it faces, then both stay."""
    from strips_int.grounders.jaxmarl.rollout import FORMAT_V2

    static = np.array([[1, 1, 5, 1, 1], [10, 0, 0, 0, 11], [1, 0, 0, 0, 6], [1, 9, 1, 4, 1]])  # piles 0 and 1, pot
    grid = np.zeros((4, *static.shape, 3), dtype=np.int64)
    grid[..., 0] = static
    options = {"max_steps": 400, "agent_view_size": None, "start_cooking_interaction": False,
               "negative_rewards": False, "sample_recipe_on_delivery": False}
    return {
        "format": np.array(FORMAT_V2), "layout": np.array("custom"), "static": static,
        "starts": np.array([[1, 1], [3, 1]]), "possible_recipes": np.array([[0, 0, 0], [1, 1, 1]]),
        "options": np.array(json.dumps(options)), "actions": np.array([[5, 4], [4, 4], [4, 4]]), "rewards": np.zeros(3),
        "agent_pos": np.array([[[1, 1], [3, 1]]] * 4), "agent_dir": np.array([[3, 2]] * 4),
        "agent_inv": np.array([[0, 0], [4, 0], [4, 0], [4, 0]]), "grid": grid, "recipe": np.full(4, 12),
        "new_correct_delivery": np.zeros(4, dtype=bool), "step": np.arange(4), "done": np.zeros(4, dtype=bool),
    }

def npz_bytes(arrays: dict[str, Any]) -> bytes:
    """``arrays`` as an ``.npz`` archive's bytes (uncompressed, as ``np.savez`` writes them)."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def written(path: Path, data: bytes | str) -> Path:
    """``path`` holding ``data``."""
    if isinstance(data, str):
        path.write_text(data)
    else:
        path.write_bytes(data)
    return path


# ---------------------------------------------------------------- repository files

EXAMPLES = ROOT / "examples" / "sar"
DOMAINS = {name: ROOT / "domains" / f"{name}.pddl" for name in ("sar", "overcooked", "hanabi")}
TRACES = sorted(EXAMPLES.glob("*.trace.json"))
PROBLEMS = sorted(EXAMPLES.glob("*.problem.pddl"))
SAR_LOGS = sorted(EXAMPLES.glob("*.log.json"))
SCENARIOS = sorted(EXAMPLES.glob("*.scenario.json"))
KIT_PASS = EXAMPLES / "kit-pass.trace.json"
KIT_PROBLEM = EXAMPLES / "kit-pass.problem.pddl"

# ---------------------------------------------------------------- hostile values

#: Stand-ins for values JSON text can hold but Python objects cannot carry into ``json.dumps``;
#: :func:`json_text` writes them out (and :func:`pickle_bytes` their pickle forms).
BIG_NUMBER = "\x00fuzz:big-number"
DEEP_ARRAY = "\x00fuzz:deep-array"
HOSTILE_TEXT = {BIG_NUMBER: "9" * 5000, DEEP_ARRAY: "[" * 100_000 + "]" * 100_000}


def shared_halves(levels: int) -> list:
    """A list of ``levels`` levels whose halves are one object: 2**levels leaves, a few bytes of pickle."""
    value: list = ["onion"]
    for _ in range(levels):
        value = [value, value]
    return value


def json_text(value: Any) -> str:
    """``value`` as JSON text (NaN and Infinity as Python's json writes them), stand-ins written out."""
    text = json.dumps(value)
    for stand_in, written in HOSTILE_TEXT.items():
        text = text.replace(json.dumps(stand_in), written)
    return text


def _deep_list_opcodes(depth: int) -> bytes:
    """Pickle opcodes building a list nested ``depth`` deep without recursion (EMPTY_LIST..., APPEND...)."""
    return pickle.EMPTY_LIST * depth + pickle.APPEND * (depth - 1)


def pickle_bytes(value: Any) -> bytes:
    """``value`` pickled (protocol 4), stand-ins replaced: the big number by a 5,000-digit int, the deep array
    by a list 100,000 levels deep (pickle.dumps itself would recurse)."""
    data = pickle.dumps(value, protocol=4)
    for stand_in, replacement in ((BIG_NUMBER, pickle.dumps(10**5000 - 1, protocol=4)[2:-1]),
                                  (DEEP_ARRAY, _deep_list_opcodes(100_000))):
        encoded = stand_in.encode()
        data = data.replace(pickle.SHORT_BINUNICODE + bytes([len(encoded)]) + encoded, replacement)
    return data


def huge_string_pickle() -> bytes:
    """A 13-byte pickle declaring a 2**62-byte string (BINBYTES8)."""
    return pickle.PROTO + b"\x04" + pickle.BINBYTES8 + (2**62).to_bytes(8, "little") + b"ab"


def reset_pddl_parsers() -> None:
    """Drop the parsers strips_int caches (if it does): where a failed parse leaves pddl's parser half-set,
    every later parse in the process fails, and a fuzz test's bad domain would fail other test modules."""
    from strips_int.model import pddl

    for name in ("domain_parser", "problem_parser"):
        getattr(getattr(pddl, name, None), "cache_clear", lambda: None)()


# ---------------------------------------------------------------- the promise

class Broken(AssertionError):
    """The promise is broken: an error not one bounded line naming its file, or an exception that escaped."""


def promise(condition: bool, message: str) -> None:
    if not condition:
        raise Broken(message)


@contextlib.contextmanager
def bounded(seconds: int = IN_PROCESS_SECONDS, memory: int = IN_PROCESS_MEMORY) -> Iterator[None]:
    """Fail (TimeoutError, MemoryError) when the block runs longer than ``seconds`` or grows the process by
    more than ``memory`` bytes: a hang or an explosion fails one example, not the machine."""
    def expire(*_: Any) -> None:
        raise TimeoutError(f"no result within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    limit = getattr(sys, "tracebacklimit", None)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    cap = size + memory if hard == resource.RLIM_INFINITY else min(size + memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        signal.signal(signal.SIGALRM, previous)
        # pddl's parser sets sys.tracebacklimit to 0 and leaves it so after a parse error; later failures
        # would have no traceback (and hypothesis fails reporting them)
        if limit is None:
            vars(sys).pop("tracebacklimit", None)


def check_error(exc: StripsIntError, path: Path | str, *named: Path | str) -> str:
    """The promise of an error: one bounded line naming the file (or one of the files it ``named``)."""
    text = str(exc)
    promise("\n" not in text and "\r" not in text, f"error of more than one line: {text[:MAX_ERROR]!r}")
    promise(len(text) <= MAX_ERROR + len(str(path)), f"error of {len(text)} characters: {text[:MAX_ERROR]!r}...")
    promise(any(str(p) in text for p in (path, *named)), f"error does not name the file {path}: {text[:MAX_ERROR]!r}")
    if "internal error" in text and os.environ.get("FUZZ_SURVEY"):  # a catch-all's line: kept, and listed
        survey(path, f"internal: {text}")
    return text


def read_and_analyse(path: Path, domain: Any, problem: Any = None, named: tuple[Any, ...] = (),
                     **options: Any) -> list[str]:
    """Every game of ``path`` read by ``read_input`` and analysed: "ok" or its checked error line (naming
    ``path`` or one of the files it ``named``, such as a trace's problem).

    Anything but a :class:`StripsIntError` propagates (the fuzz example fails with it).
    """
    from strips_int.analysis.report import analyze_run
    from strips_int.grounders import read_input
    from strips_int.model.execution import execute

    outcomes = []
    with bounded(), escapes(path):
        try:
            for result in read_input(path, domain, problem, **options):
                try:
                    if isinstance(result, StripsIntError):
                        raise result
                    analyze_run(domain, execute(result))
                    outcomes.append("ok")
                except StripsIntError as exc:
                    outcomes.append(check_error(exc, path, *named))
        except StripsIntError as exc:  # read_input itself should yield errors; raising one is still the promise
            outcomes.append(check_error(exc, path, *named))
    return outcomes


@contextlib.contextmanager
def escapes(path: Path | str) -> Iterator[None]:
    """Any exception but a StripsIntError (or a broken promise) as :class:`Broken`, naming it and where it
    was raised (one line a failing example can show).

    With ``FUZZ_SURVEY=FILE`` a broken promise is appended to FILE (JSON lines: what broke, the input's
    size and first bytes) instead: a campaign then lists every distinct failure, not just the first
    (and the errors that are a catch-all's "internal error", which keep the promise but hide a bug).
    """
    try:
        try:
            yield
        except (StripsIntError, Broken):
            raise
        except Exception as exc:  # MemoryError, RecursionError, TimeoutError, a library's AssertionError, ...
            frames = traceback.extract_tb(exc.__traceback__, limit=-1)
            where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno} {frames[-1].name}" if frames else "?"
            raise Broken(f"{type(exc).__name__} escaped at {where}: {str(exc)[:200]}") from None
    except Broken as broken:
        if not os.environ.get("FUZZ_SURVEY"):
            raise
        survey(path, str(broken))


def survey(path: Path | str, what: str) -> None:
    """Append ``what`` happened to input ``path`` to the file ``FUZZ_SURVEY`` names (a JSON line with
    the input's size and first bytes)."""
    data = Path(path).read_bytes() if Path(path).is_file() else b""
    with open(os.environ["FUZZ_SURVEY"], "a") as out:
        out.write(json.dumps({"broken": what.replace(str(path), "FILE")[:300], "size": len(data),
                              "input": data[:400].decode(errors="replace")}) + "\n")


def expect_error(path: Path | str, call: Callable[[], Any]) -> str | None:
    """Run ``call`` (bounded); None when it succeeds, else its checked error line."""
    with bounded(), escapes(path):
        try:
            call()
        except StripsIntError as exc:
            return check_error(exc, path)
    return None


def run_cli(*args: str, stdin: bytes | None = None, timeout: int = CLI_SECONDS,
            cwd: Path | None = None, memory: int = 3 << 30) -> subprocess.CompletedProcess:
    """``python -m strips_int.<args>`` in a child process under an address-space limit of ``memory`` bytes,
    which with its children may take ``timeout`` seconds of CPU (:func:`helpers.run_within`: wall time is
    only a hang guard, so that the promise is checked alike on an idle and on a loaded machine)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return run_within([sys.executable, "-m", *args], timeout, input=stdin, capture_output=True, preexec_fn=limit,
                      cwd=cwd)[0]


#: A traceback, also as Python prints it under ``sys.tracebacklimit = 0`` (which the pddl parser leaves set):
#: the exception's class and message alone.
_TRACEBACK = re.compile(r"^(Traceback|Exception ignored|[A-Za-z_][\w.]*(Error|Exception|Warning)\b)", re.MULTILINE)


def _last_frame(err: str) -> str:
    """A traceback's last frame and exception, in one line."""
    lines = err.strip().splitlines()
    frames = [line.strip() for line in lines if line.strip().startswith("File ")]
    return f"{frames[-1] if frames else ''} -> {lines[-1] if lines else ''}"[:MAX_ERROR]


def check_cli(result: subprocess.CompletedProcess, codes: tuple[int, ...] = (0, 1, 2)) -> list[str]:
    """The promise of a command line: an expected exit code, no traceback; its error lines (stderr lines
    with ``error:``, as ``error: FILE: ...`` and argparse's ``PROG: error: ...``, or ``--json``'s error objects)."""
    err = result.stderr.decode(errors="replace")
    promise(not _TRACEBACK.search(err), f"a traceback: {_last_frame(err)}")
    promise(result.returncode in codes, f"exit {result.returncode}, expected {codes}: {err[-2000:]}")
    lines = [line for line in err.splitlines() if "error:" in line]
    for line in result.stdout.decode(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            if isinstance(obj := json.loads(line), dict) and "error" in obj:
                lines.append(f"error: {obj['error']}")
    for line in lines:
        promise(len(line) <= MAX_ERROR + 200, f"error line of {len(line)} characters: {line[:MAX_ERROR]}...")
    return lines


def delivery_game(reward: int = 20) -> dict:
    """User-study JSON of player 1 serving the soup that is ready in the pot at the start (one delivery,
    rewarded ``reward``): dish, soup, window."""
    ready = {"name": "soup", "position": [4, 1], "state": ["onion", 3, 20]}
    p0 = _player([1, 1], [-1, 0])
    rows = [((_player([3, 1], [-1, 0]), {"4,1": ready}), [STAY, S]),
            ((_player([3, 1], [0, 1]), {"4,1": ready}), [STAY, INTERACT]),
            ((_player([3, 1], [0, 1], "dish"), {"4,1": ready}), [STAY, E]),
            ((_player([3, 1], [1, 0], "dish"), {"4,1": ready}), [STAY, INTERACT]),
            (({**_player([3, 1], [1, 0]), "held_object": {**ready, "position": [3, 1]}}, {}), [STAY, N]),
            (({**_player([3, 1], [0, -1]), "held_object": {**ready, "position": [3, 1]}}, {}), [STAY, INTERACT])]
    states = [{"players": [p0, p1], "objects": objects, "order_list": None} for (p1, objects), _ in rows]
    return {"ep_states": [states], "ep_actions": [[joint for _, joint in rows]],
            "ep_rewards": [[0] * (len(rows) - 1) + [reward]],
            "mdp_params": [{"layout_name": "scripted", "num_items_for_soup": 3, "cook_time": 20}]}
