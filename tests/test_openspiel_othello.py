"""Othello, written as a ruleset from OpenSpiel's othello.cc, against OpenSpiel's own game:
lockstep over seeded random games (the same player to move and legal actions at every node, the
same board after every move, the same returns at the end), the game's facts, and an opening
worked by hand.

The default run plays a few games (a few seconds: a random game is about 60 moves, and the
ruleset reads its board through list expressions); the `thorough` profile
(`--hypothesis-profile=thorough`) ten times as many, and
`python tests/openspiel_crosscheck.py othello` 100 more by hand.
"""
from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import examples  # noqa: E402
from openspiel_crosscheck import crosscheck, games  # noqa: E402

NAME = "othello"
SEEDS = examples(20)


def their_board(state) -> list[str]:
    """OpenSpiel's board as 8 rows of x (black), o (white) and - (empty), row 1 first
    ([OthelloState::ToString])."""
    return ["".join(line.split()[1:9]) for line in str(state).splitlines()[2:10]]


def our_board(state) -> list[str]:
    """The ruleset's board read from the first seat's observation: each square by the zone it is
    in (black's discs x, white's o, else -)."""
    zones = json.loads(state.observation_string(0).splitlines()[0])["zones"]
    mark = {square: "x" for square in zones["black.discs"]} | {square: "o" for square in zones["white.discs"]}
    return ["".join(mark.get(f"{column}{row}", "-") for column in "abcdefgh") for row in range(1, 9)]


def test_same_game_as_openspiel_move_by_move():
    theirs, ours = games(NAME, NAME, {})
    nodes = sum(crosscheck(theirs, ours, seed) for seed in range(SEEDS))
    assert nodes >= 50 * SEEDS  # a random game fills most of the 60 free squares


@pytest.mark.parametrize("seed", range(4))
def test_same_board_after_every_move(seed):
    rng = random.Random(1000 + seed)
    theirs, ours = (game.new_initial_state() for game in games(NAME, NAME, {}))
    moves = 0
    while not theirs.is_terminal():
        assert our_board(ours) == their_board(theirs), f"after {theirs.history()}"
        action = rng.choice(theirs.legal_actions())
        theirs.apply_action(action)
        ours.apply_action(action)
        moves += 1
    assert our_board(ours) == their_board(theirs)
    assert ours.returns() == theirs.returns()
    assert moves >= 50


def test_same_game_facts_as_openspiel():
    theirs, ours = games(NAME, NAME, {})
    for fact in ("num_distinct_actions", "max_chance_outcomes", "num_players", "max_game_length",
                 "max_utility", "min_utility", "utility_sum"):
        assert getattr(ours, fact)() == getattr(theirs, fact)(), fact
    for fact in ("dynamics", "chance_mode", "utility"):
        assert getattr(ours.get_type(), fact) == getattr(theirs.get_type(), fact), fact


# An opening worked by hand, by OpenSpiel ids (row x 8 + column, from 0: d3 is 2 x 8 + 3 = 19).
# The start: white d4 e5, black e4 d5; black's moves are d3 (19), c4 (26), f5 (37), e6 (44).
#   black d3 (19) turns d4: black d3 d4 e4 d5 (4), white e5 (1).
#   white c3 (18) turns d4 (the diagonal c3-d4-e5): white c3 d4 e5 (3), black d3 e4 d5 (3).
#   black c4 (26) turns d4 (the row c4-d4-e4): black c4 d3 d4 e4 d5 (5), white c3 e5 (2).
# White may then play only e3 (20: e3-e4-e5, down) and c5 (34: c5-d5-e5, right). Not f3: down-left
# f3-e4-d5 meets the empty c6; not c6: up-right c6-d5-e4 meets the empty f3; not f4 nor b4: the
# row b4..f4 holds three black discs with no white at either end.
OPENING = [19, 18, 26]


def test_an_opening_worked_by_hand_is_the_same_on_both():
    for game, board_of in zip(games(NAME, NAME, {}), (their_board, our_board)):
        state = game.new_initial_state()
        assert state.legal_actions() == [19, 26, 37, 44]
        for action in OPENING:
            state.apply_action(action)
        assert board_of(state) == ["--------", "--------", "--ox----", "--xxx---", "---xo---", "--------",
                                   "--------", "--------"]
        assert state.current_player() == 1
        assert state.legal_actions() == [20, 34]
