"""Every change of the game, applied in one place that also sends its event, once.

Generated rule code (changes.py, statements.py, chance.py, the turns and the end) and the
scenario runner use these templates and functions rather than writing zones, counters or
variables themselves, so that a change and its event (model/events.py) can never disagree, and
a new kind of listener (a ruleset's own "each time a player gains a resource ..." reactions) has one
place to hook into. The most frequent changes, a component's move, a whole zone's move and a
counter's change, are templates of generated lines (inlined into the rules' code: no call per
change).

Each piece is small and does no checking the compiler already did: they run in the inner loop.
"""
from __future__ import annotations

from snowrules.compile.square_uses import refuse_as_tile
from snowrules.compile.triggers import fire
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.language.limits import MAX_GRID_REACH
from snowrules.model.events import (
    CounterChanged,
    Event,
    GameOver,
    Moved,
    PhaseStarted,
    TurnStarted,
    VariableSet,
)
from snowrules.model.grid import Cell, GridError, Placement, covering, is_covered, placement_of, take_off, turn_in_place
from snowrules.model.grid import place as put_on_grid
from snowrules.model.grid_spots import describe_placement
from snowrules.model.grid_zones import cell_pair, spot_placement, spot_problem
from snowrules.model.layout import Layout
from snowrules.model.values import Ending

# ---- the templates: the hottest changes, inlined into generated rule code ------------------
# Generated code binds these names (NAMESPACE) and calls nothing for a move or a counter change;
# the functions below that do the same (move_one) are generated from the same templates, so
# each change is written once.
MOVED, CHANGED, SET, FIRE = "_Moved", "_CounterChanged", "_VariableSet", "_fire"
NAMESPACE = {MOVED: Moved, CHANGED: CounterChanged, SET: VariableSet, FIRE: fire}


def move_lines(c: str, b: str, a: str, bottom: bool, rule: str, react: tuple[str, ...] = (),
               grids: str | None = None) -> list[str]:
    """Component `c` to zone `b` (its top, or its bottom), as generated lines: `c` and `b` are
    expressions of snowrules' own (local names), `a` a fresh local, `rule` the name bound to the
    rule's text; `react` the names bound to the ruleset's events raised by a move
    (compile/reactions.py), queued for the reactions that run once the statement is done.
    `grids`: in a game with grid zones, the name bound to its `GridMoves`, which lifts a
    component leaving a grid and refuses one entering it without a spot."""
    put = f"st.zones[{b}].insert(0, {c})" if bottom else f"st.zones[{b}].append({c})"
    guard = [f"if {a} in st.grids or {b} in st.grids: {grids}.leave(st, {c}, {a}, {b}, {rule})"] if grids else []
    return [f"{a} = st.where[{c}]",
            *guard,
            f"st.zones[{a}].remove({c})",
            put,
            f"st.where[{c}] = {b}",
            telling(Moved, f"st.sink({MOVED}([{c}], {a}, {b}, {rule}))"),
            tallying(c, a, b),
            *(f"st.raised.append(({event}, [{c}, {a}, {b}]))" for event in react)]


def move_all_lines(a: str, b: str, moved: str, target: str, bottom: bool, rule: str,
                   react: tuple[str, ...] = (), react_each: str | None = None) -> list[str]:
    """Everything in zone `a` to zone `b`, in order, as generated lines (`a`, `b`: locals holding
    zone numbers; `moved`, `target`: fresh locals): an empty `b` simply takes `a`'s list. `react`:
    the names bound to the ruleset's events a move raises, `react_each` the name of a sequence of
    them known only when the lines run (the function form), queued per component moved."""
    put = f"{target}[:0] = {moved}" if bottom else f"{target}.extend({moved})"
    queue = [f"        st.raised.append(({event}, [_c, {a}, {b}]))" for event in react]
    if react_each:
        queue.append(f"        for _e in {react_each}: st.raised.append((_e, [_c, {a}, {b}]))")
    return [f"{moved} = st.zones[{a}]",
            f"if {moved} and {a} != {b}:",
            f"    st.zones[{a}] = []",
            f"    for _c in {moved}: st.where[_c] = {b}",
            f"    {target} = st.zones[{b}]",
            f"    if not {target}: st.zones[{b}] = {moved}",
            f"    else: {put}",
            "    " + telling(Moved, f"st.sink({MOVED}({moved}[:], {a}, {b}, {rule}))"),
            "    " + tallying(moved, a, b, many=True),
            *([f"    for _c in {moved}:", *queue] if queue else [])]


def counter_lines(i: str, old: str, new: str, triggers: str, rule: str, handing_back: bool,
                  react: tuple[str, ...] = (), react_each: str | None = None) -> list[str]:
    """Counter `i` from `old` to `new` (locals holding numbers, `new` already clamped): when
    they differ, set it, tell it, and run the `when` rules on it (`triggers`: the name bound to
    them); `handing_back`: the generated function returns the triggered bodies that may wait,
    for the statement to run once it is done; `react`: the names bound to the ruleset's events raised by this counter's
    changes, queued (counter, change) for the reactions that run once the statement is done;
    `react_each`: the name of a sequence of such events known only when the lines run (a
    statement changing counters it works out then: a payment)."""
    give = "return " if handing_back else ""
    each = [f"    for _e in {react_each}: st.raised.append((_e, ({i}, {new} - {old})))"] if react_each else []
    return [f"if {new} != {old}:",
            f"    st.counters[{i}] = {new}",
            "    " + telling(CounterChanged, f"st.sink({CHANGED}({i}, {old}, {new}, {rule}))"),
            *(f"    st.raised.append(({event}, ({i}, {new} - {old})))" for event in react),
            *each,
            f"    if {triggers}: {give}{FIRE}(st, {triggers}, {i}, {old}, {new})"]


def move_top_lines(a: str, b: str, count: str, taken: str, source: str, moved: str, bottom: bool, rule: str,
                   react: tuple[str, ...] = (), fallback: str = "") -> list[str]:
    """The top `count` components of zone `a` (fewer when it holds fewer) to zone `b`, as
    generated lines (`a`, `b`: locals holding zone numbers, `count` an expression; `taken`,
    `source`, `moved`: fresh locals): the same end as moving them one by one from the top, as
    `move_top` does (the topmost goes first, so on `b`'s top they lie in the reverse order).
    `fallback`: the name bound to `move_top`, which moves a zone onto itself (each move takes
    the component just put back); `react`: see move_lines."""
    events = f"({', '.join(react)}{',' if react else ''})"  # the tuple `move_top` takes
    if count == "1":  # the commonest count: one component, no list of the moved
        put = f"st.zones[{b}].insert(0, _c)" if bottom else f"st.zones[{b}].append(_c)"
        return [f"{source} = st.zones[{a}]",
                f"if {source} and {a} != {b}:",
                f"    _c = {source}.pop()",
                f"    st.where[_c] = {b}",
                f"    {put}",
                "    " + telling(Moved, f"st.sink({MOVED}([_c], {a}, {b}, {rule}))"),
                "    " + tallying("_c", a, b),
                *(f"    st.raised.append(({event}, [_c, {a}, {b}]))" for event in react),
                f"elif {source}: {fallback}(st, {a}, {b}, 1, {bottom!r}, {rule}, {events})"]
    put = f"st.zones[{b}][:0] = {moved}[::-1]" if bottom else f"st.zones[{b}].extend({moved})"
    return [f"{source} = st.zones[{a}]",
            f"{taken} = min({count}, len({source}))",
            f"if {taken} > 0 and {a} != {b}:",
            f"    {moved} = {source}[:-{taken} - 1:-1]",
            f"    del {source}[-{taken}:]",
            f"    for _c in {moved}: st.where[_c] = {b}",
            f"    {put}",
            "    " + telling(Moved, f"st.sink({MOVED}({moved}, {a}, {b}, {rule}))"),
            "    " + tallying(moved, a, b, many=True),
            *([f"    for _c in {moved}:", *(f"        st.raised.append(({event}, [_c, {a}, {b}]))" for event in react)]
              if react else []),
            f"elif {taken} > 0: {fallback}(st, {a}, {b}, {taken}, {bottom!r}, {rule}, {events})"]


def draw_lines(a: str, pile: str, index: str, b: str, c: str, bottom: bool, rule: str) -> list[str]:
    """The component at position `index` of zone `a` (whose list `pile` reads), drawn at random,
    to zone `b` (its top, or its bottom), as generated lines: `a`, `pile`, `index`, `b` locals or
    expressions of snowrules' own, `c` a fresh local that holds the component, `rule` the name
    bound to the rule's text. The one description of a draw's move, written by a draw statement
    in its loop and where it takes a chance node's outcome (compile/chance.py). Whoever writes
    the lines has checked that neither zone is a grid (`refuse_a_grid_draw`)."""
    put = f"st.zones[{b}].insert(0, {c})" if bottom else f"st.zones[{b}].append({c})"
    return [f"{c} = {pile}.pop({index})",
            put,
            f"st.where[{c}] = {b}",
            telling(Moved, f"st.sink({MOVED}([{c}], {a}, {b}, {rule}, True))"),
            tallying(c, a, b)]


def variable_lines(index: int, value: str, rule: str) -> list[str]:
    """Game variable number `index` (a number snowrules computed) given `value` (an expression
    of generated code), as generated lines."""
    return [f"st.vars[{int(index)}] = {value}",
            telling(VariableSet, f"st.sink({SET}({int(index)}, st.vars[{int(index)}], {rule}))")]


# Every event line of the templates above (and of the phase start in statements.py and
# playthrough.py, a roll in chance.py, `say` in changes.py) is one line made by `telling`: it
# begins with TELLING and ends with the kind of event it tells, so that a game whose listeners
# are known when it is built (compile/playthrough.py) runs its lines without those nobody hears.
TELLING = "if st.sink is not None: "
_TELLS = "  # tells "


def telling(kind: type[Event], call: str) -> str:
    """An event line: `call` (snowrules' own text) sends an event of `kind` to the listener."""
    return f"{TELLING}{call}{_TELLS}{kind.__name__}"


# A move is also counted by the state's move tally, when it has one (model/move_tally.py): a
# line of its own kind, TALLY, kept only in the builds for a state that tallies.
TALLYING = "if st.tally is not None"
TALLY = "MoveTally"
TALLY_EACH = "_tally_each"


def _counted(row: str, component: str) -> str:
    """One move of `component` counted in `row` (the counts of the pair's slot)."""
    return f"{row}[{component}] += 1"


def tallying(components: str, a: str, b: str, many: bool = False) -> str:
    """The tally line of a move from zone `a` to `b` (locals or numbers) of one component, or of
    the list `components` (`many`): the pair's slot looked up once, and each component counted
    in it (`tally_each`) only when the pair is counted (most pairs are not: a deck gathered back
    costs one look-up, not one per card)."""
    counted = f"{TALLYING} and (_ts := st.tally.slots[{a}][{b}]) is not None: "
    if many:
        return f"{counted}{TALLY_EACH}(st.tally.counts[_ts], {components}){_TELLS}{TALLY}"
    return f"{counted}{_counted('st.tally.counts[_ts]', components)}{_TELLS}{TALLY}"


def unheard(lines: list[str], heard: frozenset[str] = frozenset()) -> list[str]:
    """Generated lines without the event lines of kinds not in `heard` (event class names), for
    code that runs only where nobody listens to those: each such line becomes `pass` (which Python
    compiles to nothing), so that a block whose only line it was stays a block. The lines are
    snowrules' templates (never ruleset text)."""
    kept = []
    for line in lines:
        text = line.lstrip()
        if text.startswith((TELLING, TALLYING)) and text[text.rindex(_TELLS) + len(_TELLS):] not in heard:
            line = line[:len(line) - len(text)] + "pass"
        kept.append(line)
    return kept


def _generated(name: str, params: str, lines: list[str]):
    source = f"def {name}({params}):\n" + "\n".join("    " + line for line in lines)
    namespace = dict(NAMESPACE)
    exec(compile(source, f"<snowrules-{name}>", "exec"), namespace)  # noqa: S102 - our templates only
    return namespace[name]


tally_each = _generated("tally_each", "row, components", ["for c in components:", "    " + _counted("row", "c")])
tally_each.__doc__ = "Count a move of each of `components` in `row` (the counts of a counted pair's slot)."
NAMESPACE[TALLY_EACH] = tally_each

tally_moves = _generated("tally_moves", "st, components, a, b", [tallying("components", "a", "b", many=True)])
tally_moves.__doc__ = ("Count a move of `components` from zone `a` to `b` in the state's move tally: `tallying`'s "
                       "line for a list (the moves made by a function rather than generated lines: a grid "
                       "placement, a move of the top components).")

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
move_all = _generated("move_all", "st, a, b, bottom, rule, react=()", [
    "if bottom:", *("    " + line for line in move_all_lines("a", "b", "moved", "target", True, "rule",
                                                          react_each="react")),
    "else:", *("    " + line for line in move_all_lines("a", "b", "moved", "target", False, "rule",
                                                        react_each="react"))])
move_all.__doc__ = ("Everything in zone `a` to zone `b`, in order: an empty `b` simply takes `a`'s list (`react`: "
                    "the events a move raises, see move_lines): `move_all_lines` as a function.")


def refuse_a_grid_draw(st, a: int, b: int, rule: str) -> None:
    """A draw at random from zone `a` to `b` is an error at its rule if either is a grid zone (a
    component goes onto a grid only at a spot, and leaves it only as chosen). Checked before the
    first draw (an explicit draw: before it offers its chance node, so that no node is offered
    that cannot be taken)."""
    if st.grids and (a in st.grids or b in st.grids):
        raise RuntimeRulesError.at(Position.parse(rule), "a grid zone is not drawn from or dealt to at random",
                                   "choose the component, then `move c to ZONE at SPOT`")


REFUSE = "_refuse_a_grid_draw"
NAMESPACE[REFUSE] = refuse_a_grid_draw


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
    if moved and st.tally is not None:
        tally_moves(st, moved, a, b)
    for c in moved if react else ():
        for event in react:
            st.raised.append((event, [c, a, b]))


def place(st, c: int, b: int) -> None:
    """Component `c` to the top of zone `b` without an event: a scenario setting up the
    situation a rulebook example starts from (no rule moved it)."""
    st.zones[st.where[c]].remove(c)
    st.zones[b].append(c)
    st.where[c] = b


# ---- grid zones ----------------------------------------------------------------------------
class GridMoves:
    """The changes of a game with grid zones (model/grid_zones.py), bound into its generated
    code: a component put on a grid at a spot, and any move out of a grid, which lifts it (what
    it covered shows again). Its events are `Moved`, with the spot's cell and rotation."""

    def __init__(self, layout: Layout):
        self.pieces = layout.pieces
        self.names = layout.component_names
        self.zones = layout.zones
        self.seat_names = layout.seat_names
        self.boards = layout.boards
        self.layout = layout
        self.boards_only = layout.boards_only  # boards too large to be placed as tiles (square_uses.py)
        self._east: dict[Cell, Placement] = {}  # a board's cell -> the placement there, turned east

    def _zone(self, index: int) -> str:
        return self.zones[index].label(self.seat_names)

    def _fail(self, rule: str, message: str, hint: str = "", code: str = ""):
        raise RuntimeRulesError.at(Position.parse(rule), message, hint, code)

    def leave(self, st, c: int, a: int, b: int, rule: str) -> None:
        """Before `c` moves from zone `a` to `b` by a plain move: lift it off `a`'s grid, or
        refuse when something covers it, or when `b` is a grid (a grid needs a spot)."""
        if b in st.grids:
            self._fail(rule, f"{self.names[c]} cannot go to {self._zone(b)} without a spot: it is a grid zone",
                       f"write `move ... to {self._zone(b)} at SPOT`, a spot from placements(...)")
        self.lift(st, c, a, rule)

    def lift(self, st, c: int, a: int, rule: str) -> None:
        grid = st.grids[a]
        try:
            take_off(grid, c)
        except GridError:
            above = ", ".join(self.names[p] for p in covering(grid, c))
            self._fail(rule, f"{self.names[c]} cannot leave {self._zone(a)}: {above} lies on it",
                       "lift what covers it first")

    def place(self, st, c: int | None, b: int, spot, rule: str) -> None:
        """`move c to ZONE at SPOT`: `c` leaves its zone (lifted, if it lay on a grid), is put at
        the spot on top of what its cells hold, and joins the top of the zone's list."""
        if c is None:
            self._fail(rule, "nothing to move: the value is none")
        if c in self.boards_only:
            refuse_as_tile(self.layout, c, rule)
        grid = st.grids.get(b)
        if grid is None:
            self._fail(rule, f"`at` a spot needs a grid zone; {self._zone(b)} is not one")
        if b in self.boards:
            pair = cell_pair(spot)
            if pair is not None:  # a cell of a board
                self._place_on_cell(st, c, b, grid, Cell(*pair), rule)
                return
            placement = spot_placement(spot)
            if placement is not None:  # (not a spot: refused below, as on any grid)
                self._on_board(c, b, self.pieces[c].cells(*placement), rule)
        placement = spot_placement(spot)
        if placement is None:
            self._fail(rule, f"not a spot: {spot!r}", "a spot is a record {cell: {x: 0, y: 0}, rotation: 0} "
                       "such as placements(...) gives")
        a = st.where[c]
        was = None
        if a in st.grids:
            was = placement_of(st.grids[a], self.pieces, c)
            self.lift(st, c, a, rule)
        problem = spot_problem(grid, self.pieces, c, spot, self.names)
        if problem is not None:
            if was is not None:  # put it back where it was: the refused move changes nothing
                put_on_grid(st.grids[a], self.pieces, c, was)
            anchor, rotation = placement
            self._fail(rule, f"{self.names[c]} cannot go to {self._zone(b)} at "
                       f"{describe_placement(anchor, rotation)}: {problem}",
                       "the spot is not legal any more: ask for placements(...) again")
        anchor, rotation = placement
        far = [cell for cell in self.pieces[c].cells(anchor, rotation)
               if max(abs(cell.x), abs(cell.y)) > MAX_GRID_REACH]
        if far:  # a grid is drawn and searched cell by cell: its cells stay near the origin
            if was is not None:
                put_on_grid(st.grids[a], self.pieces, c, was)
            self._fail(rule, f"{self.names[c]} cannot go to {self._zone(b)} at "
                       f"{describe_placement(anchor, rotation)}: the cell ({far[0].x},{far[0].y}) is farther "
                       f"than {MAX_GRID_REACH} cells from the grid's origin",
                       "a spot from placements(...) stays near the layout", code="SR708")
        put_on_grid(grid, self.pieces, c, Placement(anchor, rotation))
        self._arrive(st, c, a, b, anchor, rotation, rule)

    def _place_on_cell(self, st, c: int, b: int, grid, cell: Cell, rule: str) -> None:
        """`move c to BOARD at CELL`: a free placement turned east, every cell it covers on the
        board (checked before anything changes); nothing else to check, so the grid's own
        check that the piece is not on it already is left out when its zone says so."""
        piece = self.pieces[c]
        one = len(piece.squares) == 1 and piece.squares[0].offset == (0, 0)  # a disc, a stone: its cell
        cells = (cell,) if one else piece.cells(cell, 0)
        self._on_board(c, b, cells, rule)
        a = st.where[c]
        if a in st.grids:
            self.lift(st, c, a, rule)
        east = self._east.get(cell)
        if east is None:  # made once per cell (a frozen dataclass is slow to make; a board has few cells)
            east = self._east[cell] = Placement(cell, 0)
        put_on_grid(grid, self.pieces, c, east, checked=a != b, cells=cells)
        self._arrive(st, c, a, b, cell, 0, rule)

    def _arrive(self, st, c: int, a: int, b: int, anchor: Cell, rotation: int, rule: str) -> None:
        """The component, now on b's grid, joins the top of b's list, and the move is told."""
        st.zones[a].remove(c)
        st.zones[b].append(c)
        st.where[c] = b
        if st.sink is not None:
            st.sink(Moved([c], a, b, rule, False, (anchor.x, anchor.y, rotation)))
        if st.tally is not None:
            tally_moves(st, (c,), a, b)

    def _on_board(self, c: int, b: int, cells: tuple[Cell, ...], rule: str) -> None:
        """Every cell the piece would cover on a bounded grid zone must be on the board."""
        board = self.boards[b]
        for cell in cells:
            if not board.holds(cell.x, cell.y):
                self._fail(rule, f"{self.names[c]} cannot go to {self._zone(b)} at {cell}: the cell is off "
                           f"the board, {board.extent()}")

    def turn(self, st, c: int | None, degrees: int, rule: str) -> None:
        """`turn c by DEGREES`: an uncovered component of a grid zone turned clockwise so that it
        covers the same cells (a domino by 180; by 90 it would need other cells: refused)."""
        if c is None:
            self._fail(rule, "nothing to turn: the value is none")
        a = st.where[c]
        if a not in st.grids:
            self._fail(rule, f"{self.names[c]} is in {self._zone(a)}, not on a grid zone: it cannot be turned")
        if degrees % 90:
            self._fail(rule, f"a turn is a whole number of quarter turns (90, 180, 270), not {degrees}")
        grid = st.grids[a]
        if is_covered(grid, c):
            above = ", ".join(self.names[p] for p in covering(grid, c))
            self._fail(rule, f"{self.names[c]} cannot turn: {above} lies on it", "lift what covers it first")
        try:
            turned = turn_in_place(grid, self.pieces, c, degrees % 360)
        except GridError:
            self._fail(rule, f"{self.names[c]} turned {degrees % 360} degrees would not cover the same cells",
                       "to put it elsewhere, move it to the zone at a spot from placements(...)")
        if st.sink is not None:
            st.sink(Moved([c], a, a, rule, False, (turned.anchor.x, turned.anchor.y, turned.rotation)))
        if st.tally is not None:
            tally_moves(st, (c,), a, a)

    def move_all(self, st, a: int, b: int, bottom: bool, rule: str, react: tuple = ()) -> None:
        """`move all from A to B` when A or B is a grid: the whole layout goes (nothing is left
        to cover anything), and a grid is never filled without spots."""
        if b in st.grids and st.zones[a] and a != b:
            self._fail(rule, f"{self._zone(b)} is a grid zone: each component needs a spot",
                       "move them one by one with `move c to ZONE at SPOT`")
        if a in st.grids and a != b:
            st.grids[a].stacks.clear()
        move_all(st, a, b, bottom, rule, react)

    def move_top(self, st, a: int, b: int, n: int, bottom: bool, rule: str, react: tuple = ()) -> None:
        """`move N from A to B`: from a grid, the last placed first, each lifted."""
        if b in st.grids and st.zones[a] and n > 0:
            self._fail(rule, f"{self._zone(b)} is a grid zone: each component needs a spot",
                       "move them one by one with `move c to ZONE at SPOT`")
        if a in st.grids:
            for c in st.zones[a][::-1][:max(n, 0)]:
                self.lift(st, c, a, rule)
        move_top(st, a, b, n, bottom, rule, react)


def set_layouts(st, layouts: dict[int, list[tuple[int, Placement]]], pieces) -> None:
    """Grid zones laid out as a scenario lists them, without events (as `place`): each listed
    grid is emptied and its components put down in order; every other grid keeps only the
    layers of the components its zone still holds."""
    for zone, grid in st.grids.items():
        if zone in layouts:
            grid.stacks.clear()
            for c, placement in layouts[zone]:
                put_on_grid(grid, pieces, c, placement)
            continue
        kept = set(st.zones[zone])
        for cell in list(grid.stacks):
            grid.stacks[cell] = [layer for layer in grid.stacks[cell] if layer.piece in kept]
            if not grid.stacks[cell]:
                del grid.stacks[cell]


# ---- counters and variables ----------------------------------------------------------------
def reset_counters(st, start: int, size: int, value: int) -> None:
    """`reset`: a whole counter family back to its lowest value, for every seat (no event: a
    reset starts a count afresh rather than changing it by an amount)."""
    st.counters[start:start + size] = [value] * size


# ---- phases, turns, the end ----------------------------------------------------------------
def reset_lines(start: int, size: int, value: int) -> list[str]:
    """`reset_counters` as a generated line (numbers snowrules computed: the family's first
    counter, its size, its lowest value)."""
    return [f"st.counters[{int(start)}:{int(start) + int(size)}] = [{int(value)}] * {int(size)}"]


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
