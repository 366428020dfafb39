"""A loop variable over a constant list of whole numbers that its body never assigns holds only
that list's values: a zone index read from it is not range-checked (compile/expressions.py), and
every other index keeps its check, with its error at the indexed zone, stopped at each decision and played through."""
from __future__ import annotations

import pytest
from conftest import answered_from_outside
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said
from test_playthrough import final, random_decide


def test_a_loop_over_a_constant_list_indexes_zones_as_before(tmp_path):
    # the first seat's 4 tokens go tiles[1] -> tiles[2] -> tiles[3]; then sizes from 3 down to 1
    game, _, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
each turn:
    for each i in 1..2:
        move all from tiles[i] to tiles[i + 1]
    for each i in 3 down to 1:
        announce size(tiles[i])
    end game winners players
""")
    assert said(events) == ["4", "0", "0"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


OUT_OF_RANGE = [
    # a constant list with a value outside the family: the check stays (line 4, column 23: `tiles`)
    ("""    for each i in 0..3:
        move all from tiles[i] to tiles[1]
""", "rules.sr:4:23: error: tiles[0] does not exist: the index must be 1..3"),
    # the body assigns the loop variable: its values are no longer the list's
    ("""    for each i in 1..3:
        i = i + 1
        move all from tiles[i] to tiles[1]
""", "rules.sr:5:23: error: tiles[4] does not exist: the index must be 1..3"),
    # a loop over a list the game makes (not a constant): checked
    ("""    for each i in [n + 1 for each n in [size(tiles[1]) + 1, 3]]:
        move all from tiles[i] to tiles[1]
""", "rules.sr:4:23: error: tiles[4] does not exist: the index must be 1..3"),
]


@pytest.mark.parametrize("body, message", OUT_OF_RANGE)
def test_an_index_the_loop_cannot_vouch_for_is_still_checked(tmp_path, body, message):
    game = Game(compile_ruleset(ruleset(tmp_path, "zone tiles[1..3] shared public\neach turn:\n" + body
                                        + "    end game\n"), 2))
    with pytest.raises(RuntimeRulesError) as stopped:
        answered_from_outside(game, 0, random_decide(2, 0))
    with pytest.raises(RuntimeRulesError) as through:
        game.play_through(0, random_decide(2, 0))
    assert message in str(stopped.value) and message in str(through.value)


@pytest.mark.parametrize("src, read", [
    ("(_v5[:])", "(_v5)"),               # a folded constant's guarding copy: left out
    ("(st.zones[3][:])", "(st.zones[3][:])"),   # a zone's copy: kept
    ("(_v5[:] + _v6)", "(_v5[:] + _v6)"),
    ("(_v9[:])", "(_v9[:])"),            # a name the expression does not bind: kept as it is
])
def test_a_comprehension_goes_through_a_folded_list_without_copying_it(src, read):
    from snowrules.compile import fuse
    fn = fuse.from_source(src[1:-1], {"_v5": [1, 2], "_v6": [3]}, 1)
    assert fuse.code(fuse.read_only(fn))[0] == read


def test_flatten_of_a_folded_list_of_zones_is_a_new_list_each_time(tmp_path):
    # the 4 tokens of the first seat on tiles[2]; flattening twice gives equal, separate lists
    _, _, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[2]
each turn:
    let all_tiles = flatten([tiles[i] for each i in 1..3])
    move all from tiles[2] to tiles[3]
    announce size(all_tiles), size(flatten([tiles[i] for each i in 1..3])), size(tiles[3])
    end game winners players
""")
    assert said(events) == ["4 4 4"]


def test_a_loop_over_a_constant_list_charges_its_length_to_the_budget(tmp_path):
    """The played-through loop charges a constant list's known length: 3 outer rounds and 3 x 2
    inner ones, as s17b charged with len() (a count of statements would differ by its own statements'
    steps, as it did before)."""
    game = Game(compile_ruleset(ruleset(tmp_path, """zone tiles[1..3] shared public
each turn:
    for each i in 3 down to 1:
        for each j in [1, 2]:
            move all from tiles[i] to tiles[j]
    end game
"""), 2))
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    through = game.play_through(0, random_decide(2, 0))
    assert through.steps == 3 + 3 * 2 and final(through) == final(stopped)


def test_a_loop_variable_over_a_zone_that_the_body_sets_to_none_is_still_checked(tmp_path):
    # the first seat's tokens lie on tiles[1]; the body replaces the loop's card with none, and
    # the move of it is refused at the move (line 7, column 9), stopped and played through
    game = Game(compile_ruleset(ruleset(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
each turn:
    for each card in tiles[1]:
        card = none
        move card to tiles[2]
    end game
"""), 2))
    message = "rules.sr:7:9: error: nothing to move: the value is none"
    with pytest.raises(RuntimeRulesError) as stopped:
        answered_from_outside(game, 0, random_decide(2, 0))
    with pytest.raises(RuntimeRulesError) as through:
        game.play_through(0, random_decide(2, 0))
    assert message in str(stopped.value) and message in str(through.value)


def test_each_card_of_a_zone_moves_without_a_check_for_none(tmp_path):
    # the first seat's 4 tokens go one by one from tiles[1] to tiles[3]
    game, _, events = run(tmp_path, """zone tiles[1..3] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
each turn:
    for each card in tiles[1]:
        move card to tiles[3]
    announce size(tiles[1]), size(tiles[3])
    end game winners players
""")
    assert said(events) == ["0 4"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


@pytest.mark.parametrize("lines, kept", [
    (["x = 1", "pass", "y = 2"], ["x = 1", "y = 2"]),                       # after a statement
    (["if a:", "    pass", "y = 2"], ["if a:", "    pass", "y = 2"]),       # a block's only line
    (["if a:", "    x = 1", "    pass", "pass"], ["if a:", "    x = 1"]),    # after a nested block
    (["if a:", "    # @_p1", "    pass", "else:", "    pass"],
     ["if a:", "    # @_p1", "    pass", "else:", "    pass"]),                # comments are no statements
    (["try:", "    x = 1\n    pass", "finally:", "    pass"], ["try:", "    x = 1", "finally:", "    pass"]),
])
def test_played_through_lines_lose_only_the_passes_no_block_needs(lines, kept):
    from snowrules.compile.playthrough import _without_spare_passes
    assert _without_spare_passes(lines) == kept
