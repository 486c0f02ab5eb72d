"""The LLM-Coordination benchmark's own CollabCapture and CollabEscape code (read in place from
``../shared/baselines/llm-coordination``), driven with scripted or random policies in place of the LLM
and recorded by ``strips_int.grounders.collab``'s recorders.

Only here, for the tests and the shipped examples: the package never imports that code. Its agent
modules import ``openai`` and ``fuzzywuzzy`` (never called when a policy replaces the LLM): stand-ins
are put in ``sys.modules`` for the time of :func:`published` and everything is put back after.

    python tests/collab_published.py examples/collab     # writes the shipped episodes
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any, Iterator, Mapping

from strips_int.grounders.collab import record_capture, record_escape, scripted

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT.parent / "shared" / "baselines" / "llm-coordination"
PACKAGE = "llm_coordination_agents"


def _stand_in(name: str, **attributes: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


class _NoClient:
    """Stands in for openai's clients, which a policy in place of the LLM never calls."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass


@contextlib.contextmanager
def published(baseline: Path = BASELINE) -> Iterator[tuple[types.ModuleType, types.ModuleType]]:
    """The published ``collab_capture_action_manager`` and ``CollabEscapeMDP`` modules, importable for
    the time of the block (stand-in ``openai`` and ``fuzzywuzzy``, ``time.sleep`` a no-op, the working
    folder a temporary one: ``Game.play`` appends to a text file in it)."""
    import importlib

    process = _stand_in("fuzzywuzzy.process", extractOne=lambda *a, **k: None)
    stand_ins = {"openai": _stand_in("openai", OpenAI=_NoClient, AzureOpenAI=_NoClient),
                 "fuzzywuzzy": _stand_in("fuzzywuzzy", process=process), "fuzzywuzzy.process": process}
    saved = {name: sys.modules.get(name) for name in stand_ins}
    sleep, cwd = time.sleep, os.getcwd()
    sys.modules.update(stand_ins)
    sys.path.insert(0, str(baseline))
    time.sleep = lambda seconds: None
    try:
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(folder)
            yield (importlib.import_module(f"{PACKAGE}.collab_capture_action_manager"),
                   importlib.import_module(f"{PACKAGE}.CollabEscapeMDP"))
    finally:
        os.chdir(cwd)
        time.sleep = sleep
        sys.path.remove(str(baseline))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


class _Policy:
    """Stands in for the published ``LLMAgent``: its ``plan`` is asked with the agent's options."""

    def __init__(self, plan: Any) -> None:
        self.plan, self.turns = plan, 0

    def choose(self, options: list[Any]) -> Any:
        self.turns += 1
        return self.plan(self.turns, options)


def play_capture(cap: types.ModuleType, path: Path, doors: Mapping[int, bool], alice_plan: Any, bob_plan: Any,
                 max_turns: int = 30) -> tuple[int, bool]:
    """One game of the published ``game_loop`` (``collab_capture_benchmarking.py``) with policies in place of
    the LLM, recorded to ``path``: the number of turns and whether the published capture test fired."""
    original = cap.LLMAgent
    cap.LLMAgent = lambda player_id, model: None  # the published Agent makes one; the policies replace it
    try:
        env = cap.Environment()
        env.doors_open[1], env.doors_open[3] = doors[1], doors[3]
        alice, bob = cap.Agent(1, 0, "Alice", env, "policy"), cap.Agent(6, 1, "Bob", env, "policy")
        thief = cap.Thief(2, "Thief", env)
    finally:
        cap.LLMAgent = original
    policies = {"Alice": _Policy(alice_plan), "Bob": _Policy(bob_plan)}
    recorder = record_capture(path, env, alice, bob, thief, max_turns)
    num_turns, caught = 0, False
    while True:
        state_for_llm = env.get_state_for_llm(alice, bob, thief)
        actions = {}
        for name, agent in (("Alice", alice), ("Bob", bob)):
            action = actions[name] = policies[name].choose(state_for_llm["available_actions"][name])
            if isinstance(action, int):
                agent.plan_move(action)
            elif action.startswith("Press"):
                agent.plan_press_button()
        thief.plan_move_away_from_agents(alice.next_room, bob.next_room)
        alice.execute_move()
        bob.execute_move()
        thief.execute_move()
        num_turns += 1
        caught = (thief.current_room == alice.current_room) or (thief.current_room == bob.current_room) or \
            (alice.previous_room == thief.current_room and thief.previous_room == alice.current_room) or \
            (bob.previous_room == thief.current_room and thief.previous_room == bob.current_room)
        recorder.turn(actions)
        if caught:
            break
        thief.previous_room = thief.current_room
        alice.previous_room = alice.current_room
        bob.previous_room = bob.current_room
        if num_turns >= max_turns:
            break
    recorder.close()
    return num_turns, caught


def play_escape(esc: types.ModuleType, path: Path, alice_plan: Any, bob_plan: Any, seed: int) -> tuple[str, int]:
    """One published ``Game.play`` with policies in place of the LLM agents and ``random.seed(seed)`` (the
    killer's random moves), recorded to ``path``: its outcome and turns. The global random state is put back."""
    plans = [alice_plan, bob_plan]

    class PolicyAgent(_Policy):
        def __init__(self, player_id: int, model: str) -> None:
            super().__init__(plans[player_id])
            self.name = ("Alice", "Bob")[player_id]

        def get_next_move(self, state: Any, killer_info: str) -> str:
            room = state[self.name].current_room  # the options as the published agent lists them
            options = [f"move to {r.name}" for r in room.adjacent_rooms]
            options += [f"fix generator in {room.name}"] if room.name in state["Generators"] else []
            return self.choose(options + ["wait"])

    original, saved = esc.LLMAgent, random.getstate()
    esc.LLMAgent = PolicyAgent
    try:
        random.seed(seed)
        game = esc.Game()
        record_escape(path, game, seed=seed)
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            return game.play("policy")
    finally:
        esc.LLMAgent = original
        random.setstate(saved)


#: Scripted plans of the shipped examples: Bob opens door 1-2 for Alice; Alice starts the repair of room 1's
#: generator and Bob completes it, Alice repairs room 6's, Bob escapes.
CAPTURE_SCRIPT = (["Stay in current room", "Stay in current room", 2], [9, "Press button in room 9"])
ESCAPE_SCRIPT = (["fix generator in room 1", "move to room 2", "move to room 3", "move to room 8", "move to room 7",
                  "move to room 6", "fix generator in room 6", "fix generator in room 6"],
                 ["move to room 1", "fix generator in room 1", "move to room 2", "move to room 3", "move to room 2",
                  "move to room 3", "move to room 8", "move to room 7"])


def write_examples(folder: Path) -> None:
    """The shipped episodes, played by the published code and recorded."""
    folder = folder.resolve()
    with published() as (cap, esc):
        play_capture(cap, folder / "capture-doors-closed.jsonl", {1: False, 3: False},
                     scripted(CAPTURE_SCRIPT[0], "Stay in current room"),
                     scripted(CAPTURE_SCRIPT[1], "Stay in current room"))
        play_escape(esc, folder / "escape-seed1.jsonl", scripted(ESCAPE_SCRIPT[0], "wait"),
                    scripted(ESCAPE_SCRIPT[1], "wait"), seed=1)


if __name__ == "__main__":
    write_examples(Path(sys.argv[1]))
