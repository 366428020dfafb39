"""The adapter's answers in Python (asked without going through pyspiel's C++) against the same
questions asked through pyspiel's C++ State, at every node of random games: the fast path must
never change an answer."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from snowrules.adapters.openspiel import load_game  # noqa: E402

RULESETS = Path(__file__).resolve().parent / "rulesets"
# Simultaneous nodes (goofspiel), one seat's nodes and deals (oh_hell), weighted and plain dice
# (pig), a perfect-recall card game (kuhn_poker), a bundled game with secret simultaneous play.
GAMES = [
    ("goofspiel", {"players": 4}),
    ("goofspiel", {"players": 2, "num_cards": 5, "points_order": "ascending"}),
    ("oh_hell", {"players": 4}),
    ("oh_hell", {"players": 3, "num_suits": 2, "num_cards_per_suit": 3}),
    (str(RULESETS / "pig"), {}),
    (str(RULESETS / "kuhn_poker"), {}),
    ("snow_time", {"players": 3}),
]


def _answer(ask, *args):
    """What `ask(*args)` gives: its value, or the type and message of what it raised."""
    try:
        return ask(*args)
    except Exception as error:  # noqa: BLE001 - the error is the answer compared
        return type(error), str(error)


def _nodes(game, seed: int):
    """Every node of one random game, the terminal one included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif player == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([rng.choice(pyspiel.State.legal_actions(state, p))
                                 for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(pyspiel.State.legal_actions(state)))


@pytest.mark.parametrize("name, params", GAMES, ids=lambda v: Path(v).name if isinstance(v, str) else
                         "-".join(f"{k}={x}" for k, x in v.items()))
def test_legal_actions_in_python_are_pyspiels_at_every_node(name, params):
    """For the current player, every seat, the chance and simultaneous pseudo-players and seats
    out of range: the same ids (or the same error) as pyspiel's C++ State.legal_actions."""
    game = load_game(name, **params)
    askers = [()] + [(p,) for p in range(-5, game.num_players() + 2)]
    nodes = 0
    for seed in range(6):
        for state in _nodes(game, seed):
            nodes += 1
            for args in askers:
                ours = _answer(state.legal_actions, *args)
                theirs = _answer(pyspiel.State.legal_actions, state, *args)
                assert ours == theirs, (seed, state.history(), args)
            copy = state.clone()
            assert copy.legal_actions() == pyspiel.State.legal_actions(copy)
    assert nodes >= 6 * 3  # every game asked something


def test_legal_actions_in_python_are_a_fresh_list():
    """pyspiel hands out a new list at every call: a caller may change it without harm."""
    state = load_game("goofspiel", players=2, num_cards=4, points_order="ascending").new_initial_state()
    legal = state.legal_actions(0)
    legal.append(99)
    assert state.legal_actions(0) == [0, 1, 2, 3]


@pytest.mark.parametrize("name, params", [("oh_hell", {"players": 3}), (str(RULESETS / "kuhn_poker"), {})],
                         ids=["oh_hell", "kuhn_poker"])
def test_new_initial_states_are_copies_that_share_nothing_that_changes(name, params):
    """New states copy the first one made rather than running the setup again: a game played on
    one changes neither the next new state nor a clone of the first."""
    game = load_game(name, **params)
    first = game.new_initial_state()
    before = (str(first), first.history(), [first.information_state_string(p) for p in range(game.num_players())])
    played = game.new_initial_state()
    for state in _nodes(game, 3):
        played = state
    assert played.is_terminal() and played.history()
    for state in (first, game.new_initial_state(), first.clone()):
        assert (str(state), state.history(),
                [state.information_state_string(p) for p in range(game.num_players())]) == before


@pytest.mark.parametrize("name, params", [("oh_hell", {"players": 3}), (str(RULESETS / "kuhn_poker"), {}),
                                          (str(RULESETS / "pig"), {})], ids=["oh_hell", "kuhn_poker", "pig"])
def test_a_new_state_that_notes_or_moves_first_leaves_the_shared_first_state_alone(name, params):
    """A new state shares the game's first state until it changes it (and pyspiel's clone()
    starts from a new state): noting an information state, moving, or moving a clone of an
    unmoved state changes no other state."""
    game = load_game(name, **params)
    game.new_initial_state()
    fresh = game.new_initial_state()
    before = (str(fresh), [fresh.information_state_string(p) for p in range(game.num_players())])
    noted = game.new_initial_state()
    noted._eager = True
    noted.recall_now()
    clone = game.new_initial_state().clone()
    for state in (noted, clone):
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
        assert str(state) != before[0]
    again = game.new_initial_state()
    assert (str(again), [again.information_state_string(p) for p in range(game.num_players())]) == before
    assert (str(fresh), [fresh.information_state_string(p) for p in range(game.num_players())]) == before


def _noting_every_node(game):
    """A new state that notes every node as it arrives (how every state did before notes were
    taken only when asked for)."""
    state = game.new_initial_state()
    state._eager = True
    state.recall_now()
    return state


def _told_afresh(state, seat: int) -> str:
    """A seat's information state made from all its notes at once (what Recall.text adds to)."""
    from snowrules.adapters.recall import _note_text
    game = state.get_game()
    lines = (_note_text(note, seat, game.sight, game.engine) for note in state.recall_now().notes[seat])
    return "\n".join(line for line in lines if line is not None)


@pytest.mark.parametrize("name, params", GAMES, ids=lambda v: Path(v).name if isinstance(v, str) else
                         "-".join(f"{k}={x}" for k, x in v.items()))
def test_information_states_noted_when_asked_are_those_noted_at_every_node(name, params):
    """A state notes a node only when an information state is asked there, and replays its moves
    when nodes went by unnoted: whatever the moments of asking, and across clones, every seat's
    information state is the one a state noting every node gives."""
    game = load_game(name, **params)
    seats = game.num_players()
    compared = 0
    for seed in range(8):
        rng = random.Random(seed)
        eager, lazy = _noting_every_node(game), game.new_initial_state()
        while True:
            if rng.random() < (0.2, 0.6, 1.0)[seed % 3]:  # asked rarely, often, or at every node
                compared += 1
                assert [lazy.information_state_string(p) for p in range(seats)] == \
                    [eager.information_state_string(p) for p in range(seats)], (seed, lazy.history())
                # each text is added to as notes come (Recall.texts): the same as told afresh
                assert [lazy.information_state_string(p) for p in range(seats)] == \
                    [_told_afresh(lazy, p) for p in range(seats)], (seed, lazy.history())
            if rng.random() < 0.3:
                lazy = lazy.clone()
            if lazy.is_terminal():
                break
            player = lazy.current_player()
            if player == pyspiel.PlayerId.CHANCE:
                outcomes, weights = zip(*lazy.chance_outcomes())
                actions = rng.choices(outcomes, weights)[0]
            elif player == pyspiel.PlayerId.SIMULTANEOUS:
                actions = [rng.choice(lazy.legal_actions(p)) for p in range(seats)]
            else:
                actions = rng.choice(lazy.legal_actions())
            for state in (eager, lazy):
                state.apply_actions(actions) if isinstance(actions, list) else state.apply_action(actions)
        assert [lazy.information_state_string(p) for p in range(seats)] == \
            [eager.information_state_string(p) for p in range(seats)]
    assert compared > 8


@pytest.mark.parametrize("name, params", GAMES, ids=lambda v: Path(v).name if isinstance(v, str) else
                         "-".join(f"{k}={x}" for k, x in v.items()))
def test_ids_kept_from_a_seats_last_options_are_those_worked_out_afresh(name, params):
    """A node's ids taken from the last draw's (Node.after_draw: a deal's next card) or from each
    seat's last options (nodes.Kept: the deck less the card drawn a turn ago, a hand less the card
    played) are, at every node, those worked out afresh with nothing kept: the same ids in the
    same order and sorted, the same legal ids."""
    from snowrules.adapters.nodes import CHANCE_SEAT, Kept, _after_taking
    game = load_game(name, **params)
    taken = missed = 0
    for seed in range(3):
        for state in _nodes(game, seed):
            if state.is_terminal():
                continue
            pending = state.st.pending
            for seat, options in zip([CHANCE_SEAT] if pending.chance else pending.seats, pending.options):
                last = state._kept.draw if seat == CHANCE_SEAT else state._kept.decision
                if last is not None and last.kind == pending.kind and seat in last.seats:
                    at = last.seats.index(seat)
                    kept = _after_taking(last.options[at], *last.ids[at], last.taken[at], options) is not None
                    taken, missed = taken + kept, missed + (not kept)
            node = state._node or state._work_out_node()
            was, state._kept = state._kept, Kept()
            afresh = state._work_out_node()
            state._kept = was
            assert (node.ids, node.legal, node.left_out) == (afresh.ids, afresh.legal, afresh.left_out)
    # the deck and the hands of a simultaneous game keep them (dice have position ids)
    assert (taken > 0) == (name == "goofspiel"), (taken, missed)


# A draw of components 7, 3, 9, 5 with ids 70, 30, 90, 50 (the declared id of each), the 3 drawn
# (index 1): the next draw's outcomes, and the ids kept for it (in its order, and sorted).
AFTER_DRAW = [
    ("the rest in order", [7, 9, 5], ([70, 90, 50], [50, 70, 90])),
    ("the last one drawn instead", [7, 3, 9], None),
    ("the rest in another order", [9, 7, 5], None),
    ("one fewer again", [7, 9], None),
    ("as many as before", [7, 3, 9, 5], None),
    ("other components", [7, 9, 6], None),
]


@pytest.mark.parametrize("case, after, expected", AFTER_DRAW, ids=[row[0] for row in AFTER_DRAW])
def test_a_draws_ids_are_kept_only_when_its_outcomes_are_the_last_draws_but_the_one_drawn(case, after, expected):
    from snowrules.adapters.openspiel import Node
    chance = pyspiel.PlayerId.CHANCE
    node = Node([([70, 30, 90, 50], [30, 50, 70, 90])], {chance: [30, 50, 70, 90]}, [], True)
    kept = node.after_draw(1, [7, 3, 9, 5], after)
    if expected is None:
        assert kept is None
    else:
        assert kept.ids == [expected] and kept.legal == {chance: expected[1]} and kept.by_option


def test_a_seats_kept_ids_are_used_only_for_its_last_options_but_the_one_taken():
    """nodes.declared_node: each seat's list from the last decision's record when it is the seat's
    list there less the option taken, of the same kind; worked out afresh otherwise (ids 10 *
    option), and for every seat when the last decision was of another kind."""
    from snowrules.adapters.nodes import Kept, Taken, declared_node
    from snowrules.model.values import Decision
    known = {o: 10 * o for o in range(10)}
    wrong = [0, 1, 2]  # ids no declared table gives: used only where the record is
    last = Taken("component", [1, 0], [[4, 6, 2], [5, 3, 8]], [(wrong, wrong), ([50, 30, 80], [30, 50, 80])], [0, 1])
    pending = Decision([0, 1, 2], [[5, 8], [4, 2], [2, 3]], True, "r:1:1", "x")
    node = declared_node(known, pending, Kept(None, last))
    assert node.ids[0] == ([50, 80], [50, 80])           # kept: [5, 3, 8] less 3 (seat 0, second in the record)
    assert node.ids[1] == ([40, 20], [20, 40])           # [4, 6, 2] less 4 would be [6, 2]: afresh
    assert node.ids[2] == ([20, 30], [20, 30])           # a seat the record does not have: afresh
    assert node.legal == {0: [50, 80], 1: [20, 40], 2: [20, 30]} and node.left_out == [0]
    other = Kept(None, last._replace(kind="player", ids=[(wrong, wrong), (wrong, wrong)]))
    assert declared_node(known, Decision([1, 0], [[6, 2], [5, 8]], True, "r:1:1", "x"), other).ids == \
        [([60, 20], [20, 60]), ([50, 80], [50, 80])]     # another kind: afresh, though the lists fit
    assert declared_node(known, Decision([0, 1], [[5, 8], [5, 5]], True, "r:1:1", "x"), Kept(None, last)) is None


def test_a_clone_shares_the_kept_ids_and_its_moves_never_change_the_originals():
    """nodes.Kept is never changed once made: a clone shares it (no copy at every clone), and a
    move of either state replaces its own record, so the other's ids stay those of its own
    history (checked against ids worked out afresh)."""
    from snowrules.adapters.nodes import Kept
    game = load_game("goofspiel", players=2)
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
        state.apply_actions([state.legal_actions(0)[-1], state.legal_actions(1)[0]])
    copy = state.clone()
    assert copy._kept is state._kept
    before = state._kept
    copy.apply_action(copy.legal_actions()[-1])
    copy.apply_actions([copy.legal_actions(0)[0], copy.legal_actions(1)[-1]])
    assert state._kept is before and copy._kept is not before
    for each in (state, copy):
        each.apply_action(each.legal_actions()[0])
        node = each._node or each._work_out_node()
        was, each._kept = each._kept, Kept()
        assert each._work_out_node().ids == node.ids
        each._kept = was


@pytest.mark.parametrize("first_ever", [True, False], ids=["first-state-made", "later-state"])
def test_a_clone_of_a_moved_state_does_not_copy_its_rules_state_again_at_its_first_move(first_ever):
    """pyspiel's clone() gives the copy a deep copy of each attribute, so the copy owns its rules
    state: its first move must not copy it once more (as it did for clones of a game's very first
    state, whose ownership was the class default, which a clone does not inherit)."""
    game = load_game("goofspiel", players=2)
    state = game.new_initial_state()
    if not first_ever:
        state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    clone = state.clone()
    rules_state = clone.st
    clone.apply_actions([clone.legal_actions(p)[0] for p in range(2)])
    assert clone.st is rules_state
    assert str(state) != str(clone)
