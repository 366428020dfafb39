"""`snowrules sweep` and `snowrules tune` (issue 28, items 3 and 4), on a tiny ruleset whose every
figure is worked by hand, and their wrong arguments as a table."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import ruleset_folder
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from snowrules.cli.main import main
from snowrules.play.statistics import Z95
from snowrules.play.tune import ObjectiveError, objective

# Players add to one pile in turn; whoever brings it to `goal` (a component list's constant) or
# past it wins, scoring 1 + bonus (an option). `first` always adds `step` (a rules file's
# constant). With step 1 the first player makes the odd totals: an odd goal is theirs, an even
# goal the second player's, after ceil(goal / 2) turns of both and `goal` decisions. With step 2
# the totals are 2, 4, 6...: the player making the first total >= goal wins.
PILE = """game "Pile"
counter total shared from 0
counter score per player from 0
constant step = 1

each turn:
    for each p in players:
        ask p to choose n from [step, 2]:
            add n to total
        if total >= goal:
            add 1 + bonus to p.score
            end game winners [p]
"""
THINGS = "schema: token.schema.json\nconstants: {goal: 3, colour: red}\ncomponents:\n  - {name: t, kind: token}\n"
SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.fixture
def pile(tmp_path):
    (tmp_path / "pile").mkdir()
    folder = ruleset_folder(tmp_path / "pile", PILE, THINGS, name="pile", players=(2, 3))
    with (folder / "ruleset.yaml").open("a") as manifest:
        manifest.write("options:\n  bonus: {default: 0, minimum: 0, maximum: 5, about: added to the winner's score}\n")
    return folder


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys, *args) -> dict:
    """The --json object, checked against its schema."""
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    result = json.loads(out)
    name = result["format"].split("/")[0].removeprefix("snowrules-")
    registry = Registry().with_resources([(p.name, Resource.from_contents(json.loads(p.read_text())))
                                          for p in SCHEMAS.glob("*.json")])
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    errors = [e.message for e in Draft202012Validator(schema, registry=registry).iter_errors(result)]
    assert not errors, errors
    return result


def column(result: dict, figure: str, part: str = "value") -> list:
    return [p["figures"][figure][part] for p in result["points"]]


LOW_OF_ALL = round(1 / (1 + Z95 * Z95 / 2), 6)  # Wilson's lower end for 2 wins out of 2 games


def test_one_constant_worked_by_hand(capsys, pile):
    result = as_json(capsys, "sweep", pile, "--constant", "goal=1..4", "--agents", "first", "--games", "2")
    assert result["axes"] == [{"name": "goal", "values": [1, 2, 3, 4]}]
    assert [p["constants"] for p in result["points"]] == [{"goal": g} for g in (1, 2, 3, 4)]
    assert column(result, "mean_turns") == [1, 1, 2, 2]
    assert column(result, "decisions_per_game") == [1, 2, 3, 4]
    assert column(result, "first_player_edge") == [0.5, -0.5, 0.5, -0.5]
    # player 1 won 2 of 2 games (or 0 of 2): Wilson's interval, less the even share 1/2
    assert column(result, "first_player_edge", "low") == [round(LOW_OF_ALL - 0.5, 6), -0.5] * 2
    assert column(result, "first_player_edge", "high") == [0.5, round(0.5 - LOW_OF_ALL, 6)] * 2
    assert column(result, "mean_turns", "low") == [1, 1, 2, 2]  # no spread: the interval is the value
    assert column(result, "winning_margin") == [1] * 4 and column(result, "shared_wins") == [0] * 4


def test_two_constants_and_an_option(capsys, pile):
    # step 2: totals 2 (player 1), 4 (player 2), 6 (player 1): goal 3 and 4 are player 2's, in 1 turn
    result = as_json(capsys, "sweep", pile, "--constant", "step=1..2", "--constant", "goal=3,4",
                     "--agents", "first", "--games", "1")
    assert [tuple(p["constants"].values()) for p in result["points"]] == [(1, 3), (1, 4), (2, 3), (2, 4)]
    assert column(result, "first_player_edge") == [0.5, -0.5, -0.5, -0.5]
    assert column(result, "mean_turns") == [2, 2, 1, 1]
    assert column(result, "mean_turns", "low") == [None] * 4  # one game: no interval
    bonus = as_json(capsys, "sweep", pile, "--constant", "bonus=0..4:2", "--agents", "first", "--games", "1")
    assert column(bonus, "player_1_mean_score") == [1, 3, 5]  # goal 3 is player 1's: 1 + bonus


def test_the_table_and_the_heat_map_report(capsys, pile, tmp_path):
    code, out, err = cli(capsys, "sweep", pile, "--constant", "goal=1..2", "--constant", "step=1,2", "--agents",
                         "first", "--games", "2", "--figure", "first player edge", "--report", tmp_path / "r")
    assert code == 0, err
    assert "Pile: goal, step over 4 points x 2 games, 2 players, agents first; master seed 0" in out
    # goal 2 is player 2's with step 1 (totals 1, 2), player 1's with step 2 (total 2)
    assert "│    1 │    1 │  0.5 (-0.158..0.5) │" in out and "│    2 │    1 │ -0.5 (-0.5..0.158) │" in out
    figures = json.loads((tmp_path / "r" / "figures.json").read_text())
    assert figures["format"] == "snowrules-sweep/1" and column(figures, "first_player_edge") == [0.5, 0.5, -0.5, 0.5]
    assert "<svg" in (tmp_path / "r" / "figures.svg").read_text() and "figures.svg" in (
        tmp_path / "r" / "index.html").read_text()


OBJECTIVES = [
    # text, figures read, value at first_player_edge = -0.5, mean_turns = 4
    ("abs(first player edge) + abs(mean turns - 18) / 10", ("first_player_edge", "mean_turns"), 1.9),
    ("first-player edge ** 2", ("first_player_edge",), 0.25),
    ("-max(mean_turns, 2 * first_player_edge)", ("mean_turns", "first_player_edge"), -4),
    ("sqrt(first player edge)", ("first_player_edge",), math.nan),
    ("mean turns / (first player edge + 0.5)", ("mean_turns", "first_player_edge"), math.nan),
]


@pytest.mark.parametrize("text, names, value", OBJECTIVES)
def test_objectives(text, names, value):
    goal = objective(text, ["first_player_edge", "mean_turns"])
    assert goal.names == names
    got = goal.evaluate({"first_player_edge": -0.5, "mean_turns": 4})
    assert (math.isnan(got) and math.isnan(value)) or got == pytest.approx(value)


@pytest.mark.parametrize("text, message", [
    ("mean turns +", "'mean turns +' is not an expression (numbers, figures, + - * / **, abs, min, max, sqrt)"),
    ("turns", "no figure 'turns' (in 'turns'); figures: first_player_edge, mean_turns"),
    ("__import__('os')", "\"__import__('os')\" cannot be used in an objective (in \"__import__('os')\"): "
     "numbers, figures, + - * / **, abs, min, max, sqrt"),
    ("abs(mean turns, 1)", "abs takes one value (in 'abs(mean turns, 1)')"),
    ("2 + 3", "'2 + 3' reads no figure; figures: first_player_edge, mean_turns"),
])
def test_bad_objectives(text, message):
    with pytest.raises(ObjectiveError) as error:
        objective(text, ["first_player_edge", "mean_turns"])
    assert str(error.value) == message


def test_tune_finds_the_one_point_and_writes_its_variant(capsys, pile, tmp_path):
    # decisions per game: goal 4 step 1: 4; goal 4 step 2: 2; goal 5 step 1: 5; goal 5 step 2: 3 (2, 4, 6)
    result = as_json(capsys, "tune", pile, "--vary", "goal=4..5", "--vary", "step=1,2", "--objective",
                     "abs(decisions per game - 3)", "--agents", "first", "--games", "2", "--write-variant", "tuned")
    assert result["sampler"] == "every point" and len(result["candidates"]) == 4
    assert sorted((tuple(c["constants"].values()), c["objective"]) for c in result["candidates"]) == [
        ((4, 1), 1), ((4, 2), 1), ((5, 1), 2), ((5, 2), 0)]
    assert result["winner"] == {"goal": 5, "step": 2}
    best = result["rechecked"][0]
    assert (best["objective"], best["low"], best["high"]) == (0, 0, 0)  # the same game on every seed
    assert [r["objective"] for r in result["rechecked"]] == [0, 1, 1]
    assert result["compare"] == f"snowrules compare {pile} --variant tuned --players 2 --games 2 --seed 2 " \
        "--agents first"
    variant = (pile / "variants" / "tuned.yaml").read_text()
    assert "name: tuned\n" in variant and "constants:\n  goal: 5\nrules: [variants/tuned.sr]\n" in variant
    assert (pile / "variants" / "tuned.sr").read_text().endswith("constant step = 2\n")
    assert (pile / "ruleset.yaml").read_text().endswith("variants:\n  tuned: variants/tuned.yaml\n")
    # the variant plays the winner: 3 decisions, player 1 wins
    tuned = as_json(capsys, "simulate", pile, "--variant", "tuned", "--agents", "first", "--games", "1")
    assert tuned["metrics"]["decisions"]["mean"] == 3 and tuned["per_player"][0]["win_rate"]["value"] == 1


def test_tune_table_and_report(capsys, pile, tmp_path):
    code, out, err = cli(capsys, "tune", pile, "--vary", "bonus=0..3", "--objective", "player 1 mean score",
                         "--maximize", "--agents", "first", "--games", "1", "--recheck", "2",
                         "--report", tmp_path / "r")
    assert code == 0, err
    assert "winner: bonus=3\n" in out
    assert f"compare it with the base game: snowrules compare {pile} --other-option bonus=3" in out
    figures = json.loads((tmp_path / "r" / "figures.json").read_text())
    assert [c["objective"] for c in figures["rechecked"]] == [4, 3]
    assert (tmp_path / "r" / "objective.svg").stat().st_size > 0


def test_tune_says_when_the_objective_has_no_value_anywhere(capsys, pile):
    code, out, err = cli(capsys, "tune", pile, "--vary", "goal=4..5", "--objective", "decisions per game / 0",
                         "--agents", "first", "--games", "1")
    assert code == 1 and "has no value at any point tried" in err and "Traceback" not in err


BAD = [
    # command, arguments after the ruleset, the message after "snowrules COMMAND: error: "
    ("sweep", ["--games", "2"], "give at least one --constant NAME=A..B[:STEP] (or NAME=V1,V2,...)"),
    ("sweep", ["--constant", "goal"], "--constant 'goal': write NAME=A..B[:STEP] or NAME=V1,V2,..., "
     "e.g. --constant hand_size=8..12:2"),
    ("sweep", ["--constant", "nope=1..3"], "--constant nope: Pile has no constant or option 'nope'; "
     "its constants and options: bonus, colour, goal, step"),
    ("sweep", ["--constant", "goal=4..2"], "--constant goal=4..2: 4..2 is empty (write the lower end first)"),
    ("sweep", ["--constant", "goal=1..4:0"], "--constant goal=1..4:0: the step must be at least 1"),
    ("sweep", ["--constant", "goal=1..5000"], "--constant goal=1..5000: more than 1000 values"),
    ("sweep", ["--constant", "goal=1.5..3"], "--constant goal=1.5..3: write a range as A..B or A..B:STEP with "
     "whole numbers"),
    ("sweep", ["--constant", "goal=a,b"], "--constant goal: 'a' is not a whole number, as goal is (3 in the ruleset)"),
    ("sweep", ["--constant", "goal=2,2"], "--constant goal=2,2: a value is listed twice"),
    ("sweep", ["--constant", "colour=1..2"], "--constant colour: a range is for whole numbers; colour is a text "
     "('red'): list the values, colour=V1,V2"),
    ("sweep", ["--constant", "bonus=0..6"], "--constant bonus: option bonus must be between 0 and 5, not 6"),
    ("sweep", ["--constant", "goal=1,2", "--constant", "goal=3"], "--constant goal is given twice"),
    ("sweep", ["--constant", "bonus=1,2", "--option", "bonus=1"],
     "--constant bonus: the option is also set by --option; give it once"),
    ("sweep", ["--constant", "goal=1,2", "--constant", "step=1", "--constant", "bonus=1"],
     "--constant: a sweep varies one or two constants (a line or a heat map per figure); tune searches more"),
    ("sweep", ["--constant", "goal=1,2", "--games", "0"], "--games must be at least 1"),
    ("sweep", ["--constant", "goal=1,2", "--figure", "turns"], "--figure 'turns': no such figure; figures: "
     "mean_turns, first_player_edge, shared_wins, winning_margin, decisions_per_game, options_per_decision, "
     "lead_changes, winner_known, player_1_win_rate, player_1_mean_score, player_2_win_rate, player_2_mean_score"),
    ("sweep", ["--constant", "goal=1,2", "--report", "{file}"], "--report {file}: is a file, not a folder"),
    ("sweep", ["--constant", "goal=1,2", "--players", "4"], "--players 4: Pile is for 2 to 3 players"),
    ("tune", ["--objective", "mean turns"], "give at least one --vary NAME=A..B[:STEP] (or NAME=V1,V2,...)"),
    ("tune", ["--vary", "goal=1..3", "--objective", "turns"], "--objective: no figure 'turns' (in 'turns'); "
     "figures: mean_turns, first_player_edge, shared_wins, winning_margin, decisions_per_game, "
     "options_per_decision, lead_changes, winner_known, player_1_win_rate, player_1_mean_score, "
     "player_2_win_rate, player_2_mean_score"),
    ("tune", ["--vary", "goal=1..3", "--objective", "mean turns", "--trials", "0"],
     "--trials must be between 1 and 10000"),
    ("tune", ["--vary", "goal=1..3", "--objective", "mean turns", "--recheck", "0"],
     "--recheck must be at least 1 (the best candidates are played again on fresh seeds)"),
    ("tune", ["--vary", "goal=1..3", "--objective", "mean turns", "--write-variant", "two words"],
     "--write-variant 'two words': a variant's name is letters, digits and _, from a letter (it names the file "
     "variants/NAME.yaml)"),
    ("tune", ["--vary", "goal=1..3", "--objective", "mean turns", "--write-variant", "x.yaml"],
     "--write-variant 'x.yaml': a variant's name is letters, digits and _, from a letter (it names the file "
     "variants/NAME.yaml)"),
]


@pytest.mark.parametrize("command, arguments, message", BAD)
def test_bad_arguments(capsys, pile, tmp_path, command, arguments, message):
    file = tmp_path / "a_file"
    file.write_text("")
    games = [] if "--games" in arguments else ["--games", "2"]
    code, out, err = cli(capsys, command, pile, *games, *(a.format(file=file) for a in arguments))
    assert code == 2 and out == ""
    assert err == f"snowrules {command}: error: {message.format(file=file)}\n"


def test_a_bundled_ruleset_is_not_written_to(capsys):
    code, out, err = cli(capsys, "tune", "goofspiel", "--vary", "num_cards=3..4", "--objective", "mean turns",
                         "--games", "1", "--write-variant", "tuned")
    assert code == 2 and err == ("snowrules tune: error: --write-variant: goofspiel is a bundled ruleset; copy its "
                                 "folder and tune the copy (snowrules tune FOLDER ...)\n")


def test_a_rules_problem_at_one_point_names_the_point(capsys, pile):
    rules = (pile / "rules.sr").read_text().replace("            add n to total\n",
                                                    "            let z = 10 / (goal - 2)\n            add n to total\n")
    (pile / "rules.sr").write_text(rules)
    code, out, err = cli(capsys, "sweep", pile, "--constant", "goal=1..3", "--agents", "first", "--games", "1")
    assert code == 1 and out == ""
    assert err.startswith("snowrules sweep: at goal=2:\n") and err.endswith(
        "rules.sr:9:21: error: division by zero [SR499]\n")


MANIFESTS = [
    # the manifest's text -> the text with the variant `t` named, every other line kept
    ("name: x\nvariants:\n  a: variants/a.yaml  # kept\n\n# next\nrules: []\n",
     "name: x\nvariants:\n  a: variants/a.yaml  # kept\n  t: variants/t.yaml\n\n# next\nrules: []\n"),
    ("variants:\n    a: b\nrules: []\n", "variants:\n    a: b\n    t: variants/t.yaml\nrules: []\n"),
    ("name: x\nvariants: {a: b}  # c\n", "name: x\nvariants: {a: b, t: variants/t.yaml}  # c\n"),
    ("name: x\nvariants: {}\n", "name: x\nvariants: {t: variants/t.yaml}\n"),
    ("name: x", "name: x\nvariants:\n  t: variants/t.yaml\n"),
]


@pytest.mark.parametrize("text, expected", MANIFESTS)
def test_the_variant_is_named_in_the_manifest(text, expected):
    from snowrules.cli.tune import listed_variant
    assert listed_variant(text, "t") == expected
