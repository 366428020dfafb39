"""The address space a command allows itself (cli/memory.py, issue 29: 500 MB): the default, what
SNOWRULES_MEMORY_MB makes of it, and that what the command reserves does not grow with the
machine, so README's commands keep to it.

Before (main at 2a45834, 2,048 MB by default): under CI's 500 MB, `compare --workers 2` stopped
with an internal error (exit 70: "scipy/special/...so: failed to map segment") and with 10,000
games a side it hung (its workers, forked after scipy was imported, ran out of memory and were
lost); a worker pool's three threads reserved 200 MB of malloc arenas for 1 MB of use.
"""
from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
from pathlib import Path

import pytest

GIGABYTE = 2**30
MEGABYTE = 2**20


def _limit(hard: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    return limit


def _python(code: str, env: dict[str, str], hard: int = GIGABYTE) -> str:
    """`code` in a fresh interpreter under an address-space limit of `hard` bytes: its output."""
    environment = {k: v for k, v in os.environ.items() if k not in ("SNOWRULES_MEMORY_MB", "OPENBLAS_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=_limit(hard), env={**environment, **env}, check=True)
    return done.stdout.strip()


LIMITS = [
    # (SNOWRULES_MEMORY_MB, or None when unset; the limit in MB in force after, under a 1,024 MB limit set before)
    (None, 500),      # the default: issue 29's bound
    ("100", 100),
    ("2048", 1024),   # never above a limit already set: it only lowers
    ("0", 1024),      # none of its own: the one set before stays
]


@pytest.mark.parametrize(("setting", "in_force"), LIMITS)
def test_a_command_lowers_its_address_space_to_the_configured_limit(setting, in_force):
    code = ("import resource; from snowrules.cli.memory import limit_memory; said = limit_memory(); "
            "print(said, resource.getrlimit(resource.RLIMIT_AS)[0] // 2**20)")
    env = {} if setting is None else {"SNOWRULES_MEMORY_MB": setting}
    assert _python(code, env) == f"{in_force} {in_force}"


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc arenas are glibc's")
def test_threads_share_one_malloc_arena_so_a_pool_reserves_no_64_megabytes_each():
    """Three threads that each allocate (a worker pool starts three) reserve their stacks only:
    without the shared arena each reserved 64 MB more (the growth was 216 MB)."""
    code = """if True:
        import threading
        from snowrules.cli.memory import fewer_reservations
        fewer_reservations()
        def size():
            return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize")) // 1024
        before = size()
        hold = []
        def allocate():
            hold.append([bytes(200) for _ in range(5000)])
        threads = [threading.Thread(target=allocate) for _ in range(3)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(size() - before)"""
    assert int(_python(code, {})) < 64


def test_openblas_keeps_one_thread_unless_told_otherwise():
    code = ("import os; from snowrules.cli.memory import fewer_reservations; fewer_reservations(); "
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['ARROW_DEFAULT_MEMORY_POOL'])")
    assert _python(code, {}) == "1 system"
    assert _python(code, {"OPENBLAS_NUM_THREADS": "4"}) == "4 system"  # a person's own setting is kept


def test_compare_with_two_workers_keeps_to_500_megabytes(tmp_path: Path):
    """README's `compare ... --workers 2`, on few games: under 500 MB it used to stop with an
    internal error as scipy was loaded. It imports scipy only after the games, and checks it is
    installed without importing it (data/extras.py), so that its workers are forked small."""
    pytest.importorskip("scipy")
    command = [sys.executable, "-c", "from snowrules.cli.main import entry; entry()", "compare", "goofspiel",
               "--players", "2", "--option", "num_cards=6", "--other-option", "num_cards=5", "--games", "20",
               "--workers", "2", "--json"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit(500 * MEGABYTE))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "snowrules-compare/1"


OPENBLAS_ROOMS = [
    # (loaded before, MB left, what is then loaded, what is refused and how much it needs)
    # numpy's OpenBLAS, with 45-75 MB left, printed "OpenBLAS error: Memory allocation still failed after
    # 10 retries, giving up." and ended the process (status 1)
    ("", 60, "room_for('numpy')", "loading numpy needs about 100 MB of address space"),
    # scipy's, after numpy, with 65-90 MB left, retried its 32 MB buffer for ever (compare after its games)
    ("import numpy", 75, "compare([], [], 2, 2)", "loading numpy and scipy.stats needs about 170 MB of address space"),
]


@pytest.mark.parametrize(("before", "left", "call", "refused"), OPENBLAS_ROOMS)
def test_a_library_bundling_openblas_is_refused_when_it_would_not_fit(before, left, call, refused):
    """Before (main at d1200a2) the second row spun until the timeout; now both are a MemoryError at once."""
    pytest.importorskip("scipy")
    code = f"""if True:
        import resource
        {before}
        from snowrules.play.comparison import compare
        from snowrules.play.out_of_memory import NoRoomToLoad, room_for
        size = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size + {left} * 2**20, resource.getrlimit(resource.RLIMIT_AS)[1]))
        try:
            {call}
        except NoRoomToLoad as error:
            print(error)"""
    said = _python(code, {"OPENBLAS_NUM_THREADS": "1"})
    assert said.startswith(refused + "; ") and said.endswith(" MB are left"), said
    assert int(said.split("; ")[1].split()[0]) <= left
