"""Grid zones in a game: the pieces of a layout, a state's grids, and the records the rules see.

A zone declared `grid` holds its components as any zone does (a list, in placement order) and,
beside it in the state, a `model.grid.Grid`: where each component lies, turned how, and what
covers what. The geometry is model/grid.py's; this module is the bridge between it and a game:

- `pieces_of(layout)`: every component as a `Piece` (its `squares:` entries, or one plain
  square at (0, 0)), with the game's side fields found by `grid.side_fields_of`;
- `grid_of(layout, st, zone)`: the one accessor of a state's grid for readers outside the rules
  (pictures, text grids, tests): the grid, the pieces and the components' names;
- the records the rules language reads (plain dicts, so a state stays JSON): a cell
  `{x, y}`, a visible square `{cell, piece, ...its fields}`, a spot `{cell, rotation, cells,
  covers, covered}`, a rectangle `{low, high, cells, area, width, height}`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from snowrules.language.limits import MAX_GRID_REACH
from snowrules.model.grid import Cell, Grid, GridError, Piece, Pieces, Rectangle, Seen, side_fields_of
from snowrules.model.grid_spots import Spot, describe_spot
from snowrules.model.layout import Layout

SQUARES = "squares"                      # the component field that lists a piece's squares
RESERVED = ("cell", "piece")             # record fields a square's own fields may not be named
SPOT_FIELDS = ("cell", "rotation", "cells", "covers", "covered")
RECORD_FIELDS = ("x", "y", *SPOT_FIELDS, "piece", "low", "high", "area", "width", "height")


def pieces_of(layout: Layout) -> tuple[dict[int, Piece], frozenset[str], list[tuple[int, str]]]:
    """Every component as a piece, the side fields, and the problems found: (component id,
    message) for a `squares:` that is not a list of maps with whole-number `dx`, `dy` at
    different offsets (such a component is taken as one plain square)."""
    definitions, problems = {}, []
    for cid, squares in enumerate(layout.fields.get(SQUARES, [None] * len(layout.component_names))):
        try:
            definitions[cid] = _checked(layout.component_names[cid], squares)
        except GridError as problem:
            problems.append((cid, str(problem)))
            definitions[cid] = [{}]
    sides = side_fields_of(definitions.values())
    pieces = {cid: Piece.from_data(squares, sides) for cid, squares in definitions.items()}
    return pieces, sides, problems


def _checked(name: str, squares: Any) -> list[dict]:
    if squares is None:
        return [{}]
    if not isinstance(squares, list) or not squares or not all(isinstance(q, dict) for q in squares):
        raise GridError(f"{name}: `squares` must be a list of squares such as {{dx: 0, dy: 0, ...}}")
    for square in squares:
        for key in ("dx", "dy"):
            if not isinstance(square.get(key, 0), int) or isinstance(square.get(key, 0), bool):
                raise GridError(f"{name}: a square's {key} must be a whole number, not {square[key]!r}")
            if abs(square.get(key, 0)) > MAX_GRID_REACH:  # a grid is drawn and searched cell by cell
                raise GridError(f"{name}: a square's {key} of {square[key]} is farther than {MAX_GRID_REACH} "
                                f"cells from the piece's anchor")
        for key in RESERVED:
            if key in square:
                raise GridError(f"{name}: a square's field cannot be named {key!r} (the rules read "
                                f"`s.{key}` as the square's own {key})")
    offsets = [(q.get("dx", 0), q.get("dy", 0)) for q in squares]
    if len(set(offsets)) != len(offsets):
        raise GridError(f"{name}: two squares at the same offset")
    return squares


@dataclass(frozen=True)
class ZoneGrid:
    """A grid zone of a state as its readers need it: the grid (read it, never change it: it is
    the state's own), every piece's shape and every component's name."""

    grid: Grid
    pieces: Pieces
    names: list[str]


def grid_of(layout: Layout, st: Any, zone: int | str) -> ZoneGrid:
    """The grid of a zone instance (its index, or the name of a shared zone) in a state."""
    index = layout.zone_families[zone].base if isinstance(zone, str) else zone
    if index not in st.grids:
        raise KeyError(f"zone {layout.zones[index].label(layout.seat_names)} is not a grid zone")
    return ZoneGrid(st.grids[index], layout.pieces, layout.component_names)


# ---- records --------------------------------------------------------------------------------
def cell_record(cell: Cell) -> dict[str, int]:
    return {"x": cell.x, "y": cell.y}


def cell_of(record: Any) -> Cell | None:
    """A `{x, y}` record as a cell; None when it is not one."""
    pair = cell_pair(record)
    return None if pair is None else Cell(*pair)


def cell_pair(record: Any) -> tuple[int, int] | None:
    """A `{x, y}` record as an (x, y) pair, equal to the Cell it names; None when it is not one."""
    if isinstance(record, dict):
        x, y = record.get("x"), record.get("y")
        if type(x) is int and type(y) is int:
            return x, y
    return None


def square_record(seen: Seen) -> dict[str, Any]:
    """A visible square: its cell, its piece (a component) and its own fields, sides turned."""
    return {"cell": cell_record(seen.cell), "piece": seen.piece, **seen.fields}


def seen_of(record: dict[str, Any]) -> Seen:
    """A square record back as the geometry's `Seen` (its fields are the record itself)."""
    cell = record["cell"]
    return Seen(Cell(cell["x"], cell["y"]), record.get("piece", -1), 0, 0, record)


def spot_tuple_record(number: int, x: int, y: int, rotation: int, cells: list[tuple[int, int]],
                      covers: tuple) -> dict[str, Any]:
    """A spot record from `grid_spots.spot_tuples`' plain form (the same as `spot_record` gives)."""
    return {"cell": {"x": x, "y": y}, "rotation": rotation, "cells": [{"x": cx, "y": cy} for cx, cy in cells],
            "covers": len(covers), "covered": list(dict.fromkeys(layer.piece for layer in covers))}


def spot_record(spot: Spot) -> dict[str, Any]:
    return {"cell": cell_record(spot.anchor), "rotation": spot.rotation,
            "cells": [cell_record(c) for c in spot.cells], "covers": len(spot.covers),
            "covered": list(dict.fromkeys(layer.piece for layer in spot.covers))}


def is_spot(value: Any) -> bool:
    """Whether a value is a spot record (at least a cell and a rotation)."""
    return isinstance(value, dict) and cell_of(value.get("cell")) is not None and type(value.get("rotation")) is int


def spot_label(value: Mapping[str, Any], names: list[str]) -> str:
    """A spot record as a person reads it: "(2,-1) turned east, covers 1 square of tile 07"."""
    covered = [names[p] if type(p) is int and 0 <= p < len(names) else str(p) for p in value.get("covered") or []]
    covers = value.get("covers")
    return describe_spot(cell_of(value["cell"]), value["rotation"], covers if type(covers) is int else 0, covered)


def rectangle_record(rectangle: Rectangle | None) -> dict[str, Any] | None:
    if rectangle is None:
        return None
    low, high = rectangle.low, rectangle.high
    cells = [{"x": x, "y": y} for y in range(low.y, high.y + 1) for x in range(low.x, high.x + 1)]
    return {"low": cell_record(low), "high": cell_record(high), "cells": cells, "area": rectangle.area,
            "width": rectangle.width, "height": rectangle.height}


# ---- checking a spot before a piece is put there --------------------------------------------
def spot_placement(value: Any) -> tuple[Cell, int] | None:
    """A spot record's anchor and rotation (0, 90, 180 or 270); None when it is not a spot."""
    if not isinstance(value, dict):
        return None
    cell, rotation = cell_of(value.get("cell")), value.get("rotation")
    if cell is None or type(rotation) is not int or rotation % 90:
        return None
    return cell, rotation % 360


def spot_problem(grid: Grid, pieces: Pieces, piece: int, spot: Mapping[str, Any], names: list[str]) -> str | None:
    """Why a spot (as `placements` gave it, maybe several changes ago) no longer fits the piece
    on the grid as it is now, or None when it fits. A spot is taken at its word: what it says it
    covers (`covers`, `covered`) must be what it covers now, and a spot that covers nothing must
    still touch the layout. A record with only `cell` and `rotation` is a free placement."""
    anchor, rotation = spot_placement(spot)
    cells = pieces[piece].cells(anchor, rotation)
    stacks = grid.stacks
    # the spot's cells as pairs, which compare equal to the piece's cells: a move to a spot makes
    # no Cell for them (every move of a tile game checks its spot)
    if "cells" in spot and sorted(p for p in map(cell_pair, spot["cells"] or []) if p is not None) != sorted(cells):
        return f"{names[piece]} turned so does not cover the spot's cells (a spot of another piece?)"
    covered = [c for c in cells if c in stacks]
    if "covers" in spot and spot["covers"] != len(covered):
        return (f"it now covers {len(covered)} occupied square{'s' if len(covered) != 1 else ''}, "
                f"not {spot['covers']}")
    if "covered" in spot:
        now = sorted({grid.stacks[c][-1].piece for c in covered})
        if now != sorted(set(spot["covered"] or [])):
            said = ", ".join(names[p] for p in sorted(set(spot["covered"] or []))) or "nothing"
            return f"it now covers {', '.join(names[p] for p in now) or 'nothing'}, not {said}"
    if "covers" in spot and not covered and stacks:
        own = set(cells)
        if not any(n in stacks and n not in own for n in
                   [(x + dx, y + dy) for x, y in cells for dx, dy in _STEPS]):
            return "it no longer touches the layout"
    return None


_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
