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
from typing import Any

from snowrules.compile.closures import Fn, fail
from snowrules.compile.fuse import fused
from snowrules.compile.library import Call, Overload, function, register
from snowrules.compile.scope import family_name, suggest
from snowrules.language import syntax as s
from snowrules.model import kinds as t
from snowrules.model.grid import ADJACENCY, Grid
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
from snowrules.model.state import State

CELLS = t.list_of(t.RECORD)
SQUARE, HEX = Board(1, 1), Board(1, 1, hexagonal=True)  # the words each kind of board knows


def _board(call: Call) -> Fn:
    """The first argument as the expression of the state's grid and its board, a pair; a zone
    named in the rules that is not a bounded grid zone is reported at it."""
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

    def board_in(st: State, z: int) -> tuple[Grid, Board]:
        board = boards.get(z)
        if board is None:
            fail(position, f"{call.node.name}(): {zones[z].label(seats)} is not a bounded grid zone (`grid W by H`)")
        return st.grids[z], board
    return fused("{v0}(st, {p0})", [zone], [board_in])


def _on_board(call: Call, function: Callable, arguments: list[tuple[Fn, Callable | None]]) -> Fn:
    """The call `function((grid, board), *values)` as one generated expression: the board first,
    then each argument's value in turn, each checked against the board by its checker (None: not
    checked) as soon as it is worked out, as the rules' order of reading them is."""
    values: list = [function, None]  # {v1}: the (grid, board) pair, named once it is worked out
    texts = []
    for i, (_, checker) in enumerate(arguments, start=1):
        if checker is None:
            texts.append(f"{{p{i}}}")
        else:
            values.append(checker)
            texts.append(f"{{v{len(values) - 1}}}({{v1}}, {{p{i}}})")
    template = "{v0}(({v1} := {p0})" + "".join(", " + text for text in texts) + ")"
    return fused(template, [_board(call), *(fn for fn, _ in arguments)], values)


def _cell(call: Call, index: int) -> tuple[Fn, Callable]:
    """Argument `index` and its checker: a cell of the board, as an (x, y) pair (it finds the same
    stack as the grid's Cell); a record that is not a cell, or a cell off the board, fails at the call."""
    position, name = call.position, call.node.name

    def cell(grid_board: tuple[Grid, Board], value: Any) -> tuple[int, int]:
        board = grid_board[1]
        pair = cell_pair(value)
        if pair is None:
            fail(position, f"{name}() needs a cell, a record {{x: 0, y: 0}}, not {value!r}")
        if not board.holds(*pair):
            fail(position, f"{name}(): the cell ({pair[0]},{pair[1]}) is off the board, {board.extent()}")
        return pair
    return call.args[index], cell


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


def _word(call: Call, index: int, table: str, what: str) -> tuple[Fn, Callable]:
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

    def word(grid_board: tuple[Grid, Board], value: Any) -> str:
        board = grid_board[1]
        if value not in getattr(board, table):
            fail(position, f"{name}(): {value!r} is not {what} of {_kind(board)} ({_listed(getattr(board, table))})")
        return value
    return fn, word


def _listed(words) -> str:
    return ", ".join(f'"{w}"' for w in words)


@function("piece_at", "the piece on top at a cell of a bounded grid zone, or none when the cell is free",
          "piece_at(board, {x: 3, y: 0}) == none", (t.ZONE, t.RECORD), t.COMPONENT)
def _piece_at(call: Call):
    return _on_board(call, lambda grid_board, cell: piece_at(grid_board[0], cell), [_cell(call, 1)])


@function("cells", "every cell of a bounded grid zone, row by row (y) from the south, each west to east (x), "
          "free or not",
          "[each c in cells(board) where piece_at(board, c) == none]", (t.ZONE,), CELLS)
def _cells(call: Call):
    def cells(grid_board: tuple[Grid, Board]) -> list[dict]:
        board = grid_board[1]
        return [board.record[c] for c in board.cells]
    return _on_board(call, cells, [])


@function("directions", 'the directions of an adjacency, clockwise from north: "orthogonal" (n, e, s, w), '
          '"diagonal" (ne, se, sw, nw) or "all" eight; "hex", a hex board\'s six clockwise from north-east '
          '(ne, e, se, sw, w, nw)', 'size(directions("orthogonal")) == 4', (t.STR,), t.list_of(t.STR))
def _directions(call: Call):
    fn, node, position = call.args[0], call.node.args[0], call.position
    words = {**ADJACENCY, "hex": HEX_ADJACENCY["hex"]}  # "all": the eight of a square board
    if isinstance(node, s.Literal) and isinstance(node.value, str) and node.value not in words:
        call.error(f"directions(): {node.value!r} is not an adjacency", suggest(node.value, list(words))
                   or f"an adjacency is one of {_listed(words)}", argument=0)

    def directions(value: Any) -> list[str]:
        if value not in words:
            fail(position, f"directions(): {value!r} is not an adjacency ({_listed(words)})")
        return list(words[value])
    return fused("{v0}({p0})", [fn], [directions])


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
    def cells(grid_board: tuple[Grid, Board], cell: tuple[int, int], word: str) -> list[dict]:
        board = grid_board[1]
        record = board.record
        return [record[c] for c in cells_of(board, cell, word)]
    return _on_board(call, cells, [_cell(call, 1), _word(call, 2, table, what)])


@function("run", "how many of a player's pieces lie in a row from the cell next to a cell in a direction (the "
          "run ends at a free cell, another's piece or the edge)",
          'run(board, c, "e", p) + run(board, c, "w", p) + 1 >= 4', (t.ZONE, t.RECORD, t.STR, t.PLAYER), t.INT)
def _run(call: Call):
    owners = call.compiler.layout.fields["owner"]

    def run(grid_board: tuple[Grid, Board], cell: tuple[int, int], direction: str, seat: int) -> int:
        grid, board = grid_board
        return run_length(grid, board.line(cell, direction), owners, seat)
    return _on_board(call, run, [_cell(call, 1), _word(call, 2, "directions", "a direction"), (call.args[3], None)])


def _flanked(call: Call):
    cell, seat = _cell(call, 1), (call.args[2], None)
    owners = call.compiler.layout.fields["owner"]
    if len(call.args) == 4:
        def flanked_one_way(grid_board: tuple[Grid, Board], at: tuple[int, int], direction: str,
                            p: int) -> list[dict]:
            grid, board = grid_board
            record = board.record
            return [record[c] for c in flanked_on(grid, board.line(at, direction), owners, p)]
        return _on_board(call, flanked_one_way, [cell, _word(call, 3, "directions", "a direction"), seat])

    def flanked_every_way(grid_board: tuple[Grid, Board], at: tuple[int, int], p: int) -> list[dict]:
        grid, board = grid_board
        record = board.record
        return [record[c] for c in flanked(grid, board, at, owners, p)]
    return _on_board(call, flanked_every_way, [cell, seat])


register("flanked", "the cells of the runs of other players' pieces that a piece of a player's at a cell would "
         "close in, each run ended by a piece of theirs (every direction clockwise from north, or one)",
         'flanked(board, c, p, "n")', Overload((t.ZONE, t.RECORD, t.PLAYER), CELLS, _flanked),
         Overload((t.ZONE, t.RECORD, t.PLAYER, t.STR), CELLS, _flanked))


@function("flanking", "the free cells of a bounded grid zone (row by row, each west to east) where a piece of a "
          "player's would close in at least one run of other players' pieces along a line", "flanking(board, p)",
          (t.ZONE, t.PLAYER), CELLS)
def _flanking(call: Call):
    owners = call.compiler.layout.fields["owner"]

    def flanking_cells(grid_board: tuple[Grid, Board], p: int) -> list[dict]:
        grid, board = grid_board
        record = board.record
        # made once while the board stays the same (Grid.remembered): a game asks whether a
        # player can move, then which cells they may play, and the next turn asks again
        found = grid.remembered(("flanking", p), lambda: flanking(grid, board, owners, p))
        return [record[c] for c in found]
    return _on_board(call, flanking_cells, [(call.args[1], None)])


@function("first_free", "the free cell of a column of a bounded grid zone with the lowest row (y), where a "
          "dropped piece comes to rest; none when the column is full", "first_free(board, 3)",
          (t.ZONE, t.INT), t.RECORD)
def _first_free(call: Call):
    position = call.position

    def first_free_cell(grid_board: tuple[Grid, Board], x: int) -> dict | None:
        grid, board = grid_board
        if not 0 <= x < board.width:
            fail(position, f"first_free(): column {x} is off the board, whose columns are 0 to {board.width - 1}")
        cell = first_free(grid, board, x)
        return None if cell is None else board.record[cell]
    return _on_board(call, first_free_cell, [(call.args[1], None)])
