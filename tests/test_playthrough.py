"""A game played through (compile/playthrough.py: the plain build, no frames) is the game played
stopped at every decision (the stoppable build, from its resume entries): the same statements in
the same order with the same draws, so the same final state."""
from __future__ import annotations

import pytest
from conftest import answered_from_outside, config_id, configurations, game_for
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.play.agents import RandomAgent, answering_at_random, play
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said


def random_decide(players: int, seed: int):
    """The decide of play()'s random path, with its own generators (one per seat)."""
    return answering_at_random([RandomAgent(seed * 100 + seat).drawer for seat in range(players)])


def final(st) -> tuple:
    return st.result, st.counters, st.zones, st.where, st.vars, st.rng


_STOPPED: dict[tuple, tuple] = {}


def final_stopped(game, config, seed: int) -> tuple:
    """The end of the game stopped at each decision with the random decide of `seed`. Both tests below compare a
    played-through game with it: it is played once per configuration and seed, not once per test."""
    key = (config, seed)
    if key not in _STOPPED:
        _STOPPED[key] = final(answered_from_outside(game, seed, random_decide(game.program.seats, seed)))
    return _STOPPED[key]


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_a_game_played_through_ends_as_stopped_at_each_decision(config):
    game = game_for(config)
    seats = game.program.seats
    for seed in range(12):
        stopped = final_stopped(game, config, seed)
        through = game.play_through(seed, random_decide(seats, seed))
        assert stopped[0] is not None  # the result: the stopped game ended
        assert final(through) == stopped, seed
    assert game._playthroughs[frozenset(), "plain"], "every bundled ruleset can be played through"


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_draws_answer_plain_decisions_as_the_random_decide_would(config):
    """With `draws`, a plain decision takes its answer from the option count without a Decision:
    the game must be the one stopped at each decision with the random decide (same generators, same draws)."""
    game = game_for(config)
    seats = game.program.seats
    for seed in range(12):
        stopped = final_stopped(game, config, seed)
        draws = [RandomAgent(seed * 100 + seat).drawer for seat in range(seats)]
        through = game.play_through(seed, answering_at_random(draws), draws=draws)
        assert final(through) == stopped, seed
        assert through.draws is draws and through.clone().draws is None  # never part of a copy


def test_play_with_random_agents_plays_through_and_keeps_its_games():
    game = game_for(("snow_time", None, 4))
    agents = [RandomAgent(seat) for seat in range(4)]
    st = play(game, agents, 7)
    assert game._playthroughs[frozenset(), "plain"]  # the fast path was taken
    again = answered_from_outside(game, 7, random_decide(4, 0))
    assert st.result.winners == again.result.winners and st.counters == again.counters


# An error after a decision, inside an `if` whose branch waits (a block of its own): line 8, col 9.
FAILING = """zone pile shared public
each turn:
    ask each p in players secretly to choose n from [1, 2]:
        let y = n
    if turn > 0:
        ask first(players) to choose m from [1, 2]:
            let z = m
        let x = first(pile).owner
    end game
"""


def test_a_runtime_error_played_through_names_the_rule(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, FAILING), 2))
    with pytest.raises(RuntimeRulesError) as caught:
        game.play_through(0, random_decide(2, 0))
    assert "rules.sr:8:9: error: a value is none where this rule needs one" in str(caught.value)
    assert game._playthroughs[frozenset(), "plain"]


@pytest.mark.parametrize("length, sizes", [
    (0, range(0, -1, -1)), (1, range(1, -1, -1)), (5, range(2, -1, -1)), (6, range(3, 4)),
    (4, range(4, -1, -1)), (7, range(0, 1)), (3, range(0))])
def test_the_combination_at_an_index_is_the_one_combinations_lists_there(length, sizes):
    """A random agent's `up to N` answer is unranked from its index instead of built with the
    others: it must be the very combination that the full list holds at that index."""
    from snowrules.compile.steps import combination_at, combination_count, combinations
    items = [10 + i for i in range(length)]
    listed = combinations(items, sizes)
    assert combination_count(length, sizes) == len(listed)
    assert [combination_at(items, sizes, i) for i in range(len(listed))] == listed


@pytest.mark.parametrize("length, sizes, first, last", [
    (0, range(0, -1, -1), (), ()), (3, range(2, -1, -1), (0, 1), ()), (4, range(3, 4), (0, 1, 2), (1, 2, 3)),
    (3, range(0), None, None)])
def test_the_looked_up_combinations_are_those_listed(length, sizes, first, last):
    """Few items: a random answer is looked up among positions listed once; the list must be
    `combinations` of the positions, in its order (first and last worked out by hand: largest
    size first, each in the items' order)."""
    from snowrules.compile.steps import combinations, index_combinations
    table = index_combinations(length, sizes.start, sizes.stop, sizes.step)
    assert [list(c) for c in table] == combinations(list(range(length)), sizes)
    assert (table[0] if table else None, table[-1] if table else None) == (first, last)


def test_an_up_to_decision_drawn_from_its_count_plays_the_stopped_game():
    """Snow Time's Healer asks `up to 2` cards back from a discard pile (many combinations)."""
    game = game_for(("snow_time", None, 4))
    asked = []  # the number of combinations offered at each `up to` decision asked stopped

    def counting(decide):
        def ask(st):
            if st.pending.how_many is not None:
                asked.append(len(st.pending.options[0]))
            return decide(st)
        return ask
    for seed in range(40):
        stopped = answered_from_outside(game, seed, counting(random_decide(4, seed)))
        draws = [RandomAgent(seed * 100 + seat).drawer for seat in range(4)]
        assert final(game.play_through(seed, answering_at_random(draws), draws=draws)) == final(stopped), seed
    assert max(asked) > 10  # the answers were drawn among many combinations


# The statements that a game played through writes as lines in place (a roll's dice, `move N
# from`, a list's move, `reset`, a random agent's up-to and exactly choices, `when` conditions
# tested at the change): the game must be the stopped one, seed for seed.
IN_PLACE = """zone deck shared public
zone pile per player public
zone spare per player public
counter score per player from 0 to 9
counter hits per player from 0
when p.score >= 6:
    end game winners [each q in players where q.score >= 6]
setup:
    move all from box to deck
each turn:
    reset hits
    roll min(3, size(deck)) dice with 6 sides as faces
    for each p in players:
        move 1 from deck to p.pile
        move 2 from deck to p.spare
        move 0 from deck to p.spare
        move 5 from p.pile to p.pile
        move 2 from p.pile to p.pile at bottom
        move 1 from deck to p.spare at bottom
        ask p to choose up to 2 taken from p.spare:
            move taken to p.pile
        ask p to choose exactly 2 pair from flatten([q.pile for each q in players]):
            move pair to deck at bottom
        ask p to choose exactly 30 many from deck:
            move many to p.spare
        together:
            add sum(faces) % 4 to p.score
        add 1 to p.hits
    if turn % 3 == 0:
        for each p in players:
            move all from p.spare to deck
            move all from p.pile to deck
"""


@pytest.mark.parametrize("players", [2, 3])
def test_statements_in_place_play_the_stopped_game(tmp_path, players):
    game = Game(compile_ruleset(ruleset(tmp_path, IN_PLACE), players))
    ended_by_the_trigger = 0
    for seed in range(30):
        stopped = answered_from_outside(game, seed, random_decide(players, seed))
        draws = [RandomAgent(seed * 100 + seat).drawer for seat in range(players)]
        through = game.play_through(seed, answering_at_random(draws), draws=draws)
        assert final(through) == final(stopped), seed
        ended_by_the_trigger += str(stopped.result.rule).endswith(":7:5")
    assert game._playthroughs[frozenset(), "plain"]
    assert ended_by_the_trigger == 30  # every game ends at `end game` in the `when` rule (line 7)


# A Python error in a statement written in place names that statement (file:line:col).
@pytest.mark.parametrize("statement, message", [
    ("roll 6 % (turn - turn) dice with 6 sides as d", "5:10: error: division by zero"),
    ("move 6 % (turn - turn) from deck to deck", "5:10: error: division by zero"),
    ("move [first([each c in deck where c.owner == none])] to deck", "5:5: error: nothing to move: the value is none"),
])
def test_an_error_in_a_statement_in_place_names_it(tmp_path, statement, message):
    rules = f"zone deck shared public\nsetup:\n    move all from box to deck\neach turn:\n    {statement}\n"
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    with pytest.raises(RuntimeRulesError) as caught:
        game.play_through(0, random_decide(2, 0))
    assert f"rules.sr:{message}" in str(caught.value)
    assert game._playthroughs[frozenset(), "plain"]


def test_a_map_over_a_constant_list_is_worked_out_once_and_copied(tmp_path):
    """`[tiles[i] for each i in 1..3]` reads no state: fuse works it out when compiling (zones
    1, 2, 3: zone 0 is the box) and each run gets its own copy."""
    from snowrules.compile import fuse
    from snowrules.compile.expressions import const
    folded = fuse.comprehension(const([1, 2, 3]), 0, fuse.from_source("(env[0] * 2)", {}, 1), None)
    first, second = folded(None, None), folded(None, None)
    assert first == [2, 4, 6] and first is not second
    game, st, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[2]
each turn:
    announce [size(tiles[i]) for each i in 1..3], size(flatten([tiles[i] for each i in 1..3]))
    end game winners players
""")
    assert said(events) == ["0, 4, 0 4"]  # the 4 tokens of the first seat lie on tiles[2]


def test_a_map_that_fails_for_a_constant_list_fails_when_its_rule_runs(tmp_path):
    """Working a map out early must not move its error: tiles[0] does not exist, and the game
    (not the compiler) says so, at the indexed zone (line 3, column 22: `tiles`)."""
    game = Game(compile_ruleset(ruleset(tmp_path, """zone tiles[1..3] shared public
each turn:
    if size(flatten([tiles[i] for each i in 0..3])) > 99:
        pass
    end game
"""), 2))
    with pytest.raises(RuntimeRulesError) as caught:
        game.play_through(0, random_decide(2, 0))
    assert "rules.sr:3:22: error: tiles[0] does not exist: the index must be 1..3" in str(caught.value)


@pytest.mark.parametrize("src, fresh", [
    ("([_x1 for _x1 in (st.vars[0]) if ((_v2[_x1]) == env[3])])", True),  # a filter: a new list
    ("(_v5[:])", True),                                    # a folded list's copy
    ("[_x1 for _x1 in env[2]]", True),
    ("(st.zones[(0 + env[4] if 1 <= env[4] <= 7 else _v6(env[4]))])", False),  # a zone: moves change it
    ("(st.vars[0])", False), ("env[2]", False), ("_v7", False),
    ("([_x1 for _x1 in _v2] + st.zones[3])", False),       # a comprehension, then more
    ("(_v5[:] + _v6)", False), ("(st.zones[3][:])", False),
])
def test_a_loop_copies_its_list_unless_the_expression_makes_a_new_one(src, fresh):
    from snowrules.compile.playthrough import _fresh_list
    assert _fresh_list(src) is fresh


# Optional choices of one item, simultaneous and not: each seat's 4 tokens start in its hand.
OPTIONAL = """zone hand per player hidden
zone pile shared public
counter passed shared from 0
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
each turn:
    ask each p in players secretly to optionally choose c from p.hand:
        move c to pile
    else:
        add 1 to passed
    ask first(players) to optionally choose d from last(players).hand:
        move d to pile
    else:
        add 1 to passed
    ask last(players) to optionally choose e from [each x in pile where x.owner == none]:
        move e to first(players).hand
    else:
        add 10 to passed
    if turn == 3:
        end game
"""


def test_an_optional_choice_played_through_offers_none_after_the_items(tmp_path):
    """An optional decision of one item is written inline (playthrough.offered): its options are
    the items and none, as ChooseStep.options makes them, asked with `optional` set; with only
    none to take (nothing matches: no token is ownerless), none is taken without asking."""
    game = Game(compile_ruleset(ruleset(tmp_path, OPTIONAL), 2))
    seen = []  # (seats, option counts, optional) of each decision asked, played through

    def recording(decide):
        def ask(st):
            pending = st.pending
            seen.append((pending.seats, [len(o) for o in pending.options], pending.optional,
                         [o[-1] for o in pending.options]))
            return decide(st)
        return ask
    for seed in range(8):
        stopped = answered_from_outside(game, seed, random_decide(2, seed))
        seen.clear()
        through = game.play_through(seed, recording(random_decide(2, seed)))
        assert final(through) == final(stopped), seed
        # turn 1 asks each seat among its 4 tokens and none, then one seat among the other's
        # 3 or 4 tokens and none; the ownerless-token choice (only none) is never asked
        assert seen[0] == ([0, 1], [5, 5], True, [None, None])
        assert seen[1][0] == [0] and seen[1][1] in ([4], [5]) and seen[1][2:] == (True, [None])
        # a decision is asked only when some seat has more than none to choose from
        assert all(max(counts) > 1 for _, counts, _, _ in seen) and 3 <= len(seen) <= 6
        passed = through.counters[game.layout.counter_index("passed")]
        assert 30 <= passed <= 30 + 3 * 3  # 10 a turn for the choice of none alone, 3 turns
        draws = [RandomAgent(seed * 100 + seat).drawer for seat in range(2)]
        assert final(game.play_through(seed, answering_at_random(draws), draws=draws)) == final(stopped), seed


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_a_game_stopped_anywhere_plays_on_through_as_stopped_throughout(config):
    """Game.play_rest_through (a search's playouts): a game stopped at its k-th decision, or paused
    at the end of its turn `turn`, and played on from there answered in place with the same
    generators, ends as the game stopped throughout ends; a state it cannot go on with (explicit chance,
    inside a reaction or a free action) is left as it was. A listened one is tested in
    test_differential.py (the `resumed` caller: the same log)."""
    game = game_for(config)
    seats = game.program.seats
    handed_over = 0
    for seed in range(3):
        stopped = final_stopped(game, config, seed)
        for stop in ("decision 0", "decision 1", "decision 4", "decision 15", "decision 50", "turn 1", "turn 3"):
            draws = [RandomAgent(seed * 100 + seat).drawer for seat in range(seats)]
            decide = answering_at_random(draws)
            how, number = stop.split()
            st = game.start(seed)  # at its first decision (one with a choice: nothing drawn yet)
            if how == "turn":
                st.pause_after_turn, st.decide = int(number), decide
            for _ in range(1 if how == "turn" else int(number)):
                if st.result is not None:
                    break
                game.answer(st, [draws[seat](st, len(options)) for seat, options in zip(st.pending.seats,
                                                                                         st.pending.options)])
            st.decide = None
            if st.result is not None or (how == "turn" and not st.paused):
                continue  # over before that stop (or no turns loop to pause in)
            explicit = st.clone()
            explicit.explicit = True  # its draws would wait: answered from outside
            assert not game.play_rest_through(explicit, decide, draws)
            assert (explicit.pending is None) == (how == "turn")
            if game.play_rest_through(st, decide, draws):
                handed_over += 1
                assert final(st) == stopped, (seed, stop)
                assert st.decide is None and st.draws is None
    assert handed_over > 0


NO_LIMIT_LATER = """zone hand per player hidden
counter score per player from 0
variable lim = 3
rounds lim:
    ask first(players) to choose x from [1, 2]
    add x to first(players).score
    if turn == 2:
        lim = none
    if turn == 6:
        end game winners players
at game end:
    end game winners players
"""


def test_a_rounds_count_that_becomes_none_sets_no_limit_played_through_and_resumed(tmp_path):
    """`rounds lim:` where `lim` becomes none in turn 2: a none count is no limit
    and plays on to the `end game` of turn 6; so must the game played through and one resumed
    after its first decision (they compared `turn > none` and failed)."""
    game = Game(compile_ruleset(ruleset(tmp_path, NO_LIMIT_LATER), 2))
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert game.outcome(stopped).turns == 6 and stopped.result.rule.endswith(":10:9")
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)
    draws = [RandomAgent(seat).drawer for seat in range(2)]
    st = game.start(0)
    game.answer(st, [draws[0](st, 2)])
    assert game.play_rest_through(st, answering_at_random(draws), draws)
    assert game.outcome(st).turns == 6 and st.result.rule.endswith(":10:9")
