"""Engines run any picklable work over items (game files for evaluate, start problems for rc): answers in item
order, ``shared`` handed to the work, an item whose worker dies twice its ``lost`` answer, nested processes allowed."""

from __future__ import annotations

import multiprocessing
import os
import signal

import pytest

from strips_int.batch.engines import Processes


def square_unless_three(offset: int, item: int) -> int:
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return offset + item * item


def child_pid(offset: int, item: int) -> int:
    """Starts a process of its own, as a layout's classification does."""
    context = multiprocessing.get_context("fork")
    process = context.Process(target=os.getpid)
    process.start()
    process.join()
    return offset + item + (process.exitcode or 0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_answers_come_in_item_order_with_the_shared_value(jobs):
    assert list(Processes(jobs).map(square_unless_three, 100, [1, 2, 4, 5], lambda item, how: -1)) == [
        101, 104, 116, 125]


def test_an_item_whose_worker_dies_twice_is_its_lost_answer():
    lost = []
    answers = list(Processes(2).map(square_unless_three, 0, [1, 2, 3, 4], lambda item, how: lost.append(how) or -item))
    assert answers == [1, 4, -3, 16] and lost == ["killed by SIGKILL"]


def test_nested_work_may_start_processes_of_its_own():
    assert list(Processes(2, nested=True).map(child_pid, 10, [1, 2, 3], lambda item, how: how)) == [11, 12, 13]
