"""Snow Planner's event cards (rulesets/snow_planner, issue 12): the advanced draft as a variant
and an audit of the 72 cards against the rulebook.

[Advanced Rules]: after the 2 talents are dealt, every player looks at their 5 event cards, keeps
1 and passes the rest to the player on their left, until each has 5 again; the picks are one
secret decision of all players. The scenarios (scenarios/advanced_draft_*.yaml) give exact hands;
these tests check what a scenario cannot: who sees what at a pick, and that a state taken in the
middle of the draft is plain data (clone, JSON) that goes on exactly as the original.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import three_copies
from jsonschema import Draft202012Validator
from snowrules.compile.compiler import load_program
from snowrules.load.yaml_files import load_schema, load_yaml, plain
from snowrules.model.state import State
from snowrules.runtime.engine import Game

ROOT = Path(__file__).resolve().parent.parent
EVENTS = ROOT / "rulesets" / "snow_planner" / "components" / "events.yaml"


def draft_game(players: int) -> Game:
    return Game(load_program("snow_planner", "advanced_draft", players))


def zone(game: Game, st: State, label: str) -> list[str]:
    layout = game.layout
    index = [z.label(layout.seat_names) for z in layout.zones].index(label)
    return sorted(layout.component_names[c] for c in st.zones[index])


def offered(game: Game, st: State, seat: int) -> list[str]:
    return sorted(game.option_labels(st, st.pending.options[st.pending.seats.index(seat)]))


def test_the_first_pick_is_one_secret_decision_of_every_player_over_their_own_pack():
    game = draft_game(3)
    st = game.start(11)
    pending = st.pending
    assert pending.seats == [0, 1, 2] and pending.simultaneous
    for seat, name in enumerate(["green", "red", "blue"]):
        pack = zone(game, st, f"{name}.draft_pack")
        assert len(pack) == 5 and offered(game, st, seat) == pack
        assert zone(game, st, f"{name}.hand") == []
    # [Player Setup 20] the talents are dealt before the draft, and kept after it
    assert all(len(zone(game, st, f"{n}.talent_offer")) == 2 for n in ["green", "red", "blue"])
    view = game.view(st, 0)["zones"]
    assert isinstance(view["green.draft_pack"], list) and len(view["green.draft_pack"]) == 5
    assert view["red.draft_pack"] == {"count": 5} and view["blue.draft_pack"] == {"count": 5}


def test_the_rest_of_a_pack_goes_to_the_player_on_the_left():
    # seats green, red, blue round the table: green passes to red, red to blue, blue to green
    game = draft_game(3)
    st = game.start(11)
    packs = {n: zone(game, st, f"{n}.draft_pack") for n in ["green", "red", "blue"]}
    picks = {n: offered(game, st, s)[0] for s, n in enumerate(["green", "red", "blue"])}
    answer = [st.pending.options[s].index(
        next(o for o in st.pending.options[s] if game.option_label(st, o) == picks[n]))
        for s, n in enumerate(["green", "red", "blue"])]
    game.answer(st, answer)
    for receiver, giver in [("green", "blue"), ("red", "green"), ("blue", "red")]:
        assert zone(game, st, f"{receiver}.draft_pack") == sorted(set(packs[giver]) - {picks[giver]})
        assert zone(game, st, f"{receiver}.hand") == [picks[receiver]]


def test_a_state_in_the_middle_of_the_draft_is_data():
    game = draft_game(4)
    original = game.start(5)
    game.answer(original, [0, 0, 0, 0])           # the first pick: now 4 cards in each pack
    assert original.pending.simultaneous and all(len(o) == 4 for o in original.pending.options)
    original, clone, copy = three_copies(original)
    for st in (original, copy, clone):
        for pick in (1, 2, 0):                    # picks 2-4; the 5th, one card each, goes alone
            game.answer(st, [pick % len(o) for o in st.pending.options])
    seats = ["green", "red", "blue", "yellow"]
    hands = [[zone(game, st, f"{n}.hand") for n in seats] for st in (original, copy, clone)]
    assert hands[0] == hands[1] == hands[2]
    assert all(len(hand) == 5 for hand in hands[0])
    assert original == copy == clone
    # the talent pick comes next, one secret choice of all players as in the base game
    assert len(original.pending.seats) == 4 and original.pending.simultaneous


@pytest.mark.parametrize("players, automa_for_two", [(1, False), (2, True)])
def test_the_automa_takes_no_part_in_the_draft(players, automa_for_two):
    program = load_program("snow_planner", "advanced_draft", players, options=(("automa_for_two", automa_for_two),))
    game = Game(program)
    st = game.start(2)
    assert zone(game, st, "automa.hand") == [] and zone(game, st, "automa.draft_pack") == []
    if players == 1:   # provenance: assumed - nothing to pass: the talent pick is the first decision
        assert st.pending.seats == [0] and zone(game, st, "green.hand") != []
    else:
        assert st.pending.seats == [0, 1] and st.pending.simultaneous


def test_the_base_game_has_no_draft():
    game = Game(load_program("snow_planner", None, 3))
    st = game.start(11)
    assert len(st.pending.seats) == 3 and st.pending.simultaneous  # the talent pick, no draft before it
    assert all(len(zone(game, st, f"{n}.hand")) == 5 for n in ["green", "red", "blue"])


# --- the audit of components/events.yaml against the rulebook -------------------------------

def cards() -> list[dict]:
    document, problems = load_yaml(EVENTS, EVENTS.name)
    assert not problems
    return plain(document.tree)["components"]


def test_seventy_two_event_cards():
    assert len(cards()) == 72                                  # [Components] Event Cards x72


# (what the rulebook says, the check on one card): every card is checked against every row
CARD_RULES = [
    # [How to Play Event Cards] a cost is resource tokens returned to the stock; [Components] the
    # resource tokens are snow, croissant and ticket (likes are a track, not tokens)
    ("a cost is paid in resource tokens",
     lambda c: c.get("cost_amount", 0) == 0 or c["cost_resource"] in ("snow", "croissant", "ticket")),
    # [Reference: Icon List] "Effects Gained Permanently During the Game": a reaction while played
    ("a permanent card reacts, and only a permanent one",
     lambda c: bool(c.get("reacts")) == (c["timing"] == "permanent")),
    # [Game End: 1. Event Cards] an end-of-game card scores then; no other card does anything then
    ("only an end-of-game card acts while scoring",
     lambda c: ("if scoring:\n    pass\n" in c["effect"]) == (c["timing"] != "end_of_game")),
    # [Snowman Tags and Snowman Effects] a snowman effect asks for another tagged card played
    ("a snowman effect reads snowman(me, this)",
     lambda c: "snowman(" not in c["effect"] or "snowman(me, this)" in c["effect"]),
    # [Regarding the Values of Worker Dice] "+N" only on the die being placed: `die_bonus` only
    # in a reaction to a placement
    ("a die's +N only while it is placed",
     lambda c: all(r["on"] == "placed" for r in c.get("reacts", []) if "die_bonus" in r["effect"])),
    # [How to Play Event Cards] a condition must be met to play the card: every card has one
    ("every card says its condition", lambda c: "condition" in c),
]


@pytest.mark.parametrize("rule, holds", CARD_RULES, ids=[r[0] for r in CARD_RULES])
def test_every_event_card_follows_the_rulebook(rule, holds):
    assert [c["name"] for c in cards() if not holds(c)] == []


BAD_CARDS = [  # (entry, a fragment of the schema's message)
    ({"name": "x", "kind": "event", "timing": "immediate", "effect": "pass", "cost_resource": "like", "cost_amount": 1},
     "is not one of"),                                         # likes are not tokens
    ({"name": "x", "kind": "event", "timing": "immediate", "effect": "pass", "cost_amount": -1},
     "less than the minimum"),
    ({"name": "x", "kind": "event", "timing": "at the end", "effect": "pass"}, "is not one of"),
    ({"name": "x", "kind": "event", "timing": "permanent", "effect": "pass", "snowman_tag": "yes"}, "is not of type"),
]


@pytest.mark.parametrize("entry, fragment", BAD_CARDS)
def test_the_event_schema_refuses_bad_cards(entry, fragment):
    schema = load_schema(EVENTS.parent.parent / "schemas" / "event.schema.json")
    messages = [e.message for e in Draft202012Validator(schema).iter_errors(entry)]
    assert any(fragment in m for m in messages), messages
