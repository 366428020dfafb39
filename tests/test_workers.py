"""Local worker processes (play/workers.py): results in the tasks' order or as they come, a task's
exception raised in the caller, and a worker that dies an error within a second rather than a wait
without end (issue 29: multiprocessing.Pool replaced a killed worker and waited for its task
forever). A task here kills its own worker, so the death falls inside the task, every time."""
from __future__ import annotations

import os
import signal
import sys
import time

import pytest
from snowrules.play.workers import WorkerLost, Workers, ended_how


def square(n: int) -> int:
    return n * n


def fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError(f"task {n} refused")
    return n


PARENT = 0  # the test's process: a task run elsewhere is in a worker


def killed_in_a_worker(folder, bounds, task):
    """validate's task, as the out-of-memory killer leaves it (sent to the workers by name)."""
    if os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)


def die_on_five(n: int) -> int:
    if n == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.01)
    return n


@pytest.mark.parametrize("exitcode, words", [
    (-9, "was killed by SIGKILL (signal 9: the system's out-of-memory killer sends it when memory runs short, "
         "and `kill -9` does)"),
    (-11, "was ended by SIGSEGV (signal 11)"),
    (-15, "was ended by SIGTERM (signal 15)"),
    (3, "exited with code 3"),
    (0, "exited before it had finished"),
])
def test_how_a_worker_ended_in_words(exitcode, words):
    assert ended_how(exitcode) == words


def test_map_keeps_the_tasks_order_and_unordered_gives_every_result():
    with Workers(2) as pool:
        assert pool.map(square, list(range(10))) == [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]
        assert sorted(pool.unordered(square, list(range(10)))) == [0, 1, 4, 9, 16, 25, 36, 49, 64, 81]


def test_a_tasks_exception_is_raised_in_the_caller_and_ends_the_workers():
    # the other workers still hold tasks, whose answers a next call would take for its own
    pool = Workers(2)
    with pytest.raises(ValueError, match="^task 3 refused$"):
        pool.map(fail_on_three, list(range(6)))
    assert [process.is_alive() for process in pool._processes] == [False, False]


@pytest.mark.parametrize("ahead", [1, 2])
def test_a_worker_that_dies_is_an_error_naming_it_at_once(ahead):
    pool = Workers(2)
    pids = {process.pid for process in pool._processes}
    start = time.monotonic()
    try:
        with pytest.raises(WorkerLost) as lost:
            list(pool.unordered(die_on_five, list(range(12)), ahead=ahead))
    finally:
        pool.close()
    assert time.monotonic() - start < 2.0
    assert lost.value.pid in pids and lost.value.exitcode == -signal.SIGKILL
    assert 5 in lost.value.held and len(lost.value.held) <= ahead
    assert str(lost.value) == f"worker process {lost.value.pid} {ended_how(-9)}"


def test_validate_stops_with_a_message_when_a_worker_dies(monkeypatch, capsys):
    """The smoke games and scenarios of `validate --workers 2` (cli/validation.py): a worker killed
    in its first task (as the out-of-memory killer does) stops the command at once, exit 130."""
    from snowrules.cli import validation
    from snowrules.cli.main import main
    monkeypatch.setattr(validation, "_play_task", killed_in_a_worker)
    monkeypatch.setattr(sys.modules[__name__], "PARENT", os.getpid())
    start = time.monotonic()
    code = main(["validate", "snow_time", "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 130 and time.monotonic() - start < 30
    assert err.startswith("snowrules validate: error: worker process ") and err.endswith(
        f" {ended_how(-9)}; the command stops here\n"), err
