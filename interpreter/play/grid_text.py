"""A grid zone as a text grid, for a terminal: one small block of characters per cell.

Each visible square is a block three lines high. Its features are letters in the middle of the
block; each side a side field lists (a path leaving the square by that side) is a line from the
middle to that side, `-` to the east and west, `|` to the north and south, so that lines of
neighbouring squares join across their shared side. An occupied square with nothing to draw
shows `.` (or its owner's letter, on a board); an empty cell is blank, and `-` on a bounded
grid zone, which is drawn whole. A square whose only drawing is lines has its middle drawn
too: `-` or `|`, `+` where lines turn or cross. North is up; the x coordinates run along the bottom and the
y coordinates down the left (a board's columns a, b, c ... and rows 1, 2, 3 ..., as its players
name them: x 0 is a, y 0 is 1). A legend names each letter drawn.

A hex board's rows lie each half a hex east of the row below, so its columns run slantwise and a
letter at the foot would stand under one row's hex only: there a free hex shows its own column
instead (`c` in row 4 is c4, as the account names it), and the legend says so.

The block is as wide as the most letters any square shows (made odd, so that a vertical line
has a middle to run through) plus one character each side for the west and east lines:
three characters for one letter a square, five for two or three.

Pure: a Grid, its pieces and a display declaration in, a string out.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import partial

from snowrules.load.display import GridDisplay
from snowrules.model.grid import Cell, Grid, Pieces, Seen, visible
from snowrules.model.grid_board import Board, column_name, row_name

EMPTY = "(no squares)"


def grid_text(grid: Grid, pieces: Pieces, display: GridDisplay | None = None, legend: bool = True,
              board: Board | None = None, marks: Mapping[int, tuple[str, str]] | None = None,
              marked: Collection[Cell] = ()) -> str:
    """The grid as lines of text (no trailing spaces, no final newline). A bounded grid zone
    (`board`) is drawn whole, a free cell as `-` (a cell of its rectangle that is not one of a
    shaped board's, blank); a hex board's blocks are one character apart and each row lies half
    a block east of the row below, as its hexes do. `marks` gives a piece with nothing else to
    draw a letter, with what it stands for in the legend (its owner's seat: `B` for black).
    `marked`: cells whose blocks get a `*` in each corner (a piece placed there in a preview),
    drawn even where nothing lies."""
    display = display or GridDisplay()
    squares = visible(grid, pieces)
    if not squares and board is None and not marked:
        return EMPTY
    marks = marks or {}
    drawn = {s.cell: _drawing(s, pieces, display, marks) for s in squares}
    hexes = board is not None and board.hex
    if board is not None:
        xs, ys = range(board.width), range(board.height - 1, -1, -1)
    else:
        spread = [*drawn, *marked]
        xs = range(min(c.x for c in spread), max(c.x for c in spread) + 1)
        ys = range(max(c.y for c in spread), min(c.y for c in spread) - 1, -1)   # north first
    if board is not None:  # a board's columns a, b, c ... and rows 1, 2, 3 ..., as its players name them
        column_label, row_label = partial(column_name, width=board.width), partial(row_name, width=board.width)
    else:
        column_label = row_label = str
    inner = max(1, max((len(letters) for letters, _sides in drawn.values()), default=1),
                max((len(column_label(x)) for x in xs), default=1) if hexes else 1)
    inner += 1 - inner % 2                      # odd: a vertical line has a middle column
    width = inner + 2
    label_width = max(len(row_label(y)) for y in ys)
    gap = " " if hexes else ""  # a hex's block and the space after it: even
    blank = _block("-", set(), inner) if board is not None else [" " * width] * 3
    hole = [" " * width] * 3
    lines = []
    for y in ys:
        blocks = [_block(*drawn[c], inner) if (c := Cell(x, y)) in drawn
                  else _free_hex(column_label(x), inner) if hexes and board.holds(x, y)
                  else blank if board is None or board.holds(x, y) else hole for x in xs]
        blocks = [_starred(block) if Cell(x, y) in marked else block for x, block in zip(xs, blocks)]
        shift = " " * (y * (width + 1) // 2) if gap else ""
        for row in range(3):
            label = row_label(y) if row == 1 else ""
            lines.append(f"{label:>{label_width}} " + shift + "".join(block[row] + gap for block in blocks))
    if not hexes:  # a hex board's columns run slantwise: each free hex shows its own instead
        lines.append(" " * (label_width + 1) + "".join(column_label(x).center(width) + gap for x in xs))
    if legend:
        lines += _legend(squares, pieces, display, marks)
    free = [c for c in board.cells[len(board.cells) // 2:] + board.cells[:len(board.cells) // 2]
            if c not in drawn] if legend and hexes else []
    if free:  # how to read a hex's name, with a free one of the board's own (from its middle)
        x, y = free[0]
        lines.append(f"a free hex shows its column, its row is on the left: {column_label(x)}{row_label(y)} is "
                     f"the {column_label(x)} of row {row_label(y)}")
    lines = [line.rstrip() for line in lines]
    while not lines[0]:                         # the top row's north line, when nothing leaves north
        lines.pop(0)
    return "\n".join(lines)


def _starred(block: list[str]) -> list[str]:
    """A block with a `*` in each corner (its north and south lines' ends, never a line's)."""
    north, middle, south = block
    return ["*" + north[1:-1] + "*", middle, "*" + south[1:-1] + "*"]


def _free_hex(column: str, inner: int) -> list[str]:
    """A free hex of a board: its column's name, so that a row read along its own slant names
    each hex as its players do (a hex board's columns run slantwise, under no label at the foot)."""
    return _block(column, set(), inner)


def _drawing(square: Seen, pieces: Pieces, display: GridDisplay,
             marks: Mapping[int, tuple[str, str]]) -> tuple[str, set[str]]:
    """A square's letters (else its piece's mark) and the sides its drawn side fields leave by."""
    side_fields = pieces[square.piece].side_fields
    letters = "".join(display.letter(v) for v in display.shown_values(square.fields, side_fields))
    sides = {side for listed in display.drawn_sides(square.fields, side_fields).values() for side in listed}
    if not letters and not sides and square.piece in marks:
        letters = marks[square.piece][0]
    return letters, sides


def _block(letters: str, sides: set[str], inner: int) -> list[str]:
    """The three lines of one square: north line, middle (west line, letters, east line), south line."""
    middle = inner // 2 + 1                     # the column of the vertical lines
    if not letters:
        across, up = bool(sides & {"e", "w"}), bool(sides & {"n", "s"})
        letters = "+" if across and up else "-" if across else "|" if up else "."
    left = (inner - len(letters)) // 2
    right = inner - len(letters) - left
    west = "-" if "w" in sides else " "
    east = "-" if "e" in sides else " "
    centre = west + west * left + letters + east * right + east
    north = " " * middle + ("|" if "n" in sides else " ") + " " * (inner - middle + 1)
    south = " " * middle + ("|" if "s" in sides else " ") + " " * (inner - middle + 1)
    return [north, centre, south]


def _legend(squares: list[Seen], pieces: Pieces, display: GridDisplay,
            marks: Mapping[int, tuple[str, str]]) -> list[str]:
    """`T tower, W wall` for the letters drawn, and the side fields drawn as lines."""
    named: dict[str, list[str]] = {}
    lines: set[str] = set()
    for square in squares:
        side_fields = pieces[square.piece].side_fields
        shown = display.shown_values(square.fields, side_fields)
        for value in shown:
            values = named.setdefault(display.letter(value), [])
            if value not in values:
                values.append(value)
        drawn_sides = display.drawn_sides(square.fields, side_fields)
        lines |= set(drawn_sides)
        if not shown and not any(drawn_sides.values()) and square.piece in marks:
            letter, meaning = marks[square.piece]
            if meaning not in named.setdefault(letter, []):
                named[letter].append(meaning)
    parts = [f"{letter} {'/'.join(sorted(values))}" for letter, values in sorted(named.items())]
    if lines:
        parts.append(f"- | {', '.join(sorted(lines))}")
    return [", ".join(parts)] if parts else []


def grids_text(grids: Mapping[str, tuple[Grid, Pieces]], displays: Mapping[str, GridDisplay]) -> str:
    """Every grid zone, each under its name: what `snowrules run` prints."""
    return "\n".join(f"{zone}:\n{grid_text(grid, pieces, displays.get(zone))}"
                     for zone, (grid, pieces) in grids.items())
