"""Every change of the game, applied in one place that also sends its event, once.

Generated rule code (changes.py, chance.py), the VM (turns, the end) and the scenario runner call
these functions rather than writing zones, counters or variables themselves, so that a change
and its event (model/events.py) can never disagree, and a new kind of listener (a ruleset's own
"each time a player gains snow ..." reactions) has one place to hook into.

Each function is small and does no checking the compiler already did: they run in the inner loop.
"""
from __future__ import annotations

from snowrules.compile.triggers import fire
from snowrules.model.events import (
    CounterChanged,
    GameOver,
    Moved,
    PhaseStarted,
    TurnStarted,
    VariableSet,
)
from snowrules.model.values import Ending


# ---- moves ---------------------------------------------------------------------------------
def move_one(st, c: int, b: int, bottom: bool, rule: str) -> None:
    """Component `c` to zone `b` (its top, or its bottom)."""
    a = st.where[c]
    st.zones[a].remove(c)
    if bottom:
        st.zones[b].insert(0, c)
    else:
        st.zones[b].append(c)
    st.where[c] = b
    if st.sink is not None:
        st.sink(Moved([c], a, b, rule))


def move_all(st, a: int, b: int, bottom: bool, rule: str) -> None:
    """Everything in zone `a` to zone `b`, in order: an empty `b` simply takes `a`'s list."""
    moved = st.zones[a]
    if not moved or a == b:
        return
    st.zones[a] = []
    where = st.where
    for c in moved:
        where[c] = b
    target = st.zones[b]
    if not target:
        st.zones[b] = moved
    elif bottom:
        target[:0] = moved
    else:
        target.extend(moved)
    if st.sink is not None:
        st.sink(Moved(moved[:], a, b, rule))


def move_top(st, a: int, b: int, n: int, bottom: bool, rule: str) -> None:
    """The top `n` components of zone `a` (fewer when it holds fewer), one by one, to `b`."""
    source, target, where = st.zones[a], st.zones[b], st.where
    moved = []
    for _ in range(min(n, len(source))):
        c = source.pop()
        where[c] = b
        moved.append(c)
        if bottom:
            target.insert(0, c)
        else:
            target.append(c)
    if moved and st.sink is not None:
        st.sink(Moved(moved, a, b, rule))


def draw(st, a: int, index: int, b: int, bottom: bool, rule: str) -> int:
    """The component at `index` in zone `a`, drawn at random, to `b`; the component."""
    c = st.zones[a].pop(index)
    if bottom:
        st.zones[b].insert(0, c)
    else:
        st.zones[b].append(c)
    st.where[c] = b
    if st.sink is not None:
        st.sink(Moved([c], a, b, rule, True))
    return c


def place(st, c: int, b: int) -> None:
    """Component `c` to the top of zone `b` without an event: a scenario setting up the
    situation a rulebook example starts from (no rule moved it)."""
    st.zones[st.where[c]].remove(c)
    st.zones[b].append(c)
    st.where[c] = b


# ---- counters and variables ----------------------------------------------------------------
def change_counter(st, i: int, old: int, new: int, triggers: list, rule: str):
    """Counter `i` from `old` to `new` (already clamped, and different): set it, tell it, and run
    the `when` rules it sets off; those that may wait are returned for the VM to push."""
    st.counters[i] = new
    if st.sink is not None:
        st.sink(CounterChanged(i, old, new, rule))
    if triggers:
        return fire(st, triggers, i, old, new)
    return None


def reset_counters(st, start: int, size: int, value: int) -> None:
    """`reset`: a whole counter family back to its lowest value, for every seat (no event: a
    reset starts a count afresh rather than changing it by an amount)."""
    st.counters[start:start + size] = [value] * size


def set_variable(st, index: int, value, rule: str) -> None:
    st.vars[index] = value
    if st.sink is not None:
        st.sink(VariableSet(index, value, rule))


# ---- phases, turns, the end ----------------------------------------------------------------
def start_phase(st, event: PhaseStarted) -> None:
    """A phase begins (the event is made once, at compile time: it holds only the name)."""
    if st.sink is not None:
        st.sink(event)


def start_turn(st, turn_counter: int, turn: int) -> None:
    st.counters[turn_counter] = turn
    if st.sink is not None:
        st.sink(TurnStarted(turn))


def end_game(st, ending: Ending) -> None:
    """The game is over: nothing runs any more, nothing is waited for."""
    st.result = ending
    st.frames.clear()
    st.envs.clear()
    st.pending = None
    if st.sink is not None:
        st.sink(GameOver(ending.winners, ending.rule, ending.reason.value))
