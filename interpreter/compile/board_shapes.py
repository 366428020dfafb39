"""A bounded grid zone's board, from what its declaration says (language/syntax.py's BoardShape).

`grid W by H [hex]`: each side a number written out, or the name of a constant or an option (its
value for this game: `--option size=9` makes a 9 by 9 board), a whole number 1 to
MAX_GRID_REACH; the board at most MAX_BOARD_CELLS cells (SR708, each at the side or the size).
`grid of NAME [hex]`: the cells are the squares of the component NAME, read as every component's
squares are (model/grid_zones.py's pieces_of: whole numbers, distinct, within reach), so that a
board's shape is written in the same YAML, checked by the same schema, as a tile's; a square
west or south of (0, 0) is refused, since a board's cells are counted from its south-west corner,
and so is a shape whose rectangle has more than MAX_BOARD_CELLS cells, holes counted (SR708, at
its `squares:`; language/square_bounds.py): the board's tables are made for the rectangle.

A mistake is reported at the side or the name and the zone gets a board of one cell (of a hex
when `hex` is written), so that the rest of the rules is still checked without a second report
about the same board.
"""
from __future__ import annotations

from typing import Any

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position
from snowrules.language.hints import suggest
from snowrules.language.limits import MAX_BOARD_CELLS, MAX_GRID_REACH
from snowrules.language.square_bounds import board_too_large
from snowrules.model.grid import Cell
from snowrules.model.grid_board import Board
from snowrules.model.grid_zones import SQUARES
from snowrules.model.layout import Layout

SIZE_CODE = "SR720"   # a side named that is no constant or option, or is not a whole number
SHAPE_CODE = "SR721"  # `grid of` a component that is not there, has no squares, or lies off (0, 0)


def too_many_cells(width: int, height: int) -> str:
    return f"a board of {width} by {height} has {width * height:,} cells, more than {MAX_BOARD_CELLS:,}"


def board_of(shape: s.BoardShape, constants: dict[str, tuple[Any, Any]], layout: Layout,
             diag: Diagnostics, squares_at: dict[str, Position] | None = None) -> Board:
    """The board a declaration describes, for this game's constants and options; one cell after
    a mistake (reported). `squares_at`: where each component's `squares:` is written, for a
    shape too large (reported there, as a tile's squares are)."""
    board = _shaped(shape, layout, diag, squares_at or {}) if shape.of is not None else _sized(shape, constants, diag)
    return board if board is not None else _board(1, 1, shape.hexagonal, None, "")


def _sized(shape: s.BoardShape, constants: dict[str, tuple[Any, Any]], diag: Diagnostics) -> Board | None:
    """`grid W by H`: its sides read and checked; None after a mistake (reported)."""
    sides = []
    for node, what in ((shape.width, "width"), (shape.height, "height")):
        side = _side(node, what, constants, diag)
        if side is None:
            return None
        sides.append(side)
    width, height = sides
    if width * height > MAX_BOARD_CELLS:
        diag.error(shape.pos, too_many_cells(width, height),
                   f"a bounded grid zone holds at most {MAX_BOARD_CELLS:,} cells (100 by 100)", code="SR708")
        return None
    return _board(width, height, shape.hexagonal, None, "")


def _side(node: s.Node, what: str, constants: dict[str, tuple[Any, Any]], diag: Diagnostics) -> int | None:
    """A side's whole number: written out, or a constant's or option's value; None (reported) if
    it is none of these or out of range."""
    if isinstance(node, s.Name):
        if node.name not in constants:
            diag.error(node.pos, f"a board's {what} is a number or a constant's or option's name; "
                       f"{node.name!r} is neither", suggest(node.name, list(constants))
                       or f"declare it: `constant {node.name} = 8`", code=SIZE_CODE)
            return None
        value = constants[node.name][0]
        if not isinstance(value, int) or isinstance(value, bool):
            diag.error(node.pos, f"a board's {what} is a whole number; {node.name} is {value!r}",
                       f"{node.name} is declared at {constants[node.name][1]}", code=SIZE_CODE)
            return None
        named = f" ({node.name})"
    else:
        value, named = node.value, ""
    if not 1 <= value <= MAX_GRID_REACH:
        diag.error(node.pos, f"a board's {what} is 1 to {MAX_GRID_REACH} cells, not {value}{named}", code="SR708")
        return None
    return value


def _shaped(shape: s.BoardShape, layout: Layout, diag: Diagnostics, squares_at: dict[str, Position]) -> Board | None:
    """The board of a component's squares (its first copy's), as laid at (0, 0) unturned."""
    name, names = shape.of.name, layout.component_names
    cid = next((c for c, n in enumerate(names) if n == name), None)
    if cid is None:
        diag.error(shape.of.pos, f"`grid of {name}`: no component is named {name!r}",
                   suggest(name, sorted(set(names))) or "name a component whose `squares:` are the board's cells",
                   code=SHAPE_CODE)
        return None
    if layout.fields.get(SQUARES, [None] * len(names))[cid] is None:
        diag.error(shape.of.pos, f"`grid of {name}`: {name} has no `squares:` to be the board's cells",
                   "list the cells in its entry: `squares: [{dx: 0, dy: 0}, {dx: 1, dy: 0}, ...]`", code=SHAPE_CODE)
        return None
    offsets = [square.offset for square in layout.pieces[cid].squares]
    west = [cell for cell in offsets if cell[0] < 0 or cell[1] < 0]
    if west:
        diag.error(shape.of.pos, f"`grid of {name}`: its square ({west[0][0]},{west[0][1]}) lies west or south "
                   "of (0,0)", "a board's cells are counted from its south-west corner, (0,0): dx and dy 0 or more",
                   code=SHAPE_CODE)
        return None
    width = 1 + max(cell[0] for cell in offsets)
    height = 1 + max(cell[1] for cell in offsets)
    if width * height > MAX_BOARD_CELLS:  # the board's tables are made for its rectangle
        diag.error(squares_at.get(name, shape.of.pos), *board_too_large(name, width, height))
        return None
    return _board(width, height, shape.hexagonal, tuple(Cell(*cell) for cell in offsets), name)


_MADE: dict[tuple, Board] = {}


def _board(width: int, height: int, hexagonal: bool, shape: tuple[Cell, ...] | None, source: str) -> Board:
    """The one Board of a geometry, shared by every game and configuration that has it (its
    lines and neighbours are made once, as they are asked)."""
    key = (width, height, hexagonal, None if shape is None else frozenset(shape), source)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= 64:
            _MADE.clear()
        found = _MADE[key] = Board(width, height, hexagonal, shape, source)
    return found
