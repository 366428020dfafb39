"""Crazy Eights, written as a ruleset from OpenSpiel's crazy_eights.cc, against OpenSpiel's own
game: lockstep over seeded random games for each player count and parameter (the same player to
move, legal actions, chance outcomes and probabilities at every node, the same returns at the end),
deep walks of every node below end-game positions (the whole tree is far too big: a 52-card deal),
the game's facts, and one game worked by hand.

The default run plays a few dozen games per parameter set (a few seconds in all); the `thorough`
profile (`--hypothesis-profile=thorough`) ten times as many, and
`python tests/openspiel_crosscheck.py crazy_eights players=3 use_special_cards=true` 100 more by
hand. OpenSpiel's default is 5 players and the adapter's the fewest (2): the player count is
always given.
"""
from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import examples  # noqa: E402
from openspiel_crosscheck import crosscheck, crosscheck_tree, games  # noqa: E402

NAME = "crazy_eights"

# Every OpenSpiel parameter varied, each player count of one deck (2 to 5) at its defaults.
PARAMETER_SETS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 3, "use_special_cards": True},
    {"players": 2, "use_special_cards": True, "reshuffle": True, "max_draw_cards": 2},
    {"players": 4, "reshuffle": True, "max_turns": 40},
    {"players": 5, "use_special_cards": True, "max_draw_cards": 1},
]
SEEDS = examples(25)


def _id(params: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=_id)
def test_same_game_as_openspiel_move_by_move(params):
    theirs, ours = games(NAME, NAME, params)
    nodes = sum(crosscheck(theirs, ours, seed) for seed in range(SEEDS))
    assert nodes >= 50 * SEEDS  # a deal alone is 11 to 26 chance nodes, and every game has turns


def _deck_left(state) -> int:
    return int(re.search(r"cards left in deck: (\d+)", str(state)).group(1))


def _facing_twos(state) -> bool:
    """The player to move faces twos: the last move was a 2 played (not a 2 dealt)."""
    last = state.full_history()[-1]
    return last.player >= 0 and last.action < 4


def _prefix(params: dict, seed: int, wanted) -> tuple[tuple[int, ...], int]:
    """OpenSpiel's random game up to the first player's node where `wanted(state)` holds: its
    history and the cards played so far."""
    state = pyspiel.load_game(NAME, params).new_initial_state()
    rng = random.Random(seed)
    plays = 0
    while not (state.current_player() >= 0 and wanted(state)):
        assert not state.is_terminal(), "the game ended before the position wanted"
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
            plays += action < 52  # a card: kDraw is 52
        state.apply_action(action)
    return tuple(state.history()), plays


# (parameters, seed, position, cards left in the deck): positions whose whole subtree, with
# max_turns a few cards on (MORE_CARDS), is a few hundred to a few thousand nodes. End games: draws
# from the last cards, passes with the deck empty until the game ends, special cards. Twos owed
# with two cards left: drawing them empties the deck on the last card owed, which OpenSpiel counts
# as a pass towards the end of the game.
DEEP_WALKS = [
    ({"players": 2}, 1, "end game", 2),
    ({"players": 3, "use_special_cards": True}, 3, "end game", 2),
    ({"players": 4, "max_draw_cards": 2}, 2, "end game", 3),
    ({"players": 2, "use_special_cards": True}, 22, "twos owed", 2),
    ({"players": 3, "use_special_cards": True}, 30, "twos owed", 2),
]
MORE_CARDS = {"end game": 3, "twos owed": 2}


def _position(position: str, deck_left: int):
    if position == "end game":
        return lambda state: _deck_left(state) <= deck_left
    return lambda state: _deck_left(state) == deck_left and _facing_twos(state)


@pytest.mark.parametrize("params, seed, position, deck_left", DEEP_WALKS,
                         ids=[f"{_id(p)}-{w}" for p, _, w, _ in DEEP_WALKS])
def test_same_subtree_as_openspiel_below_a_late_position(params, seed, position, deck_left):
    history, plays = _prefix(params, seed, _position(position, deck_left))
    nodes = crosscheck_tree(*games(NAME, NAME, {**params, "max_turns": plays + MORE_CARDS[position]}), history)
    assert nodes > 50


@pytest.mark.parametrize("params", [{"players": n} for n in (2, 3, 4, 5)]
                         + [{"players": 3, "use_special_cards": True, "reshuffle": True}], ids=_id)
def test_same_game_facts_as_openspiel(params):
    theirs, ours = games(NAME, NAME, params)
    for fact in ("num_distinct_actions", "max_chance_outcomes", "num_players", "max_game_length", "max_utility"):
        assert getattr(ours, fact)() == getattr(theirs, fact)(), fact
    assert ours.get_type().dynamics == theirs.get_type().dynamics
    assert ours.get_type().utility == theirs.get_type().utility
    # OpenSpiel's MinUtility is -544 (kMaxPenality), but its ScoreUp charges a card's id + 2, so a
    # hand can cost more: all 51 cards but the 2 of clubs (id 0, 2) cost 952 - 2. The ruleset
    # declares the bound its returns keep.
    assert (theirs.min_utility(), ours.min_utility()) == (-544, -950)


# The game worked by hand below, by OpenSpiel ids (a card is rank x 4 + suit, ranks 2 to ace 0-12,
# suits C D H S 0-3; Draw 52; a named suit 54 + suit; by chance the dealer 52 + seat). Two players,
# max_turns 2. p1 deals (53); seven cards each, p0 first: p0 gets 8C 2C 3D 4H 5S JC KD, p1 9H TS
# QH AS 7C 6D 2H. The 8H turned up goes back (26); the 4C is turned up (8). p0 plays the 8C (24) and
# names hearts (56); p1 draws the 3C (52, 4), then plays the QH (42): the second card played ends
# the game. p0 pays 2C 2, 3D 7, 4H 12, 5S 17, JC 10, KD 10: 58; p1 pays 9H 32, TS 37, AS 10,
# 7C 22, 6D 19, 2H 4, 3C 6: 130.
DEAL = [24, 30, 0, 35, 5, 42, 10, 51, 15, 20, 36, 17, 45, 2]
HAND_GAME = [53, *DEAL, 26, 8, 24, 56, 52, 4, 42]


@pytest.mark.parametrize("special", [False, True])
def test_a_game_worked_by_hand_scores_the_same_on_both(special):
    for game in games(NAME, NAME, {"players": 2, "max_turns": 2, "use_special_cards": special}):
        state = game.new_initial_state()
        for action in HAND_GAME[:17]:  # the deal and the card turned up
            state.apply_action(action)
        assert state.legal_actions() == [0, 10, 24, 36, 52]  # clubs, the other 4 and the eight; draw
        for action in HAND_GAME[17:19]:
            state.apply_action(action)
        assert state.legal_actions() == [2, 30, 42, 52]  # the hearts named; draw
        for action in HAND_GAME[19:]:
            state.apply_action(action)
        assert state.is_terminal()
        assert state.returns() == [-58, -130]
