"""Costs (issue 12): `pay`, `pay at least`, `pay up to ... as x`, shortfalls and `can_pay`.

Expected values are worked out by hand from snow_planner.txt ("Free Action: Reducing the Cost of
Action Spaces": a ticket +1, a snow +2, "the reduction cannot exceed"; Examples 1 and 2; the VIP
area example; the fiscal year end), never copied from the code's output. The rulebook examples
themselves are scenarios of the toy ruleset tests/rulesets/costs.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import answered_from_outside, said_answering, three_copies
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.playthrough import playthrough
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.language.parser import parse_effect
from snowrules.load.ruleset import load_ruleset
from snowrules.model.costs import MAX_WAYS, Mode, TooManyWays, can_pay, ways_to_pay
from snowrules.model.events import Chosen, CounterChanged
from snowrules.model.rng import index_drawer
from snowrules.play.agents import FirstAgent, RandomAgent, answering_at_random, play
from snowrules.records.scenarios import run_scenario, scenario_files
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said

TOY = Path(__file__).resolve().parent / "rulesets" / "costs"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"
RESOURCES = """counter res[ticket, snow, croissant] per player from 0
counter vp per player from 0
"""


def ways(amount, holdings, rates, mode=Mode.EXACT):
    return [w.paid for w in ways_to_pay(amount, holdings, rates, mode)]


# ---- the ways to pay (model/costs.py) ----------------------------------------------------------
def test_exact_ways_never_overpay_and_list_the_first_counter_first():
    # 4 with tickets at 1 and snow at 2, holding 3 tickets and 2 snow: 2 ticket + 1 snow, 2 snow
    # (4 tickets are not held; 3 ticket + 1 snow = 5 overpays)
    assert ways(4, (3, 2), (1, 2)) == [(2, 1), (0, 2)]
    # [Free Action: Reducing the Cost] a cost of 1 with only snow cannot be paid: a snow is worth 2
    assert ways(1, (0, 5), (1, 2)) == []
    assert ways(0, (0, 0), (1, 2)) == [(0, 0)]           # nothing to pay: one way, nothing


def test_at_least_gives_nothing_to_spare():
    # at least 3: 3 tickets; 1 ticket + 1 snow (3); 2 snow (4: one back leaves 2). Never 2 ticket +
    # 1 snow (4: a ticket back still leaves 3) nor 3 ticket + 1 snow.
    assert ways(3, (9, 9), (1, 2), Mode.AT_LEAST) == [(3, 0), (1, 1), (0, 2)]
    assert ways(3, (0, 1), (1, 2), Mode.AT_LEAST) == []  # 2 is all there is


def test_up_to_offers_each_worth_from_the_cap_down_exactly():
    # the VIP example's holdings (0 tickets, 2 snow), cap 5: worth 4, 2, 0 (odd worths need a ticket)
    assert [(w.paid, w.worth) for w in ways_to_pay(5, (0, 2), (1, 2), Mode.UP_TO)] == \
        [((0, 2), 4), ((0, 1), 2), ((0, 0), 0)]
    # a cap of 6 (a die's highest value) with plenty of both: t + 2s <= 6 is 7 + 5 + 3 + 1 = 16 ways,
    # where 0..6 tickets times 0..6 snow would be 49
    assert len(ways(6, (9, 9), (1, 2), Mode.UP_TO)) == 16


def test_a_way_keeps_its_id_whatever_else_is_held():
    # mixed radix, a ticket digit of 0..(2 // 1 + 1): 2 ticket is 2, 1 snow is 1 * 4 = 4
    rich = {w.paid: w.stable_id(2, (1, 2)) for w in ways_to_pay(2, (5, 5), (1, 2), Mode.EXACT)}
    poor = {w.paid: w.stable_id(2, (1, 2)) for w in ways_to_pay(2, (0, 1), (1, 2), Mode.EXACT)}
    assert rich == {(2, 0): 2, (0, 1): 4}
    assert poor == {(0, 1): 4}


def test_can_pay_is_exact():
    assert can_pay(3, (1, 1), (1, 2))        # 1 ticket + 1 snow
    assert not can_pay(3, (0, 2), (1, 2))    # 2 or 4, never 3
    assert can_pay(0, (0, 0), (1, 2))
    assert not can_pay(-1, (5,), (1,))
    assert can_pay(1000, (1000,), (1,)) and not can_pay(1001, (1000,), (1,))


def test_too_many_ways_is_refused_rather_than_listed():
    with pytest.raises(TooManyWays):
        ways_to_pay(200, (200, 200, 200), (1, 1, 1), Mode.EXACT)   # 20,301 ways
    assert len(ways_to_pay(100, (100, 100), (1, 1), Mode.EXACT)) == 101 <= MAX_WAYS
    with pytest.raises(TooManyWays):  # even rates never make an odd amount: stopped, not searched for long
        ways_to_pay(1001, (999, 999, 999), (2, 2, 2), Mode.EXACT)


# ---- the rulebook's examples: the toy ruleset's scenarios ---------------------------------------
SCENARIOS = scenario_files(load_ruleset(str(TOY)))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_toy_ruleset_scenario(path):
    result = run_scenario(path, str(TOY))
    assert result.passed, "\n".join(result.failures)


def test_the_toy_ruleset_has_each_example():
    assert {p.stem for p in SCENARIOS} >= {"example_1", "example_2", "vip_area", "fiscal_year_end_shortfall",
                                           "fiscal_year_end_never_below_zero", "reduction_options"}


def test_the_toy_ruleset_plays_the_same_through_and_stopped():
    game = Game(load_program_of(TOY, 2))
    assert playthrough(game.program) is not None  # every payment step has its template
    for seed in range(40):
        walked = answered_from_outside(game, seed, at_random(seed))
        through = game.play_through(seed, at_random(seed))
        assert walked.counters == through.counters, seed


def at_random(seed: int, seats: int = 2):
    """Random answers, each seat drawing from its own generator (a fresh one per call)."""
    return answering_at_random([index_drawer(random.Random(seed * 10 + seat).random) for seat in range(seats)])


def load_program_of(folder: Path, players: int):
    return compile_ruleset(load_ruleset(str(folder)), players)


# ---- in a game: events, triggers, decisions ----------------------------------------------------
def changes(tmp_path, rules: str, agent=FirstAgent):
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    seen = []
    st = play(game, [agent() for _ in range(2)], 1,
              listen=lambda e: seen.append(e) if isinstance(e, (CounterChanged, Chosen)) else None)
    return game, st, seen


def test_each_counter_changes_once_per_payment(tmp_path):
    # 3 tickets, 2 snow; pay 4: the first way is 2 ticket + 1 snow. One event per counter: -2, -1.
    game, st, seen = changes(tmp_path, RESOURCES + """setup:
    add 3 to first(players).res["ticket"]
    add 2 to first(players).res["snow"]
each turn:
    let p = first(players)
    pay 4 using p.res["ticket"] at 1, p.res["snow"] at 2
    end game
""")
    paid = [(game.layout.counter_labels[e.counter], e.by) for e in seen
            if isinstance(e, CounterChanged) and e.rule.endswith(":8:5")]
    assert paid == [("seat 1.res[ticket]", -2), ("seat 1.res[snow]", -1)]
    chosen = [e.label for e in seen if isinstance(e, Chosen)]
    assert chosen == ["2 ticket + 1 snow"]


def test_one_way_to_pay_asks_nobody(tmp_path):
    # 1 ticket, 2 snow: 4 is only 2 snow (2 ticket + 1 snow needs 2 tickets)
    game, st, seen = changes(tmp_path, RESOURCES + """setup:
    add 1 to first(players).res["ticket"]
    add 2 to first(players).res["snow"]
each turn:
    let p = first(players)
    pay 4 using p.res["ticket"] at 1, p.res["snow"] at 2
    end game
""")
    assert not [e for e in seen if isinstance(e, Chosen)]
    labels = game.layout.counter_labels
    assert [st.counters[labels.index(f"seat 1.res[{k}]")] for k in ("ticket", "snow")] == [1, 0]


def test_a_shortfall_changes_each_counter_once_and_clamps(tmp_path):
    # 1 croissant, 3 VP; pay 2 else 2 per missing: croissant -1 once, VP 3 - 2 = 1 once
    game, st, seen = changes(tmp_path, RESOURCES + """setup:
    add 1 to first(players).res["croissant"]
    add 3 to first(players).vp
each turn:
    let p = first(players)
    pay 2 from p.res["croissant"] else subtract 2 per missing from p.vp as back
    pay 2 from p.res["croissant"] else subtract 2 per missing from p.vp as again
    announce back, again, p.vp
    end game
""")
    paid = [(game.layout.counter_labels[e.counter], e.by) for e in seen if isinstance(e, CounterChanged)
            and e.rule.split(":")[-2] in ("8", "9")]
    # the second: nothing held, 2 missing cost 4 VP, of which 1 is there (from 0): -1
    assert paid == [("seat 1.res[croissant]", -1), ("seat 1.vp", -2), ("seat 1.vp", -1)]


def test_a_payment_runs_the_triggers_on_its_counters_including_one_that_asks(tmp_path):
    # the trigger asks (a choice of 2 numbers), so the payment is a step: it runs after the payment,
    # once; `when` sees the new value
    rules = RESOURCES + """counter noticed per player from 0
when p.res["snow"] < 3:
    ask p to choose n from [5, 6]:
        add n to p.noticed
setup:
    add 3 to first(players).res["snow"]
    add 1 to first(players).res["ticket"]
each turn:
    let p = first(players)
    pay 3 using p.res["ticket"] at 1, p.res["snow"] at 2
    announce p.noticed, p.res["snow"], p.res["ticket"]
    end game
"""
    _, _, events = run(tmp_path, rules)
    assert said(events) == ["5 2 0"]  # 1 ticket + 1 snow (the only way), then the trigger's 5
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    through = game.play_through(1, at_random(1))
    walked = answered_from_outside(game, 1, at_random(1))
    assert through.counters == walked.counters


def test_clone_and_json_round_trip_at_a_payment_decision(tmp_path):
    rules = RESOURCES + """setup:
    add 3 to first(players).res["ticket"]
    add 2 to first(players).res["snow"]
each turn:
    let p = first(players)
    pay up to 4 using p.res["ticket"] at 1, p.res["snow"] at 2 as cut
    announce cut, p.res["ticket"], p.res["snow"]
    end game
"""
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    st = game.start(1)
    # worth 4: 2 ticket + 1 snow, 2 snow; 3: 3 ticket, 1 ticket + 1 snow; 2: 2 ticket, 1 snow; 1; 0
    assert game.option_labels(st, st.pending.options[0]) == [
        "2 ticket + 1 snow = 4", "2 snow = 4", "3 ticket = 3", "1 ticket + 1 snow = 3", "2 ticket = 2",
        "1 snow = 2", "1 ticket = 1", "nothing = 0"]
    assert st.pending.seats == [0]
    # 1 ticket + 1 snow
    assert [said_answering(game, copy, [3]) for copy in three_copies(st)] == [["3 2 1"]] * 3


def test_paying_at_least_tells_the_worth_of_an_overpayment(tmp_path):
    # at least 3 holding 1 ticket and 2 snow: 1 ticket + 1 snow (3), or 2 snow (4: shown as "= 4")
    game = Game(compile_ruleset(ruleset(tmp_path, RESOURCES + """setup:
    add 1 to first(players).res["ticket"]
    add 2 to first(players).res["snow"]
each turn:
    let p = first(players)
    pay at least 3 using p.res["ticket"] at 1, p.res["snow"] at 2 as given
    announce given
    end game
"""), 2))
    st = game.start(1)
    assert game.option_labels(st, st.pending.options[0]) == ["1 ticket + 1 snow", "2 snow = 4"]
    events = []
    st.sink = game.listener(events.append)
    game.answer(st, [1])
    assert [e["text"] for e in events if e["e"] == "say"] == ["4"]


def test_a_payment_between_counters_of_two_players_with_a_choice_is_an_error(tmp_path):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, RESOURCES + """setup:
    for each p in players:
        add 2 to p.res["ticket"]
each turn:
    pay 2 using first(players).res["ticket"] at 1, last(players).res["ticket"] at 1
    end game
""")
    assert "rules.sr:7:5: error: a payment with a choice needs counters of one player, who chooses: " \
           "these belong to 2 players" in str(error.value)


# ---- bad input: rules that cannot compile (path:line:col, message) ------------------------------
BAD_RULES = [
    ("pay 3 from p.hand", 1, 12, "what pays must be a counter, such as score or p.score"),
    ('pay 3 using p.res["ticket"] at -1', 1, 32,
     "a rate is what one unit is worth: a whole number of 1 or more, not -1"),
    ('pay 3 using p.res["ticket"] at 0', 1, 32, "a rate is what one unit is worth: a whole number of 1 or more, not 0"),
    ('pay 3 from p.res["gold"]', 1, 18, "counter 'res' has no key 'gold'"),
    ("pay 1 from p.scroe", 1, 12, "unknown counter 'scroe'"),
    ('pay "3" from p.vp', 1, 5, "the amount to pay must be a number, not a text"),
    ('pay 2 using p.vp at "x"', 1, 21, "a rate must be a number, not a text"),
    ('pay up to 2 using p.res["ticket"] at 1', 1, 1, "a reduction needs a name for the amount the payer buys"),
    ('pay 2 using p.res["ticket"] at 1 else subtract 1 per missing from p.vp', 1, 34,
     "a shortfall is paid from one counter"),
    ('pay 2 from p.vp else subtract "x" per missing from p.vp', 1, 31, "the penalty per missing unit must be a number"),
    ("pay 2 from p.vp else subtract 1 per missing from p.hand", 1, 50,
     "what the penalty is taken from must be a counter"),
    ("pay 2 from p.vp else subtract 1 per lost from p.vp", 1, 37, "unexpected 'lost'"),
    ("pay at most 2 from p.vp", 1, 8, "unexpected 'most'"),
    ('can_pay(1, [p.vp, p.vp], [1]) == true', 1, 26, "can_pay() has 2 holdings and 1 rates"),
    ('together:\n        pay 1 using p.res["ticket"] at 1, p.res["snow"] at 2', 1, 1,
     "a `together` block cannot wait for a decision"),
    ("let using = 1", 1, 5, "'using' is a keyword and cannot be a name"),
]


@pytest.mark.parametrize("statement, line, col, message", BAD_RULES, ids=[row[3][:40] for row in BAD_RULES])
def test_a_wrong_payment_is_reported_at_its_place(tmp_path, statement, line, col, message):
    if statement.startswith("can_pay"):
        statement = f"if {statement}:\n        pass"
        col += 3
    rules = RESOURCES + "zone hand per player public\neach turn:\n    let p = first(players)\n    " + statement + "\n"
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, rules), 2)
    # the statement is on line 6 of the file, indented by 4
    assert f"rules.sr:{line + 5}:{col + 4}: error: {message}" in str(error.value)


# ---- bad input while a game runs (the rules' values decide) --------------------------------------
BAD_RUNS = [
    ('pay 3 from p.res["croissant"]', "cannot pay 3 using seat 1.res[croissant] (holds 0) at 1: a payment is "
     "all or nothing (offer it only when it can be paid: `where can_pay(...)`)"),
    ('pay at least 5 using p.res["ticket"] at 1, p.res["snow"] at 2', "cannot pay at least 5 using "
     "seat 1.res[ticket] (holds 2) at 1, seat 1.res[snow] (holds 1) at 2"),
    ('pay 0 - 1 from p.res["ticket"]', "cannot pay a negative amount (-1)"),
    ('pay 1 using p.res["ticket"] at 1, p.res["ticket"] at 2', "a payment names the same counter twice"),
]


@pytest.mark.parametrize("statement, message", BAD_RUNS, ids=[row[1][:40] for row in BAD_RUNS])
def test_a_payment_that_cannot_be_made_stops_at_its_place(tmp_path, statement, message):
    rules = RESOURCES + """setup:
    add 2 to first(players).res["ticket"]
    add 1 to first(players).res["snow"]
each turn:
    let p = first(players)
    """ + statement + "\n    end game\n"
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, rules)
    assert f"rules.sr:8:5: error: {message}" in str(error.value)


def test_a_rate_below_one_worked_out_in_play_is_an_error_at_the_rate(tmp_path):
    with pytest.raises(RuntimeRulesError) as error:
        run(tmp_path, RESOURCES + """each turn:
    let p = first(players)
    let r = 1 - size(players)
    pay 0 using p.res["ticket"] at r
    end game
""")
    assert "rules.sr:6:36: error: a rate is what one unit is worth: a whole number of 1 or more, not -1" \
        in str(error.value)


# ---- the documentation ----------------------------------------------------------------------------
def test_the_costs_section_examples_parse():
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Costs"):text.index("## Expressions")]
    block = section.split("```snowrules\n", 1)[1].split("```", 1)[0]
    statements = parse_effect(block, "docs/language.md", 1, 1)
    assert len(statements.statements) == 4


def test_random_games_of_the_toy_ruleset_keep_resources_within_bounds():
    game = Game(load_program_of(TOY, 2))
    for seed in range(30):
        st = play(game, [RandomAgent(seed), RandomAgent(seed + 1)], seed)
        assert st.result is not None
        assert min(st.counters) >= 0
