"""Reading input files, with errors that name the file (and, for JSON, the line and column)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import StripsIntError


def read_text(path: str | Path) -> str:
    """The file's UTF-8 text; an unreadable file is a :class:`StripsIntError` naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StripsIntError(str(path), None, f"cannot read: {exc}") from None


def read_json(path: str | Path, mentioning: bytes | None = None) -> Any:
    """The file's parsed JSON (parsed, never evaluated); malformed JSON names line and column.

    With ``mentioning``, a file whose bytes do not contain it is None, unparsed: recognizing
    a format costs a substring search for the files that cannot be it.
    """
    if mentioning is not None:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise StripsIntError(str(path), None, f"cannot read: {exc}") from None
        if mentioning not in raw:
            return None
    try:
        return json.loads(read_text(path) if mentioning is None else raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise StripsIntError(str(path), None, f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise StripsIntError(str(path), f"line {exc.lineno}, column {exc.colno}", f"malformed JSON: {exc.msg}") from None
