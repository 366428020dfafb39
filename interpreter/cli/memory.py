"""A soft limit on the address space of one `snowrules` command, so that a blow-up nobody foresaw
becomes a clear message instead of a machine that swaps.

Every size a ruleset or a log can make grow is bounded before the work (language/limits.py), so
the limit is a net, not the bound: 2,048 MB by default, some six times what `validate` of the
largest bundled ruleset reaches (350 MB) and far above a game (under 100 MB), with room for
numpy, scipy, pyarrow and worker processes (each worker inherits it, and each is its own address
space). It is set only by the console command (`entry`), never by `main()` called inside another
program (the test suite), only ever lowers a limit already set (CI's 500 MB stays), and
`SNOWRULES_MEMORY_MB=0` removes it, for a machine where a library reserves more address space than
it uses. The cost is none: the kernel checks it when memory is mapped.
"""
from __future__ import annotations

import os

from snowrules.cli.usage import UsageError
from snowrules.language.diagnostics import Position

ENV = "SNOWRULES_MEMORY_MB"
DEFAULT_MB = 2048


def limit_memory() -> int | None:
    """Lower the soft address-space limit to the configured size; the limit in MB now in force
    (set here or lower before), None when there is none or the platform has no such limit."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    text = os.environ.get(ENV, str(DEFAULT_MB)).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 9:  # "²" is a digit to Python, not to int()
        raise UsageError(f"{ENV}={text!r}: give a whole number of megabytes (0: no limit)")
    wanted = int(text) * 2**20
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    unlimited = resource.RLIM_INFINITY
    if wanted == 0:
        return None if soft == unlimited else soft // 2**20
    if hard != unlimited:
        wanted = min(wanted, hard)
    if soft != unlimited and soft <= wanted:
        return soft // 2**20
    try:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError, OverflowError):
        return None
    return wanted // 2**20


def out_of_memory(error: MemoryError, megabytes: int | None) -> str:
    """The message for a MemoryError: at the rule that asked for the memory when a game did (as
    runtime errors are placed, else as the game clock finds the rule running) or while it was
    compiled (a constant worked out once), else the command's."""
    from snowrules.compile.fuse import position_of_error
    from snowrules.runtime.clock import rule_running
    innermost = error.__traceback__
    while innermost is not None and innermost.tb_next is not None:
        innermost = innermost.tb_next
    where = position_of_error(error.__traceback__) \
        or (rule_running(innermost.tb_frame) if innermost is not None else None) \
        or _compiling(innermost.tb_frame if innermost is not None else None)
    limit = f"the {megabytes} MB of address space it allows itself ({ENV} sets it)" if megabytes \
        else "the memory of this machine"
    text = f"error: the command ran out of memory: it needed more than {limit} [SR710]"
    return f"{where}: {text}" if where is not None else f"snowrules: {text}"


def _compiling(frame) -> Position | None:
    """The syntax node the compiler was working on (a local `node` with its `pos`), innermost first."""
    while frame is not None:
        position = getattr(frame.f_locals.get("node"), "pos", None)
        if isinstance(position, Position):
            return position
        frame = frame.f_back
    return None
