"""Issue 27: `choose up to N` asked item by item through the OpenSpiel adapter (adapters/picks.py).

tests/rulesets/passed_up_to deals four of eight cards (A..H, action ids 0..7: each card's rank)
one by one to each seat, then seat 0 passes up to two of its cards to seat 1 (`choose up to 2
cards`), and seat 1 keeps one card. The manifest declares the id of done (`action_ids: {done:
"8"}`), so the pass is asked card by card: each node offers the cards not picked yet and done;
two cards, or done, make the answer. Without `done:` the decision stays one node of
combinations numbered by position, as before.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
from snowrules.adapters.openspiel import load_game  # noqa: E402
from snowrules.compile.compiler import load_program  # noqa: E402
from snowrules.runtime.engine import Game  # noqa: E402

RULESET = Path(__file__).resolve().parent / "rulesets" / "passed_up_to"
GAME = load_game(str(RULESET))
DEAL = [3, 1, 0, 2, 4, 5, 6, 7]  # seat 0 is dealt D, B, A, C; seat 1 E, F, G, H
DONE = 8
FIRST_LOOK = ('saw zones.box={"count": 0}; zones.deck={"count": 0}; zones.p0.hand=["A", "B", "C", "D"]; '
              'zones.p1.hand={"count": 4}; zones.p0.passed=[]; zones.p1.passed={"count": 0}; counters.turn=1')
ASKED = 'asked at rules.sr:17:5: ["A", "B", "C", "D"]'


def played(game, actions: list[int], log: list | None = None):
    state = game.new_initial_state()
    if log is not None:  # the engine's events, as a game run with a log writes them
        state._owned()
        state.st.sink = game.engine.listener(log.append)
    for action in actions:
        state.apply_action(action)
    return state


def edited(tmp_path: Path, old: str, new: str, file: str = "ruleset.yaml"):
    folder = tmp_path / "passed_up_to"
    shutil.copytree(RULESET, folder)
    path = folder / file
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    return load_game(str(folder))


def test_each_pick_offers_the_cards_left_and_done():
    state = played(GAME, DEAL)
    assert (state.current_player(), state.legal_actions()) == (0, [0, 1, 2, 3, DONE])
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["A", "B", "C", "D", "done"]
    state.apply_action(2)  # C
    assert (state.current_player(), state.legal_actions()) == (0, [0, 1, 3, DONE])
    state.apply_action(0)  # A: the second card makes the answer, without done
    assert (state.current_player(), state.legal_actions()) == (1, [4, 5, 6, 7])
    assert pytest.raises(ValueError, played, GAME, DEAL + [2, 2]).match("action 2 is not legal for player 0")


@pytest.mark.parametrize(("picks", "passed", "kept"), [
    ([DONE], [], ["D", "B", "A", "C"]),           # none
    ([3, DONE], ["D"], ["B", "A", "C"]),          # one
    ([2, 0], ["A", "C"], ["D", "B"]),             # two, in the hand's order (D, B, A, C)
    ([0, 2], ["A", "C"], ["D", "B"]),
])
def test_done_stops_at_any_number_of_cards(picks, passed, kept):
    state = played(GAME, DEAL + picks)
    layout = GAME.program.layout
    names = layout.component_names

    def zone(family: str, owner: int) -> list[str]:
        index = next(z for z, found in enumerate(layout.zones) if found.family == family and found.owner == owner)
        return [names[c] for c in state.st.zones[index]]
    assert (zone("passed", 1), zone("hand", 0), state.current_player()) == (passed, kept, 1)


def test_the_information_state_notes_each_pick_and_done():
    one = played(GAME, DEAL + [2, DONE])
    assert one.information_state_string(0) == "\n".join([
        FIRST_LOOK, ASKED, "chose C", "chose done", 'saw zones.p0.hand=["A", "B", "D"]; zones.p1.passed={"count": 1}'])
    two = played(GAME, DEAL + [2, 0])   # two cards: the answer is made, no done to note
    assert two.information_state_string(0).splitlines()[2:4] == ["chose C", "chose A"]
    open_pass = played(GAME, DEAL + [2])
    assert open_pass.information_state_string(0) == "\n".join([FIRST_LOOK, ASKED, "chose C"])
    # seat 1 sees the card it was passed, and seat 0's hand one card smaller
    assert one.information_state_string(1).splitlines()[-2] == 'saw zones.p0.hand={"count": 3}; zones.p1.passed=["C"]'


def test_a_declared_memory_forgets_the_order_and_notes_the_set_once(tmp_path):
    game = edited(tmp_path, 'as "pass up to two cards":', 'as "pass up to two cards" remembered as sorted(cards):',
                  "rules.sr")
    one, two = played(game, DEAL + [2, 0]), played(game, DEAL + [0, 2])
    assert one.information_state_string(0) == two.information_state_string(0)
    assert one.information_state_string(0).splitlines()[2] == "chose [A, C]"
    stopped = played(game, DEAL + [3, DONE])
    assert stopped.information_state_string(0).splitlines()[2] == "chose [D]"
    assert played(game, DEAL + [DONE]).information_state_string(0).splitlines()[2] == "chose none of them"


@pytest.mark.parametrize("picks", [[DONE], [3, DONE], [2, 0], [1, 3]])
def test_the_log_is_the_whole_answers(picks):
    """The events of the game played pick by pick through the adapter are those of the same game
    given each answer whole (the combination's index among the options), as without the adapter."""
    adapter_log: list = []
    played(GAME, DEAL + picks + [5], adapter_log)
    engine = Game(load_program(str(RULESET), None, 2, (), True))
    whole_log: list = []
    st = engine.start(0, whole_log.append, explicit=True)
    names = engine.layout.component_names
    ranks = engine.layout.fields["rank"]
    for rank in DEAL:
        engine.answer(st, [st.pending.options[0].index(ranks.index(rank))])
    chosen = sorted((ranks.index(p) for p in picks if p != DONE), key=st.zones[st.where[0]].index)
    engine.answer(st, [st.pending.options[0].index(chosen)])
    engine.answer(st, [st.pending.options[0].index(ranks.index(5))])
    assert st.result is not None and sorted(names[c] for c in chosen) == sorted("ABCDEFGH"[p] for p in picks
                                                                                if p != DONE)
    # the adapter's first state is made before a log could listen: the setup's phase and its
    # `move all from box to deck`; every event after is the same
    assert [event["e"] for event in whole_log[:2]] == ["phase", "move"] and adapter_log == whole_log[2:]


def test_without_done_the_decision_stays_one_node_of_combinations(tmp_path):
    game = edited(tmp_path, '  distinct: "9"\n  chance_outcomes: "8"\n  max_game_length: "12"\n  done: "8"\n',
                  '  distinct: "11"\n  chance_outcomes: "8"\n  max_game_length: "12"\n')
    state = played(game, DEAL)
    # 1 + 4 + 6 combinations, the largest first, numbered by position
    assert state.legal_actions() == list(range(11))
    assert state.action_to_string(0, 10) == "none of them"


@pytest.mark.parametrize(("done", "message"), [
    ('"9"', "the id of done is 9, not one of 0..8"),
    ('"0 - 1"', "the id of done is -1, not one of 0..8"),
    ('\'"stop"\'', "an action id or count must be a number, not a text"),
    ('"size(deck)"', "this expression cannot be worked out without the game's state"),
])
def test_a_done_id_that_cannot_be_one_is_refused_at_its_line(tmp_path, capsys, done, message):
    from snowrules.cli.main import main
    folder = tmp_path / "passed_up_to"
    shutil.copytree(RULESET, folder)
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace('done: "8"', f"done: {done}"))
    assert main(["validate", str(folder), "--no-play"]) == 1
    line = next(n for n, text in enumerate(manifest.read_text().splitlines(), 1) if "done:" in text)
    out = capsys.readouterr().out
    assert f"ruleset.yaml:{line}:" in out and message in out and "Traceback" not in out, out


def test_a_done_id_shared_with_an_offered_card_stops_the_game_at_the_decision(tmp_path):
    shared = edited(tmp_path / "shared", 'done: "8"', 'done: "2"')
    with pytest.raises(Exception, match="the id of done, 2, is also the id of C"):
        played(shared, DEAL).legal_actions()


SECRET_PASS = ('    ask each p in players secretly to choose up to 2 cards from p.hand as "pass up to two cards":\n'
               '        move cards to left_of(p).passed')
FIRST_PASS = ('    ask first(players) to choose up to 2 cards from first(players).hand as "pass up to two cards":\n'
              '        move cards to last(players).passed')


def test_a_secret_pass_waits_for_every_seat_and_a_seat_that_has_answered_has_one_action(tmp_path):
    """Both seats pass up to two cards at once. Seat 0 picks done at once, seat 1 picks E: at the
    next node seat 0 has only NOTHING_TO_DECIDE (0), seat 1 the cards left and done; seat 1's
    done then gives the rules both answers: seat 0 passes nothing, seat 1 E."""
    game = edited(tmp_path, FIRST_PASS, SECRET_PASS, "rules.sr")
    state = played(game, DEAL)
    assert (state.current_player(), state.legal_actions(0), state.legal_actions(1)) == (
        -2, [0, 1, 2, 3, DONE], [4, 5, 6, 7, DONE])
    state.apply_actions([DONE, 4])
    assert (state.current_player(), state.legal_actions(0), state.legal_actions(1)) == (-2, [0], [5, 6, 7, DONE])
    state.apply_actions([0, DONE])
    assert state.current_player() == 1   # seat 1 keeps a card: the pass is made
    lines = state.information_state_string(1).splitlines()
    assert lines[2:4] == ["chose E", "chose done"]
    assert state.information_state_string(0).splitlines()[2] == "chose done"
    layout = game.program.layout
    passed = [next(z for z, found in enumerate(layout.zones) if found.family == "passed" and found.owner == seat)
              for seat in (0, 1)]
    assert [[layout.component_names[c] for c in state.st.zones[z]] for z in passed] == [["E"], []]
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize("remembered", [True, False])
def test_openspiels_checks_pass(tmp_path, remembered):
    game = GAME if not remembered else edited(tmp_path, 'as "pass up to two cards":',
                                              'as "pass up to two cards" remembered as sorted(cards):', "rules.sr")
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_pettingzoos_api_test_passes_with_done():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from snowrules.adapters.pettingzoo import env
    api_test(env(str(RULESET), observation="information_state"), num_cycles=50)
