"""A board of a shape of more than a tile's 100 squares: a six-pointed star of 121 holes
(tests/rulesets/star_board, `grid of star hex`). Its geometry read by hand, the toy game played
through by random agents and through the OpenSpiel adapter, and the bounds of a component's
squares by its use (a board's 10,000 cells, a tile's 100 squares), each refused at its place.

The star in axial coordinates (x to the east, y to the north-east; z = 24 - x - y): the holes
whose x, y, z are all 4 or more (a triangle pointing north, its points (4,4), (16,4), (4,16)) or
all 12 or less (one pointing south, its points (12,0), (12,12), (0,12)); 91 + 91 - 61 = 121.
Drawn with each row half a hole east of the row below (row y holds x from .. to):

    y=16                    .                      4..4
    y=12  . . . . . . . . . . . . .                0..12
    y=8           . . . . . . . . .                4..12   (the centre (8,8); (12,8) a notch)
    y=4           . . . . . . . . . . . . .        4..16
    y=0                     .                      12..12
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import choose_cell as choose
from conftest import pieces_on_board as placed
from conftest import play_checked, refused_by_validate_and_run
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.model.grid import Cell
from snowrules.model.grid_board import Board
from snowrules.model.grid_zones import grid_of
from snowrules.runtime.engine import Game

STAR = Path(__file__).resolve().parent / "rulesets" / "star_board"
# the holes by the definition above, row by row from the south, each west to east
HOLES = [(x, y) for y in range(17) for x in range(17)
         if min(x, y, 24 - x - y) >= 4 or max(x, y, 24 - x - y) <= 12]


def star_game() -> Game:
    return Game(load_program(str(STAR), None, 2))


def star() -> Board:
    (board,) = star_game().layout.boards.values()
    return board


def cells(*pairs: tuple[int, int]) -> tuple[Cell, ...]:
    return tuple(Cell(*pair) for pair in pairs)


# ---- the geometry, by hand ----------------------------------------------------------------------
def test_the_star_has_121_holes_in_a_17_by_17_rhombus():
    board = star()
    assert len(HOLES) == 121 and (board.width, board.height, board.hex) == (17, 17, True)
    assert [(c.x, c.y) for c in board.cells] == HOLES
    assert board.cells[:6] == cells((12, 0), (11, 1), (12, 1), (10, 2), (11, 2), (12, 2))
    # the six points, the centre, and cells of the rhombus that are not holes (the corners, a notch's outside)
    assert [board.holds(*p) for p in [(12, 0), (16, 4), (12, 12), (4, 16), (0, 12), (4, 4), (8, 8)]] == [True] * 7
    assert [board.holds(*p) for p in [(0, 0), (16, 16), (13, 8), (3, 4), (13, 0), (16, 5)]] == [False] * 6
    assert board.extent() == "whose 121 cells are the squares of star"


@pytest.mark.parametrize(("cell", "expected"), [
    ((8, 8), [(8, 9), (9, 8), (9, 7), (8, 7), (7, 8), (7, 9)]),     # the centre: all six
    ((12, 0), [(12, 1), (11, 1)]),                                 # the south point: ne and nw only
    ((16, 4), [(15, 4), (15, 5)]),                                 # the east point: w and nw only
    ((12, 8), [(12, 9), (13, 7), (12, 7), (11, 8), (11, 9)]),      # a notch: e (13,8) is not a hole
    ((0, 12), [(1, 12), (1, 11)]),                                 # the west point: e and se only
])
def test_neighbours_at_the_stars_edge_are_the_holes_next_to_it(cell, expected):
    assert star().neighbours(Cell(*cell), "hex") == cells(*expected)


def test_lines_cross_the_star_from_point_to_point_and_end_at_its_edge():
    board = star()
    # from the south point north-east along x = 12, to the north-east point (12,12): 12 holes
    assert board.line(Cell(12, 0), "ne") == tuple(Cell(12, y) for y in range(1, 13))
    # through the centre: from (8,4) north-east, y 5 to 12 (x = 8 holds y 4 to 12)
    assert board.line(Cell(8, 4), "ne") == tuple(Cell(8, y) for y in range(5, 13))
    # along the north triangle's base, y = 4: from its west point east to its east point
    assert board.line(Cell(4, 4), "e") == tuple(Cell(x, 4) for x in range(5, 17))
    # north-west from the east point: x + y = 20, through (12,8) to the north point (4,16)
    assert board.line(Cell(16, 4), "nw") == tuple(Cell(16 - k, 4 + k) for k in range(1, 13))
    # from a notch east: (13,8) is a cell of the rhombus but not a hole, so the line is empty
    assert board.line(Cell(12, 8), "e") == ()
    assert board.line(Cell(9, 3), "w") == ()


# ---- in the rules: the toy game ------------------------------------------------------------------
def test_the_first_stone_may_go_on_any_hole_then_next_to_a_stone():
    game = star_game()
    st = game.start(0)
    assert [(o["x"], o["y"]) for o in st.pending.options[0]] == HOLES
    choose(game, st, (12, 0))
    # next to the south point: its two neighbours, in the board's order (row by row)
    assert [(o["x"], o["y"]) for o in st.pending.options[0]] == [(11, 1), (12, 1)]


def test_four_in_a_row_from_the_south_point_wins():
    # red (12,0), blue (11,1), red (12,1), blue (11,2), red (12,2), blue (11,3): blue's three in a
    # row win nothing; red (12,3) makes four along x = 12 (north-east): red wins.
    game = star_game()
    st = game.start(0)
    for cell in [(12, 0), (11, 1), (12, 1), (11, 2), (12, 2), (11, 3)]:
        choose(game, st, cell)
    assert game.outcome(st) is None
    choose(game, st, (12, 3))
    assert game.outcome(st).winners == [0]
    assert sorted(cell for cell, name in placed(game, st).items() if name == "red stone") == [
        (12, 0), (12, 1), (12, 2), (12, 3)]


@pytest.mark.parametrize("seed", range(6))
def test_random_agents_play_the_star_game_through(seed):
    """Every game ends (the invariants checked at each decision), every stone on a hole of the
    star, no more moves than its 121 holes, at least the 7 of a win."""
    game = star_game()
    st, choices = play_checked(game, seed, check_every=5)
    assert set(placed(game, st)) <= set(HOLES) and 7 <= len(choices) <= 121
    assert game.outcome(st).winners in ([0], [1], [0, 1])


def test_the_star_game_passes_openspiels_checks():
    """Through the adapter: 121 holes offered first, numbered by position."""
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    game = load_game(str(STAR))
    assert game.new_initial_state().legal_actions() == list(range(121))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# ---- the bounds of a component's squares, and reads off the star: refused at their place -------------
STAR_YAML = (STAR / "components" / "star.yaml").read_text()
SQUARES = STAR_YAML[STAR_YAML.index("    squares:\n"):]  # the star's squares, to the end of the file
FIRST = "- {dx: 12, dy: 0}"  # the first square: where the `squares:` list is reported
TABLE = ("zone supply per player public\n", "zone supply per player public\nzone table shared public grid\n")
SETUP = "        move [each c in box where c.owner == p] to p.supply\n"
THE_STAR = 'first([each c in box where c.name == "star"])'

BAD = [
    # (the changes: file, text, its replacement; the file reported, its line's text, column, message)
    ([("rules.sr", "grid of star hex", "grid 17 by 17 hex")], "components/star.yaml", FIRST, 7,
     "a tile has at most 100 squares; star has 121 (hint: no `grid of star` names it, so it is a tile"),
    ([("components/star.yaml", "{dx: 12, dy: 0}", "{dx: 700, dy: 0}")], "components/star.yaml", "{dx: 700", 7,
     "a board has at most 10,000 cells; the squares of star lie in 701 by 17, 11,917 cells"),
    ([("components/star.yaml", SQUARES, "    squares: [" + ", ".join(["{}"] * 10_001) + "]\n")],
     "components/star.yaml", "squares: [", 14, "this component has 10,001 squares, more than 10,000 (hint: a board "
     "has at most 10,000 cells, a tile at most 100 squares) [SR708]"),
    # a board placed as a tile: by a move, or asked where it may go
    ([("rules.sr", *TABLE), ("rules.sr", SETUP, SETUP + f"    move {THE_STAR} to table at "
                             "{cell: {x: 0, y: 0}, rotation: 0}\n")], "components/star.yaml", FIRST, 7,
     "a tile has at most 100 squares; star has 121"),
    ([("rules.sr", *TABLE), ("rules.sr", SETUP, SETUP + f"    let spots = placements(table, {THE_STAR}, 0)\n")],
     "components/star.yaml", FIRST, 7, "a tile has at most 100 squares; star has 121"),
    # reads and moves off the star
    ([("rules.sr", "where piece_at(board, c) == none]", "where piece_at(board, {x: 0, y: 0}) == none]")],
     "rules.sr", "piece_at(board, {x: 0", 0,
     "piece_at(): the cell (0,0) is off the board, whose 121 cells are the squares of star"),
    ([("rules.sr", "move first(p.supply) to board at c\n", "move first(p.supply) to board at {x: 13, y: 8}\n")],
     "rules.sr", "to board at {x: 13", 9,
     "red stone cannot go to board at (13,8): the cell is off the board, whose 121 cells are the squares of star"),
]


def _changed(tmp_path: Path, changes: list[tuple[str, str, str]]) -> Path:
    folder = tmp_path / "star_board"
    shutil.copytree(STAR, folder)
    for name, old, new in changes:
        path = folder / name
        assert path.read_text().count(old) == 1, old
        path.write_text(path.read_text().replace(old, new))
    return folder


@pytest.mark.parametrize(("changes", "name", "line_text", "column", "message"), BAD,
                         ids=[row[4][:48] for row in BAD])
def test_bad_star_input_is_refused_at_its_place(tmp_path, capsys, changes, name, line_text, column, message):
    refused_by_validate_and_run(capsys, _changed(tmp_path, changes), name, line_text, column, message)


@pytest.mark.parametrize(("row", "rule"), [(3, "rules.sr:13:5"), (4, "rules.sr:13:17")])
def test_a_board_placed_as_a_tile_is_refused_at_its_squares_naming_the_rule_that_placed_it(
        tmp_path, capsys, monkeypatch, row, rule):
    """(The rows above: the `move` and the `placements` call, each at its line.)"""
    monkeypatch.chdir(_changed(tmp_path, BAD[row][0]))
    assert main(["run", ".", "--seed", "1"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "components/star.yaml:13:7: error: a tile has at most 100 squares; star has 121 (hint: it is placed on a "
        f"grid as a tile at {rule}; as the board of `grid of star` it may have 10,000 cells, as a tile 100 squares) "
        "[SR740]")


def test_a_board_of_a_tiles_size_may_be_placed_as_a_tile_too(tmp_path):
    """The bound of a component used as both is the tile's: under it, a board's component may be
    placed on a grid (here the star cut to its south point's 10 holes)."""
    rows = [line for line in SQUARES.splitlines()[1:] if line.strip().startswith("- ")][:10]
    folder = _changed(tmp_path, [("components/star.yaml", SQUARES, "    squares:\n" + "\n".join(rows) + "\n"),
                                 ("rules.sr", *TABLE),
                                 ("rules.sr", SETUP, SETUP + f"    move {THE_STAR} to table at "
                                  "{cell: {x: 0, y: 0}, rotation: 0}\n"),
                                 ("rules.sr", "size(free_cells()) == 121", "size(free_cells()) == 10")])
    game = Game(load_program(str(folder), None, 2))
    st = game.start(0)
    assert [name for name in grid_of(game.layout, st, "table").names if name == "star"] == ["star"]
    assert len(st.pending.options[0]) == 10


def test_a_scenario_that_lays_the_star_on_a_grid_as_a_tile_is_refused_at_its_entry(tmp_path, capsys):
    folder = _changed(tmp_path, [("rules.sr", *TABLE)])
    (folder / "scenarios").mkdir(exist_ok=True)
    (folder / "scenarios" / "star_on_table.yaml").write_text(
        "name: the star laid on the table\nplayers: 2\nseed: 1\nsituation:\n  zones:\n    table:\n"
        '      - {component: "star", at: [0, 0]}\nchoices: []\nuntil: next decision\n'
        "expect:\n  decision: {seats: [red]}\n")
    assert main(["test", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "star_on_table.yaml:7:9: error: a tile has at most 100 squares; star has 121 (hint: it is placed on a " \
           "grid as a tile at this entry; as the board of `grid of star` it may have 10,000 cells, as a tile 100 " \
           "squares)" in out, out
