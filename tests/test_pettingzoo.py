"""The PettingZoo AEC environment (adapters/pettingzoo.py): PettingZoo's own API and seed tests on
every bundled ruleset, a hand-played Goofspiel with its rewards worked by hand, the action mask,
and a secret decision of several seats asked one seat after the other."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pathlib import Path  # noqa: E402

from pettingzoo.test import api_test, seed_test  # noqa: E402
from snowrules.adapters.pettingzoo import env  # noqa: E402
from snowrules.load.ruleset import bundled_names, load_ruleset  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")  # agents are named as the ruleset names its seats
@pytest.mark.parametrize("name", bundled_names())
@pytest.mark.parametrize("observation", ["observation", "information_state"])
def test_pettingzoo_api_and_seed_tests_pass(name, observation):
    players = load_ruleset(name).min_players
    api_test(env(name, players=players, observation=observation), num_cycles=100)
    seed_test(lambda: env(name, players=players, observation=observation), num_cycles=100)


def test_a_hand_played_goofspiel_with_its_rewards():
    """Goofspiel with 3 cards in ascending order (no chance): prize 1, 2, 3 turned up in turn.
    p0 bids 3 then 1 (its last card, 2, goes by itself); p1 bids 1 then 2 (then 3): p0 takes
    prize 1, p1 takes prize 2 and prize 3: p1 wins 5 to 1, +1 and -1."""
    game = env("goofspiel", num_cards=3, points_order="ascending")
    game.reset(seed=0)
    assert game.agents == ["p0", "p1"]
    seen = []
    for action in [2, 0, 0, 1]:  # bid ids are the card's value less one: p0 3, p1 1, p0 1, p1 2
        observation, reward, terminated, truncated, _ = game.last()
        seen.append((game.agent_selection, np.flatnonzero(observation["action_mask"]).tolist()))
        assert (reward, terminated, truncated) == (0, False, False)
        game.step(action)
    # the bids at once, asked one seat after the other, each masked to the cards it holds
    assert seen == [("p0", [0, 1, 2]), ("p1", [0, 1, 2]), ("p0", [0, 1]), ("p1", [1, 2])]
    assert game.terminations == {"p0": True, "p1": True}
    assert game.rewards == {"p0": -1.0, "p1": 1.0}
    assert game.last()[1] == game.rewards[game.agent_selection]
    for agent in ["p0", "p1"]:  # each ended agent steps with None and leaves
        assert game.agent_selection == agent
        game.step(None)
    assert game.agents == []


def test_the_second_seat_of_a_secret_decision_sees_the_table_before_the_first_answered():
    game = env("goofspiel", num_cards=3, points_order="ascending")
    game.reset(seed=0)
    before = game.observe("p1")["observation"].copy()
    game.step(2)  # p0 bids
    assert game.agent_selection == "p1"
    assert np.array_equal(game.observe("p1")["observation"], before)


def test_an_illegal_action_is_refused_with_the_legal_ones():
    game = env("goofspiel", num_cards=3, points_order="ascending")
    game.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 7 is not legal for p0: legal are \[0, 1, 2\]"):
        game.step(7)


@pytest.mark.parametrize("bad,message", [
    ({"observation": "everything"}, "observation must be one of observation, information_state, not 'everything'"),
    ({"render_mode": "rgb_array"}, "render_mode must be one of ansi, human, not 'rgb_array'"),
])
def test_a_bad_argument_is_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        env("goofspiel", **bad)


def test_the_ansi_render_is_the_seats_observation_string():
    game = env("goofspiel", render_mode="ansi", num_cards=3, points_order="ascending")
    game.reset(seed=0)
    text = game.render()
    assert text == game.state.observation_string(0)
    assert '"p0.hand": ["p0 bid 1", "p0 bid 2", "p0 bid 3"]' in text


def test_the_loop_in_the_docs_plays_a_game_to_its_end():
    """docs/language.md's PettingZoo example, run as written: every seat has left at the end,
    with the returns the docs give."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    code = text.split("```python\nfrom snowrules.adapters.pettingzoo import env\n", 1)[1].split("```\n", 1)[0]
    names: dict = {}
    exec("from snowrules.adapters.pettingzoo import env\n" + code, names)
    assert names["table"].agents == []
    assert names["returns"] == {"p0": 0.0, "p1": 0.0}
