"""Batch evaluation on a Dask cluster (the optional ``dask`` extra).

The domain goes to every worker once (``scatter``, broadcast); the files go
in batches of several files per task, about four batches per worker and at
most :data:`MAX_BATCH` files each, so Dask's per-task cost (11-13 ms on a
busy 2-core machine, benchmarks/dask_overhead.py) stays small against the
games' and the last batches still spread the load. Rows
come back file by file in the order given, as a local run yields them. A
batch whose worker dies is recomputed by the scheduler; one that still fails
after a retry is tried again file by file, one task each, so only a file that
fails on its own becomes an error row, naming the file and the cause.
Workers read the game files by path, so they must see the same file system.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from strips_int.errors import StripsIntError
from strips_int.model.domain import Domain

from .rows import error_row, file_rows

#: Files per task at most; at about 45 ms a game, 16 files keep a task under a second.
MAX_BATCH = 16
BATCHES_PER_WORKER = 4
#: How long to keep trying an unanswering scheduler (Dask retries until then).
CONNECT_TIMEOUT = "10s"


def batch_rows(domain: Domain, options: Mapping[str, Any], paths: Sequence[Path]) -> list[list[dict[str, Any]]]:
    """Each file's rows (runs on a worker)."""
    return [file_rows(domain, options, path) for path in paths]


def batches(files: Sequence[Path], workers: int) -> list[Sequence[Path]]:
    """``files`` cut into consecutive batches for ``workers`` workers."""
    size = max(1, min(MAX_BATCH, math.ceil(len(files) / (max(workers, 1) * BATCHES_PER_WORKER))))
    return [files[i:i + size] for i in range(0, len(files), size)]


def lost_rows(paths: Sequence[Path], exc: BaseException) -> list[list[dict[str, Any]]]:
    """One error row per file of a batch the cluster could not finish."""
    cause = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    return [[error_row(str(path), StripsIntError(str(path), None, f"lost on the Dask cluster ({cause})"))]
            for path in paths]


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
                client = stack.enter_context(Client(scheduler, timeout=CONNECT_TIMEOUT))
        except (OSError, TimeoutError, ValueError) as exc:
            raise StripsIntError(scheduler, None, f"cannot reach the Dask scheduler: {exc}") from None
        yield client


def evaluate_on_cluster(domain: Domain, files: Sequence[Path], options: Mapping[str, Any], scheduler: str,
                        workers: int = 1) -> Iterator[list[dict[str, Any]]]:
    """The rows of each file, in ``files`` order, computed on the Dask cluster at ``scheduler``
    (or a local one of ``workers`` processes). Connects at once, so an unreachable scheduler is an
    error here rather than at the first row; the client closes when the rows run out."""
    stack = contextlib.ExitStack()
    client = stack.enter_context(connect(scheduler, workers))
    return cluster_rows(stack, client, domain, files, options, workers)


def cluster_rows(stack: contextlib.ExitStack, client: Any, domain: Domain, files: Sequence[Path], options: Mapping[str, Any],
                 workers: int) -> Iterator[list[dict[str, Any]]]:
    with stack:
        on_cluster = len(client.scheduler_info().get("workers", {})) or workers
        shared = client.scatter(domain, broadcast=True)
        pending = [(paths, client.submit(batch_rows, shared, options, paths, retries=1, pure=False))
                   for paths in batches(files, on_cluster)]
        for paths, future in pending:
            try:
                result = future.result()
            except Exception:  # noqa: BLE001 - a lost batch: its files again, one task each
                result = retried(client, shared, options, paths)
            future.release()
            yield from result


def retried(client: Any, shared: Any, options: Mapping[str, Any], paths: Sequence[Path]) -> list[list[dict[str, Any]]]:
    """The rows of a lost batch's files, each in a task of its own (so the file that killed its
    workers costs only its own rows); a file that fails again is its error row."""
    futures = [client.submit(batch_rows, shared, options, [path], pure=False) for path in paths]
    rows = []
    for path, future in zip(paths, futures):
        try:
            rows += future.result()
        except Exception as exc:  # noqa: BLE001 - any failure of the retry becomes the file's error row
            rows += lost_rows([path], exc)
        future.release()
    return rows
