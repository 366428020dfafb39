"""A spot on a grid zone shown before it is chosen: the grid as it would be with the piece there.

A decision among spots (`ask p to choose spot from placements(field, piece, 0): move piece to field
at spot`) lists where a piece may go by anchor and rotation, "(0,1) turned east, covers
nothing", which a person cannot picture. `? N` at the terminal draws the grid zone with the
piece put down at option N on a copy of the grid, its squares starred, under the spot's words
(which name what it would cover). The piece and the zone are the ones the rules hold while the
question is asked, compiled on the decision's step (compile/spot_pieces.py); the state is not
changed. A piece the player does not see (in a zone their view hides) is not drawn: only the
spot's cells are starred, so a preview tells nothing the view does not.
"""
from __future__ import annotations

from typing import Any

from snowrules.compile.spot_pieces import PLACED_PIECE
from snowrules.model.grid import Cell, GridError, Placement, lift, place, placement_of
from snowrules.model.grid_zones import cell_of, spot_placement
from snowrules.model.state import State
from snowrules.play.layouts import layouts_text, visible_grid_zones
from snowrules.play.prompts import decision_step, zone_name
from snowrules.runtime.engine import Game

INDENT = "     "


def spot_preview(game: Game, st: State, seat: int, view: dict, spot: Any) -> list[str]:
    """The lines that show `spot` (an option of the decision `st` waits at, asked of `seat`,
    whose view is `view`): a title, then the grid zone with the piece placed there, its squares
    starred; a line saying why when there is no grid to show it on."""
    placement = spot_placement(spot)
    if placement is None:
        return [f"{INDENT}(not a spot: nothing more to show)"]
    program, layout = game.program, game.layout
    piece, zone = _placed(game, st)
    seen = visible_grid_zones(program, program.seats_of(program.controller(seat)))
    if zone is None and len(seen) == 1:  # the rules name no zone here; the game has one grid in sight
        zone = seen[0]
    if zone not in seen or zone not in st.grids:
        return [f"{INDENT}(no grid in sight to show this spot on)"]
    label = layout.zones[zone].label(layout.seat_names)
    grid, pieces = st.grids[zone].copy(), layout.pieces
    named = None
    if piece is not None and _in_sight(game, st, view, piece):
        try:
            if placement_of(grid, pieces, piece) is not None:  # a piece moved within the grid
                lift(grid, pieces, piece)
            cells = place(grid, pieces, piece, Placement(*placement), checked=True)
            named = game.component_label(st, piece)
        except GridError:  # covered where it lies: it cannot be shown moved
            grid = st.grids[zone].copy()
    if named is None:
        cells = tuple(c for c in map(cell_of, spot.get("cells") or [placement[0]]) if c is not None)
    title = (f"{zone_name(game, st, zone)} with {named} there (* marks its squares):" if named
             else f"{zone_name(game, st, zone)}, the spot's squares marked *:")
    text = layouts_text(program, {label: (grid, pieces)}, {label: _cells(cells)}, {label: title})
    return [f"{INDENT}{line}" if line else "" for line in text.splitlines()]


def _placed(game: Game, st: State) -> tuple[int | None, int | None]:
    """The piece the waiting decision places and its grid zone, read as the rules hold them now
    (None, None when its step names none); the steps reading them may charge are given back."""
    placed = getattr(decision_step(game, st), PLACED_PIECE, None)
    if placed is None:
        return None, None
    env = st.envs[st.frames[-1].env]
    steps = st.steps
    try:
        piece, zone = placed.piece(st, env), placed.zone(st, env)
    finally:
        st.steps = steps
    valid = type(piece) is int and 0 <= piece < len(game.layout.component_names)
    return (piece if valid else None), (zone if type(zone) is int else None)


def _in_sight(game: Game, st: State, view: dict, piece: int) -> bool:
    """Whether the player sees the piece: the zone it is in shows its contents in their view."""
    layout = game.layout
    content = view["zones"].get(layout.zones[st.where[piece]].label(layout.seat_names))
    return isinstance(content, list) and layout.component_names[piece] in content


def _cells(cells: tuple) -> set[Cell]:
    return {Cell(*c) for c in cells}
