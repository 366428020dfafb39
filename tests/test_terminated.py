"""SIGTERM to a command that runs worker processes (a cancelled CI job) stops it as Ctrl-C does:
the workers are stopped with it, no traceback is printed, a simulation reports the games it
finished, and the exit code is 130. Before, the workers outlived the command, printing BrokenPipe
tracebacks."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /proc")


def _children(pid: int) -> set[int]:
    found = set()
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(status.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_sigterm_stops_a_simulation_and_its_workers(tmp_path):
    command = [sys.executable, "-m", "snowrules", "simulate", "goofspiel", "--players", "2", "--games", "2000000",
               "--workers", "2", "--seed", "3", "--json"]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment)
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:  # the pool is up
            time.sleep(0.2)
            workers = _children(process.pid)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(1.0)  # some games done
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    summary = json.loads(out)
    assert summary["interrupted"] is True and 0 < summary["games"] < 2000000
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers), "a worker outlived the command"
