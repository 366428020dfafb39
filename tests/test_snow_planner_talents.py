"""Snow Planner's talents ([Reference: Talent Cards], issue 12): data that agrees with itself, a
scenario for each talent, and a state waiting at a decision inside a talent's reaction that clones
and goes through JSON without changing what follows.

The talents' values themselves are pinned by the hand-worked scenarios
(rulesets/snow_planner/scenarios/talent_*.yaml, run by `snowrules test snow_planner` and
tests/test_scenarios.py); these tests check what a scenario cannot.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import three_copies
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.yaml_files import load_yaml, plain
from snowrules.records.scenarios import _answer, _impose, _Names, _ruleset_of, load_scenario
from snowrules.runtime.engine import Game

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / "rulesets" / "snow_planner"
TALENT_NAMES = {"INFLUENCER", "CRAFTMANSHIP", "HARDWORKER", "LEADERSHIP", "PRUDENCE", "SOCIABILITY",
                "ENTREPRENEUR", "HOSPITALITY", "DIGITAL NOMAD", "LOCAL RIDER"}


def talents() -> list[dict]:
    document, problems = load_yaml(PLANNER / "components" / "talents.yaml", "talents.yaml")
    assert not problems
    return plain(document.tree)["components"]


def test_each_right_side_is_unlocked_by_the_window_count_its_data_gives():
    # [Talent Cards] "This condition only refers to the placement of window tiles ... and does not
    # consider the color": the `unlock:` expression the rules evaluate and the card's data agree
    for talent in talents():
        wanted = talent["right"]["unlock"]["windows"]
        assert talent["unlock"] == f"windows(me) >= {wanted}", talent["name"]
        assert "colour" not in talent["unlock"], talent["name"]


def test_every_talent_has_a_hand_worked_scenario():
    picked = set()
    for path in sorted((PLANNER / "scenarios").glob("talent_*.yaml")):
        data = plain(load_scenario(path).tree)
        picked.add(data["choices"][0]["green"])   # [Player Setup 20]: green's pick is the talent shown
        assert data["provenance"] == "assumed" and data["rulebook"].startswith("Reference: Talent Cards")
    assert picked == TALENT_NAMES


def _state_before(path: Path, answered: int):
    """The scenario's game after its situation and its first `answered` choices."""
    document = load_scenario(path)
    data = plain(document.tree)
    ruleset = dataclasses.replace(_ruleset_of("snow_planner", None, None), seat_names=list(data["players"]))
    game = Game(compile_ruleset(ruleset, len(data["players"])))
    names = _Names(game, document)
    st = game.start(int(data.get("seed", 0)))
    _impose(st, names, data["situation"], ["situation"])
    game.ask_again(st)
    for number, choice in enumerate(data["choices"][:answered]):
        _answer(game, st, names, choice, ["choices", number])
    return game, st, names, data


# (scenario, choices answered before the decision inside a reaction (INFLUENCER 1's on `paying`,
#  SOCIABILITY 2's on `arrived`, PRUDENCE 2's on `window_placed`), counter -> value after answering
#  the rest and running to the next decision, as worked in the scenario's head)
INSIDE_A_REACTION = [
    ("talent_influencer.yaml", 6, {"green.score": 2, "green.promotion": 5, "green.res[ticket]": 7}),
    ("talent_sociability.yaml", 6, {"green.score": 2, "green.res[ticket]": 1}),
    ("talent_prudence.yaml", 7, {"green.res[croissant]": 1, "green.promotion": 1}),
]


@pytest.mark.parametrize("scenario, answered, after", INSIDE_A_REACTION)
def test_a_decision_inside_a_talent_reaction_clones_and_round_trips(scenario, answered, after):
    game, st, names, data = _state_before(PLANNER / "scenarios" / scenario, answered)
    assert "components/talents.yaml" in st.pending.rule, st.pending.rule   # asked by the talent itself
    finished = []
    for state in three_copies(st):
        for number, choice in enumerate(data["choices"][answered:], start=answered):
            _answer(game, state, names, choice, ["choices", number])
        finished.append(state)
        labels = game.layout.counter_labels
        assert {k: state.counters[labels.index(k)] for k in after} == after
    assert finished[0] == finished[1] == finished[2]
