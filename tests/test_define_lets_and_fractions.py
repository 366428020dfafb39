"""Issue 27 item 4: names given inside a define (`let` lines before its result), sums,
differences and comparisons of fractions, and `first_nonempty`. Expected values are worked out by
hand in the comments; the misuses refused at their place are rows of tests/test_bad_constructs.py,
the standard library's values at their edges rows of tests/test_stdlib_values.py."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from snowrules.compile import define_calls
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, play
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import player_returns
from test_language import ruleset, run, said

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def doc_example(first_line: str) -> str:
    """The docs' ```snowrules block that starts with `first_line`."""
    for block in re.findall(r"```snowrules\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        if block.startswith(first_line):
            return block
    raise AssertionError(f"no example starts with {first_line!r}")


def says(example: str) -> list[str]:
    """What the example's comments say its `announce` lines print, in order."""
    return re.findall(r"# says: (.*)$", example, re.M)


@pytest.mark.parametrize("first_line", ["define spread(values) =", "each turn:\n    announce ratio(1, 4)"])
@pytest.mark.parametrize("limit", [10**9, 0], ids=["expanded", "called"])
def test_the_docs_examples_say_what_their_comments_say(tmp_path, monkeypatch, first_line, limit):
    """spread([4, 9, 2]) = 9 - 2 = 7; spread([k, 1, 3k]) for k = 1, 2, 3: 3-1, 6-1, 9-1 = 2, 5, 8.
    1/4 + 1/4 = 0.5; 2 - 3/2 = 0.5; -(1/4); 1/3 three times is 1 (the floats' sum rounds to 1.0).
    Both ways of compiling a define (expanded at the call, or called: define_calls.py) agree."""
    monkeypatch.setattr(define_calls, "EXPANSION_LIMIT", limit)
    example = doc_example(first_line)
    _, _, events = run(tmp_path, example.replace("end game", "end game winners players"))
    assert said(events) == says(example)


def test_each_let_is_computed_once_per_call_in_order(tmp_path):
    """`step` adds 1 to the counter each time it is computed: a let computed once per call gives
    1 for the first call's `a` and `a + a` = 2, then 2 and 4 for the second call."""
    rules = """counter calls shared from 0
variable last = 0
define twice_of(x) =
    let a = x
    let b = a + a
    [a, b]
each turn:
    add 1 to calls
    announce twice_of(calls)
    add 1 to calls
    announce twice_of(calls)
    end game winners players
"""
    _, _, events = run(tmp_path, rules)
    assert said(events) == ["1, 2", "2, 4"]


@pytest.mark.parametrize("limit", [10**9, 0], ids=["expanded", "called"])
def test_lets_over_many_lists_give_the_written_out_expression(tmp_path, monkeypatch, limit):
    """A define with three lets, over 60 random lists (seeded), gives what Python computes for the
    same formula: (max - min) * size + the first item, or 0 for an empty list."""
    monkeypatch.setattr(define_calls, "EXPANSION_LIMIT", limit)
    rng = random.Random(27)
    lists = [[rng.randint(-9, 9) for _ in range(rng.randint(0, 6))] for _ in range(60)]
    rules = f"""define measure(values) =
    let low = min(values)
    let width = 0 if low == none else max(values) - low
    let spread_times_size = width * size(values)
    0 if empty(values) else spread_times_size + first(values)
each turn:
    announce [measure(v) for each v in {lists}]
    end game winners players
"""
    expected = [0 if not v else (max(v) - min(v)) * len(v) + v[0] for v in lists]
    _, _, events = run(tmp_path, rules)
    assert said(events) == [", ".join(str(n) for n in expected)]


def test_a_zone_found_by_first_nonempty_is_kept_as_it_was(tmp_path):
    """The first seat's 4 tokens go to `pile`; first_nonempty([], pile) finds them; after they move
    on to `stash` the list found still holds 4, the pile 0, and first_nonempty(pile, stash) finds
    the stash's 4."""
    rules = """zone pile shared public
zone stash shared public
setup:
    move [each c in box where c.owner == first(players)] to pile
each turn:
    let found = first_nonempty([], pile)
    move all from pile to stash
    announce size(found), size(pile), size(first_nonempty(pile, stash))
    end game winners players
"""
    _, _, events = run(tmp_path, rules)
    assert said(events) == ["4 0 4"]


def test_a_return_may_be_a_difference_of_fractions(tmp_path):
    """The first seat wins, 2 players; each return is a share of 1 among the winners less a fee of
    1/4: the winner 1 - 1/4 = 0.75, the other 0 - 1/4 = -0.25 (a manifest's `returns: value:`)."""
    rules = """define share(p) = (ratio(1, 1) if p == first(players) else ratio(0, 1)) - ratio(1, 4)
each turn:
    end game winners [first(players)]
"""
    ruleset(tmp_path, rules)
    manifest = tmp_path / "ruleset.yaml"
    manifest.write_text(manifest.read_text() + "returns:\n  value: share(p)\n  min: '-1'\n  max: '1'\n")
    game = Game(compile_ruleset(load_ruleset(str(tmp_path)), 2))
    state = play(game, [FirstAgent(), FirstAgent()], 1)
    assert player_returns(game.program, state) == [0.75, -0.25]
