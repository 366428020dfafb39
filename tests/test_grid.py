"""The grid's geometry (snowrules.model.grid) on hand-built layouts and as properties.

Layouts follow the Snowfall over Mountains rulebook's Scoring Concepts and Scoring Cards examples
(../shared/rulebooks/snowfall_over_mountains.txt): each expected value was counted by hand from
the picture drawn in the test's comment (x grows to the east, y to the north). Several layouts are
built from one-square pieces, so that a cell's content is written down directly.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snowrules.model.grid import (
    Cell,
    Grid,
    GridError,
    Piece,
    Rectangle,
    columns,
    connected_by_sides,
    connected_groups,
    having,
    is_covered,
    largest_groups,
    largest_rectangle,
    lift,
    move,
    neighbours,
    place,
    placement_of,
    rows,
    surrounded,
    turn_in_place,
    turn_offset,
    turn_side,
    uncovered_pieces,
    visible,
)
from snowrules.model.grid import Placement as At
from snowrules.model.grid_spots import PlacementRules, legal_spots, spot_id, spot_id_bound

SNOWSHOES = PlacementRules(least_covered=1, most_covered=2)


def layout(cells: dict[tuple[int, int], list[str]], trails: dict[tuple[int, int], list[str]] | None = None):
    """A grid of one-square pieces: cell -> features (and optionally cell -> trail sides)."""
    grid, pieces = Grid(), {}
    for number, (xy, features) in enumerate(sorted(cells.items())):
        square = {"features": features}
        if trails and xy in trails:
            square["trail"] = trails[xy]
        pieces[number] = Piece.from_data([square], ["trail"])
        place(grid, pieces, number, At(Cell(*xy), 0))
    return grid, pieces


def cells_of(squares) -> list[tuple[int, int]]:
    return sorted((s.cell.x, s.cell.y) for s in squares)


def domino(first: dict | None = None, second: dict | None = None) -> Piece:
    return Piece.from_data([{"dx": 0, **(first or {})}, {"dx": 1, **(second or {})}], ["trail"])


TREE, BUSH, POND, BEAR, RABBIT = (having("features", f) for f in ("tree", "bush", "pond", "bear", "rabbit"))


# ---- Features and Adjacency ------------------------------------------------------------------------
def test_a_diagonal_square_is_never_a_neighbour():
    #  y=1  .  T
    #  y=0  T  .        two trees touching only at a corner
    grid, pieces = layout({(0, 0): ["tree"], (1, 1): ["tree"]})
    assert neighbours(grid, pieces, Cell(0, 0)) == []
    assert [len(g) for g in connected_groups(visible(grid, pieces), TREE)] == [1, 1]


def test_neighbours_are_the_four_orthogonal_squares():
    #  y=1  B  P  B
    #  y=0  .  T  .      the pond's neighbours: bush west and east, tree south; the corners are not
    grid, pieces = layout({(0, 1): ["bush"], (1, 1): ["pond"], (2, 1): ["bush"], (1, 0): ["tree"],
                           (0, 0): ["bear"], (2, 0): ["bear"]})
    assert cells_of(neighbours(grid, pieces, Cell(1, 1))) == [(0, 1), (1, 0), (2, 1)]


# ---- Special Feature: Bear and Rabbit Paths; Ursine Tracker ----------------------------------------
def test_bear_paths_of_three_two_and_one():
    #  y=2  .  .  b  .  .     the bear at (2,2) touches the long path only diagonally: its own path
    #  y=1  .  b  .  .  b
    #  y=0  b  b  .  .  b     paths: {(0,0),(1,0),(1,1)} = 3, {(4,0),(4,1)} = 2, {(2,2)} = 1
    grid, pieces = layout({(0, 0): ["bear"], (1, 0): ["bear", "tree"], (1, 1): ["bear"], (2, 2): ["bear"],
                           (4, 0): ["bear"], (4, 1): ["bear"], (3, 0): ["tree"]})
    paths = connected_groups(visible(grid, pieces), BEAR)
    assert sorted(len(p) for p in paths) == [1, 2, 3]
    (longest,) = largest_groups(visible(grid, pieces), BEAR)
    assert cells_of(longest) == [(0, 0), (1, 0), (1, 1)]       # Ursine Tracker: 3 points


def test_two_equally_long_paths_are_both_longest():
    #  y=0  r  r  .  r  r     two rabbit paths of 2, not touching
    grid, pieces = layout({(0, 0): ["rabbit"], (1, 0): ["rabbit"], (3, 0): ["rabbit"], (4, 0): ["rabbit"]})
    longest = largest_groups(visible(grid, pieces), RABBIT)
    assert [cells_of(g) for g in longest] == [[(0, 0), (1, 0)], [(3, 0), (4, 0)]]


def test_no_path_means_no_longest_path():
    grid, pieces = layout({(0, 0): ["tree"]})
    assert largest_groups(visible(grid, pieces), BEAR) == []


def adjacent_to(group, squares, keep) -> int:
    """How many kept squares are on a square of the group or orthogonally next to one."""
    near = {s.cell for s in group} | {n for s in group for n in s.cell.neighbours()}
    return sum(1 for s in squares if keep(s) and s.cell in near)


def test_honey_hunt_counts_trees_on_or_beside_the_longest_bear_path():
    #  y=1  T  .  .  T  .      the tree at (3,1) is diagonal to (2,0) and the one at (4,0) is two
    #  y=0  bT b  b  .  T      cells away: not adjacent. Adjacent: on (0,0), (0,1) north of it and
    #  y=-1 .  T  .  .  .      (1,-1) south of (1,0): 3 trees, Honey Hunt 6 points
    grid, pieces = layout({(0, 0): ["bear", "tree"], (1, 0): ["bear"], (2, 0): ["bear"], (0, 1): ["tree"],
                           (3, 1): ["tree"], (4, 0): ["tree"], (1, -1): ["tree"]})
    squares = visible(grid, pieces)
    (path,) = largest_groups(squares, BEAR)
    assert 2 * adjacent_to(path, squares, TREE) == 6


# ---- Tree cards: rows and columns ------------------------------------------------------------------
def test_fair_forest_five_trees_in_their_own_columns():
    #  y=2  .  T  .  .  .
    #  y=1  .  .  T  .  .
    #  y=0  T  .  .  B  T     5 trees, each alone in its column: 5 + 3 = 8 (Fair Forest)
    #  y=-1 .  .  .  T  .     (row 0 holds two trees: Shady Grove would give 3)
    grid, pieces = layout({(0, 0): ["tree"], (1, 2): ["tree"], (2, 1): ["tree"], (3, -1): ["tree"],
                           (4, 0): ["tree"], (3, 0): ["bush"]})
    trees = [s for s in visible(grid, pieces) if TREE(s)]
    alone_in_column = [c for c in columns(trees).values() if len(c) == 1]
    assert len(alone_in_column) == 5
    assert len(alone_in_column) + (3 if len(alone_in_column) == len(trees) else 0) == 8
    alone_in_row = [r for r in rows(trees).values() if len(r) == 1]
    assert len(alone_in_row) == 3


def test_rows_and_columns_are_ordered():
    grid, pieces = layout({(2, 0): ["tree"], (0, 0): ["tree"], (0, 5): [], (0, -1): []})
    squares = visible(grid, pieces)
    assert list(rows(squares)) == [-1, 0, 5]
    assert [s.cell.x for s in rows(squares)[0]] == [0, 2]
    assert [s.cell.y for s in columns(squares)[0]] == [-1, 0, 5]


def test_lonely_pines_counts_diagonal_trees_as_alone():
    #  y=1  .  T  .  T
    #  y=0  T  .  T  .  T     5 trees, none orthogonally next to another: 5 points
    grid, pieces = layout({(0, 0): ["tree"], (1, 1): ["tree"], (2, 0): ["tree"], (3, 1): ["tree"],
                           (4, 0): ["tree"]})
    squares = visible(grid, pieces)
    lonely = [s for s in squares if TREE(s) and not any(TREE(n) for n in neighbours(grid, pieces, s.cell))]
    assert len(lonely) == 5


# ---- Bush cards: clusters and rectangles -----------------------------------------------------------
def test_shrub_search_largest_cluster_of_nine_and_a_separate_pair():
    #  y=2  B  B  B  .  .
    #  y=1  B  .  B  .  B     the cluster of 9 winds round (1,1); the pair at (4,0),(4,1) is its own
    #  y=0  B  B  B  .  B     cluster (Shrub Search 9)
    #  y=-1 .  .  B  .  .
    bushes = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2), (2, -1), (4, 0), (4, 1)]
    grid, pieces = layout({xy: ["bush"] for xy in bushes} | {(1, 1): ["pond"]})
    clusters = connected_groups(visible(grid, pieces), BUSH)
    assert sorted(len(c) for c in clusters) == [2, 9]
    assert [len(g) for g in largest_groups(visible(grid, pieces), BUSH)] == [9]


def test_hopeful_harvest_five_columns_and_two_rows():
    #  y=1  .  .  B  B  .
    #  y=0  B  B  B  B  B     one cluster over 5 columns and 2 rows: 7 points
    grid, pieces = layout({xy: ["bush"] for xy in [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (2, 1), (3, 1)]})
    (cluster,) = largest_groups(visible(grid, pieces), BUSH)
    assert len(columns(cluster)) + len(rows(cluster)) == 7


def test_twiggy_expanse_largest_rectangle_inside_an_irregular_cluster():
    #  y=2  .  .  B  .  .
    #  y=1  B  B  B  B  .     the 3 x 2 block (1,0)-(3,1) is the largest rectangle: 6 bushes, 12
    #  y=0  .  B  B  B  B     points; row 0 (1..4) is only 4, column 2 (0..2) only 3
    #  y=-1 .  .  .  B  .
    bushes = [(0, 1), (1, 1), (2, 1), (3, 1), (1, 0), (2, 0), (3, 0), (4, 0), (2, 2), (3, -1)]
    grid, pieces = layout({xy: ["bush"] for xy in bushes})
    rectangle = largest_rectangle(visible(grid, pieces), BUSH)
    assert rectangle == Rectangle(Cell(1, 0), Cell(3, 1))
    assert 2 * rectangle.area == 12


def test_a_hole_breaks_a_rectangle():
    #  y=1  B  B  B
    #  y=0  B  T  B      the tree in the middle: the largest bush rectangle is a row of 3
    grid, pieces = layout({(0, 0): ["bush"], (1, 0): ["tree"], (2, 0): ["bush"],
                           (0, 1): ["bush"], (1, 1): ["bush"], (2, 1): ["bush"]})
    assert largest_rectangle(visible(grid, pieces), BUSH) == Rectangle(Cell(0, 1), Cell(2, 1))
    assert largest_rectangle(visible(grid, pieces), POND) is None


# ---- Pond cards ------------------------------------------------------------------------------------
def test_landlocked_lake_needs_all_four_orthogonal_sides():
    #  y=2  .  T  .  T  B  B
    #  y=1  B  P  B  T  P  .     (1,1) is surrounded; (4,1) has its east side open, though every
    #  y=0  .  T  .  B  T  B     diagonal is taken: 1 landlocked pond, 4 points
    grid, pieces = layout({(1, 2): ["tree"], (0, 1): ["bush"], (1, 1): ["pond"], (2, 1): ["bush"],
                           (1, 0): ["tree"], (4, 2): ["bush"], (3, 1): ["tree"], (4, 1): ["pond"],
                           (3, 0): ["bush"], (4, 0): ["tree"], (5, 0): ["bush"], (5, 2): ["bush"],
                           (3, 2): ["tree"]})
    ponds = [s for s in visible(grid, pieces) if POND(s)]
    assert [surrounded(grid, s.cell) for s in ponds] == [True, False]


def features_around(grid, pieces, square) -> set[str]:
    """Features adjacent to a square: on it (other than itself) or on an orthogonal neighbour."""
    here = [f for f in square.fields["features"] if f != "pond"]
    return set(here) | {f for n in neighbours(grid, pieces, square.cell) for f in n.fields["features"]}


def test_scenic_overlook_three_features_do_not_count_four_do():
    #  y=1  b  P  r  .  B  P  r     the pond at (1,1) sees bear, rabbit, tree: 3, no points
    #  y=0  .  T  .  .  .  Pb .     the pond at (5,1) sees bush, rabbit, pond and bear: 4 points
    grid, pieces = layout({(0, 1): ["bear"], (1, 1): ["pond"], (2, 1): ["rabbit"], (1, 0): ["tree"],
                           (4, 1): ["bush"], (5, 1): ["pond"], (6, 1): ["rabbit"], (5, 0): ["pond", "bear"]})
    by_cell = {s.cell: s for s in visible(grid, pieces)}
    assert features_around(grid, pieces, by_cell[Cell(1, 1)]) == {"bear", "rabbit", "tree"}
    assert features_around(grid, pieces, by_cell[Cell(5, 1)]) == {"bush", "rabbit", "pond", "bear"}


def test_twin_ponds_count_groups_of_exactly_two():
    #  y=2  P  P  P  .  .
    #  y=0  P  P  .  P  .     one pair (6 points); the three in a row and the single pond do not count
    grid, pieces = layout({(0, 0): ["pond"], (1, 0): ["pond"], (3, 0): ["pond"],
                           (0, 2): ["pond"], (1, 2): ["pond"], (2, 2): ["pond"]})
    groups = connected_groups(visible(grid, pieces), POND)
    assert 6 * sum(1 for g in groups if len(g) == 2) == 6


# ---- Trails: sides that must meet ------------------------------------------------------------------
def test_a_trail_touching_only_diagonally_is_not_connected():
    #  y=1  .  .  ═          the tile at (2,1) leaves by w and e; it touches the cabin's (1,0) only at
    #  y=0  ═  ═  .          a corner. (0,0)-(1,0) meet: (0,0) lists e, (1,0) lists w.
    grid, pieces = layout({(0, 0): [], (1, 0): [], (2, 1): []},
                          trails={(0, 0): ["e"], (1, 0): ["w", "e"], (2, 1): ["w", "e"]})
    groups = connected_by_sides(visible(grid, pieces), "trail")
    assert [cells_of(g) for g in groups] == [[(0, 0), (1, 0)], [(2, 1)]]


def test_neighbours_link_only_where_both_sides_meet():
    #  (0,0) leaves east, (1,0) leaves north and south only: next to each other, not linked;
    #  (1,0) and (1,1) meet (n and s). A square with no trail is in no group.
    grid, pieces = layout({(0, 0): [], (1, 0): [], (1, 1): [], (2, 0): []},
                          trails={(0, 0): ["e"], (1, 0): ["n", "s"], (1, 1): ["s"]})
    groups = connected_by_sides(visible(grid, pieces), "trail")
    assert [cells_of(g) for g in groups] == [[(0, 0)], [(1, 0), (1, 1)]]


def test_turning_a_tile_turns_its_trail():
    # square 1 leaves west (back to square 0) and north; turned 90° clockwise, the tile runs south
    # from its anchor and square 1's trail leaves north (to square 0) and east.
    grid, pieces = Grid(), {0: domino({"trail": ["e"]}, {"trail": ["w", "n"]})}
    place(grid, pieces, 0, At(Cell(0, 0), 90))
    squares = visible(grid, pieces)
    assert [(s.cell, s.fields["trail"]) for s in squares] == [(Cell(0, -1), ["n", "e"]), (Cell(0, 0), ["s"])]
    assert len(connected_by_sides(squares, "trail")) == 1


# ---- Covering, lifting, moving, turning ------------------------------------------------------------
def test_a_covered_square_no_longer_counts():
    #  tile 0 (bush, bush) at (0,0)-(1,0); tile 1 (tree, pond) put over (1,0)-(2,0)
    pieces = {0: domino({"features": ["bush"]}, {"features": ["bush"]}),
              1: domino({"features": ["tree"]}, {"features": ["pond"]})}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    assert [len(g) for g in connected_groups(visible(grid, pieces), BUSH)] == [2]
    place(grid, pieces, 1, At(Cell(1, 0), 0))
    assert cells_of(s for s in visible(grid, pieces) if BUSH(s)) == [(0, 0)]
    assert is_covered(grid, 0) and not is_covered(grid, 1)
    assert uncovered_pieces(grid) == [1]
    with pytest.raises(GridError, match="covered"):
        lift(grid, pieces, 0)
    assert lift(grid, pieces, 1) == At(Cell(1, 0), 0)
    assert cells_of(s for s in visible(grid, pieces) if BUSH(s)) == [(0, 0), (1, 0)]


def test_turn_in_place_keeps_the_cells_and_swaps_the_squares():
    pieces = {0: domino({"features": ["tree"]}, {"features": ["pond"]})}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    assert turn_in_place(grid, pieces, 0, 180) == At(Cell(1, 0), 180)
    assert [(s.cell, s.fields["features"]) for s in visible(grid, pieces)] == [(Cell(0, 0), ["pond"]),
                                                                              (Cell(1, 0), ["tree"])]
    with pytest.raises(GridError, match="same cells"):
        turn_in_place(grid, pieces, 0, 90)


def test_move_lifts_and_puts_down_and_json_round_trips():
    pieces = {0: domino(), 1: domino()}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    place(grid, pieces, 1, At(Cell(0, 1), 0))
    assert move(grid, pieces, 1, At(Cell(2, 0), 0)) == At(Cell(0, 1), 0)
    assert placement_of(grid, pieces, 1) == At(Cell(2, 0), 0)
    text = json.dumps(grid.to_json())
    assert text == "[[0, 0, [[0, 0, 0]]], [1, 0, [[0, 1, 0]]], [2, 0, [[1, 0, 0]]], [3, 0, [[1, 1, 0]]]]"
    assert Grid.from_json(json.loads(text)) == grid
    with pytest.raises(GridError, match="already"):
        place(grid, pieces, 1, At(Cell(9, 9), 0))


# ---- Legal spots -----------------------------------------------------------------------------------
def test_the_first_piece_goes_at_the_origin_in_each_rotation():
    spots = legal_spots(Grid(), {0: domino()}, 0)
    assert [s.label for s in spots] == ["(0,0) turned east, covers nothing", "(0,0) turned south, covers nothing",
                                        "(0,0) turned west, covers nothing", "(0,0) turned north, covers nothing"]


# A domino next to one domino at (0,0)-(1,0), counted by hand. Six empty cells touch it; the
# dominoes over them that do not overlap: 3 lying in row 1, 3 in row -1, 2 in row 0 (west, east),
# and 2 standing in each of columns -1, 0, 1, 2: 16 footprints. A domino with two different
# squares gives each footprint both ways round: 32. With Snowshoes (cover 2 squares, or 1 square
# and an empty area): the 6 dominoes holding exactly one of the two cells plus the one on both: 7.
@pytest.mark.parametrize("newcomer, rules, expected", [
    (domino(), PlacementRules(), 16),
    (domino({"features": ["tree"]}, {"features": ["bush"]}), PlacementRules(), 32),
    (domino({"trail": ["e"]}, {"trail": ["w"]}), PlacementRules(), 16),  # its trail is symmetric too
    (domino({"trail": ["e"]}, {"trail": ["w", "n"]}), PlacementRules(), 32),
    (domino(), SNOWSHOES, 7),
    (domino({"features": ["pond"]}, {}), SNOWSHOES, 14),
    (domino(), PlacementRules(least_contact=2), 2),       # sharing 2 edges: lying right above or below it
])
def test_spot_count_next_to_a_single_domino(newcomer, rules, expected):
    pieces = {0: domino(), 1: newcomer}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    assert len(legal_spots(grid, pieces, 1, rules)) == expected


def test_spot_labels_and_ids():
    pieces = {0: domino(), 1: domino({"features": ["tree"]})}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    spots = {s.label: s for s in legal_spots(grid, pieces, 1, SNOWSHOES, names={0: "tile 07"})}
    assert "(2,0) turned west, covers 1 square of tile 07" in spots
    assert "(0,0) turned east, covers 2 squares of tile 07" in spots
    spot = spots["(0,0) turned east, covers 2 squares of tile 07"]
    assert spot.to_json() == {"cell": [0, 0], "rotation": 0, "cells": [[0, 0], [1, 0]],
                              "covers": [[0, 0, 0], [0, 1, 0]], "id": 0, "label": spot.label}
    # ids: (x, y) folded to (0,-1,1,..) -> (0,1,2,..), Szudzik-paired, times 4, plus the quarter turns
    assert spot_id(Cell(2, 0), 180) == (4 * 4 + 4 + 0) * 4 + 2
    assert spot_id(Cell(0, -1), 90) == (1 * 1 + 0) * 4 + 1


def test_a_piece_on_the_grid_has_no_spots_until_lifted():
    pieces = {0: domino(), 1: domino()}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    place(grid, pieces, 1, At(Cell(0, 1), 0))
    with pytest.raises(GridError, match="lift it"):
        legal_spots(grid, pieces, 1)
    lift(grid, pieces, 1)
    assert len(legal_spots(grid, pieces, 1)) == 16          # as next to a single domino


def test_an_uncoverable_piece_is_never_covered():
    pieces = {0: domino(), 1: domino()}
    grid = Grid()
    place(grid, pieces, 0, At(Cell(0, 0), 0))
    assert legal_spots(grid, pieces, 1, PlacementRules(least_covered=1, most_covered=2,
                                                         uncoverable=frozenset({0}))) == []


# ---- Properties ------------------------------------------------------------------------------------
offsets = st.builds(Cell, st.integers(-3, 3), st.integers(-3, 3))
rotations = st.sampled_from([0, 90, 180, 270])


@given(offsets, st.sampled_from("nesw"))
def test_four_quarter_turns_are_the_identity(offset, side):
    turned, facing = offset, side
    for _ in range(4):
        turned, facing = turn_offset(turned, 90), turn_side(facing, 90)
    assert (turned, facing) == (offset, side)
    assert turn_offset(offset, 270) == turn_offset(turn_offset(turn_offset(offset, 90), 90), 90)


@given(st.lists(st.sampled_from("nesw"), unique=True), rotations)
def test_a_piece_turned_a_full_circle_is_unchanged(trail, rotation):
    piece = domino({"trail": trail}, {"trail": ["w"]})
    fields = piece.turned_fields(0, rotation)
    for _ in range(3):
        fields = Piece.from_data([fields], ["trail"]).turned_fields(0, 90)
    assert sorted(fields["trail"]) == sorted(piece.turned_fields(0, rotation + 270)["trail"])
    assert piece.cells(Cell(1, 1), rotation) == piece.cells(Cell(1, 1), rotation + 360)


def grown(choices: list[int], features: list[str]) -> tuple[Grid, dict[int, Piece]]:
    """A layout grown domino by domino, each at a legal spot picked by the drawn numbers."""
    pieces = {i: domino({"features": [features[i % len(features)]]}, {"features": []}) for i in range(len(choices))}
    grid = Grid()
    for number, choice in enumerate(choices):
        spots = legal_spots(grid, pieces, number)
        place(grid, pieces, number, spots[choice % len(spots)])
    return grid, pieces


layouts = st.builds(grown, st.lists(st.integers(0, 10_000), min_size=1, max_size=6),
                    st.lists(st.sampled_from(["bush", "tree", "pond"]), min_size=1, max_size=3))


@settings(max_examples=60, deadline=None)
@given(layouts)
def test_every_legal_spot_touches_and_does_not_overlap(built):
    grid, pieces = built
    pieces = {**pieces, 99: domino({"features": ["bear"]})}
    spots = legal_spots(grid, pieces, 99)
    assert len({s.id for s in spots}) == len(spots) and [s.id for s in spots] == sorted(s.id for s in spots)
    for spot in spots:
        assert spot.cells == pieces[99].cells(spot.anchor, spot.rotation)
        assert not any(grid.occupied(c) for c in spot.cells)
        assert any(grid.occupied(n) for c in spot.cells for n in c.neighbours())
        assert spot.covers == ()


@settings(max_examples=40, deadline=None)
@given(layouts)
def test_legal_spots_miss_no_placement(built):
    """Against a brute force over a window around the layout: the same set of footprints."""
    grid, pieces = built
    pieces = {**pieces, 99: domino({"features": ["bear"]})}
    xs = [c.x for c in grid.stacks]
    ys = [c.y for c in grid.stacks]
    footprints = set()
    for x in range(min(xs) - 3, max(xs) + 4):
        for y in range(min(ys) - 3, max(ys) + 4):
            for rotation in (0, 90, 180, 270):
                cells = pieces[99].cells(Cell(x, y), rotation)
                free = not any(grid.occupied(c) for c in cells)
                touches = any(grid.occupied(n) for c in cells for n in c.neighbours())
                if free and touches:
                    footprints.add(cells)                # ordered: the piece's two squares differ
    assert {s.cells for s in legal_spots(grid, pieces, 99)} == footprints


@settings(max_examples=60, deadline=None)
@given(layouts, st.sampled_from(["bush", "tree", "pond"]))
def test_groups_partition_the_squares_with_the_feature(built, feature):
    grid, pieces = built
    squares = visible(grid, pieces)
    keep = having("features", feature)
    groups = connected_groups(squares, keep)
    grouped = [s.cell for g in groups for s in g]
    assert sorted(grouped) == sorted(s.cell for s in squares if keep(s))       # each once, all of them
    group_of = {s.cell: i for i, g in enumerate(groups) for s in g}
    for cell, index in group_of.items():                                        # no link across groups
        assert all(group_of.get(n, index) == index for n in cell.neighbours())
    largest = largest_groups(squares, keep)
    assert all(len(g) == max(map(len, groups)) for g in largest) and all(g in groups for g in largest)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=16))
def test_the_largest_rectangle_is_full_and_none_is_larger(cells):
    grid, pieces = layout({xy: ["bush"] for xy in cells})
    rectangle = largest_rectangle(visible(grid, pieces), BUSH)
    inside = {(x, y) for x in range(rectangle.low.x, rectangle.high.x + 1)
              for y in range(rectangle.low.y, rectangle.high.y + 1)}
    assert inside <= cells and len(inside) == rectangle.area
    best = max((x1 - x0 + 1) * (y1 - y0 + 1) for x0 in range(5) for x1 in range(x0, 5) for y0 in range(5)
               for y1 in range(y0, 5)
               if all((x, y) in cells for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)))
    assert rectangle.area == best


@settings(max_examples=40, deadline=None)
@given(layouts)
def test_a_grid_survives_json(built):
    grid, _ = built
    assert Grid.from_json(json.loads(json.dumps(grid.to_json()))) == grid


@given(st.integers(-20, 20), st.integers(-20, 20), rotations)
def test_spot_ids_are_distinct_and_bounded(x, y, rotation):
    ident = spot_id(Cell(x, y), rotation)
    assert 0 <= ident < spot_id_bound(max(abs(x), abs(y)))
    assert spot_id(Cell(x, y + 1), rotation) != ident != spot_id(Cell(x + 1, y), rotation)


def test_the_documented_examples_run():
    """docs/architecture.md, "Grids (the model of issue 11)": every example is a doctest."""
    import doctest
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0
