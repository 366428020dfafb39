"""What the rest of the suite never ran (issue 9, point 21): counter changes inside a block that
waits for a decision, a list moved to the bottom of a zone, `name_of`, `seat_name`, `zone_of`,
`right_of`, `find` over components, and the standard library's error messages.

The probe ruleset of test_language has 4 tokens `t` per seat, seat-major: with 3 seats, ids
0-3 are seat 1's, 4-7 seat 2's, 8-11 seat 3's."""
from __future__ import annotations

import pytest
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.steps import TriggeredAdd
from snowrules.language.diagnostics import RulesetError
from snowrules.play.agents import FirstAgent, play
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said
from test_language_constructs import folder

WAITING_TRIGGER = """counter gems per player from 0 to 5
counter bonus per player from 0
when p.gems >= 3:
    ask p to choose x from [1, 2]:
        add x to p.bonus
each turn:
    let p = first(players)
    add 10 to p.gems
    add 1 to p.gems
    subtract 4 from p.gems
    set p.gems to 4
    subtract 10 from p.gems
    announce p.gems, p.bonus
    end game
"""


def test_counter_changes_in_a_block_that_waits_clamp_log_and_fire(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, WAITING_TRIGGER), 2))
    # gems has a trigger that asks: its changes are steps (the closure path), not generated lines
    steps = [step for block in game.program.blocks for step in block.steps if isinstance(step, TriggeredAdd)]
    assert len(steps) == 5
    events: list[dict] = []
    play(game, [FirstAgent(), FirstAgent()], 1, sink=events.append)
    counts = [(e["counter"], e["by"], e["now"], e["rule"].rsplit(":", 2)[1]) for e in events if e["e"] == "count"]
    # 0 + 10 is kept at 5 (fires: 5 >= 3 became true; the first option, 1, goes to bonus);
    # 5 + 1 is still 5: no change, no event, no trigger; 5 - 4 = 1; set 4 fires again (+1 bonus);
    # 4 - 10 is kept at 0.
    assert counts == [("seat 1.gems", 5, 5, "8"), ("seat 1.bonus", 1, 1, "5"), ("seat 1.gems", -4, 1, "10"),
                      ("seat 1.gems", 3, 4, "11"), ("seat 1.bonus", 1, 2, "5"), ("seat 1.gems", -4, 0, "12")]
    assert said([e for e in events if e["e"] == "say"]) == ["0 2"]
    decisions = [e for e in events if e["e"] == "choice"]
    assert [(d["seat"], d["option"]) for d in decisions] == [("seat 1", "1"), ("seat 1", "1")]


def test_a_list_moved_to_the_bottom_goes_under_the_others_one_item_at_a_time(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, """zone pile shared public
setup:
    move [each c in box where c.owner == first(players)] to pile
each turn:
    move [each c in box where c.owner == last(players)] to pile at bottom
    end game
"""), 2))
    events: list[dict] = []
    st = play(game, [FirstAgent(), FirstAgent()], 1, sink=events.append)
    pile = st.zones[game.layout.zone_families["pile"].base]
    # seat 1's 0-3 were put on the pile in order; then 4, 5, 6, 7 each went under all the others:
    # 7 is the very bottom (first), then 6, 5, 4, then 0-3 as they were.
    assert pile == [7, 6, 5, 4, 0, 1, 2, 3]
    assert st.where[7] == game.layout.zone_families["pile"].base
    bottom_moves = [e["what"] for e in events if e["e"] == "move" and e["rule"].endswith(":5:5")]
    assert bottom_moves == [["seat 2 t"]] * 4  # one event per item, each naming it


def test_names_seats_zones_and_find_over_components(tmp_path):
    _, _, events = run(tmp_path, """zone pile shared public
setup:
    move [each c in box where c.owner == first(players)] to pile
each turn:
    let p = first(players)
    announce name_of(first(pile)), seat_name(right_of(p)), seat_name(right_of(last(players)))
    announce zone_of(first(pile)) == pile, zone_of(last(components)) == box, size(zone_of(first(pile)))
    announce find(components, "owner", last(players)), find(components, "kind", "none such") == none
    announce find(pile, "owner", p), find(pile, "owner", last(players)) == none
    end game
""", players=3)
    # right of the first seat is the last one (seat order wraps); right of seat 3 is seat 2.
    # The first component whose owner is seat 3 is id 8, "seat 3 t"; the pile holds only seat 1's.
    assert said(events) == ["seat 1 t seat 3 seat 2", "true true 4", "seat 3 t true", "seat 1 t true"]


TABLE_COMPONENTS = """schema: token.schema.json
components:
  - {name: t, kind: token}
tables:
  track:
    - {space: 1, bonus: 2}
"""


@pytest.mark.parametrize("expression, col, message, hint", [
    ("size()", 14, "size() takes 1 argument(s), given 0", ""),
    ("size(track, track)", 14, "size() takes 1 argument(s), given 2", ""),
    ("count([1])", 14, "count() takes 2 argument(s), given 1", ""),
    ("min()", 14, "min() takes at least 1 argument(s), given 0", ""),
    ("ratio(1)", 14, "ratio() takes 2 argument(s), given 1", ""),
    ("sizee(track)", 14, "unknown function 'sizee'", "did you mean 'size'?"),
    ('find(components, "knd", "token")', 31, "no component has a field 'knd'", "did you mean 'kind'?"),
    ('find(track, "spce", 1)', 26, "no row of 'track' has a field 'spce'", "did you mean 'space'?"),
    ("find(track, 3, 1)", 26, "find() needs the field's name as a quoted text", ""),
    ('evaluate(first(components), "condition", first(players))', 42,
     "no component has an expression in a field 'condition'", "\"x-language\": \"expression\""),
    ('longest_run(["a"])', 14, "longest_run() takes a list of numbers", ""),
    ("flatten([1, 2])", 14, "flatten() takes a list of lists or of zones", ""),
    ("left_of(1)", 22, "the argument of left_of() must be a player, not a number", ""),
    ("name_of(first(players))", 22, "the argument of name_of() must be a component, not a player", ""),
    ("zone_of(3)", 22, "the argument of zone_of() must be a component, not a number", ""),
    ("abs(\"x\")", 18, "the argument of abs() must be a number, not a text", ""),
    ("first(1)", 20, "the argument of first() must be a list or a zone, not a number", ""),
])
def test_standard_library_errors_say_what_is_wrong_at_their_column(tmp_path, expression, col, message, hint):
    folder(tmp_path, f"each turn:\n    announce {expression}\n    end game\n", TABLE_COMPONENTS)
    from snowrules.load.ruleset import load_ruleset
    with pytest.raises(RulesetError) as error:
        compile_ruleset(load_ruleset(str(tmp_path)), 2)
    line = next((d for d in error.value.diagnostics if message in d.message), None)
    assert line is not None, str(error.value)
    assert (line.position.line, line.position.col) == (2, col), str(line)
    assert hint in line.hint, str(line)
