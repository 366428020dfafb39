"""A grid of placed pieces and its geometry, as plain data and pure functions.

A grid is an open plane of cells `(x, y)`, unbounded in every direction: x grows to the east, y
to the north. Each occupied cell holds a stack of layers, the top one visible. A piece is a
component made of squares (offsets from its anchor, each square with its own fields); placed at
an anchor cell with a rotation, it covers one cell per square and may cover what lies beneath.

Rotations are clockwise quarter turns, in degrees (0, 90, 180, 270). A turn moves each square's
offset and its side data: a field named as a side field lists sides (`n`, `e`, `s`, `w`) such as
the sides a path leaves a square by, and a quarter turn makes `e` into `s`. Which fields of a
game are side fields is `side_fields_of`'s rule: those that list sides and nothing else.

The geometry reads the grid and never changes it. The few changes (place, lift, turn in place)
mutate the grid given to them, because the game state is changed in place at one change point
and cloned when a copy is needed; each returns what it did so that the change can be reported.
Every value here turns into JSON-able lists and dicts and back, so the grid can live in a state.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from snowrules.model.grid_spots import Spot

SIDES = ("n", "e", "s", "w")
STEP = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}
# The eight directions, clockwise from north, as steps: a bounded grid's neighbours and lines
# (model/grid_board.py) go this way; the sides above are its orthogonal four.
DIRECTIONS = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1), "w": (-1, 0),
              "nw": (-1, 1)}
ADJACENCY = {"orthogonal": SIDES, "diagonal": ("ne", "se", "sw", "nw"), "all": tuple(DIRECTIONS)}
ROTATIONS = (0, 90, 180, 270)
# A rotation is told by where the piece's own east (its +x axis) points once turned.
FACING = {0: "east", 90: "south", 180: "west", 270: "north"}


class GridError(ValueError):
    """A change the grid cannot make (a piece lifted from under another, a turn that does not fit)."""


class Cell(NamedTuple):
    """A cell `(x, y)`. A named tuple rather than a dataclass: cells are dictionary keys and sorted
    at every read of a grid, and a tuple's hash and order are C code (a dataclass's generated
    `__hash__` and `__lt__` were a tenth of a greedy game's time on a tile grid)."""

    x: int
    y: int

    def step(self, side: str) -> Cell:
        dx, dy = STEP[side]
        return Cell(self.x + dx, self.y + dy)

    def neighbours(self) -> tuple[Cell, Cell, Cell, Cell]:
        """The four orthogonal neighbours, north, east, south, west (never a diagonal)."""
        x, y = self.x, self.y
        return Cell(x, y + 1), Cell(x + 1, y), Cell(x, y - 1), Cell(x - 1, y)

    def __add__(self, other: Cell) -> Cell:
        return Cell(self.x + other.x, self.y + other.y)

    def __sub__(self, other: Cell) -> Cell:
        return Cell(self.x - other.x, self.y - other.y)

    def to_json(self) -> list[int]:
        return [self.x, self.y]

    @classmethod
    def from_json(cls, data: list[int]) -> Cell:
        return cls(int(data[0]), int(data[1]))

    def __str__(self) -> str:
        return f"({self.x},{self.y})"


def turn_offset(offset: Cell, rotation: int) -> Cell:
    """An offset turned clockwise by `rotation` degrees: east becomes south, south west..."""
    x, y = offset.x, offset.y
    for _ in range((rotation // 90) % 4):
        x, y = y, -x
    return Cell(x, y)


def turn_side(side: str, rotation: int) -> str:
    return SIDES[(SIDES.index(side) + rotation // 90) % 4]


@dataclass(frozen=True, slots=True)
class Square:
    """One square of a piece: its offset from the anchor and its fields (features, side lists...)."""

    offset: Cell
    fields: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Piece:
    """What the grid needs to know of a component: its squares, and which fields list sides."""

    squares: tuple[Square, ...]
    side_fields: frozenset[str] = frozenset()
    # (square index, rotation) -> the square's fields as turned: a piece never changes, and every
    # read of a grid turns the fields of every visible square
    _turned: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    _turnings: list[Turning] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def from_data(cls, squares: Iterable[Mapping[str, Any]], side_fields: Collection[str] = ()) -> Piece:
        """From a component's `squares:` entries: `dx`, `dy` (0 when absent) and any other fields."""
        built = []
        for entry in squares:
            fields = {k: v for k, v in entry.items() if k not in ("dx", "dy")}
            for name in side_fields:
                wrong = [v for v in fields.get(name, ()) if v not in SIDES]
                if wrong:
                    raise GridError(f"{name} lists {wrong[0]!r}, not a side (n, e, s, w)")
            built.append(Square(Cell(int(entry.get("dx", 0)), int(entry.get("dy", 0))), fields))
        return cls(tuple(built), frozenset(side_fields))

    def cells(self, anchor: Cell, rotation: int) -> tuple[Cell, ...]:
        """The cells the squares cover, in square order."""
        offsets = self._turned.get(rotation)  # (int keys: the offsets turned; pairs: fields)
        if offsets is None:
            offsets = self._turned[rotation] = tuple(turn_offset(q.offset, rotation) for q in self.squares)
        x, y = anchor
        return tuple([Cell(x + dx, y + dy) for dx, dy in offsets])

    def turnings(self) -> list[Turning]:
        """The rotations that put no two squares in one cell, each once, with the squares'
        offsets as (x, y) pairs and their turned fields as text (what a footprint looks like),
        and whether two rotations give the same footprint (a domino of two alike squares turned
        180°): made once, since looking for spots turns the piece at every decision."""
        if not self._turnings:
            shapes: dict[frozenset, int] = {}
            found = []
            for rotation in ROTATIONS:
                offsets = tuple((o.x, o.y) for o in (turn_offset(q.offset, rotation) for q in self.squares))
                if len(set(offsets)) != len(offsets):
                    continue  # two squares in one cell: never a placement
                looks = tuple(repr(sorted(self.turned(i, rotation).items())) for i in range(len(offsets)))
                low_x, low_y = min(x for x, _ in offsets), min(y for _, y in offsets)
                form = frozenset(((x - low_x, y - low_y), look) for (x, y), look in zip(offsets, looks))
                shapes[form] = shapes.get(form, 0) + 1
                found.append(Turning(rotation, offsets, looks, False))
            alike = any(count > 1 for count in shapes.values())
            self._turnings.extend(Turning(t.rotation, t.offsets, t.looks, alike) for t in found)
        return self._turnings

    def turned_fields(self, index: int, rotation: int) -> dict[str, Any]:
        """A square's fields as seen once the piece is turned: each side field's sides turned too."""
        return dict(self.turned(index, rotation))

    def turned(self, index: int, rotation: int) -> Mapping[str, Any]:
        """`turned_fields` made once per square and rotation and shared: read it, never change it."""
        fields = self._turned.get((index, rotation))
        if fields is None:
            fields = dict(self.squares[index].fields)
            for name in self.side_fields:
                if name in fields:
                    fields[name] = sorted((turn_side(v, rotation) for v in fields[name]), key=SIDES.index)
            self._turned[index, rotation] = fields
        return fields


Pieces = Mapping[int, Piece]


class Turning(NamedTuple):
    """A piece turned (Piece.turnings): its rotation, its squares' offsets and fields as text,
    and whether another rotation of the piece looks the same on the grid."""

    rotation: int
    offsets: tuple[tuple[int, int], ...]
    looks: tuple[str, ...]
    alike: bool


@dataclass(frozen=True, slots=True)
class Layer:
    """One placed square in a cell's stack: which piece, which of its squares, the piece's rotation."""

    piece: int
    square: int
    rotation: int

    def to_json(self) -> list[int]:
        return [self.piece, self.square, self.rotation]


@dataclass(frozen=True, order=True, slots=True)
class Placement:
    """Where a piece sits: its anchor cell and rotation."""

    anchor: Cell
    rotation: int


@dataclass
class Grid:
    """The sparse map: cell -> stack of layers, bottom first. Empty stacks are never kept. A
    stack is never changed in place, only replaced: copies of a grid share their stacks."""

    stacks: dict[Cell, list[Layer]] = field(default_factory=dict)
    # what readers derived from the visible squares (see `remembered`): never part of the value
    _memo: dict[Any, tuple[Any, Any]] = field(default_factory=dict, compare=False, repr=False)
    # where `place` put each piece, a hint for `take_off` checked against the stacks before it
    # is believed (a change by any other means leaves it stale, and then it is not used)
    _put: dict[int, tuple[Cell, ...]] = field(default_factory=dict, compare=False, repr=False)

    def remembered(self, key: Any, make: Callable[[], Any]) -> Any:
        """What `make()` derives from the visible squares, made once while they stay the same: a
        game reads its grid many times between two changes (each scoring card asks for the
        squares). An entry is kept with the cells and the stacks it was made from, compared
        when read, so a change by any means (the changes below, or a caller's own edit of
        `stacks`) is seen without being told: no invalidation to forget. A stack is replaced,
        never changed in place, and a copy shares them, so the comparison is mostly of
        identical objects (the stacks, not their tops: no call per cell, a third of the time
        of a board game's question asked again, whose cells change at every move)."""
        stacks = self.stacks
        seen = (tuple(stacks), tuple(stacks.values()))
        entry = self._memo.get(key)
        if entry is not None and entry[0] == seen:
            return entry[1]
        value = make()
        self._memo[key] = (seen, value)
        return value

    def top(self, cell: Cell) -> Layer | None:
        stack = self.stacks.get(cell)
        return stack[-1] if stack else None

    def occupied(self, cell: Cell) -> bool:
        return cell in self.stacks

    def pieces(self) -> list[int]:
        """Every piece on the grid (covered or not), in increasing order."""
        return sorted({layer.piece for stack in self.stacks.values() for layer in stack})

    def copy(self) -> Grid:
        """An independent copy (its memo too: its entries are checked against the copy's squares).
        The stacks are shared, since a change replaces a cell's stack and never changes one in
        place (a bot copies the state for each option it tries: copying every stack was a tenth
        of the copy)."""
        return Grid(self.stacks.copy(), self._memo.copy(), self._put.copy())

    def to_json(self) -> list[list]:
        """`[[x, y, [[piece, square, rotation], ...]], ...]` sorted by cell: plain lists, stable bytes."""
        return [[c.x, c.y, [layer.to_json() for layer in self.stacks[c]]] for c in sorted(self.stacks)]

    @classmethod
    def from_json(cls, data: list[list]) -> Grid:
        return cls({Cell(x, y): [Layer(*layer) for layer in stack] for x, y, stack in data})


@dataclass(frozen=True, slots=True)
class Seen:
    """A visible square: the top of a stack, with its cell and its fields as turned on the grid."""

    cell: Cell
    piece: int
    square: int
    rotation: int
    fields: Mapping[str, Any]

    def has(self, name: str, value: Any) -> bool:
        """Whether the field is the value, or is a list holding it (`features` holding `tree`)."""
        got = self.fields.get(name)
        return value in got if isinstance(got, list | tuple) else got == value

    def to_json(self) -> dict[str, Any]:
        return {"cell": self.cell.to_json(), "piece": self.piece, "square": self.square,
                "rotation": self.rotation, **self.fields}


Keep = Callable[[Seen], bool]


def having(name: str, value: Any) -> Keep:
    """A predicate for the squares whose field has the value (see `Seen.has`)."""
    return lambda square: square.has(name, value)


# ---- reading the layout ------------------------------------------------------------------------
def visible(grid: Grid, pieces: Pieces) -> list[Seen]:
    """Every visible square (the top of each stack), sorted by cell (x, then y)."""
    made = grid.remembered(("visible", id(pieces)), lambda: (pieces, _visible(grid, pieces)))
    return list(made[1] if made[0] is pieces else _visible(grid, pieces))


def _visible(grid: Grid, pieces: Pieces) -> tuple[Seen, ...]:
    stacks = grid.stacks
    return tuple([Seen(cell, top.piece, top.square, top.rotation, pieces[top.piece].turned(top.square, top.rotation))
                  for cell, top in sorted([(cell, stack[-1]) for cell, stack in stacks.items()], key=_first)])


def _first(item: tuple) -> Any:
    return item[0]


def _seen(grid: Grid, pieces: Pieces, cell: Cell) -> Seen:
    layer = grid.stacks[cell][-1]
    return Seen(cell, layer.piece, layer.square, layer.rotation,
                pieces[layer.piece].turned(layer.square, layer.rotation))


def neighbours(grid: Grid, pieces: Pieces, cell: Cell) -> list[Seen]:
    """The visible squares orthogonally next to a cell (0 to 4): a diagonal is never a neighbour."""
    return [_seen(grid, pieces, c) for c in cell.neighbours() if c in grid.stacks]


def surrounded(grid: Grid, cell: Cell) -> bool:
    """Whether all four orthogonal neighbours of the cell are occupied."""
    return all(c in grid.stacks for c in cell.neighbours())


def rows(squares: Iterable[Seen]) -> dict[int, list[Seen]]:
    """The squares by row (their y), rows in increasing y, each row west to east."""
    return _lines(squares, lambda s: (s.cell.y, s.cell.x))


def columns(squares: Iterable[Seen]) -> dict[int, list[Seen]]:
    """The squares by column (their x), columns in increasing x, each column south to north."""
    return _lines(squares, lambda s: (s.cell.x, s.cell.y))


def _lines(squares: Iterable[Seen], key: Callable[[Seen], tuple[int, int]]) -> dict[int, list[Seen]]:
    lines: dict[int, list[Seen]] = {}
    for square in sorted(squares, key=key):
        lines.setdefault(key(square)[0], []).append(square)
    return lines


def connected_groups(squares: Iterable[Seen], keep: Keep | None = None) -> list[list[Seen]]:
    """The kept squares split into orthogonally connected groups. Each group is sorted by cell;
    groups are ordered by their first cell, so the result does not depend on the input's order."""
    return _groups(squares, keep, lambda a, b, side: True)


def connected_by_sides(squares: Iterable[Seen], side_field: str, keep: Keep | None = None) -> list[list[Seen]]:
    """Groups where neighbours link only where their sides meet: a square listing `e` in the side
    field links with its east neighbour only when that one lists `w`. Squares that list no side
    are left out (they have nothing to meet with)."""
    def meet(a: Seen, b: Seen, side: str) -> bool:
        return side in a.fields.get(side_field, ()) and OPPOSITE[side] in b.fields.get(side_field, ())

    def listed(s: Seen) -> bool:
        return bool(s.fields.get(side_field)) and (keep is None or keep(s))
    return _groups(squares, listed, meet)


def _groups(squares: Iterable[Seen], keep: Keep | None, link: Callable[[Seen, Seen, str], bool]) -> list[list[Seen]]:
    by_cell = {s.cell: s for s in squares if keep is None or keep(s)}
    seen: set[tuple[int, int]] = set()
    groups = []
    sides = [(side, *STEP[side]) for side in SIDES]
    for start in sorted(by_cell):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            cell = todo.pop()
            here = by_cell[cell]
            group.append(here)
            x, y = cell
            for side, dx, dy in sides:
                other = (x + dx, y + dy)  # a plain pair finds the same entry as its Cell
                if other in by_cell and other not in seen and link(here, by_cell[other], side):
                    seen.add(other)
                    todo.append(other)
        groups.append(sorted(group, key=_cell_of))
    return groups


def _cell_of(square: Seen) -> Cell:
    return square.cell


def largest_groups(squares: Iterable[Seen], keep: Keep | None = None) -> list[list[Seen]]:
    """Every connected group of kept squares of the largest size (several when tied; none when no
    square is kept): a path measured in squares is such a group."""
    groups = connected_groups(squares, keep)
    best = max((len(g) for g in groups), default=0)
    return [g for g in groups if len(g) == best]


@dataclass(frozen=True, slots=True)
class Rectangle:
    """An axis-aligned rectangle of cells from its south-west corner `low` to its north-east `high`."""

    low: Cell
    high: Cell

    @property
    def width(self) -> int:
        return self.high.x - self.low.x + 1

    @property
    def height(self) -> int:
        return self.high.y - self.low.y + 1

    @property
    def area(self) -> int:
        return self.width * self.height

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low.to_json(), "high": self.high.to_json(), "area": self.area}


def largest_rectangle(squares: Iterable[Seen], keep: Keep | None = None) -> Rectangle | None:
    """The largest axis-aligned rectangle whose every cell is a kept square, or None. Of equal
    areas, the first by south-west corner (y, then x), then the wider. A histogram sweep row by
    row: each row is a histogram of how many kept cells stand above-and-including it."""
    cells = {s.cell for s in squares if keep is None or keep(s)}
    if not cells:
        return None
    rows: dict[int, list[int]] = {}
    for cell in cells:
        rows.setdefault(cell.y, []).append(cell.x)
    best: tuple[int, int, int, int, int] | None = None   # (-area, low y, low x, -width, height)
    height: dict[int, int] = {}                           # the kept cells above-and-including, by x
    previous_row = None
    # Only the rows and columns that hold kept cells are visited, so two squares far apart cost
    # no more than two squares side by side (the bounding box is never walked).
    for y in sorted(rows, reverse=True):                  # rows from north to south
        xs = sorted(rows[y])
        height = {x: (height.get(x, 0) if previous_row == y + 1 else 0) + 1 for x in xs}
        previous_row = y
        for i, left in enumerate(xs):
            tallest = height[left]
            for j in range(i, len(xs)):
                right = xs[j]
                if right != left + (j - i):               # a gap: no rectangle reaches past it
                    break
                tallest = min(tallest, height[right])
                width = right - left + 1
                key = (-width * tallest, y, left, -width, tallest)
                if best is None or key < best:
                    best = key
    assert best is not None
    _, y, x, negative_width, tall = best
    return Rectangle(Cell(x, y), Cell(x - negative_width - 1, y + tall - 1))


def side_fields_of(square_lists: Iterable[Iterable[Mapping[str, Any]]]) -> frozenset[str]:
    """The fields that list sides, over every piece of a game: a field is a side field when it
    lists at least one side somewhere and, in every square that has it, is a list of side names
    only (`n`, `e`, `s`, `w`). A field holding anything else anywhere (`features: [tree]`) is
    an ordinary field and never turns; an empty list alone says nothing either way."""
    listed: set[str] = set()
    other: set[str] = set()
    for squares in square_lists:
        for square in squares:
            for name, value in square.items():
                if name in ("dx", "dy"):
                    continue
                if isinstance(value, list) and all(isinstance(v, str) and v in SIDES for v in value):
                    if value:
                        listed.add(name)
                else:
                    other.add(name)
    return frozenset(listed - other)


# ---- changing the layout (in place) --------------------------------------------------------------
def place(grid: Grid, pieces: Pieces, piece: int, placement: Placement | Spot,
          checked: bool = False, cells: tuple[Cell, ...] | None = None) -> tuple[Cell, ...]:
    """Put a piece on the grid (on top of whatever its cells hold); returns the cells it covers.
    The placement is not checked against any rule: `grid_spots.legal_spots` says which ones are legal.
    `checked`: the caller knows the piece is not on the grid (its zone is another), so the look
    through every stack for it is left out (a board game puts a piece down at every capture);
    `cells`: the piece's cells at the placement, when the caller has worked them out already."""
    if not isinstance(placement, Placement):  # a Spot (model/grid_spots.py)
        placement = placement.placement
    if not checked:
        for stack in grid.stacks.values():
            for layer in stack:
                if layer.piece == piece:
                    raise GridError(f"piece {piece} is already on the grid")
    if cells is None:
        cells = pieces[piece].cells(placement.anchor, placement.rotation)
    stacks, rotation = grid.stacks, placement.rotation % 360
    for index, cell in enumerate(cells):  # a new list: copies of the grid share the old one
        stacks[cell] = [*stacks.get(cell, ()), Layer(piece, index, rotation)]
    grid._put[piece] = cells
    return cells


def placement_of(grid: Grid, pieces: Pieces, piece: int) -> Placement | None:
    """Where a piece sits (covered or not), or None when it is not on the grid."""
    for cell, stack in grid.stacks.items():
        for layer in stack:
            if layer.piece == piece:
                offset = turn_offset(pieces[piece].squares[layer.square].offset, layer.rotation)
                return Placement(cell - offset, layer.rotation)
    return None


def is_covered(grid: Grid, piece: int) -> bool:
    """Whether any square of the piece lies under another piece's square."""
    return any(layer.piece == piece for stack in grid.stacks.values() for layer in stack[:-1])


def uncovered_pieces(grid: Grid) -> list[int]:
    """The pieces on the grid with every square visible, in increasing order."""
    return [p for p in grid.pieces() if not is_covered(grid, p)]


def lift(grid: Grid, pieces: Pieces, piece: int) -> Placement:
    """Take an uncovered piece off the grid; returns where it was (what it covered shows again)."""
    where = placement_of(grid, pieces, piece)
    if where is None:
        raise GridError(f"piece {piece} is not on the grid")
    if is_covered(grid, piece):
        raise GridError(f"piece {piece} is covered: lift what lies on it first")
    for cell in pieces[piece].cells(where.anchor, where.rotation):
        _pop(grid.stacks, cell)
    return where


def covering(grid: Grid, piece: int) -> list[int]:
    """The pieces lying directly or indirectly on any square of `piece`, in increasing order."""
    above: set[int] = set()
    for stack in grid.stacks.values():
        for depth, layer in enumerate(stack):
            if layer.piece == piece:
                above.update(upper.piece for upper in stack[depth + 1:])
    return sorted(above)


def take_off(grid: Grid, piece: int) -> tuple[Cell, ...]:
    """Take an uncovered piece off the grid without knowing its shape (every layer of it is the
    top of its stack); returns the cells it freed, sorted. A piece not on the grid frees none."""
    cells = _cells_holding(grid, piece)
    for cell in cells:
        if grid.stacks[cell][-1].piece != piece:
            raise GridError(f"piece {piece} is covered: lift what lies on it first")
    for cell in cells:
        _pop(grid.stacks, cell)
    return tuple(cells)


def _cells_holding(grid: Grid, piece: int) -> list[Cell]:
    """The cells where a layer of the piece lies, sorted: where `place` last put it, when each of
    those cells still holds it (a piece is put down whole, and only `place` puts one down, so
    they are all its cells), else found by looking through every stack (a board game lifts a
    piece at every capture: the look was a tenth of its time)."""
    stacks = grid.stacks
    put = grid._put.pop(piece, None)
    if put is not None:
        for cell in put:
            if not [layer for layer in stacks.get(cell, ()) if layer.piece == piece]:
                break  # not there any more: the hint is stale
        else:
            return sorted(put)
    return sorted([cell for cell, stack in stacks.items() for layer in stack if layer.piece == piece])


def _pop(stacks: dict[Cell, list[Layer]], cell: Cell) -> None:
    """The top layer of a cell taken off, the cell's stack replaced rather than changed: copies
    of the grid share the stacks (Grid.copy)."""
    stack = stacks[cell]
    if len(stack) > 1:
        stacks[cell] = stack[:-1]
    else:
        del stacks[cell]


def move(grid: Grid, pieces: Pieces, piece: int, placement: Placement | Spot) -> Placement:
    """Lift an uncovered piece and put it down elsewhere; returns where it was."""
    was = lift(grid, pieces, piece)
    place(grid, pieces, piece, placement)
    return was


def turn_in_place(grid: Grid, pieces: Pieces, piece: int, degrees: int) -> Placement:
    """Turn an uncovered piece by `degrees` clockwise so that it covers exactly the same cells
    (a domino turned 180° about its middle); returns the new placement. A turn that cannot keep
    the cells (a domino turned 90°) is refused."""
    was = placement_of(grid, pieces, piece)
    if was is None:
        raise GridError(f"piece {piece} is not on the grid")
    shape, rotation = pieces[piece], (was.rotation + degrees) % 360
    old = set(shape.cells(was.anchor, was.rotation))
    first = turn_offset(shape.squares[0].offset, rotation)
    for cell in sorted(old):
        anchor = cell - first
        if set(shape.cells(anchor, rotation)) == old:
            lift(grid, pieces, piece)
            new = Placement(anchor, rotation)
            place(grid, pieces, piece, new)
            return new
    raise GridError(f"piece {piece} turned {degrees}° does not cover the same cells")
