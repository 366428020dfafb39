"""Language constructs of issue 9 (points 8-14): kinds learnt from every assignment, `copies:`,
a counter's start value, `optionally ... else:`, labels that tell copies apart, weighted chance,
and reserved words. Expected values are worked out by hand in each test's comments."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ruleset_folder
from snowrules.compile.compiler import compile_ruleset
from snowrules.language import editions
from snowrules.language.diagnostics import RulesetError, RulesSyntaxError, RuntimeRulesError
from snowrules.language.parser import keywords, parse_rules, reserved_words
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, HumanAgent, Observation, play
from snowrules.records.scenarios import run_scenario
from snowrules.runtime.engine import Game
from test_language import ruleset, run, said

DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"


class LastAgent:
    """Always the last option: declines an `optionally` decision (its last option is nothing)."""

    name = "last"

    def choose(self, observation) -> int:
        return len(observation.options) - 1


def folder(tmp_path: Path, rules: str, components: str, schema: str | None = None) -> Path:
    """A ruleset folder with one component file (`schema` as its own schema, if given)."""
    return ruleset_folder(tmp_path, rules, components, schema=schema)


def problems(error: pytest.ExceptionInfo) -> str:
    return str(error.value)


# ---- 8. kinds from every assignment; problems inside a define name their calls -----------------
def test_a_variable_first_none_takes_the_kind_of_an_assignment_written_below_its_use(tmp_path):
    # `show` reads `held.kind` above the only assignment (in `take`): the kind is a component's.
    _, _, events = run(tmp_path, """variable held = none
define show():
    if held != none:
        announce held.kind
define take():
    held = first(components)
each turn:
    show()
    take()
    show()
    end game
""")
    assert said(events) == ["token"]  # the first show() sees none and says nothing


def test_a_local_first_none_takes_the_kind_of_an_assignment_later_in_its_loop(tmp_path):
    # 8 tokens (4 per seat, seat 1's first); `best.kind == c.kind` is read before `best = c`.
    _, _, events = run(tmp_path, """each turn:
    let best = none
    let same = 0
    for each c in components:
        if best != none and best.kind == c.kind:
            same = same + 1
        best = c
    announce same, best
    end game
""")
    assert said(events) == ["7 seat 2 t"]  # every token after the first has the kind of the one before


def test_a_kind_error_inside_a_define_names_every_call_once(tmp_path):
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, """define colour(x) = x.colour
define shade(y) = colour(y)
each turn:
    announce colour(first(components))
    announce shade(last(components))
    end game
"""), 2)
    text = problems(error)
    rules = str(tmp_path / "rules.sr")
    assert text.count("error:") == 1, text  # one problem, one diagnostic
    assert "rules.sr:1:20: error: no component has a field 'colour'" in text
    assert f"in 'colour' called at {rules}:4:14" in text
    assert f"in 'colour' called at {rules}:2:19 (in 'shade' called at {rules}:5:14)" in text


# ---- 9. copies -------------------------------------------------------------------------------
THING_SCHEMA = """{"type": "object", "required": ["name"], "additionalProperties": false,
 "properties": {"name": {"type": "string"}, "count": {"type": "integer"}}}"""
CLOSED_SCHEMA = """{"type": "object", "required": ["name"], "additionalProperties": false,
 "properties": {"name": {"type": "string"}}}"""
THINGS_RULES = """each turn:
    announce size(components), [c.count for each c in components]
    end game
"""


def test_copies_make_identical_components_and_a_field_named_count_is_a_field(tmp_path):
    # `bid` has a real field `count` (a bid's quantity) and 3 copies; `lone` is one component.
    folder(tmp_path, THINGS_RULES, "schema: thing.schema.json\ncomponents:\n"
           "  - {name: bid, count: 5, copies: 3}\n  - {name: lone, count: 2}\n", THING_SCHEMA)
    game = Game(compile_ruleset(load_ruleset(str(tmp_path)), 2))
    events: list[dict] = []
    play(game, [FirstAgent(), FirstAgent()], 1, sink=events.append)
    assert said([e for e in events if e["e"] == "say"]) == ["4 5, 5, 5, 2"]
    assert game.layout.component_names == ["bid", "bid", "bid", "lone"]


@pytest.mark.parametrize("entry, schema, line, col, message", [
    # copies must be a whole number, 1 or more: reported at the value
    ("  - {name: bid, copies: 0}", CLOSED_SCHEMA, 3, 25, "copies: 0 is not a whole number of copies"),
    ("  - {name: bid, copies: two}", CLOSED_SCHEMA, 3, 25, "copies: 'two' is not a whole number"),
    ("  - {name: bid, copies: true}", CLOSED_SCHEMA, 3, 25, "copies: True is not a whole number"),
    # the old key, refused by a closed schema at the key itself, with a hint toward `copies:`
    ("  - {name: bid, count: 3}", CLOSED_SCHEMA, 3, 17,
     "`count: 3` here made 3 copies in edition 1; write `copies: 3`"),
    # a schema that declares `copies` as a field clashes with snowrules' key: at `schema:`
    ("  - {name: bid}", THING_SCHEMA.replace('"count"', '"copies"'), 1, 9, "declares a field 'copies'"),
])
def test_bad_copies_are_reported_at_their_line(tmp_path, entry, schema, line, col, message):
    folder(tmp_path, THINGS_RULES, f"schema: thing.schema.json\ncomponents:\n{entry}\n", schema)
    with pytest.raises(RulesetError) as error:
        load_ruleset(str(tmp_path))
    text = problems(error)
    assert f"things.yaml:{line}:{col}: error:" in text and message in text, text
    if "count" in message:
        assert ("(hint: write `copies: 3`: in edition 2 `count` is an ordinary field, which this schema does "
                "not declare)") in text


# ---- 10. a counter's start value ------------------------------------------------------------
def test_a_counter_starts_at_its_initially_value_not_at_its_lower_bound(tmp_path):
    # score goes from -999 to 999 and starts at 5; subtracting 2000 stops at -999; reset: back to 5
    _, _, events = run(tmp_path, """counter score per player from -999 to 999 initially 5
counter floor per player from 3
each turn:
    let p = first(players)
    announce p.score, p.floor
    subtract 2000 from p.score
    announce p.score
    reset score
    announce p.score
    end game
""")
    assert said(events) == ["5 3", "-999", "5"]


@pytest.mark.parametrize("declaration, col, message", [
    ("counter s shared from 0 to 9 initially 10", 40, "starts at 10, outside its bounds 0..9"),
    ("counter s shared from 0 initially -1", 35, "starts at -1, outside its bounds 0.."),
    ("counter s shared initially \"x\"", 28, "a counter's start value must be a whole number"),
    ("counter s shared from 9 to 0", 1, "goes from 9 to 0: nothing fits"),
])
def test_a_bad_start_value_is_reported_at_its_column(tmp_path, declaration, col, message):
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, declaration + "\neach turn:\n    end game\n"), 2)
    assert f"rules.sr:1:{col}: error:" in problems(error) and message in problems(error), problems(error)


# ---- 11. optionally ... else -------------------------------------------------------------------
OPTIONAL = """zone hand per player hidden
zone kept per player public
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
each turn:
    ask each p in players secretly to optionally choose c from [first(p.hand)]:
        move c to p.kept
        announce p, "keeps", c
    else:
        announce p, "declines"
    ask first(players) to optionally choose d from [first(first(players).hand)]:
        announce "took", d
    end game
"""


def test_a_declined_optional_choice_runs_its_else_and_never_its_block(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, OPTIONAL), 2))
    events: list[dict] = []
    play(game, [FirstAgent(), LastAgent()], 1, sink=events.append)
    # seat 1 takes its first token (its first option), seat 2 declines (its last option is
    # nothing); then seat 1 is asked alone and takes its next token.
    assert said([e for e in events if e["e"] == "say"]) == [
        "seat 1 keeps seat 1 t", "seat 2 declines", "took seat 1 t"]


def test_a_declined_optional_choice_without_else_does_nothing(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, OPTIONAL), 2))
    events: list[dict] = []
    st = play(game, [LastAgent(), LastAgent()], 1, sink=events.append)
    assert said([e for e in events if e["e"] == "say"]) == ["seat 1 declines", "seat 2 declines"]
    kept = [i for i, z in enumerate(game.layout.zones) if z.family == "kept"]
    assert all(st.zones[i] == [] for i in kept)


@pytest.mark.parametrize("choice", ["ask p to choose c from x:", "ask p to choose up to 2 c from x:",
                                    "ask p to optionally choose exactly 2 c from x:"])
def test_else_belongs_only_to_an_optional_choice_of_one_item(choice):
    with pytest.raises(RulesSyntaxError) as error:
        parse_rules(f"setup:\n    {choice}\n        pass\n    else:\n        pass\n", "r.sr")
    assert "r.sr:4:5: error: only an `optionally` choice of one item has `else:`" in problems(error)


# ---- 12. labels of copies ----------------------------------------------------------------------
LABELS = """zone hand per player hidden
zone shown shared public
setup:
    move [each c in box where c.owner == first(players)] to first(players).hand
    move last([each c in box where c.owner == last(players)]) to first(players).hand
each turn:
    ask first(players) to choose c from first(players).hand:
        move c to shown
    end game
"""


def test_options_that_read_the_same_are_told_apart_by_copy_number(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, LABELS), 2))
    st = game.start(0)
    options = st.pending.options[0]
    # seat 1's four copies read the same and are numbered; seat 2's one token is alone: plain.
    assert game.option_labels(st, options) == [
        "seat 1 t #1", "seat 1 t #2", "seat 1 t #3", "seat 1 t #4", "seat 2 t"]
    # the number stays with the copy: without copy 1, copies 2-4 keep their numbers
    assert game.option_labels(st, options[1:]) == ["seat 1 t #2", "seat 1 t #3", "seat 1 t #4", "seat 2 t"]
    assert game.option_labels(st, [options[2], options[4]]) == ["seat 1 t", "seat 2 t"]


def test_a_person_sees_numbered_copies(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, LABELS), 2))
    st = game.start(0)
    shown: list[str] = []
    human = HumanAgent(read=lambda prompt: "3", write=shown.append)
    assert human.choose(Observation(game, st, 0, st.pending.options[0])) == 2
    assert [line.strip() for line in shown if re.match(r"\s+\d\)", line)] == [
        "1) seat 1 t #1", "2) seat 1 t #2", "3) seat 1 t #3", "4) seat 1 t #4", "5) seat 2 t"]


@pytest.mark.parametrize("option, moved", [("seat 1 t #3", "seat 1 t"), ("seat 1 t", "seat 1 t")])
def test_a_scenario_names_a_copy_by_its_number_or_by_its_plain_name(tmp_path, option, moved):
    ruleset(tmp_path, LABELS)
    (tmp_path / "scenarios").mkdir()
    path = tmp_path / "scenarios" / "pick.yaml"
    path.write_text(f"name: pick\nplayers: 2\nchoices:\n  - {{seat 1: \"{option}\"}}\nuntil: game end\n"
                    f"expect:\n  zones: {{shown: [{moved}], seat 1.hand: 4}}\n")
    result = run_scenario(path, str(tmp_path))
    assert result.passed, result.failures


# ---- 13. weighted chance -----------------------------------------------------------------------
def explicit(tmp_path, rules: str):
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2, explicit_chance=True))
    return game, game.start(0, explicit=True)


def test_a_loaded_die_is_a_chance_node_with_its_weights_as_probabilities(tmp_path):
    game, st = explicit(tmp_path, """each turn:
    roll 1 dice with 6 sides weighted by [1, 1, 1, 1, 1, 5] as faces
    announce faces
    end game
""")
    # total weight 10: faces 1-5 have 1/10 each, the 6 has 5/10
    assert game.chance_outcomes(st) == [(1, 0.1), (2, 0.1), (3, 0.1), (4, 0.1), (5, 0.1), (6, 0.5)]


def test_an_outcome_of_weight_zero_is_not_an_outcome(tmp_path):
    game, st = explicit(tmp_path, """each turn:
    choose n at random from [1, 2, 3, 4] weighted by 0 if n == 2 else n
    announce n
    end game
""")
    # weights 1, 0, 3, 4 (total 8): 2 cannot happen
    assert game.chance_outcomes(st) == [(1, 0.125), (3, 0.375), (4, 0.5)]
    game.answer(st, [1])
    assert st.result is not None


def test_sampled_weighted_draws_follow_their_weights(tmp_path):
    game = Game(compile_ruleset(ruleset(tmp_path, """counter sixes shared from 0
counter ones shared from 0
each turn:
    roll 4000 dice with 6 sides weighted by [0, 0, 0, 0, 0, 1] as faces
    add size([each f in faces where f == 6]) to sixes
    repeat 3999 times:
        choose m at random from 1..2 weighted by 3 if m == 1 else 1
        if m == 1:
            add 1 to ones
    end game
"""), 2))
    st = play(game, [FirstAgent(), FirstAgent()], 5)
    layout = game.layout
    assert st.counters[layout.counter_index("sixes")] == 4000  # the only face of weight > 0
    ones = st.counters[layout.counter_index("ones")]
    # 3999 draws with P(1) = 3/4: mean 2999.25, sd 27.4; 4.5 sd either side
    assert 2876 <= ones <= 3122, ones


@pytest.mark.parametrize("statement, error_type, col, message", [
    ("roll 1 dice with 6 sides weighted by [1, 2] as f", RulesetError, 42, "2 weights for dice with 6 sides"),
    ("roll 1 dice with 2 sides weighted by [1, 0 - 1] as f", RuntimeRulesError, 42,
     "a weight must be a whole number, 0 or more, not -1"),
    ("choose n at random from [1, 2] weighted by 0", RuntimeRulesError, 48, "every weight is 0"),
    ("choose n at random from [1, 2] weighted by \"x\"", RulesetError, 48, "a weight must be a number"),
])
def test_bad_weights_are_reported_at_their_column(tmp_path, statement, error_type, col, message):
    with pytest.raises(error_type) as error:
        run(tmp_path, f"each turn:\n    {statement}\n    end game\n")
    assert f"rules.sr:2:{col}: error:" in problems(error) and message in problems(error), problems(error)


@pytest.mark.parametrize("die, passed", [(6, True), (2, False)])
def test_a_scenario_forces_a_loaded_die_only_to_a_side_it_can_show(tmp_path, die, passed):
    ruleset(tmp_path, """each turn:
    roll 1 dice with 6 sides weighted by [1, 0, 1, 1, 1, 1] as faces
    end game
""")
    (tmp_path / "scenarios").mkdir()
    path = tmp_path / "scenarios" / "loaded.yaml"
    path.write_text(f"name: loaded\nplayers: 2\ndice: [{die}]\nuntil: game end\nexpect:\n  rolls: [[{die}]]\n")
    if passed:
        assert run_scenario(path, str(tmp_path)).passed
        return
    with pytest.raises(RuntimeRulesError) as error:
        run_scenario(path, str(tmp_path))
    assert "rules.sr:2:5: error: a forced die shows 2, but these dice show only 1, 3, 4, 5, 6" in problems(error)


def test_openspiel_reads_the_weights_as_chance_probabilities(tmp_path):
    pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    ruleset(tmp_path, """each turn:
    roll 1 dice with 3 sides weighted by [2, 0, 6] as faces
    end game winners [each p in players where first(faces) == 3]
""")
    import pyspiel
    game = load_game(str(tmp_path), players=2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    # faces 1 and 3 (weights 2 and 6 of 8); the 2, of weight 0, is no outcome
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.75)]
    state.apply_action(1)  # the 3: everybody wins, a draw
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


# ---- 14. reserved words ----------------------------------------------------------------------
def documented_keywords() -> set[str]:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"Keywords cannot be names: `([^`]*)`", text)
    assert found, "docs/language.md lists its keywords as `Keywords cannot be names: `...``"
    return set(found.group(1).split())


def test_the_documented_keywords_are_exactly_the_reserved_grammar_words():
    assert documented_keywords() == set(reserved_words())
    assert documented_keywords() == editions.reserved_in(editions.CURRENT)  # the editions' table lists each
    free = re.search(r"free as names elsewhere: `([^`]*)`", DOCS.read_text(encoding="utf-8"))
    assert free and set(free.group(1).split()) == set(keywords()) - set(reserved_words())


@pytest.mark.parametrize("text, col", [
    ("setup:\n    let dice = 2\n", 9),
    ("setup:\n    let roll = 2\n", 9),
    ("define f(ask) = 1\n", 10),
    ("setup:\n    for each choose in players:\n        pass\n", 14),
    ("variable sides = []\n", 10),
    ("setup:\n    roll 2 dice with 6 sides as dice\n", 33),
    ("setup:\n    let x = first(players).sides\n", 28),
])
def test_a_keyword_is_never_a_name(text, col):
    with pytest.raises(RulesSyntaxError) as error:
        parse_rules(text, "r.sr")
    assert re.search(rf"r\.sr:\d+:{col}: error: '\w+' is a keyword and cannot be a name", problems(error)), \
        problems(error)


def test_player_and_turn_are_names(tmp_path):
    # `player` and `turn` are read as words only in `per player` and `each turn:`
    _, _, events = run(tmp_path, """counter score per player from 0
define twice(player) = player.score * 2
each turn:
    for each player in players:
        add turn to player.score
    announce twice(last(players)), turn
    end game
""")
    assert said(events) == ["2 1"]
