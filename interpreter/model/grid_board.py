"""A bounded grid: a board of W columns by H rows, and the reads board games make of it.

A zone declared `grid W by H` is a grid zone (model/grid.py: the same `Grid` of stacks, the same
`Cell`, the same directions) whose cells are (0..W-1, 0..H-1): x grows to the east, y to the
north, so (0, 0) is the south-west corner. A piece cannot be put outside it. What this module
adds is what a fixed board makes cheap: the board's cells, a cell's neighbours and its lines to
the edge are known before the game starts, made once per board (lazily, cell by cell) and then
read in constant time; the piece at a cell is one look-up in the grid's stacks.

A piece's owner is a seat (a component of a per-seat list) or nobody. The reads that follow a
line stop at the first cell that breaks it: `run_length` counts a seat's pieces in a row (four
in a row), `flanked` finds the pieces of other seats that a piece of one seat would close in
(a run of them ended by a piece of its own: what turns over, or is captured, along a line), and
`flanking` the free cells where such a piece would close at least one.

Two other boards are the same object with a different table of steps or a hole in it:

- A hex board (`grid W by H hex`) is in **axial coordinates**, pointy-top hexes (redblobgames'
  "Hexagonal Grids": axial `q` is our x, `r` our y, except that y grows to the north): the six
  neighbours of (x, y) are e (x+1, y), w (x-1, y), ne (x, y+1), nw (x-1, y+1), se (x+1, y-1) and
  sw (x, y-1), and each row lies half a cell east of the row below it. A W by H hex board is then
  a rhombus, and a line in a direction is a straight row of hexes, so that the same
  walks and the same bit shifts serve both boards: a hex board is a square board whose steps are
  six of the eight, without n and s.
- A board of a shape (`grid of NAME`) has the cells of a component's squares: its width and
  height are the smallest that hold them, and the cells of that rectangle not among them are not
  on the board (no piece goes there, no line or neighbour reaches them: a line ends at a hole).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from snowrules.model.grid import ADJACENCY, DIRECTIONS, Cell, Grid

# A hex board's six directions, clockwise from north-east, as axial steps (x east, y north).
HEX_DIRECTIONS = {"ne": (0, 1), "e": (1, 0), "se": (1, -1), "sw": (0, -1), "w": (-1, 0), "nw": (-1, 1)}
# A hex board's adjacency: its six neighbours, by either word ("all" reads as on a square board).
HEX_ADJACENCY = {"hex": tuple(HEX_DIRECTIONS), "all": tuple(HEX_DIRECTIONS)}


class Board:
    """A board's geometry: its size, and its cells, neighbours and lines, each made once.
    Shared by every state of a game (a board never changes size); read it, never change it.

    `hexagonal`: the board's cells are hexes in axial coordinates (see above). `shape`: the cells of
    the board when it is not the whole W by H rectangle, and `source` what they come from (a
    component's name, for messages)."""

    def __init__(self, width: int, height: int, hexagonal: bool = False, shape: Iterable[Cell] | None = None,
                 source: str = ""):
        self.width, self.height, self.hex = width, height, hexagonal
        self.directions = HEX_DIRECTIONS if hexagonal else DIRECTIONS
        self.adjacency = HEX_ADJACENCY if hexagonal else ADJACENCY
        self.shape = None if shape is None else frozenset(Cell(*c) for c in shape)
        self.source = source
        # every cell, row by row from the south (y), each row west to east (x): the order in
        # which board games number their cells (row x width + column), and its record {x, y}
        self.cells = tuple(Cell(x, y) for y in range(height) for x in range(width)
                           if self.shape is None or (x, y) in self.shape)
        self.record = {cell: {"x": cell.x, "y": cell.y} for cell in self.cells}
        self._lines: dict[tuple[Cell, str], tuple[Cell, ...]] = {}
        self._all_lines: dict[Cell, tuple[tuple[Cell, ...], ...]] = {}
        self._neighbours: dict[tuple[Cell, str], tuple[Cell, ...]] = {}
        # The board as a bit mask: cell (x, y) is bit y x W + x (a shape's holes are bits no piece
        # ever sets). A step in a direction is a shift by dy x W + dx, masked so that nothing
        # wraps round an edge.
        self.bit = {cell: 1 << (cell.y * width + cell.x) for cell in self.cells}
        self.at_bit = tuple(Cell(x, y) for y in range(height) for x in range(width))
        self.full = sum(self.bit.values())
        west = sum(1 << (y * width) for y in range(height))
        east = sum(1 << (y * width + width - 1) for y in range(height))
        everything = (1 << (width * height)) - 1
        self.steps = tuple((dy * width + dx, everything & ~(west if dx == 1 else east if dx == -1 else 0))
                           for dx, dy in self.directions.values())

    def __repr__(self) -> str:
        return f"Board({self.width} by {self.height}{' hex' if self.hex else ''}" \
               f"{f' of {self.source}' if self.shape is not None else ''})"

    def holds(self, x: int, y: int) -> bool:
        """Whether (x, y) is a cell of the board (every read of a cell asks: a rectangle's answer
        is two comparisons, a shape's one look-up)."""
        if self.shape is None:
            return 0 <= x < self.width and 0 <= y < self.height
        return (x, y) in self.shape

    def extent(self) -> str:
        """Which cells the board has, as a message about a cell off it says: "whose cells are
        (0,0) to (4,3)", or those of the component its shape is from."""
        if self.shape is None:
            return f"whose cells are (0,0) to ({self.width - 1},{self.height - 1})"
        return f"whose {len(self.cells)} cells are the squares of {self.source}"

    def line(self, cell: Cell, direction: str) -> tuple[Cell, ...]:
        """The cells from the one next to `cell` in `direction` up to the board's edge, nearest
        first (none from a cell on that edge)."""
        key = (cell, direction)
        found = self._lines.get(key)
        if found is None:
            dx, dy = self.directions[direction]
            x, y, cells = cell[0] + dx, cell[1] + dy, []
            while self.holds(x, y):
                cells.append(Cell(x, y))
                x, y = x + dx, y + dy
            found = self._lines[key] = tuple(cells)
        return found

    def lines(self, cell: Cell) -> tuple[tuple[Cell, ...], ...]:
        """The cell's lines in every direction of the board (clockwise from north, or from
        north-east on a hex board) that hold at least two cells: a line of one cell closes nothing."""
        found = self._all_lines.get(cell)
        if found is None:
            found = self._all_lines[cell] = tuple(line for line in (self.line(cell, d) for d in self.directions)
                                                  if len(line) >= 2)
        return found

    def neighbours(self, cell: Cell, adjacency: str) -> tuple[Cell, ...]:
        """The cells of the board next to `cell`: orthogonally (north, east, south, west),
        diagonally (north-east, south-east, south-west, north-west) or "all" eight, clockwise
        from north; on a hex board "hex" (or "all"), the six clockwise from north-east."""
        key = (cell, adjacency)
        found = self._neighbours.get(key)
        if found is None:
            lines = (self.line(cell, d) for d in self.adjacency[adjacency])
            found = self._neighbours[key] = tuple(line[0] for line in lines if line)
        return found


def column_name(x: int, width: int) -> str:
    """A board's column as people name it: a, b, c ... from the west (its number, from 0, on a
    board of more than 26 columns)."""
    return chr(ord("a") + x) if width <= 26 else str(x)


def row_name(y: int, width: int) -> str:
    """A board's row as people name it: 1, 2, 3 ... from the south (with lettered columns; else
    its number, from 0, as the column's)."""
    return str(y + 1) if width <= 26 else str(y)


def piece_at(grid: Grid, cell: tuple[int, int]) -> int | None:
    """The piece on top at a cell, or None when the cell is free."""
    stack = grid.stacks.get(cell)  # a pair finds the same stack as its Cell
    return stack[-1].piece if stack else None


def run_length(grid: Grid, line: Sequence[Cell], owners: Sequence[Any], seat: int) -> int:
    """How many pieces of the seat's lie in a row along the line, from its first cell: the run
    ends at a free cell, another's piece or the edge."""
    stacks, count = grid.stacks, 0
    for cell in line:
        stack = stacks.get(cell)
        if stack is None or owners[stack[-1].piece] != seat:
            break
        count += 1
    return count


def flanked_on(grid: Grid, line: Sequence[Cell], owners: Sequence[Any], seat: int) -> tuple[Cell, ...]:
    """The cells of the run of other seats' pieces along the line, from its first cell, when a
    piece of the seat's ends it; none when the run is empty, or meets a free cell, a piece of
    nobody's or the edge first."""
    stacks, run = grid.stacks, 0
    for cell in line:
        stack = stacks.get(cell)
        if stack is None:
            return ()
        owner = owners[stack[-1].piece]
        if owner == seat:
            return tuple(line[:run])
        if owner is None:
            return ()
        run += 1
    return ()


def flanked(grid: Grid, board: Board, cell: Cell, owners: Sequence[Any], seat: int) -> list[Cell]:
    """The cells of every run of other seats' pieces that a piece of the seat's at `cell` would
    close in, direction by direction clockwise from north, each run nearest first."""
    taken: list[Cell] = []
    for line in board.lines(cell):
        taken.extend(flanked_on(grid, line, owners, seat))
    return taken


def flanking(grid: Grid, board: Board, owners: Sequence[Any], seat: int) -> list[Cell]:
    """The free cells of the board (row by row, each west to east) where a piece of the seat's
    would close in at least one run of other seats' pieces along a line.

    Worked on bit masks of the board, every cell at once, direction by direction: the other
    seats' pieces next to one of the seat's, the run grown a step at a time along the
    direction, and the free cells one step beyond a run are the cells that close it in (looking
    back, they see the run and then the seat's piece). A few dozen operations on whole numbers
    instead of a walk from every free cell along eight lines."""
    bit, own, other, taken = board.bit, 0, 0, 0
    for cell, stack in grid.stacks.items():
        here = bit[cell]
        taken |= here  # a piece of nobody's too: its cell is not free, and it closes no run
        owner = owners[stack[-1].piece]
        if owner == seat:
            own |= here
        elif owner is not None:
            other |= here
    free = board.full & ~taken
    found = 0
    for shift, mask in board.steps:
        if shift > 0:
            run = (own << shift) & mask & other
            while run:
                grown = run | ((run << shift) & mask & other)
                if grown == run:
                    break
                run = grown
            found |= (run << shift) & mask & free
        else:
            back = -shift
            run = (own >> back) & mask & other
            while run:
                grown = run | ((run >> back) & mask & other)
                if grown == run:
                    break
                run = grown
            found |= (run >> back) & mask & free
    cells, index = board.at_bit, []
    while found:
        low = found & -found
        index.append(cells[low.bit_length() - 1])
        found ^= low
    return index


def first_free(grid: Grid, board: Board, x: int) -> Cell | None:
    """The free cell of column x with the lowest y (where a dropped piece comes to rest), or
    None when the column is full."""
    stacks, holds = grid.stacks, board.holds
    for y in range(board.height):
        if (x, y) not in stacks and holds(x, y):
            return Cell(x, y)
    return None
