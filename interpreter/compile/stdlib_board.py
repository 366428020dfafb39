"""The standard functions over bounded grid zones (`zone board shared public grid 8 by 8`).

Each is one registry entry (library.py), as in stdlib.py, which imports this module. The
geometry is model/grid_board.py's (on model/grid.py's grid); a cell is the record `{x, y}` of
model/grid_zones.py. Every read is constant time or walks one line: the board's cells, lines and
neighbours are made once per board (compile/board_shapes.py) and shared by every game.

A hex board has its own directions and adjacency (model/grid_board.py: HEX_DIRECTIONS), so a
direction or adjacency is checked against the board's own table: while compiling when it is
written out and the zone is named (against both tables when the zone is computed), else when
the game runs.

What is checked where: a zone named in the rules that is not a bounded grid zone, and a direction
or adjacency written as a text, are reported at the argument while compiling; a computed zone, a
cell off the board and a computed direction that is not one, when the game runs, at the call.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.compile.closures import fail
from snowrules.compile.library import Call, Overload, function, register
from snowrules.compile.scope import family_name, suggest
from snowrules.language import syntax as s
from snowrules.model import kinds as t
from snowrules.model.grid import ADJACENCY
from snowrules.model.grid_board import (
    HEX_ADJACENCY,
    Board,
    first_free,
    flanked,
    flanked_on,
    flanking,
    piece_at,
    run_length,
)
from snowrules.model.grid_zones import cell_pair

CELLS = t.list_of(t.RECORD)
SQUARE, HEX = Board(1, 1), Board(1, 1, hexagonal=True)  # the words each kind of board knows


def _board(call: Call) -> Callable:
    """The first argument as a function giving the state's grid and its board; a zone named in
    the rules that is not a bounded grid zone is reported at it."""
    zone, node, layout = call.args[0], call.node.args[0], call.compiler.layout
    name = family_name(node)
    family = layout.zone_families.get(name) if name else None
    if family is not None and not family.bounded:
        boards = [f.name for f in layout.zone_families.values() if f.bounded]
        what = "an open grid zone" if family.grid else "not a grid zone"
        call.error(f"{call.node.name}() needs a bounded grid zone; {name!r} is {what}",
                   suggest(name, boards) or f"declare it `zone {name} ... grid 8 by 8` (its columns by its rows)",
                   argument=0)
    position, zones, seats, boards = call.position, layout.zones, layout.seat_names, layout.boards

    def board_of(st, env):
        z = zone(st, env)
        board = boards.get(z)
        if board is None:
            fail(position, f"{call.node.name}(): {zones[z].label(seats)} is not a bounded grid zone (`grid W by H`)")
        return st.grids[z], board
    return board_of


def _cell(call: Call, index: int) -> Callable:
    """The argument as a function giving a cell of the board, as an (x, y) pair (it finds the same
    stack as the grid's Cell); a record that is not a cell, or a cell off the board, fails at the call."""
    fn, position, name = call.args[index], call.position, call.node.name

    def cell(board: Board, st, env) -> tuple[int, int]:
        value = fn(st, env)
        pair = cell_pair(value)
        if pair is None:
            fail(position, f"{name}() needs a cell, a record {{x: 0, y: 0}}, not {value!r}")
        if not board.holds(*pair):
            fail(position, f"{name}(): the cell ({pair[0]},{pair[1]}) is off the board, {board.extent()}")
        return pair
    return cell


def _named_board(call: Call) -> Board | None:
    """The board of the zone the first argument names in the rules (every instance of a family
    has the same board), or None when it is computed or not a bounded grid zone."""
    layout = call.compiler.layout
    family = layout.zone_families.get(family_name(call.node.args[0]) or "")
    if family is None or not family.bounded:
        return None
    return layout.boards.get(family.base)


def _kind(board: Board) -> str:
    return "a hex board" if board.hex else "a square board"


def _word(call: Call, index: int, table: str, what: str) -> Callable:
    """A direction or adjacency argument: one of the board's (`table`: its "directions" or its
    "adjacency"; a hex board's differ from a square one's), checked while compiling when it is
    written out and the board is named, else when the game runs."""
    fn, node, position, name = call.args[index], call.node.args[index], call.position, call.node.name
    board = _named_board(call)
    if isinstance(node, s.Literal) and isinstance(node.value, str):
        words = getattr(board, table) if board is not None else {**getattr(SQUARE, table), **getattr(HEX, table)}
        if node.value not in words:
            on = f" of {_kind(board)}" if board is not None else ""
            call.error(f"{name}(): {node.value!r} is not {what}{on}", suggest(node.value, list(words))
                       or f"{what}{on} is one of {_listed(words)}", argument=index)

    def word(board: Board, st, env) -> str:
        value = fn(st, env)
        if value not in getattr(board, table):
            fail(position, f"{name}(): {value!r} is not {what} of {_kind(board)} ({_listed(getattr(board, table))})")
        return value
    return word


def _listed(words) -> str:
    return ", ".join(f'"{w}"' for w in words)


@function("piece_at", "the piece on top at a cell of a bounded grid zone, or none when the cell is free",
          "piece_at(board, {x: 3, y: 0}) == none", (t.ZONE, t.RECORD), t.COMPONENT)
def _piece_at(call: Call):
    board_of, cell = _board(call), _cell(call, 1)

    def top_piece(st, env):
        grid, board = board_of(st, env)
        return piece_at(grid, cell(board, st, env))
    return top_piece


@function("cells", "every cell of a bounded grid zone, row by row (y) from the south, each west to east (x), "
          "free or not",
          "[each c in cells(board) where piece_at(board, c) == none]", (t.ZONE,), CELLS)
def _cells(call: Call):
    board_of = _board(call)

    def cells(st, env):
        board = board_of(st, env)[1]
        return [board.record[c] for c in board.cells]
    return cells


@function("directions", 'the directions of an adjacency, clockwise from north: "orthogonal" (n, e, s, w), '
          '"diagonal" (ne, se, sw, nw) or "all" eight; "hex", a hex board\'s six clockwise from north-east '
          '(ne, e, se, sw, w, nw)', 'size(directions("orthogonal")) == 4', (t.STR,), t.list_of(t.STR))
def _directions(call: Call):
    fn, node, position = call.args[0], call.node.args[0], call.position
    words = {**ADJACENCY, "hex": HEX_ADJACENCY["hex"]}  # "all": the eight of a square board
    if isinstance(node, s.Literal) and isinstance(node.value, str) and node.value not in words:
        call.error(f"directions(): {node.value!r} is not an adjacency", suggest(node.value, list(words))
                   or f"an adjacency is one of {_listed(words)}", argument=0)

    def directions(st, env):
        value = fn(st, env)
        if value not in words:
            fail(position, f"directions(): {value!r} is not an adjacency ({_listed(words)})")
        return list(words[value])
    return directions


@function("neighbours", 'the cells of a bounded grid zone next to a cell: "orthogonal" (up to 4), "diagonal" '
          '(up to 4) or "all" (up to 8), clockwise from north; on a hex board "hex" (up to 6, clockwise from '
          'north-east)', 'neighbours(board, c, "all")', (t.ZONE, t.RECORD, t.STR), CELLS)
def _neighbours(call: Call):
    return _cells_along(call, "adjacency", "an adjacency", lambda board, cell, kind: board.neighbours(cell, kind))


@function("line", "the cells of a bounded grid zone from the one next to a cell in a direction (n, ne, e, se, "
          "s, sw, w, nw; on a hex board ne, e, se, sw, w, nw) up to the edge, nearest first", 'line(board, c, "ne")',
          (t.ZONE, t.RECORD, t.STR), CELLS)
def _line(call: Call):
    return _cells_along(call, "directions", "a direction", lambda board, cell, direction: board.line(cell, direction))


def _cells_along(call: Call, table: str, what: str, cells_of):
    """A call (board, cell, word) whose answer is the cells `cells_of(board, cell, word)` as
    records: `neighbours` by an adjacency, `line` by a direction."""
    board_of, cell, word = _board(call), _cell(call, 1), _word(call, 2, table, what)

    def cells(st, env):
        board = board_of(st, env)[1]
        record = board.record
        return [record[c] for c in cells_of(board, cell(board, st, env), word(board, st, env))]
    return cells


@function("run", "how many of a player's pieces lie in a row from the cell next to a cell in a direction (the "
          "run ends at a free cell, another's piece or the edge)",
          'run(board, c, "e", p) + run(board, c, "w", p) + 1 >= 4', (t.ZONE, t.RECORD, t.STR, t.PLAYER), t.INT)
def _run(call: Call):
    board_of, cell, direction = _board(call), _cell(call, 1), _word(call, 2, "directions", "a direction")
    seat, owners = call.args[3], call.compiler.layout.fields["owner"]

    def run(st, env):
        grid, board = board_of(st, env)
        return run_length(grid, board.line(cell(board, st, env), direction(board, st, env)), owners, seat(st, env))
    return run


def _flanked(call: Call):
    board_of, cell, seat = _board(call), _cell(call, 1), call.args[2]
    owners = call.compiler.layout.fields["owner"]
    if len(call.args) == 4:
        direction = _word(call, 3, "directions", "a direction")

        def flanked_one_way(st, env):
            grid, board = board_of(st, env)
            line = board.line(cell(board, st, env), direction(board, st, env))
            record = board.record
            return [record[c] for c in flanked_on(grid, line, owners, seat(st, env))]
        return flanked_one_way

    def flanked_every_way(st, env):
        grid, board = board_of(st, env)
        record = board.record
        return [record[c] for c in flanked(grid, board, cell(board, st, env), owners, seat(st, env))]
    return flanked_every_way


register("flanked", "the cells of the runs of other players' pieces that a piece of a player's at a cell would "
         "close in, each run ended by a piece of theirs (every direction clockwise from north, or one)",
         'flanked(board, c, p, "n")', Overload((t.ZONE, t.RECORD, t.PLAYER), CELLS, _flanked),
         Overload((t.ZONE, t.RECORD, t.PLAYER, t.STR), CELLS, _flanked))


@function("flanking", "the free cells of a bounded grid zone (row by row, each west to east) where a piece of a "
          "player's would close in at least one run of other players' pieces along a line", "flanking(board, p)",
          (t.ZONE, t.PLAYER), CELLS)
def _flanking(call: Call):
    board_of, seat, owners = _board(call), call.args[1], call.compiler.layout.fields["owner"]

    def flanking_cells(st, env):
        grid, board = board_of(st, env)
        p, record = seat(st, env), board.record
        # made once while the board stays the same (Grid.remembered): a game asks whether a
        # player can move, then which cells they may play, and the next turn asks again
        found = grid.remembered(("flanking", p), lambda: flanking(grid, board, owners, p))
        return [record[c] for c in found]
    return flanking_cells


@function("first_free", "the free cell of a column of a bounded grid zone with the lowest row (y), where a "
          "dropped piece comes to rest; none when the column is full", "first_free(board, 3)",
          (t.ZONE, t.INT), t.RECORD)
def _first_free(call: Call):
    board_of, column, position = _board(call), call.args[1], call.position

    def first_free_cell(st, env):
        grid, board = board_of(st, env)
        x = column(st, env)
        if not 0 <= x < board.width:
            fail(position, f"first_free(): column {x} is off the board, whose columns are 0 to {board.width - 1}")
        cell = first_free(grid, board, x)
        return None if cell is None else board.record[cell]
    return first_free_cell
