"""Snow Planner through the OpenSpiel adapter: OpenSpiel's random_sim_test at 1-4 players and
with the automa at two, and a mid-game decision that offers free actions (they are actions: they
have their own ids, and taking one asks the same decision again) surviving a clone and a
serialization round trip."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import round_trip  # noqa: E402
from snowrules.adapters.openspiel import load_game  # noqa: E402

# (players, options): every player count, and the automa's optional seat at two.
CONFIGS = [(1, {}), (2, {}), (2, {"automa_for_two": True}), (3, {}), (4, {})]
# random_sim_test's generator has a fixed seed: its first simulation of a game is always the same.
# test_openspiel.py simulates Snow Planner at its default (1 player) and its most players (4) twice
# over, the first of them this test's one simulation: those two are not simulated again here.
SIMULATED_IN_TEST_OPENSPIEL = {1, 4}


@pytest.mark.parametrize("players, options", CONFIGS, ids=[f"{p}p{'+automa' if o else ''}" for p, o in CONFIGS])
def test_random_sim_test_passes(players, options):
    game = load_game("snow_planner", players=players, **options)
    assert game.num_players() == players  # the automa is no OpenSpiel player
    if options or players not in SIMULATED_IN_TEST_OPENSPIEL:
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _play_to_a_free_action(game, seed: int):
    """Random play until a player's decision offers the free action of raising a die; the state there."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            legal = state.legal_actions()
            if any(state.action_to_string(a).startswith("free: raise a die") for a in legal) and state.history():
                return state
            state.apply_action(rng.choice(legal))
    raise AssertionError("no free action was offered in a whole game")


def _ticket_counter(game, state, seat_name: str) -> int:
    layout = game.program.layout
    return state.st.counters[layout.counter_labels.index(f"{seat_name}.res[ticket]")]


@pytest.mark.parametrize("players, options", [(2, {}), (2, {"automa_for_two": True})], ids=["2p", "2p+automa"])
def test_a_free_action_is_an_action_and_survives_clone_and_serialization(players, options):
    game = load_game("snow_planner", players=players, **options)
    state = _play_to_a_free_action(game, seed=5)
    player = state.current_player()
    legal = state.legal_actions()
    labels = [state.action_to_string(a) for a in legal]
    free = [a for a, label in zip(legal, labels) if label.startswith("free: ")]
    plain = [a for a in legal if a not in free]
    assert plain and free
    # a free action's id is beyond every plain option's: the ids of the decision's own options do
    # not move when free actions are offered beside them
    assert min(free) >= game.distinct > max(plain)
    assert legal == sorted(legal)

    # clone and serialization round trip at this decision: the same node, the same strings
    clone = state.clone()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    engine_copy = round_trip(state.st)
    assert engine_copy == state.st
    for other in (clone, restored):
        assert other.current_player() == player
        assert other.legal_actions() == legal
        assert [other.action_to_string(a) for a in legal] == labels
        assert other.information_state_string(player) == state.information_state_string(player)

    # taking the free action (a die raised with tickets) runs it (its payment is a decision of
    # the same player), then asks the same decision again, with the plain options' ids as before
    raise_die = next(a for a in free if "raise a die" in state.action_to_string(a))
    seat = game.program.layout.seat_names[player]
    rule = state.st.pending.rule
    tickets = _ticket_counter(game, state, seat)
    after = []
    for copy in (state, clone, restored):
        copy.apply_action(raise_die)
        while copy.st.pending.rule != rule:
            assert copy.current_player() == player
            copy.apply_action(copy.legal_actions()[0])
        assert copy.current_player() == player
        assert set(plain) <= set(copy.legal_actions())
        assert _ticket_counter(game, copy, seat) < tickets
        after.append((copy.legal_actions(), str(copy), copy.information_state_string(player)))
    assert after[0] == after[1] == after[2]
