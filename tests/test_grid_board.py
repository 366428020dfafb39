"""Bounded grid zones (`zone board shared public grid W by H`): the board's geometry
(model/grid_board.py) on a position worked by hand, its reads in the rules language
(compile/stdlib_board.py) through a toy game (tests/rulesets/board), and bad input, each
refused at its path:line:col.

The position, on a board of 5 columns by 4 rows (y grows to the north; R red, B blue, N a piece
of nobody's):

    3  .  .  .  .  .
    2  .  R  .  .  N
    1  .  .  B  .  .
    0  R  B  B  .  .
       0  1  2  3  4

- a red piece at (3,0) closes in, clockwise from north: west (2,0), (1,0) against (0,0); north-west
  (2,1) against (1,2). Nothing north, north-east or east (free cells); nothing south (the edge).
- red can close something in only from (3,0). From (3,1) west meets the free (1,1) after (2,1),
  south-west the edge after (2,0); from (3,2) south-west (2,1), (1,0) then the edge; from (2,2)
  south (2,1), (2,0) then the edge; from (1,1) every blue run meets a free cell or the edge.
- blue can only from (0,3): south-east (1,2) against (2,1). From (0,2) east (1,2) meets the free
  (2,2); from (1,3) south (1,2) meets the free (1,1); nobody's N never closes a run.
"""
from __future__ import annotations

import random
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from conftest import refused_by_validate_and_run
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.model.grid import Cell, Grid, Layer, Piece, Placement, place, take_off
from snowrules.model.grid_board import Board, first_free, flanked, flanked_on, flanking, piece_at, run_length
from snowrules.model.grid_zones import grid_of
from snowrules.play.grid_picture import SEAT_COLOURS
from snowrules.play.layouts import layouts_picture, layouts_text, seat_letters, state_grids
from snowrules.runtime.engine import Game

BOARD = Path(__file__).resolve().parent / "rulesets" / "board"
SVG = "{http://www.w3.org/2000/svg}"
RED, BLUE = 0, 1
# piece id -> owner seat: 0 and 1 red, 2 to 4 blue, 5 nobody's
OWNERS = [RED, RED, BLUE, BLUE, BLUE, None]
PLACED = {(0, 0): 0, (1, 2): 1, (1, 0): 2, (2, 0): 3, (2, 1): 4, (4, 2): 5}


def position() -> tuple[Grid, Board]:
    return Grid({Cell(*cell): [Layer(piece, 0, 0)] for cell, piece in PLACED.items()}), Board(5, 4)


def cells(*pairs: tuple[int, int]) -> list[Cell]:
    return [Cell(*pair) for pair in pairs]


# ---- the geometry -------------------------------------------------------------------------------
def test_a_board_lists_its_cells_row_by_row():
    board = Board(2, 3)
    assert board.cells == tuple(cells((0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)))
    assert [board.holds(*pair) for pair in [(0, 0), (1, 2), (2, 0), (0, 3), (-1, 0)]] == [True, True, False, False,
                                                                                          False]


def test_lines_run_from_the_next_cell_to_the_edge():
    board = Board(5, 4)
    assert board.line(Cell(1, 1), "ne") == tuple(cells((2, 2), (3, 3)))
    assert board.line(Cell(3, 0), "w") == tuple(cells((2, 0), (1, 0), (0, 0)))
    assert board.line(Cell(0, 0), "s") == ()
    assert board.line(Cell(0, 3), "se") == tuple(cells((1, 2), (2, 1), (3, 0)))
    # the lines of two cells or more, clockwise from north: from (4,3) south, south-west, west
    assert board.lines(Cell(4, 3)) == (tuple(cells((4, 2), (4, 1), (4, 0))), tuple(cells((3, 2), (2, 1), (1, 0))),
                                       tuple(cells((3, 3), (2, 3), (1, 3), (0, 3))))


@pytest.mark.parametrize(("cell", "adjacency", "expected"), [
    ((0, 0), "all", [(0, 1), (1, 1), (1, 0)]),
    ((0, 0), "orthogonal", [(0, 1), (1, 0)]),
    ((0, 0), "diagonal", [(1, 1)]),
    ((4, 3), "all", [(4, 2), (3, 2), (3, 3)]),
    ((2, 1), "orthogonal", [(2, 2), (3, 1), (2, 0), (1, 1)]),
    ((2, 1), "diagonal", [(3, 2), (3, 0), (1, 0), (1, 2)]),
])
def test_neighbours_are_the_cells_on_the_board_clockwise_from_north(cell, adjacency, expected):
    assert Board(5, 4).neighbours(Cell(*cell), adjacency) == tuple(cells(*expected))


def test_the_piece_at_a_cell_is_its_top_piece_or_none():
    grid, _ = position()
    assert [piece_at(grid, pair) for pair in [(0, 0), (2, 1), (4, 2), (3, 0)]] == [0, 4, 5, None]


def test_a_red_piece_at_3_0_closes_in_two_runs():
    grid, board = position()
    assert flanked(grid, board, Cell(3, 0), OWNERS, RED) == cells((2, 0), (1, 0), (2, 1))
    assert flanked(grid, board, Cell(3, 0), OWNERS, BLUE) == []   # blue's own pieces next to it


def test_a_run_is_closed_only_by_the_players_own_piece():
    grid, board = position()
    # from (3,1) west: blue (2,1), then the free (1,1): not closed
    assert flanked_on(grid, board.line(Cell(3, 1), "w"), OWNERS, RED) == ()
    # from (2,2) south: blue (2,1), (2,0), then the edge
    assert flanked_on(grid, board.line(Cell(2, 2), "s"), OWNERS, RED) == ()
    # a run of blue ended by nobody's piece is not closed: (3,2) east is N at (4,2) straight away
    assert flanked_on(grid, board.line(Cell(3, 2), "e"), OWNERS, BLUE) == ()
    assert flanked_on(grid, (Cell(2, 1), Cell(4, 2), Cell(1, 2)), OWNERS, RED) == ()


def test_the_cells_where_each_player_closes_something_in():
    grid, board = position()
    assert flanking(grid, board, OWNERS, RED) == cells((3, 0))
    assert flanking(grid, board, OWNERS, BLUE) == cells((0, 3))


def test_a_run_counts_a_players_pieces_in_a_row():
    grid, board = position()
    west = board.line(Cell(3, 0), "w")   # (2,0) B, (1,0) B, (0,0) R
    assert [run_length(grid, west, OWNERS, seat) for seat in (BLUE, RED)] == [2, 0]
    assert run_length(grid, board.line(Cell(0, 3), "se"), OWNERS, RED) == 1   # (1,2) R, then (2,1) B


def test_the_first_free_cell_of_a_column_is_its_lowest():
    grid, board = position()
    assert [first_free(grid, board, x) for x in range(5)] == cells((0, 1), (1, 1), (2, 2), (3, 0), (4, 0))
    full = Grid({Cell(0, 0): [Layer(0, 0, 0)]})
    assert first_free(full, Board(1, 1), 0) is None


# ---- in the rules: the toy game ------------------------------------------------------------------
def board_game() -> Game:
    return Game(load_program(str(BOARD), None, 2))


def layout(game: Game, st) -> dict[tuple[int, int], str]:
    placed = grid_of(game.layout, st, "board")
    return {(c.x, c.y): placed.names[stack[-1].piece] for c, stack in placed.grid.stacks.items()}


def test_a_dropped_piece_rests_on_the_lowest_free_cell_and_closes_in_a_run():
    # red drops into column 0: (0,0); blue into 1: (1,0); red into 2: (2,0) closes blue's (1,0)
    # in against (0,0), so it turns red: (0,0), (1,0), (2,0) are three red in a row, red wins.
    game = board_game()
    st = game.start(0)
    for column in (0, 1, 2):
        game.answer(st, [game.option_labels(st, st.pending.options[0]).index(str(column))])
    assert layout(game, st) == {(0, 0): "red piece", (1, 0): "red piece", (2, 0): "red piece"}
    assert game.outcome(st).winners == [0]
    assert len(st.zones[game.layout.zone_families["supply"].base + 1]) == 10  # blue's piece went back


def test_columns_fill_from_the_bottom_and_a_full_column_is_not_offered():
    # columns 0 and 1 alternately never close anything in nor make three in a row (two each):
    # red (0,0), blue (1,0), red (0,1), blue (1,1), red (0,2), blue (1,2) ... column 0's fourth
    # row is (0,3), red's third piece in column 0 is at (0,2): red's column (0,0)-(0,2) is three
    # in a row at the fifth move.
    game = board_game()
    st = game.start(0)
    for column in (0, 1, 0, 1):
        game.answer(st, [game.option_labels(st, st.pending.options[0]).index(str(column))])
    assert layout(game, st) == {(0, 0): "red piece", (1, 0): "blue piece", (0, 1): "red piece",
                                (1, 1): "blue piece"}
    game.answer(st, [game.option_labels(st, st.pending.options[0]).index("0")])
    assert game.outcome(st).winners == [0]


# ---- bad input ------------------------------------------------------------------------------------
BAD = [
    # (the rules' line replaced, its replacement, the reported line's text, column, message)
    ("zone board shared public grid 5 by 4", "zone board shared public grid 0 by 4", "grid 0 by 4", 31,
     "a board's width is 1 to 1000 cells, not 0"),
    ("zone board shared public grid 5 by 4", "zone board shared public grid 100000 by 100000", "grid 100000", 31,
     "a board's width is 1 to 1000 cells, not 100000"),
    ("zone board shared public grid 5 by 4", "zone board shared public grid 1000 by 1000", "grid 1000", 31,
     "a board of 1000 by 1000 has 1,000,000 cells, more than 10,000"),
    # a side named: a constant or an option (SR720), in range (SR708); `hex` spelt right
    ("zone board shared public grid 5 by 4", "zone board shared public grid size by 4", "grid size by 4", 31,
     "a board's width is a number or a constant's or option's name; 'size' is neither"),
    ("zone board shared public grid 5 by 4", "constant size = 4\nzone board shared public grid 5 by sise",
     "grid 5 by sise", 36, "'sise' is neither (hint: did you mean 'size'?)"),
    ("zone board shared public grid 5 by 4", 'constant size = "big"\nzone board shared public grid size by 4',
     "grid size by 4", 31, "a board's width is a whole number; size is 'big'"),
    ("zone board shared public grid 5 by 4", "constant size = 2000\nzone board shared public grid size by 4",
     "grid size by 4", 31, "a board's width is 1 to 1000 cells, not 2000 (size)"),
    ("zone board shared public grid 5 by 4", "constant size = 200\nzone board shared public grid size by size",
     "grid size by size", 31, "a board of 200 by 200 has 40,000 cells, more than 10,000"),
    ("zone board shared public grid 5 by 4", "zone board shared public grid 5 by 4 hexx", "grid 5 by 4 hexx", 38,
     "unexpected 'hexx'"),
    ("zone board shared public grid 5 by 4", "zone board shared public grid hex", "grid hex", 31,
     "unexpected 'hex' after `grid` (hint: a board is `grid W by H` or `grid of COMPONENT`, `hex` after either"),
    ("zone board shared public grid 5 by 4", "zone board shared public grid", "let c = first_free(board, x)", 28,
     "first_free() needs a bounded grid zone; 'board' is an open grid zone"),
    ("    let c = first_free(board, x)", "    let c = first_free(p.supply, x)", "first_free(p.supply", 28,
     "first_free() needs a bounded grid zone; 'supply' is not a grid zone"),
    ('where run(board, c, d, p)', 'where run(board, c, "up", p)', 'run(board, c, "up"', 76,
     "run(): 'up' is not a direction"),
    ('item(directions("all"), i)', 'item(directions("any"), i)', 'directions("any")', 66,
     "directions(): 'any' is not an adjacency"),
    ("    let c = first_free(board, x)", "    let c = {x: 0, y: 4}", "move first(p.supply) to board at c", 9,
     "red piece cannot go to board at (0,4): the cell is off the board, whose cells are (0,0) to (4,3)"),
    ("        for each f in flanked(board, c, p):", "        for each f in flanked(board, {x: 0, y: 5}, p):",
     "for each f in flanked(", 23, "flanked(): the cell (0,5) is off the board, whose cells are (0,0) to (4,3)"),
]


@pytest.mark.parametrize(("old", "new", "line_text", "column", "message"), BAD, ids=[row[4][:40] for row in BAD])
def test_bad_board_input_is_refused_at_its_place(tmp_path, capsys, old, new, line_text, column, message):
    folder = tmp_path / "board"
    shutil.copytree(BOARD, folder)
    rules = folder / "rules.sr"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    refused_by_validate_and_run(capsys, folder, "rules.sr", line_text, column, message)


@pytest.mark.parametrize(("width", "height"), [(5, 4), (8, 8), (3, 7), (1, 6), (9, 2)])
def test_flanking_is_every_free_cell_where_flanked_finds_something(width, height):
    """`flanking` works on bit masks; `flanked` walks each line: on random positions (a third of
    the cells free, nobody's pieces among them, boards that are not square) they agree."""
    rng = random.Random(width * 100 + height)
    board = Board(width, height)
    owners = [RED] * 100 + [BLUE] * 100 + [None] * 100
    found = 0
    for _ in range(200):
        grid = Grid({cell: [Layer(rng.choice([0, 100, 100, 200]) + n, 0, 0)]
                     for n, cell in enumerate(board.cells) if rng.random() < 0.66})
        for seat in (RED, BLUE):
            walked = [c for c in board.cells if c not in grid.stacks and flanked(grid, board, c, owners, seat)]
            assert flanking(grid, board, owners, seat) == walked
            found += len(walked)
    assert found >= 10  # positions where something can be closed in, not only empty answers


def test_a_board_is_drawn_whole_its_pieces_by_their_seats_letter():
    """After red 0, blue 1, red 2 (blue's piece at (1,0) turned red): the 5 by 4 board drawn
    whole, north up, a free cell `-`, red's pieces `R` (red and blue begin with other letters),
    the columns a to e and the rows 1 to 4 as a board's players name them;
    blocks three characters wide, three lines high (the empty north and south lines of each
    row are blank, the top one left out)."""
    game = board_game()
    st = game.start(0)
    for column in (0, 1, 2):
        game.answer(st, [game.option_labels(st, st.pending.options[0]).index(str(column))])
    free_row = "  -  -  -  -  -"
    assert layouts_text(game.program, state_grids(game.program, st)).splitlines() == [
        "board:",
        "4" + free_row, "", "",
        "3" + free_row, "", "",
        "2" + free_row, "", "",
        "1  R  R  R  -  -", "",
        "   a  b  c  d  e",
        "R red",
    ]


@pytest.mark.parametrize(("seats", "letters"), [
    (["black", "white"], ["B", "W"]),
    (["red", "blue"], ["R", "B"]),
    (["blue", "black"], ["1", "2"]),   # both B: the seats' numbers instead
])
def test_each_seat_has_a_letter_of_its_own(seats, letters):
    assert seat_letters(seats) == letters


def test_taking_a_piece_off_finds_it_where_it_lies_whatever_moved_it():
    """`take_off` first believes where `place` put the piece, checked against the stacks: a piece
    moved since by a direct change of the stacks is still found where it lies."""
    pieces = {7: Piece.from_data([{}])}
    grid = Grid()
    place(grid, pieces, 7, Placement(Cell(2, 1), 0))
    copy = grid.copy()
    assert take_off(grid, 7) == (Cell(2, 1),) and grid.stacks == {}
    copy.stacks.clear()                                   # as `move all` empties a grid
    copy.stacks[Cell(0, 3)] = [Layer(7, 0, 0)]            # and a scenario lays it out again
    assert take_off(copy, 7) == (Cell(0, 3),) and copy.stacks == {}
    assert take_off(copy, 7) == ()                        # no longer on the grid: frees nothing


def test_the_picture_draws_the_board_whole_and_each_piece_in_its_seats_colour():
    """The same three moves: 20 cells, 17 of them free (`class="cell"`), three red discs
    (`class="piece"`, red's colour, `R`) on (0,0), (1,0), (2,0)."""
    game = board_game()
    st = game.start(0)
    for column in (0, 1, 2):
        game.answer(st, [game.option_labels(st, st.pending.options[0]).index(str(column))])
    svg = ElementTree.fromstring(layouts_picture(game.program, state_grids(game.program, st)))
    free = [e.get("data-cell") for e in svg.iter(f"{SVG}rect") if e.get("class") == "cell"]
    pieces = [(e.get("data-cell"), e.get("data-letter"), e.get("fill")) for e in svg.iter(f"{SVG}circle")
              if e.get("class") == "piece"]
    assert len(free) == 17 and {"0,0", "1,0", "2,0"}.isdisjoint(free) and "4,3" in free
    assert sorted(pieces) == [("0,0", "R", SEAT_COLOURS["red"]), ("1,0", "R", SEAT_COLOURS["red"]),
                              ("2,0", "R", SEAT_COLOURS["red"])]


def test_the_account_names_a_boards_cells_as_its_players_do(capsys):
    """The `first` agent drops into column 0 (a) every time: red a1, blue a2, red a3 closes blue's
    a2 in against a1 (it goes back to blue's supply, a red piece takes a2): red's a1-a3, red wins."""
    assert main(["run", str(BOARD), "--agents", "first,first"]) == 0
    told = [line.strip() for line in capsys.readouterr().out.splitlines() if "piece:" in line]
    assert told == ["red piece: red.supply -> board at a1", "blue piece: blue.supply -> board at a2",
                    "red piece: red.supply -> board at a3", "blue piece: board -> blue.supply",
                    "red piece: red.supply -> board at a2"]


def test_a_scenario_laying_a_piece_off_the_board_is_refused_at_its_entry(tmp_path, capsys):
    folder = tmp_path / "othello"
    shutil.copytree(BOARD.parent.parent.parent / "rulesets" / "othello", folder)
    scenario = folder / "scenarios" / "pass_and_end.yaml"
    old = '      - {component: "black disc", at: [7, 7]}'
    assert old in scenario.read_text()
    scenario.write_text(scenario.read_text().replace(old, '      - {component: "black disc", at: [9, 7]}'))
    line = next(n for n, text in enumerate(scenario.read_text().splitlines(), 1) if "[9, 7]" in text)
    assert main(["test", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"pass_and_end.yaml:{line}:9: error: black disc at (9,7) is off the board, whose cells are (0,0) to " \
           "(7,7)" in out, out


def test_placements_on_a_board_are_only_the_spots_on_it(tmp_path):
    """The three-tile game on a board of 2 by 2: tile A lies on (0,0), (1,0); tile B, two
    squares, touching it without covering it, fits only on the row above: anchored at (0,1)
    turned east, or at (1,1) turned west (upright it would need (x,0), taken, or (x,2), off)."""
    folder = tmp_path / "tiles"
    shutil.copytree(BOARD.parent / "tiles", folder)
    rules = folder / "rules.sr"
    text = rules.read_text()
    rules.write_text(text.replace("zone table shared public grid\n", "zone table shared public grid 2 by 2\n"))
    game = Game(load_program(str(folder), None, 1))
    st = game.start(0)
    game.answer(st, [game.option_labels(st, st.pending.options[0]).index("tile B")])
    assert game.option_labels(st, st.pending.options[0]) == ["(0,1) turned east, covers nothing",
                                                              "(1,1) turned west, covers nothing"]
