"""A bound in time for one game: a timer signal that stops it at the rule that was running.

The step budget (compile/budget.py) bounds what a game may count, not what it costs: a step that
filters every component, a turn offering free actions that agents keep taking, or a narrator
printing every event make 5,000,000 steps take minutes. So each command that plays or checks a
game runs it inside `game_clock(seconds)`: a timer of the process's CPU time (SIGPROF, user and
system time) whose handler raises
`OutOfTime` wherever Python is, inside the generated code of a loop as well as in an agent. The
handler finds the rule from the interrupted frames (the innermost generated line's `# @` mark, as
runtime errors do; else a native loop's `position`; else the statement the state waits at), so
the error reads `rules.sr:LINE:COL: the game ran longer than
N s`. Nothing is checked per step: the cost on a normal game is arming a timer once per game.
The bound is in CPU time, not real time, because what it bounds is the work a ruleset asks for: on
a machine shared with other jobs (a CI runner, simulate's or validate's own workers), a game of
1 s of CPU can take 5 s of real time, and a real-time bound refused valid rulesets there.

`OutOfTime` is a BaseException, so that no handler of the game's own errors (`except Exception`,
`except SnowrulesError`) can swallow it; if something did, the timer fires again every
`REPEAT_SECONDS`. Leaving `game_clock` turns it into a RuntimeRulesError (SR709), which every
command already reports with exit 1. Signals reach only the main thread: elsewhere (a Dask
worker's thread) the clock is off, and the step budget remains.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from snowrules.compile.fuse import is_generated, line_running, marked_position
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.model.program import Program
from snowrules.model.state import State

try:  # the handler as it is: signal.getsignal's conversion to an enum costs 10 us, 3 times the rest
    from _signal import getsignal as _handler_now
except ImportError:  # another Python than CPython
    _handler_now = signal.getsignal

# the process's CPU time, user and system (none on Windows: there the step budget remains)
SIGNAL, TIMER = getattr(signal, "SIGPROF", None), getattr(signal, "ITIMER_PROF", None)
GAME_SECONDS = 60.0   # run, replay, simulate, compare: one game (a bundled game: well under 1 s)
CHECK_SECONDS = 5.0   # test: one scenario (a bundled scenario: well under 1 s)
REPEAT_SECONDS = 0.5  # past the limit, the timer fires again this often until the game has stopped
TIME_LIMIT_CODE = "SR709"  # a game (or its setup: play/start_clock.py) stopped by its clock
NOWHERE = Position("<rules>", 0, 0)


class OutOfTime(BaseException):  # noqa: N818 - like KeyboardInterrupt, it is not an error of the code it stops
    """Raised by the timer's handler inside the running game, with the rule it found."""

    def __init__(self, position: Position, state: State | None = None):
        super().__init__(position)
        self.position, self.state = position, state


def too_long(position: Position, seconds: float) -> RuntimeRulesError:
    return RuntimeRulesError.at(position,
                                f"the game ran longer than {seconds:g} s of CPU time (its time limit) here",
                                "a loop that never ends, or a game far too long? --time-limit SECONDS "
                                "sets the limit", code=TIME_LIMIT_CODE)


_FALLBACKS: list[Position] = []  # the running clocks' fallback places, innermost last


def _ring(_signum: int, frame: FrameType | None) -> None:
    """The SIGPROF handler: stop the game of the innermost running clock, if any, unless a stop
    is already being handled: the repeated ring that catches a swallowed stop could otherwise land
    while the first one is on its way out (in contextlib's `__exit__`, before `game_clock`'s
    `except` disarms the timer) and escape as an OutOfTime no one catches (seen under load 8:
    `validate` of a big ruleset, a scenario whose reading ran past 5 s)."""
    if _FALLBACKS and not isinstance(sys.exc_info()[1], OutOfTime):
        raise OutOfTime(rule_running(frame) or _FALLBACKS[-1], state_running(frame))


_outer_hooks: list = []  # the unraisable hooks `_unraisable` stands in front of, while clocks run


def _unraisable(unraisable) -> None:
    """sys.unraisablehook while clocks run: the timer may ring inside code whose exceptions Python
    cannot raise (a weakref callback, a __del__); Python would print the OutOfTime with its
    traceback. It is dropped instead: the timer rings again REPEAT_SECONDS later, in the game."""
    if isinstance(unraisable.exc_value, OutOfTime):
        return
    _outer_hooks[-1](unraisable)


def clock_works(seconds: float | None) -> bool:
    """Whether `game_clock(seconds)` bounds a game here: a limit is given, and the timer signal
    can reach this thread (only the main thread gets signals)."""
    return bool(seconds) and threading.current_thread() is threading.main_thread() and TIMER is not None


# What a clock raises when its time is up: from the rule that was running and the game's state
# there (None when no game was running), the error to report.
Refusal = Callable[[Position, "State | None"], RuntimeRulesError]


@contextmanager
def game_clock(seconds: float | None, program: Program | None = None, where: Position | None = None,
               refusal: Refusal | None = None) -> Iterator[None]:
    """Run the body (one game) within `seconds` of CPU time, else raise SR709 at the rule that
    was running (else `where`, else the start of `program`'s rules); `refusal` words it, when
    given (play/start_clock.py's: a setup, or turns that ask nobody). None or 0: no limit. An
    enclosing clock is suspended meanwhile and resumed with what it had left. The handler stays
    installed after a game when it replaced the default one (installing it costs more than
    arming the timer); another program's handler (pytest-timeout's) is put back."""
    if not clock_works(seconds):
        yield
        return
    previous = _handler_now(SIGNAL)
    if previous is not _ring:
        signal.signal(SIGNAL, _ring)
    hook = sys.unraisablehook  # put back when this clock ends (another may have been set meanwhile)
    if hook is not _unraisable:
        _outer_hooks.append(hook)
        sys.unraisablehook = _unraisable
    _FALLBACKS.append(where or _start_of(program))
    started = time.process_time()
    outer, outer_interval = signal.setitimer(TIMER, seconds, REPEAT_SECONDS)
    try:
        yield
    except OutOfTime as stop:
        signal.setitimer(TIMER, 0)
        raise (refusal(stop.position, stop.state) if refusal is not None
               else too_long(stop.position, seconds)) from None
    finally:
        signal.setitimer(TIMER, 0)
        _FALLBACKS.pop()
        if previous not in (_ring, signal.SIG_DFL):
            signal.signal(SIGNAL, previous)
        if hook is not _unraisable:  # this clock put `_unraisable` in front: it takes it away
            outer_hook = _outer_hooks.pop()
            if sys.unraisablehook is _unraisable:
                sys.unraisablehook = outer_hook
        if outer:  # the enclosing clock goes on with what it had left (at least a moment)
            signal.setitimer(TIMER, max(outer - (time.process_time() - started), 0.001), outer_interval)


def rule_running(frame: FrameType | None) -> Position | None:
    """The rule the interrupted game was running: the innermost frame that names one; else the
    statement the state waits at; else the rule being compiled (a command's clock runs over its
    reading and compiling too)."""
    waiting = compiling = None
    while frame is not None:
        code = frame.f_code
        if is_generated(code.co_filename):
            found = marked_position(frame.f_globals, line_running(frame))
            if found is not None:
                return found
        else:
            local = frame.f_locals
            position = local.get("position")
            if isinstance(position, Position) and "st" in local:  # a native loop of the rules
                return position
            if waiting is None and isinstance(local.get("st"), State):
                waiting = _waiting_at(local["st"], local.get("program") or local.get("game"))
            compiled = getattr(local.get("node"), "pos", None)  # the compiler's syntax node
            if compiling is None and isinstance(compiled, Position):
                compiling = compiled
        frame = frame.f_back
    return waiting or compiling


def state_running(frame: FrameType | None) -> State | None:
    """The state of the game the timer interrupted: the innermost frame's `st` that is one (the
    generated code's name for it), else None."""
    while frame is not None:
        st = frame.f_locals.get("st")
        if isinstance(st, State):
            return st
        frame = frame.f_back
    return None


def _waiting_at(st: State, holder) -> Position | None:
    """The statement a state's top frame is at (an agent was thinking, or events were told): a
    stopped state's frame is at its decision."""
    program = getattr(holder, "program", holder)
    if not isinstance(program, Program) or not st.frames:
        return None
    top = st.frames[-1]
    positions = program.blocks[top.block].positions
    return positions[max(min(top.pc, len(positions) - 1), 0)] if positions else None


def _start_of(program: Program | None) -> Position:
    if program is None:
        return NOWHERE
    block = program.blocks[program.main.block]
    return block.position or (block.positions[0] if block.positions else NOWHERE)
