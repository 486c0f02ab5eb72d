"""What a SAR file is: the format tags of logs and scenarios, and the recognizer that reads them.

Its own module so that the readers (:mod:`.formats`, :mod:`.scenario`) and the
package share the tags without importing each other, and a folder walk that
only asks what a file is loads no SAR world.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from strips_int.errors import StripsIntError

from ..base import Head

LOG_FORMAT = "strips-int-sar-log/1"
SCENARIO_FORMAT = "strips-int-sar-scenario/1"
#: What the bytes of every SAR file hold: both format tags start so.
_TAG = b"strips-int-sar-"


def detect(path: Path) -> str | None:
    """``"log"`` or ``"scenario"`` when ``path`` is a SAR file (:func:`detect_head` of its head), else None."""
    try:
        return detect_head(Head.of(path))
    except StripsIntError:
        return None


def detect_head(head: Head) -> str | None:
    """``"log"`` or ``"scenario"`` when the file of ``head`` is a SAR file, else None.

    Judged by the parsed top-level ``"format"`` (wherever it stands among the keys) of a file whose head
    mentions the tag (the SAR writers put it first; a file that does not is parsed whole only when its
    head names the format); a file that is not JSON is no SAR file. Here, not in :mod:`.formats`, so
    that a folder walk setting scenarios aside loads no SAR world.
    """
    from strips_int.files import parse_json

    if head.path.suffix.lower() != ".json" or not head.mentions(_TAG):
        return None
    whole = head.whole()
    try:
        return None if whole is None else kind_of(parse_json(whole, str(head.path)))
    except StripsIntError:
        return None


def kind_of(data: Any) -> str | None:
    """``"log"`` or ``"scenario"`` by the format tag of parsed JSON, else None."""
    tag = data.get("format") if isinstance(data, dict) else None
    return {LOG_FORMAT: "log", SCENARIO_FORMAT: "scenario"}.get(tag) if isinstance(tag, str) else None
