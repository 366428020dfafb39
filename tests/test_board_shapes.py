"""Hex boards, boards of a shape and sizes from constants (`grid size by size`, `grid W by H hex`,
`grid of NAME hex`): the geometry (model/grid_board.py) worked by hand, its reads in the rules
language through a toy game (tests/rulesets/hex_board), games played through by random agents,
and bad input, each refused at its path:line:col.

The hex board's coordinates are axial (x to the east, y to the north-east; pointy-top hexes):
the six neighbours of (x, y), clockwise from north-east, are (x, y+1), (x+1, y), (x+1, y-1),
(x, y-1), (x-1, y), (x-1, y+1).

The toy game's board, a hexagon of 19 hexes round (2,2): the cells 0 <= x, y <= 4 with
2 <= x + y <= 6, drawn with each row half a hex east of the one below:

    y=4          .  .  .               (0,4) (1,4) (2,4)
    y=3        .  .  .  .           (0,3) ...   (3,3)
    y=2      .  .  .  .  .       (0,2) ...         (4,2)
    y=1        .  .  .  .           (1,1) ...   (4,1)
    y=0          .  .  .               (2,0) (3,0) (4,0)
"""
from __future__ import annotations

import random
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from conftest import choose_cell as choose
from conftest import pieces_on_board as placed
from conftest import play_checked, refused_by_validate_and_run
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.model.grid import Cell, Grid, Layer
from snowrules.model.grid_board import Board, first_free, flanked, flanking
from snowrules.play.layouts import layouts_picture, layouts_text, state_grids
from snowrules.runtime.engine import Game

RULESETS = Path(__file__).resolve().parent / "rulesets"
HEX = RULESETS / "hex_board"
BOARD = RULESETS / "board"
SVG = "{http://www.w3.org/2000/svg}"
DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"
HEXAGON = [(x, y) for y in range(5) for x in range(5) if 2 <= x + y <= 6]


def cells(*pairs: tuple[int, int]) -> tuple[Cell, ...]:
    return tuple(Cell(*pair) for pair in pairs)


def hexagon() -> Board:
    return Board(5, 5, hexagonal=True, shape=HEXAGON, source="hexagon")


# ---- the geometry -------------------------------------------------------------------------------
@pytest.mark.parametrize(("cell", "expected"), [
    ((1, 1), [(1, 2), (2, 1), (2, 0), (1, 0), (0, 1), (0, 2)]),   # inside: all six
    ((0, 0), [(0, 1), (1, 0)]),                                    # an acute corner of the rhombus: two
    ((2, 2), [(2, 1), (1, 2)]),                                    # the other acute corner
    ((2, 0), [(2, 1), (1, 0), (1, 1)]),                            # an obtuse corner: three
    ((0, 2), [(1, 2), (1, 1), (0, 1)]),
])
def test_a_hex_rhombus_has_six_neighbours_inside_and_two_or_three_at_its_corners(cell, expected):
    board = Board(3, 3, hexagonal=True)
    assert board.neighbours(Cell(*cell), "hex") == cells(*expected)
    assert board.neighbours(Cell(*cell), "all") == cells(*expected)


def test_a_hex_line_is_a_straight_row_of_hexes_to_the_edge():
    board = Board(4, 4, hexagonal=True)
    assert board.line(Cell(0, 3), "se") == cells((1, 2), (2, 1), (3, 0))
    assert board.line(Cell(3, 0), "nw") == cells((2, 1), (1, 2), (0, 3))
    assert board.line(Cell(1, 1), "ne") == cells((1, 2), (1, 3))
    assert board.line(Cell(1, 1), "e") == cells((2, 1), (3, 1))
    assert board.line(Cell(1, 1), "sw") == cells((1, 0),)
    # the lines of two cells or more from (0,0), clockwise from north-east: ne and e
    assert board.lines(Cell(0, 0)) == (cells((0, 1), (0, 2), (0, 3)), cells((1, 0), (2, 0), (3, 0)))


def test_a_shaped_board_has_only_its_cells_row_by_row():
    board = hexagon()
    assert len(board.cells) == 19
    assert board.cells[:7] == cells((2, 0), (3, 0), (4, 0), (1, 1), (2, 1), (3, 1), (4, 1))
    assert board.cells[-3:] == cells((0, 4), (1, 4), (2, 4))
    assert [board.holds(*pair) for pair in [(2, 2), (0, 0), (1, 0), (4, 3), (4, 4), (0, 2), (5, 0)]] == [
        True, False, False, False, False, True, False]
    assert board.extent() == "whose 19 cells are the squares of hexagon"
    assert Board(5, 4).extent() == "whose cells are (0,0) to (4,3)"


@pytest.mark.parametrize(("cell", "expected"), [
    ((2, 2), [(2, 3), (3, 2), (3, 1), (2, 1), (1, 2), (1, 3)]),   # the centre: all six
    ((0, 2), [(0, 3), (1, 2), (1, 1)]),                            # the west corner: sw, w, nw are holes
    ((4, 0), [(4, 1), (3, 0), (3, 1)]),                            # the south-east corner
    ((1, 1), [(1, 2), (2, 1), (2, 0), (0, 2)]),                    # an edge: sw (1,0), w (0,1) are holes
])
def test_neighbours_on_the_hexagon_skip_the_cells_that_are_not_on_it(cell, expected):
    assert hexagon().neighbours(Cell(*cell), "hex") == cells(*expected)


def test_lines_on_the_hexagon_end_where_its_cells_end():
    board = hexagon()
    assert board.line(Cell(0, 2), "e") == cells((1, 2), (2, 2), (3, 2), (4, 2))
    assert board.line(Cell(2, 0), "ne") == cells((2, 1), (2, 2), (2, 3), (2, 4))
    assert board.line(Cell(4, 0), "nw") == cells((3, 1), (2, 2), (1, 3), (0, 4))
    assert board.line(Cell(2, 2), "sw") == cells((2, 1), (2, 0))
    assert board.line(Cell(1, 1), "w") == ()   # (0,1) is not on the board


def test_a_line_ends_at_a_hole_of_a_square_board():
    board = Board(4, 2, shape=[(0, 0), (1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)], source="notched")
    assert board.line(Cell(0, 0), "e") == cells((1, 0),)            # (2,0) is a hole: (3,0) is not reached
    assert board.neighbours(Cell(3, 1), "orthogonal") == cells((3, 0), (2, 1))
    assert first_free(Grid(), board, 2) == Cell(2, 1)               # the column's lowest cell on the board
    assert first_free(Grid({Cell(2, 1): [Layer(0, 0, 0)]}), board, 2) is None


def test_flanked_on_a_hex_board_closes_runs_along_the_three_axes():
    """Red 0 at (0,2) and (4,2), blue 1 at (1,2), (2,1), (3,2), (3,1): a red stone at (2,2) closes
    in west (1,2) against (0,2) and east (3,2) against (4,2); south-west (2,1) then (2,0) free, and
    south-east (3,1) then (4,0) free, close nothing."""
    owners = [0, 0, 1, 1, 1, 1]
    grid = Grid({Cell(*cell): [Layer(piece, 0, 0)]
                 for piece, cell in enumerate([(0, 2), (4, 2), (1, 2), (2, 1), (3, 2), (3, 1)])})
    board = hexagon()
    assert flanked(grid, board, Cell(2, 2), owners, 0) == list(cells((3, 2), (1, 2)))
    assert (2, 2) in [tuple(c) for c in flanking(grid, board, owners, 0)]


@pytest.mark.parametrize("board", [Board(5, 4, hexagonal=True), Board(7, 3, hexagonal=True), hexagon(),
                                   Board(4, 3, shape=[(x, y) for x in range(4) for y in range(3) if (x, y) != (1, 1)],
                                         source="ring")], ids=repr)
def test_flanking_is_every_free_cell_where_flanked_finds_something(board):
    """`flanking` works on bit masks; `flanked` walks each line: on hex boards and boards with
    holes, on random positions, they agree."""
    rng = random.Random(len(board.cells))
    owners = [0] * 100 + [1] * 100 + [None] * 100
    found = 0
    for _ in range(200):
        grid = Grid({cell: [Layer(rng.choice([0, 100, 100, 200]) + n, 0, 0)]
                     for n, cell in enumerate(board.cells) if rng.random() < 0.66})
        for seat in (0, 1):
            walked = [c for c in board.cells if c not in grid.stacks and flanked(grid, board, c, owners, seat)]
            assert flanking(grid, board, owners, seat) == walked
            found += len(walked)
    assert found >= 10


# ---- in the rules: the toy game --------------------------------------------------------------------
def hex_game() -> Game:
    return Game(load_program(str(HEX), None, 2))


def test_the_first_stone_may_go_anywhere_then_only_next_to_a_stone():
    game = hex_game()
    st = game.start(0)
    assert [(o["x"], o["y"]) for o in st.pending.options[0]] == HEXAGON
    choose(game, st, (0, 2))
    # next to (0,2): its three neighbours on the board
    assert [(o["x"], o["y"]) for o in st.pending.options[0]] == [(1, 1), (1, 2), (0, 3)]


def test_a_stone_closes_in_along_a_hex_line_and_three_in_a_row_wins():
    # red (2,2), blue (3,2) east of it, red (4,2) closes blue's (3,2) in along the e-w line: it
    # turns red, and (2,2), (3,2), (4,2) are three in a row: red wins.
    game = hex_game()
    st = game.start(0)
    for cell in [(2, 2), (3, 2)]:
        choose(game, st, cell)
    assert game.outcome(st) is None
    choose(game, st, (4, 2))
    assert placed(game, st) == {(2, 2): "red stone", (3, 2): "red stone", (4, 2): "red stone"}
    assert game.outcome(st).winners == [0]


def test_three_along_the_north_west_line_win():
    # red (2,2), blue (2,3) north-east of it, red (1,3) north-west of it (east of it, blue's (2,3)
    # then the free (3,3): nothing closed), blue (3,2), red (3,1): (1,3), (2,2), (3,1) are three
    # along the north-west line (no stone of blue's between): red wins.
    game = hex_game()
    st = game.start(0)
    for cell in [(2, 2), (2, 3), (1, 3), (3, 2)]:
        choose(game, st, cell)
    assert game.outcome(st) is None
    choose(game, st, (3, 1))
    assert placed(game, st) == {(2, 2): "red stone", (2, 3): "blue stone", (1, 3): "red stone",
                                (3, 2): "blue stone", (3, 1): "red stone"}
    assert game.outcome(st).winners == [0]


@pytest.mark.parametrize("seed", range(12))
def test_random_agents_play_the_hex_game_through(seed):
    """Every game ends with a winner or a draw (the invariants checked at each decision), every
    stone on a cell of the hexagon, and no more moves than its 19 cells."""
    game = hex_game()
    st, choices = play_checked(game, seed)
    stones = placed(game, st)
    # a stone that closes a run in can make three in a row with the player's second stone
    assert set(stones) <= set(HEXAGON) and 3 <= len(choices) <= 19
    assert game.outcome(st).winners in ([0], [1], [0, 1])


def test_the_hexagon_is_drawn_with_each_row_half_a_hex_east_of_the_one_below():
    """Red (2,2), blue (3,2): the text shows the hexagon's 19 cells and nothing where it has none,
    each row two characters east of the row below (a block of three and a space), each free hex
    its column's letter (its columns run slantwise: no letters at the foot), each row its number
    on the left; the legend names the marks and how a hex is read, with a free one from the
    middle of the board's cells ((4,2), e3: the centre and the next are taken). The picture draws
    17 free cells, each row's cells half a cell (24 pixels) east of the row below."""
    game = hex_game()
    st = game.start(0)
    for cell in [(2, 2), (3, 2)]:
        choose(game, st, cell)
    text = layouts_text(game.program, state_grids(game.program, st)).splitlines()
    assert text == ["board:", "5          a   b   c", "", "", "4        a   b   c   d", "", "",
                    "3      a   b   R   B   e", "", "", "2        b   c   d   e", "", "", "1          c   d   e", "",
                    "B blue, R red", "a free hex shows its column, its row is on the left: e3 is the e of row 3"]
    # the language reference shows this very drawing
    assert "```\n" + "\n".join(text) + "\n```" in DOC.read_text(encoding="utf-8")
    svg = ElementTree.fromstring(layouts_picture(game.program, state_grids(game.program, st)))
    free = {e.get("data-cell"): float(e.get("x")) for e in svg.iter(f"{SVG}rect") if e.get("class") == "cell"}
    assert len(free) == 17 and "0,0" not in free and "2,2" not in free
    assert free["2,1"] - free["2,0"] == 24 and free["0,2"] - free["1,1"] == -24 and free["3,0"] - free["2,0"] == 48


def test_the_reference_shows_the_toy_games_own_rules():
    """The Boards section's hex example is the toy game's rules, line for line (its comments aside)."""
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("**Boards of a shape.**"):doc.index("## Components in YAML")]
    example = section[section.index("```snowrules\n") + 13:]
    example = example[:example.index("```")]
    rules = (HEX / "rules.sr").read_text().splitlines()
    lines = [line for line in example.splitlines() if not line.strip().startswith("#")]
    assert len(lines) == 16 and all(line in rules for line in lines)


def test_a_scenario_lays_stones_out_on_the_hexagon_and_refuses_one_off_it(tmp_path, capsys):
    assert main(["test", str(HEX)]) == 0
    folder = _changed(tmp_path, [("scenarios/closing_in.yaml", "at: [3, 2]", "at: [4, 3]")])
    scenario = folder / "scenarios" / "closing_in.yaml"
    line = next(n for n, text in enumerate(scenario.read_text().splitlines(), 1) if "[4, 3]" in text)
    capsys.readouterr()
    assert main(["test", str(folder)]) == 1
    out = capsys.readouterr().out
    assert f"closing_in.yaml:{line}:9: error: blue stone at (4,3) is off the board, whose 19 cells are the " \
           "squares of hexagon" in out, out


# ---- sizes from constants and options ----------------------------------------------------------
def test_a_boards_size_may_be_a_constant_or_an_option(tmp_path):
    folder = tmp_path / "board"
    shutil.copytree(BOARD, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("zone board shared public grid 5 by 4",
                                               "constant rows = 4\nzone board shared public grid columns by rows")
                     .replace("each x in 0..4", "each x in 0..columns - 1"))
    manifest = folder / "ruleset.yaml"
    option = "options:\n  columns: {default: 5, minimum: 3, maximum: 9, about: the board's columns}\n"
    manifest.write_text(manifest.read_text().replace('distinct: "5"', "distinct: columns") + option)
    for options, size in [((), (5, 4)), ((("columns", 7),), (7, 4))]:
        game = Game(load_program(str(folder), None, 2, options))
        (board,) = game.layout.boards.values()
        assert (board.width, board.height, board.hex) == (*size, False)
        st = game.start(0)
        assert [game.option_labels(st, st.pending.options[0])] == [[str(x) for x in range(size[0])]]


# ---- bad input ------------------------------------------------------------------------------------
BAD = [
    # (the file changed, the text replaced, its replacement, the reported line's text, column, message)
    ("rules.sr", "grid of hexagon hex", "grid of hexagn hex", "grid of hexagn", 34,
     "`grid of hexagn`: no component is named 'hexagn'"),
    ("rules.sr", "grid of hexagon hex", 'grid of "red stone" hex', "grid of \"red stone\"", 34,
     "`grid of red stone`: red stone has no `squares:` to be the board's cells"),
    ("rules.sr", "grid of hexagon hex", "grid of hexagon hexes", "grid of hexagon", 42,
     "unexpected 'hexes'"),
    ("rules.sr", "grid of hexagon hex", "grid shape hexagon hex", "grid shape", 31, "unexpected 'shape'"),
    ("rules.sr", 'each d in ["e", "ne", "nw"]', 'each d in ["e", "n", "nw"]', "run(board, c, d, p)", 0,
     "run(): 'n' is not a direction of a hex board"),
    ("rules.sr", 'neighbours(board, c, "hex")', 'neighbours(board, c, "orthogonal")', 'neighbours(board, c, "orth', 61,
     "neighbours(): 'orthogonal' is not an adjacency of a hex board"),
    ("rules.sr", "        move first(p.supply) to board at c\n",
     "        move first(p.supply) to board at {x: 0, y: 0}\n", "to board at {x: 0, y: 0}", 9,
     "red stone cannot go to board at (0,0): the cell is off the board, whose 19 cells are the squares of hexagon"),
    ("rules.sr", "where piece_at(board, c) == none]", "where piece_at(board, {x: 4, y: 4}) == none]",
     "piece_at(board, {x: 4", 0, "piece_at(): the cell (4,4) is off the board, whose 19 cells are the squares of "
     "hexagon"),
    ("components/board.yaml", "{dx: 2, dy: 0}", "{dx: -1, dy: 0}", "{dx: -1", 0, "-1 is less than the minimum of 0"),
    ("schemas/board.schema.json", '"minimum": 0', '"minimum": -5', "", 0, ""),  # (with the next row)
]


def _changed(tmp_path: Path, changes: list[tuple[str, str, str]]) -> Path:
    folder = tmp_path / "hex_board"
    shutil.copytree(HEX, folder)
    for name, old, new in changes:
        path = folder / name
        assert old in path.read_text(), old
        path.write_text(path.read_text().replace(old, new, 1))
    return folder


@pytest.mark.parametrize(("name", "old", "new", "line_text", "column", "message"), BAD[:-1],
                         ids=[row[5][:40] for row in BAD[:-1]])
def test_bad_hex_board_input_is_refused_at_its_place(tmp_path, capsys, name, old, new, line_text, column, message):
    refused_by_validate_and_run(capsys, _changed(tmp_path, [(name, old, new)]), name, line_text, column, message)


def test_a_square_west_of_the_origin_is_refused_at_the_name_when_the_schema_lets_it_through(tmp_path, capsys):
    folder = _changed(tmp_path, [BAD[-1][:3], ("components/board.yaml", "{dx: 2, dy: 0}", "{dx: -1, dy: 0}")])
    refused_by_validate_and_run(capsys, folder, "rules.sr", "grid of hexagon", 34,
             "`grid of hexagon`: its square (-1,0) lies west or south of (0,0)")


def test_the_hex_game_passes_openspiels_checks():
    """Through the adapter (cells offered numbered by position: the toy game declares no ids)."""
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    game = load_game(str(HEX))
    assert game.new_initial_state().legal_actions() == list(range(19))
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize(("value", "shown"), [({"x": 2, "y": 1}, "(2,1)"), ({"x": -1, "y": 0}, "(-1,0)"),
                                               ({"x": 1, "y": 2, "z": 3}, "{'x': 1, 'y': 2, 'z': 3}")])
def test_a_cell_record_offered_reads_as_its_coordinates(value, shown):
    """A decision that offers cells (records of x and y) shows each as a spot reads, (x,y), in a
    prompt, an account and the adapter's action strings; any other record as it is."""
    assert hex_game().label(value) == shown
