"""The language gaps a full euro game found (issue 12): options read from table rows labelled by
their kind, `resolve CARD.FIELD`, counter keys passed to a definition, payments with a choice
checked when the rules are, free actions' names that would hide the rules' names, and recursion
refused with its chain. Expected values are worked out by hand in each test's comments; the
misuses that must be refused at their place are rows of tests/test_bad_constructs.py."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ruleset_folder, said_answering, three_copies
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, play
from snowrules.runtime.engine import Game

SCHEMA = """{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "thing.schema.json",
  "type": "object",
  "required": ["name", "kind"],
  "additionalProperties": false,
  "properties": {
    "copies": {"$ref": "component_list.schema.json#/$defs/copies"},
    "name": {"type": "string"},
    "kind": {"type": "string"},
    "amounts": {"type": "array", "items": {"type": "integer"}},
    "effect": {"type": "string"},
    "on_leave": {"type": "string", "x-language": "effect"}
  }
}
"""

# Five pieces (components 0..4), so that a number 0..4 offered as a component would read as one.
THINGS = """schema: thing.schema.json
components:
  - name: piece A
    kind: thing
    amounts: [2, 1]
    effect: add 1 to me.res["gold"]
    on_leave: add 5 to me.res["gem"]
  - name: piece B
    kind: thing
    amounts: [3]
    on_leave: |
      ask me to choose n from [1, 2]:
          add n to me.res["gold"]
  - {name: piece C, kind: thing}
  - {name: piece D, kind: thing}
  - {name: piece E, kind: thing}
tables:
  bonus:
    - {points: 3}
    - {points: 1}
    - {points: 0}
"""


def game_of(tmp_path: Path, rules: str, players: int = 2) -> Game:
    folder = ruleset_folder(tmp_path, "counter res[gold, gem] per player from 0\n" + rules, THINGS,
                            schema=SCHEMA, name="gaps")
    return Game(compile_ruleset(load_ruleset(str(folder)), players))


def said(game: Game, seed: int = 1) -> list[str]:
    events: list[dict] = []
    play(game, [FirstAgent(), FirstAgent()], seed, sink=events.append)
    return [e["text"] for e in events if e["e"] == "say"]


# ---- 1. options labelled by their kind ----------------------------------------------------------
def test_numbers_from_table_rows_and_list_fields_are_offered_as_numbers(tmp_path):
    game = game_of(tmp_path, """each turn:
    ask first(players) to choose n from [r.points for each r in bonus]:
        announce n
    ask first(players) to choose m from [item(c.amounts, 0) for each c in components where c.amounts != none]:
        announce m
    end game
""")
    st = game.start(1)
    # the rows' points 3, 1, 0: before, read as components 3, 1, 0 ("piece D", "piece B", "piece A")
    assert st.pending.options == [[3, 1, 0]]
    assert game.option_labels(st, st.pending.options[0]) == ["3", "1", "0"]
    game.answer(st, [1])
    # the first amounts of piece A ([2, 1]) and piece B ([3]): numbers, not "piece C" and "piece D"
    assert st.pending.options == [[2, 3]]
    assert game.option_labels(st, st.pending.options[0]) == ["2", "3"]


def test_a_row_field_of_mixed_kinds_stays_of_any_kind(tmp_path):
    # a record literal gives `points` a computed value: the field is then of any kind (the rows'
    # numbers and the literal's value compared as before), and both reads work
    game = game_of(tmp_path, """each turn:
    let r = {points: size(players)}
    if r.points == 2 and first(bonus).points == 3:
        announce "any and number"
    end game
""")
    assert said(game) == ["any and number"]


# ---- 2. resolve CARD.FIELD ------------------------------------------------------------------------
RESOLVING = """each turn:
    for each c in components:
        resolve c for first(players)
        resolve c.on_leave for first(players)
        resolve c.effect for last(players)
    announce first(players).res["gold"], first(players).res["gem"], last(players).res["gold"]
    end game
"""


def test_resolve_runs_the_effect_the_field_names(tmp_path):
    # seat 1: piece A's effect +1 gold, its on_leave +5 gem, piece B's on_leave asks 1 or 2 gold
    # (the first agent: 1): 2 gold, 5 gem; seat 2: piece A's effect (`c.effect`): 1 gold. Pieces
    # C-E have neither field: resolving them does nothing.
    assert said(game_of(tmp_path, RESOLVING)) == ["2 5 1"]


def test_a_decision_inside_a_named_field_survives_clone_and_json(tmp_path):
    game = game_of(tmp_path, RESOLVING)
    st = game.start(1)
    assert st.pending.options == [[1, 2]] and st.pending.rule.endswith("things.yaml:12:7")
    # 2 gold more: 1 + 2 = 3
    assert [said_answering(game, copy, [1]) for copy in three_copies(st)] == [["3 5 1"]] * 3


# ---- 3. a counter key passed to a definition ---------------------------------------------------------
def test_a_key_passed_to_a_guarded_branch_may_be_a_text_the_family_lacks(tmp_path):
    # count_of(p, "stars") never reads p.res["stars"]: its guard picks 0. 2 gold + 0 = 2.
    game = game_of(tmp_path, """define count_of(p, what) = p.res[what] if what in ["gold", "gem"] else 0
define give(p, what, n):
    if what in ["gold", "gem"]:
        add n to p.res[what]
each turn:
    give(first(players), "gold", 2)
    give(first(players), "stars", 9)
    announce count_of(first(players), "gold") + count_of(first(players), "stars")
    end game
""")
    assert said(game) == ["2"]


def test_a_key_passed_in_and_read_stops_the_game_at_the_read(tmp_path):
    game = game_of(tmp_path, """define count_of(p, what) = p.res[what]
each turn:
    announce count_of(first(players), "stars")
    end game
""")
    with pytest.raises(RuntimeRulesError) as error:
        said(game)
    assert "rules.sr:2:34: error: counter 'res' has no key 'stars'" in str(error.value)


@pytest.mark.parametrize("rules, message", [
    # a written key the family lacks is still refused before any game
    ("each turn:\n    announce first(players).res[\"gme\"]\n    end game\n",
     "rules.sr:3:33: error: counter 'res' has no key 'gme'"),
    # a key of the wrong kind, passed in or written, too (once: no follow-on "has no key 2")
    ("define count_of(p, what) = p.res[what]\neach turn:\n    announce count_of(first(players), 3)\n    end game\n",
     "rules.sr:2:34: error: a counter key must be a text, not a number"),
    ("each turn:\n    announce first(players).res[2]\n    end game\n",
     "rules.sr:3:33: error: a counter key must be a text, not a number"),
])
def test_a_wrong_key_is_still_refused_when_the_rules_are_checked(tmp_path, rules, message):
    with pytest.raises(RulesetError) as error:
        game_of(tmp_path, rules)
    assert message in str(error.value)
    assert len(error.value.diagnostics) == 1, str(error.value)


# ---- 4. payments with a choice from counters nobody owns ------------------------------------------
@pytest.mark.parametrize("declaration, payment, named", [
    ("counter pool shared from 0", "pay up to 2 using pool at 1 as cut", "'pool' is a shared counter"),
    ("counter mark per component from 0", "pay 2 using first(components).mark at 1, pool at 2",
     "'mark', 'pool' are a counter on a component and a shared counter"),
])
def test_a_payment_with_a_choice_no_player_owns_is_refused_before_any_game(tmp_path, declaration, payment, named):
    rules = f"counter pool shared from 0\n{declaration}\neach turn:\n    {payment}\n    end game\n"
    rules = rules.replace("counter pool shared from 0\ncounter pool shared from 0\n", "counter pool shared from 0\n")
    with pytest.raises(RulesetError) as error:
        game_of(tmp_path, rules)
    line = 5 if "per component" in declaration else 4
    assert (f"rules.sr:{line}:5: error: a payment with a choice needs counters of one player, who chooses: "
            f"{named}") in str(error.value)


def test_a_payment_with_a_choice_from_a_players_and_a_shared_counter_is_asked_of_that_player(tmp_path):
    # 3 gold at 1 and the pool's 2 at 2: the ways worth exactly 2 are "2 gold" and "1 pool"; a
    # player's counter is among them, so that player chooses, and the first agent takes the first
    # way (most of the first counter listed): 2 gold. Left: 1 gold, the pool's 2.
    game = game_of(tmp_path, """counter pool shared from 0 initially 2
each turn:
    add 3 to first(players).res["gold"]
    pay 2 using first(players).res["gold"] at 1, pool at 2
    announce first(players).res["gold"], pool
    end game
""")
    assert said(game) == ["1 2"]
