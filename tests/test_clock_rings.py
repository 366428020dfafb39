"""The game clock's repeated ring (runtime/clock.py): it stops a game whose stop was swallowed,
but never raises a second stop while the first is being handled, which escaped `game_clock` as
a bare OutOfTime under load (validate of Snow Planner, a scenario whose reading passed 5 s)."""
from __future__ import annotations

import signal

import pytest
from snowrules.runtime.clock import _FALLBACKS, NOWHERE, OutOfTime, _ring


def test_a_ring_while_a_stop_is_handled_raises_nothing_and_one_after_it_stops_again():
    _FALLBACKS.append(NOWHERE)  # a clock is running
    try:
        try:
            raise OutOfTime(NOWHERE)
        except OutOfTime:
            _ring(signal.SIGPROF, None)  # the first stop is on its way out: no second one
        with pytest.raises(OutOfTime):
            _ring(signal.SIGPROF, None)  # the stop was swallowed: the clock stops the game again
    finally:
        _FALLBACKS.pop()
