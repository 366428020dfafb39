"""The grid zones of a game, for people: which ones a reader may see, drawn as text or as a picture.

This is where a game (its program and a state, or a follower's copy of its grids) meets the pure
drawings of grid_text.py and grid_picture.py: it finds the grid zone instances, reads each one's
grid through the one accessor of a state's grids (`model.grid_zones.grid_of`), and gives each
the display its ruleset declares for the zone (the manifest's `display:`, by zone name).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from snowrules.load.display import GridDisplay
from snowrules.model.grid import Cell, Grid, Pieces
from snowrules.model.grid_board import Board
from snowrules.model.grid_zones import grid_of
from snowrules.model.program import Program
from snowrules.play.grid_picture import grid_picture, seat_colour, write_picture
from snowrules.play.grid_text import grid_text

Drawn = dict[str, tuple[Grid, Pieces]]   # zone label -> its grid and the pieces


def visible_grid_zones(program: Program, seats: Iterable[int] | None = None) -> list[int]:
    """The grid zone instances a reader may see: every one (`seats` None: the account of the
    whole game), else the public ones and the hidden ones the reader's seats own."""
    layout = program.layout
    owned = None if seats is None else set(seats)
    return [z for z in layout.grid_zones
            if owned is None or layout.zones[z].visibility == "public"
            or (layout.zones[z].visibility == "hidden" and layout.zones[z].owner in owned)]


def state_grids(program: Program, st, seats: Iterable[int] | None = None) -> Drawn:
    """The grids of a state's grid zones the reader may see, by zone label."""
    layout = program.layout
    found = {}
    for zone in visible_grid_zones(program, seats):
        shown = grid_of(layout, st, zone)
        found[layout.zones[zone].label(layout.seat_names)] = (shown.grid, shown.pieces)
    return found


def followed_grids(program: Program, grids: Mapping[int, Grid], zones: Iterable[int] | None = None) -> Drawn:
    """A follower's copies of the grids (zone instance -> grid), by zone label."""
    layout = program.layout
    return {layout.zones[z].label(layout.seat_names): (grids[z], layout.pieces)
            for z in (zones if zones is not None else sorted(grids))}


def displays(program: Program) -> dict[str, GridDisplay]:
    """Each grid zone instance's display, by label: the one declared for its zone's name."""
    layout = program.layout
    return {layout.zones[z].label(layout.seat_names): program.display.get(layout.zones[z].family)
            or GridDisplay(layout.zones[z].family) for z in layout.grid_zones}


def _boards(program: Program) -> dict[str, Board]:
    """Each bounded grid zone instance's board, by label."""
    layout = program.layout
    return {layout.zones[z].label(layout.seat_names): board for z, board in layout.boards.items()}


def seat_letters(seat_names: list[str]) -> list[str]:
    """A letter per seat, to draw its pieces by: its name's first letter in capitals (black B,
    white W), or, when two seats' names begin alike, the seat's number from 1."""
    letters = [name[:1].upper() or "?" for name in seat_names]
    return letters if len(set(letters)) == len(letters) else [str(n + 1) for n in range(len(seat_names))]


def seat_marks(program: Program) -> dict[int, tuple[str, str]]:
    """Each piece of a per-seat list, drawn by its owner's letter: {component: (letter, seat)}."""
    layout = program.layout
    letters = seat_letters(layout.seat_names)
    return {c: (letters[owner], layout.seat_names[owner]) for c, owner in enumerate(layout.fields.get("owner", []))
            if owner is not None}


def layouts_text(program: Program, grids: Drawn, marked: Mapping[str, Collection[Cell]] | None = None,
                 titles: Mapping[str, str] | None = None) -> str:
    """Each grid under its zone's label (or its title in `titles`), as text grids (an empty
    string when there is none): a bounded grid zone whole, a piece of a seat's by its seat's
    letter when nothing else shows, the cells `marked` gives (by zone label) starred."""
    shown, boards, marks = displays(program), _boards(program), seat_marks(program)
    marked, titles = marked or {}, titles or {}
    drawn = {label: grid_text(grid, pieces, shown.get(label), board=boards.get(label), marks=marks,
                              marked=marked.get(label, ())) for label, (grid, pieces) in grids.items()}
    return "\n".join(f"{titles.get(label, label + ':')}\n{text}" for label, text in drawn.items())


def layouts_picture(program: Program, grids: Drawn,
                    spots: Mapping[str, Iterable[tuple[int, int]]] | None = None) -> str:
    """The SVG picture of the grids, each piece named by its component's name (and the cells
    `spots` gives, by zone label, marked as places a piece may go)."""
    layout = program.layout
    names = dict(enumerate(layout.component_names))
    colours = {seat: seat_colour(layout.seat_names, seat) for seat in range(len(layout.seat_names))}
    marks = {c: (letter, colours[owner]) for c, (letter, _name) in seat_marks(program).items()
             for owner in [layout.fields["owner"][c]]}
    return grid_picture(grids, displays(program), names, {zone: list(cells) for zone, cells in (spots or {}).items()},
                        _boards(program), marks)


def draw_state(program: Program, st, path: Path) -> None:
    """Write the picture of every grid zone of a state to `path` (atomically; see grid_picture.py)."""
    write_picture(path, layouts_picture(program, state_grids(program, st)))
