"""Issue 12's four constructs working together: events and reactions, costs, free actions,
counters on components and the automa (docs/language.md, "The constructs together").

Each ruleset here is a few lines written for the test; every expected value is worked out by hand
in the comments from the rules' text, never copied from the interpreter's output.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import answered_from_outside, said_answering, three_copies
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.runtime.engine import Game
from test_language import TOKENS, ruleset, run, said

RESOURCES = """counter res[ticket, snow, croissant] per player from 0
counter vp per player from 0
event spent(p, k, n) from counter res
"""


# ---- 1. a payment raises its counters' events -----------------------------------------------
def test_a_payment_raises_each_paid_counters_event_once_and_reacts_after_it(tmp_path):
    _, _, told = run(tmp_path, RESOURCES + """
on spent(p, k, n) where n < 0:
    announce "returned", -n, k, "now", p.res["ticket"], p.res["snow"]
each turn:
    let p = first(players)
    add 3 to p.res["ticket"]
    add 2 to p.res["snow"]
    pay 3 using p.res["ticket"] at 1, p.res["snow"] at 2
    announce "paid"
    end game winners players
""")
    # 3 tickets and 2 snow pay 3 as "3 ticket" or "1 ticket + 1 snow"; FirstAgent takes the
    # first, most of the first counter: 3 tickets. One event (-3), after the payment (0 and 2
    # left), before the next statement.
    assert said(told) == ["returned 3 ticket now 0 2", "paid"]


def test_a_mixed_payment_raises_one_event_per_counter_in_the_listed_order(tmp_path):
    _, _, told = run(tmp_path, RESOURCES + """
on spent(p, k, n) where n < 0:
    announce "returned", -n, k
each turn:
    let p = first(players)
    add 1 to p.res["ticket"]
    add 1 to p.res["snow"]
    pay 3 using p.res["ticket"] at 1, p.res["snow"] at 2
    end game winners players
""")
    # one way: 1 ticket + 1 snow, paid at once; the ticket counter is listed first
    assert said(told) == ["returned 1 ticket", "returned 1 snow"]


def test_each_time_a_resource_returns_hears_a_payment_with_it(tmp_path):
    # [Talent Cards] "each time you return snow to the stock": a reaction on the snow paid
    _, _, told = run(tmp_path, RESOURCES + """
on spent(p, k, n) where k == "snow" and n < 0:
    add 1 to p.vp
each turn:
    let p = first(players)
    add 4 to p.res["snow"]
    pay 4 using p.res["ticket"] at 1, p.res["snow"] at 2
    pay 2 from p.res["snow"]
    announce p.vp, p.res["snow"]
    end game winners players
""")
    # 4 = 2 snow (no ticket held): one return; then 2 snow: a second. 2 VP, no snow left.
    assert said(told) == ["2 0"]


def test_a_payment_inside_together_reacts_once_the_block_is_done(tmp_path):
    _, _, told = run(tmp_path, RESOURCES + """
on spent(p, k, n) where n < 0:
    announce "returned", -n, k, "vp", p.vp
each turn:
    let p = first(players)
    add 2 to p.res["snow"]
    together:
        pay 1 from p.res["snow"]
        add 4 to p.vp
    end game winners players
""")
    # [Events and reactions] inside `together:` the reactions wait for the block's end: the VP
    # are there already
    assert said(told) == ["returned 1 snow vp 4"]


def test_a_shortfall_raises_the_paid_counter_and_the_penalty_counter(tmp_path):
    _, _, told = run(tmp_path, """counter res[croissant] per player from 0
counter vp per player from 0
event spent(p, k, n) from counter res
event scored(p, n) from counter vp
on spent(p, k, n):
    announce "res", n
on scored(p, n):
    announce "vp", n, "now", p.vp
each turn:
    let p = first(players)
    add 1 to p.res["croissant"]
    add 3 to p.vp
    pay 2 from p.res["croissant"] else subtract 2 per missing from p.vp as returned
    announce "returned", returned
    end game winners players
""")
    # +1 croissant, +3 VP (events of their own); then 1 croissant paid (-1) and 1 missing:
    # -2 VP (3 to 1); both after the payment, paid counter first; `returned` is what was paid
    assert said(told) == ["res 1", "vp 3 now 3", "res -1", "vp -2 now 1", "returned 1"]


def test_a_shortfall_below_zero_raises_the_change_it_made(tmp_path):
    _, _, told = run(tmp_path, """counter res[croissant] per player from 0
counter vp per player from 0
event scored(p, n) from counter vp
on scored(p, n):
    announce "vp", n
each turn:
    let p = first(players)
    add 1 to p.vp
    pay 2 from p.res["croissant"] else subtract 2 per missing from p.vp
    pay 2 from p.res["croissant"] else subtract 2 per missing from p.vp
    end game winners players
""")
    # +1; then 2 missing: -4 from 1 stops at 0, a change of -1; then 0 stays 0: no change, no event
    assert said(told) == ["vp 1", "vp -1"]


def test_a_payment_that_asks_raises_after_the_answer_and_survives_clone_and_json(tmp_path):
    game, _, _ = run(tmp_path, RESOURCES + """
on spent(p, k, n) where n < 0:
    add 10 to p.vp
each turn:
    let p = first(players)
    add 3 to p.res["ticket"]
    add 2 to p.res["snow"]
    pay 3 using p.res["ticket"] at 1, p.res["snow"] at 2
    announce p.vp
    end game winners players
""")
    st = game.start(1)
    assert [o["name"] for o in st.pending.options[0]] == ["3 ticket", "1 ticket + 1 snow"]
    # 1 ticket + 1 snow: two counters paid, two events, 10 VP each
    assert [said_answering(game, copy, [1]) for copy in three_copies(st)] == [["20"]] * 3


# ---- 2. events from a counter on components ---------------------------------------------------
DICE = """counter value per component from 1 to 6
counter score per player from 0
zone hand per player public
event turned(c, n) from counter value
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
"""


def test_an_event_from_a_counter_on_components_names_the_component_and_the_change(tmp_path):
    _, _, told = run(tmp_path, DICE + """
on turned(c, n):
    add n to c.owner.score
    announce "turned", n, "now", c.value, "score", c.owner.score
when d.value == 6:
    announce "six", d.owner.score
each turn:
    let d = first(first(players).hand)
    add 3 to d.value
    add 5 to d.value
    set d.value to 6
    add 1 to last(last(players).hand).value
    end game winners players
""")
    # 1 -> 4: turned by 3; 4 -> 9 stops at 6: the `when` rule first (the reaction has not added
    # the 2 yet: score 3), then turned by 2 (score 5); set to 6 changes nothing: no event; the
    # other player's die 1 -> 2 scores for its owner alone
    assert said(told) == ["turned 3 now 4 score 3", "six 3", "turned 2 now 6 score 5", "turned 1 now 2 score 1"]


def test_a_decision_inside_a_components_counter_reaction_survives_clone_and_json(tmp_path):
    game, _, _ = run(tmp_path, DICE + """
on turned(c, n) where c.value == 6:
    ask c.owner to choose bonus from [1, 2]:
        add bonus to c.owner.score
each turn:
    let d = first(first(players).hand)
    add 9 to d.value
    announce d.owner.score
    end game winners players
""")
    st = game.start(1)
    assert st.pending.options == [[1, 2]]
    # a bonus of 2
    assert [said_answering(game, copy, [1]) for copy in three_copies(st)] == [["2"]] * 3


@pytest.mark.parametrize("declaration, message", [
    ("event turned(n) from counter value", "an event from counter 'value' has 2 parameters "
     "(the component whose counter it is, the change), not 1"),
    ("event turned(p, c, n) from counter value", "an event from counter 'value' has 2 parameters "
     "(the component whose counter it is, the change), not 3"),
])
def test_an_event_from_a_counter_on_components_with_other_parameters_is_refused(tmp_path, declaration, message):
    with pytest.raises(RulesetError) as error:
        run(tmp_path, DICE.replace("event turned(c, n) from counter value", declaration) + """
each turn:
    end game winners players
""")
    assert f"rules.sr:4:1: error: {message}" in str(error.value)


# ---- 3. free actions with payments, reactions and the automa -----------------------------------
FREE = RESOURCES + """counter windows per player from 0
event gained(p, k, n) from counter res
on spent(p, k, n) where n < 0:
    announce "returned", -n, k
"""


def labels(st) -> list:
    return [o if not isinstance(o, dict) else o.get("name", o) for o in st.pending.options[0]]


def said_after(game, st, answers: list[int]) -> list[str]:
    log: list = []
    st.sink = game.listener(log.append)
    for index in answers:
        game.answer(st, [index])
    return [e["text"] for e in log if e["e"] == "say"]


def test_a_free_action_that_pays_raises_its_reactions_inside_it(tmp_path):
    game, _, _ = run(tmp_path, FREE + """
# [Free Action: gain a Window Tile] provenance: assumed - paid with tickets at 1 and snow at 2
free action "window" for p when can_pay(3, [p.res["ticket"], p.res["snow"]], [1, 2]):
    pay 3 using p.res["ticket"] at 1, p.res["snow"] at 2
    add 1 to p.windows
    announce "window"
each turn:
    let p = first(players)
    add 1 to p.res["ticket"]
    add 3 to p.res["snow"]
    ask p to choose x from [1, 2]:
        announce "chose", x, "windows", p.windows, "left", p.res["ticket"], p.res["snow"]
    end game winners players
""")
    st = game.start(1)
    assert st.pending.options[0] == [1, 2, {"free action": 0}]
    # 1 ticket + 1 snow is the only way to pay 3 (3 snow make 6, 2 snow 4): paid at once; its two
    # events react before the next statement of the free action; then the decision again, without
    # the free action (0 tickets, 2 snow cannot pay 3)
    told = said_after(game, st, [2])
    assert told == ["returned 1 ticket", "returned 1 snow", "window"]
    assert st.pending.options[0] == [1, 2]
    assert said_after(game, st, [0]) == ["chose 1 windows 1 left 0 2"]


def test_a_reaction_that_asks_offers_the_free_actions_allowed_there_but_not_inside_a_free_action(tmp_path):
    game, _, _ = run(tmp_path, FREE + """
on gained(p, k, n) where n > 0:
    ask p to choose bonus from [1, 2]:
        add bonus to p.vp
        announce "bonus", bonus, "vp", p.vp
free action "sell" for p when p.res["snow"] >= 1:
    subtract 1 from p.res["snow"]
    add 5 to p.vp
free action "buy" for p when p.vp >= 5:
    subtract 5 from p.vp
    add 1 to p.res["ticket"]
each turn:
    let p = first(players)
    add 2 to p.res["snow"]
    announce "end", p.vp, p.res["ticket"], p.res["snow"]
    end game winners players
""")
    st = game.start(1)
    # the gain of 2 snow reacts: its decision is one player's, reached where "sell" is allowed
    assert st.pending.options[0] == [1, 2, {"free action": 0}]
    # sell (snow 1, 5 VP): asked again, now "buy" too; buy (VP 0, +1 ticket): a gain, whose
    # reaction asks inside the free action: no free action offered there
    assert said_after(game, st, [2, 3]) == ["returned 1 snow"]
    assert st.pending.options[0] == [1, 2]
    # bonus 2 inside "buy" (VP 2); then the first decision again: sell once more (snow 0, VP 7), then
    # bonus 1 (VP 8); the turn ends with 8 VP, 1 ticket, no snow
    assert said_after(game, st, [1]) == ["bonus 2 vp 2"]
    assert st.pending.options[0] == [1, 2, {"free action": 0}]
    assert said_after(game, st, [2, 0]) == ["returned 1 snow", "bonus 1 vp 8", "end 8 1 0"]


AUTOMA_MANIFEST = """name: probe
title: Probe
version: "1"
players: {min: 1, max: 2}
seat_names: [Ann, Bob]
automa: {name: Automa}
rules: [rules.sr]
components: [components/tokens.yaml]
language: 2
"""


def with_automa(tmp_path, rules: str, players: int = 1):
    (tmp_path / "components").mkdir(exist_ok=True)
    (tmp_path / "ruleset.yaml").write_text(AUTOMA_MANIFEST)
    (tmp_path / "components" / "tokens.yaml").write_text(TOKENS)
    (tmp_path / "rules.sr").write_text(rules)
    return Game(compile_ruleset(load_ruleset(str(tmp_path)), players))


AUTOMA_FREE = RESOURCES + """free action "sell" for p when p.res["snow"] >= 1:
    subtract 1 from p.res["snow"]
    add 2 to p.vp
setup:
    for each p in seats:
        add 1 to p.res["snow"]
"""


def test_the_automa_is_never_offered_free_actions_and_an_offer_to_it_is_skipped(tmp_path):
    game = with_automa(tmp_path, AUTOMA_FREE + """
each turn:
    for each p in seats:
        offer free actions to p
        announce p, p.vp
    end game winners players
""")
    st = game.start(1)
    # Ann (seat 0) is offered "done" and "sell"; she sells (2 VP, no snow left: the offer is not
    # made again); then the automa's offer is skipped: it holds snow, but no agent plays it
    assert st.pending.seats == [0] and st.pending.options[0] == [{"free action": -1}, {"free action": 0}]
    assert said_after(game, st, [1]) == ["Ann 2", "Automa 0"]
    assert st.pending is None and st.result is not None


def test_offering_free_actions_to_the_automa_by_name_is_refused(tmp_path):
    with pytest.raises(RulesetError) as error:
        with_automa(tmp_path, AUTOMA_FREE + """
each turn:
    offer free actions to automa
    end game winners players
""")
    assert "rules.sr:12:5: error: free actions are not offered to the automa (Automa): no agent plays it" \
        in str(error.value)


def test_an_automas_payment_with_several_ways_takes_the_first_without_asking(tmp_path):
    game = with_automa(tmp_path, RESOURCES + """
each turn:
    add 3 to automa.res["ticket"]
    add 2 to automa.res["snow"]
    pay 3 using automa.res["ticket"] at 1, automa.res["snow"] at 2
    announce automa.res["ticket"], automa.res["snow"]
    end game winners players
""")
    st = game.start(1)
    # 3 ticket or 1 ticket + 1 snow: the automa is never asked; it pays the first way, in the
    # options' order (most of the first counter listed): 3 tickets
    assert st.pending is None and st.result is not None
    log: list = []
    game.start(1, sink=log.append)
    assert [e["text"] for e in log if e["e"] == "say"] == ["0 2"]


# ---- 5. OpenSpiel ids of the ways to pay ----------------------------------------------------------
def test_openspiel_gives_a_way_to_pay_the_same_id_whatever_else_the_payer_holds(tmp_path):
    pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    run(tmp_path, RESOURCES + """
each turn:
    let p = first(players)
    add 2 to p.res["ticket"]
    add 1 to p.res["snow"]
    pay 2 using p.res["ticket"] at 1, p.res["snow"] at 2
    pay 2 using p.res["ticket"] at 1, p.res["snow"] at 2
    end game winners players
""")
    game = load_game(str(tmp_path), players=2)
    # ids are mixed radix over the counters, a ticket digit 0..(2 // 1 + 1): "2 ticket" is 2,
    # "1 snow" is 1 * 4 = 4, at every node (by position, "1 snow" would be 1 here, 0 below)
    for first, then in ((2, "1 snow"), (4, "2 ticket")):
        state = game.new_initial_state()
        assert state.legal_actions() == [2, 4]
        assert [state.action_to_string(0, a) for a in (2, 4)] == ["2 ticket", "1 snow"]
        state.apply_action(first)
        # the second payment has one way left, asked in an OpenSpiel game, with its own id
        other = 4 if first == 2 else 2
        assert state.legal_actions() == [other]
        assert state.action_to_string(0, other) == then
        state.apply_action(other)
        assert state.is_terminal()


# ---- 4. played through (compile/playthrough.py): the same game as stopped at every decision -----
TOYS = Path(__file__).resolve().parent / "rulesets"


def recording(seed: int, seen: list):
    """A decide that answers at random (its own generator) and notes every decision it is asked."""
    draw = random.Random(seed).random

    def decide(st):
        pending = st.pending
        seen.append((pending.seats, pending.rule, [list(o) for o in pending.options]))
        if pending.simultaneous:
            return [options[int(draw() * len(options))] for options in pending.options]
        options = pending.options[0]
        return options[int(draw() * len(options))]
    return decide


def final(st) -> tuple:
    return st.result, st.counters, st.zones, st.where, st.vars, st.rng


@pytest.mark.parametrize("name, players", [("reactions", 2), ("free_actions", 2), ("costs", 2),
                                           ("dice_workers", 1)])
def test_the_toy_games_played_through_ask_what_they_ask_stopped(name, players):
    game = Game(compile_ruleset(load_ruleset(str(TOYS / name)), players))
    for seed in range(15):
        stopped, through = [], []
        stopped_state = answered_from_outside(game, seed, recording(seed, stopped))
        through_state = game.play_through(seed, recording(seed, through))
        assert through == stopped and final(through_state) == final(stopped_state), seed
    assert game._playthroughs[frozenset(), "plain"], "the plain build of the program"


BOTH = FREE + """
on gained(p, k, n) where n > 0:
    ask p to choose bonus from [1, 2]:
        add bonus to p.vp
on spent(p, k, n) where n < 0 and p.vp > 0:
    subtract 1 from p.vp
free action "sell" for p when p.res["snow"] >= 1:
    pay 1 from p.res["snow"]
    add 3 to p.vp
free action "buy" for p, k in ["ticket", "snow"] when p.vp >= 3:
    subtract 3 from p.vp
    add 1 to p.res[k]
    ask p to choose x from [1, 2]:
        add x to p.windows
rounds 3:
    for each p in players:
        add 2 to p.res["snow"]
        pay 2 from p.res["snow"] else subtract 1 per missing from p.vp
        pay up to 2 using p.res["ticket"] at 1, p.res["snow"] at 2 as cut
        offer free actions to p
        ask p to choose y from [1, 2, 3]:
            add y to p.windows
at game end:
    end game winners [each p in players where p.vp == max([q.vp for each q in players])]
"""


def test_reactions_payments_and_free_actions_together_ask_the_same_played_through(tmp_path):
    rules = BOTH
    # the `ask` inside "buy": its line and column, as decisions name their rule
    before = (RESOURCES + FREE[len(RESOURCES):] + BOTH[len(FREE):]).split("    ask p to choose x")[0]
    inside_rule = f"rules.sr:{before.count(chr(10)) + 1}:5"
    game, _, _ = run(tmp_path, rules)
    inside = 0
    for seed in range(40):
        stopped, through = [], []
        stopped_state = answered_from_outside(game, seed, recording(seed, stopped))
        through_state = game.play_through(seed, recording(seed, through))
        assert through == stopped and final(through_state) == final(stopped_state), seed
        # a decision inside "buy" (rules.sr line of its `ask`) never offers a free action
        inside += sum(1 for _, rule, options in stopped if rule.endswith(inside_rule))
        assert all(not any(isinstance(o, dict) and "free action" in o for o in options[0])
                   for _, rule, options in stopped if rule.endswith(inside_rule))
    assert inside > 0 and game._playthroughs[frozenset(), "plain"]


def test_a_chain_of_reactions_too_deep_stops_alike_either_way(tmp_path):
    rules = """event ping(n)
on ping(n):
    raise ping(n + 1)
each turn:
    raise ping(1)
    end game winners players
"""
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    messages = []
    for play in (lambda: answered_from_outside(game, 1, lambda st: None),
                 lambda: game.play_through(1, lambda st: None)):
        with pytest.raises(RuntimeRulesError) as error:
            play()
        messages.append(str(error.value))
    assert game._playthroughs[frozenset(), "plain"]
    # the 17th ping is raised inside 16 reactions, at the `raise` of the reaction (line 3, col 5)
    assert messages[0] == messages[1]
    assert "rules.sr:3:5: error: a chain of reactions deeper than 16" in messages[0]


# ---- the documentation --------------------------------------------------------------------------
def test_the_example_of_the_language_reference_says_what_it_says(tmp_path):
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text()
    section = text[text.index("## The constructs together"):]
    example = section[section.index("```snowrules\n") + len("```snowrules\n"):section.index("```\n", 20)]
    # FirstAgent takes each player's first die (5 to 6: turned, +2 VP), then 1 snow pays 2 (+1 VP)
    _, _, told = run(tmp_path, example)
    assert said(told) == ["seat 1 has 3 VP", "seat 2 has 3 VP"]
