"""Grid zones as an SVG picture: `snowrules run ... --picture FILE.svg`, or `grid_picture()`.

Each visible square is a rectangle; each of its features a disc in the feature's colour with its
letter; each side its drawn side fields list a line from the square's centre to that side. A
thick border runs where a square meets a cell that is not of the same piece (another piece, or
empty), so that the squares of one piece read as one tile. North is up, the coordinates are on
the axes, and several grid zones are drawn one under the other, each under its name.

What the picture shows is also in its attributes, so that a program (or a test) can read it
back: each square's rectangle has `class="square"`, `data-cell="x,y"`, `data-piece` (the
piece's name) and `data-features` (its drawn values, space-separated); each side line has
`class="side"`, `data-cell` and `data-side`.

The picture is built as a string (pure), and written to its file through a temporary file beside
it, renamed over the target only when complete: a failure leaves no half-written picture and
keeps the file that was there.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Collection, Mapping
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from snowrules.load.display import GridDisplay
from snowrules.model.grid import STEP, Cell, Grid, Pieces, visible
from snowrules.model.grid_board import Board, column_name, row_name
from snowrules.records.logwriter import log_target_problem

SIZE = 48           # a square's side, in pixels
MARGIN = 32         # room for the coordinates
TITLE = 28          # room for a zone's name above its grid
GAP = 24            # between two zones
SQUARE_FILL = "#fafafa"
GRID_LINE = "#cfd8dc"
BORDER = "#263238"
SPOT_FILL = "#90caf9"
SPOT_LINE = "#1565c0"
# A seat's colour, to draw its pieces on a board: its name when that is a colour (black, white,
# red...), else one of these by its number. The letter on a light disc is dark.
SEAT_COLOURS = {"black": "#212121", "white": "#fafafa", "red": "#c62828", "blue": "#1565c0", "green": "#2e7d32",
                "yellow": "#f9a825", "orange": "#ef6c00", "purple": "#6a1b9a", "brown": "#5d4037", "pink": "#ec407a",
                "grey": "#757575", "gray": "#757575"}
SEAT_PALETTE = ("#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#ef6c00", "#5d4037", "#00838f")
LIGHT = ("#fafafa", "#f9a825")
FREE_FILL = "#eceff1"


class PictureError(ValueError):
    """The picture cannot be written where it was asked to go."""


def seat_colour(seat_names: list[str], seat: int) -> str:
    """The colour a seat's pieces are drawn in (see SEAT_COLOURS)."""
    return SEAT_COLOURS.get(seat_names[seat].lower(), SEAT_PALETTE[seat % len(SEAT_PALETTE)])


def grid_picture(grids: Mapping[str, tuple[Grid, Pieces]], displays: Mapping[str, GridDisplay] | None = None,
                 names: Mapping[int, str] | None = None,
                 spots: Mapping[str, Collection[tuple[int, int]]] | None = None,
                 boards: Mapping[str, Board] | None = None,
                 marks: Mapping[int, tuple[str, str]] | None = None) -> str:
    """The SVG document of the grid zones (zone name -> its grid and pieces). `names` gives each
    piece's name (a component's name) for `data-piece` and the tooltip; default its number.
    `spots` marks cells of a zone where a decision may put a piece (the browser's table lets a
    person click them): a dashed square each, `class="spot"` with `data-cell`, drawn over what is
    there, and the picture grows to take them in. `boards` gives a bounded grid zone's board (it is
    drawn whole, each free cell of it `class="cell"`; on a hex board each row lies half a cell east
    of the row below, as its hexes do); `marks` a piece's letter and colour (its
    owner seat's), drawn as a disc when the piece has nothing else to show."""
    boards = boards or {}
    marks = marks or {}
    displays = displays or {}
    names = names or {}
    spots = spots or {}
    parts: list[str] = []
    top, width = 0, 0
    for zone, (grid, pieces) in grids.items():
        drawn, zone_width, zone_height = _zone(zone, grid, pieces, displays.get(zone) or GridDisplay(zone), names, top,
                                               [Cell(x, y) for x, y in spots.get(zone, ())], boards.get(zone), marks)
        parts += drawn
        width = max(width, zone_width)
        top += zone_height + GAP
    height = max(top - GAP, 0)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">')
    return "\n".join([head, *parts, "</svg>"]) + "\n"


def _zone(zone: str, grid: Grid, pieces: Pieces, display: GridDisplay, names: Mapping[int, str],
          top: int, spots: list[Cell] = (), board: Board | None = None,
          marks: Mapping[int, tuple[str, str]] | None = None) -> tuple[list[str], int, int]:
    """One zone's group of elements, with its width and height."""
    squares = visible(grid, pieces)
    marks = marks or {}
    out = [f'<g class="zone" data-zone={quoteattr(zone)}>',
           f'<text x="4" y="{top + 20}" font-size="16" font-weight="bold">{escape(zone)}</text>']
    if not squares and not spots and board is None:
        out += [f'<text x="4" y="{top + TITLE + 16}" font-size="12">(no squares)</text>', "</g>"]
        return out, 160, TITLE + 24
    by_cell = {s.cell: s for s in squares}
    cells = list(board.cells) if board is not None else []
    every = [*by_cell, *spots, *cells]
    low_x, high_x = min(c.x for c in every), max(c.x for c in every)
    low_y, high_y = min(c.y for c in every), max(c.y for c in every)
    origin_y = top + TITLE
    skew = SIZE // 2 if board is not None and board.hex else 0  # a hex board's rows: half a cell east a row

    def corner(cell: Cell) -> tuple[int, int]:
        return MARGIN + (cell.x - low_x) * SIZE + (cell.y - low_y) * skew, origin_y + (high_y - cell.y) * SIZE

    for cell in cells:
        if cell not in by_cell:
            x, y = corner(cell)
            out.append(f'<rect class="cell" x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{FREE_FILL}" '
                       f'stroke="{GRID_LINE}" data-cell="{cell.x},{cell.y}"/>')
    for square in squares:
        x, y = corner(square.cell)
        side_fields = pieces[square.piece].side_fields
        values = display.shown_values(square.fields, side_fields)
        name = names.get(square.piece, str(square.piece))
        tooltip = f"{name} at {square.cell}: {', '.join(values) or 'nothing'}"
        out.append(f'<rect class="square" x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{SQUARE_FILL}" '
                   f'stroke="{GRID_LINE}" data-cell="{square.cell.x},{square.cell.y}" data-piece={quoteattr(name)} '
                   f'data-features={quoteattr(" ".join(values))}>'
                   f'<title>{escape(tooltip)}</title></rect>')
        middle_x, middle_y = x + SIZE // 2, y + SIZE // 2
        for side_field, sides in display.drawn_sides(square.fields, side_fields).items():
            for side in sides:
                dx, dy = STEP[side]
                out.append(f'<line class="side" x1="{middle_x}" y1="{middle_y}" x2="{middle_x + dx * SIZE // 2}" '
                           f'y2="{middle_y - dy * SIZE // 2}" stroke="{display.line_colour(side_field)}" '
                           f'stroke-width="5" stroke-linecap="round" data-cell="{square.cell.x},{square.cell.y}" '
                           f'data-side="{side}" data-field={quoteattr(side_field)}/>')
        if not values and square.piece in marks and not display.drawn_sides(square.fields, side_fields):
            letter, colour = marks[square.piece]
            ink = "#212121" if colour in LIGHT else "#ffffff"
            out.append(f'<circle class="piece" cx="{middle_x}" cy="{middle_y}" r="{SIZE * 3 // 8}" fill="{colour}" '
                       f'stroke="{BORDER}" data-cell="{square.cell.x},{square.cell.y}" '
                       f'data-letter={quoteattr(letter)}/>')
            out.append(f'<text x="{middle_x}" y="{middle_y + 5}" font-size="14" fill="{ink}" '
                       f'text-anchor="middle">{escape(letter)}</text>')
        for index, value in enumerate(values):
            centre_x = x + SIZE * (index + 1) // (len(values) + 1)
            out.append(f'<circle class="feature" cx="{centre_x}" cy="{middle_y}" r="{SIZE // 6}" '
                       f'fill="{display.colour(value)}" data-value={quoteattr(value)}/>')
            out.append(f'<text x="{centre_x}" y="{middle_y + 4}" font-size="11" fill="#ffffff" '
                       f'text-anchor="middle">{escape(display.letter(value))}</text>')
    for square in squares:          # borders last, over the squares and their lines
        x, y = corner(square.cell)
        for side, (dx, dy) in STEP.items():
            other = by_cell.get(Cell(square.cell.x + dx, square.cell.y + dy))
            if other is not None and other.piece == square.piece:
                continue
            x1, y1, x2, y2 = _edge(x, y, side)
            out.append(f'<line class="border" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{BORDER}" '
                       f'stroke-width="2"/>')
    for cell in dict.fromkeys(spots):   # where a piece may go: over the borders, under nothing
        x, y = corner(cell)
        out.append(f'<rect class="spot" x="{x + 3}" y="{y + 3}" width="{SIZE - 6}" height="{SIZE - 6}" '
                   f'fill="{SPOT_FILL}" fill-opacity="0.35" stroke="{SPOT_LINE}" stroke-width="2" '
                   f'stroke-dasharray="5 3" data-cell="{cell.x},{cell.y}"/>')
    bottom = origin_y + (high_y - low_y + 1) * SIZE
    for column in range(low_x, high_x + 1):
        x = MARGIN + (column - low_x) * SIZE + SIZE // 2
        name = column if board is None else column_name(column, board.width)
        out.append(f'<text class="axis" x="{x}" y="{bottom + 16}" font-size="11" text-anchor="middle">{name}</text>')
    for row in range(low_y, high_y + 1):
        y = origin_y + (high_y - row) * SIZE + SIZE // 2 + 4
        name = row if board is None else row_name(row, board.width)
        out.append(f'<text class="axis" x="{MARGIN - 6 + (row - low_y) * skew}" y="{y}" font-size="11" '
                   f'text-anchor="end">{name}</text>')
    out.append("</g>")
    return out, MARGIN * 2 + (high_x - low_x + 1) * SIZE + (high_y - low_y) * skew, bottom + 24 - top


def _edge(x: int, y: int, side: str) -> tuple[int, int, int, int]:
    """The two ends of a square's side, the square's north-west corner at (x, y) (SVG's y runs down)."""
    return {"n": (x, y, x + SIZE, y), "s": (x, y + SIZE, x + SIZE, y + SIZE),
            "w": (x, y, x, y + SIZE), "e": (x + SIZE, y, x + SIZE, y + SIZE)}[side]


def picture_target_problem(path: Path) -> str | None:
    """Why a picture cannot be written at `path` (None when it can): asked before the game is
    played, so that a wrong path costs no game. Besides the log's checks, the name must end in .svg."""
    if Path(path).suffix.lower() != ".svg":
        return "a picture is an SVG file: give a name ending in .svg"
    return log_target_problem(Path(path), "a picture")


def write_picture(path: Path, svg: str) -> None:
    """Write the picture atomically: a temporary file beside the target, renamed over it once
    complete (the previous file stays when anything fails)."""
    path = Path(path)
    problem = picture_target_problem(path)
    if problem is not None:
        raise PictureError(f"{path}: {problem}")
    target = path.resolve()
    try:
        descriptor, name = tempfile.mkstemp(prefix=target.name + ".", suffix=".partial", dir=target.parent)
    except OSError as error:
        raise PictureError(f"{path}: cannot write the picture: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as file:
            file.write(svg)
        os.chmod(name, _mode_for(target))
        os.replace(name, target)
    except OSError as error:
        Path(name).unlink(missing_ok=True)
        raise PictureError(f"{path}: cannot write the picture: {error.strerror}") from None
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    """The permissions of the file it replaces, or of a new file under the current umask
    (mkstemp's own 0600 would hide a picture from the other users of a shared folder)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
