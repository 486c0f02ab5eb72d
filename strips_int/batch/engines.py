"""Where a batch's files are analysed: one interface over this process, local worker processes and Dask.

An engine gives each file's rows in the order of the files, whatever runs
them, and a broken game costs only its own row: a worker process that dies
costs a retry, then its file's error row (:mod:`.workers`); a Dask batch that
is lost is retried file by file (:mod:`.cluster`).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Protocol, Sequence

from strips_int.model.domain import Domain

from .rows import Row, died_rows, file_rows


class Engine(Protocol):
    """Runs :func:`~.rows.file_rows` over files."""

    def rows(self, domain: Domain, files: Sequence[Path], options: Mapping[str, Any]) -> Iterator[list[Row]]:
        """Each file's rows, in ``files`` order."""
        ...


def available_cpus() -> int:
    """The CPUs this process may run on (a job scheduler's grant, where the OS tells), else all."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class Processes:
    """``jobs`` local processes (this one alone for 1), forked where the platform can (cheap: workers
    share the loaded code), spawned elsewhere (Windows)."""

    jobs: int = 1

    def rows(self, domain: Domain, files: Sequence[Path], options: Mapping[str, Any]) -> Iterator[list[Row]]:
        work = functools.partial(file_rows, domain, dict(options))
        if self.jobs <= 1:
            return map(work, files)
        import multiprocessing  # only here: one process needs none of it

        from .workers import map_files

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        return map_files(multiprocessing.get_context(method), work, files, self.jobs, died_rows)


@dataclass(frozen=True)
class DaskCluster:
    """The Dask cluster at ``scheduler`` (``tcp://host:8786``), or a new local one of ``workers``
    single-threaded processes for ``"local"`` (the optional ``dask`` extra)."""

    scheduler: str
    workers: int = 1

    def rows(self, domain: Domain, files: Sequence[Path], options: Mapping[str, Any]) -> Iterator[list[Row]]:
        """Connects at once, so that an unreachable scheduler is an error here, not at the first row."""
        from .cluster import evaluate_on_cluster  # imports dask when first used

        return evaluate_on_cluster(domain, files, options, self.scheduler, self.workers)


def engine(jobs: int = 1, scheduler: str | None = None) -> Engine:
    """The Dask cluster at ``scheduler`` (``"local"``: a new one of ``jobs`` processes), else ``jobs`` local processes."""
    return DaskCluster(scheduler, jobs) if scheduler else Processes(jobs)
