"""`--json` outputs are contracts: each names its format and follows its schema in schemas/.

(issue 10, part 1) Each schema is checked against real output, and against broken copies of it,
so that a schema that accepts anything fails here.
"""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from snowrules.cli.main import main
from snowrules.load.ruleset import GENERIC_SCHEMAS


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((GENERIC_SCHEMAS / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def output(capsys, *args: str) -> dict:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


RUNS = [
    ["run", "snow_time", "--players", "4", "--seed", "7", "--json"],
    ["run", "snow_time", "--variant", "two_colours", "--seed", "3", "--json"],
    ["run", "goofspiel", "--players", "3", "--option", "num_cards=6", "--json"],
    ["run", "oh_hell", "--agents", "first,random,random,first", "--option", "off_bid_penalty=true", "--json"],
]


@pytest.mark.parametrize("arguments", RUNS, ids=lambda a: "-".join(a[1:3]))
def test_run_json_follows_its_schema(capsys, arguments):
    result = output(capsys, *arguments)
    errors = [e.message for e in validator("run_result.schema.json").iter_errors(result)]
    assert not errors, errors
    assert result["format"] == "snowrules-run/1"
    assert len(result["scores"]) == len(result["agents"]) == len(result["player_names"]) == result["players"]
    assert result["winner_names"] == [result["player_names"][w] for w in result["winners"]]


def test_run_json_names_its_game(capsys):
    result = output(capsys, *RUNS[3])
    assert (result["ruleset"], result["variant"], result["players"], result["seed"]) == ("oh_hell", None, 4, 0)
    assert result["agents"] == ["first", "random", "random", "first"], "--players follows the agents given"
    assert result["options"]["off_bid_penalty"] is True and result["options"]["num_suits"] == 4
    two = output(capsys, *RUNS[1])
    assert (two["variant"], two["players"]) == ("two_colours", 2)
    # seat_names [red, blue, green, yellow, purple] in the manifest, two seats per player in the variant
    assert two["player_names"] == ["red & blue", "green & yellow"]
    assert list(two["seat_scores"]) == ["red", "blue", "green", "yellow"]


def test_simulate_json_follows_its_schema(capsys):
    summary = output(capsys, "simulate", "snow_time", "--games", "12", "--players", "3", "--seed", "5", "--json")
    errors = [e.message for e in validator("simulate.schema.json").iter_errors(summary)]
    assert not errors, errors
    assert (summary["format"], summary["games"], summary["players"], summary["seed"]) == \
        ("snowrules-simulate/1", 12, 3, 5)
    assert len(summary["win_rates"]) == 3


def test_list_json_follows_its_schema_and_says_what_the_manifests_say(capsys):
    listed = output(capsys, "list", "--json")
    errors = [e.message for e in validator("list.schema.json").iter_errors(listed)]
    assert not errors, errors
    by_name = {entry["name"]: entry for entry in listed["rulesets"]}
    assert list(by_name) == ["crazy_eights", "goofspiel", "oh_hell", "othello", "snow_planner", "snow_time",
                             "snowfall_over_mountains", "snowy_tricks"]
    # From the manifests, read by hand: Snow Time is for 2-5 players, its two_colours variant for 2,
    # its short_track variant (a shorter score track) for 2-5.
    assert (by_name["snow_time"]["min_players"], by_name["snow_time"]["max_players"]) == (2, 5)
    assert by_name["snow_time"]["variants"] == [{"name": "two_colours", "min_players": 2, "max_players": 2},
                                                {"name": "short_track", "min_players": 2, "max_players": 5}]
    assert (by_name["oh_hell"]["min_players"], by_name["oh_hell"]["max_players"]) == (3, 7)
    cards = next(o for o in by_name["goofspiel"]["options"] if o["name"] == "num_cards")
    assert (cards["default"], cards["minimum"], cards["maximum"], cards["choices"]) == (13, 1, 20, None)
    order = next(o for o in by_name["goofspiel"]["options"] if o["name"] == "points_order")
    assert order["choices"] == ["random", "ascending", "descending"]
    # Snowfall over Mountains: solo, its harder variant too; one option per scoring card type
    solo = by_name["snowfall_over_mountains"]
    assert (solo["min_players"], solo["max_players"]) == (1, 1)
    assert solo["variants"] == [{"name": "harder", "min_players": 1, "max_players": 1}]
    bush = next(o for o in solo["options"] if o["name"] == "bush_card")
    assert bush["default"] == "random"
    assert bush["choices"] == ["random", "Shrub Search", "Twiggy Expanse", "Hopeful Harvest"]
    # Snow Planner: 1-4 players ([Solo Rules] to four), the automa optional at two
    planner = by_name["snow_planner"]
    assert (planner["min_players"], planner["max_players"]) == (1, 4)
    automa = next(o for o in planner["options"] if o["name"] == "automa_for_two")
    assert automa["default"] is False
    # [Advanced Rules] the event-card draft, at every player count (at 1 it drafts nothing)
    assert planner["variants"] == [{"name": "advanced_draft", "min_players": 1, "max_players": 4}]


GOOD_RUN = {"format": "snowrules-run/1", "ruleset": "x", "variant": None, "options": {}, "seed": 1, "players": 2,
            "agents": ["random", "random"], "player_names": ["a", "b"], "scores": [1, 2],
            "seat_scores": {"a": 1, "b": 2}, "winners": [1], "winner_names": ["b"], "turns": 3}


@pytest.mark.parametrize("change", [
    {"format": "snowrules-run/2"}, {"players": 0}, {"players": "2"}, {"winners": [-1]}, {"seed": "7"},
    {"variant": 3}, {"unknown": 1}, {"format": None},
], ids=["format-version", "players-0", "players-text", "winner-negative", "seed-text", "variant-number",
        "unknown-field", "no-format"])
def test_the_run_schema_refuses_a_wrong_result(change):
    schema = validator("run_result.schema.json")
    assert not list(schema.iter_errors(GOOD_RUN))
    broken = {**GOOD_RUN, **change}
    if change.get("format", "") is None:
        del broken["format"]
    assert list(schema.iter_errors(broken)), change
