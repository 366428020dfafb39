"""Where a command ran out of memory (SR710): the rule that asked for it, found in the traceback
of the MemoryError, and carried back from a worker process, whose traceback does not cross.

A MemoryError in a worker (a simulation's games, validate's smoke games) reached the command
as a bare MemoryError, its traceback lost in the pickling: "snowrules: error: the command ran out
of memory" with no place. The worker now finds the place itself (`placed_memory_errors`) and
raises an `OutOfMemoryAt` that carries it; the command's message (cli/memory.py) reads it.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from snowrules.language.diagnostics import Position


class OutOfMemoryAt(MemoryError):
    """A MemoryError with the place it was found at (None: not in the rules), which, unlike a
    traceback, pickles across from a worker process."""

    def __init__(self, position: Position | None):
        super().__init__(position)
        self.position = position


def memory_error_place(error: BaseException) -> Position | None:
    """The rule that asked for the memory when a game did (as runtime errors are placed, else as
    the game clock finds the rule running) or while it was compiled (a constant worked out
    once); None when neither."""
    if isinstance(error, OutOfMemoryAt):
        return error.position
    from snowrules.compile.fuse import position_of_error
    from snowrules.runtime.clock import rule_running
    innermost = error.__traceback__
    while innermost is not None and innermost.tb_next is not None:
        innermost = innermost.tb_next
    return position_of_error(error.__traceback__) \
        or (rule_running(innermost.tb_frame) if innermost is not None else None) \
        or _compiling(innermost.tb_frame if innermost is not None else None)


def _compiling(frame: FrameType | None) -> Position | None:
    """The syntax node the compiler was working on (a local `node` with its `pos`), innermost first."""
    while frame is not None:
        position = getattr(frame.f_locals.get("node"), "pos", None)
        if isinstance(position, Position):
            return position
        frame = frame.f_back
    return None


@contextmanager
def placed_memory_errors() -> Iterator[None]:
    """Turn a MemoryError inside into an OutOfMemoryAt with its place, raised once the frames
    that hold the memory (the traceback's) are let go, so that the worker can send it."""
    found: list[Position | None] = []
    try:
        yield
    except OutOfMemoryAt:
        raise
    except MemoryError as error:
        found.append(memory_error_place(error))
    if found:
        raise OutOfMemoryAt(found[0])
