"""The component data of Snow Planner (rulesets/snow_planner, issue 12; a draft until s15).

Every file is checked against its schema (the envelope and each entry), and the counts against
the rulebook: [Components] for how many of each, [Reference] for the printed cards, [Action Space
1-10] for the tiers, [Type of Action Space] and [Changes when playing with 3 players] for the board.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import check_component_file, component_entries
from jsonschema import Draft202012Validator
from snowrules.load.yaml_files import load_schema, load_yaml, plain

ROOT = Path(__file__).resolve().parent.parent
DRAFT = ROOT / "rulesets" / "snow_planner"
FILES = sorted((DRAFT / "components").glob("*.yaml"))
# the entries' schemas, not the editors' wrappers (*_list.schema.json)
SCHEMAS = sorted(p for p in (DRAFT / "schemas").glob("*.json") if not p.name.endswith("_list.schema.json"))


def entries(name: str) -> list[dict]:
    return component_entries(DRAFT, name)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_file_and_entry_meets_its_schema(path):
    check_component_file(DRAFT, path)


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_schema_is_a_valid_schema_and_used(path):
    Draft202012Validator.check_schema(load_schema(path))
    assert any(load_yaml(f, f.name)[0].tree["schema"] == path.name for f in FILES)


def test_every_entry_says_where_it_comes_from_and_names_are_unique():
    names = [e["name"] for f in FILES for e in entries(f.name)]
    assert len(names) == len(set(names))
    for f in FILES:
        for e in entries(f.name):
            assert e["provenance"] == "printed" or e["provenance"].startswith("assumed - "), e["name"]


BAD_ENTRIES = [  # (schema, entry, a fragment of the error)
    ("event.schema.json", {"name": "x", "kind": "event", "timing": "sometimes"}, "is not one of"),
    ("event.schema.json", {"name": "x", "kind": "event", "timing": "immediate", "cost": {"gold": 1}},
     "Additional properties"),
    ("event.schema.json", {"name": "x", "kind": "event", "timing": "immediate", "effect": [{"gain": {"snow": 1}}]},
     "is not of type 'string'"),   # an effect is rules text now
    ("guest.schema.json", {"name": "x", "kind": "guest", "colour": "blue", "effect": "pass",
                           "stay": [1], "vip_area_value": 3}, "is too short"),
    ("tier.schema.json", {"name": "x", "kind": "tier", "area": "snow", "low": 0, "high": 2, "effect": []},
     "less than the minimum"),
    ("round_card.schema.json", {"name": "x", "kind": "round", "season": "winter", "text": "t"}, "is not one of"),
]


@pytest.mark.parametrize("schema, entry, fragment", BAD_ENTRIES)
def test_the_schemas_refuse_bad_entries(schema, entry, fragment):
    messages = [e.message for e in Draft202012Validator(load_schema(DRAFT / "schemas" / schema)).iter_errors(entry)]
    assert any(fragment in m for m in messages), messages


def test_printed_counts():
    # [Components] and [Setup]
    assert Counter(c["season"] for c in entries("round_cards.yaml")) == {"low": 5, "high": 5, "fiscal": 3}
    assert len(entries("goal_cards.yaml")) == 10
    assert len(entries("talents.yaml")) == 10
    # [Components: Window Tiles x45] 15 a colour printed, numbered 1-15; [Regarding Resource Tokens and
    # Window Tiles] the stock is unlimited: 36 a colour, 16-36 the substitutes (components/windows.yaml)
    windows = entries("windows.yaml")
    assert Counter(w["colour"] for w in windows if w["number"] <= 15) == {"blue": 15, "orange": 15, "green": 15}
    assert Counter(w["colour"] for w in windows) == {"blue": 36, "orange": 36, "green": 36}
    assert len(entries("events.yaml")) == 72
    assert len(entries("guests.yaml")) == 36
    assert len(entries("vips.yaml")) == 9
    assert sorted(o["number"] for o in entries("opening_guests.yaml")) == [1, 2, 3, 4]
    assert len(entries("projects.yaml")) == 12
    assert len(entries("summit_tiles.yaml")) == 7
    assert len(entries("solo_actions.yaml")) == 7
    assert len(entries("solo_events.yaml")) == 8


def test_the_printed_cards_are_the_references():
    # [Reference: Round Cards], [Reference: Goal Cards], [Reference: Talent Cards]
    assert [c["name"] for c in entries("round_cards.yaml")] == [
        "Promotion", "Fallen snow", "Procurement routes", "Subsidy", "Planning meeting", "Urgent order",
        "Sponsor Fees", "Consulting Fee", "Equipment Repair", "Inventory Disposal", "Fiscal year end I",
        "Fiscal year end II", "Fiscal year end III"]
    assert {c["name"] for c in entries("goal_cards.yaml")} == {
        "SNOW RESORT", "PIONEER", "GOURMET", "VARIETY", "RENOWN", "GENERALIST", "FULL HOUSE", "HARMONY", "LUXURY",
        "EMPLOYEE MORALE"}
    assert {c["name"] for c in entries("talents.yaml")} == {
        "INFLUENCER", "CRAFTMANSHIP", "HARDWORKER", "LEADERSHIP", "PRUDENCE", "SOCIABILITY", "ENTREPRENEUR",
        "HOSPITALITY", "DIGITAL NOMAD", "LOCAL RIDER"}
    fiscal = {c["name"]: c["effect"] for c in entries("round_cards.yaml") if c["season"] == "fiscal"}
    assert fiscal == {"Fiscal year end I": 'fiscal_year_end(me, "croissant")\n',
                      "Fiscal year end II": 'fiscal_year_end(me, "snow")\n',
                      "Fiscal year end III": 'fiscal_year_end(me, "ticket")\n'}
    snow_resort = next(c for c in entries("goal_cards.yaml") if c["name"] == "SNOW RESORT")
    assert snow_resort["compares"] == "snow" and snow_resort["places"] == [4, 2]   # [Game End: Example]


def test_the_tiers_are_the_printed_ones():
    tiers = {(t["area"], t["low"], t["high"]): t["effect"] for t in entries("tiers.yaml")}
    # [Action Space 1: Snow Area]: 1/2 one snow, 3 two, 4 a window, 5 three, 6 five and a card
    assert tiers[("snow", 1, 2)] == 'gain(me, "snow", 1)\n'
    assert tiers[("snow", 4, 4)] == 'gain_window(me, "any")\n'
    assert tiers[("snow", 6, 6)] == 'gain(me, "snow", 5)\nplay_cards(me, 1)\n'
    assert tiers[("restaurant", 6, 6)] == 'gain(me, "croissant", 6)\n'                   # [Action Space 2]
    # [Action Space 3] "gain 4 likes and advance the promotion track by 4 spaces": a like is a step
    assert tiers[("promotion", 4, 5)] == 'advance(me, 4)\n'
    assert tiers[("promotion", 6, 6)] == 'advance(me, 6)\ngain_vp(me, 2)\n'   # ... then 2 VP
    assert tiers[("ticket", 6, 6)] == 'gain(me, "ticket", 5)\nplay_cards(me, 1)\n'      # [Action Space 4]
    assert tiers[("event", 5, 6)] == "play_cards(me, 2)\n"                               # [Action Space 5]
    assert tiers[("guest", 5, 5)] == "take_guests(me, 2, 6, false)\n"                    # [Action Space 6]
    # each of areas 1-6 covers every value 1-6 exactly once
    for area in ("snow", "restaurant", "promotion", "ticket", "event", "guest"):
        values = [v for (a, low, high) in tiers if a == area for v in range(low, high + 1)]
        assert sorted(values) == list(range(1, 7)), area


def test_the_board_has_every_area_on_both_sides_and_the_three_player_locks():
    spaces = entries("action_spaces.yaml")
    for side in ("3-4", "1-2"):
        assert {s["area_number"] for s in spaces if s["side"] == side} == set(range(1, 11))
    # [Changes when playing with 3 players]: a lock on the -1 space of snow, restaurant, promotion
    locks = sorted(s["area"] for s in spaces if s.get("lock_with_3_players"))
    assert locks == ["promotion", "restaurant", "snow"]
    assert all(s["cost"] == 1 and s["side"] == "3-4" for s in spaces if s.get("lock_with_3_players"))
    # [Example 1]: on the 1-2 side only the -2 space of the snow area is left after the leftmost
    assert [s["cost"] for s in spaces if s["side"] == "1-2" and s["area"] == "snow"] == [0, 2]
    # leftmost first: positions count from 1 in each area and side
    for side in ("3-4", "1-2"):
        for area in {s["area"] for s in spaces}:
            positions = [s["position"] for s in spaces if s["side"] == side and s["area"] == area]
            assert positions == list(range(1, len(positions) + 1))


def test_the_hotel_board_fits_the_rules_that_read_it():
    board, = entries("hotel_board.yaml")
    document, _ = load_yaml(DRAFT / "components" / "hotel_board.yaml", "hotel_board.yaml")
    tables = plain(document.tree)["tables"]
    cells = {(w["x"], w["y"]) for w in tables["window_spaces"]}
    assert cells == {(x, y) for x in range(3) for y in range(3)}      # HARMONY's lines of three
    assert sorted(w["automa_order"] for w in tables["window_spaces"]) == list(range(1, 10))
    first = next(w for w in tables["window_spaces"] if w["automa_order"] == 1)
    assert (first["x"], first["y"]) == (1, 1)                           # [Placement ... for "Automa"]: the centre
    assert board["all_filled_vp"] == 3
    # [Advancing the Promotion Track] example: advancing 4 from 0 gains 1 croissant and 1 window tile
    passed = [row for row in tables["promotion_track"] if row["space"] <= 4]
    assert sum(r["croissant"] for r in passed) == 1 and sum(r["window"] for r in passed) == 1
    assert sum(r["snow"] + r["ticket"] + r["vp"] + r["draw"] for r in passed) == 0
    assert len(board["colours"]) == 4                                   # [Components: Hotel Boards x4]


def test_the_vip_area_example_can_be_played_with_the_hardest_vip():
    # [Action Space 7: VIP Area] a VIP needing 8 whose window condition a player can meet: 2 snow lower
    # it by 4, a die of 5 then reaches it; no VIP needs more than a 6 can reach with snow
    vips = entries("vips.yaml")
    assert 8 in [v["required_value"] for v in vips]
    assert all(v["needs_windows"] <= 9 and v["required_value"] <= 12 for v in vips)


def test_event_cards_use_every_part_the_rulebook_names():
    events = entries("events.yaml")
    assert {e["timing"] for e in events} == {"immediate", "permanent", "end_of_game"}
    assert any(e["cost_amount"] > 0 and e["condition"] != "true" for e in events)   # [How to Play Event Cards]
    tagged = [e for e in events if e.get("snowman_tag")]
    assert tagged and any("if snowman(me, this):" in e["effect"] for e in events)
    assert all("reacts" in e for e in events if e["timing"] == "permanent")
    assert all(e["effect"].split("else:")[0].strip() != "if scoring:\n    pass"
               for e in events if e["timing"] == "end_of_game")
