"""A loop variable over a constant list of whole numbers that its body never assigns holds only
that list's values: a zone index read from it is not range-checked (compile/expressions.py), and
every other index keeps its check, with its error at the indexed zone, on the VM and played through."""
from __future__ import annotations

import pytest
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
    on_vm = game.start(0, decide=random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(on_vm)


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
    with pytest.raises(RuntimeRulesError) as on_vm:
        game.start(0, decide=random_decide(2, 0))
    with pytest.raises(RuntimeRulesError) as through:
        game.play_through(0, random_decide(2, 0))
    assert message in str(on_vm.value) and message in str(through.value)
