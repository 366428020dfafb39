"""first() of a filter given to a name by a statement is found by a loop that stops at the first
item that passes, max() and min() of a list by a loop keeping the best (compile/found_by_loop.py);
a list over a plain filter goes through the filter's own list (fuse.comprehension); a loop over a
row of a table snowrules made goes through it without a copy (playthrough._constant_row): the
same answers as before, stopped at each decision and played through."""
from __future__ import annotations

import pytest
from conftest import answered_from_outside
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.playthrough import _constant_row
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said
from test_playthrough import final, random_decide

# The last seat's 4 tokens on tiles[2], one of the first seat's on tiles[3]; tiles[1] is empty.
SETUP = """zone tiles[1..3] shared public
variable found = none
setup:
    move [each c in box where c.owner == last(players)] to tiles[2]
    move first([each c in box where c.owner == first(players)]) to tiles[3]
"""


def test_first_of_a_filter_given_to_a_name(tmp_path):
    # a: the seat with a token on tiles[2] (the last); b: the first empty tile (1); c: no tile
    # holds 10 (none); `found` is tested against its own value: first the first seat (nobody
    # equals none), then the seat that is not the first. holder(3): the first seat's token;
    # first_with(ps, k): a seat with 2 or more on tiles[k]: the last on tiles[2], none on tiles[3].
    game, _, events = run(tmp_path, SETUP.replace("setup:", """\
define holder(k) = first([each p in players where not empty([each c in tiles[k] where c.owner == p])])
define first_with(ps, k) = first([each p in ps where size([each c in tiles[k] where c.owner == p]) >= 2])
setup:""") + """each turn:
    let a = first([each p in players where not empty([each c in tiles[2] where c.owner == p])])
    let b = first([each k in 1..3 where empty(tiles[k])])
    let c = first([each k in 1..3 where size(tiles[k]) > 9])
    found = first([each p in players where p != found])
    announce a == last(players), b, c == none, found == first(players)
    found = first([each p in players where p != found])
    let h = holder(3)
    let w = first_with(players, 2)
    b = first_with(players, 3)
    announce found == last(players), h == first(players), w == last(players), b == none
    end game winners players
""")
    assert said(events) == ["true 1 true true", "true true true true"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


def test_a_list_over_a_filter_and_a_loop_over_seats_in_order(tmp_path):
    # in_tiles() = [2, 3]: the tiles holding something; the seats from the first one, whatever
    # `found` becomes inside the loop (its list was made before the first round)
    game, _, events = run(tmp_path, SETUP.replace("setup:", """\
define in_tiles() = [each k in 1..3 where not empty(tiles[k])]
setup:""") + """each turn:
    announce size([each k in in_tiles() where k > 2]), sum([k * 10 for each k in in_tiles()])
    announce size([each k in in_tiles() where size(tiles[k]) == 4]), size([k for each k in in_tiles()])
    found = first(players)
    for each p in players_from(found):
        found = last(players)
        announce seat_number(p)
    end game winners players
""")
    assert said(events) == ["1 50", "1 2", "0", "1"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


@pytest.mark.parametrize("line", [
    "    let w = first([each p in players where first(tiles[1]).owner == p])",
    "    found = max([seat_number(first(tiles[1]).owner) for each k in 1..2])",
    "    let w = min([k for each k in 1..2 where first(tiles[k]).owner == none])",
])
def test_an_error_in_a_value_found_by_a_loop_is_at_its_statement(tmp_path, line):
    # tiles[1] is empty: first(tiles[1]) is none, and none has no owner
    game = Game(compile_ruleset(ruleset(tmp_path, SETUP + f"each turn:\n{line}\n    end game\n"), 2))
    for playing in (lambda: answered_from_outside(game, 0, random_decide(2, 0)),
                    lambda: game.play_through(0, random_decide(2, 0))):
        with pytest.raises(RuntimeRulesError) as error:
            playing()
        assert "rules.sr:7:5: error: a value is none where this rule needs one" in str(error.value)


@pytest.mark.parametrize("src, tables, row", [
    ("(_v5[(st.vars[1]) % 2])", {"_v5": [[0, 1], [1, 0]]}, True),   # players_from's orders
    ("_v5[env[3]]", {"_v5": ((0, 1), (1, 0))}, True),
    ("(_v5[1])", {"_v5": [4, 5]}, False),                          # a list of numbers, no rows
    ("(_v5[1][0])", {"_v5": [[0, 1], [1, 0]]}, False),             # an item of a row
    ("(_v5[0] + _v5[1])", {"_v5": [[0], [1]]}, False),             # a new list, but not a row
    ("(st.zones[3])", {}, False),                                  # a zone: the body may move its items
    ("(_v6[0])", {"_v5": [[0]]}, False),                           # not a name snowrules bound
])
def test_which_lists_are_rows_of_a_table(src, tables, row):
    assert _constant_row(src, tables) is row


def test_max_and_min_of_a_list_given_to_a_name(tmp_path):
    # sizes of tiles 1..3: 0, 4, 1. m: the largest (4); n: the smallest among the non-empty (1);
    # e: no tile holds 9 (none); `best` read inside its own max: 10 - size, the old best (none
    # counts as no tile) then kept: 10 - 0 = 10; t: max of a list of seats (the later seat);
    # pick(k): the tile whose size is the largest, by a define whose argument is a max: tile 2.
    game, _, events = run(tmp_path, SETUP.replace("variable found = none", """\
variable best = 0
define pick(top) = first([each k in 1..3 where size(tiles[k]) == top])""") + """each turn:
    let m = max([size(tiles[k]) for each k in 1..3])
    let n = min([size(tiles[k]) for each k in 1..3 where not empty(tiles[k])])
    let e = max([k for each k in 1..3 where size(tiles[k]) == 9])
    best = max([10 - size(tiles[k]) - best for each k in 1..3])
    let t = max([seat_number(p) for each p in players])
    let k = pick(max([size(tiles[i]) for each i in 1..3]))
    announce m, n, e == none, best, t, k
    end game winners players
""")
    assert said(events) == ["4 1 true 10 1 2"]
    stopped = answered_from_outside(game, 0, random_decide(2, 0))
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)


def test_a_decision_after_values_found_by_loops_resumes_alike_from_copies(tmp_path):
    # the seat found (the last: it holds tiles[2]) chooses among the tiles as large as the
    # largest; its answer moves a token there. The state at the decision, its clone and its JSON
    # round trip end alike.
    from conftest import three_copies
    game = Game(compile_ruleset(ruleset(tmp_path, SETUP + """each turn:
    let who = first([each p in players where not empty([each c in tiles[2] where c.owner == p])])
    let top = max([size(tiles[k]) for each k in 1..3])
    ask who to choose k from [each k in 1..3 where size(tiles[k]) >= top - 3]:
        move first(tiles[2]) to tiles[k]
        announce k, top
    end game winners players
"""), 2))
    st = game.start(0)
    assert st.pending.seats == [1] and st.pending.options == [[2, 3]]  # sizes 0, 4, 1: top 4
    ends = []
    for copy in three_copies(st):
        game.answer(copy, [1])  # tiles[3]
        ends.append((copy.zones, copy.result))
    assert ends[0] == ends[1] == ends[2] and [len(z) for z in ends[0][0][-3:]] == [0, 3, 2]
