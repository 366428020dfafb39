"""The language's constructs on small rulesets written for the test (not a bundled game)."""
from __future__ import annotations

from pathlib import Path

import pytest
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, RandomAgent, play
from snowrules.runtime.engine import Game

MANIFEST = """name: probe
title: Probe
version: "1"
players: {min: 2, max: 3}
rules: [rules.sr]
components: [components/tokens.yaml]
language: 2
"""
TOKENS = """schema: token.schema.json
per_seat: true
components:
  - {name: t, kind: token, copies: 4}
"""


def ruleset(tmp_path: Path, rules: str):
    (tmp_path / "components").mkdir(exist_ok=True)
    (tmp_path / "ruleset.yaml").write_text(MANIFEST)
    (tmp_path / "components" / "tokens.yaml").write_text(TOKENS)
    (tmp_path / "rules.sr").write_text(rules)
    return load_ruleset(str(tmp_path))


def run(tmp_path, rules: str, players: int = 2, agent=FirstAgent):
    game = Game(compile_ruleset(ruleset(tmp_path, rules), players))
    events: list[dict] = []
    st = play(game, [agent() for _ in range(players)], 1, sink=events.append)
    return game, st, [e for e in events if e["e"] == "say"]


def said(events) -> list[str]:
    return [e["text"] for e in events]


def test_lists_ranges_filters_and_maps(tmp_path):
    _, _, events = run(tmp_path, """zone tiles[1..5] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[2]
each turn:
    announce [n * 2 for each n in 1..4 where n % 2 == 0]
    announce sum([n for each n in 5 down to 1]), min([3, 1, 2]), max(4, 9), abs(0 - 3)
    announce size(flatten([tiles[i] for each i in 1..5])), empty(tiles[1]), \
        size([each i in 1..5 where not empty(tiles[i])])
    announce sorted([3, 1, 2]), unique([1, 1, 2]), 7 / 2, 7 % 2, 1 if 2 > 1 else 0, 3 in [1, 3]
    end game winners players
""")
    assert said(events) == ["4, 8", "15 1 9 3", "4 true 1", "1, 2, 3 1, 2 3 1 1 true"]


def test_a_zone_index_outside_its_range_is_an_error_at_its_position(tmp_path):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, """zone tiles[1..5] shared public
each turn:
    let k = 6
    announce size([each c in tiles[k - 0] where true])
""")
    assert "rules.sr:4:" in str(error.value) and "tiles[6] does not exist" in str(error.value)


def test_a_literal_index_outside_the_range_is_found_before_the_game(tmp_path):
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, """zone tiles[1..5] shared public
each turn:
    announce size(tiles[9])
"""), 2)
    assert "rules.sr:3:25: error: tiles[9] does not exist" in str(error.value)


def test_counters_are_clamped_and_triggers_fire_when_a_condition_becomes_true(tmp_path):
    _, st, events = run(tmp_path, """counter gems per player from 0 to 5
when p.gems >= 3:
    announce p, "reached 3"
each turn:
    subtract 2 from first(players).gems
    add 4 to first(players).gems
    add 4 to first(players).gems
    announce first(players).gems
    end game winners [first(players)]
""")
    assert said(events) == ["seat 1 reached 3", "5"]


def test_together_runs_triggers_once_after_simultaneous_changes(tmp_path):
    _, st, events = run(tmp_path, """counter gems per player from 0
when p.gems >= 2:
    end game winners [each q in players where q.gems >= 2]
each turn:
    together:
        for each p in players:
            add 2 to p.gems
""", players=3)
    assert st.result.winners == [0, 1, 2]


def test_a_choice_of_up_to_two_offers_every_subset_largest_first(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, """zone hand per player hidden
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
each turn:
    ask first(players) to choose up to 2 picked from [first(first(players).hand), last(first(players).hand)]:
        announce picked
    end game
"""), 2))
    st = game.start(0)
    options = [game.label(o) for o in st.pending.options[0]]
    assert options == ["[seat 1 t, seat 1 t]", "[seat 1 t]", "[seat 1 t]", "none of them"]


def test_an_optional_choice_offers_nothing_last_and_a_simultaneous_choice_asks_everyone(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, """zone hand per player hidden
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
each turn:
    ask each p in players secretly to optionally choose c from [first(p.hand)]:
        announce p, c
    end game
"""), 3))
    st = game.start(0)
    assert st.pending.simultaneous and st.pending.seats == [0, 1, 2]
    assert [game.label(o) for o in st.pending.options[1]] == ["seat 2 t", "nothing"]


def test_recursion_and_wrong_kinds_are_reported_before_the_game(tmp_path):
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, """counter gems per player from 0
define loop(p):
    loop(p)
each turn:
    loop(first(players))
    move 3 to box
    add "x" to first(players).gems
"""), 2)
    text = str(error.value)
    assert "rules.sr:3:5: error: procedure 'loop' calls itself" in text
    assert "rules.sr:6:10: error: only components move" in text
    assert "rules.sr:7:9: error: the amount must be a number, not a text" in text


def test_a_runaway_loop_stops_with_an_error(tmp_path):
    """A loop that never ends stops with an error at the loop. Under a budget of 1,000 steps
    rather than the default 5,000,000 (language/limits.py MAX_STEPS), which took 8 s of CPU to
    reach and tells nothing more here: test_vm_budget checks how steps count against the budget.
    The loop's rounds count against the program's own budget, and the message names it."""
    program = compile_ruleset(ruleset(tmp_path, """counter gems shared from 0
each turn:
    while gems >= 0:
        add 1 to gems
"""), 2)
    program.max_steps = 1_000
    with pytest.raises(RuntimeRulesError) as error:
        play(Game(program), [FirstAgent(), FirstAgent()], 1)
    assert "rules.sr:3:5" in str(error.value) and "more than 1000 steps" in str(error.value)


def test_rounds_then_game_end_scoring(tmp_path):
    _, st, events = run(tmp_path, """counter score per player from 0
rounds 3:
    add turn to first(players).score
at game end:
    end game winners [each p in players where p.score == max([q.score for each q in players])]
""", agent=RandomAgent)
    assert st.result.winners == [0]
    assert st.counters[1] == 1 + 2 + 3   # the built-in `turn` counter first, then score


def test_a_choice_between_a_zone_and_a_list_gives_the_zone_content(tmp_path):
    _, _, events = run(tmp_path, """zone tiles[1..2] shared public
setup:
    move [each c in box where c.owner == first(players)] to tiles[1]
each turn:
    announce size(tiles[1] if turn == 1 else [])
    announce size([] if turn == 1 else tiles[1])
    end game
""")
    assert said(events) == ["4", "0"]


def test_a_fraction_is_a_return_never_a_count(tmp_path):
    with pytest.raises(RulesetError) as error:
        run(tmp_path, """counter score per player from 0
each turn:
    add ratio(1, 2) to first(players).score
    end game winners players
""")
    assert "must be a number, not a fraction" in str(error.value)


def test_a_division_by_zero_is_reported_at_its_rule(tmp_path):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, """each turn:
    announce ratio(1, player_count - 2)
    end game winners players
""")
    assert "rules.sr:2:5: error: a division by zero" in str(error.value)


# Expressions whose work is a library helper called from the generated expression (a quotient, a
# remainder, item(), find(), a range of computed ends, a record, a list of computed items): each
# refusal is reported at its rule, with its values. (rules, position and message expected)
RUNTIME_REFUSALS = [
    ("    announce 7 / (player_count - 2)\n", "rules.sr:2:14: error: division by zero"),
    ("    announce 7 % (player_count - 2)\n", "rules.sr:2:14: error: division by zero"),
    ("    announce item([1, player_count], player_count)\n",
     "rules.sr:2:14: error: item(): position 2 is outside a list of 2"),
    ("    announce can_pay(3, [player_count, 1], [k for each k in [1]])\n",
     "rules.sr:2:14: error: can_pay(): 2 holdings and 1 rates"),
    ("    announce can_pay(3, [1], [player_count - 2])\n",
     "rules.sr:2:14: error: can_pay(): a rate is a whole number of 1 or more, not 0"),
    ("    announce size(1..(player_count * 600000))\n",
     "rules.sr:2:19: error: this range has 1200000 items, more than 1000000"),
]


@pytest.mark.parametrize("line, expected", RUNTIME_REFUSALS)
def test_a_library_helper_refuses_at_its_rule(tmp_path, line, expected):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, "each turn:\n" + line + "    end game winners players\n")
    assert expected in str(error.value)


def test_computed_lists_records_and_finds_give_their_values(tmp_path):
    _, _, events = run(tmp_path, """each turn:
    let n = player_count
    announce [n, n + 1, n * 3], 7 / n, 7 % n, item([n, 5, 6], n - 1)
    announce {a: n, b: [n]}.b, find([{k: 1, v: "x"}, {k: n, v: "y"}], "k", n).v
    announce size(n..(n + 3)), first(players).name, can_pay(n + 1, [1, n], [1, 2]), can_pay(n + 4, [1, n], [1, 2])
    end game winners players
""")
    assert said(events) == ["2, 3, 6 3 1 5", "2 y", "4 seat 1 true false"]


def test_rules_that_run_out_without_an_end_are_refused_at_their_turns(tmp_path):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, "rounds 2:\n    announce turn\n")
    assert "rules.sr:1:1: error: the rules finished without `end game`" in str(error.value)
    assert "end the `at game end:` section with `end game winners ...`" in str(error.value)


def test_a_while_loop_runs_until_its_condition_fails_each_round_a_step(tmp_path):
    def steps_with(rounds: int) -> tuple[list[str], int]:
        _, st, events = run(tmp_path, f"""counter gems shared from 0
each turn:
    while gems < {rounds}:
        add 1 to gems
    announce gems
    end game winners players
""")
        return said(events), st.steps
    (three, steps3), (five, steps5) = steps_with(3), steps_with(5)
    assert (three, five) == (["3"], ["5"])
    assert steps5 - steps3 == 2  # a step a round


# A list whose expression names a value in place (`:=` in the generated code: a define's
# argument, a zone index checked once) may stand anywhere a list does. Python refuses `:=`
# anywhere in a comprehension's iterable, so each place a list is gone through must keep it out
# of one: each context below must give the same as with the same list written out.
# (the list's expression, the same list written out)
NAMED_IN_PLACE = [("f(size(pile[1]) + 1)", "[1, 2, 2]"), ("[p.gems + 1 for each p in players]", "[2, 2]"),
                  ("g(first(players))", "[1, 3]")]
ZONES_NAMED_IN_PLACE = [("[pile[p.gems + 1] for each p in players]", "[pile[2], pile[2]]"),
                        ("[pile[h(p)] for each p in players]", "[pile[2], pile[2]]")]
LIST_CONTEXTS = ["sum({E})", "size({E})", "empty({E})", "first({E})", "max({E})", "sorted({E})", "unique({E})",
                 "[x + 1 for each x in {E}]", "[each x in {E} where x > 0]", "3 in {E}",
                 "size([each x in {E} where x in {E}])", "empty([each x in {E} where x > 5])",
                 "first([each x in {E} where x > 0])", "sum([x for each x in sorted({E})])"]
ZONE_LIST_CONTEXTS = ["empty(flatten({E}))", "size(flatten({E}))", "[size(z) for each z in {E}]",
                      "empty([each z in {E} where not empty(z)])", "sum([size(z) for each z in {E}])"]


@pytest.mark.parametrize("context, named, written", [(c, *pair) for c in LIST_CONTEXTS for pair in NAMED_IN_PLACE]
                         + [(c, *pair) for c in ZONE_LIST_CONTEXTS for pair in ZONES_NAMED_IN_PLACE])
def test_a_list_naming_a_value_in_place_goes_anywhere_a_list_goes(tmp_path, context, named, written):
    _, _, events = run(tmp_path, f"""zone pile[1..3] shared public
counter gems per player from 1
define f(n) = [n, n + 1, n * 2]
define h(p) = p.gems + 1
define g(p) = [p.gems, p.gems + 2]
each turn:
    announce {context.replace("{E}", named)}
    announce {context.replace("{E}", written)}
    end game winners players
""")
    first, second = said(events)
    assert first == second
