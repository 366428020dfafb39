"""A bound in time for a game's setup: its start, up to the first decision a player answers.

The game clock (runtime/clock.py) bounds a whole game, 60 s of CPU by default, since a long game
of many turns is a game. A setup has no turns: one that passes a few seconds before anybody has
been asked anything (a `while` that never ends, a list built item by item to the limit) is a
mistake, and a designer should not wait a minute to hear it. So `play` runs a game's start inside
a second, shorter clock, nested in the game's: it ends at the first decision a player is asked,
and the game's clock goes on with what it had left (game_clock resumes an enclosing clock).

The first decision is found without a cost per decision: the answering function (`st.decide`)
and each seat's random draw (`st.draws`, random agents' fast path) are replaced by ones that end
the setup's clock, put the real ones back, and answer. A decision with one legal option is taken
without asking anybody: it does not end the setup.
"""
from __future__ import annotations

import signal
from collections.abc import Callable
from contextlib import ExitStack
from types import TracebackType

from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.runtime.clock import TIME_LIMIT_CODE, TIMER, Refusal, clock_works, game_clock

_TIMER_GRAIN = 0.05  # how much more than it was set to a timer may read
SETUP_SECONDS = 5.0  # issue 29: CPU time of a game's setup, up to its first decision (the bundled: under 0.1 s)


def setup_too_long(program: Program, seconds: float) -> Refusal:
    """The game clock's SR709, said of what ran past the setup's limit (its own: --time-limit
    does not set it): the setup itself, or, once the turns have begun (the turn counter is past
    0 in the state the timer stopped), turns that asked nobody anything."""
    def refusal(position: Position, st: State | None) -> RuntimeRulesError:
        turn = st.counters[program.turn_counter] if st is not None else 0
        if turn > 0:
            return RuntimeRulesError.at(position, f"the game ran longer than {seconds:g} s of CPU time here, "
                                        f"up to turn {turn:,}, without asking any player anything "
                                        "(the limit of a game up to its first decision)",
                                        "turns that never ask a player, or a loop that never ends?",
                                        code=TIME_LIMIT_CODE)
        return RuntimeRulesError.at(position, f"the setup ran longer than {seconds:g} s of CPU time here "
                                    "(the limit of a game's setup, up to its first decision)",
                                    "a loop that never ends, or a list built far too big?", code=TIME_LIMIT_CODE)
    return refusal


class SetupClock:
    """The clock of one game's setup (see the module's docstring). Used as a context manager
    around the whole game: leaving it after the setup has ended does nothing more; a setup past
    its time raises SR709 at the rule that was running."""

    def __init__(self, program: Program, seconds: float | None = None):
        self.program, self.seconds = program, seconds or SETUP_SECONDS
        self._stack = ExitStack()
        self.running = False

    def __enter__(self) -> SetupClock:
        # an enclosing clock with no more time left than the setup's bounds the setup already (and
        # a nested clock would give it more): this one then stays off (the timer reads a few ms
        # above what it was set to: validate's 5 s reads 5.004)
        left = signal.getitimer(TIMER)[0] if TIMER is not None else 0.0
        if clock_works(self.seconds) and not 0 < left <= self.seconds + _TIMER_GRAIN:
            self._stack.enter_context(game_clock(self.seconds, self.program,
                                                 refusal=setup_too_long(self.program, self.seconds)))
            self.running = True
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        running, self.running = self.running, False
        if not running:
            return False
        return bool(self._stack.__exit__(kind, error, traceback))

    def end(self) -> None:
        """The first decision: the setup is over, the game's clock (if any) goes on."""
        if self.running:
            self.running = False
            self._stack.close()

    def drawing(self, draws: list[Callable[[State, int], int]]) -> list[Callable[[State, int], int]]:
        """Each seat's drawer (rng.index_drawer), the first draw of any ending the setup and
        putting the real ones back in this same list (the one the game and its deciding function
        index)."""
        if not self.running:
            return draws
        real = list(draws)
        shared: list[Callable[[State, int], int]] = []

        def first_of(seat: int) -> Callable[[State, int], int]:
            def draw(st: State, count: int) -> int:
                self.end()
                shared[:] = real
                return real[seat](st, count)
            return draw
        shared.extend(first_of(seat) for seat in range(len(real)))
        return shared
