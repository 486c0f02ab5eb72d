"""CollabCapture and CollabEscape, the LLM-Coordination benchmark's two symbolic games: their rules as
the published code plays them, an episode format, a recorder for the published code, a simulator and
the lifting shared by the ``collab_capture`` and ``collab_escape`` grounders.

    from strips_int.grounders.collab import record_capture, record_escape
    recorder = record_capture("game.jsonl", env, alice, bob, thief)   # then recorder.turn(actions) a turn
    record_escape("escape.jsonl", game); game.play(model)

This package has no ``GROUNDER`` itself (the registry passes it over); its names are loaded on first
use, so the registry's import of it costs nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    **dict.fromkeys(("CaptureRecorder", "EscapeRecorder", "record_capture", "record_escape"), "record"),
    **dict.fromkeys(("random_policy", "scripted", "simulate_capture", "simulate_escape"), "simulate"),
    **dict.fromkeys(("Episode", "FORMAT", "RULES", "read_episode"), "episode"),
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
