"""Whether an optional library (an extra of pyproject.toml) is installed, without importing it.

A command checks its extras before any game is played, so that a missing one is said at once;
importing the library for that check would load it before the worker processes are forked, and
each worker would then carry its address space: scipy's statistics reserve 230 MB, pyarrow 180 MB,
against a limit of 500 MB per process (cli/memory.py). The library is imported where it is used.
"""
from __future__ import annotations

from importlib.util import find_spec


def installed(library: str) -> bool:
    """Whether `library` (a top-level module name) can be imported."""
    try:
        return find_spec(library) is not None
    except (ImportError, ValueError):  # a half-installed package, or a module without a spec
        return False
