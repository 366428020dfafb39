"""Drawing grid zones for people: the display declaration, the text grid and the SVG picture.

The expected grids are written by hand from the placements below (not printed by the code and
pasted): each square is a block 3 lines high, as wide as the most letters a square shows (made
odd) plus a line character each side; see play/grid_text.py.
"""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from snowrules.load.display import GridDisplay
from snowrules.load.ruleset import read_ruleset
from snowrules.model.grid import Cell, Grid, Piece, Placement, place, visible
from snowrules.play.grid_picture import SIZE, PictureError, grid_picture, write_picture
from snowrules.play.grid_text import EMPTY, grid_text

PATCHWORK = Path(__file__).resolve().parent / "rulesets" / "patchwork"
SVG = "{http://www.w3.org/2000/svg}"

# The Patchwork pieces (tests/rulesets/patchwork/components/pieces.yaml), numbered as listed.
PIECES = {
    0: Piece.from_data([{"dx": 0, "dy": 0, "marks": ["stone"], "path": ["e"]}], ["path"]),
    1: Piece.from_data([{"dx": 0, "dy": 0, "marks": ["flower"], "path": ["w", "e"]},
                        {"dx": 1, "dy": 0, "marks": [], "path": ["w"]}], ["path"]),
    2: Piece.from_data([{"dx": 0, "dy": 0, "marks": ["water", "flower"], "path": []},
                        {"dx": 1, "dy": 0, "marks": ["water"], "path": []}], ["path"]),
    3: Piece.from_data([{"dx": 0, "dy": 0, "marks": [], "path": ["n", "s"]},
                        {"dx": 1, "dy": 0, "marks": ["stone"], "path": []}], ["path"]),
}
NAMES = {0: "start", 1: "domino A", 2: "domino B", 3: "domino C"}
DISPLAY = GridDisplay("field", ("marks",), {"flower": "F", "stone": "O", "water": "W"},
                      {"flower": "#c2185b", "path": "#8d6e63"}, ("path",))


def layout() -> Grid:
    """start at (0,0); domino A east of it; domino B turned north from (0,1), so it covers (0,1)
    and (0,2); domino C from (1,-1) to (2,-1), its path running north-south through (1,-1)."""
    grid = Grid()
    place(grid, PIECES, 0, Placement(Cell(0, 0), 0))
    place(grid, PIECES, 1, Placement(Cell(1, 0), 0))
    place(grid, PIECES, 2, Placement(Cell(0, 1), 270))
    place(grid, PIECES, 3, Placement(Cell(1, -1), 0))
    return grid


# (0,1) shows two letters (W and F), so every block is 5 wide (3 for the letters, 1 each side).
# The y labels take 2 characters and a space. Row 2 has no north line: the grid starts there.
EXPECTED = """\
 2   W


 1  WF


 0   O----F-----

          |
-1        |    O
          |
     0    1    2
F flower, O stone, W water, - | path"""


def test_text_grid_of_a_hand_made_layout():
    assert grid_text(layout(), PIECES, DISPLAY) == EXPECTED


def test_text_grid_without_a_declaration_uses_first_letters_and_every_field():
    """No declaration: each value is drawn by its first letter, upper case; every field that is
    not a side field is a feature field; the side fields the pieces know are lines. One letter a
    square at most: blocks are 3 wide."""
    pieces = {0: Piece.from_data([{"dx": 0, "marks": ["stone"], "trail": ["e"]},
                                  {"dx": 1, "marks": [], "trail": ["w", "s"]}], ["trail"]),
              1: Piece.from_data([{"dx": 0, "marks": ["reed"]}, {"dx": 1, "marks": ["shell"]}]),
              2: Piece.from_data([{"dx": 0, "marks": []}])}
    grid = Grid()
    place(grid, pieces, 0, Placement(Cell(0, 0), 0))
    place(grid, pieces, 1, Placement(Cell(0, -1), 0))
    place(grid, pieces, 2, Placement(Cell(2, -1), 0))
    # (1,0) has no letter and its lines turn: `+`; (2,-1) shows nothing: `.`
    expected = (" 0  S--+\n"
                "       |\n"
                "\n"
                "-1  R  S  .\n"
                "\n"
                "    0  1  2\n"
                "R reed, S shell/stone, - | trail")
    assert grid_text(grid, pieces) == expected


def test_text_grid_turns_lines_with_the_piece_and_can_leave_the_legend_out():
    """Domino A turned south (90): its squares go from (0,0) down to (0,-1); its path, west-east
    unturned, runs north-south."""
    grid = Grid()
    place(grid, PIECES, 1, Placement(Cell(0, 0), 90))
    expected = ("    |\n"
                " 0  F\n"
                "    |\n"
                "    |\n"
                "-1  |\n"
                "\n"
                "    0")
    assert grid_text(grid, PIECES, DISPLAY, legend=False) == expected


def test_text_grid_stars_marked_cells_even_empty_ones_outside_the_layout():
    """The start at (0,0), its path east; (0,0) and the free cells (1,0) and (1,1) marked (a
    spot's squares where no piece is drawn): each marked block gets a `*` in its four corners,
    and the grid grows to take in (1,1)."""
    grid = Grid()
    place(grid, PIECES, 0, Placement(Cell(0, 0), 0))
    expected = ("     * *\n"      # one letter a square at most: blocks 3 wide
                "1\n"
                "     * *\n"
                "  * ** *\n"
                "0  O-\n"
                "  * ** *\n"
                "   0  1\n"
                "O stone, - | path")
    assert grid_text(grid, PIECES, DISPLAY, marked={Cell(0, 0), Cell(1, 0), Cell(1, 1)}) == expected


def test_text_grid_of_an_empty_grid():
    assert grid_text(Grid(), PIECES, DISPLAY) == EMPTY


def test_text_grid_shows_only_the_top_of_a_stack():
    """domino C laid over domino A: (1,0) shows C's path square, not A's flower."""
    grid = Grid()
    place(grid, PIECES, 1, Placement(Cell(0, 0), 0))
    place(grid, PIECES, 3, Placement(Cell(1, 0), 0))
    assert grid_text(grid, PIECES, DISPLAY).splitlines()[:3] == ["      |", "0 -F- |  O", "      |"]


def test_display_letters_colours_and_values():
    display = GridDisplay(letters={"bear": "U"}, colours={"bear": "#aa0000"})
    assert display.letter("bear") == "U"
    assert display.letter("bush") == "B"
    assert display.colour("bear") == "#aa0000"
    assert display.colour("bush") == display.colour("bush")   # stable, from the palette
    # text values, lists of texts, a true field by its own name; numbers and false draw nothing
    fields = {"marks": ["water", "flower", "water"], "kind": "pond", "lit": True, "dark": False, "depth": 3,
              "path": ["n"]}
    assert display.shown_values(fields, ["path"]) == ["water", "flower", "pond", "lit"]
    assert GridDisplay(features=("marks",)).shown_values(fields, ["path"]) == ["water", "flower"]
    assert GridDisplay(sides=()).drawn_sides(fields, ["path"]) == {}
    assert display.drawn_sides(fields, ["path"]) == {"path": ["n"]}


# ---- the SVG picture ------------------------------------------------------------------------------
def _picture(grid: Grid) -> ElementTree.Element:
    return ElementTree.fromstring(grid_picture({"field": (grid, PIECES)}, {"field": DISPLAY}, NAMES))


def test_picture_draws_every_visible_square_where_it_lies():
    grid = layout()
    root = _picture(grid)
    squares = root.findall(f".//{SVG}rect[@class='square']")
    state = {f"{s.cell.x},{s.cell.y}": s for s in visible(grid, PIECES)}
    assert len(squares) == len(state) == 7
    drawn = {rect.get("data-cell"): rect for rect in squares}
    assert set(drawn) == set(state)
    # positions: x grows east by one square size per cell, y grows down (north is up)
    origin = drawn["0,0"]
    for cell, rect in drawn.items():
        x, y = (int(v) for v in cell.split(","))
        assert int(rect.get("x")) - int(origin.get("x")) == x * SIZE
        assert int(rect.get("y")) - int(origin.get("y")) == -y * SIZE
        assert rect.get("data-piece") == NAMES[state[cell].piece]
    # features, by hand from the placements
    features = {cell: rect.get("data-features") for cell, rect in drawn.items()}
    assert features == {"0,0": "stone", "1,0": "flower", "2,0": "", "0,1": "water flower", "0,2": "water",
                        "1,-1": "", "2,-1": "stone"}
    discs = [(c.get("data-value"), c.get("fill")) for c in root.findall(f".//{SVG}circle[@class='feature']")]
    assert sorted(discs) == sorted([("stone", DISPLAY.colour("stone")), ("flower", "#c2185b"),
                                    ("water", DISPLAY.colour("water")), ("flower", "#c2185b"),
                                    ("water", DISPLAY.colour("water")), ("stone", DISPLAY.colour("stone"))])
    letters = sorted(t.text for t in root.findall(f".//{SVG}text") if t.get("fill") == "#ffffff")
    assert letters == ["F", "F", "O", "O", "W", "W"]


def test_picture_draws_side_lines_and_tile_borders():
    root = _picture(layout())
    lines = root.findall(f".//{SVG}line[@class='side']")
    sides = sorted((line.get("data-cell"), line.get("data-side")) for line in lines)
    assert sides == [("0,0", "e"), ("1,-1", "n"), ("1,-1", "s"), ("1,0", "e"), ("1,0", "w"), ("2,0", "w")]
    assert {line.get("stroke") for line in root.findall(f".//{SVG}line[@class='side']")} == {"#8d6e63"}
    # 7 squares x 4 sides, less the 3 sides shared inside a domino, counted from both squares
    assert len(root.findall(f".//{SVG}line[@class='border']")) == 28 - 2 * 3


def test_picture_of_several_zones_and_an_empty_one():
    root = ElementTree.fromstring(grid_picture({"field": (layout(), PIECES), "spare": (Grid(), PIECES)}))
    zones = root.findall(f"{SVG}g[@class='zone']")
    assert [z.get("data-zone") for z in zones] == ["field", "spare"]
    assert len(zones[1].findall(f".//{SVG}rect")) == 0
    assert "(no squares)" in [t.text for t in zones[1].findall(f".//{SVG}text")]


def test_picture_escapes_names():
    text = grid_picture({"a<b": (layout(), PIECES)}, {}, {0: 'the "start" & <end>'})
    root = ElementTree.fromstring(text)
    assert root.find(f"{SVG}g").get("data-zone") == "a<b"
    assert 'the "start" & <end>' in {r.get("data-piece") for r in root.iter(f"{SVG}rect")}


def test_write_picture_is_atomic(tmp_path):
    target = tmp_path / "layout.svg"
    write_picture(target, "<svg/>\n")
    assert target.read_text() == "<svg/>\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layout.svg"]
    (tmp_path / "folder.svg").mkdir()
    bad = [(tmp_path / "folder.svg", "is a folder"), (tmp_path / "no" / "x.svg", "does not exist"),
           (tmp_path / "layout.png", "ending in .svg")]
    for path, message in bad:
        with pytest.raises(PictureError, match=message):
            write_picture(path, "<svg>new</svg>")
    assert target.read_text() == "<svg/>\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.svg", "layout.svg"]


# ---- the display declaration, read from a ruleset ---------------------------------------------
def test_patchwork_declares_its_display():
    ruleset, _problems = read_ruleset(str(PATCHWORK))
    assert ruleset.display == {"field": GridDisplay(
        "field", ("marks",), {"flower": "F", "stone": "O", "water": "W"},
        {"flower": "#c2185b", "stone": "#616161", "water": "#1976d2", "path": "#8d6e63"}, ("path",))}


# Each row plants one mistake in Patchwork's `display:` (replacing `old` by `new` in ruleset.yaml)
# and names the message expected at the line of the change, at the column of `at` in that line.
BAD_DISPLAY = [  # (what, old, new, at, message)
    ('two letters', 'flower: F,', 'flower: FL,', 'FL',
     "display.field.letters.flower: 'FL' is not one letter or digit"),
    ('a line character', 'stone: O,', "stone: '-',", "'-'",
     "display.field.letters.stone: '-' is not one letter or digit"),
    ('a shared letter', 'water: W}', 'water: F}', 'F}',
     "display.field.letters: 'F' is given to both 'flower' and 'water'"),
    ('a colour name', 'water: "#1976d2"', 'water: blue', 'blue',
     "display.field.colours.water: 'blue' is not a colour"),
    ('a short colour', 'stone: "#616161"', 'stone: "#6161"', '"#6161"',
     "display.field.colours.stone: '#6161' is not a colour"),
    ('unknown zone', '  field:\n    features', '  feild:\n    features', 'feild',
     "display: unknown zone 'feild'"),
    ('not a grid zone', '  field:\n    features', '  stack:\n    features', 'stack',
     "display: zone 'stack' is not a grid zone"),
    ('unknown feature field', 'features: [marks]', 'features: [mark]', 'mark]',
     "display.field.features: no component's squares have the field 'mark'"),
    ('unknown side field', 'sides: [path]', 'sides: [paths]', 'paths',
     "display.field.sides: no component's squares have the field 'paths'"),
    ('a letter that is a number', 'flower: F,', 'flower: 7,', '7',
     "display.field.letters.flower: 7 is not of type 'string'"),
    ('an unknown part', 'sides: [path]', 'lines: [path]', 'lines',
     "display.field: unknown field 'lines'"),
]


@pytest.mark.parametrize("old,new,at,message", [row[1:] for row in BAD_DISPLAY], ids=[row[0] for row in BAD_DISPLAY])
def test_bad_display_declarations(tmp_path, monkeypatch, old, new, at, message):
    folder = tmp_path / "patchwork"
    shutil.copytree(PATCHWORK, folder)
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text()
    assert text.count(old) == 1
    text = text.replace(old, new)
    manifest.write_text(text)
    line_number = next(i for i, line in enumerate(text.splitlines(), 1) if new.splitlines()[0] in line)
    line = text.splitlines()[line_number - 1]
    monkeypatch.chdir(tmp_path)
    from snowrules.language.diagnostics import SnowrulesError
    try:
        _ruleset, problems = read_ruleset("patchwork")
    except SnowrulesError as error:      # a manifest that breaks its schema stops the reading
        problems = error.diagnostics
    shown = [str(p) for p in problems if p.position.path.endswith("ruleset.yaml")]
    expected_at = f"patchwork/ruleset.yaml:{line_number}:{line.index(at) + 1}: error"
    assert any(s.startswith(expected_at) and message in s for s in shown), shown


def test_the_docs_example_is_this_layout():
    """docs/language.md ("Drawing a grid zone") shows the text grid of `layout()`."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = text[text.index("## Drawing a grid zone"):]
    block = section[section.index("from (1,-1):\n\n```\n") + len("from (1,-1):\n\n```\n"):]
    assert block[:block.index("```")] == EXPECTED + "\n"


def test_validate_reports_a_bad_display_and_fails(tmp_path, monkeypatch, capsys):
    from snowrules.cli.main import main
    folder = tmp_path / "patchwork"
    shutil.copytree(PATCHWORK, folder)
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text().replace('water: "#1976d2"', "water: blue")
    manifest.write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "water: blue" in row)
    col = text.splitlines()[line - 1].index("blue") + 1
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "patchwork", "--no-play"]) == 1
    out, err = capsys.readouterr()
    assert f"patchwork/ruleset.yaml:{line}:{col}: error: display.field.colours.water: 'blue' is not a colour" \
        in out + err
    assert "[SR204]" in out + err
    assert "Traceback" not in out + err


def test_picture_marks_spots_and_grows_to_take_them_in():
    """Cells 0..2 east, -1..2 north; spots at (-1,0) and (3,3) widen it to 5 columns and 5 rows:
    304 = 2 x 32 + 5 x 48 wide, 292 = 28 + 5 x 48 + 24 high; a spot is drawn 3 inside its cell."""
    root = ElementTree.fromstring(grid_picture({"field": (layout(), PIECES)}, {"field": DISPLAY}, NAMES,
                                               {"field": [(-1, 0), (3, 3), (-1, 0)]}))
    assert (root.get("width"), root.get("height")) == ("304", "292")
    spots = [(r.get("data-cell"), r.get("x"), r.get("y"), r.get("width")) for r in root.iter(f"{SVG}rect")
             if r.get("class") == "spot"]
    assert spots == [("-1,0", "35", "175", "42"), ("3,3", "227", "31", "42")]
    square = next(r for r in root.iter(f"{SVG}rect") if r.get("data-cell") == "0,0")
    assert (square.get("x"), square.get("y")) == ("80", "172")


def test_a_spot_of_a_piece_out_of_sight_stars_only_its_squares(tmp_path):
    """Three tiles with its hand secret: the builder places tile B without seeing it, so `? N`
    draws the table as it is (tile A alone, (0,0) and (1,0)) with option 1's squares starred,
    (0,0) turned south: (0,0) and (0,-1), never tile B's marks."""
    from snowrules.compile.compiler import compile_ruleset
    from snowrules.load.ruleset import load_ruleset
    from snowrules.play.agents import Observation
    from snowrules.runtime.engine import Game
    folder = tmp_path / "tiles"
    shutil.copytree(Path(__file__).resolve().parent / "rulesets" / "tiles", folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("zone hand shared public", "zone hand shared secret"))
    (folder / "ruleset.yaml").write_text((folder / "ruleset.yaml").read_text()
                                         .replace("overlap: {default: 0", "overlap: {default: 1"))
    game = Game(compile_ruleset(load_ruleset(str(folder)), 1))
    st = game.start(0)
    game.answer(st, [0])                                   # the first tile of the hand: tile B
    observation = Observation(game, st, 0, st.pending.options[0])
    spot = observation.options[0]
    assert observation.label(spot) == "(0,0) turned south, covers 1 square of tile A"
    assert observation.spot_preview(spot, observation.view) == [
        "     table, the spot's squares marked *:",
        "        * * |",
        "      0  L--L",
        "        * *",
        "        * *",
        "     -1",
        "        * *",
        "         0  1",
        "     L leaf, - | path"]
