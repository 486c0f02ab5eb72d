"""What a SAR file is: the format tags of logs and scenarios, and the recognizer that reads them.

Its own module so that the readers (:mod:`.formats`, :mod:`.scenario`) and the
package share the tags without importing each other, and a folder walk that
only asks what a file is loads no SAR world.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from strips_int.errors import StripsIntError

LOG_FORMAT = "strips-int-sar-log/1"
SCENARIO_FORMAT = "strips-int-sar-scenario/1"
#: What the bytes of every SAR file hold: both format tags start so.
_TAG = b"strips-int-sar-"


def detect(path: Path) -> str | None:
    """``"log"`` or ``"scenario"`` when ``path`` is a SAR file, else None.

    Judged by the parsed top-level ``"format"`` (wherever it stands among the keys); only
    files that mention the tag are parsed, and a file that is not JSON is no SAR file. Here,
    not in :mod:`.formats`, so that a folder walk setting scenarios aside loads no SAR world.
    """
    from strips_int.files import read_json

    if path.suffix.lower() != ".json":
        return None
    try:
        data = read_json(path, mentioning=_TAG)
    except StripsIntError:
        return None
    return kind_of(data)


def kind_of(data: Any) -> str | None:
    """``"log"`` or ``"scenario"`` by the format tag of parsed JSON, else None."""
    tag = data.get("format") if isinstance(data, dict) else None
    return {LOG_FORMAT: "log", SCENARIO_FORMAT: "scenario"}.get(tag) if isinstance(tag, str) else None
