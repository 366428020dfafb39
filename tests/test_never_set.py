"""Variables that no statement sets (language/never_set.py): a warning (SR410) at the declaration,
worked out by hand for each row; never one for a variable that changes, however it is set."""
from __future__ import annotations

import pytest
from snowrules.language.never_set import never_set_variables
from snowrules.language.parser import parse_effect, parse_rules
from snowrules.load.ruleset import bundled_names, read_ruleset

DECLARED = ('game "g"\n'
            "zone pile shared public\n"
            "counter score per player from 0\n"
            "variable plays = 0\n")  # line 4
TURN = "each turn:\n    end game\n"
WARNING = ("the variable `plays` is never set: it keeps the value it is declared with for the whole game",
           "a value that never changes is a `constant plays = ...`; else, is a `plays = ...` missing?")

ROWS = [
    # (the rules after DECLARED, warned)
    ("setup:\n    if plays >= 3:\n        end game\n", True),        # read, never set: the deleted `plays = plays + 1`
    ("setup:\n    pass\n", True),                                    # neither read nor set
    ("setup:\n    plays = plays + 1\n", False),
    ("define count():\n    plays = plays + 1\nsetup:\n    count()\n", False),   # set in a procedure
    ("setup:\n    for each p in players:\n        if true:\n            plays = 2\n", False),  # deep in blocks
    ("setup:\n    let plays = 1\n    plays = 2\n", False),  # a let of that name set: counted (no false warning)
    ("setup:\n    let x = plays\n    x = x + 1\n", True),            # another name set
]


@pytest.mark.parametrize(("rules", "warned"), ROWS, ids=[row[0].replace("\n", " ").strip() for row in ROWS])
def test_a_variable_no_statement_sets_is_warned_about_at_its_declaration(rules, warned):
    found = never_set_variables([parse_rules(DECLARED + rules + TURN, "rules.sr")])
    assert [(str(d.position), d.message, d.hint, d.severity, d.code) for d in found] == \
        ([("rules.sr:4:1", *WARNING, "warning", "SR410")] if warned else [])


def test_a_variable_set_in_a_components_effect_is_not_warned_about():
    effect = parse_effect("plays = plays + 1", "components/cards.yaml", 3, 13)
    rules = [parse_rules(DECLARED + "setup:\n    pass\n" + TURN, "rules.sr")]
    assert never_set_variables(rules, [effect]) == []
    assert len(never_set_variables(rules, [])) == 1


@pytest.mark.parametrize("name", bundled_names())
def test_no_bundled_ruleset_is_warned_about(name):
    ruleset, _ = read_ruleset(name)
    assert never_set_variables(ruleset.rules, [b for c in ruleset.components for b in c.effects.values()]) == []
