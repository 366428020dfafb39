"""Every change of the game, applied in one place that also sends its event, once.

Generated rule code (changes.py, statements.py, chance.py), the VM (turns, the end) and the
scenario runner use these templates and functions rather than writing zones, counters or
variables themselves, so that a change and its event (model/events.py) can never disagree, and
a new kind of listener (a ruleset's own "each time a player gains snow ..." reactions) has one
place to hook into. The two most frequent changes, a component's move and a counter's change,
are templates of generated lines (inlined into the rules' code: no call per change).

Each piece is small and does no checking the compiler already did: they run in the inner loop.
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

# ---- the templates: the hottest changes, inlined into generated rule code ------------------
# Generated code binds these names (NAMESPACE) and calls nothing for a move or a counter change;
# the functions below that do the same (move_one) are generated from the same templates, so
# each change is written once.
MOVED, CHANGED, SET, FIRE = "_Moved", "_CounterChanged", "_VariableSet", "_fire"
NAMESPACE = {MOVED: Moved, CHANGED: CounterChanged, SET: VariableSet, FIRE: fire}


def move_lines(c: str, b: str, a: str, bottom: bool, rule: str, react: tuple[str, ...] = ()) -> list[str]:
    """Component `c` to zone `b` (its top, or its bottom), as generated lines: `c` and `b` are
    expressions of snowrules' own (local names), `a` a fresh local, `rule` the name bound to the
    rule's text; `react` the names bound to the ruleset's events raised by a move
    (compile/reactions.py), queued for the reactions that run once the statement is done."""
    put = f"st.zones[{b}].insert(0, {c})" if bottom else f"st.zones[{b}].append({c})"
    return [f"{a} = st.where[{c}]",
            f"st.zones[{a}].remove({c})",
            put,
            f"st.where[{c}] = {b}",
            f"if st.sink is not None: st.sink({MOVED}([{c}], {a}, {b}, {rule}))",
            *(f"st.raised.append(({event}, [{c}, {a}, {b}]))" for event in react)]


def counter_lines(i: str, old: str, new: str, triggers: str, rule: str, handing_back: bool,
                  react: tuple[str, ...] = (), react_each: str | None = None) -> list[str]:
    """Counter `i` from `old` to `new` (locals holding numbers, `new` already clamped): when
    they differ, set it, tell it, and run the `when` rules on it (`triggers`: the name bound to
    them); `handing_back`: the generated function returns the triggered bodies that may wait,
    for the VM to push; `react`: the names bound to the ruleset's events raised by this counter's
    changes, queued (counter, change) for the reactions that run once the statement is done;
    `react_each`: the name of a sequence of such events known only when the lines run (a
    statement changing counters it works out then: a payment)."""
    give = "return " if handing_back else ""
    each = [f"    for _e in {react_each}: st.raised.append((_e, ({i}, {new} - {old})))"] if react_each else []
    return [f"if {new} != {old}:",
            f"    st.counters[{i}] = {new}",
            f"    if st.sink is not None: st.sink({CHANGED}({i}, {old}, {new}, {rule}))",
            *(f"    st.raised.append(({event}, ({i}, {new} - {old})))" for event in react),
            *each,
            f"    if {triggers}: {give}{FIRE}(st, {triggers}, {i}, {old}, {new})"]


def variable_lines(index: int, value: str, rule: str) -> list[str]:
    """Game variable number `index` (a number snowrules computed) given `value` (an expression
    of generated code), as generated lines."""
    return [f"st.vars[{int(index)}] = {value}",
            f"if st.sink is not None: st.sink({SET}({int(index)}, st.vars[{int(index)}], {rule}))"]


def _generated(name: str, params: str, lines: list[str]):
    source = f"def {name}({params}):\n" + "\n".join("    " + line for line in lines)
    namespace = dict(NAMESPACE)
    exec(compile(source, f"<snowrules-{name}>", "exec"), namespace)  # noqa: S102 - our templates only
    return namespace[name]


move_one = _generated("move_one", "st, c, b, bottom, rule", [
    "if bottom:", *("    " + line for line in move_lines("c", "b", "a", True, "rule")),
    "else:", *("    " + line for line in move_lines("c", "b", "a", False, "rule"))])
move_one.__doc__ = "Component `c` to zone `b` (its top, or its bottom): `move_lines` as a function."

change_counter = _generated("change_counter", "st, i, new, triggers, rule, react=()", [
    "old = st.counters[i]", *counter_lines("i", "old", "new", "triggers", "rule", True, react_each="react")])
change_counter.__doc__ = ("Counter `i` to `new` (already clamped): `counter_lines` as a function, for statements "
                          "that change several counters (a payment); `react`: the ruleset's events this "
                          "counter's changes raise (queued as counter_lines does); the triggered bodies that "
                          "may wait, or None.")


# ---- moves ---------------------------------------------------------------------------------
def move_all(st, a: int, b: int, bottom: bool, rule: str, react: tuple = ()) -> None:
    """Everything in zone `a` to zone `b`, in order: an empty `b` simply takes `a`'s list
    (`react`: the events a move raises, see move_lines)."""
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
    for c in moved if react else ():
        for event in react:
            st.raised.append((event, [c, a, b]))


def move_top(st, a: int, b: int, n: int, bottom: bool, rule: str, react: tuple = ()) -> None:
    """The top `n` components of zone `a` (fewer when it holds fewer), one by one, to `b`
    (`react`: the events a move raises, see move_lines)."""
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
    for c in moved if react else ():
        for event in react:
            st.raised.append((event, [c, a, b]))


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
def reset_counters(st, start: int, size: int, value: int) -> None:
    """`reset`: a whole counter family back to its lowest value, for every seat (no event: a
    reset starts a count afresh rather than changing it by an amount)."""
    st.counters[start:start + size] = [value] * size


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
