"""Snowy Tricks' own checks on random games (the generic ones are in test_properties)."""
from __future__ import annotations

import json

import pytest
from conftest import Observation, game_for
from snowrules.play.agents import RandomAgent


def zone(game, st, label):
    layout = game.layout
    index = next(i for i, z in enumerate(layout.zones) if z.label(layout.seat_names) == label)
    return [layout.component_names[c] for c in st.zones[index]]


@pytest.mark.parametrize("config", [("snowy_tricks", None, n) for n in (2, 3, 4, 5)]
                         + [("snowy_tricks", "two_player", 2)], ids=lambda c: f"{c[1] or 'base'}-{c[2]}p")
def test_no_view_holds_another_players_hand_or_prediction(config):
    """Hidden information is real: at every decision, a player's view names the cards of their own
    hand and prediction, and none of another player's hand or (unshown) prediction."""
    game = game_for(config)
    seats = game.layout.seat_names
    for seed in range(20):
        agents = [RandomAgent(seed * 10 + i) for i in range(config[2])]
        st = game.start(seed)
        while st.result is None:
            for player, me in enumerate(seats):
                text = json.dumps(game.view(st, player))
                for card in zone(game, st, f"{me}.hand"):
                    assert f'"{card}"' in text
                for other in seats:
                    if other == me:
                        continue
                    secret = zone(game, st, f"{other}.hand") + zone(game, st, f"{other}.prediction")
                    for card in secret:
                        if "Student" not in card:  # the specials' names are shared by two copies
                            assert f'"{card}"' not in text, (me, other, card)
            pending = st.pending
            game.answer(st, [agents[s].choose(Observation(game, st, s, o))
                             for s, o in zip(pending.seats, pending.options)])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_card_play_follows_suit_when_it_can(players):
    """[What is a Trick-Taking Game] the options offered always respect following the led colour."""
    game = game_for(("snowy_tricks", None, players))
    layout = game.layout
    colour = layout.fields["colour"]
    special = layout.fields["special"]
    for seed in range(30):
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        st = game.start(seed)
        while st.result is None:
            pending = st.pending
            led = st.vars[game.program.variable_names.index("led")]
            if not pending.simultaneous:
                seat = pending.seats[0]
                hand = st.zones[next(i for i, z in enumerate(layout.zones)
                                     if z.family == "hand" and z.owner == seat)]
                options = pending.options[0]
                if pending.variable == "card" and led is not None and any(colour[c] == led for c in hand):
                    assert all(colour[c] == led or special[c] is not None for c in options)
                    assert sorted(options) == sorted(c for c in hand if colour[c] == led or special[c])
            game.answer(st, [agents[s].choose(Observation(game, st, s, o))
                             for s, o in zip(pending.seats, pending.options)])


@pytest.mark.parametrize("variant, instructors, prize_row", [
    (None, 5, [1, 1, 0, 1]),                       # [Adjustments for Two Players]: 5 cards, 2 prizes
    ("no_two_player_adjustments", 6, [1, 1, 1, 1]),  # [Game Setup]: 6 cards, a prize of each category
])
def test_two_players_with_and_without_the_adjustments(variant, instructors, prize_row):
    """The designer's variant leaves out only the adjustments' instructor cards and prizes: the
    colours stay pink, green and yellow (11 students each, plus 2 Best and 2 Worst: 37 cards, 14
    in each hand and 9 left), and one prize of categories 1, 2 and 3 lies beside the Prediction
    Prize (slot 4)."""
    game = game_for(("snowy_tricks", variant, 2))
    for seed in range(5):
        st = game.start(seed)
        for seat in game.layout.seat_names:
            assert len(zone(game, st, f"{seat}.instructors")) == instructors
            assert len(zone(game, st, f"{seat}.hand")) == 14
        assert [len(zone(game, st, f"prize_row[{slot}]")) for slot in (1, 2, 3, 4)] == prize_row
        assert sum(len(zone(game, st, z)) for z in ("deck", "trump_card", "set_aside")) + 28 == 37


def test_two_player_rules_apply_without_the_variant_and_the_old_name_plays_the_same_game():
    """[Game Setup] "Playing with 2 players? See the instructions at the end": the adjustments are
    the game at two, not an option. `--variant two_player` is kept for old command lines and
    must play exactly the base game at two (same events, seed for seed)."""
    base, old_name = game_for(("snowy_tricks", None, 2)), game_for(("snowy_tricks", "two_player", 2))
    for game in (base, old_name):
        st = game.start(0)
        for seat in game.layout.seat_names:
            assert len(zone(game, st, f"{seat}.instructors")) == 5  # [Adjustments] 5 instead of 6
        assert [len(zone(game, st, f"prize_row[{slot}]")) for slot in (1, 2, 3, 4)] == [1, 1, 0, 1]
    for seed in range(5):
        transcripts = []
        for game in (base, old_name):
            events = []
            agents = [RandomAgent(seed * 10 + i) for i in range(2)]
            st = game.start(seed, events.append)
            while st.result is None:
                pending = st.pending
                game.answer(st, [agents[s].choose(Observation(game, st, s, o))
                                 for s, o in zip(pending.seats, pending.options)])
            transcripts.append([{k: v for k, v in e.items() if k != "rule"} for e in events])
        assert transcripts[0] == transcripts[1]
        assert any(e["e"] == "end" for e in transcripts[0])
