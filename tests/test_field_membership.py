"""empty() of a filter that only compares one field of its items with a value (compile/fuse.py
`member`: a membership test over the field's table), and a loop over a literal list, gone
through without its copy (fuse.read_only_list): the same answers as before, stopped at each decision and
played through."""
from __future__ import annotations

import pytest
from conftest import answered_from_outside
from snowrules.compile import fuse
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said
from test_playthrough import final, random_decide

# Each seat has 4 tokens (kind "token"); the first seat's are put on tiles[2], tiles[1] stays empty.
RULES = """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[2]
each turn:
    for each k in ["token", "card", "token"]:
        announce k, empty([each c in tiles[1] where c.kind == k]), empty([each c in tiles[2] where c.kind == k])
    for each p in players:
        announce empty([each c in tiles[2] where c.owner == p]), not empty([each c in tiles[2] where c.owner != p])
    announce empty([each c in tiles[2] where c.kind == "token" and c.owner == last(players)])
    end game winners players
"""


def test_empty_of_a_field_comparison_answers_as_the_filter(tmp_path):
    # tiles[1] is empty for every kind; tiles[2] holds tokens only, all the first seat's
    game, _, events = run(tmp_path, RULES)
    assert said(events) == ["token true false", "card true true", "token true false",
                            "false false", "true true",
                            "true"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


def test_the_step_budget_counts_a_literal_list_loop_as_before(tmp_path):
    # played through, each loop charges its rounds: 3 for the literal list (without its copy),
    # 2 for the seats; nothing else is charged (no roll, no move of N)
    game = Game(compile_ruleset(ruleset(tmp_path, RULES), 2))
    assert game.play_through(0, random_decide(2, 0)).steps == 3 + 2


@pytest.mark.parametrize("src, length", [
    ("(_v5[:])", 2),           # a folded constant: its length, no copy
    ("(st.zones[3][:])", None),  # a zone's copy: as it is
    ("(_v5[:] + _v6)", None),
])
def test_a_loop_over_a_folded_list_knows_its_length(src, length):
    fn = fuse.from_source(src[1:-1], {"_v5": [1, 2], "_v6": [3]}, 1)
    plain, known = fuse.read_only_list(fn)
    assert known == length
    assert (plain is fn) == (length is None)


def test_flatten_of_a_few_known_zones_joins_them_in_order(tmp_path):
    # the first seat's 4 tokens on tiles[1], the second's on tiles[3]: going 3 down to 1, the
    # second seat's come first; the joined list is the rules' own (moving it leaves the zones' lists)
    _, _, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
    move [each c in box where c.owner == last(players)] to tiles[3]
each turn:
    let joined = flatten([tiles[i] for each i in 3 down to 1])
    announce size(joined), first(joined).owner == last(players), last(joined).owner == first(players)
    move joined to tiles[2]
    announce size(flatten([tiles[i] for each i in 1..3])), size(tiles[2]), size(joined)
    end game winners players
""")
    assert said(events) == ["8 true true", "8 8 8"]


def test_a_loop_over_a_filter_goes_through_the_list_built_before_its_first_round(tmp_path):
    # the filter is built by a loop of its own: all 4 tokens are taken, although the body moves
    # each out of the zone the filter reads
    game, _, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
each turn:
    for each c in [each x in tiles[1] where x.owner == first(players)]:
        move c to tiles[2]
        announce size(tiles[1])
    end game winners players
""")
    assert said(events) == ["3", "2", "1", "0"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


def test_an_error_in_a_loop_filter_is_at_its_rule(tmp_path):
    line = "    for each c in [each x in tiles[1] where size(tiles[size(tiles[1]) + 4]) > 0]:"
    game = Game(compile_ruleset(ruleset(tmp_path, f"""zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
each turn:
{line}
        move c to tiles[2]
    end game
"""), 2))
    where = f"rules.sr:5:{line.index('tiles[size') + 1}: error: tiles[8] does not exist"
    for playing in (lambda: answered_from_outside(game, 0, random_decide(2, 0)),
                    lambda: game.play_through(0, random_decide(2, 0))):
        with pytest.raises(RuntimeRulesError) as error:
            playing()
        assert where in str(error.value)


def test_empty_of_a_field_compared_with_a_variable_is_a_membership_test(tmp_path):
    # the first seat's 4 tokens on tiles[2]: kind "token" is there, "card" and none are not;
    # the variable changes between the tests, and each test reads its value of the moment
    rules = """zone tiles[1..3] shared public
variable wanted = none
setup:
    move [each c in box where c.owner == first(players)] to tiles[2]
each turn:
    announce empty([each c in tiles[2] where c.kind == wanted])
    wanted = "token"
    announce empty([each c in tiles[2] where c.kind == wanted]), not empty([each c in tiles[2] where c.kind == wanted])
    wanted = "card"
    announce empty([each c in tiles[2] where c.kind == wanted]), empty([each c in tiles[1] where c.kind == wanted])
    end game winners players
"""
    game, _, events = run(tmp_path, rules)
    assert said(events) == ["true", "false true", "true true"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


@pytest.mark.parametrize("condition, compared", [
    ("((_v1[_x2]) == (st.vars[3]))", "(st.vars[3])"),  # a variable: the same all through the list
    ("((_v1[_x2]) == env[4])", "env[4]"),
    ("((_v1[_x2]) == _v7)", "_v7"),
    ("((_v1[_x2]) == (st.vars[3] + 1))", None),        # a sum: not a plain value
    ("((_v1[_x2]) == (st.zones[3]))", None),           # a zone's list
    ("((_v1[_x2]) == (st.vars[_x2]))", None),          # read at the item
])
def test_which_values_a_membership_test_compares_with(condition, compared):
    found = fuse._FIELD_EQUALS.fullmatch(condition)
    assert (found and found.group(3)) == compared


def test_empty_of_a_few_known_flattened_zones_tests_each_in_place(tmp_path):
    # tiles[1] and tiles[3] hold nothing, then one token; tiles[2] holds the first seat's 4
    game, _, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[2]
each turn:
    announce empty(flatten([tiles[i] for each i in [1, 3]])), empty(flatten([tiles[i] for each i in 1..3]))
    move first(tiles[2]) to tiles[3]
    announce empty(flatten([tiles[i] for each i in [1, 3]])), empty(flatten([tiles[i] for each i in [1]]))
    end game winners players
""")
    assert said(events) == ["true false", "false true"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)

