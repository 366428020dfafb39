"""Grid zones in the language (issue 11, constructs), on the test game tests/rulesets/tiles.

Three dominoes. Before any turn (x to the east, y to the north from the anchor):
  tile A: (0,0) leaf, path e      (1,0) leaf, path w n
  tile B: (0,0) leaf              (1,0) stone, path s
  tile C: (0,0) stone, path w e   (1,0) stone, path w e      (alike turned 180 degrees)
A turn of 90 degrees is clockwise: the offset (1,0) goes to (0,-1), a side e to s, n to e.
Every expected value below is worked out by hand from these tiles; the comments show how.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import round_trip, three_copies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.model.grid import Cell
from snowrules.model.grid_zones import grid_of
from snowrules.model.state import State
from snowrules.play.agents import FirstAgent, RandomAgent, play
from snowrules.runtime.engine import Game

TILES = Path(__file__).resolve().parent / "rulesets" / "tiles"


def tiles_game(overlap: int = 0) -> Game:
    return Game(load_program(str(TILES), None, 1, (("overlap", overlap),)))


def choose(game: Game, st: State, label: str) -> None:
    """Answer the pending decision with the option read as `label`."""
    labels = game.option_labels(st, st.pending.options[0])
    assert label in labels, f"{label!r} is not offered; offered: {labels}"
    game.answer(st, [labels.index(label)])


def layout(game: Game, st: State) -> dict[tuple[int, int], list[str]]:
    """Each occupied cell's stack, bottom first, as component names."""
    placed = grid_of(game.layout, st, "table")
    return {(c.x, c.y): [placed.names[layer.piece] for layer in stack] for c, stack in placed.grid.stacks.items()}


def said(events: list[dict]) -> list[str]:
    return [e["text"] for e in events if e["e"] == "say"]


# ---- placing, and reading the layout ----------------------------------------------------------
def test_a_game_lays_the_tiles_where_chosen_and_scores_the_layout_by_hand():
    # tile A at (0,0) turned east: (0,0) leaf path e, (1,0) leaf path w n.
    # tile C at (1,1) turned north (270): (1,0) -> (0,1), so cells (1,1), (1,2); path w e -> s n.
    # tile B at (0,2) turned south (90): (1,0) -> (0,-1), so leaf (0,2), stone (0,1), path s -> w.
    # Leaves (0,0) (1,0) (0,2): largest group 2. All 6 cells fill x 0..1, y 0..2: rectangle 6.
    # Paths: (0,0)e-(1,0)w, (1,0)n-(1,1)s, (1,1)n-(1,2)s: one path of 4; (0,1) leaves west to
    # nothing. Score 2 + 6 + 2 * 1 = 10.
    game = tiles_game()
    events: list[dict] = []
    st = game.start(0, sink=events.append)
    choose(game, st, "tile C")
    choose(game, st, "(1,1) turned north, covers nothing")
    choose(game, st, "(0,2) turned south, covers nothing")
    assert layout(game, st) == {(0, 0): ["tile A"], (1, 0): ["tile A"], (1, 1): ["tile C"], (1, 2): ["tile C"],
                                (0, 2): ["tile B"], (0, 1): ["tile B"]}
    assert said(events) == ["leaves 2 rectangle 6 paths 1"]
    assert game.outcome(st).scores == [10]
    moves = [e for e in events if e["e"] == "move" and e["to"] == "table"]
    assert [(e["what"], e["at"], e["turned"]) for e in moves] == [
        (["tile A"], [0, 0], 0), (["tile C"], [1, 1], 270), (["tile B"], [0, 2], 90)]


def test_the_zone_keeps_its_components_in_placement_order():
    game = tiles_game()
    st = game.start(0)
    choose(game, st, "tile C")
    choose(game, st, "(1,1) turned north, covers nothing")
    names = game.layout.component_names
    table = game.layout.zone_families["table"].base
    assert [names[c] for c in st.zones[table]] == ["tile A", "tile C"]


def test_the_first_tile_alone_offers_the_spots_around_it():
    # tile B next to tile A (cells (0,0), (1,0)), covering nothing: every anchor and rotation
    # whose two cells are free and touch A. Turned east (cells (x,y), (x+1,y)): y = 1 or -1 with
    # x = -1..1 (3 each), and (-2,0), (2,0): 8. Turned west (cells (x,y), (x-1,y)): the same
    # cells, anchors shifted by one: 8. Turned south (cells (x,y), (x,y-1)): x = 0 or 1 with the
    # pair (y, y-1) = (2,1) or (0,-1)... above: anchor y 2 (cells y 2,1) and below: anchor y -1;
    # and x = -1 or 2 with anchor y 0 (cells 0,-1) or 1 (cells 1,0): 2*2 + 2*2 = 8; north: 8.
    game = tiles_game()
    st = game.start(0)
    choose(game, st, "tile B")
    labels = game.option_labels(st, st.pending.options[0])
    assert len(labels) == 32 and len(set(labels)) == 32
    assert labels[0] == "(0,-1) turned east, covers nothing"


def test_a_symmetric_tile_is_offered_once_per_footprint():
    # tile C turned 180 about its middle puts the same stones and paths in the same cells: of
    # the 32 (anchor, rotation) pairs around tile A, each footprint comes twice, so 16 spots.
    game = tiles_game()
    st = game.start(0)
    choose(game, st, "tile C")
    assert len(st.pending.options[0]) == 16


def test_covering_a_tile_hides_its_squares_and_lifting_is_refused():
    # With overlap 2, tile C on tile A at (0,0) turned east covers both of A's squares.
    game = tiles_game(overlap=2)
    events: list[dict] = []
    st = game.start(0, sink=events.append)
    choose(game, st, "tile C")
    choose(game, st, "(0,0) turned east, covers 2 squares of tile A")
    assert layout(game, st) == {(0, 0): ["tile A", "tile C"], (1, 0): ["tile A", "tile C"]}
    chosen = [e["option"] for e in events if e["e"] == "choice"]
    assert chosen == ["tile C", "(0,0) turned east, covers 2 squares of tile A"]


def test_the_view_shows_the_layout_and_the_state_keeps_it_as_plain_data():
    game = tiles_game()
    st = game.start(0)
    choose(game, st, "tile C")
    choose(game, st, "(1,1) turned north, covers nothing")
    assert game.view(st, 0)["grids"] == {"table": [
        [0, 0, [["tile A", 0, 0]]], [1, 0, [["tile A", 1, 0]]], [1, 1, [["tile C", 0, 270]]],
        [1, 2, [["tile C", 1, 270]]]]}
    data = json.loads(json.dumps(st.to_json()))
    table = game.layout.zone_families["table"].base
    assert data["grids"] == [[table, [[0, 0, [[0, 0, 0]]], [1, 0, [[0, 1, 0]]], [1, 1, [[2, 0, 270]]],
                                      [1, 2, [[2, 1, 270]]]]]]
    assert State.from_json(data) == st


def test_clone_and_json_round_trip_at_a_spot_decision_play_on_alike():
    game = tiles_game(overlap=1)
    st = game.start(0)
    choose(game, st, "tile B")
    assert st.pending.variable == "spot"
    copies = three_copies(st)
    finals = []
    for copy in copies:
        choose(game, copy, "(2,0) turned west, covers 1 square of tile A")   # B covers A's (1,0)
        choose(game, copy, "(0,1) turned east, covers nothing")
        finals.append(json.dumps(copy.to_json(), sort_keys=True))
    assert finals[0] == finals[1] == finals[2]
    # the clone's grid is its own: the original's changes did not reach the copy made before them
    assert layout(game, copies[1])[(1, 0)] == ["tile A", "tile B"]
    assert st.grids is not copies[1].grids


def test_turning_a_tile_in_place_swaps_its_squares_and_is_logged(tmp_path):
    # tile A turned 180 about its middle: anchored at (1,0), square 0 (path e -> w) at (1,0),
    # square 1 (path w n -> e s) at (0,0); the same two cells
    game, events = run_rules(tmp_path, """
    turn tile("tile A") by 180
    announce [s.path for each s in squares(table)], [c.x for each c in cells_of(table, tile("tile A"))]
""")
    assert said(events) == ["e, s, w 1, 0"]
    turned = [e for e in events if e["e"] == "move" and e["from"] == e["to"] == "table"]
    assert [(e["at"], e["turned"]) for e in turned] == [([1, 0], 180)]


def test_a_grid_games_log_lines_follow_the_log_schema():
    from jsonschema import Draft202012Validator
    from snowrules.load.ruleset import GENERIC_SCHEMAS
    validator = Draft202012Validator(json.loads((GENERIC_SCHEMAS / "log_event.schema.json").read_text()))
    game = tiles_game(1)
    for seed in range(5):
        events: list[dict] = []
        play(game, [RandomAgent(seed)], seed, sink=events.append)
        placed = [e for e in events if e["e"] == "move" and "at" in e]
        assert len(placed) == 3
        for event in events:
            assert not list(validator.iter_errors(event)), event


def test_moving_a_tile_within_its_grid_lifts_it_first(tmp_path):
    # tile A is turned in place from east to west: anchored at (1,0) its squares swap cells
    game, events = run_rules(tmp_path, """
    let a = tile("tile A")
    move a to table at {cell: {x: 1, y: 0}, rotation: 180}
    announce [s.marks for each s in squares(table)], [s.path for each s in squares(table)]
""")
    # turned 180: square 0 (path e -> w) at (1,0), square 1 (path w n -> e s) at (0,0)
    assert said(events) == ["leaf, leaf e, s, w"]


# ---- the reading functions, on a hand-made layout ------------------------------------------------
HEAD = """game "probe"
zone table shared public grid
zone hand shared public
counter score per player from 0 to 999
define tile(name) = first([each c in components where c.name == name])
"""


def run_rules(tmp_path: Path, body: str, overlap: int = 0):
    """The tiles game with its rules replaced: `setup` puts tile A at the origin, then `body`."""
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    rules = HEAD + "setup:\n    move tile(\"tile A\") to table at {cell: {x: 0, y: 0}, rotation: 0}\n" + body
    rules += "each turn:\n    end game winners players\n"
    (folder / "rules.sr").write_text(rules)
    game = Game(compile_ruleset(load_ruleset(str(folder), None, {"overlap": overlap}), 1))
    events: list[dict] = []
    play(game, [FirstAgent()], 1, sink=events.append)
    return game, events


def test_squares_neighbours_rows_columns_and_the_rectangle(tmp_path):
    # A at (0,0) east: leaf (0,0), leaf (1,0). B at (0,1) east: leaf (0,1), stone (1,1).
    # C at (2,1) south: stone (2,1), stone (2,0), path w e -> n s on both.
    # Rows y=0: (0,0) (1,0) (2,0); y=1: (0,1) (1,1) (2,1). Columns x=0, 1, 2 with 2 squares each.
    # The neighbours of (1,0): north (1,1), east (2,0), west (0,0), no south: 3. (1,0) is not
    # surrounded. Leaves: (0,0) (1,0) (0,1), one group of 3. The rectangle of all: 3 x 2 = 6;
    # of the stones (1,1) (2,1) (2,0): 2 cells, first by its south-west corner: (2,0)-(2,1).
    # The stones' paths by cell: (1,1) B's s (turned 0), (2,0) and (2,1) C's n s (turned 90).
    game, events = run_rules(tmp_path, """
    move tile("tile B") to table at {cell: {x: 0, y: 1}, rotation: 0}
    move tile("tile C") to table at {cell: {x: 2, y: 1}, rotation: 90}
    let every = squares(table)
    let stones = [each s in every where "stone" in s.marks]
    announce size(every), [s.cell.x for each s in every], [s.cell.y for each s in every]
    announce size(grid_neighbours(table, {x: 1, y: 0})), surrounded(table, {x: 1, y: 0})
    announce [size(r) for each r in rows(every)], [first(r).cell.y for each r in rows(every)]
    announce [size(c) for each c in columns(every)], [first(c).cell.x for each c in columns(every)]
    announce [size(g) for each g in largest_groups([each s in every where "leaf" in s.marks])]
    announce largest_rectangle(every).area, largest_rectangle(every).width, largest_rectangle(every).height
    let r = largest_rectangle(stones)
    announce r.area, r.low.x, r.low.y, r.high.x, r.high.y, size(r.cells)
    announce [name_of(s.piece) for each s in grid_neighbours(table, {x: 1, y: 0})]
    announce first(every).piece.kind, first(every) in every, size(unique(flatten([every, every])))
    announce [s.path for each s in stones]
""")
    assert said(events) == [
        "6 0, 0, 1, 1, 2, 2 0, 1, 0, 1, 0, 1",
        "3 false",
        "3, 3 0, 1",
        "2, 2, 2 0, 1, 2",
        "3",
        "6 3 2",
        "2 2 0 2 1 2",
        "tile B, tile C, tile A",
        "tile true 6",
        "s, n, s, n, s",
    ]


def test_connected_groups_by_a_side_field_link_only_where_both_sides_meet(tmp_path):
    # A (0,0) e, (1,0) w n. C at (1,1) north: (1,1), (1,2) both n s. B at (2,0) east:
    # (2,0) leaf no path, (3,0) stone path s. Side links: (0,0)e-(1,0)w, (1,0)n-(1,1)s,
    # (1,1)n-(1,2)s: one group of 4; (3,0) lists s, its south is empty: a group of 1; (2,0)
    # lists no side and is left out. Without the side field all 6 squares touch: one group.
    game, events = run_rules(tmp_path, """
    move tile("tile C") to table at {cell: {x: 1, y: 1}, rotation: 270}
    move tile("tile B") to table at {cell: {x: 2, y: 0}, rotation: 0}
    announce [size(g) for each g in connected_groups(squares(table), "path")]
    announce [size(g) for each g in connected_groups(squares(table))]
    announce [size(g) for each g in connected_groups([each s in squares(table) where "leaf" in s.marks])]
""")
    assert said(events) == ["4, 1", "6", "3"]


def test_a_diagonal_is_never_a_neighbour_nor_a_link(tmp_path):
    # B at (1,1) east: leaf (1,1) touches A's (1,0) leaf... move it to (2,1): leaf (2,1) is only
    # diagonal to A's (1,0): two leaf groups of 2 and 1, and (1,0)'s neighbours are just (0,0).
    game, events = run_rules(tmp_path, """
    move tile("tile B") to table at {cell: {x: 2, y: 1}, rotation: 0}
    announce [size(g) for each g in connected_groups([each s in squares(table) where "leaf" in s.marks])]
    announce [s.cell.x for each s in grid_neighbours(table, {x: 1, y: 0})]
""")
    assert said(events) == ["2, 1", "0"]


def test_covered_uncovered_and_cells_of(tmp_path):
    # B at (1,0) east lies on A's (1,0) and on the empty (2,0): A is covered, B is not.
    game, events = run_rules(tmp_path, """
    move tile("tile B") to table at {cell: {x: 1, y: 0}, rotation: 0}
    announce covered(table, tile("tile A")), covered(table, tile("tile B")), uncovered(table)
    announce [c.x for each c in cells_of(table, tile("tile A"))], [c.x for each c in cells_of(table, tile("tile B"))]
    announce size(cells_of(table, tile("tile C"))), size(squares(table))
    announce [first(s.marks) for each s in squares(table)]
""")
    assert said(events) == ["true false tile B", "0, 1 1, 2", "0 3", "leaf, leaf, stone"]


def test_placements_with_overlap_count_what_each_spot_covers(tmp_path):
    # tile B over tile A alone, covering at most 1: the 32 spots that cover nothing, plus those
    # covering exactly 1 of A's squares with the other square free: B's first or second square
    # on (0,0) or (1,0), the other cell outside A: each of A's cells has 3 free neighbours, and
    # B may lie with either square on it: 2 cells * 3 directions * 2 = 12. 32 + 12 = 44.
    game, events = run_rules(tmp_path, """
    let spots = placements(table, tile("tile B"), 1)
    announce size(spots), size([each s in spots where s.covers == 1])
    announce size(placements(table, tile("tile B"), 0)), size(placements(table, tile("tile B"), 2))
    let one = first([each s in spots where s.covers == 1])
    announce one.cell.x, one.cell.y, one.rotation, [c.x for each c in one.cells], [name_of(p) for each p in one.covered]
    announce one, one.cell, {x: 1, y: 2, z: 3}
""")
    # 2 covering both: B turned east at (0,0) and west at (1,0) (B's squares differ: not alike)
    # the first spot covering 1, by id: anchor (0,0) turned south covers (0,0), (0,-1)
    assert said(events) == ["44 12", "32 46", "0 0 90 0, 0 tile A",
                            "(0,0) turned south, covers 1 square of tile A (0,0) {'x': 1, 'y': 2, 'z': 3}"]


# ---- bad rules: reported at path:line:col while checking -----------------------------------------
BAD_RULES = [  # (the setup line after tile A is placed, the message)
    ('    move tile("tile B") to table\n',
     "rules.sr:8:28: error: 'table' is a grid zone: a component goes there at a spot"),
    ('    move tile("tile B") to hand at {cell: {x: 1, y: 0}, rotation: 0}\n',
     "rules.sr:8:28: error: `at` a spot needs a grid zone; 'hand' is not one"),
    ("    move all from hand to table\n",
     "rules.sr:8:27: error: 'table' is a grid zone: a component goes there at a spot"),
    ('    move tile("tile B") to table at 3\n',
     "rules.sr:8:37: error: the spot must be a record such as placements(...) gives, not a number"),
    ("    announce size(squares(hand))\n",
     "rules.sr:8:27: error: squares() needs a grid zone; 'hand' is not one"),
    ('    announce size(connected_groups(squares(table), "marks"))\n',
     "rules.sr:8:52: error: 'marks' is not a side field"),
    ('    announce size(placements(table, tile("tile B")))\n',
     "rules.sr:8:19: error: placements() takes 3 argument(s), given 2"),
    ('    announce surrounded(table, 3)\n',
     "rules.sr:8:32: error: the second argument of surrounded() must be a table row, not a number"),
]


@pytest.mark.parametrize("line, message", BAD_RULES)
def test_a_wrong_use_of_a_grid_zone_is_reported_where_it_is(tmp_path, line, message):
    with pytest.raises(RulesetError) as error:
        run_rules(tmp_path, line)
    assert message in str(error.value)


# ---- bad moves: refused when the game runs, at the rule -----------------------------------------
BAD_MOVES = [  # (setup lines after tile A is placed, with overlap 2; the message)
    # the spot was worked out before tile C took its cells: it now covers what it did not
    ('    let spots = placements(table, tile("tile B"), 0)\n'
     '    move tile("tile C") to table at first(spots)\n'
     '    move tile("tile B") to table at first(spots)\n',
     "rules.sr:10:5: error: tile B cannot go to table at (0,-1) turned east: it now covers 2 occupied squares, not 0"),
    # tile C lies on tile A: A cannot leave the table
    ('    move tile("tile C") to table at {cell: {x: 0, y: 0}, rotation: 0}\n'
     '    move tile("tile A") to hand\n',
     "rules.sr:9:5: error: tile A cannot leave table: tile C lies on it"),
    ('    move tile("tile C") to table at {cell: {x: 0, y: 0}, rotation: 0}\n'
     '    move all from table to hand\n    move tile("tile A") to table at {cell: {x: 0, y: 0}}\n',
     "rules.sr:10:5: error: not a spot"),
    ('    move tile("tile B") to table at {cell: {x: 0, y: 0}, rotation: 45}\n',
     "rules.sr:8:5: error: not a spot"),
    ('    move tile("tile B") to table at {cell: {x: 5, y: 5}, rotation: 0, covers: 0}\n',
     "rules.sr:8:5: error: tile B cannot go to table at (5,5) turned east: it no longer touches the layout"),
    # turning in place: a domino turned 90 degrees would need other cells
    ('    turn tile("tile A") by 90\n', "rules.sr:8:5: error: tile A turned 90 degrees would not cover the same cells"),
    ('    move tile("tile C") to table at {cell: {x: 1, y: 0}, rotation: 0}\n    turn tile("tile A") by 180\n',
     "rules.sr:9:5: error: tile A cannot turn: tile C lies on it"),
    ('    turn tile("tile B") by 180\n', "rules.sr:8:5: error: tile B is in box, not on a grid zone"),
    ('    turn tile("tile A") by 45\n', "rules.sr:8:5: error: a turn is a whole number of quarter turns"),
    ("    move 1 at random from table to hand\n",
     "rules.sr:8:5: error: a grid zone is not drawn from or dealt to at random"),
]


@pytest.mark.parametrize("lines, message", BAD_MOVES)
def test_a_move_the_layout_cannot_take_stops_at_its_rule(tmp_path, lines, message):
    with pytest.raises(RuntimeRulesError) as error:
        run_rules(tmp_path, lines, overlap=2)
    assert message in str(error.value)


@pytest.mark.parametrize("line", ["    move 1 at random from table to hand\n",
                                  "    move 1 at random from hand to table\n"], ids=["from-the-grid", "onto-the-grid"])
def test_an_explicit_draw_with_a_grid_zone_is_refused_before_its_chance_node(tmp_path, line):
    """With explicit chance (how OpenSpiel sees a game) a draw waits as a chance node: one from or
    to a grid zone is refused where the rule is before any node is offered, not once an outcome
    is taken, so that no node is offered that cannot be taken."""
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    (folder / "rules.sr").write_text(HEAD + "setup:\n    move tile(\"tile A\") to table at {cell: {x: 0, y: 0}, "
                                     "rotation: 0}\n    move tile(\"tile B\") to hand\n" + line
                                     + "each turn:\n    end game winners players\n")
    game = Game(compile_ruleset(load_ruleset(str(folder), None, {"overlap": 0}), 1, True))
    with pytest.raises(RuntimeRulesError) as error:
        game.start(0, explicit=True)
    assert "rules.sr:9:5: error: a grid zone is not drawn from or dealt to at random" in str(error.value)


def test_a_move_out_of_the_grid_lifts_the_tile_and_uncovers_what_it_lay_on(tmp_path):
    # C on A's squares, then C back to the hand: A shows again; then all of the table (A) goes
    # to the hand, which holds C and A (B stays in the box)
    game, events = run_rules(tmp_path, """
    move tile("tile C") to table at {cell: {x: 0, y: 0}, rotation: 0}
    announce [first(s.marks) for each s in squares(table)]
    move tile("tile C") to hand
    announce [first(s.marks) for each s in squares(table)], uncovered(table)
    move all from table to hand
    announce size(squares(table)), size(hand)
""")
    assert said(events) == ["stone, stone", "leaf, leaf tile A", "0 2"]


# ---- random playouts ---------------------------------------------------------------------------
def check_layout(game: Game, st: State) -> None:
    """Every component on the table lies on the grid with one layer per square, and nothing
    else does; every cell's stack is non-empty."""
    placed = grid_of(game.layout, st, "table")
    table = game.layout.zone_families["table"].base
    layers: dict[int, int] = {}
    for stack in placed.grid.stacks.values():
        assert stack
        for layer in stack:
            layers[layer.piece] = layers.get(layer.piece, 0) + 1
    assert layers == {c: len(placed.pieces[c].squares) for c in st.zones[table]}
    assert sorted(c for zone in st.zones for c in zone) == list(range(len(game.layout.component_names)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**32 - 1), overlap=st_.integers(0, 2))
def test_random_games_keep_the_layout_consistent_and_json_exact(seed, overlap):
    game = tiles_game(overlap)
    st = game.start(seed)
    agent = RandomAgent(seed)
    while st.result is None:
        check_layout(game, st)
        assert round_trip(st) == st
        options = st.pending.options[0]
        game.answer(st, [agent.choose_index(len(options))])
    check_layout(game, st)
    # 3 tiles of 2 squares: at most 6 cells; covering only with overlap
    cells = len(grid_of(game.layout, st, "table").grid.stacks)
    assert cells == 6 if overlap == 0 else 2 <= cells <= 6


def test_a_played_through_game_matches_the_stepped_game():
    # play() with random agents runs the plain build; stepping, the stoppable one
    game = tiles_game(1)
    for seed in range(20):
        fast = play(game, [RandomAgent(seed)], seed)
        slow = play(game, [RandomAgent(seed)], seed, listen=lambda e: None)
        assert fast.to_json()["grids"] == slow.to_json()["grids"], seed
        assert game.outcome(fast).scores == game.outcome(slow).scores


def test_cell_order_of_the_grid_accessor():
    game = tiles_game()
    st = game.start(0)
    placed = grid_of(game.layout, st, "table")
    assert sorted(placed.grid.stacks) == [Cell(0, 0), Cell(1, 0)]
    with pytest.raises(KeyError):
        grid_of(game.layout, st, "hand")


# ---- scenarios: a layout in the situation, a layout expected ----------------------------------
SCENARIO = """name: probe
players: 1
situation:
  zones:
    table:
      - {component: tile A, at: [0, 0]}
      - %s
    hand: []
until: next decision
expect:
  zones:
    table:
      - {component: tile A, at: [0, 0]}
      - {component: tile C, at: [1, 1], turned: 270}
"""


def scenario(tmp_path: Path, second: str) -> tuple[Path, Path]:
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    path = folder / "scenarios" / "probe.yaml"
    path.write_text(SCENARIO % second)
    return folder, path


def test_the_bundled_scenarios_of_the_test_game_pass():
    from snowrules.records.scenarios import run_all
    results = run_all(str(TILES))
    assert [(r.name, r.passed, r.failures) for r in results] == [
        ("A covered square no longer counts", True, []),
        ("A laid-out layout scores its leaves, rectangle and paths", True, [])]


def test_a_scenario_whose_layout_differs_says_where_each_tile_lies(tmp_path):
    from snowrules.records.scenarios import run_scenario
    folder, path = scenario(tmp_path, "{component: tile C, at: [1, 1], turned: 180}")  # cells (1,1), (0,1)
    result = run_scenario(path, str(folder))
    assert not result.passed
    assert [f.split("probe.yaml:", 1)[1] for f in result.failures] == [
        "13:7: tile C lies at (1,1) turned west, expected (1,1) turned north"]


BAD_SCENARIO_ROWS = [  # (the second entry under table, the message at line 7 of the scenario)
    ("{component: tile Z, at: [1, 1]}", "7:9: error: unknown component 'tile Z'"),
    ("{component: tile C, at: [1, 1], turned: 45}",
     "7:9: error: `turned` must be 0, 90, 180 or 270 (clockwise degrees), not 45"),
    ("{component: tile C, at: [1]}", "7:9: error: `at` must be a cell [x, y], not [1]"),
    ("{component: tile C, at: [1, 0], turned: 270}",
     "7:9: error: tile C at (1,0) turned north would lie on tile A at (1,0)"),
    ("tile C", "7:9: error: table is a grid zone: each component needs a place"),
]


@pytest.mark.parametrize("second, message", BAD_SCENARIO_ROWS)
def test_a_bad_layout_in_a_scenario_is_reported_at_its_line(tmp_path, second, message):
    from snowrules.language.diagnostics import ScenarioError
    from snowrules.records.scenarios import run_scenario
    folder, path = scenario(tmp_path, second)
    with pytest.raises(ScenarioError) as error:
        run_scenario(path, str(folder))
    assert f"probe.yaml:{message}" in str(error.value)


def test_the_docs_reading_example_runs_on_the_test_game(tmp_path):
    # docs/language.md "Grids": the block defining leaves(), on the layout of the first test:
    # A (0,0) (1,0), C (1,1) (1,2), B (0,2) leaf (0,1) stone. Leaves in rows y 0 and 2 (2 rows),
    # columns x 0 and 1 (2); rectangle 6. (0,0) has neighbours north (0,1) and east (1,0) only:
    # not surrounded. Nothing is covered: all three tiles, A first; A covers (0,0), (1,0).
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    block = next(b for b in text.split("```snowrules\n")[1:] if b.startswith("define leaves()")).split("```")[0]
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    setup = ('setup:\n'
             '    move tile("tile A") to table at {cell: {x: 0, y: 0}, rotation: 0}\n'
             '    move tile("tile C") to table at {cell: {x: 1, y: 1}, rotation: 270}\n'
             '    move tile("tile B") to table at {cell: {x: 0, y: 2}, rotation: 90}\n')
    rules = HEAD + setup + block + "    end game winners players\n"   # the block ends in `each turn:`
    (folder / "rules.sr").write_text(rules)
    game = Game(compile_ruleset(load_ruleset(str(folder)), 1))
    events: list[dict] = []
    play(game, [FirstAgent()], 1, sink=events.append)
    assert said(events) == ["2 2 6", "false tile A, tile B, tile B, tile A, tile C, tile C",
                            "tile A, tile C, tile B false (0,0), (1,0)"]


# ---- OpenSpiel: spots are actions with stable ids ------------------------------------------------
def test_openspiel_plays_the_test_game_with_spot_ids():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import get_all_states
    from snowrules.adapters.openspiel import load_game
    from snowrules.model.grid_spots import spot_id
    pyspiel.random_sim_test(load_game(str(TILES), players=1, overlap=1), num_sims=5, serialize=True, verbose=False)
    game = load_game(str(TILES), players=1)
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])   # tile B (component ids 1, 2: positions 0, 1)
    # B's spots beside A: their ids are spot_id(anchor, rotation): (0,-1) turned east is 4
    assert state.action_to_string(0, spot_id(Cell(0, -1), 0)) == "(0,-1) turned east, covers nothing"
    assert spot_id(Cell(0, -1), 0) in state.legal_actions() and len(state.legal_actions()) == 32
    # the perfect-recall information state notes each layout it saw: B (id 1) now at (0,-1), (1,-1)
    state.apply_action(spot_id(Cell(0, -1), 0))
    last_seen = state.information_state_string(0).splitlines()[-2]
    assert last_seen.endswith("grids.table=[[0, -1, [[1, 0, 0]]], [0, 0, [[0, 0, 0]]], [1, -1, [[1, 1, 0]]], "
                              "[1, 0, [[0, 1, 0]]]]")
    # the best score of the whole tree: 3 leaves in a group, a 2 x 3 rectangle, A's and C's
    # paths apart (2 paths): 3 + 6 + 2 * 2 = 13
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                           include_chance_states=False)
    assert max(s.returns()[0] for s in states.values() if s.is_terminal()) == 13


# ---- bad squares in a component list ----------------------------------------------------------
BAD_SQUARES = [  # (tile A's squares as written, the message at tile A's entry)
    ("[{dx: 0, dy: 0, marks: [leaf], path: [e]}, {dx: 0, dy: 0, marks: [leaf], path: [w]}]",
     "tile A: two squares at the same offset"),
    ("[{dx: 0, dy: 0, marks: [leaf], path: [e], cell: 1}]",
     "tile A: a square's field cannot be named 'cell'"),
    ("[]", "tile A: `squares` must be a list of squares"),
    ("[{dx: half, dy: 0, marks: [], path: []}]", "tile A: a square's dx must be a whole number, not 'half'"),
]


@pytest.mark.parametrize("squares, message", BAD_SQUARES)
def test_bad_squares_are_reported_at_the_component(tmp_path, squares, message):
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    (folder / "schemas" / "tile.schema.json").write_text('{"type": "object"}')   # only the interpreter checks
    tiles = (folder / "components" / "tiles.yaml").read_text()
    start = tiles.index("  - name: tile A")
    end = tiles.index("  # a leaf beside")
    (folder / "components" / "tiles.yaml").write_text(
        tiles[:start] + f"  - {{name: tile A, kind: tile, squares: {squares}}}\n" + tiles[end:])
    line = tiles[:start].count("\n") + 1
    with pytest.raises(RulesetError) as error:
        compile_ruleset(load_ruleset(str(folder)), 1)
    assert f"tiles.yaml:{line}:5: error: {message}" in str(error.value)


def test_a_grid_per_player_keeps_one_layout_per_seat_and_plain_components_are_one_square(tmp_path):
    # tokens without `squares:` are one square at (0, 0): each seat puts two of its own on its
    # board, the second at the first spot beside the first: (0,-1) (south of the origin comes
    # first by spot id). Nothing covers anything; each board holds 2 squares of its own seat.
    from test_language import ruleset
    rules = """zone board per player public grid
each turn:
    for each p in players:
        for each c in [each t in box where t.owner == p]:
            if size(p.board) < 2:
                move c to p.board at first(placements(p.board, c, 0))
    announce [size(squares(p.board)) for each p in players], [first(squares(p.board)).cell.y for each p in players]
    announce [name_of(s.piece) for each s in squares(first(players).board)]
    end game winners players
"""
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    events: list[dict] = []
    st = play(game, [FirstAgent(), FirstAgent()], 1, sink=events.append)
    assert said(events) == ["2, 2 -1, -1", f"{game.layout.seat_names[0]} t, {game.layout.seat_names[0]} t"]
    assert sorted(game.view(st, 1)["grids"]) == [f"{name}.board" for name in game.layout.seat_names]
