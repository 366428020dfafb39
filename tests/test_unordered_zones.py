"""Issue 27 item 3: `unordered` zones. The ruleset tests/rulesets/unordered_hands deals three of
six cards (A..F, action ids 0..5) one by one at random into each seat's `hidden unordered` hand,
then the first seat plays one. The order in which a hand was dealt must be in no view: the same
hands dealt in different orders give their owner the same observation and information state,
strings and tensors. The same game with its hands declared without `unordered` tells the orders
apart, so the test can fail."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")
from snowrules.adapters.openspiel import load_game  # noqa: E402

RULESET = Path(__file__).resolve().parent / "rulesets" / "unordered_hands"
GAME = load_game(str(RULESET), players=2)


def dealt(game, order: list[int], plays: bool = False):
    """A state after dealing the cards of `order` (seat 0's three, then seat 1's), and after seat
    0 plays its lowest card when `plays`."""
    state = game.new_initial_state()
    for card in order:
        assert state.is_chance_node()
        state.apply_action(card)
    if plays:
        state.apply_action(min(state.legal_actions()))
    return state


def seen_by(state, seat: int) -> tuple:
    return (state.information_state_string(seat), tuple(state.information_state_tensor(seat)),
            state.observation_string(seat), tuple(state.observation_tensor(seat)))


def test_a_hand_is_shown_sorted_and_its_options_too():
    """Seat 0 is dealt C, A, E (ids 2, 0, 4): it sees A, C, E, and is asked to choose among A, C, E."""
    state = dealt(GAME, [2, 0, 4, 1, 3, 5])
    text = state.information_state_string(0)
    assert 'zones.p0.hand=["A", "C", "E"]; zones.p1.hand={"count": 3}' in text
    assert text.endswith('asked at rules.sr:16:5: ["A", "C", "E"]')
    assert '"p0.hand": ["A", "C", "E"]' in state.observation_string(0)
    assert state.observation_string(0).endswith('asked at rules.sr:16:5: ["A", "C", "E"]')


@settings(deadline=None)  # a few adapter states each: no deadline on a loaded machine
@given(cards=st.permutations(range(6)), first=st.permutations(range(3)), second=st.permutations(range(3)),
       plays=st.booleans())
def test_the_same_hands_dealt_in_other_orders_look_the_same_to_every_seat(cards, first, second, plays):
    """Each seat's hand dealt in another order (`first`, `second` reorder seat 0's and seat 1's
    three cards): every seat's four views are unchanged, before and after seat 0 plays."""
    other = [cards[i] for i in first] + [cards[3 + i] for i in second]
    one, two = dealt(GAME, list(cards), plays), dealt(GAME, other, plays)
    for seat in (0, 1):
        assert seen_by(one, seat) == seen_by(two, seat)


def test_without_unordered_the_order_of_the_deal_is_told_apart(tmp_path):
    """The same game with `hidden` hands: C, A, E and A, C, E give seat 0 two information states."""
    folder = tmp_path / "ordered_hands"
    shutil.copytree(RULESET, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("zone hand per player hidden unordered", "zone hand per player hidden"))
    game = load_game(str(folder), players=2)
    one, two = dealt(game, [2, 0, 4, 1, 3, 5]), dealt(game, [0, 2, 4, 1, 3, 5])
    assert one.information_state_string(0) != two.information_state_string(0)
    assert 'zones.p0.hand=["C", "A", "E"]' in one.information_state_string(0)


def test_the_engines_view_shows_an_unordered_hand_sorted_and_the_rules_keep_its_order():
    """Game.view (`--json`) and Game.zone_labels (the terminal, the browser) read `unordered` from the compiled layout
    as the adapter does: C, A, E dealt to seat 0 (draws 2, 0, 4 of the six) are seen as A, C, E,
    the other hand as a count; the state keeps the order of arrival, as the rules see it."""
    from snowrules.compile.compiler import load_program
    from snowrules.runtime.engine import Game
    game = Game(load_program(str(RULESET), None, 2, explicit_chance=True))
    st = game.start(1, explicit=True)
    for card in [2, 0, 4, 1, 3, 5]:
        outcomes = game.chance_outcomes(st)
        game.answer(st, [[value for value, _ in outcomes].index(card)])
    names = game.layout.component_names
    hand = game.layout.zones.index(next(z for z in game.layout.zones if z.family == "hand" and z.owner == 0))
    assert [names[c] for c in st.zones[hand]] == ["C", "A", "E"]
    view = game.view(st, 0)
    assert view["zones"]["p0.hand"] == ["A", "C", "E"] and view["zones"]["p1.hand"] == {"count": 3}
    assert game.zone_labels(st, hand) == ["A", "C", "E"]  # the terminal's holdings and the browser's zones


# (how seat 0 chooses, the options of C, A, E dealt as seat 0 reads them by id, the id played, what it plays)
BY_POSITION = [
    ("choose c from", ["A", "C", "E"], 1, ["C"]),
    ("choose exactly 2 c from", ["[A, C]", "[A, E]", "[C, E]"], 2, ["C", "E"]),
    ("choose up to 2 c from", ["[A, C]", "[A, E]", "[C, E]", "[A]", "[C]", "[E]", "none of them"], 1, ["A", "E"]),
]


@pytest.mark.parametrize("choice, labels, action, played", BY_POSITION)
def test_without_declared_ids_an_option_is_numbered_by_its_place_in_the_sorted_hand(tmp_path, choice, labels,
                                                                                    action, played):
    """Without `choice:` ids the options of seat 0's play are numbered by position: by their
    place as seat 0 is shown them (a card or a combination of cards of the hand, by name), not as
    dealt, so that one information state never has an action meaning C in one state and A in
    another (the hand dealt C, A, E and A, C, E)."""
    folder = tmp_path / "position_ids"
    shutil.copytree(RULESET, folder)
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("  choice: {component: it.rank}\n", "  by_position: true\n")
                        .replace('distinct: "6"', 'distinct: "7"'))
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("choose c from", choice))
    game = load_game(str(folder), players=2)
    one, two = dealt(game, [2, 0, 4, 1, 3, 5]), dealt(game, [0, 2, 4, 1, 3, 5])
    assert one.information_state_string(0) == two.information_state_string(0)
    assert one.observation_string(0) == two.observation_string(0)
    assert [one.action_to_string(0, a) for a in one.legal_actions()] == labels
    assert [two.action_to_string(0, a) for a in two.legal_actions()] == labels
    one.apply_action(action)
    two.apply_action(action)
    names = game.program.layout.component_names
    assert [sorted(names[c] for c in s.st.zones[game.program.layout.zones.index(
        next(z for z in game.program.layout.zones if z.family == "played"))]) for s in (one, two)] == [played, played]
