"""Chance as explicit decisions: what each draw offers, with what probability, and that a game
whose draws are answered from outside is the game the generator would have played."""
from __future__ import annotations

import json

import pytest
from conftest import config_id, configurations, game_for, generator_draw
from hypothesis import given, settings
from hypothesis import strategies as st_
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.model.rng import below, seed_state
from snowrules.model.state import State
from snowrules.runtime.engine import Game
from test_language import ruleset


def zone(game: Game, st, label: str) -> list[int]:
    layout = game.layout
    return next(st.zones[i] for i, z in enumerate(layout.zones) if z.label(layout.seat_names) == label)


def explicit_game(tmp_path, rules: str, players: int = 2):
    game = Game(compile_ruleset(ruleset(tmp_path, rules), players, explicit_chance=True))
    return game, game.start(0, explicit=True)


def test_a_roll_is_one_chance_node_per_die(tmp_path):
    game, st = explicit_game(tmp_path, """each turn:
    roll 2 dice with 4 sides as faces
    announce sum(faces)
    end game winners players
""")
    seen = []
    while Game.is_chance(st):
        outcomes = game.chance_outcomes(st)
        assert outcomes == [(1, 0.25), (2, 0.25), (3, 0.25), (4, 0.25)]
        seen.append(outcomes)
        game.answer(st, [len(seen)])  # the 2, then the 3
    assert len(seen) == 2
    assert st.result is not None


def test_a_shuffle_draws_each_place_from_the_items_not_yet_placed(tmp_path):
    game, st = explicit_game(tmp_path, """zone pile shared public
setup:
    move all from box to pile
    shuffle pile
each turn:
    end game winners players
""")
    names = game.layout.component_names
    counts = []
    while Game.is_chance(st):
        outcomes = game.chance_outcomes(st)
        counts.append(len(outcomes))
        assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
        game.answer(st, [0])  # always the bottom item still unplaced
    assert counts == [8, 7, 6, 5, 4, 3, 2]  # 8 tokens: 7 draws, the last place is what is left
    # Each draw names the item for the next place from the top, swapping it with the item there:
    # the top gets 0, the bottom item; 7 moves to the bottom and goes to place 6; and so on, by hand:
    # [7,1,2,3,4,5,6,0] [6,1,2,3,4,5,7,0] [5,1,2,3,4,6,7,0] ... [1,2,3,4,5,6,7,0].
    assert zone(game, st, "pile") == [1, 2, 3, 4, 5, 6, 7, 0] and len(names) == 8


def test_a_random_move_draws_one_item_at_a_time(tmp_path):
    game, st = explicit_game(tmp_path, """zone pile shared public
zone hand per player public
setup:
    move all from box to pile
each turn:
    for each p in players:
        move 2 at random from pile to p.hand
    end game winners players
""")
    sizes = []
    while Game.is_chance(st):
        outcomes = game.chance_outcomes(st)
        sizes.append(len(outcomes))
        game.answer(st, [len(outcomes) - 1])
    assert sizes == [8, 7, 6, 5]
    seats = game.layout.seat_names
    assert [zone(game, st, f"{s}.hand") for s in seats] == [[7, 6], [5, 4]]  # the top item each time


def test_a_random_move_to_the_bottom_puts_each_item_under_the_last(tmp_path):
    game, st = explicit_game(tmp_path, """zone pile shared public
zone under shared public
setup:
    move all from box to pile
each turn:
    move 3 at random from pile to under at bottom
    end game winners players
""")
    while Game.is_chance(st):
        game.answer(st, [0])  # the bottom item left: 0, then 1, then 2
    assert zone(game, st, "under") == [2, 1, 0]  # each under the one drawn before it


# The chance statements as a game without explicit chance writes them (compile/chance.py: lines
# in place) against the chance loop an explicit game runs, its draws answered as the generator
# draws them: the same zones and variables, whatever the seed.
_CHANCE_RULES = """zone pile shared public
zone hand per player public
zone under shared public
variable n = 0
variable q = none
setup:
    move all from box to pile
    shuffle pile
each turn:
    for each p in players:
        move 2 at random from pile to p.hand
    move 3 at random from pile to under at bottom
    move 20 at random from pile to under
    shuffle under
    choose m at random from [10, 20, 30]
    n = m
    choose x at random from [each y in players where y == none]
    q = x
    end game winners players
"""


@pytest.mark.parametrize("seed", [0, 1, 7, 123456789])
def test_the_chance_statements_written_in_place_draw_as_the_chance_loop(tmp_path, seed):
    rules = ruleset(tmp_path, _CHANCE_RULES)
    written, looped = Game(compile_ruleset(rules, 2)), Game(compile_ruleset(rules, 2, explicit_chance=True))
    in_place, answered = _play_sampled(written, seed), _play_explicit_like_the_generator(looped, seed)
    assert in_place.zones == answered.zones and in_place.vars == answered.vars
    # 8 tokens: 2 in each hand, the other 4 under (the last draw asked for 20, took the 1 left)
    hands = [zone(written, in_place, f"{s}.hand") for s in written.layout.seat_names]
    assert [len(h) for h in hands] == [2, 2] and len(zone(written, in_place, "under")) == 4
    assert in_place.vars[0] in (10, 20, 30) and in_place.vars[1] is None


@pytest.mark.parametrize("stop_at", [1, 3, 9, 12, 16, 19])
def test_a_state_waiting_in_a_chance_statement_is_data(tmp_path, stop_at):
    """Stopped at the `stop_at`-th chance node of _CHANCE_RULES (inside the shuffle, the deal, the
    draws, the second shuffle, at the pick), written to JSON and read back, the game goes on as
    the one never stopped: the same zones and variables."""
    game = Game(compile_ruleset(ruleset(tmp_path, _CHANCE_RULES), 2, explicit_chance=True))
    whole, parted = game.start(0, explicit=True), game.start(0, explicit=True)
    nodes = 0
    while Game.is_chance(whole):
        answer = (nodes * 5 + 2) % len(whole.pending.options[0])  # any outcome, the same on both
        game.answer(whole, [answer])
        game.answer(parted, [answer])
        nodes += 1
        if nodes == stop_at:
            parted = State.from_json(json.loads(json.dumps(parted.to_json())))
    assert nodes == 19  # 7 places, 4 + 3 + 1 draws, 3 places, 1 pick (the empty list offers none)
    assert whole.result is not None and parted.result is not None
    assert parted.zones == whole.zones and parted.vars == whole.vars


def test_a_random_pick_offers_the_list_and_binds_the_outcome(tmp_path):
    game, st = explicit_game(tmp_path, """each turn:
    choose n at random from [10, 20, 30]
    choose p at random from players
    choose nothing at random from [each q in players where q == none]
    announce n, p, nothing
    end game winners [p]
""")
    assert [o for o, _ in game.chance_outcomes(st)] == [10, 20, 30]
    game.answer(st, [2])
    assert [o for o, _ in game.chance_outcomes(st)] == [0, 1]
    game.answer(st, [1])
    assert st.result.winners == [1]  # an empty list offers no draw: `nothing` is none


def test_explicit_decisions_ask_even_a_single_option(tmp_path):
    rules = """zone hand per player public
setup:
    move [first([each c in box where c.owner == p]) for each p in players] to first(players).hand
each turn:
    ask first(players) to choose card from [first(first(players).hand)]
    end game winners players
"""
    game, st = explicit_game(tmp_path, rules)
    assert st.pending is not None and len(st.pending.options[0]) == 1
    assert game.start(0).result is not None  # not explicit: it is taken without asking


def _play_explicit_like_the_generator(game: Game, seed: int):
    """An explicit game whose draws are answered the way the state's generator would draw them,
    and whose decisions all take the first option."""
    st = game.start(seed, explicit=True)
    rng = seed_state(seed)
    while st.result is None:
        if Game.is_chance(st):
            rng, index = generator_draw(rng, st.pending)
            game.answer(st, [index])
        else:
            game.answer(st, [0] * len(st.pending.seats))
    return st


def _play_sampled(game: Game, seed: int):
    st = game.start(seed)
    while st.result is None:
        game.answer(st, [0] * len(st.pending.seats))
    return st


@pytest.mark.parametrize("config", configurations(), ids=config_id)
@settings(max_examples=5, deadline=None)
@given(seed=st_.integers(0, 2**32))
def test_explicit_chance_plays_the_same_game_as_the_generator(config, seed):
    """Answering every chance node with the generator's own draw gives the sampled game exactly:
    explicit chance changes who draws, never what the rules do with the draw. (The sampled game is
    compiled without explicit chance: its draws are native statements, another code path.)"""
    name, variant, players = config
    explicit_game = Game(load_program(name, variant, players, (), True))
    sampled = _play_sampled(game_for(config), seed)
    explicit = _play_explicit_like_the_generator(explicit_game, seed)
    assert explicit.zones == sampled.zones
    assert explicit.counters == sampled.counters
    assert explicit.result == sampled.result


@pytest.mark.parametrize("size, seed", [(0, 1), (1, 1), (2, 5), (10, 7), (52, 123456789)])
def test_the_written_out_shuffle_makes_the_swaps_below_draws(size, seed):
    """rng.shuffle_lines (a generated shuffle) writes `below` out in its loop: the same swaps,
    the same final state."""
    from snowrules.model.rng import shuffle_lines
    source = "\n".join(["def shuffle(state, items):",
                        *("    " + line for line in shuffle_lines("state", "items", "place", "j", "z")),
                        "    return state"])
    scope: dict = {}
    exec(compile(source, "<test>", "exec"), scope)  # noqa: S102 - the template under test
    expected, state = list(range(size)), seed_state(seed)
    for place in range(size - 1, 0, -1):
        state, j = below(state, place + 1)
        expected[place], expected[j] = expected[j], expected[place]
    items = list(range(size))
    assert scope["shuffle"](seed_state(seed), items) == state
    assert items == expected


@pytest.mark.parametrize("bound, seed", [(1, 1), (6, 5), (7, 7), (52, 123456789), (2**40 + 3, 99)])
def test_below_written_as_lines_draws_what_below_draws(bound, seed):
    """rng.below_lines (the generated roll's draws) gives `below`'s numbers and states."""
    from snowrules.model.rng import below_lines
    source = "\n".join(["def draws(state, n, times):", "    out = []", "    for _ in range(times):",
                        *("        " + line for line in below_lines("state", "n", "x", "z")),
                        "        out.append(x)", "    return state, out"])
    scope: dict = {}
    exec(compile(source, "<test>", "exec"), scope)  # noqa: S102 - the template under test
    expected, state = [], seed_state(seed)
    for _ in range(20):
        state, drawn = below(state, bound)
        expected.append(drawn)
    assert scope["draws"](seed_state(seed), bound, 20) == (state, expected)
