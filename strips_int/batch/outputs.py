"""An output folder of ``evaluate`` (or ``merge``): one run at a time, files that appear whole or not
at all, a manifest saying what the run read and how it ended, and the journal a resume continues.

* ``.lock`` holds the running process's id and host; a second run is refused while that process
  lives, and a lock whose process is gone (on this host) is taken over.
* Every table is written to a temporary file in the folder and renamed over its name, so a reader
  never sees half a table; a new run first removes the tables of the run before it, so an
  interrupted run never leaves old complete-looking tables beside its partial ``games.jsonl``.
* ``games.progress`` is the journal: one line ``k rows`` once file ``k``'s rows are in
  ``games.jsonl``; a resume keeps exactly the rows of those files and goes on after them.
* ``manifest.json`` (``strips-int-run/1``): the command, the package version, the inputs (domain
  and game files with sizes and SHA-256), options, start and end time, status (``running``,
  ``complete``, ``interrupted``, ``failed``) and counts.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterator, Sequence

from strips_int import __version__
from strips_int.errors import StripsIntError
from strips_int.files import MAX_INPUT_BYTES, cannot_write, output_file, read_json, regular_file, write_atomic

MANIFEST = "manifest.json"
FORMAT = "strips-int-run/1"
LOCK = ".lock"
JOURNAL = "games.jsonl"
PROGRESS = "games.progress"
#: What a finished run writes besides the journal: removed when a new run starts in the folder.
TABLES = ("games.csv", "summary.csv", "summary.md", "summary.tex", "shard.json")


def hostname() -> str:
    """This machine's name: uname's node name, which is what ``socket.gethostname`` gives on Unix
    (socket, 5 ms of imports, only where there is no uname)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """``out`` (created) for this process alone while the block runs; a folder another live run holds
    is an error naming its process, a lock left by a dead one is taken over. Every file a run writes there
    must be absent or a regular file, checked first (a FIFO would block the run at its first write)."""
    output_file(out, folder=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(out, exc) from None
    for name in (LOCK, MANIFEST, JOURNAL, PROGRESS, *TABLES):
        output_file(out / name)
    lock = out / LOCK
    mine = f"{os.getpid()} {hostname()}\n"
    for _ in range(3):
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            try:
                pid, _, host = lock.read_text(errors="replace").strip().partition(" ")
            except FileNotFoundError:  # its run just ended
                continue
            if host == hostname() and pid.isdigit() and not alive(int(pid)):
                lock.unlink(missing_ok=True)  # stale: its process is gone
                continue
            raise StripsIntError(str(out), None, f"in use by process {pid or '?'} on {host or '?'} "
                                 f"(remove {lock} if no run is going on)") from None
        except OSError as exc:
            raise cannot_write(lock, exc) from None
    else:
        raise StripsIntError(str(out), None, f"cannot take the lock {lock}")
    try:
        try:
            with os.fdopen(descriptor, "w") as handle:
                handle.write(mine)
        except OSError as exc:  # a full disk: the lock, not holding our id, is no one's
            lock.unlink(missing_ok=True)
            raise cannot_write(lock, exc) from None
        yield
    finally:
        if lock.exists() and lock.read_text(errors="replace") == mine:
            lock.unlink()


def described(path: str | Path) -> dict[str, Any]:
    """A file's path, size and SHA-256; no digest (None) for a file no reader takes, which is checked before a
    byte is hashed (a device or FIFO would never end, a 10 GB file is refused by its size: its error row says
    why), and neither for what cannot be read at all."""
    try:
        size = regular_file(path)
    except StripsIntError:
        return {"path": str(path), "size": None, "sha256": None}
    if size > MAX_INPUT_BYTES:
        return {"path": str(path), "size": size, "sha256": None}
    digest, read = hashlib.sha256(), 0
    try:
        with open(path, "rb") as handle:
            while read <= MAX_INPUT_BYTES and (chunk := handle.read(1 << 20)):  # no further, should it grow
                digest.update(chunk)
                read += len(chunk)
    except OSError:
        return {"path": str(path), "size": None, "sha256": None}
    return {"path": str(path), "size": read, "sha256": digest.hexdigest() if read <= MAX_INPUT_BYTES else None}


def run_inputs(domain: Path, files: Sequence[Path], options: dict[str, Any], shard: str) -> dict[str, Any]:
    """What a run reads and how: a resume must find the same."""
    inputs = {"domain": described(domain), "options": options, "shard": shard,
              "files": [described(path) for path in files]}
    return json.loads(json.dumps(inputs))  # as the manifest holds them (lists, not tuples)


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


#: Blanks after the JSON of a ``running`` manifest: room for its final form (an end time, a longer status, counts
#: of more digits), so that on a full disk the final manifest is written over it in place (no new block).
MANIFEST_ROOM = 128


def write_run_manifest(out: Path, command: Sequence[str], inputs: dict[str, Any], started: str, status: str,
                       counts: dict[str, int]) -> None:
    """``manifest.json``, written whole; a run's final one, when the disk has no room for a new file, over the
    ``running`` one in place (which holds :data:`MANIFEST_ROOM` blanks for it), so the status is never left
    ``running`` by a full disk."""
    fields = {"format": FORMAT, "command": list(command), "cwd": os.getcwd(), "version": __version__,
              "started": started, "ended": None if status == "running" else now(), "status": status,
              "counts": counts, "inputs": inputs}
    text = json.dumps(fields, indent=1) + "\n"
    path = out / MANIFEST
    if status == "running":
        write_atomic(path, text + " " * MANIFEST_ROOM + "\n")
        return
    try:
        write_atomic(path, text)
    except StripsIntError:
        if not _over_in_place(path, text.encode()):
            raise


def _over_in_place(path: Path, data: bytes) -> bool:
    """Whether ``data`` (ending in a line break) could be written over the bytes of ``path`` in place, blanks
    filling the rest (no larger file, so no new disk block)."""
    try:
        with open(path, "r+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            if len(data) > size:
                return False
            handle.seek(0)
            handle.write(data[:-1] + b" " * (size - len(data)) + b"\n")
        return True
    except OSError:
        return False


def fresh(out: Path) -> None:
    """Clear what an earlier run left in ``out``: its tables, journal and manifest."""
    for name in (*TABLES, JOURNAL, PROGRESS, MANIFEST):
        (out / name).unlink(missing_ok=True)


def resumable(out: Path, inputs: dict[str, Any]) -> list[int]:
    """The row counts of the files an interrupted run in ``out`` finished (its journal cut back to
    them); a complete run, another run's inputs or no run at all is an error saying which."""
    path = out / MANIFEST
    if not path.is_file():
        raise StripsIntError(str(out), None, f"nothing to resume: no {MANIFEST}")
    earlier = read_json(path)
    if not isinstance(earlier, dict) or earlier.get("format") != FORMAT:
        raise StripsIntError(str(path), None, f"not a {FORMAT} manifest")
    if earlier.get("status") == "complete":
        raise StripsIntError(str(out), None, "nothing to resume: the run there is complete")
    mismatch = difference(earlier.get("inputs"), inputs)
    if mismatch:
        raise StripsIntError(str(out), None, f"cannot resume: not the same {mismatch} as the interrupted run")
    counts = []
    progress = (out / PROGRESS).read_bytes() if (out / PROGRESS).is_file() else b""
    for line in progress.split(b"\n")[:-1]:  # a last line without its newline was cut off
        k, _, rows = line.decode().partition(" ")
        if k != str(len(counts)) or not rows.isdigit():
            raise StripsIntError(str(out / PROGRESS), f"line {len(counts) + 1}", "not a progress line")
        counts.append(int(rows))
    keep_lines(out / JOURNAL, sum(counts))
    keep_lines(out / PROGRESS, len(counts))
    return counts


def keep_lines(path: Path, lines: int) -> None:
    """Cut ``path`` back to its first ``lines`` lines (what a run had finished when it stopped)."""
    size = 0
    if path.is_file():
        with open(path, "rb") as handle:
            for _ in range(lines):
                line = handle.readline()
                if not line.endswith(b"\n"):
                    raise StripsIntError(str(path), None, f"shorter than the {lines} lines its progress counts")
                size += len(line)
    elif lines:
        raise StripsIntError(str(path), None, "missing")
    with open(path, "ab") as handle:
        handle.truncate(size)


def difference(earlier: Any, now_: dict[str, Any]) -> str | None:
    """The first part of the inputs that differs, in words, or None."""
    if not isinstance(earlier, dict):
        return "inputs"
    for key, words in (("domain", "domain"), ("options", "options"), ("shard", "shard")):
        if earlier.get(key) != now_[key]:
            return words
    files = earlier.get("files")
    if files != now_["files"]:
        if not isinstance(files, list) or len(files) != len(now_["files"]):
            return "list of game files"
        changed = next(f for f, g in zip(now_["files"], files) if f != g)
        return f"game file {changed['path']}"
    return None


class Occupied(StripsIntError):
    """An output folder that holds another study (a manifest of other inputs) or files no run wrote: a run
    there would replace a study or mix its tables with someone's files, so it is refused unless asked for."""


#: Every name a run or a merge writes in its folder: what a folder may hold and still be a run's.
RUN_FILES = (LOCK, MANIFEST, JOURNAL, PROGRESS, *TABLES)


def unfinished_run(out: Path, inputs: dict[str, Any], replace: bool = False) -> bool:
    """Whether ``out`` holds an unfinished run (interrupted, failed, or stopped while ``running``) of these very
    ``inputs``, which a run can go on with (:func:`resumable`). A missing or empty folder, or one holding a run
    of the same study (the same domain, shard and game files; other options start it over), may be written;
    a folder holding another study, a manifest that is not a run's or files of its own is :class:`Occupied`,
    naming what is there, unless ``replace`` (then only the run's own files are replaced: :func:`fresh`;
    no other file is ever removed)."""
    try:
        names = sorted(set(os.listdir(out)) - {LOCK})  # (the lock is this run's: it is taken first)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise cannot_write(out, exc) from None
    earlier = _manifest(out / MANIFEST) if MANIFEST in names else None
    if isinstance(earlier, dict):
        mismatch = difference(earlier.get("inputs"), inputs)
        if mismatch is None:
            return earlier.get("status") != "complete"
        if not replace and _games(earlier.get("inputs")) != _games(inputs):
            counts = earlier.get("counts") if isinstance(earlier.get("counts"), dict) else {}
            raise Occupied(str(out), None, f"holds another study (a {earlier.get('status', '?')} run of "
                           f"{counts.get('files', '?')} files, started {earlier.get('started', '?')}): not the same "
                           f"{mismatch}; it is left as it is")
        return False
    if not names or replace:
        return False
    others = [name for name in names if name not in RUN_FILES]
    listed = others or names
    shown = ", ".join(listed[:3]) + (f" and {len(listed) - 3} more" if len(listed) > 3 else "")
    if earlier is not None:
        what = f"a {MANIFEST} that is not a {FORMAT} manifest"
    elif others:
        what = f"files no run wrote ({shown})"
    else:
        what = f"a study's files without its {MANIFEST} ({shown})"
    raise Occupied(str(out), None, f"holds {what}; it is left as it is")


def _games(inputs: Any) -> Any:
    """What makes a study the same study: its domain file, shard and game files by path (other options or
    a game file edited since make it a run to redo, not another study to keep)."""
    if not isinstance(inputs, dict) or not all(isinstance(inputs.get(k), t) for k, t in
                                               (("domain", dict), ("files", list))):
        return None
    return (inputs["domain"].get("path"), inputs.get("shard"),
            [f.get("path") if isinstance(f, dict) else f for f in inputs["files"]])


def _manifest(path: Path) -> Any:
    """The run manifest at ``path`` as parsed JSON, or the text ``unreadable``: one that cannot be read or is
    not a run's is not a study to resume or replace."""
    try:
        found = read_json(path)
    except StripsIntError:
        return "unreadable"
    return found if isinstance(found, dict) and found.get("format") == FORMAT else "unreadable"
