"""Batches of work on a Dask cluster (the optional ``dask`` extra): game files for ``evaluate``, start problems
for ``rc``.

What every task shares (the domain, the options) goes to every worker once (``scatter``, broadcast);
the items go in batches of several per task, about four batches per worker and at most
:data:`MAX_BATCH` items each, so Dask's per-task cost (11-13 ms on a busy 2-core machine,
benchmarks/dask_overhead.py) stays small against the work and the last batches still spread the load.
Answers come back item by item in the order given, as a local run yields them. A batch whose worker
dies is recomputed by the scheduler; one that still fails after a retry is tried again item by item,
one task each, so only an item that fails on its own is lost (``lost(item, cause)``: an error row
naming it and the cause). Workers read files by path, so they must see the same file system.
"""

from __future__ import annotations

import contextlib
import math
import socket
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

from strips_int.errors import StripsIntError, brief
from strips_int.model.domain import Domain

from .rows import error_row, file_rows, shared_file_rows

#: Items per task at most; at about 45 ms a game, 16 files keep a task under a second.
MAX_BATCH = 16
BATCHES_PER_WORKER = 4
#: Seconds to reach a scheduler and read its handshake, all of it (Dask retries the connection until then).
CONNECT_SECONDS = 10.0
#: The schemes of a scheduler address that are read: Dask's default, TCP (``tcp://HOST:PORT`` or
#: ``HOST:PORT``); others (``tls://`` needs certificates, ``ucx://`` a UCX build) are refused by name.
SCHEMES = ("tcp",)
#: The largest handshake a scheduler is expected to send first (Dask's is a few hundred bytes).
MAX_HANDSHAKE = 1 << 20

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


def batch_map(work: Callable[[S, T], R], shared: S, items: Sequence[T]) -> list[R]:
    """Each item's answer (runs on a worker)."""
    return [work(shared, item) for item in items]


def batch_rows(domain: Domain, options: Mapping[str, Any], paths: Sequence[Path]) -> list[list[dict[str, Any]]]:
    """Each file's rows (runs on a worker; ``benchmarks/dask_overhead.py`` times an empty one)."""
    return [file_rows(domain, options, path) for path in paths]


def batches(items: Sequence[T], workers: int) -> list[Sequence[T]]:
    """``items`` cut into consecutive batches for ``workers`` workers."""
    size = max(1, min(MAX_BATCH, math.ceil(len(items) / (max(workers, 1) * BATCHES_PER_WORKER))))
    return [items[i:i + size] for i in range(0, len(items), size)]


def cause_of(exc: BaseException) -> str:
    """What the cluster said of a lost task, on one bounded line."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def lost_file_rows(path: Path, cause: str) -> list[dict[str, Any]]:
    """The error row of a game file the cluster could not finish."""
    return [error_row(str(path), StripsIntError(str(path), None, f"lost on the Dask cluster ({cause})"))]


@contextlib.contextmanager
def connect(scheduler: str, workers: int) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler``, or of a new local cluster of ``workers``
    single-threaded worker processes when ``scheduler`` is ``"local"``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise StripsIntError(scheduler, None, "the Dask engine needs the dask extra: "
                             "pip install 'strips_int[dask]'") from None
    with contextlib.ExitStack() as stack:
        try:
            if scheduler == "local":
                cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1,
                                                           processes=True, dashboard_address=None))
                client = stack.enter_context(Client(cluster))
            else:
                started = time.monotonic()
                probe(scheduler, CONNECT_SECONDS)
                left = max(1.0, CONNECT_SECONDS - (time.monotonic() - started))
                client = stack.enter_context(Client(scheduler, timeout=f"{left:.1f}s"))
        except (OSError, TimeoutError, ValueError) as exc:
            raise StripsIntError(scheduler, None, f"cannot reach the Dask scheduler: {exc}") from None
        yield client


def probe(scheduler: str, seconds: float) -> None:
    """Check that ``scheduler`` answers as a Dask scheduler within ``seconds``, all told: the TCP connection
    and the first frame of its handshake (a scheduler sends it as soon as it accepts). Written by hand
    because Dask bounds the connection but not the handshake: a listener that says nothing, or an HTTP
    server (it waits for a request), held ``Client`` for minutes, and foreign bytes read as a frame's
    length made it allocate exabytes."""
    scheme, _, location = scheduler.rpartition("://")
    if (scheme or "tcp") not in SCHEMES:
        raise StripsIntError(scheduler, None, f"the {scheme}:// protocol is not supported; give a Dask scheduler "
                             "as tcp://HOST:PORT (or local for a new cluster on this machine)")
    host, _, port = location.rpartition(":")
    host = host.strip("[]")  # an IPv6 address in brackets
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise StripsIntError(scheduler, None, "a Dask scheduler's address is tcp://HOST:PORT")
    deadline = time.monotonic() + seconds
    try:
        conn = socket.create_connection((host, int(port)), timeout=seconds)
    except OSError as exc:  # refused, unknown host, or no connection within the time (TimeoutError)
        why = f"no connection within {seconds:g} s" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise StripsIntError(scheduler, None, f"cannot reach the Dask scheduler: {why}") from None
    with conn:
        try:
            first = _received(conn, 8, deadline)
            length = int.from_bytes(first, "little")
            if not 0 < length <= MAX_HANDSHAKE:
                raise StripsIntError(scheduler, None, "not a Dask scheduler: its first bytes are not a Dask "
                                     f"handshake (they read {brief(first.decode('latin-1'))})")
            _received(conn, length, deadline)
        except TimeoutError:
            raise StripsIntError(scheduler, None, "not a Dask scheduler, or not answering: no Dask handshake "
                                 f"within {seconds:g} s (a scheduler sends one as soon as it accepts)") from None
        except OSError as exc:
            raise StripsIntError(scheduler, None, "not a Dask scheduler: the connection ended before a whole Dask "
                                 f"handshake came ({exc.strerror or type(exc).__name__})") from None


def _received(conn: socket.socket, count: int, deadline: float) -> bytes:
    """``count`` bytes from ``conn`` by ``deadline`` (:func:`time.monotonic`); TimeoutError past it,
    ConnectionError when the peer closes first."""
    data = bytearray()
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        conn.settimeout(left)
        chunk = conn.recv(min(count - len(data), 1 << 16))
        if not chunk:
            raise ConnectionResetError(0, "closed")
        data += chunk
    return bytes(data)


def evaluate_on_cluster(domain: Domain, files: Sequence[Path], options: Mapping[str, Any], scheduler: str,
                        workers: int = 1) -> Iterator[list[dict[str, Any]]]:
    """The rows of each file, in ``files`` order, computed on the Dask cluster at ``scheduler``
    (or a local one of ``workers`` processes)."""
    return map_on_cluster(shared_file_rows, (domain, dict(options)), files, lost_file_rows, scheduler, workers)


def map_on_cluster(work: Callable[[S, T], R], shared: S, items: Sequence[T], lost: Callable[[T, str], R],
                   scheduler: str, workers: int = 1) -> Iterator[R]:
    """``work(shared, item)`` for each item, in ``items`` order, on the Dask cluster at ``scheduler`` (or a
    local one of ``workers`` processes). Connects at once, so an unreachable scheduler is an error here
    rather than at the first answer; the client closes when the answers run out."""
    stack = contextlib.ExitStack()
    client = stack.enter_context(connect(scheduler, workers))
    return cluster_map(stack, client, work, shared, items, lost, workers)


def cluster_map(stack: contextlib.ExitStack, client: Any, work: Callable[[S, T], R], shared: S, items: Sequence[T],
                lost: Callable[[T, str], R], workers: int) -> Iterator[R]:
    with stack:
        on_cluster = len(client.scheduler_info().get("workers", {})) or workers
        [scattered] = client.scatter([shared], broadcast=True)
        pending = [(batch, client.submit(batch_map, work, scattered, batch, retries=1, pure=False))
                   for batch in batches(items, on_cluster)]
        for batch, future in pending:
            try:
                result = future.result()
            except Exception:  # noqa: BLE001 - a lost batch: its items again, one task each
                result = retried(client, work, scattered, batch, lost)
            future.release()
            yield from result


def retried(client: Any, work: Callable[[S, T], R], scattered: Any, batch: Sequence[T],
            lost: Callable[[T, str], R]) -> list[R]:
    """The answers of a lost batch's items, each in a task of its own (so the item that killed its
    workers costs only its own answer); an item that fails again is ``lost(item, cause)``."""
    futures = [client.submit(batch_map, work, scattered, [item], pure=False) for item in batch]
    answers = []
    for item, future in zip(batch, futures):
        try:
            answers += future.result()
        except Exception as exc:  # noqa: BLE001 - any failure of the retry becomes the item's lost answer
            answers.append(lost(item, cause_of(exc)))
        future.release()
    return answers
