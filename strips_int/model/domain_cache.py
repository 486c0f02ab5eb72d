"""Compiled domains kept on disk as JSON, so each process need not parse PDDL again (issue 16).

Parsing a domain costs 0.1-0.2 s per process (building pddl's lark parser,
then parsing); reading its compiled JSON costs well under a millisecond. An
entry is keyed by a hash of the input file's bytes, the package version and
the compiler's own source (so an edited checkout never reads a stale entry).
It lives in ``$XDG_CACHE_HOME/strips_int`` (default ``~/.cache/strips_int``);
``STRIPS_INT_CACHE=0`` turns the cache off, and so does a folder that cannot be
written. Entries are JSON (never pickle), written to a temporary file and then
renamed into place, so a reader sees a whole entry or none; an entry that
cannot be read, does not parse or carries another key is ignored (the caller
compiles again and the entry is rewritten).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from strips_int.errors import StripsIntError
from strips_int.files import read_json, write_atomic

#: Set to ``0`` to turn the cache off.
CACHE_ENV = "STRIPS_INT_CACHE"
#: The modules whose source is part of every key: those that parse and compile domains.
_COMPILER = tuple(Path(__file__).with_name(name) for name in ("pddl.py", "published.py", "domain.py"))


def folder() -> Path | None:
    """The cache folder, or None when the cache is turned off."""
    if os.environ.get(CACHE_ENV, "").strip() == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative (or empty) value is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "strips_int"


def key(kind: str, data: bytes) -> str:
    """The key of ``data`` compiled as ``kind``: input bytes, package version and compiler source, hashed."""
    from strips_int import __version__

    digest = hashlib.sha256(f"{kind}\0{__version__}\0".encode())
    for module in _COMPILER:
        try:
            digest.update(module.read_bytes())
        except OSError:  # no source beside the bytecode: the version alone decides
            pass
    digest.update(b"\0")
    digest.update(data)
    return digest.hexdigest()


def entry(kind: str, data: bytes) -> tuple[Path, str] | None:
    """Where the entry of ``data`` lives and its key, or None when the cache is off."""
    where = folder()
    if where is None:
        return None
    name = key(kind, data)
    return where / f"{kind}-{name[:32]}.json", name


def load(kind: str, data: bytes) -> Any | None:
    """The cached value for ``data``, or None (off, missing, unreadable, damaged or another key's)."""
    found = entry(kind, data)
    if found is None:
        return None
    path, name = found
    try:
        stored = read_json(path)
    except StripsIntError:
        return None
    if not isinstance(stored, dict) or stored.get("key") != name:
        return None
    return stored.get("value")


def store(kind: str, data: bytes, value: Any) -> None:
    """Keep ``value`` (JSON) for ``data``, atomically; a cache that cannot be written is skipped."""
    found = entry(kind, data)
    if found is None:
        return
    path, name = found
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"key": name, "value": value}))
    except (OSError, StripsIntError):  # (write_atomic's error names the file)
        pass  # read-only home, full disk: every process compiles for itself
