"""Arguments named like the callee's parameters, two of them swapped (language/argument_order.py):
a warning (SR409) at the first of the pair, worked out by hand for each row; never one where the
names do not say the order."""
from __future__ import annotations

import pytest
from snowrules.language.argument_order import swapped_arguments
from snowrules.language.parser import parse_rules
from snowrules.load.ruleset import bundled_names, read_ruleset

DECLARED = ('game "g"\n'
            "define margin(winner, loser) = winner - loser\n"
            "define middle(low, mid, high) = mid\n"
            "define award(winner, loser):\n"
            "    pass\n"
            "event scored(winner, loser)\n"
            "setup:\n"
            "    let winner = 1\n"
            "    let loser = 2\n"
            "    let mid = 3\n"
            "    let high = 4\n"
            "    let low = 5\n")
LINE = 13  # the statement each row adds after DECLARED

ROWS = [
    # (the statement, the (column, message) of each warning)
    ("    let x = margin(loser, winner)", [(20, "`margin` is given `loser` for its parameter `winner` and "
                                               "`winner` for `loser`: swapped?")]),
    ("    let x = margin(winner, loser)", []),
    ("    let x = margin(low, high)", []),            # other names: the order is not said
    ("    let x = margin(loser, high)", []),          # one name of a parameter, not a pair
    ("    let x = margin(loser, loser)", []),         # the same twice: not a swap
    ("    let x = margin(loser + 0, winner)", []),    # an expression is not a name
    ("    let x = middle(high, mid, low)", [(20, "`middle` is given `high` for its parameter `low` and "
                                                 "`low` for `high`: swapped?")]),
    ("    let x = middle(mid, high, low)", []),       # a rotation: no pair in each other's place
    ("    award(loser, winner)", [(11, "`award` is given `loser` for its parameter `winner` and "
                                       "`winner` for `loser`: swapped?")]),
    ("    raise scored(loser, winner)", [(18, "`scored` is given `loser` for its parameter `winner` and "
                                              "`winner` for `loser`: swapped?")]),
    ("    let x = margin(margin(loser, winner), 1)", [(27, "`margin` is given `loser` for its parameter `winner` "
                                                           "and `winner` for `loser`: swapped?")]),
]


@pytest.mark.parametrize(("statement", "expected"), ROWS, ids=[row[0].strip() for row in ROWS])
def test_a_swapped_pair_of_arguments_named_like_the_parameters_is_warned_about(statement, expected):
    found = swapped_arguments([parse_rules(DECLARED + statement + "\n", "rules.sr")])
    assert [(d.position.path, d.position.line, d.position.col, d.message, d.severity, d.code) for d in found] == [
        ("rules.sr", LINE, column, message, "warning", "SR409") for column, message in expected]


@pytest.mark.parametrize("name", bundled_names())
def test_no_bundled_ruleset_is_warned_about(name):
    ruleset, _ = read_ruleset(name)
    assert swapped_arguments(ruleset.rules) == []
