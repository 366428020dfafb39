"""The component data of Snowfall over Mountains (rulesets/snowfall_over_mountains, issue 11).

Every file is checked against its schema (the envelope and each entry), the counts against the
rulebook's [Components] and [Scoring Concepts], and the authored tile set against the scoring
examples it must be able to realise: first as counts (a 9-bush cluster needs 9 bush squares),
then, for the examples that need tiles of a kind side by side, laid out on a grid with these tiles.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import check_component_file, component_entries
from jsonschema import Draft202012Validator
from snowrules.load.yaml_files import load_schema
from snowrules.model.grid import (
    Cell,
    Grid,
    Piece,
    Placement,
    connected_groups,
    having,
    largest_rectangle,
    place,
    visible,
)

ROOT = Path(__file__).resolve().parent.parent
DRAFT = ROOT / "rulesets" / "snowfall_over_mountains"
FILES = sorted((DRAFT / "components").glob("*.yaml"))


def entries(name: str) -> list[dict]:
    return component_entries(DRAFT, name)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_file_and_entry_meets_its_schema(path):
    check_component_file(DRAFT, path)


BROKEN = {"name": "tile x", "kind": "tile", "squares": [{"dx": 0, "dy": 0, "features": [], "trail": []}]}


@pytest.mark.parametrize("change, fragment", [
    ({"squares": [{"dx": 0, "dy": 0, "features": ["bush", "tree", "pond"], "trail": []},
                  {"dx": 1, "dy": 0, "features": [], "trail": []}]}, "is too long"),
    ({"squares": [{"dx": 0, "dy": 0, "features": ["snow"], "trail": []},
                  {"dx": 1, "dy": 0, "features": [], "trail": []}]}, "is not one of"),
    ({"squares": [{"dx": 0, "dy": 0, "features": [], "trail": ["up"]},
                  {"dx": 1, "dy": 0, "features": [], "trail": []}]}, "is not one of"),
    ({}, "is too short"),                                               # one square
    ({"kind": "cabin"}, "'face' is a required property"),
])
def test_the_tile_schema_refuses_bad_tiles(change, fragment):
    schema = load_schema(DRAFT / "schemas" / "tile.schema.json")
    messages = [e.message for e in Draft202012Validator(schema).iter_errors(BROKEN | change)]
    assert any(fragment in m for m in messages), messages


def squares_of(tiles: list[dict]) -> list[dict]:
    return [q for tile in tiles for q in tile["squares"]]


def test_component_counts_as_the_rulebook_lists_them():
    tiles, cabins = entries("tiles.yaml"), entries("cabin.yaml")
    assert len(tiles) == 30 and all(len(t["squares"]) == 2 for t in tiles)      # [Components], [Tiles...]
    assert [c["face"] for c in cabins] == ["A", "B"] and all(len(c["squares"]) == 2 for c in cabins)
    assert all(len(q["features"]) <= 2 for q in squares_of(tiles + cabins))
    cards = entries("scoring.yaml")
    assert len(cards) == 15
    assert Counter(c["type"] for c in cards) == dict.fromkeys(["tree", "bear", "rabbit", "bush", "pond"], 3)
    assert all(sorted(c["symbol"] for c in cards if c["type"] == kind) == ["circle", "square", "triangle"]
               for kind in ("tree", "bear", "rabbit", "bush", "pond"))
    tools = entries("tools.yaml")
    assert sorted(t["name"] for t in tools) == ["Binoculars", "Compass", "Map", "Sled", "Snow Shovel",
                                                "Snowshoes", "Tall Boots", "Work Gloves"]
    assert [t["name"] for t in tools if t["text_printed"]] == ["Snow Shovel"]


def test_the_cabin_has_a_trail_and_each_square_of_a_tile_touches_the_other():
    for tile in entries("tiles.yaml") + entries("cabin.yaml"):
        a, b = tile["squares"]
        assert abs(a["dx"] - b["dx"]) + abs(a["dy"] - b["dy"]) == 1, tile["name"]
    assert all(any(q["trail"] for q in c["squares"]) for c in entries("cabin.yaml"))


def test_the_printed_points_of_each_example():
    points = {c["name"]: c["example"]["points"] for c in entries("scoring.yaml")}
    assert points == {"Shady Grove": 1, "Fair Forest": 8, "Lonely Pines": 5, "Follow the Scent": 6,
                      "Honey Hunt": 6, "Ursine Tracker": 3, "Berry Pursuit": 6, "Thirsty Trek": 3,
                      "Hopping Home": 3, "Shrub Search": 9, "Twiggy Expanse": 12, "Hopeful Harvest": 7,
                      "Landlocked Lake": 4, "Scenic Overlook": 8, "Twin Ponds": 6}


# What each worked example needs of the whole tile set, as squares with a feature: (feature,
# squares needed, why). Counted from the examples' text in [Scoring Cards].
NEEDS = [
    ("tree", 5, "Fair Forest, Lonely Pines: 5 trees"),
    ("bear", 6, "Ursine Tracker: bear paths of 3, 2 and 1 squares"),
    ("rabbit", 6, "Hopping Home: rabbit paths of 4 and 2 squares"),
    ("rabbit", 3, "Follow the Scent: 3 squares of rabbit tracks by the bear path"),
    ("tree", 3, "Honey Hunt: 3 trees by the bear path"),
    ("bush", 3, "Berry Pursuit: 3 bushes by the rabbit path"),
    ("bush", 9, "Shrub Search: a cluster of 9 bushes"),
    ("bush", 6, "Hopeful Harvest: a cluster over 5 columns and 2 rows holds at least 6 squares"),
    ("pond", 2, "Twin Ponds: 1 pair; Scenic Overlook: 2 ponds"),
]


@pytest.mark.parametrize("feature, needed, why", NEEDS, ids=[n[2].split(":")[0] for n in NEEDS])
def test_the_tile_set_has_the_squares_each_example_needs(feature, needed, why):
    have = sum(1 for q in squares_of(entries("tiles.yaml")) if feature in q["features"])
    assert have >= needed, why


def test_lonely_trees_on_five_different_tiles():
    """Lonely Pines' 5 lone trees: tiles whose trees are not side by side on the tile itself."""
    alone = [t for t in entries("tiles.yaml") if sum("tree" in q["features"] for q in t["squares"]) == 1]
    assert len(alone) >= 5


def pieces_of(tiles: list[dict]) -> dict[int, Piece]:
    return {i: Piece.from_data(t["squares"], ["trail"]) for i, t in enumerate(tiles)}


def pairs(feature: str) -> list[int]:
    """The tiles with the feature on both squares."""
    return [i for i, t in enumerate(entries("tiles.yaml")) if all(feature in q["features"] for q in t["squares"])]


def test_twiggy_expanse_and_shrub_search_laid_out_with_the_tiles():
    """Three bush pairs stacked make a 2 x 3 rectangle of 6 bushes (12 points); two more pairs and
    a row of them make the cluster of 9 or more (Shrub Search's 9 is then reachable by leaving one
    out)."""
    pieces, bush_pairs = pieces_of(entries("tiles.yaml")), pairs("bush")
    assert len(bush_pairs) >= 5
    grid = Grid()
    for row, tile in enumerate(bush_pairs[:3]):
        place(grid, pieces, tile, Placement(Cell(0, row), 0))
    bush = having("features", "bush")
    assert largest_rectangle(visible(grid, pieces), bush).area == 6
    for column, tile in enumerate(bush_pairs[3:5]):
        place(grid, pieces, tile, Placement(Cell(2 + 2 * column, 0), 0))
    (cluster,) = connected_groups(visible(grid, pieces), bush)
    assert len(cluster) == 10


def test_twin_ponds_laid_out_with_the_tiles():
    """A pond pair with non-pond tiles around it: one twin pair (6 points)."""
    tiles = entries("tiles.yaml")
    pieces, (twin, *_) = pieces_of(tiles), pairs("pond")
    dry = [i for i, t in enumerate(tiles) if not any("pond" in q["features"] for q in t["squares"])]
    grid = Grid()
    place(grid, pieces, twin, Placement(Cell(0, 0), 0))
    for tile, anchor in zip(dry, [Cell(0, 1), Cell(0, -1), Cell(2, 0), Cell(-2, 0)]):
        place(grid, pieces, tile, Placement(anchor, 0))
    groups = connected_groups(visible(grid, pieces), having("features", "pond"))
    assert [len(g) for g in groups] == [2]


SIDE_TOWARD = {(1, 0): "e", (-1, 0): "w", (0, 1): "n", (0, -1): "s"}
OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}


def test_a_trail_that_crosses_between_the_squares_of_a_tile_is_drawn_on_both():
    """Inside a tile a trail cannot stop at the seam: a square whose trail leaves toward the other
    square is met by that square's trail (tile 07: the bush square leaves e, the pond square w)."""
    for tile in entries("tiles.yaml") + entries("cabin.yaml"):
        a, b = tile["squares"]
        toward = SIDE_TOWARD[(b["dx"] - a["dx"], b["dy"] - a["dy"])]
        assert (toward in a["trail"]) == (OPPOSITE[toward] in b["trail"]), tile["name"]
