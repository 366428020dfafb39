"""compile/apply.py, the single change point, on its own: each change's result and the one event
it sends (issue 9 point 23: mutants of apply.py that no game in the suite tells apart).

A stand-in state carries only what apply.py touches (zones, where, counters, sink, and what
`end_game` clears), so each expected value below is worked out by hand from the docstrings."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from snowrules.compile import apply
from snowrules.model.events import CounterChanged, GameOver, Moved, TurnStarted
from snowrules.model.move_tally import MoveTally
from snowrules.model.values import Ending, Termination


@dataclass
class Stand:
    """Zones 0-2 holding components 0-5: zone 0 = [0, 1, 2] (2 on top), zone 1 = [3, 4], zone 2 = [5]."""

    zones: list[list[int]] = field(default_factory=lambda: [[0, 1, 2], [3, 4], [5]])
    where: list[int] = field(default_factory=lambda: [0, 0, 0, 1, 1, 2])
    counters: list[int] = field(default_factory=lambda: [1, 2, 3, 4, 5, 6])
    sent: list = field(default_factory=list)
    result: Ending | None = None
    frames: list = field(default_factory=lambda: ["frame"])
    envs: list = field(default_factory=lambda: ["env"])
    pending: object = "waiting"
    grids: dict = field(default_factory=dict)  # no grid zone: a draw checks it holds none
    tally: MoveTally | None = None  # counts moves (model/move_tally.py)

    def sink(self, event) -> None:
        self.sent.append(event)


def check_where(st: Stand) -> None:
    for zone, held in enumerate(st.zones):
        for c in held:
            assert st.where[c] == zone, (c, zone)


def _draw(st, a: int, index: int, b: int, bottom: bool, rule: str) -> int:
    """apply.draw_lines as a draw statement writes them (compile/chance.py), made into a function
    here; the component drawn."""
    lines = apply.draw_lines("a", "st.zones[a]", "index", "b", "c", bottom, "rule")
    source = "\n".join(["def draw(st, a, index, b, rule):", *("    " + line for line in lines), "    return c"])
    scope = dict(apply.NAMESPACE)
    exec(compile(source, "<test>", "exec"), scope)  # noqa: S102 - the template under test
    return scope["draw"](st, a, index, b, rule)


# (what, zones after, the event): moves of the stand-in's components, by the function's words
MOVES = [
    ("move_one c=2 to zone 2 top", lambda st: apply.move_one(st, 2, 2, False, "r"),
     [[0, 1], [3, 4], [5, 2]], Moved([2], 0, 2, "r")),
    ("move_one c=0 to zone 1 bottom", lambda st: apply.move_one(st, 0, 1, True, "r"),
     [[1, 2], [0, 3, 4], [5]], Moved([0], 0, 1, "r")),
    ("move_all 0 -> 1 top", lambda st: apply.move_all(st, 0, 1, False, "r"),
     [[], [3, 4, 0, 1, 2], [5]], Moved([0, 1, 2], 0, 1, "r")),
    ("move_all 0 -> 1 bottom", lambda st: apply.move_all(st, 0, 1, True, "r"),
     [[], [0, 1, 2, 3, 4], [5]], Moved([0, 1, 2], 0, 1, "r")),
    ("move_all 1 -> 1 is nothing", lambda st: apply.move_all(st, 1, 1, False, "r"),
     [[0, 1, 2], [3, 4], [5]], None),
    ("move_top 2 of zone 0 to zone 2 top: 2 then 1", lambda st: apply.move_top(st, 0, 2, 2, False, "r"),
     [[0], [3, 4], [5, 2, 1]], Moved([2, 1], 0, 2, "r")),
    ("move_top 2 of zone 0 to zone 2 bottom, one at a time", lambda st: apply.move_top(st, 0, 2, 2, True, "r"),
     [[0], [3, 4], [1, 2, 5]], Moved([2, 1], 0, 2, "r")),
    ("move_top 5 of zone 1 moves the 2 it holds", lambda st: apply.move_top(st, 1, 0, 5, False, "r"),
     [[0, 1, 2, 4, 3], [], [5]], Moved([4, 3], 1, 0, "r")),
    ("move_top 0 sends nothing", lambda st: apply.move_top(st, 1, 0, 0, False, "r"),
     [[0, 1, 2], [3, 4], [5]], None),
    ("move_top -1 sends nothing", lambda st: apply.move_top(st, 1, 0, -1, False, "r"),
     [[0, 1, 2], [3, 4], [5]], None),
    ("move_top 2 of zone 0 to its own top: the top one, taken and put back twice",
     lambda st: apply.move_top(st, 0, 0, 2, False, "r"), [[0, 1, 2], [3, 4], [5]], Moved([2, 2], 0, 0, "r")),
    ("move_top 2 of zone 0 to its own bottom: 2 goes under, then 1 under it",
     lambda st: apply.move_top(st, 0, 0, 2, True, "r"), [[1, 2, 0], [3, 4], [5]], Moved([2, 1], 0, 0, "r")),
    ("draw index 1 of zone 0 to zone 2 top", lambda st: _draw(st, 0, 1, 2, False, "r"),
     [[0, 2], [3, 4], [5, 1]], Moved([1], 0, 2, "r", True)),
    ("draw index 0 of zone 1 to zone 2 bottom", lambda st: _draw(st, 1, 0, 2, True, "r"),
     [[0, 1, 2], [4], [3, 5]], Moved([3], 1, 2, "r", True)),
]


@pytest.mark.parametrize(("what", "change", "zones", "event"), MOVES, ids=[m[0] for m in MOVES])
def test_each_move_changes_the_zones_and_sends_one_event(what, change, zones, event):
    st = Stand()
    change(st)
    assert st.zones == zones
    check_where(st)
    assert st.sent == ([event] if event else [])
    # with a move tally that counts moves from zone 0 to zone 1 only, in slot 0
    tallied = Stand(tally=MoveTally([[None, 0, None], [None] * 3, [None] * 3], 1, 6))
    change(tallied)
    assert tallied.zones == zones
    expected = [0] * 6
    if event and (event.source, event.dest) == (0, 1):
        for c in event.components:
            expected[c] += 1
    assert tallied.tally.counts == [expected]


def test_move_all_into_an_empty_zone_and_without_a_sink():
    st = Stand(zones=[[0, 1, 2], [3, 4, 5], []], where=[0, 0, 0, 1, 1, 1])
    st.sink = None
    apply.move_all(st, 0, 2, True, "r")
    apply.move_one(st, 3, 2, False, "r")
    apply.move_top(st, 1, 0, 1, False, "r")
    assert st.zones == [[5], [4], [0, 1, 2, 3]]
    check_where(st)


def test_a_drawn_component_is_the_one_at_its_index():
    assert _draw(Stand(), 0, 2, 1, False, "r") == 2


def test_place_puts_a_component_on_top_without_an_event():
    st = Stand()
    apply.place(st, 0, 1)
    assert st.zones == [[1, 2], [3, 4, 0], [5]] and st.where[0] == 1 and st.sent == []


def test_reset_sets_a_family_and_nothing_else():
    st = Stand()
    apply.reset_counters(st, 2, 3, 0)
    assert st.counters == [1, 2, 0, 0, 0, 6] and st.sent == []


def test_reset_lines_set_a_family_as_reset_counters_does():
    st = Stand()
    exec(compile("\n".join(apply.reset_lines(2, 3, 7)), "<test>", "exec"), {"st": st})  # noqa: S102
    assert st.counters == [1, 2, 7, 7, 7, 6] and st.sent == []


def test_a_turn_sets_its_counter_and_says_so():
    st = Stand()
    apply.start_turn(st, 4, 9)
    assert st.counters == [1, 2, 3, 4, 9, 6] and st.sent == [TurnStarted(9)]


def test_the_end_clears_what_waits_and_says_who_won():
    st = Stand()
    ending = Ending([1, 2], "rules.sr:3:5", Termination.DURING_PLAY)
    apply.end_game(st, ending)
    assert (st.result, st.frames, st.envs, st.pending) == (ending, [], [], None)
    assert st.sent == [GameOver([1, 2], "rules.sr:3:5", Termination.DURING_PLAY.value)]


# counter_lines as a function: (old, new) -> the counter after, the events, what the triggers saw
@pytest.mark.parametrize(("old", "new", "after", "events"), [
    (3, 5, 5, [CounterChanged(0, 3, 5, "r")]),
    (3, 3, 3, []),  # no change: no event, no trigger
    (4, 0, 0, [CounterChanged(0, 4, 0, "r")]),
])
def test_counter_lines_set_tell_and_fire_only_on_a_change(old, new, after, events):
    fired = []
    lines = apply.counter_lines("0", "old", "new", "triggers", "rule", handing_back=True)
    source = "def change(st, old, new, triggers, rule):\n" + "\n".join("    " + line for line in lines)
    namespace = dict(apply.NAMESPACE)
    namespace[apply.FIRE] = lambda st, triggers, i, o, n: fired.append((i, o, n)) or ["waiting body"]
    exec(compile(source, "<test>", "exec"), namespace)  # noqa: S102 - the template under test
    st = Stand(counters=[old])
    handed = namespace["change"](st, old, new, ["a trigger"], "r")
    assert st.counters == [after] and st.sent == events
    assert fired == ([(0, old, new)] if events else [])
    assert handed == (["waiting body"] if events else None)


# (generated lines, the kinds of events heard, the lines as built for that): each event line of a
# kind nobody hears becomes `pass` at its own depth, so that a block whose only line it was stays a
# block; nothing else changes.
MOVED_LINE = "if st.sink is not None: st.sink(e)  # tells Moved"
CHANGED_LINE = "if st.sink is not None: f(st, p)  # tells CounterChanged"
UNHEARD = [
    ([MOVED_LINE], set(), ["pass"]),
    (["if a != b:", "    st.counters[1] = b", "    " + MOVED_LINE], set(),
     ["if a != b:", "    st.counters[1] = b", "    pass"]),
    (["if x:", "        " + CHANGED_LINE], set(), ["if x:", "        pass"]),
    (["st.sink = None", "if st.sink: f()", "# if st.sink is not None: told"], set(),
     ["st.sink = None", "if st.sink: f()", "# if st.sink is not None: told"]),
    ([MOVED_LINE, "    " + CHANGED_LINE], {"Moved"}, [MOVED_LINE, "    pass"]),
    ([MOVED_LINE, CHANGED_LINE], {"Moved", "CounterChanged"}, [MOVED_LINE, CHANGED_LINE]),
]


@pytest.mark.parametrize(("lines", "heard", "built"), UNHEARD)
def test_unheard_lines_have_no_event_lines(lines, heard, built):
    assert apply.unheard(lines, frozenset(heard)) == built


def test_an_event_line_says_the_kind_it_tells():
    from snowrules.model.events import Moved
    assert apply.telling(Moved, "st.sink(e)") == MOVED_LINE


def test_move_all_lines_queue_each_component_for_each_event():
    """apply.move_all_lines with two reaction events: (c, event) for each component moved, in
    order, after the move; the function form (react given when it runs) queues the same."""
    st = Stand()
    st.raised = []
    names = {"_ev1": "gained", "_ev2": "left"}
    source = "\n".join(["def run(st):", "    a, b = 0, 2",
                        *("    " + line for line in apply.move_all_lines("a", "b", "m", "t", False, "rule",
                                                                         tuple(names)))])
    scope = {**apply.NAMESPACE, **names, "rule": "r"}
    exec(compile(source, "<test>", "exec"), scope)  # noqa: S102 - the templates under test
    scope["run"](st)
    assert st.zones == [[], [3, 4], [5, 0, 1, 2]]
    check_where(st)
    expected = [(event, [c, 0, 2]) for c in (0, 1, 2) for event in ("gained", "left")]
    assert st.raised == expected and st.sent == [Moved([0, 1, 2], 0, 2, "r")]
    other = Stand()
    other.raised = []
    apply.move_all(other, 0, 2, False, "r", ("gained", "left"))
    assert other.raised == expected and other.zones == st.zones


def _move_top_by_lines(count: int, bottom: bool, react: tuple[str, ...] = ()):
    """apply.move_top_lines as a function (st, a, b) with `count` written in (a literal, as the
    compiler writes a constant count: 1 has lines of its own)."""
    names = {f"_ev{i}": event for i, event in enumerate(react)}
    lines = apply.move_top_lines("a", "b", str(count), "k", "s", "m", bottom, "rule", tuple(names), "fallback")
    source = "\n".join(["def run(st, a, b):", *("    " + line for line in lines)])
    scope = {**apply.NAMESPACE, **names, "rule": "r", "fallback": apply.move_top}
    exec(compile(source, "<test>", "exec"), scope)  # noqa: S102 - the templates under test
    return scope["run"]


# (what, zone from, zone to, count, bottom, zones after, the event): the move_top rows above,
# and the count 1, which has lines of its own
MOVES_TOP = [
    ("2 of zone 0 to zone 2 top: 2 then 1", 0, 2, 2, False, [[0], [3, 4], [5, 2, 1]], Moved([2, 1], 0, 2, "r")),
    ("2 of zone 0 to zone 2 bottom", 0, 2, 2, True, [[0], [3, 4], [1, 2, 5]], Moved([2, 1], 0, 2, "r")),
    ("5 of zone 1 moves the 2 it holds", 1, 0, 5, False, [[0, 1, 2, 4, 3], [], [5]], Moved([4, 3], 1, 0, "r")),
    ("0 sends nothing", 1, 0, 0, False, [[0, 1, 2], [3, 4], [5]], None),
    ("-1 sends nothing", 1, 0, -1, False, [[0, 1, 2], [3, 4], [5]], None),
    ("2 of zone 0 to its own top", 0, 0, 2, False, [[0, 1, 2], [3, 4], [5]], Moved([2, 2], 0, 0, "r")),
    ("2 of zone 0 to its own bottom", 0, 0, 2, True, [[1, 2, 0], [3, 4], [5]], Moved([2, 1], 0, 0, "r")),
    ("1 of zone 1 to zone 2 top", 1, 2, 1, False, [[0, 1, 2], [3], [5, 4]], Moved([4], 1, 2, "r")),
    ("1 of zone 1 to zone 2 bottom", 1, 2, 1, True, [[0, 1, 2], [3], [4, 5]], Moved([4], 1, 2, "r")),
    ("1 of zone 2 to its own bottom", 2, 2, 1, True, [[0, 1, 2], [3, 4], [5]], Moved([5], 2, 2, "r")),
    ("1 of an empty zone sends nothing", 2, 0, 1, False, [[0, 1], [3, 4], []], None),
]


@pytest.mark.parametrize(("what", "a", "b", "count", "bottom", "zones", "event"), MOVES_TOP,
                         ids=[m[0] for m in MOVES_TOP])
def test_move_top_lines_move_as_move_top_does(what, a, b, count, bottom, zones, event):
    st = Stand()
    if what.endswith("empty zone sends nothing"):  # zone 2 emptied first, without an event
        st.zones, st.where = [[0, 1], [3, 4], []], [0, 0, 2, 1, 1, 2]
    _move_top_by_lines(count, bottom)(st, a, b)
    assert st.zones == zones
    check_where(st)
    assert st.sent == ([event] if event else [])


@pytest.mark.parametrize("count", [1, 2])
def test_move_top_lines_queue_each_component_for_each_event(count):
    st = Stand()
    st.raised = []
    _move_top_by_lines(count, False, ("gained", "left"))(st, 0, 2)
    moved = [2, 1][:count]
    assert st.raised == [(event, [c, 0, 2]) for c in moved for event in ("gained", "left")]
    other = Stand()
    other.raised = []
    apply.move_top(other, 0, 2, count, False, "r", ("gained", "left"))
    assert other.raised == st.raised and other.zones == st.zones
