"""The numbers of generated names (`_v12`, `_x13`, `_block14`): counted per program.

A program's compile numbers the names it makes from 0, and each of its builds numbers its own
from the first number its compile left unused (Program.first_free_name). So a configuration's
generated module is the same text whatever was compiled before it in the process, and in every
process: the build cache keeps its compiled code under that text (compile/generated_module.py).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Generated names are numbered per program (see `numbering`): the same configuration built in any
# process, in any order, gives the same module text, which the module cache (generated_module.py)
# is keyed by. Outside a program's compile or build (a test's own expressions), one count serves.
_names: ContextVar[Iterator[int] | None] = ContextVar("snowrules_generated_names", default=None)
_outside = itertools.count()


@contextmanager
def numbering(start: int = 0) -> Iterator[Iterator[int]]:
    """Number the generated names made inside the block from `start` (a program's compile from 0,
    each of its builds from the first number its compile left unused); gives the count, whose
    next value is the first number not used."""
    count = itertools.count(start)
    token = _names.set(count)
    try:
        yield count
    finally:
        _names.reset(token)


def next_number() -> int:
    """The next number of a generated name (`_v12`, `_x13`): the program's count, inside `numbering`."""
    count = _names.get()
    return next(count if count is not None else _outside)
