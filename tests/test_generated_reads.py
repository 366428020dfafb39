"""Reads that are generated as one expression (issue 8, part 5): a component's field expression
called through evaluate() (the card's own function picked by its definition), and a zone of a
per-player family with indexes (`p.shelf[i]`). The values and the errors must be those of the
closures they replace; expected values are worked out by hand in each test's comments."""
from __future__ import annotations

import pytest
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, play
from snowrules.runtime.engine import Game
from test_language import run
from test_language import said as said_texts
from test_language_constructs import folder

SCHEMA = """{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "thing.schema.json",
  "type": "object",
  "required": ["name", "kind"],
  "additionalProperties": false,
  "properties": {
    "name": {"type": "string"},
    "kind": {"type": "string"},
    "worth": {"type": "integer"},
    "test": {"type": "string", "x-language": "expression"}
  }
}
"""

# Components 0..3, in this order.
THINGS = """schema: thing.schema.json
components:
  - {name: piece A, kind: thing, worth: 3, test: "me.gems + this.worth"}
  - {name: piece B, kind: thing, worth: 5, test: "size(me.shelf[2]) * 10 + this.worth"}
  - {name: piece C, kind: thing, worth: 7}
  - {name: piece D, kind: thing, worth: 1, test: "evaluate(first(box), \\"test\\", me) + 100"}
"""

DECLARATIONS = """zone shelf[1..3] per player public
counter gems per player from 0
"""


def said(tmp_path, rules: str) -> list[str]:
    folder(tmp_path, DECLARATIONS + rules, THINGS, SCHEMA)
    game = Game(compile_ruleset(load_ruleset(str(tmp_path)), 2))
    events: list[dict] = []
    play(game, [FirstAgent(), FirstAgent()], 1, sink=events.append)
    return [e["text"] for e in events if e["e"] == "say"]


def failure(tmp_path, rules: str) -> str:
    folder(tmp_path, DECLARATIONS + rules, THINGS, SCHEMA)
    game = Game(compile_ruleset(load_ruleset(str(tmp_path)), 2))
    with pytest.raises(RuntimeRulesError) as error:  # a listener, or nothing says the announcements
        play(game, [FirstAgent(), FirstAgent()], 1, sink=[].append)
    return str(error.value).splitlines()[0].replace(str(tmp_path / "rules.sr"), "rules.sr")


def test_evaluate_runs_each_cards_own_expression_with_me_and_this(tmp_path):
    # The box holds pieces A, B, C, D (0..3) in order; seat 1 gets 4 gems, seat 2 none.
    texts = said(tmp_path, """each turn:
    let p = first(players)
    let q = last(players)
    add 4 to p.gems
    announce evaluate(last(box), "test", p), [evaluate(c, "test", p) for each c in box where c.worth < 4]
    move first(box) to p.shelf[2]
    let b = first(box)
    announce [evaluate(c, "test", p) for each c in p.shelf[2]], evaluate(b, "test", p), evaluate(b, "test", q)
    end game
""")
    # first line: last(box) is piece D: evaluate(piece A) + 100 = 4 + 3 + 100 = 107; the box's
    # pieces with worth < 4 are A (7) and D (107).
    # second line: piece A is on seat 1's shelf[2] (7); first(box) is now piece B: 15 and 5.
    assert texts == ["107 7, 107", "7 15 5"]  # a list is said with commas


def test_evaluate_of_a_card_without_the_expression_stops_at_the_call(tmp_path):
    # the box's pieces 0, 1 are moved away: first(box) is piece C, which has no `test`
    message = failure(tmp_path, """each turn:
    move first(box) to first(players).shelf[1]
    move first(box) to first(players).shelf[1]
    announce evaluate(first(box), "test", first(players))
    end game
""")
    assert message == "rules.sr:6:14: error: piece C has no expression 'test'"


@pytest.mark.parametrize(("index", "reads"), [
    ("1", "1, 0, 0"), ("k", "0, 1, 0"), ("k + 1", "0, 0, 1"),
])
def test_a_per_player_zone_read_by_index(tmp_path, index, reads):
    # one piece on seat 2's shelf at the index; k is 2. The sizes of seat 2's shelves 1, 2, 3 and
    # nothing on seat 1's (which would be the zone of a wrong player).
    texts = said(tmp_path, f"""each turn:
    let k = 2
    let q = last(players)
    move first(box) to q.shelf[{index}]
    announce [size(q.shelf[i]) for each i in 1..3], size(first(players).shelf[{index}])
    end game
""")
    assert texts == [reads + " 0"]


@pytest.mark.parametrize(("index", "shown"), [("k", "4"), ("k + 2", "6"), ("k - 4", "0")])
def test_a_per_player_zone_index_out_of_range_stops_at_the_read(tmp_path, index, shown):
    message = failure(tmp_path, f"""each turn:
    let k = 4
    announce [size(p.shelf[{index}]) for each p in players]
    end game
""")
    assert message == (f"rules.sr:5:20: error: shelf[{shown}] does not exist: the index must be 1..3")


# ---- a define call that does not depend on the loop is computed once per list, at first use ----
# The probe ruleset of test_language: 4 tokens per seat, seat 1's ids 0-3, seat 2's 4-7.
REMEMBERED = [
    ("a call that reads only the game",
     "define held() = [each c in pile where c.owner == first(players)]\n"
     "each turn:\n    move first(box) to pile\n    move first(box) to pile\n"
     "    announce [n for each n in 0..3 where size(held()) == n], [size(held()) + n for each n in 1..2]\n",
     ["2 3, 4"]),
    ("a call whose argument is the loop's variable is made for each item",
     "define mine(p) = [each c in pile where c.owner == p]\n"
     "each turn:\n    move first(box) to pile\n    move last(box) to pile\n    move last(box) to pile\n"
     "    announce [size(mine(p)) for each p in players]\n",
     ["1, 2"]),
    ("an inner list inside a call made for each outer item",
     "define mine(p) = [each c in pile where c.owner == p]\n"
     "define upto(p) = [each n in 1..3 where n <= size(mine(p))]\n"
     "each turn:\n    move first(box) to pile\n    move last(box) to pile\n    move last(box) to pile\n"
     "    announce [size(upto(p)) for each p in players]\n",
     ["1, 2"]),
    ("a list whose source assigns (a call given a computed argument) in a list and in flatten()",
     "define mine(p) = [each c in pile where c.owner == p]\n"
     "each turn:\n    move first(box) to pile\n    move last(box) to pile\n    move last(box) to pile\n"
     "    announce size([each c in mine(last(players)) where c.owner == last(players)]),"
     " size(flatten([mine(last(players)) for each n in 1..2])), size(mine(first(players)))\n",
     ["2 4 1"]),
    ("never made for an empty list",
     "define top() = seat_number(first(pile).owner)\n"
     "each turn:\n    announce size([each n in [] where top() == n]),"
     " size([each n in 1..2 where n > 5 and top() == n])\n",
     ["0 0"]),
]


@pytest.mark.parametrize(("what", "rules", "expected"), REMEMBERED, ids=[row[0] for row in REMEMBERED])
def test_a_call_that_does_not_depend_on_the_loop(tmp_path, what, rules, expected):
    # first: seat 1 holds 2 tokens of the pile: only n = 2 matches; 2 + 1 and 2 + 2.
    # second and third: the pile holds 0 (seat 1's) and 7, 6 (seat 2's): 1 and 2 (at most 3).
    # fourth: seat 2's two tokens, twice over in flatten (4), seat 1's one.
    # fifth: top() of an empty pile is first(none).owner, an error, if it were ever made.
    _, _, events = run(tmp_path, "zone pile shared public\n" + rules + "    end game\n")
    assert said_texts(events) == expected


def test_empty_of_flattened_zones_is_true_only_when_every_zone_is(tmp_path):
    # nothing on any shelf: empty; one piece on seat 2's shelf[3]: not empty for seat 2, still
    # empty for seat 1; a flattened list that is not made of zones keeps the plain test.
    texts = said(tmp_path, """each turn:
    let q = last(players)
    announce empty(flatten([q.shelf[i] for each i in 1..3]))
    move first(box) to q.shelf[3]
    announce empty(flatten([q.shelf[i] for each i in 1..3])), empty(flatten([p.shelf[3] for each p in players]))
    announce empty(flatten([first(players).shelf[i] for each i in 1..3])), empty(flatten([[], []]))
    end game
""")
    assert texts == ["true", "false false", "true true"]


def test_a_filter_with_lists_in_its_condition_asked_only_whether_it_is_empty(tmp_path):
    # "some i in 1..2 for which every player has a token of theirs in the pile, and i is 1":
    # with only seat 1's token in the pile, no i (false, so empty is true); with both seats',
    # i = 1 (true); i is never 3, so that filter stays empty.
    _, _, events = run(tmp_path, """zone pile shared public
define everyone(i) = empty([each p in players where empty([each c in pile where c.owner == p and i == 1])])
each turn:
    move first(box) to pile
    announce empty([each i in 1..2 where everyone(i)]), not empty([each i in 1..2 where everyone(i)])
    move last(box) to pile
    announce empty([each i in 1..2 where everyone(i)]), not empty([each i in 1..2 where everyone(i)])
    announce empty([each i in [3] where everyone(i)]), size([each i in 1..2 where everyone(i)])
    end game
""")
    assert said_texts(events) == ["true false", "false true", "true 1"]
