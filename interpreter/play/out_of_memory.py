"""Where a command ran out of memory (SR710): the rule that asked for it, found in the traceback
of the MemoryError, and carried back from a worker process, whose traceback does not cross.

A MemoryError in a worker (a simulation's games, validate's smoke games) reached the command
as a bare MemoryError, its traceback lost in the pickling: "snowrules: error: the command ran out
of memory" with no place. The worker now finds the place itself (`placed_memory_errors`) and
raises an `OutOfMemoryAt` that carries it; the command's message (cli/memory.py) reads it.

A library that bundles OpenBLAS (numpy, scipy) is refused before it is loaded when the address
space left is less than it maps (`room_for`): OpenBLAS does not fail cleanly when its 32 MB buffer
cannot be mapped. Measured under `prlimit --as` (numpy 2, scipy 1.1x wheels, one OpenBLAS thread):
`import numpy` maps 85 MB, and with 45-75 MB left numpy's copy prints "OpenBLAS error: Memory
allocation still failed after 10 retries" and ends the process (status 1); `from scipy import
stats` after it maps 150 MB, and with 65-90 MB left scipy's copy retries its buffer for ever, at
full CPU. With less or more room the loader's ENOMEM or a MemoryError is raised as usual.
"""
from __future__ import annotations

import sys
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


# address space a first import maps, in MB: measured (see above) and rounded up, for other builds
LOAD_MB = {"numpy": 100, "scipy.stats": 170}


class NoRoomToLoad(MemoryError):
    """A library refused before it was loaded: it maps more address space than is left."""

    def __init__(self, library: str, needed_mb: int, left_mb: int):
        super().__init__(f"loading {library} needs about {needed_mb} MB of address space; {left_mb} MB are left")
        self.library, self.needed_mb, self.left_mb = library, needed_mb, left_mb


def room_for(*libraries: str) -> None:
    """Raise NoRoomToLoad unless the address space left holds `libraries` (names of LOAD_MB, in
    the order they load; those already loaded need nothing): a clear SR710 instead of a process
    that exits in the library or spins."""
    needed = sum(LOAD_MB[name] for name in libraries if name not in sys.modules)
    left = address_space_left()
    if needed and left is not None and left < needed * 2**20:
        raise NoRoomToLoad(" and ".join(libraries), needed, left // 2**20)


def address_space_left() -> int | None:
    """Bytes of address space this process may still map (its soft RLIMIT_AS less its size now);
    None where there is no limit or the size cannot be read (not Linux)."""
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status", encoding="ascii") as status:
            size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    except (ImportError, OSError, StopIteration, ValueError):
        return None
    return max(0, soft - size)
