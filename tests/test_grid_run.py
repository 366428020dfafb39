"""Grid zones drawn in a game: `snowrules run` (the text grid at the end and with -v, --picture),
the human agent's layout before a spot, and the account's copy of the layout against the state.

Patchwork (tests/rulesets/patchwork) lays a start piece at the origin, then three dominoes. With
the `first` agent each domino goes to its first spot, the one of the smallest spot id
(model/grid.py `spot_id`: each coordinate folded 0, -1, 1, -2 -> 0, 1, 2, 3, the pair numbered
by Szudzik's pairing, times 4, plus the quarter turns). Worked by hand:

- domino A: anchors (0,0) (pair 0) covers the start; (0,-1) (pair 1) turned east covers
  (0,-1), (1,-1), touching the start: id 4.
- domino B: (0,0) and (0,-1) are occupied anchors; (-1,0) (pair 2) turned east would cover the
  start; turned south it covers (-1,0) and (-1,-1): id 9.
- domino C: anchors of pairs 0-3 ((0,0), (0,-1), (-1,0), (-1,-1)) are all occupied; (0,1)
  (pair 4) turned east covers (0,1), (1,1): id 16.
"""
from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.model.grid import visible
from snowrules.model.grid_zones import grid_of
from snowrules.model.state import State
from snowrules.play.agents import FirstAgent, HumanAgent, Observation, RandomAgent, play
from snowrules.play.grid_follower import GridFollower
from snowrules.play.layouts import layouts_picture, state_grids
from snowrules.runtime.engine import Game

PATCHWORK = Path(__file__).resolve().parent / "rulesets" / "patchwork"
SVG = "{http://www.w3.org/2000/svg}"

# The field once the `first` agent has laid the three dominoes (see above), by hand: (0,1) is
# domino C's path square (north-south), (1,1) its stone; (-1,0) and (-1,-1) domino B turned
# south (water and flower, then water); (0,-1) domino A's flower on its path west-east, (1,-1)
# the path's end coming from the west. Blocks are 5 wide: (-1,0) shows two letters.
FINAL = """\
field:
          |
 1        |    O
          |

 0  WF    O--


-1   W  --F-----

     -1   0    1
F flower, O stone, W water, - | path"""


def game() -> Game:
    return Game(load_program(str(PATCHWORK), None, 1))


def test_run_ends_the_account_with_the_text_grid(capsys):
    assert main(["run", str(PATCHWORK), "--agents", "first"]) == 0
    out = capsys.readouterr().out
    assert FINAL in out
    assert out.count("field:\n") == 1          # without -v, only at the end


def test_run_verbose_draws_the_layout_after_each_placement(capsys):
    assert main(["run", str(PATCHWORK), "--agents", "first", "-v"]) == 0
    out = capsys.readouterr().out
    assert out.count("field:\n") == 4 + 1      # the start piece, 3 dominoes, and the end
    # after the start piece alone: its stone, its path leaving east
    first = out.split("      field:\n", 1)[1].split("\n\n", 1)[0]
    assert first == "      0  O-"


def test_run_picture_draws_the_final_state(tmp_path, capsys):
    target = tmp_path / "field.svg"
    assert main(["run", str(PATCHWORK), "--agents", "first", "--picture", str(target), "--json"]) == 0
    assert capsys.readouterr().out.startswith("{")
    root = ElementTree.parse(target).getroot()
    squares = {r.get("data-cell"): (r.get("data-piece"), r.get("data-features"))
               for r in root.iter(f"{SVG}rect") if r.get("class") == "square"}
    assert squares == {"0,0": ("start", "stone"), "0,-1": ("domino A", "flower"), "1,-1": ("domino A", ""),
                       "-1,0": ("domino B", "water flower"), "-1,-1": ("domino B", "water"),
                       "0,1": ("domino C", ""), "1,1": ("domino C", "stone")}
    # and the same as the state's own visible squares
    g = game()
    st = play(g, [FirstAgent()], 0)
    shown = grid_of(g.layout, st, "field")
    assert {f"{s.cell.x},{s.cell.y}": g.layout.component_names[s.piece] for s in visible(shown.grid, shown.pieces)} \
        == {cell: piece for cell, (piece, _features) in squares.items()}


@pytest.mark.parametrize("arguments,message", [
    (["--picture", "out.png"], "ending in .svg"),
    (["--picture", "missing/out.svg"], "does not exist"),
    (["--picture", "folder.svg"], "is a folder"),
])
def test_run_picture_bad_paths(tmp_path, monkeypatch, capsys, arguments, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.svg").mkdir()
    assert main(["run", str(PATCHWORK), *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.svg"]


def test_run_picture_of_a_ruleset_without_grid_zones(tmp_path, capsys):
    assert main(["run", "snow_time", "--picture", str(tmp_path / "x.svg")]) == 2
    assert "has no grid zone to draw" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_human_agent_sees_the_layout_and_numbered_spots():
    written: list[str] = []
    answers = iter(["1", "1", "1"])
    g = game()
    st = play(g, [HumanAgent(lambda prompt: next(answers), written.append)], 0)
    first = written[:written.index("  1) (0,-1) turned east, covers nothing") + 1]
    assert first[-6:] == ["  field:", "  0  O-", "", "     0", "  O stone, - | path",
                          "  1) (0,-1) turned east, covers nothing"]
    # 12 dominoes touch a lone square without covering it, each laid 2 ways (its squares differ)
    decision = written[len(first) - 1:]
    decision = decision[:next(i for i, line in enumerate(decision) if not line.startswith("  ") or ") " not in line)]
    assert [line.split(")")[0].strip() for line in decision] == [str(n) for n in range(1, 25)]
    # the same choices as the first agent: the same layout
    assert state_grids(g.program, st) == state_grids(g.program, play(g, [FirstAgent()], 0))


def test_layout_of_a_decision_survives_clone_and_json():
    g = game()
    st = g.start(0)
    assert st.pending is not None
    copies = [st.clone(), State.from_json(st.to_json())]
    texts = []
    for state in [st, *copies]:
        written: list[str] = []
        HumanAgent(lambda prompt: "1", written.append).choose(Observation(g, state, 0, state.pending.options[0]))
        texts.append(written)
    assert texts[0] == texts[1] == texts[2]
    assert layouts_picture(g.program, state_grids(g.program, copies[1])) \
        == layouts_picture(g.program, state_grids(g.program, st))


def test_the_accounts_copy_of_the_layout_is_the_states():
    """The follower (what -v draws) against the state, after random games of Patchwork."""
    g = game()
    for seed in range(40):
        follower = GridFollower(g.layout)
        st = play(g, [RandomAgent(random.Random(seed).randrange(10**6))], seed, listen=follower.feed)
        zone = g.layout.zone_families["field"].base
        assert follower.grids[zone].to_json() == grid_of(g.layout, st, "field").grid.to_json()


def test_human_agent_sees_the_layout_again_once_it_changed():
    """Three tiles (grid-lang's test game) asks for a tile, then its spot; the last tile is the
    only choice left, so only its spot is asked. The layout comes before the first decision,
    before each spot (spots always come with their layout), and before any other decision only
    when it changed since it was last shown."""
    tiles = Game(load_program(str(PATCHWORK.parent / "tiles"), None, 1))
    written: list[str] = []
    play(tiles, [HumanAgent(lambda prompt: "1", written.append)], 0)
    headers = [i for i, line in enumerate(written) if line.lstrip("\n").startswith("--- ")]
    asked = [written[i].strip("\n -") for i in headers]
    shown = [written[start:end].count("  table:") for start, end in zip(headers, [*headers[1:], len(written)])]
    assert list(zip(asked, shown)) == [("builder to choose (tile)", 1), ("builder to choose (spot)", 1),
                                       ("builder to choose (spot)", 1)]
    written.clear()
    answers = ["1", "1"]  # then, below, an option that reads as a number is answered by that number
    agent = HumanAgent(lambda prompt: answers.pop(0), written.append)
    st = tiles.start(0)
    tile_choice = Observation(tiles, st, 0, st.pending.options[0])
    agent.choose(tile_choice)
    agent.choose(tile_choice)                 # the same decision again: the layout is not repeated
    assert written.count("  table:") == 1
    tiles.answer(st, [0])                     # tile B...
    tiles.answer(st, [0])                     # ...at its first spot: the layout changed
    hand = st.zones[tiles.layout.zone_families["hand"].base]
    answers.append(tiles.label(hand[0], st.pending.kind))
    agent.choose(Observation(tiles, st, 0, list(hand)))
    assert written.count("  table:") == 2


def test_the_follower_takes_a_turn_in_place_and_a_lift():
    """`turn c by 180` is told as a move from the grid zone to itself at the new anchor and
    rotation; a move out of the grid zone lifts the piece, and what it covered shows again."""
    from snowrules.model.events import Moved
    from snowrules.model.grid import Cell, Grid, Placement, place, turn_in_place
    g = game()
    layout = g.layout
    field_zone, stack = layout.zone_families["field"].base, layout.zone_families["stack"].base
    a = layout.component_names.index("domino A")
    follower = GridFollower(layout)
    follower.feed(Moved([a], stack, field_zone, "rules.sr:1:1", False, (0, 0, 0)))
    expected = Grid()
    place(expected, layout.pieces, a, Placement(Cell(0, 0), 0))
    turned = turn_in_place(expected, layout.pieces, a, 180)      # about its middle: anchor (1,0)
    assert (turned.anchor, turned.rotation) == (Cell(1, 0), 180)
    follower.feed(Moved([a], field_zone, field_zone, "rules.sr:1:1", False, (1, 0, 180)))
    assert follower.grids[field_zone].to_json() == expected.to_json()
    follower.feed(Moved([a], field_zone, stack, "rules.sr:1:1"))
    assert follower.grids[field_zone].to_json() == []
