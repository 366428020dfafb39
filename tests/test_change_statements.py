"""The statements that change the game (compile/changes.py) used wrongly: what each mistake in a
move, a reset or an end says, and where (issue 9 point 23: mutants of changes.py that no test told
apart from the original).

The probe ruleset of test_language: 4 tokens `t` per seat in the zone `box`. Every line and column
below is counted by hand in its rules text; each message is the one the check documents
(docs/language.md: `reset NAME`, `end game [winners LIST]`, `move ... to ZONE`)."""
from __future__ import annotations

import pytest
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from test_language import run, said

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
    ("a zone added to as if it were a counter",
     "counter gems per player from 0\neach turn:\n    add 1 to box\n    end game\n",
     3, 14, "the counter must be a counter, such as score or p.score", ""),
    ("a misspelt counter subtracted from",
     "counter gems per player from 0\neach turn:\n    subtract 1 from first(players).gemz\n    end game\n",
     3, 21, "unknown counter 'gemz'", "did you mean 'gems'?"),
    ("a counter set to a text",
     'counter gems per player from 0\neach turn:\n    set first(players).gems to "x"\n    end game\n',
     3, 32, "the new value must be a number, not a text", ""),
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


# A record's field has no fixed kind (docs/language.md, records), so a move of one is decided by
# its value: one component, or a list of them. Ids: seat 1's tokens are 0-3, seat 2's 4-7; `first(box)`
# is 0 and `last(box)` 7, and each moves to the top of `pile` (the end of its list).
RECORD_MOVES = [
    ("one component", "let r = {c: first(box)}\n    move r.c to pile", [0]),
    ("a list of components", "let r = {cs: [first(box), last(box)]}\n    move r.cs to pile", [0, 7]),
]


@pytest.mark.parametrize(("what", "lines", "pile"), RECORD_MOVES, ids=[row[0] for row in RECORD_MOVES])
def test_a_record_field_moves_what_it_holds(tmp_path, what, lines, pile):
    game, st, _ = run(tmp_path, f"zone pile shared public\neach turn:\n    {lines}\n    end game\n")
    assert st.zones[game.layout.zone_families["pile"].base] == pile


def test_announce_tells_each_kind_of_value_as_docs_language_says(tmp_path):
    # After the two moves pile holds seat 1's first token and seat 2's last (both named "t"),
    # `empty` holds nothing. Parts are joined by a space; a list's items by ", ".
    _, _, events = run(tmp_path, """zone pile shared public
zone empty shared public
each turn:
    move first(box) to pile
    move last(box) to pile
    announce none, true, false, 3, empty, pile, [pile, empty], first(players)
    end game
""")
    assert said(events) == ["none true false 3 nothing seat 1 t, seat 2 t seat 1 t, seat 2 t, nothing seat 1"]
    assert [e["rule"] for e in events] == [f"{tmp_path / 'rules.sr'}:6:5"]  # the announce statement
