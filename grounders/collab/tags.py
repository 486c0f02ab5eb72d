"""The Collab episode format's tag and how a file names it, apart from the reader (:mod:`.episode`), so that
recognizing a file imports no game rules (the registry shows every file to every recognizer)."""

from __future__ import annotations

from strips_int.errors import StripsIntError

FORMAT = "collab-episode/1"


def game_of(text: str) -> str | None:
    """The game an episode's first line names, or None when it is no Collab episode; never raises."""
    from strips_int.files import parse_json

    first = text.split("\n", 1)[0]
    if FORMAT not in first:
        return None
    try:
        data = parse_json(first, "")  # bounded nesting: a deep first line is no episode, never a RecursionError
    except StripsIntError:
        return None
    return data.get("game") if isinstance(data, dict) and data.get("format") == FORMAT else None
