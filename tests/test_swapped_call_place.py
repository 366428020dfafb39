"""Where a swapped call is reported (Diagnostics.relocate_call_errors): at the call whose arguments
do not fit, however deep in other defines the problem shows, whether the defines are expanded at
each call or compiled once per argument kinds (compile/define_calls.py), and at every call that
passes the same wrong values. Pig (tests/rulesets/pig) with a few defines in place of its
`winners_of`, on rules.sr's lines 8 on; each expected place worked out by hand. A define called
at one place only is tried with that call's arguments the other way round (compile/swapped_calls.py).

Before (main at d1200a2): the nested case was reported at `inner`'s call inside `outer` (line 9,
called cleanly by `fine`) as well as at the swap; of two swapped calls of a define compiled once,
the second was not reported (the body is not checked again for the same kinds). Before the trial
(main at 1fd8305), the swap at the only call was reported inside the defines, at 8:22, 8:32 and 9:37."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from snowrules.compile import define_calls
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RulesetError
from snowrules.load.ruleset import load_ruleset

PIG = Path(__file__).parent / "rulesets" / "pig"
WINNERS = "define winners_of() = [each q in players where q.score >= winscore]"
NESTED = """define inner(q, n) = q.score + n
define outer(q, n) = inner(q, n) >= n
define fine() = [each q in players where outer(q, 1)]
define swapped() = [each q in players where outer(1, q)]"""
SCORE = "the arguments of this call do not fit 'outer': a number has no 'score' (at {rules}:8:22)"

# `outer` called at one place only: no clean call shows the caller wrote the swap; a trial of that
# call with its arguments the other way round does (compile/swapped_calls.py). `inner(q, n)`, also
# called once, checks clean swapped as well, but leaves `>= n` failing in `outer`: not blamed.
ONLY_CALL = """define inner(q, n) = q.score + n
define outer(q, n) = inner(q, n) >= n
define swapped() = [each q in players where outer(1, q)]"""
# `inner` also called cleanly: the calls of `inner` inside each expansion of `outer` (winners_of is
# read at two places of ruleset.yaml) are blamed first, and all give way to the only call of `outer`
ONLY_CALL_INNER_CLEAN = ONLY_CALL + "\ndefine fine() = [each q in players where inner(q, 1) > 0]"
# every problem of `outer`'s only call lies inside calls of `inner`, blamed first as `inner` is clean
# elsewhere; neither call of `inner` checks clean swapped (the other still fails): `outer`'s call is
ALL_INSIDE = """define inner(q, n) = q.score + n
define outer(q, n) = inner(q, n) + inner(q, 0) > 0
define fine() = [each q in players where inner(q, 1) > 0]
define swapped() = [each q in players where outer(1, q)]"""
# the swap written in `outer`'s body: `outer`'s only call checks clean swapped too, and so does the
# call of `inner` in the body, which is where the mistake is reported (the inner call is preferred)
IN_THE_BODY = """define inner(q, n) = q.score + n
define outer(q, n) = inner(n, q) > 0
define fine() = [each q in players where inner(q, 1) > 0]
define once() = [each q in players where outer(q, 1)]"""
INNER = "the arguments of this call do not fit 'inner': a number has no 'score' (at {rules}:8:22)"
# the same defines called once with the right values, a name misspelt in the body: no swap of any
# call checks clean, so the error stays in the body, where it was written
BODY_MISTAKE = """define inner(q, n) = q.scor + n
define outer(q, n) = inner(q, n) >= n
define once() = [each q in players where outer(q, 1)]"""

CASES = [
    # (defines, what winners_of adds up, the errors: line, column, code, message)
    (NESTED, "size(fine()) + size(swapped())", [(11, 45, "SR402", SCORE)]),
    (NESTED + "\ndefine swapped_again() = [each q in players where outer(1, q)]",
     "size(fine()) + size(swapped()) + size(swapped_again())",
     [(11, 45, "SR402", SCORE), (12, 51, "SR402", SCORE)]),
    (ONLY_CALL, "size(swapped())", [(10, 45, "SR402", SCORE)]),
    (ONLY_CALL_INNER_CLEAN, "size(swapped()) + size(fine())", [(10, 45, "SR402", SCORE)]),
    (ALL_INSIDE, "size(swapped()) + size(fine())", [(11, 45, "SR402", SCORE)]),
    (IN_THE_BODY, "size(once()) + size(fine())", [(9, 22, "SR402", INNER)]),
    (BODY_MISTAKE, "size(once())", [(8, 22, "SR401", "a player has no zone or counter 'scor'")]),
]


@pytest.mark.parametrize("limit", [define_calls.EXPANSION_LIMIT, 0], ids=["expanded", "compiled once"])
@pytest.mark.parametrize("defines, used, errors", CASES,
                         ids=["nested", "called twice", "called once", "called once, inner clean",
                              "called once, all inside", "swapped in the body", "a mistake in the body"])
def test_a_swapped_call_is_reported_at_itself(tmp_path, monkeypatch, limit, defines, used, errors):
    monkeypatch.setattr(define_calls, "EXPANSION_LIMIT", limit)
    folder = tmp_path / "pig"
    shutil.copytree(PIG, folder)
    rules = folder / "rules.sr"
    winners = f"define winners_of() = [each q in players where q.score >= winscore and {used} > 0]"
    rules.write_text(rules.read_text().replace(WINNERS, f"{defines}\n{winners}"))
    with pytest.raises(RulesetError) as raised:
        compile_ruleset(load_ruleset(str(folder)), 2)
    found = [(d.position.line, d.position.col, d.code, d.message.replace(str(rules), "{rules}"))
             for d in raised.value.diagnostics if d.severity == "error"]
    assert found == errors
