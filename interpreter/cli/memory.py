"""A soft limit on the address space of one `snowrules` command, so that a blow-up nobody foresaw
becomes a clear message instead of a machine that swaps.

Every size a ruleset or a log can make grow is bounded before the work (language/limits.py), so
the limit is a net, not the bound: 500 MB by default, the bound issue 29 asks of every command.
What a command reaches (README's commands, measured under `prlimit --as`): a game under 50 MB,
`validate` of the largest bundled ruleset 175 MB (in each of its 2 workers), `simulate` writing
Parquet and a report 340 MB, `compare` of 10,000 games a side with 2 workers 420 MB (scipy's
statistics reserve 230 MB of it; its records grow with the games). Each worker process inherits
the limit, and each is its own address space. It is set only by the console command (`entry`), never by `main()` called
inside another program (the test suite), only ever lowers a limit already set (CI's stays), and
`SNOWRULES_MEMORY_MB=0` removes it, for a machine where a library reserves more address space than
it uses. The cost is none: the kernel checks it when memory is mapped.

An address-space limit counts what is reserved, not what is used, so `fewer_reservations` first
stops the reservations that grow with the machine rather than with the input: a malloc arena of
64 MB for each thread (a worker pool starts three threads: 200 MB for 1 MB of use), an OpenBLAS
buffer of 32 MB for each core, twice (numpy's and scipy's own copies: a 32-core machine would
pass 500 MB at `import scipy.stats` alone), and pyarrow's allocator's 128 MB.
"""
from __future__ import annotations

import os

from snowrules.cli.usage import UsageError

ENV = "SNOWRULES_MEMORY_MB"
DEFAULT_MB = 500
# the settings of libraries that otherwise reserve address space by the core or by the 64 MB
LEANER_LIBRARIES = {
    "OPENBLAS_NUM_THREADS": "1",  # numpy's and scipy's wheels each bundle OpenBLAS: 32 MB a thread
    "ARROW_DEFAULT_MEMORY_POOL": "system",  # pyarrow's own allocator reserves 128 MB to write a Parquet table
}
M_ARENA_MAX = -8  # glibc's mallopt parameter: how many malloc arenas the threads share


def fewer_reservations() -> None:
    """Keep the address space a command reserves independent of the machine's cores, before any
    thread or library starts: one malloc arena for every thread (Python code holds the GIL, so
    the threads seldom allocate at once: a shared arena costs them nothing), one OpenBLAS thread
    (the statistics work on small arrays) and pyarrow on malloc (a table of games is small). A
    person's own setting of these variables is kept; worker processes inherit them."""
    for name, value in LEANER_LIBRARIES.items():
        os.environ.setdefault(name, value)
    try:
        import ctypes
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1)
    except (OSError, AttributeError, TypeError):  # not glibc (musl, macOS, Windows): nothing to set
        pass


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


def library_out_of_memory(error: BaseException) -> bool:
    """Whether `error` is a compiled library (scipy's, pyarrow's) that could not be loaded within
    the address space: the dynamic loader's ENOMEM, an ImportError rather than a MemoryError."""
    return isinstance(error, ImportError) and "failed to map segment from shared object" in str(error)


def out_of_memory(error: BaseException, megabytes: int | None) -> str:
    """The message for a MemoryError (or a library that could not be loaded): at the rule that
    asked for the memory, in this process or in a worker (play/out_of_memory.py), else the
    command's."""
    from snowrules.play.out_of_memory import NoRoomToLoad, memory_error_place
    where = memory_error_place(error)
    limit = f"the {megabytes} MB of address space it allows itself ({ENV} sets it)" if megabytes \
        else "the memory of this machine"
    text = f"error: the command ran out of memory: it needed more than {limit} [SR710]"
    if isinstance(error, NoRoomToLoad):  # refused before the library was loaded: which, and how much
        text = text.replace(" [SR710]", f" ({error}) [SR710]")
    return f"{where}: {text}" if where is not None else f"snowrules: {text}"
