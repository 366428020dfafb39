"""The game clock (runtime/clock.py): a bound in CPU time that stops a game where it is."""
from __future__ import annotations

import subprocess
import sys
import time

from snowrules.runtime.clock import game_clock

# An object whose finalizer spends CPU time: the timer may ring inside it, where Python cannot
# raise (it prints 'Exception ignored in ...' with a traceback). Run alone: pytest puts its own
# hook in front of Python's.
FINALIZER = """
import time
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.runtime.clock import game_clock

class SlowToForget:
    def __del__(self):
        started = time.process_time()
        while time.process_time() - started < 0.3:
            pass

try:
    with game_clock(0.1):
        forgotten = SlowToForget()
        del forgotten
        while True:
            pass
except RuntimeRulesError as error:
    print(error)
"""


def test_a_clock_ringing_in_a_finalizer_prints_nothing_and_stops_the_game_after():
    done = subprocess.run([sys.executable, "-c", FINALIZER], capture_output=True, text=True, timeout=60)
    assert "ran longer than 0.1 s of CPU time" in done.stdout
    assert done.stderr == ""


def test_the_clock_counts_cpu_time_not_sleep():
    with game_clock(0.2):
        time.sleep(0.4)  # no CPU: the game goes on


def test_the_clock_puts_back_the_unraisable_hook_it_found():
    import sys

    def mine(unraisable):
        pass
    before = sys.unraisablehook
    sys.unraisablehook = mine
    try:
        with game_clock(5.0):
            with game_clock(5.0):
                assert sys.unraisablehook is not mine  # the clock's stands in front while games run
        assert sys.unraisablehook is mine
    finally:
        sys.unraisablehook = before
