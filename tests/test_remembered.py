"""Issue 27 item 3: what a player remembers of a decision. tests/rulesets/passed_cards deals four
of eight cards (A..H, action ids 0..7: each card's rank) one by one to each seat, then seat 0
passes three of its cards to seat 1 (`choose exactly 3 cards ... remembered as sorted(cards)`),
and seat 1 keeps one card. Through the OpenSpiel adapter the pass is three actions of seat 0, one
card each by its declared id, as OpenSpiel's card games ask a pass; seat 0 remembers the three
cards as a set. The same game without the declaration remembers the order, so the tests can fail.
"""
from __future__ import annotations

import shutil
from itertools import permutations
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
from snowrules.adapters.openspiel import load_game  # noqa: E402
from snowrules.compile.compiler import intermediate_form, load_program  # noqa: E402
from snowrules.compile.ir import nodes as ir  # noqa: E402
from snowrules.load.ruleset import load_ruleset  # noqa: E402

RULESET = Path(__file__).resolve().parent / "rulesets" / "passed_cards"
GAME = load_game(str(RULESET))
DEAL = [3, 1, 0, 2, 4, 5, 6, 7]  # seat 0 is dealt D, B, A, C; seat 1 E, F, G, H
FIRST_LOOK = ('saw zones.box={"count": 0}; zones.deck={"count": 0}; zones.p0.hand=["A", "B", "C", "D"]; '
              'zones.p1.hand={"count": 4}; zones.p0.passed=[]; zones.p1.passed={"count": 0}; counters.turn=1')


def played(game, actions: list[int]):
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def seen_by(state, seat: int) -> tuple:
    return (state.information_state_string(seat), tuple(state.information_state_tensor(seat)),
            state.observation_string(seat), tuple(state.observation_tensor(seat)))


def edited(tmp_path: Path, old: str, new: str):
    """The game with one edit of its rules."""
    folder = tmp_path / "passed_cards"
    shutil.copytree(RULESET, folder)
    rules = folder / "rules.sr"
    assert old in rules.read_text()
    rules.write_text(rules.read_text().replace(old, new))
    return load_game(str(folder))


def test_the_lowered_decision_carries_what_its_chooser_remembers():
    outline, _ = intermediate_form(load_ruleset(str(RULESET)), 2)
    asks = [x for x in outline.statements() if isinstance(x, ir.Ask)]
    assert [(a.prompt, a.remembered) for a in asks] == [
        ("pass three cards", ir.Remembered(asks[0].pos, asks[0].syntax.remembered, "cards", None)),
        ("keep a card", None)]
    program = load_program(str(RULESET), None, 2)
    ((rule, value),) = program.remembered.items()
    assert rule.endswith("passed_cards/rules.sr:17:5") and value.kind == "component"


def test_each_card_is_picked_by_its_own_id_wherever_it_lies_in_the_hand():
    """The hand holds D, B, A, C (in the order dealt): card X is action X's rank, not its place."""
    state = played(GAME, DEAL)
    assert (state.current_player(), state.legal_actions()) == (0, [0, 1, 2, 3])
    assert [state.action_to_string(0, a) for a in range(4)] == ["A", "B", "C", "D"]
    state.apply_action(2)  # C
    assert (state.current_player(), state.legal_actions()) == (0, [0, 1, 3])
    state.apply_action(0)  # A
    assert (state.current_player(), state.legal_actions()) == (0, [1, 3])
    state.apply_action(3)  # D: the pass is made
    assert (state.current_player(), state.legal_actions()) == (1, [4, 5, 6, 7])
    assert pytest.raises(ValueError, played, GAME, DEAL + [2, 2]).match("action 2 is not legal for player 0")


def test_the_rules_get_one_answer_whatever_the_order_of_the_picks():
    """Every order of A, C, D gives the same game state: the combination, its cards in the hand's
    order (D, A, C), moved to seat 1; the game's own answer is its index among the combinations."""
    states = {str(played(GAME, DEAL + list(order))) for order in permutations([0, 2, 3])}
    assert len(states) == 1
    state = played(GAME, DEAL + [0, 2, 3])
    names = GAME.program.layout.component_names
    passed = GAME.program.layout.zones.index(next(z for z in GAME.program.layout.zones
                                                   if z.family == "passed" and z.owner == 1))
    assert [names[c] for c in state.st.zones[passed]] == ["D", "A", "C"]


def test_the_chooser_forgets_the_order_of_its_picks():
    """All six orders of A, C, D: every seat's four views are the same, after the pass and at the end."""
    for tail in ([], [5]):
        seen = {tuple(seen_by(played(GAME, DEAL + list(order) + tail), seat) for seat in (0, 1))
                for order in permutations([0, 2, 3])}
        assert len(seen) == 1
    assert played(GAME, DEAL + [3, 0, 2]).information_state_string(0) == "\n".join([
        FIRST_LOOK, 'asked at rules.sr:17:5: ["A", "B", "C", "D"]', "chose [A, C, D]",
        'saw zones.p0.hand=["B"]; zones.p1.passed={"count": 3}'])


def test_picks_so_far_are_held_as_a_set_while_the_pass_is_open():
    one, two = played(GAME, DEAL + [2, 0]), played(GAME, DEAL + [0, 2])
    assert seen_by(one, 0) == seen_by(two, 0) and one.legal_actions() == [1, 3]
    assert one.information_state_string(0) == "\n".join([
        FIRST_LOOK, 'asked at rules.sr:17:5: ["A", "B", "C", "D"]', 'picking ["A", "C"]'])
    assert one.observation_string(0).endswith('\nasked at rules.sr:17:5: ["B", "D"]\npicked ["A", "C"]')
    assert one.information_state_string(1) == played(GAME, DEAL).information_state_string(1)
    # the picks held count in the tensor's `chose` piece (names A..H, then the two seats): A and C
    from open_spiel.python.observation import make_observation
    observer = make_observation(GAME, pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(one, 0)
    assert observer.dict["chose"].tolist() == [1, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    observer.set_from(played(GAME, DEAL + [0, 2, 3]), 0)  # once the pass is made: the remembered A, C, D
    assert observer.dict["chose"].tolist() == [1, 0, 1, 1, 0, 0, 0, 0, 0, 0]


def test_without_the_declaration_the_chooser_remembers_the_order(tmp_path):
    game = edited(tmp_path, ' remembered as sorted(cards)', '')
    assert not game.program.remembered
    one, two = played(game, DEAL + [2, 0, 3]), played(game, DEAL + [0, 2, 3])
    assert str(one) == str(two)  # the same game
    assert one.information_state_string(0) != two.information_state_string(0)
    assert one.information_state_string(0) == "\n".join([
        FIRST_LOOK, 'asked at rules.sr:17:5: ["A", "B", "C", "D"]', "chose C", "chose A", "chose D",
        'saw zones.p0.hand=["B"]; zones.p1.passed={"count": 3}'])
    assert one.information_state_string(1) == two.information_state_string(1)  # seat 1 never saw the order


def test_a_value_of_the_answer_and_of_the_chooser_is_remembered_instead_of_the_answer(tmp_path):
    """`remembered as size(p.hand)` on seat 1's secret decision: it notes 4 (its hand when asked),
    not the card it kept; `remembered as c.rank % 2` on a decision of one seat: 1 for F."""
    game = edited(tmp_path, 'ask last(players) to choose c from last(players).hand as "keep a card":\n'
                            '        move c to last(players).passed',
                  'ask each p in [last(players)] secretly to choose c from p.hand as "keep a card" '
                  'remembered as size(p.hand):\n        move c to p.passed')
    lines = played(game, DEAL + [0, 2, 3, 5]).information_state_string(1).splitlines()
    assert lines[-2:] == ["chose 4", 'saw zones.p1.hand=["E", "G", "H"]; zones.p1.passed=["A", "C", "D", "F"]']
    game = edited(tmp_path / "again", 'as "keep a card":', 'as "keep a card" remembered as c.rank % 2:')
    lines = played(game, DEAL + [0, 2, 3, 5]).information_state_string(1).splitlines()
    assert lines[-2] == "chose 1"


@pytest.mark.parametrize("remembered", [True, False])
def test_openspiels_checks_pass(tmp_path, remembered):
    game = GAME if remembered else edited(tmp_path, ' remembered as sorted(cards)', '')
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_pettingzoos_api_test_passes_with_picks_asked_one_by_one():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from snowrules.adapters.pettingzoo import env
    api_test(env(str(RULESET), observation="information_state"), num_cycles=50)


def test_a_remembered_value_that_fails_is_reported_at_its_place_when_the_answer_is_given(tmp_path):
    from snowrules.language.diagnostics import RuntimeRulesError
    game = edited(tmp_path, "remembered as sorted(cards)", "remembered as first(cards).rank / (size(cards) - 3)")
    state = played(game, DEAL + [0, 1])
    state.information_state_string(0)  # the seats keep notes: the last pick is noted
    with pytest.raises(RuntimeRulesError) as raised:
        state.apply_action(2)
    assert str(raised.value) == f"{tmp_path}/passed_cards/rules.sr:17:111: error: division by zero"


SECRET_PASS = ('    ask each p in players secretly to choose exactly 2 cards from p.hand as "pass two cards" '
               'remembered as sorted(cards):\n        move cards to left_of(p).passed')
FIRST_PASS = ('    ask first(players) to choose exactly 3 cards from first(players).hand as "pass three cards" '
              'remembered as sorted(cards):\n        move cards to last(players).passed')


@pytest.mark.parametrize("remembered", [True, False])
def test_a_secret_pass_is_asked_card_by_card_of_every_seat_at_once(tmp_path, remembered):
    """Both seats pass two cards at once: two simultaneous nodes, each seat's cards by their ids.
    Seat 0 passes A and C, seat 1 E and H, in two orders: with the declaration each seat ends in
    one information state; without, each tells its own orders apart."""
    rules = SECRET_PASS if remembered else SECRET_PASS.replace(" remembered as sorted(cards)", "")
    game = edited(tmp_path, FIRST_PASS, rules)
    state = played(game, DEAL)
    assert (state.current_player(), state.legal_actions(0), state.legal_actions(1)) == (-2, [0, 1, 2, 3], [4, 5, 6, 7])
    state.apply_actions([0, 7])
    assert (state.current_player(), state.legal_actions(0), state.legal_actions(1)) == (-2, [1, 2, 3], [4, 5, 6])
    one = played(game, DEAL)
    one.apply_actions([0, 7])
    one.apply_actions([2, 4])
    two = played(game, DEAL)
    two.apply_actions([2, 4])
    two.apply_actions([0, 7])
    assert str(one) == str(two) and (one.current_player(), one.legal_actions()) == (1, [5, 6])
    lines = one.information_state_string(0).splitlines()
    assert lines[2:-1] == (["chose [A, C]"] if remembered else ["chose A", "chose C"])
    for seat in (0, 1):
        assert (one.information_state_string(seat) == two.information_state_string(seat)) is remembered
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_a_prompt_with_values_and_what_is_remembered_in_one_decision(tmp_path):
    """Edition 3's two changes together: `as "pass {2} cards to {last(players)}" remembered as
    sorted(x)`. The person deciding reads the values (2, the seat p1); the chooser remembers the
    two cards as a set (A and C picked in either order: one information state)."""
    from snowrules.compile.compiler import compile_ruleset
    from snowrules.play.prompts import prompt_of
    from snowrules.runtime.engine import Game
    game = edited(tmp_path, FIRST_PASS, '    ask first(players) to choose exactly 2 x from first(players).hand as '
                  '"pass {2} cards to {last(players)}" remembered as sorted(x):\n'
                  '        move x to last(players).passed')
    engine = Game(compile_ruleset(load_ruleset(str(tmp_path / "passed_cards")), 2))
    st = engine.start(1)
    assert (st.pending.seats, prompt_of(engine, st, 0)) == ([0], "pass 2 cards to p1")
    one, two = played(game, DEAL + [0, 2]), played(game, DEAL + [2, 0])
    assert str(one) == str(two) and seen_by(one, 0) == seen_by(two, 0)
    assert one.information_state_string(0).splitlines()[2] == "chose [A, C]"
