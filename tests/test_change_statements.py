"""The statements that change the game (compile/changes.py) used wrongly: what each mistake in a
move, a reset or an end says, and where (issue 9 point 23: mutants of changes.py that no test told
apart from the original).

The probe ruleset of test_language: 4 tokens `t` per seat in the zone `box`. Every line and column
below is counted by hand in its rules text; each message is the one the check documents
(docs/language.md: `reset NAME`, `end game [winners LIST]`, `move ... to ZONE`)."""
from __future__ import annotations

import pytest
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from test_language import run

# (what, rules, line, col, message, hint): mistakes found before the game starts.
BEFORE_THE_GAME = [
    ("reset of a misspelt counter",
     "counter gems per player from 0\neach turn:\n    reset gemz\n    end game\n",
     3, 5, "unknown counter 'gemz'", "did you mean 'gems'?"),
    ("winners that are a number",
     "each turn:\n    end game winners 3\n",
     2, 22, "the winners must be players, not a number", ""),
    ("winners that are a text",
     'each turn:\n    end game winners "seat 1"\n',
     2, 22, "the winners must be players, not a text", ""),
    ("winners that are a list of numbers",
     "each turn:\n    end game winners [1, 2]\n",
     2, 22, "the winners must be players, not a list of numbers", ""),
    ("a zone moved as if it were one component",
     "zone pile shared public\neach turn:\n    move box to pile\n    end game\n",
     3, 10, "to move a zone's contents write `move all from ZONE to ...`", ""),
    ("a list of numbers moved",
     "zone pile shared public\neach turn:\n    move [1, 2] to pile\n    end game\n",
     3, 10, "only components move; this is a list of numbers", ""),
]


@pytest.mark.parametrize(("what", "rules", "line", "col", "message", "hint"), BEFORE_THE_GAME,
                         ids=[row[0] for row in BEFORE_THE_GAME])
def test_a_wrong_change_statement_is_reported_at_its_column(tmp_path, what, rules, line, col, message, hint):
    with pytest.raises(RulesetError) as error:
        run(tmp_path, rules)
    found = [d for d in error.value.diagnostics if d.message == message]
    assert found, str(error.value)
    assert (found[0].position.line, found[0].position.col) == (line, col), str(found[0])
    assert found[0].hint == hint, str(found[0])


# (what, rules, the error's first line after `PATH/rules.sr:`): a move of none stops the game at the move statement.
# `pile` starts empty, so `first(pile)` is none (docs/language.md: first of an empty list is none).
DURING_THE_GAME = [
    ("one component that is none",
     "zone pile shared public\neach turn:\n    move first(pile) to box\n    end game\n",
     "3:5: error: nothing to move: the value is none"),
    ("a list that holds none",
     "zone pile shared public\neach turn:\n    move [first(box), first(pile)] to box at bottom\n    end game\n",
     "3:5: error: nothing to move: the value is none"),
    ("a name of list kind that still holds none",
     "zone pile shared public\nvariable held = none\neach turn:\n    move held to pile\n"
     "    held = [first(box)]\n    end game\n",
     "4:5: error: nothing to move: the value is none"),
]


@pytest.mark.parametrize(("what", "rules", "first_line"), DURING_THE_GAME, ids=[row[0] for row in DURING_THE_GAME])
def test_moving_none_stops_the_game_at_the_move(tmp_path, what, rules, first_line):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, rules)
    assert str(error.value).splitlines()[0] == f"{tmp_path / 'rules.sr'}:{first_line}"
