"""Worker processes that may die: an item (a game file, a layout) whose worker is killed (the OOM killer,
a crash in C) is retried once in a fresh worker, then becomes that item's error; the batch goes on.

Written by hand: ``multiprocessing.Pool`` waits forever for a task whose worker died, and
``concurrent.futures`` fails every pending task at once without saying whose worker it was.
Here each worker is sent one file at a time (two in flight, so it never waits for the next)
and answers file by file, so the file a dead worker was on is the first it had not answered.

Workers end when their parent dies, however it dies (SIGKILL included): on Linux the kernel kills
them at once (``prctl(PR_SET_PDEATHSIG)``, so also in the middle of a game); everywhere, a worker
holds no parent's end of any pipe (a forked worker closes the ends it inherited), so the parent's
death closes its pipe and a worker waiting for work ends.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

if TYPE_CHECKING:  # multiprocessing is imported by whoever starts workers: a run in one process needs none
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext

#: Files a worker holds at once: the one it works on and the next.
IN_FLIGHT = 2
#: How many files past the oldest unanswered one may be handed out (bounds the rows held back for order).
WINDOW = 256
#: Tries of a file whose worker died: the first and one retry.
TRIES = 2

Rows = list[dict[str, Any]]


@dataclass
class Worker:
    """One worker process, its end of the pipe and the files it was sent and has not answered."""

    process: Any
    conn: Connection
    held: deque[int] = field(default_factory=deque)


def quiet_gc() -> None:
    """Freeze what start-up loaded and collect seldom: per-game work makes no reference cycles, and
    full collections that walk the domain and imports cost several ms a game (issue 16). A run keeps
    about 400 objects a game (its row, cache entries), so the first collection comes after some 500
    games (each costs about 13 ms per 50,000 objects it examines, however often it runs). At exit, what
    the run leaves (the domain's caches) is frozen too, so that the interpreter's last collections do
    not walk it: 1 s of a 100,000-step game's 3 s (registered once, however often this is called)."""
    gc.freeze()
    gc.set_threshold(200_000, 50, 100)
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def serve(work: Callable[[Path], Rows], conn: Connection, parent: int, inherited: Sequence[Connection] = ()) -> None:
    """A worker's loop: a file's index and path in, its index and rows out, until None.
    Ctrl-C reaches the whole process group: the parent alone handles it and stops the workers;
    a parent killed outright ends the worker (:func:`end_with_parent`, and the pipe it closes:
    ``inherited`` are the parent's ends of the pipes a forked worker holds copies of, closed here)."""
    from strips_int.planners.lifetime import end_with_parent  # (not at the top: the planners' package loads
    # multiprocessing, which a run in one process needs none of)

    end_with_parent(parent)
    for end in inherited:
        end.close()
    quiet_gc()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler: stopping a worker ends it
    try:
        while (task := conn.recv()) is not None:
            index, path = task
            conn.send((index, work(path)))
    except (EOFError, BrokenPipeError):  # the parent is gone
        pass


def how_it_ended(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


def map_files(context: BaseContext, work: Callable[[Any], Any], files: Sequence[Any], jobs: int,
              died: Callable[[Any, str], Any], daemon: bool = True) -> Iterator[Any]:
    """``work(file)`` for each of ``files`` (any picklable items), in order, on ``jobs`` worker processes;
    a file whose worker died on each of its :data:`TRIES` is ``died(file, how)`` instead. Workers are
    daemons unless ``daemon`` is False (work that starts processes of its own: multiprocessing lets no
    daemon have children); either way they are ended when the run ends."""
    from multiprocessing.connection import wait

    todo = deque(range(len(files)))
    tries = [0] * len(files)
    done: dict[int, Rows] = {}
    workers: list[Worker] = []
    following = 0

    def start() -> Worker:
        ours, theirs = context.Pipe()
        # A forked worker has copies of the parent's ends (its own and the other workers'); spawned, none.
        inherited = [ours, *(w.conn for w in workers)] if context.get_start_method() == "fork" else []
        process = context.Process(target=serve, args=(work, theirs, os.getpid(), inherited), daemon=daemon)
        process.start()
        theirs.close()
        return Worker(process, ours)

    def lost(worker: Worker) -> None:
        """A dead worker: keep what it answered, retry the file it was on, put back the ones it had not begun."""
        try:
            while worker.conn.poll():
                index, rows = worker.conn.recv()
                done[index] = rows
                worker.held.remove(index)
        except (EOFError, OSError, ValueError):
            pass
        worker.conn.close()
        worker.process.join()
        if worker.held:
            victim = worker.held.popleft()
            tries[victim] += 1
            if tries[victim] >= TRIES:
                done[victim] = died(files[victim], how_it_ended(worker.process.exitcode))
            else:
                worker.held.appendleft(victim)
            todo.extendleft(reversed(worker.held))

    try:
        for _ in range(min(jobs, len(files))):
            workers.append(start())  # (one by one: each closes the ends of those before it)
        while following < len(files):
            for worker in workers:
                while todo and len(worker.held) < IN_FLIGHT and todo[0] < following + WINDOW:
                    index = todo.popleft()
                    worker.held.append(index)
                    try:
                        worker.conn.send((index, files[index]))
                    except OSError:  # it died: its sentinel says so below
                        break
            ready = set(wait([w.conn for w in workers] + [w.process.sentinel for w in workers]))
            for k, worker in enumerate(workers):
                if worker.conn in ready:
                    try:
                        index, rows = worker.conn.recv()
                    except (EOFError, OSError):
                        ready.add(worker.process.sentinel)
                    else:
                        done[index] = rows
                        worker.held.remove(index)
                if worker.process.sentinel in ready:
                    lost(worker)
                    workers[k] = start()
            while following in done:
                yield done.pop(following)
                following += 1
        for worker in workers:
            worker.conn.send(None)
        for worker in workers:
            worker.process.join()
    finally:  # stopped early (interrupted, or the caller stopped reading): the workers hold nothing to save
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
