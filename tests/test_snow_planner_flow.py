"""Snow Planner's round flow on random games (rulesets/snow_planner, issue 12): what must hold at
every decision of every game, checked against snow_planner.txt. The generic invariants are in
test_properties; the worked examples are the ruleset's scenarios."""
from __future__ import annotations

import re

import pytest
from conftest import game_for
from snowrules.model.events import Said
from snowrules.play.agents import Observation, RandomAgent

ACCOUNT = re.compile(r"round (\d) ends: (\w+) holds (.*)")


def zone(game, st, label):
    layout = game.layout
    index = next(i for i, z in enumerate(layout.zones) if z.label(layout.seat_names) == label)
    return [layout.component_names[c] for c in st.zones[index]]


def counter(game, st, label):
    return st.counters[game.layout.counter_labels.index(label)]


def faces(game, st, label):
    """The `value` counter of each die in a zone, in the zone's order."""
    layout = game.layout
    index = next(i for i, z in enumerate(layout.zones) if z.label(layout.seat_names) == label)
    family = layout.counter_families["value"]
    return [st.counters[family.index_of[c]] for c in st.zones[index]]


def play(game, seed, at_decision):
    """A random game; `at_decision(st, said)` at each decision with the sentences said since the last."""
    said = []
    agents = [RandomAgent(seed * 10 + i) for i in range(game.program.players)]
    st = game.start(seed, listen=lambda e: said.append(e.text) if isinstance(e, Said) else None)
    while st.result is None:
        at_decision(st, said[:])
        said.clear()
        pending = st.pending
        game.answer(st, [agents[game.program.controller(s)].choose(Observation(game, st, s, o))
                         for s, o in zip(pending.seats, pending.options)])
    at_decision(st, said[:])
    return st


@pytest.mark.parametrize("seed", range(3))
def test_with_three_players_the_locked_spaces_hold_their_lock_all_game(seed):
    # [Changes when playing with 3 players] the -1 spaces of the snow, restaurant and promotion
    # areas (3-4 side: spaces 2, 5 and 8) hold a lock tile "until the end of the game", and no die
    game = game_for(("snow_planner", None, 3))
    decisions = []

    def check(st, _said):
        if not zone(game, st, "round_cards"):
            return                              # "after all game setup is complete"
        decisions.append(1)
        for space in (2, 5, 8):
            assert zone(game, st, f"space[{space}]") == ["lock tile"], space
        # the 3-4 side's other -1 spaces (ticket, event, guest: 11, 13, 15) are never locked
        for space in (11, 13, 15):
            assert "lock tile" not in zone(game, st, f"space[{space}]")

    st = play(game, seed, check)
    assert len(decisions) > 50 and st.result is not None


@pytest.mark.parametrize("players, seed", [(1, 3), (2, 4), (4, 5)])
def test_the_account_tells_every_seat_s_holdings_at_each_round_s_end(players, seed):
    # [Round Flow] 8 rounds; at each one's end, after (g) 4. Reset Dice, a line per seat tells its
    # resources, VP, promotion, windows and dice (in round 8, which ends at (g) 1, no dice); what it
    # says is what the state holds at the next decision (the next round's (a) moves only a round
    # card and the summit tiles)
    game = game_for(("snow_planner", None, players))
    seats = game.layout.seat_names
    told = []

    def check(st, said):
        for text in said:
            found = ACCOUNT.fullmatch(text)
            if found is None:
                continue
            number, seat, rest = found.groups()
            told.append((int(number), seat))
            parts = dict(part.strip().split(" ", 1) for part in rest.split("|"))
            # [(g) 1. Check End Conditions] round 8 ends before the dice come back: no dice told
            dice = [int(v) for v in parts.pop("dice").split(", ")] if number != "8" else None
            windows = int(parts.pop("windows"))
            if seat == "automa":                # it may play before the next decision: only its form
                assert parts == {} and (dice is None or len(dice) >= 2) and windows >= 0, text
                continue
            assert dice is None or sorted(dice) == sorted(faces(game, st, f"{seat}.workers")), text
            assert windows == len(zone(game, st, f"{seat}.hotel")), text
            expected = {"snow": counter(game, st, f"{seat}.res[snow]"),
                        "croissant": counter(game, st, f"{seat}.res[croissant]"),
                        "ticket": counter(game, st, f"{seat}.res[ticket]"),
                        "promotion": counter(game, st, f"{seat}.promotion")}
            if st.result is None:               # at game end the scoring has added to the VP
                expected["VP"] = counter(game, st, f"{seat}.score")
            else:
                parts.pop("VP")
            assert {k: int(v) for k, v in parts.items()} == expected, text

    st = play(game, seed, check)
    assert st.result is not None
    assert told == [(n, s) for n in range(1, 9) for s in seats]
    # [Main Area Setup 11] 4 LOW SEASON, 3 HIGH SEASON, 1 FISCAL YEAR END, turned one a round in order
    layout = game.layout
    index = next(i for i, z in enumerate(layout.zones) if z.label(layout.seat_names) == "round_cards")
    seasons = [layout.fields["season"][c] for c in st.zones[index]]
    assert seasons == ["low"] * 4 + ["high"] * 3 + ["fiscal"]


FEE = re.compile(r"(.+) for (\w+) - (\d+) due, (\d+) short")


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 1), (4, 2)])
def test_a_fee_says_what_it_asks_before_it_is_paid(players, seed):
    # [Reference: Round Cards] a HIGH SEASON fee: the account says the tickets due and how many the
    # player lacks, before they are paid ("For any shortfall, lose a combination of the indicated
    # icons"): at that moment the player holds `due - short` tickets or more, and none are
    # missing unless the tickets held are fewer than due
    game = game_for(("snow_planner", None, players))
    live: dict = {}
    fees = []

    def listen(event) -> None:
        found = FEE.fullmatch(event.text) if isinstance(event, Said) else None
        if found is None:
            return
        card, seat, due, short = found.group(1), found.group(2), int(found.group(3)), int(found.group(4))
        tickets = counter(game, live["st"], f"{seat}.res[ticket]")
        assert due > 0 and short == max(0, due - tickets), (event.text, tickets)
        fees.append(card)

    agents = [RandomAgent(seed * 10 + i) for i in range(players)]
    st = live["st"] = game.start(seed, listen=listen)
    while st.result is None:
        pending = st.pending
        game.answer(st, [agents[game.program.controller(s)].choose(Observation(game, st, s, o))
                         for s, o in zip(pending.seats, pending.options)])
    assert fees and set(fees) <= {"Urgent order", "Sponsor Fees", "Consulting Fee", "Equipment Repair"}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_window_stock_never_runs_out_of_a_colour(players):
    # [Regarding Resource Tokens and Window Tiles] "Consider the resource tokens and window tiles to be
    # unlimited": each colour has at least as many tiles as every hotel area together can hold (a
    # hotel's 9 spaces, one hotel a seat: the automa's too), so a colour is always offered
    game = game_for(("snow_planner", None, players))
    layout = game.layout
    hotels = [z for z in layout.zones if z.family == "hotel"]
    windows = [c for c, kind in enumerate(layout.fields["kind"]) if kind == "window"]
    colours = [layout.fields["colour"][c] for c in windows]
    assert len(hotels) == layout.seats and sorted(set(colours)) == ["blue", "green", "orange"]
    for colour in ("blue", "orange", "green"):
        assert colours.count(colour) == 36 >= 9 * len(hotels)
