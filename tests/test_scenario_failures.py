"""The scenario runner fails when it must: every rulebook example depends on it, so each way a
scenario can be wrong is a row below, with the message it must give and the line it must name
(the line marked `# <-` in the scenario's text).

Two kinds of row: an expectation that does not hold is a *failure* (the scenario runs, and
`result.failures` lists each one); a scenario that cannot run as written (an unknown name, a
choice the game does not ask, a game that waits for a choice never given) is an *error*, a
`ScenarioError` with a position. The games here are Snow Time's and Goofspiel's; each expected
value comes from their rulebooks (the turn is worked out in the row's comment)."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from snowrules.language.diagnostics import ScenarioError
from snowrules.records.scenarios import run_scenario

# [B. Fight] Marie alone on 6 knocks Vincent out of 5: 1 fight point; no fruit on 6 (the dice put it
# on 1 and 2); [D.] Marie is then lowest in the tree: 1 mana point. Marie ends the turn on 2.
TURN = """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie 6, Vincent: Vincent 5}
until: end of turn 1
"""
# Marie starts on 29: her fight point takes her to the last space (30), she wins at once.
WIN = """players: [Marie, Vincent]
dice: [1, 2]
situation:
  counters: {Marie.score: 29}
choices:
  - {Marie: Marie 6, Vincent: Vincent 5}
until: game end
"""


@dataclass(frozen=True)
class Wrong:
    id: str
    text: str          # the scenario, without its name; `# <-` marks the line to be named
    message: str       # a part of the message the runner must give
    error: bool = False  # a ScenarioError rather than a failed expectation
    ruleset: str = "snow_time"


FAILURES = [
    Wrong("counter", TURN + "expect:\n  counters:\n    Marie.score: 3   # <-\n",
          "Marie.score is 2, expected 3"),
    Wrong("zone-by-names", TURN + "expect:\n  zones:\n    Vincent.discard: [Vincent 4]   # <-\n",
          "Vincent.discard holds [Vincent 5], expected [Vincent 4]"),
    # [F.] Marie's 6 goes back to her hand: 10 cards again
    Wrong("zone-by-count", TURN + "expect:\n  zones:\n    Marie.hand: 9   # <-\n",
          "Marie.hand holds 10 component(s), expected 9"),
    Wrong("other-winner", WIN + "expect:\n  winners: [Vincent]   # <-\n",
          "winners are [Marie], expected [Vincent]"),
    Wrong("winner-while-the-game-goes-on", TURN + "expect:\n  winners: [Marie]   # <-\n",
          "winners are none (the game goes on), expected [Marie]"),
    Wrong("no-winner-expected", WIN + "expect:\n  winners: null   # <-\n",
          "winners are [Marie], expected none (the game goes on)"),
    Wrong("a-winner-too-many", WIN + "expect:\n  winners: [Marie, Vincent]   # <-\n",
          "winners are [Marie], expected [Marie, Vincent]"),
    Wrong("rolls", TURN + "expect:\n  rolls: [[2, 1]]   # <-\n",
          "the dice rolled were [[1, 2]], expected [[2, 1]]"),
    # [2. Watcher] after the reveal, only the Watcher's player decides; her characters are offered
    Wrong("decision-seats", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie Watcher, Vincent: Vincent 5}
expect:
  decision:
    seats: [Marie, Vincent]   # <-
""", "the pending decision is for [Marie], expected [Marie, Vincent]"),
    Wrong("decision-options", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie Watcher, Vincent: Vincent 5}
expect:
  decision:
    options: [Marie 1, Marie 2]   # <-
""", "the pending decision offers [Marie 1, Marie 2, Marie 3, Marie 4, Marie 5, Marie 6, Marie 7], "
     "expected [Marie 1, Marie 2]"),
    Wrong("decision-expected-none", """players: [Marie, Vincent]
dice: [1, 2]
expect:
  decision: null   # <-
""", "a decision is pending for [Marie, Vincent]"),
    Wrong("options-after-the-end", WIN + "expect:\n  decision:\n    options: [Marie 1]   # <-\n",
          "no decision is pending (the game has ended), expected one for [anyone]"),
    Wrong("decision-after-the-end", WIN + "expect:\n  decision:\n    seats: [Marie]   # <-\n",
          "no decision is pending (the game has ended), expected one for [Marie]"),
    # stopped at the end of turn 1 (`until`), the game goes on but asks nothing yet
    Wrong("decision-after-the-turn-stop", TURN + "expect:\n  decision:\n    seats: [Marie]   # <-\n",
          "no decision is pending (the game has stopped), expected one for [Marie]"),
]

ERRORS = [
    # [Score track] the score goes from 0 to the last space (30): a situation cannot start above or below
    Wrong("counter-above-its-bounds", """players: [Marie, Vincent]
situation:
  counters: {Marie.score: 31}   # <-
until: next decision
expect: {}
""", "Marie.score is kept within 0..30: it cannot be 31", True),
    Wrong("counter-below-its-bounds", """players: [Marie, Vincent]
situation:
  counters: {Vincent.score: -1}   # <-
until: next decision
expect: {}
""", "Vincent.score is kept within 0..30: it cannot be -1", True),
    Wrong("waits-for-an-unanswered-choice", """players: [Marie, Vincent]
dice: [1, 2]
until: end of turn 1   # <-
expect: {}
""", "the game waits for a choice the scenario does not give: Marie, Vincent at", True),
    # ... naming the options of the first of them: Marie's whole hand [Setup, cs]
    Wrong("waits-and-names-the-options", """players: [Marie, Vincent]
dice: [1, 2]
until: end of turn 1   # <-
expect: {}
""", "(hint: options: Marie 1; Marie 2; Marie 3; Marie 4; Marie 5; Marie 6; Marie 7; Marie Healer; "
     "Marie Watcher; Marie Snowstorm)", True),
    # [2. Watcher] the Watcher asks one more card: the turn cannot end without it
    Wrong("waits-after-the-last-choice", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie Watcher, Vincent: Vincent 5}   # <-
until: end of turn 1
expect: {}
""", "the game waits for a choice the scenario does not give: Marie at", True),
    Wrong("waits-for-the-watchers-character", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie Watcher, Vincent: Vincent 5}   # <-
until: end of turn 1
expect: {}
""", "(hint: options: Marie 1; Marie 2; Marie 3; Marie 4; Marie 5; Marie 6; Marie 7)", True),
    Wrong("choice-after-the-stop", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie 6, Vincent: Vincent 5}
  - {Marie: Marie 5, Vincent: Vincent 4}   # <-
until: end of turn 1
expect: {}
""", "the game has stopped before this choice", True),
    Wrong("choice-after-the-end", """players: [Marie, Vincent]
dice: [1, 2]
situation:
  counters: {Marie.score: 29}
choices:
  - {Marie: Marie 6, Vincent: Vincent 5}
  - {Marie: Marie 5, Vincent: Vincent 4}   # <-
until: game end
expect: {}
""", "the game has stopped before this choice", True),
    # Goofspiel with one card each: both bids have a single option, so they are taken at once and
    # the game is over before anything can be imposed.
    Wrong("ended-before-its-first-decision", """players: 2
options: {num_cards: 1}
situation:
  counters: {p0.score: 1}   # <-
expect: {}
""", "the game ended before its first decision", True, "goofspiel"),
    Wrong("a-seat-missing", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie 6}   # <-
expect: {}
""", "is for Marie, Vincent (hint: missing: Vincent; not deciding: -)", True),
    Wrong("unknown-seat", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie 6, Vincent: Vincent 5, Hugo: Hugo 4}   # <-
expect: {}
""", "unknown seat 'Hugo'", True),
    Wrong("illegal-option", """players: [Marie, Vincent]
dice: [1, 2]
choices:
  - {Marie: Marie 8, Vincent: Vincent 5}   # <-
expect: {}
""", "'Marie 8' is not a legal option for Marie here", True),
    Wrong("unknown-counter", """players: [Marie, Vincent]
situation:
  counters:
    Marie.scor: 3   # <-
expect: {}
""", "unknown counter 'Marie.scor' (hint: did you mean Marie.score", True),
    Wrong("unknown-zone-in-expect", TURN + "expect:\n  zones:\n    Marie.hnd: 10   # <-\n",
          "unknown zone 'Marie.hnd' (hint: did you mean Marie.hand", True),
    Wrong("unknown-counter-in-expect", TURN + "expect:\n  counters:\n    Marie.scor: 2   # <-\n",
          "unknown counter 'Marie.scor' (hint: did you mean Marie.score", True),
    # reported where the unclosed list opens
    Wrong("yaml-syntax", """players: [Marie, Vincent   # <-
expect: {}
""", "YAML syntax: a flow sequence starts here and is not closed properly", True),
    Wrong("unknown-component", """players: [Marie, Vincent]
situation:
  zones:
    fruit_on[3]: [apple]   # <-
expect: {}
""", "unknown component 'apple'", True),
    # [Game Components] 15 fruit tokens, not 16
    Wrong("not-that-many", """players: [Marie, Vincent]
situation:
  zones:
    fruit_on[3]: [""" + ", ".join(["fruit"] * 16) + """]   # <-
expect: {}
""", "there are not that many 'fruit'", True),
    Wrong("situation-zone-as-a-count", """players: [Marie, Vincent]
situation:
  zones:
    fruit_on[3]: 2   # <-
expect: {}
""", "a situation lists the components of a zone by name", True),
    Wrong("seats-do-not-split", """variant: two_colours
players: [red, blue, green]   # <-
expect: {}
""", "3 seats do not split into players of 2 seats", True),
    # [Players] 2 to 5
    Wrong("player-count-out-of-range", """players: 7   # <-
expect: {}
""", "this scenario cannot run", True),
    Wrong("option-out-of-range", """players: 2
options: {num_cards: 99}   # <-
expect: {}
""", "these options cannot be set", True, "goofspiel"),
]


def _scenario(tmp_path, row: Wrong):
    path = tmp_path / f"{row.id}.yaml"
    path.write_text(f"name: {row.id}\n" + row.text)
    lines = path.read_text().splitlines()
    marked = [number for number, line in enumerate(lines, 1) if "# <-" in line]
    assert len(marked) == 1, "each row marks the one line its message must name"
    return path, f"{path.name}:{marked[0]}:"


@pytest.mark.parametrize("row", FAILURES, ids=[row.id for row in FAILURES])
def test_a_wrong_expectation_fails_with_its_message_and_line(tmp_path, row):
    path, where = _scenario(tmp_path, row)
    result = run_scenario(path, row.ruleset)
    assert not result.passed
    assert len(result.failures) == 1, result.failures
    assert row.message in result.failures[0], result.failures[0]
    assert where in result.failures[0], result.failures[0]


@pytest.mark.parametrize("row", ERRORS, ids=[row.id for row in ERRORS])
def test_a_scenario_that_cannot_run_as_written_is_an_error_at_its_line(tmp_path, row):
    path, where = _scenario(tmp_path, row)
    with pytest.raises(ScenarioError) as raised:
        run_scenario(path, row.ruleset)
    text = str(raised.value)
    assert row.message in text, text
    assert where in text.splitlines()[0], text


@pytest.mark.parametrize("row", FAILURES, ids=[row.id for row in FAILURES])
def test_the_same_scenario_with_the_true_value_passes(tmp_path, row):
    """Each failing row is one wrong value away from a passing scenario: the failure comes from
    that value, not from a scenario that could never pass."""
    right = {
        "counter": ("Marie.score: 3", "Marie.score: 2"),
        "zone-by-names": ("[Vincent 4]", "[Vincent 5]"),
        "zone-by-count": ("Marie.hand: 9", "Marie.hand: 10"),
        "other-winner": ("[Vincent]", "[Marie]"),
        "winner-while-the-game-goes-on": ("winners: [Marie]", "winners: null"),
        "no-winner-expected": ("winners: null", "winners: [Marie]"),
        "a-winner-too-many": ("winners: [Marie, Vincent]", "winners: [Marie]"),
        "rolls": ("[[2, 1]]", "[[1, 2]]"),
        "decision-seats": ("seats: [Marie, Vincent]", "seats: [Marie]"),
        "decision-options": ("[Marie 1, Marie 2]", "[Marie 1, Marie 2, Marie 3, Marie 4, Marie 5, Marie 6, Marie 7]"),
        "decision-expected-none": ("decision: null", "decision:\n    seats: [Marie, Vincent]"),
        "options-after-the-end": ("decision:\n    options: [Marie 1]", "decision: null"),
        "decision-after-the-end": ("decision:\n    seats: [Marie]", "decision: null"),
        "decision-after-the-turn-stop": ("decision:\n    seats: [Marie]", "decision: null"),
    }[row.id]
    assert right[0] in row.text
    fixed = Wrong(row.id, row.text.replace(right[0], right[1], 1), row.message)
    path = tmp_path / f"{row.id}.yaml"
    path.write_text(f"name: {row.id}\n" + fixed.text)
    result = run_scenario(path, row.ruleset)
    assert result.passed, result.failures


def test_every_wrong_expectation_is_reported_not_only_the_last(tmp_path):
    """A scenario with several wrong expectations lists each, in the order written."""
    path = tmp_path / "two_wrong.yaml"
    path.write_text("name: two wrong\n" + TURN.replace("until: end of turn 1\n", "") + """expect:
  counters:
    Marie.score: 5
  zones:
    Vincent.hand: 3
  decision:
    seats: [Vincent]
""")
    result = run_scenario(path, "snow_time")
    # [1. Placing the Fruit] turn 2 has begun: its card play waits for both players. Marie has 2
    # points (see TURN); Vincent's 5 is discarded: 9 cards in hand.
    assert [f.split(": ", 1)[1] for f in result.failures] == [
        "Marie.score is 2, expected 5",
        "Vincent.hand holds 9 component(s), expected 3",
        "the pending decision is for [Marie, Vincent], expected [Vincent]"]


@pytest.mark.parametrize("row", [row for row in ERRORS if row.id.startswith("choice-after-the-")],
                         ids=lambda row: row.id)
def test_a_choice_after_the_stop_is_that_message_alone(tmp_path, row):
    """The rows above check a part of each message; this one is the whole message."""
    path, _ = _scenario(tmp_path, row)
    with pytest.raises(ScenarioError) as raised:
        run_scenario(path, row.ruleset)
    assert [d.message for d in raised.value.diagnostics] == ["the game has stopped before this choice"]


# The probe ruleset of test_language: seat 1's four tokens "seat 1 t" are ids 0-3, in the box in
# that order. Setup puts 0 in `lower`, 1 in `middle`, 2 and 3 in `pushed`.
PUSHED_OUT = """zone lower shared public
zone middle shared public
zone pushed shared public
zone wanted shared public
setup:
    move first(box) to lower
    move first(box) to middle
    move first(box) to pushed
    move first(box) to pushed
each turn:
    ask first(players) to choose x from [1, 2]:
        pass
    end game
"""


def test_components_pushed_out_go_where_the_replacing_one_came_from_then_to_a_supply(tmp_path):
    """docs/language.md (scenarios): `wanted` takes one "seat 1 t", the lowest id outside the listed
    zones: 0, from `lower`. `pushed` is emptied: the first pushed out (2) goes where 0 came from
    (`lower`); nothing else came in, so 3 goes to a zone that keeps a copy of it: `middle`, which
    holds 1 (not `lower`, whose copy 0 is the one leaving)."""
    from test_language import ruleset
    ruleset(tmp_path, PUSHED_OUT)
    (tmp_path / "scenarios").mkdir()
    path = tmp_path / "scenarios" / "push.yaml"
    path.write_text("name: push\nplayers: 2\nsituation:\n  zones: {pushed: [], wanted: [seat 1 t]}\n"
                    "expect:\n  zones: {lower: 1, middle: 2, pushed: 0, wanted: 1}\n")
    result = run_scenario(path, str(tmp_path))
    assert result.passed, result.failures
