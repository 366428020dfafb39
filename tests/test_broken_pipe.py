"""A closed pipe (issue 29): a reader of the output that stopped reading (`snowrules run ... | head`)
ends the command quietly with exit 0; any other pipe or connection that closes under the command
(a worker's pipe, a socket) is an error said in one line, exit 74 (sysexits' EX_IOERR), never a
quiet success. Before, main() returned 0 on every BrokenPipeError.

Each row runs the console command in a subprocess whose standard output is a pipe, closed before
anything is read or kept open: the one on stdout is the real command; the others replace the
command's handler by one that writes to a pipe or a socket whose other end is closed, which is
what a worker's death or a dropped connection makes the command meet.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

COMMAND = "from snowrules.cli.main import entry; entry()"
# the handler of `run` replaced by one that writes where nobody reads, then the command as usual
WRITES_TO = """
import os, socket, sys
from snowrules.cli import commands
def closed_pipe(args):
    read, write = os.pipe()
    os.close(read)
    os.write(write, b"a task for a worker")
def closed_socket(args):
    mine, theirs = socket.socketpair()
    theirs.close()
    for _ in range(100):
        mine.send(b"x" * 65536)
commands.command_run = {handler}
from snowrules.cli.main import entry
sys.argv = ["snowrules", "run", "goofspiel", "--players", "2"]
entry()
"""
ANOTHER_PIPE = ("snowrules run: error: a pipe or connection to another process was closed while the command was "
                "writing to it (Broken pipe); the command stops here\n")

ROWS = [
    # (what closed, the Python the subprocess runs, its arguments, whether stdout is closed at once,
    #  exit code, standard error)
    ("the reader of standard output", COMMAND, ["run", "goofspiel", "--players", "2", "--seed", "1"], True, 0, ""),
    ("the reader of --json output", COMMAND, ["run", "goofspiel", "--players", "2", "--json"], True, 0, ""),
    ("a worker's pipe", WRITES_TO.format(handler="closed_pipe"), [], False, 74, ANOTHER_PIPE),
    ("a socket", WRITES_TO.format(handler="closed_socket"), [], False, 74, ANOTHER_PIPE),
]


@pytest.mark.parametrize(("closed", "code", "args", "stdout_closed", "status", "stderr"), ROWS,
                         ids=[row[0] for row in ROWS])
def test_a_closed_pipe_is_quiet_only_on_standard_output(closed, code, args, stdout_closed, status, stderr):
    process = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    if stdout_closed:
        process.stdout.close()  # before the command writes anything: its first write meets the closed pipe
        error = process.stderr.read()
    else:
        _, error = process.communicate(timeout=60)
    process.wait(timeout=60)
    assert (process.returncode, error) == (status, stderr), closed
