"""Where a batch's work runs: one interface over this process, local worker processes and Dask.

An engine runs any picklable work over items, ``work(shared, item)`` for each, and gives the answers
in the order of the items, whatever runs them; ``shared`` (a domain, the options) reaches each worker
once. A broken item costs only its own answer: a worker process that dies costs a retry, then
``lost(item, how)`` (:mod:`.workers`); a Dask batch that is lost is retried item by item
(:mod:`.cluster`). ``evaluate`` maps game files to their rows (:meth:`Engine.rows`), ``rc`` start
problems to their table rows (:mod:`.layouts`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence, TypeVar

from strips_int.model.domain import Domain

from .rows import Row, died_rows, shared_file_rows

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


class Engine(Protocol):
    """Runs work over items (:meth:`map`), and :func:`~.rows.file_rows` over files (:meth:`rows`)."""

    def map(self, work: Callable[[S, T], R], shared: S, items: Sequence[T], lost: Callable[[T, str], R]
            ) -> Iterator[R]:
        """``work(shared, item)`` for each item, in ``items`` order; ``lost(item, how)`` for an item the
        engine could not finish (``how`` it ended: a signal, the cluster's error)."""
        ...

    def rows(self, domain: Domain, files: Sequence[Path], options: Mapping[str, Any]) -> Iterator[list[Row]]:
        """Each file's rows, in ``files`` order."""
        ...


def available_cpus() -> int:
    """The CPUs this process may run on (a job scheduler's grant, where the OS tells), else all."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Processes:
    """``jobs`` local processes (this one alone for 1), forked where the platform can (cheap: workers
    share the loaded code), spawned elsewhere (Windows). ``nested``: the work starts processes of its
    own, so the workers are not daemons (multiprocessing lets only those have children)."""

    jobs: int = 1
    nested: bool = False

    def map(self, work: Callable[[S, T], R], shared: S, items: Sequence[T], lost: Callable[[T, str], R]
            ) -> Iterator[R]:
        if self.jobs <= 1:
            return (work(shared, item) for item in items)
        import functools
        import multiprocessing  # only here: one process needs none of it

        from .workers import map_files

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        return map_files(multiprocessing.get_context(method), functools.partial(work, shared), items, self.jobs, lost,
                         daemon=not self.nested)

    def rows(self, domain: Domain, files: Sequence[Path], options: Mapping[str, Any]) -> Iterator[list[Row]]:
        return self.map(shared_file_rows, (domain, dict(options)), files, died_rows)


@dataclass(frozen=True)
class DaskCluster:
    """The Dask cluster at ``scheduler`` (``tcp://host:8786``), or a new local one of ``workers``
    single-threaded processes for ``"local"`` (the optional ``dask`` extra)."""

    scheduler: str
    workers: int = 1

    def map(self, work: Callable[[S, T], R], shared: S, items: Sequence[T], lost: Callable[[T, str], R]
            ) -> Iterator[R]:
        """Connects at once, so that an unreachable scheduler is an error here, not at the first answer."""
        from .cluster import map_on_cluster  # imports dask when first used

        return map_on_cluster(work, shared, items, lost, self.scheduler, self.workers)

    def rows(self, domain: Domain, files: Sequence[Path], options: Mapping[str, Any]) -> Iterator[list[Row]]:
        from .cluster import lost_file_rows

        return self.map(shared_file_rows, (domain, dict(options)), files, lost_file_rows)


def engine(jobs: int = 1, scheduler: str | None = None, nested: bool = False) -> Engine:
    """The Dask cluster at ``scheduler`` (``"local"``: a new one of ``jobs`` processes), else ``jobs`` local
    processes (``nested``: for work that starts processes of its own)."""
    return DaskCluster(scheduler, jobs) if scheduler else Processes(jobs, nested)
