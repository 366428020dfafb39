"""The standard functions over grid zones: where a piece may go, and what the layout shows.

Each is one registry entry (library.py), as in stdlib.py, which imports this module. The
geometry is model/grid.py's; the records they give and take (a cell `{x, y}`, a square `{cell,
piece, ...fields}`, a spot, a rectangle) are model/grid_zones.py's, plain dicts, so a state
holding them stays JSON. A zone argument must be a grid zone: named, it is checked while
compiling; computed, when the game runs.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from snowrules.compile.closures import Fn, fail
from snowrules.compile.fuse import fused
from snowrules.compile.library import FIELD, SEQUENCE, Call, Overload, function, register
from snowrules.compile.scope import family_name, suggest
from snowrules.compile.square_uses import refuse_as_tile
from snowrules.model import kinds as t
from snowrules.model.grid import (
    Cell,
    Grid,
    Pieces,
    columns,
    connected_by_sides,
    connected_groups,
    is_covered,
    largest_groups,
    largest_rectangle,
    placement_of,
    rows,
    surrounded,
    take_off,
    visible,
)
from snowrules.model.grid_spots import PlacementRules, spot_tuples
from snowrules.model.grid_zones import (
    cell_of,
    cell_record,
    rectangle_record,
    seen_of,
    spot_tuple_record,
    square_record,
)
from snowrules.model.state import State

MADE_RECORDS = 100_000  # spot records kept per placements() call site, at most
MADE_LISTS = 2_000  # layouts whose spot lists are kept per placements() call site, at most
_TOP = itemgetter(-1)  # a stack's top layer
RECORDS = t.list_of(t.RECORD)  # squares, spots, cells: records
GROUPS = t.list_of(RECORDS)


def _grid(call: Call) -> Fn:
    """The first argument as the expression of the state's grid; a zone named in the rules that
    is not a grid zone is reported at it."""
    zone, node, layout = call.args[0], call.node.args[0], call.compiler.layout
    name = family_name(node)
    family = layout.zone_families.get(name) if name else None
    if family is not None and not family.grid:
        grids = [f.name for f in layout.zone_families.values() if f.grid]
        call.error(f"{call.node.name}() needs a grid zone; {name!r} is not one",
                   suggest(name, grids) or f"declare it `zone {name} ... grid`", argument=0)
    position, zones, seats = call.position, layout.zones, layout.seat_names

    def grid_in(st: State, z: int) -> Grid:
        grid = st.grids.get(z)
        if grid is None:
            fail(position, f"{zones[z].label(seats)} is not a grid zone")
        return grid
    return fused("{v0}(st, {p0})", [zone], [grid_in])


def _cell(call: Call, index: int) -> Fn:
    """Argument `index` as the expression of a cell, refused at the call when it is not one."""
    position = call.position

    def cell(record: Any) -> Cell:
        value = cell_of(record)
        if value is None:
            fail(position, f"{call.node.name}() needs a cell, a record {{x: 0, y: 0}}")
        return value
    return fused("{v0}({p0})", [call.args[index]], [cell])


def _seen(call: Call, squares: list) -> list:
    try:
        return [seen_of(square) for square in squares]
    except (KeyError, TypeError):
        fail(call.position, f"{call.node.name}() needs squares: records with a `cell`, such as squares(zone) gives")


# ---- where a piece may go ----------------------------------------------------------------------
@function("placements", "every spot where a component may go on a grid zone: touching the layout "
          "orthogonally, covering at most `overlap` occupied squares (on an empty grid: the origin, each "
          "distinct rotation once); on a bounded grid zone, only those on the board", "placements(board, tile, 0)",
          (t.ZONE, t.COMPONENT, t.INT), RECORDS)
def _placements(call: Call):
    grid_of, piece, overlap = _grid(call), call.args[1], call.args[2]
    layout = call.compiler.layout
    pieces, position, boards_only = layout.pieces, call.position, layout.boards_only
    zone, boards = call.args[0], layout.boards
    # (component, spot id) -> the record of a spot that covers nothing: the same spots come back
    # at every decision and every lookahead of a bot, and a record is never changed in place
    made: dict[tuple[int, int], dict] = {}

    def record(c: int, spot: tuple) -> dict:
        if spot[5]:  # it covers layers: what it covers is part of the record
            return spot_tuple_record(*spot)
        found = made.get((c, spot[0]))
        if found is None:
            if len(made) >= MADE_RECORDS:
                made.clear()
            found = made[c, spot[0]] = spot_tuple_record(*spot)
        return found

    # (component, overlap, occupied cells, their top layers) -> the records: a bot's lookahead asks
    # again for the same piece on the same layout in every sampled world (and a player's grid
    # copies share the layout until one changes). Keyed by what `spot_tuples` reads, not by a
    # version, so that no change of a grid, by whatever means, can leave a stale entry.
    found_for: dict[tuple, list[dict]] = {}

    def placements(st: State, grid: Grid, c: int | None, most: int, z: int | None) -> list[dict]:
        if c is None:
            fail(position, "placements() of none: there is no component to place")
        if c in boards_only:  # a board too large to be a tile
            refuse_as_tile(layout, c, str(position))
        if most < 0:
            fail(position, f"placements() may cover 0 or more squares, not {most}")
        here = st.grids.get(st.where[c])
        if here is not None:  # it lies on a grid: where it could go once lifted
            if is_covered(here, c):
                return []  # something lies on it: it cannot go anywhere
            if here is grid:
                grid = grid.copy()
                take_off(grid, c)
        stacks = grid.stacks
        key = (c, most, tuple(stacks), tuple(map(_TOP, stacks.values())))
        records = found_for.get(key)
        if records is None:
            if len(found_for) >= MADE_LISTS:
                found_for.clear()
            records = found_for[key] = [record(c, spot) for spot in
                                        spot_tuples(grid, pieces, c, PlacementRules(most_covered=most))]
        board = boards.get(z) if boards else None
        if board is not None:  # a bounded grid zone: only the spots on the board
            return [r for r in records if all(board.holds(cell["x"], cell["y"]) for cell in r["cells"])]
        return records[:]  # the caller's own list, the records shared (never changed in place)
    # the zone is read again after the others only when the layout has boards, as it always was
    zone_again = "{p3}" if boards else "None"
    return fused(f"{{v0}}(st, {{p0}}, {{p1}}, {{p2}}, {zone_again})", [grid_of, piece, overlap, zone], [placements])


# ---- reading the layout --------------------------------------------------------------------------
@function("squares", "the visible squares of a grid zone (the top of each cell), by cell (x, then y): each "
          "a record with its `cell`, its `piece` and the square's own fields, side lists turned",
          '[each s in squares(board) where "tower" in s.features]', (t.ZONE,), RECORDS)
def _squares(call: Call):
    grid_of, pieces = _grid(call), call.compiler.layout.pieces
    return fused("{v0}({p0})", [grid_of], [lambda grid: list(_square_records(grid, pieces).values())])


def _square_records(grid: Grid, pieces: Pieces) -> dict[Cell, dict]:
    """The visible squares' records by cell (by x, then y), made once while the grid stays the
    same (Grid.remembered): a scoring reads them again and again. The records are shared between
    readers, as any value is: the language never changes a record in place."""
    made = grid.remembered(("records", id(pieces)),
                           lambda: (pieces, {seen.cell: square_record(seen) for seen in visible(grid, pieces)}))
    return made[1] if made[0] is pieces else {seen.cell: square_record(seen) for seen in visible(grid, pieces)}


@function("grid_neighbours", "the visible squares orthogonally next to a cell (0 to 4; never a diagonal)",
          "size(grid_neighbours(board, s.cell)) == 4", (t.ZONE, t.RECORD), RECORDS)
def _grid_neighbours(call: Call):
    grid_of, cell, pieces = _grid(call), _cell(call, 1), call.compiler.layout.pieces

    def grid_neighbours(grid: Grid, at: Cell) -> list[dict]:
        by_cell = _square_records(grid, pieces)
        return [by_cell[c] for c in at.neighbours() if c in by_cell]
    return fused("{v0}({p0}, {p1})", [grid_of, cell], [grid_neighbours])


@function("surrounded", "whether the four cells orthogonally next to a cell are all occupied",
          "surrounded(board, s.cell)", (t.ZONE, t.RECORD), t.BOOL)
def _surrounded(call: Call):
    grid_of, cell = _grid(call), _cell(call, 1)
    return fused("{v0}({p0}, {p1})", [grid_of, cell], [surrounded])


def _records(groups: list) -> list:
    return [[seen.fields for seen in group] for group in groups]


def _connected_groups(call: Call):
    source = call.args[0]
    if len(call.args) == 1:
        return fused("{v0}({p0})", [source], [lambda squares: _records(connected_groups(_seen(call, squares)))])
    side_field = call.args[1]
    layout = call.compiler.layout
    if side_field is not None and side_field not in layout.side_fields:
        call.error(f"{side_field!r} is not a side field: no square lists sides (n, e, s, w) in it",
                   suggest(side_field, sorted(layout.side_fields))
                   or "a side field lists sides in every square that has it", argument=1)
    return fused("{v0}({p0})", [source],
                 [lambda squares: _records(connected_by_sides(_seen(call, squares), side_field))])


register("connected_groups", "squares split into orthogonally connected groups (sorted by cell); with a side "
         "field, two neighbours link only where both list the side they share",
         'connected_groups(paths, "path")', Overload((SEQUENCE,), GROUPS, _connected_groups),
         Overload((SEQUENCE, FIELD), GROUPS, _connected_groups))


@function("largest_groups", "every connected group of the largest size (several when tied, none without "
          "squares)", "size(first(largest_groups(towers)))", (SEQUENCE,), GROUPS)
def _largest_groups(call: Call):
    source = call.args[0]
    return fused("{v0}({p0})", [source], [lambda squares: _records(largest_groups(_seen(call, squares)))])


@function("largest_rectangle", "the largest axis-aligned rectangle whose every cell is one of the squares: a "
          "record {low, high, cells, area, width, height}, or none", "largest_rectangle(towers).area",
          (SEQUENCE,), t.RECORD)
def _largest_rectangle(call: Call):
    source = call.args[0]
    return fused("{v0}({p0})", [source], [lambda squares: rectangle_record(largest_rectangle(_seen(call, squares)))])


@function("rows", "the squares by row: a list per row (south to north), each west to east",
          "size(rows(trees))", (SEQUENCE,), GROUPS)
def _rows(call: Call):
    source = call.args[0]
    return fused("{v0}({p0})", [source],
                 [lambda squares: [[seen.fields for seen in line] for line in rows(_seen(call, squares)).values()]])


@function("columns", "the squares by column: a list per column (west to east), each south to north",
          "size(columns(trees))", (SEQUENCE,), GROUPS)
def _columns(call: Call):
    source = call.args[0]
    return fused("{v0}({p0})", [source],
                 [lambda squares: [[seen.fields for seen in line] for line in columns(_seen(call, squares)).values()]])


@function("cells_of", "the cells a component covers on a grid zone (covered squares too), in the order of "
          "its squares; none when it is not there", "cells_of(board, tile)", (t.ZONE, t.COMPONENT),
          t.list_of(t.RECORD))
def _cells_of(call: Call):
    grid_of, piece, pieces = _grid(call), call.args[1], call.compiler.layout.pieces

    def cells_of(grid: Grid, c: int | None) -> list[dict]:
        where = placement_of(grid, pieces, c) if c is not None else None
        if where is None:
            return []
        return [cell_record(cell) for cell in pieces[c].cells(where.anchor, where.rotation)]
    return fused("{v0}({p0}, {p1})", [grid_of, piece], [cells_of])


@function("covered", "whether something lies on a component in a grid zone", "not covered(board, tile)",
          (t.ZONE, t.COMPONENT), t.BOOL)
def _covered(call: Call):
    grid_of, piece = _grid(call), call.args[1]
    return fused("{v0}({p0}, {p1})", [grid_of, piece], [is_covered])


@function("uncovered", "the components of a grid zone that nothing lies on, in the order they were placed",
          "uncovered(board)", (t.ZONE,), t.list_of(t.COMPONENT))
def _uncovered(call: Call):
    grid_of, zone = _grid(call), call.args[0]

    def uncovered(grid: Grid, placed: list[int]) -> list[int]:
        return [c for c in placed if not is_covered(grid, c)]
    return fused("{v0}({p0}, st.zones[{p1}])", [grid_of, zone], [uncovered])

