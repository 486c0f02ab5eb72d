"""Recorders: the episode format written from the published code's own objects while they play, so a
benchmark loop adds one call and changes nothing else.

CollabCapture (the loop is the researcher's): ``record_capture(path, env, alice, bob, thief)`` once the
objects are made, then ``recorder.turn({"Alice": alice_action, "Bob": bob_action})`` once a turn after
the moves and the capture test (each action as the game names it: a room number, ``"Stay in current
room"``, ``"Press button in room 9"``). It reads the rooms and doors from the objects; the outcome
(caught in a room or by a swap, or the turn limit) is the rules' (:func:`.capture.caught`).

CollabEscape (the loop is ``Game.play``): ``record_escape(path, game)`` before ``game.play(model)``.
It wraps, on that one game's objects only, ``game.adversary.choose_greedily`` (the state at the turn's
start, the killer's choice and whether it was random), ``game.alice.move`` and ``game.bob.move``
(the chosen actions) and ``game.check_game_over`` (the state after and the outcome, a line written).
``close()`` (or the end of the game) removes the wrappers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from strips_int.errors import StripsIntError

from . import capture, escape
from .episode import CAPTURE, ESCAPE, Writer, capture_json, capture_line, escape_json, escape_line, header


class CaptureRecorder:
    """Writes a CollabCapture episode from the published ``Environment``, ``Agent`` and ``Thief`` objects."""

    def __init__(self, path: str | Path, env: Any, alice: Any, bob: Any, thief: Any,
                 max_turns: int = capture.MAX_TURNS, **extra: Any) -> None:
        self._env, self._players = env, {"Alice": alice, "Bob": bob, "Thief": thief}
        self.max_turns, self.turns = max_turns, 0
        self._state = self._read()
        self._writer = Writer(path, header(CAPTURE, capture_json(self._state), "record_capture",
                                           max_turns=max_turns, **extra))
        self._ended = False

    def _read(self) -> capture.State:
        return capture.State({n: p.current_room for n, p in self._players.items()},
                             {d: bool(self._env.doors_open[d]) for d in capture.BUTTONS})

    def turn(self, actions: Mapping[str, Any]) -> str:
        """Record the turn just played with the players' chosen ``actions``; returns its outcome."""
        if self._ended:
            raise StripsIntError(str(self._writer.path), f"turn {self.turns + 1}", "the game has ended")
        self.turns += 1
        after = self._read()
        catcher, _ = capture.caught(self._state, after, self.turns)
        outcome = "caught" if catcher else "not caught" if self.turns >= self.max_turns else "continue"
        self._writer.line(capture_line(self.turns, self._state, {n: actions[n] for n in capture.PLAYERS}, after,
                                       outcome))
        self._state = after
        if outcome != "continue":
            self.close()
        return outcome

    def close(self) -> None:
        self._ended = True
        self._writer.close()

    def __enter__(self) -> CaptureRecorder:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class EscapeRecorder:
    """Writes a CollabEscape episode while the published ``Game.play`` runs (see the module docstring)."""

    def __init__(self, path: str | Path, game: Any, **extra: Any) -> None:
        self.game, self.turns = game, 0
        self._before = self._read()
        self._actions: dict[str, Any] = {}
        self._random = False
        self._writer = Writer(path, header(ESCAPE, escape_json(self._before), "record_escape", **extra))
        self._wrap()

    def _read(self) -> escape.State:
        game = self.game
        rooms = {"Alice": game.alice.current_room.name, "Bob": game.bob.current_room.name,
                 "Killer": game.adversary.current_room.name}
        return escape.State(rooms, {g: game.rooms[g].fix_count for g in escape.GENERATORS},
                            escape.Memory(game.adversary.target_name, dict(game.adversary.can_see)))

    def _wrap(self) -> None:
        game = self.game
        choose, check = game.adversary.choose_greedily, game.check_game_over

        def choose_greedily(state: Any) -> Any:
            self._before = self._read()
            room = choose(state)
            self._random = game.adversary.target_name == ""
            return room

        def check_game_over() -> str:
            outcome = check()
            self.turns += 1
            self._writer.line(escape_line(self.turns, self._before, self._actions, self._random, self._read(),
                                          outcome))
            if outcome != "continue":
                self.close()
            return outcome

        game.adversary.choose_greedily, game.check_game_over = choose_greedily, check_game_over
        for name, player in (("Alice", game.alice), ("Bob", game.bob)):
            player.move = self._mover(name, player.move)

    def _mover(self, name: str, move: Any) -> Any:
        def recorded(action_string: str, rooms: Any) -> Any:
            self._actions[name] = action_string
            return move(action_string, rooms)

        return recorded

    def close(self) -> None:
        """Stop recording: the wrappers are removed and the file closed."""
        for owner, attribute in ((self.game.adversary, "choose_greedily"), (self.game, "check_game_over"),
                                 (self.game.alice, "move"), (self.game.bob, "move")):
            vars(owner).pop(attribute, None)
        self._writer.close()

    def __enter__(self) -> EscapeRecorder:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def record_capture(path: str | Path, env: Any, alice: Any, bob: Any, thief: Any,
                   max_turns: int = capture.MAX_TURNS, **extra: Any) -> CaptureRecorder:
    """A recorder of the CollabCapture game these published objects are about to play (see the module);
    ``extra`` (``seed``, ``policies``: JSON values) goes into the episode's first line and the report's meta."""
    return CaptureRecorder(path, env, alice, bob, thief, max_turns, **extra)


def record_escape(path: str | Path, game: Any, **extra: Any) -> EscapeRecorder:
    """A recorder of the published ``Game`` about to ``play`` (see the module docstring); ``extra`` (``seed``
    of ``random``, ``policies``) goes into the episode's first line and the report's meta."""
    return EscapeRecorder(path, game, **extra)
