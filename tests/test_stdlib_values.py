"""The standard library's values, at their edges: each row is a call and the value the language
reference (docs/language.md, "Standard library") says it has, worked out by hand (issue 9 point 23:
these are the mutants of compile/stdlib.py the rest of the suite let through).

The probe ruleset of test_language has 4 tokens `t` per seat, seat-major: with 3 seats, ids 0-3
are seat 1's, 4-7 seat 2's, 8-11 seat 3's. Seats are numbered from 0 (`seat_number`)."""
from __future__ import annotations

from test_language import run, said

# (expression, what `announce` prints): numbers print as digits, truth as true/false.
VALUES = [
    # longest_run: the longest stretch of consecutive whole numbers, repeats and order ignored
    ("longest_run([])", "0"),
    ("longest_run([7])", "1"),
    ("longest_run([3, 1, 2])", "3"),
    ("longest_run([1, 2, 2, 3, 9, 10])", "3"),
    ("longest_run([1, 3, 5])", "1"),
    ("longest_run([5, 6, 1, 2, 3, 4])", "6"),
    ("longest_run([10, 11, 1, 2, 3])", "3"),
    # min and max: of a list (none when empty), or of two or more numbers
    ("min([4, 2, 8])", "2"),
    ("max([4, 2, 8])", "8"),
    ("min([]) == none", "true"),
    ("max([]) == none", "true"),
    ("min(5, 3, 9)", "3"),
    ("max(5, 3, 9)", "9"),
    ("min(7, 7)", "7"),
    ("max(0 - 1, 0 - 4)", "-1"),
    ("min(n, 9)", "4"),  # arguments read the turn's own names (`let n = 4`)
    ("max(n, 1, n + 3)", "7"),
    ("max(5, 3, 9) + 1", "10"),  # the numbers' form is a number: arithmetic accepts it
    ("min(5, 3, 9) * 2", "6"),
    # first and last of an empty list are none
    ("first([]) == none", "true"),
    ("last([]) == none", "true"),
    ("first([4, 5, 6])", "4"),
    ("last([4, 5, 6])", "6"),
    # first_nonempty: the first list (or zone, as its list) that holds something, else an empty list
    ("first_nonempty([], [2, 3], [4]) == [2, 3]", "true"),
    ("first_nonempty([5], [2, 3]) == [5]", "true"),
    ("first_nonempty([], []) == []", "true"),
    ("first_nonempty([], [n])", "4"),
    ("size(first_nonempty([], box))", "12"),
    ("size(first_nonempty([each c in box where c.owner == first(players)], box))", "4"),
    # fractions (ratio) added, taken away, negated and compared: a fraction prints as a decimal
    ("ratio(1, 4) + ratio(1, 4)", "0.5"),
    ("ratio(1, 2) - 1", "-0.5"),
    ("2 - ratio(3, 2)", "0.5"),
    ("-ratio(1, 4)", "-0.25"),
    ("ratio(n, 8) + ratio(1, 2) == 1", "true"),
    ("ratio(4, 2) == 2", "true"),
    ("ratio(1, 3) < ratio(1, 2)", "true"),
    ("ratio(3, 2) >= 2", "false"),
    ("1 <= ratio(3, 2)", "true"),
    # counting, totals, order
    ("count([1, 2, 1, 1], 1)", "3"),
    ("count([1, 2], 3)", "0"),
    ("sum([])", "0"),
    ("sum([2, 3, 4])", "9"),
    ("sorted([3, 1, 2]) == [1, 2, 3]", "true"),
    ("unique([2, 1, 2, 3, 1]) == [2, 1, 3]", "true"),
    ("flatten([[1, 2], [], [3]]) == [1, 2, 3]", "true"),
    ("abs(0 - 5)", "5"),
    ("abs(5)", "5"),
    # seats, with 3 players: seat numbers 0, 1, 2; left is the next, right the previous, both wrap
    ("seat_number(left_of(last(players)))", "0"),
    ("seat_number(right_of(first(players)))", "2"),
    ("seat_number(left_of(first(players)))", "1"),
    ("[seat_number(q) for each q in players_from(last(players))] == [2, 0, 1]", "true"),
    ("[seat_number(q) for each q in players_from(first(players))] == [0, 1, 2]", "true"),
    # sizes of zones and lists
    ("size(box)", "12"),
    ("size([1, 2])", "2"),
    ("empty([])", "true"),
    ("empty(box)", "false"),
]


def test_standard_library_values_at_their_edges(tmp_path):
    lines = "\n".join(f"    announce {expression}" for expression, _ in VALUES)
    _, _, events = run(tmp_path, f"each turn:\n    let n = 4\n{lines}\n    end game winners players\n", players=3)
    got = dict(zip((expression for expression, _ in VALUES), said(events)))
    assert got == dict(VALUES)
