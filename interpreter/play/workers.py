"""Local worker processes that never leave their caller waiting for a worker that has died.

multiprocessing.Pool replaces a worker killed from outside (the system's out-of-memory killer,
`kill -9`) with a new one and forgets the task it held: a caller waiting for that task's result
waits forever. Here each worker has a pipe of its own, and the caller waits on the pipes and on
the processes' sentinels together, so it knows which worker holds which tasks and learns of a
death as soon as the system does: `WorkerLost` names the worker, how it ended and what it held.

A worker holds at most two tasks at a time for many short ones (the one it plays and the next, so
that it never waits for the caller), one for a few long ones. The pipe closes when the worker dies,
even in the middle of sending a result, so reading it never blocks on a dead worker. When the
caller itself is killed, each worker finds its pipe closed when it next reads or writes it, and
exits (a forked worker closes the copies of the caller's ends it inherits), so no worker outlives
its caller by more than the task it plays.
"""
from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

AHEAD = 2  # tasks a worker holds at once, for many short tasks: the one it plays and the next
POLL_S = 0.2  # the longest wait without returning to Python, so that Ctrl-C is seen at once


class WorkerLost(Exception):
    """A worker process ended while it held tasks: killed from outside or crashed."""

    def __init__(self, pid: int | None, exitcode: int | None, held: list):
        self.pid, self.exitcode, self.held = pid, exitcode, held
        super().__init__(f"worker process {pid} {ended_how(exitcode)}")


def ended_how(exitcode: int | None) -> str:
    """How a process ended, from its exit code, in words: a signal by its name and what usually
    sends it."""
    if exitcode is None or exitcode >= 0:
        return f"exited with code {exitcode}" if exitcode else "exited before it had finished"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    if -exitcode == getattr(signal, "SIGKILL", None):
        return (f"was killed by {name} (signal {-exitcode}: the system's out-of-memory killer sends it when "
                "memory runs short, and `kill -9` does)")
    return f"was ended by {name} (signal {-exitcode})"


def start_method() -> str:
    """fork starts a worker at once, with what its caller has built; where there is none
    (Windows), spawn re-imports snowrules first."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def _serve(tasks: Connection, initializer: Callable[[], None] | None, inherited: list[Connection]) -> None:
    """A worker: run each (function, task) it is sent and send back ("ok", result) or ("error",
    exception), until told to stop or its caller is gone."""
    for end in inherited:  # the caller's ends, copied by the fork: kept, they would hide the caller's death
        end.close()
    if initializer is not None:
        initializer()
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):  # the caller is gone
            return
        if message is None:
            return
        function, task = message
        try:
            reply = ("ok", function(task))
        except BaseException as error:  # noqa: BLE001 - handed to the caller, which raises it
            reply = ("error", error)
        try:
            tasks.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # noqa: BLE001 - a result or an exception that does not pickle
            tasks.send(("error", RuntimeError(f"a worker's answer could not be sent back: {type(error).__name__}: "
                                              f"{error}")))


class Workers:
    """`count` worker processes; `unordered` and `map` hand them tasks, `close` ends them (also as
    a context manager). A task's exception is raised in the caller; a worker that dies raises
    `WorkerLost` there."""

    def __init__(self, count: int, initializer: Callable[[], None] | None = None, method: str | None = None):
        context = multiprocessing.get_context(method or start_method())
        inherit = context.get_start_method() == "fork"
        self._pipes: list[Connection] = []
        self._processes: list = []
        for _ in range(count):
            ours, theirs = context.Pipe()
            # a forked worker closes the caller's ends it inherits, its own pipe's among them
            inherited = [*self._pipes, ours] if inherit else []
            process = context.Process(target=_serve, args=(theirs, initializer, inherited), daemon=True)
            process.start()
            theirs.close()  # the worker's end stays only in the worker: its death closes the pipe
            self._pipes.append(ours)
            self._processes.append(process)

    def unordered(self, function: Callable[[Any], Any], tasks: Sequence, ahead: int = AHEAD) -> Iterator[Any]:
        """`function(task)` of every task, as each arrives (in no set order)."""
        for _, result in self._results(function, tasks, ahead):
            yield result

    def map(self, function: Callable[[Any], Any], tasks: Sequence, ahead: int = 1) -> list:
        """`function(task)` of every task, in the tasks' order. By default a worker is handed a task
        only when it is free: for a few long tasks, none waits behind another while a worker idles."""
        results: list = [None] * len(tasks)
        for index, result in self._results(function, tasks, ahead):
            results[index] = result
        return results

    def _results(self, function: Callable[[Any], Any], tasks: Sequence, ahead: int) -> Iterator[tuple[int, Any]]:
        """(index, result) of every task, as each arrives; a worker holds at most `ahead` tasks.
        Past an exception or a stop before the end, the workers still hold tasks whose answers
        would be taken for the next call's: they are ended, and the pool is closed."""
        try:
            yield from self._answers(function, tasks, ahead)
        except BaseException:
            self.close()
            raise

    def _answers(self, function: Callable[[Any], Any], tasks: Sequence, ahead: int) -> Iterator[tuple[int, Any]]:
        waiting = iter(range(len(tasks)))
        held: dict[Connection, list[int]] = {pipe: [] for pipe in self._pipes}
        process_of = dict(zip(self._pipes, self._processes))

        def hand(pipe: Connection) -> None:
            while len(held[pipe]) < ahead and (index := next(waiting, None)) is not None:
                try:
                    pipe.send((function, tasks[index]))
                except OSError:  # a broken pipe: the worker died (not the caller's stdout closed)
                    raise self._lost(process_of[pipe], [tasks[i] for i in held[pipe]]) from None
                held[pipe].append(index)

        for pipe in self._pipes:
            hand(pipe)
        by_sentinel = {process.sentinel: pipe for pipe, process in process_of.items()}
        remaining = len(tasks)
        while remaining:
            ready = wait([*self._pipes, *by_sentinel], timeout=POLL_S)
            for pipe in (r for r in ready if r in held):
                try:
                    status, result = pipe.recv()
                except (EOFError, OSError):  # it died, perhaps as it answered
                    raise self._lost(process_of[pipe], [tasks[i] for i in held[pipe]]) from None
                index = held[pipe].pop(0)
                remaining -= 1
                if status == "error":
                    raise result
                hand(pipe)  # before the caller's work on this result: the worker goes on meanwhile
                yield index, result
            for sentinel in (r for r in ready if r in by_sentinel):
                pipe = by_sentinel[sentinel]
                raise self._lost(process_of[pipe], [tasks[i] for i in held[pipe]])

    @staticmethod
    def _lost(process, held: list) -> WorkerLost:
        """The error of a worker found dead, once the system has its exit code."""
        process.join(1)
        return WorkerLost(process.pid, process.exitcode, held)

    def close(self) -> None:
        """End the workers at once (a task they play is abandoned) and wait for them."""
        for process in self._processes:
            if process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join()
        for pipe in self._pipes:
            pipe.close()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
