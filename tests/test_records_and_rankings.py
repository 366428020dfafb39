"""Issue 12, first step: record values (`{x: 1, y: 2}`, `r.x`) and rankings with shared places
(`rank`, `share`). Expected values are worked by hand from snow_planner.txt [Goal Cards] and
[Game End: 2. Goal Cards]; each test's comment shows the arithmetic."""
from __future__ import annotations

import json

import pytest
from snowrules.compile.stdlib import ranks, shared_points
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from test_language import run, said


def announce(tmp_path, *lines: str, head: str = "") -> list[str]:
    body = "".join(f"    {line}\n" for line in lines)
    _, _, events = run(tmp_path, f"{head}each turn:\n{body}    end game winners players\n")
    return said(events)


# ---- records ----------------------------------------------------------------------------------
def test_a_record_literal_gives_its_fields_by_name(tmp_path):
    assert announce(tmp_path, 'let r = {x: 1, y: 2 + 3, who: first(players), tags: ["a", "b"]}',
                    "announce r.x, r.y, r.who, size(r.tags), last(r.tags)") == ["1 5 0 2 b"]


def test_records_are_equal_field_by_field_whatever_the_order_of_writing(tmp_path):
    # same fields and values in another order: equal; one value differs: not equal
    assert announce(tmp_path, "announce {x: 1, y: 2} == {y: 2, x: 1}, {x: 1, y: 2} == {x: 1, y: 3}, "
                              "{x: 1} != {x: 1, y: 2}, {} == {}") == ["true false true true"]


def test_records_in_lists_filter_and_map_by_their_fields(tmp_path):
    # spaces 1..3 cost 0, 1, 2; those costing at most 1 are 1 and 2; their costs add to 1
    lines = ("let spaces = [{id: n, cost: n - 1} for each n in 1..3]",
             "announce [s.id for each s in spaces where s.cost <= 1], sum([s.cost for each s in spaces]), "
             "{id: 2, cost: 1} in spaces, {id: 2, cost: 2} in spaces")
    assert announce(tmp_path, *lines) == ["1, 2 3 true false"]


def test_a_record_may_span_lines_and_hold_records(tmp_path):
    lines = ("let tier = {\n        low: 4,\n        gain: {what: \"window\", n: 1}}",
             "announce tier.low, tier.gain.what, tier.gain.n")
    assert announce(tmp_path, *lines) == ["4 window 1"]


def test_a_field_read_above_the_record_that_has_it_is_known(tmp_path):
    # `show` reads best.cost before any record with `cost` is compiled: the checker knows the field
    _, st, events = run(tmp_path, """variable best = none
define show():
    if best != none:
        announce best.cost
each turn:
    show()
    best = {cost: 2}
    show()
    end game winners players
""")
    assert said(events) == ["2"]
    assert json.loads(json.dumps(st.to_json()))  # a state holding a record stays JSON


def test_a_missing_field_of_a_known_name_is_none(tmp_path):
    assert announce(tmp_path, "let a = {x: 1}", "let b = {y: 2}", "announce a.y == none, b.x == none") \
        == ["true true"]


BAD_RECORDS = [  # (expression, error at path:line:col)
    ("{x: 1, x: 2}", "3:21: error: field 'x' is given twice in this record"),
    ("{x: 1}.colour", "3:14: error: no table row has a field 'colour'"),
    ("{x: ratio(1, 2)}", "3:18: error: a record's field cannot hold a fraction"),
    ("{x: p}", "3:18: error: a record's field cannot hold a counter with several keys"),
]


@pytest.mark.parametrize("expression, message", BAD_RECORDS)
def test_a_bad_record_is_reported_at_its_column(tmp_path, expression, message):
    with pytest.raises(RulesetError) as error:
        announce(tmp_path, f"announce {expression}", head="counter p[a, b] shared\n")
    assert message in str(error.value)


# `    announce {` puts the brace at column 14
@pytest.mark.parametrize("expression, col, unexpected", [("{x 1}", 17, "'1'"), ("{x: 1,}", 20, "'}'"),
                                                         ("{1: 2}", 15, "'1'")])
def test_a_malformed_record_is_a_syntax_error_at_its_column(tmp_path, expression, col, unexpected):
    with pytest.raises(RulesetError) as error:
        announce(tmp_path, f"announce {expression}")
    assert f":2:{col}: error: unexpected {unexpected}" in str(error.value)


# ---- rankings -----------------------------------------------------------------------------------
RANKINGS = [  # (points by place, scores, expected points per score, worked by hand)
    # [Game End] SNOW RESORT: green 5, red 3, blue 3; 1st pays 4, 2nd pays 2, no 3rd in the example:
    # green 4; red and blue fill 2nd and 3rd: (2 + 0) / 2 = 1 each
    ([4, 2], [5, 3, 3], [4, 1, 1]),
    # two tied for 1st fill 1st and 2nd: (4 + 2) / 2 = 3; the next is 3rd, which pays nothing
    ([4, 2], [5, 5, 3], [3, 3, 0]),
    # three tied for 1st: (4 + 2 + 0) / 3 = 2 each
    ([4, 2], [1, 1, 1], [2, 2, 2]),
    # rounded down: 1st and 2nd tied with 5 + 2 = 7 points, 7 / 2 = 3
    ([5, 2], [0, 9, 9], [0, 3, 3]),
    # 4 players, three tied for 2nd share 2nd-4th: (2 + 0 + 0) / 3 = 0; the leader keeps 4
    ([4, 2], [3, 7, 3, 3], [0, 4, 0, 0]),
    # 2 players pay only 1st place [Game End: "If playing with 3-4 players ... 2nd place"]
    ([4], [2, 6], [0, 4]),
    # more places than scores, and no scores at all
    ([6, 3, 1], [2, 4], [3, 6]),
    ([4, 2], [], []),
]


@pytest.mark.parametrize("points, scores, expected", RANKINGS)
def test_tied_scores_split_the_points_of_the_places_they_fill(points, scores, expected):
    assert shared_points(points, scores) == expected


@pytest.mark.parametrize("values, expected", [
    ([5, 3, 3], [1, 2, 2]), ([5, 5, 3], [1, 1, 3]), ([1, 2, 3, 4], [4, 3, 2, 1]), ([0, 0], [1, 1]), ([], []),
])
def test_rank_is_one_plus_how_many_are_strictly_higher(values, expected):
    assert ranks(values) == expected


def test_share_and_rank_in_the_rules_pay_the_rulebook_example(tmp_path):
    # the SNOW RESORT example through the language, each player's points added to a counter
    head = "counter snow per player from 0\ncounter vp per player from 0\nsetup:\n" \
           "    set first(players).snow to 5\n    set last(players).snow to 3\n"
    lines = ("let paid = share([4, 2], [q.snow for each q in players])",
             "for each p in players:",
             "    add item(paid, seat_number(p)) to p.vp",
             "announce [p.vp for each p in players], rank([q.snow for each q in players])")
    # 2 seats (5 and 3 snow): 1st 4 points, 2nd 2 points
    assert announce(tmp_path, *lines, head=head) == ["4, 2 1, 2"]


def test_item_outside_its_list_is_an_error_at_the_call(tmp_path):
    with pytest.raises(RuntimeRulesError) as error:
        announce(tmp_path, "announce item([7, 8], 2)")
    assert ":2:14: error: item(): position 2 is outside a list of 2" in str(error.value)
