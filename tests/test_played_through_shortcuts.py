"""The played-through path's shortcuts (compile/playthrough.py, statements.py, fuse.py): an
effect's entry called by `resolve`, a loop that charges nothing for an empty list, a simultaneous
decision's (seat, options) pairs, an answer never none, a constant `up to N`'s table, empty() of
an empty zone. Each must play the game stopped at each decision plays, and fail at the rule."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import answered_from_outside, ruleset_folder, said_answering, three_copies
from snowrules.compile import fuse
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.playthrough_choices import _combination_tables
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import RandomAgent, answering_at_random
from snowrules.runtime.engine import Game
from test_language import ruleset
from test_language_gaps import SCHEMA
from test_playthrough import final, random_decide

# Each seat gets pieces A, B and C. A's effect climbs to the next multiple of 3 gold by resolving
# itself again; B asks for up to 2 pieces of its owner's pile, moved aside and paid in gems; C
# counts the pieces put aside of the first one's kind (none put aside: nothing to count).
PIECES = """schema: thing.schema.json
per_seat: true
components:
  - name: piece A
    kind: thing
    effect: |
      add 1 to me.res["gold"]
      if me.res["gold"] % 3 != 0:
          resolve this for me
  - name: piece B
    kind: thing
    effect: |
      ask me to choose up to 2 taken from me.pile:
          move taken to me.aside
          add size(taken) to me.res["gem"]
  - name: piece C
    kind: thing
    effect: |
      add size([each k in me.aside where k.kind == first(me.aside).kind]) to me.res["gem"]
"""

RULES = """zone pile per player public
zone aside per player public
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.pile
each turn:
    for each p in players:
        for each c in [each k in p.pile where k.kind == "thing"]:
            resolve c for p
        move all from p.aside to p.pile
    announce first(players).res["gold"], last(players).res["gold"]
    if turn == 4:
        end game
"""


def pieces_game(tmp_path: Path, rules: str = RULES, pieces: str = PIECES) -> Game:
    folder = ruleset_folder(tmp_path, "counter res[gold, gem] per player from 0\n" + rules, pieces,
                            file="pieces", schema=SCHEMA, name="pieces", players=(2, 3))
    return Game(compile_ruleset(load_ruleset(str(folder)), 2))


def played_through(game: Game, seed: int, seats: int = 2):
    draws = [RandomAgent(seed * 100 + seat).drawer for seat in range(seats)]
    return game.play_through(seed, answering_at_random(draws), draws=draws)


def test_effects_resolved_through_their_entries_play_the_stopped_game(tmp_path):
    # piece A, once a turn: 0 -> 1 -> 2 -> 3 gold (it resolves itself twice), so 3 gold a turn
    # for each seat, whatever piece B's decisions take
    game = pieces_game(tmp_path)
    for seed in range(20):
        log: list = []
        stopped = answered_from_outside(game, seed, random_decide(2, seed), sink=log.append)
        assert [e["text"] for e in log if e["e"] == "say"] == ["3 3", "6 6", "9 9", "12 12"]
        stopped.sink = None
        assert final(played_through(game, seed)) == final(stopped), seed
        assert final(game.play_through(seed, random_decide(2, seed))) == final(stopped), seed
    assert game._playthroughs[frozenset(), "plain"]


def test_a_decision_inside_an_effect_survives_clone_and_json(tmp_path):
    # the first decision is piece B's, for the first seat, among its 3 pieces (up to 2 of them:
    # 3 + 3 + 1 = 7 answers, the last one taking nothing); answered so, piece C adds nothing and
    # the next decision is the second seat's piece B
    game = pieces_game(tmp_path)
    st = game.start(0)
    assert len(st.pending.options[0]) == 7 and st.pending.rule.endswith("pieces.yaml:13:7")
    assert [said_answering(game, copy, [6]) for copy in three_copies(st)] == [[]] * 3


def test_an_error_inside_an_effect_played_through_is_at_the_effects_line(tmp_path):
    # piece C reading the first piece put aside for each piece of the pile, with piece B not
    # resolved: first(me.aside) is none (line 19, col 7 of the pieces' file)
    failing = PIECES.replace("[each k in me.aside where", "[each k in me.pile where")
    game = pieces_game(tmp_path, RULES.replace('k.kind == "thing"', 'k.name != "piece B"'), failing)
    with pytest.raises(RuntimeRulesError) as caught:
        played_through(game, 0)
    assert "pieces.yaml:19:7: error: a value is none where this rule needs one" in str(caught.value)
    assert game._playthroughs[frozenset(), "plain"]


# Each seat's 4 tokens lie on tiles[2]; tiles[1] and tiles[3] are empty.
BUDGET = """zone tiles[1..3] shared public
setup:
    move all from box to tiles[2]
each turn:
    for each k in 1..3:
        for each c in tiles[k]:
            move c to tiles[k]
    LOOP
    end game
"""


@pytest.mark.parametrize("loop, charged", [
    # the literal list 3, tiles[2]'s 8 tokens, nothing for the empty tiles[1] and tiles[3]
    ("pass", 3 + 8),
    # a filter that keeps nothing charges nothing, natively and as a loop whose body waits
    ("for each c in [each c in tiles[2] where c.kind == \"card\"]:\n        move c to tiles[1]", 3 + 8),
    ("for each c in [each c in tiles[2] where c.kind == \"card\"]:\n"
     "        ask first(players) to choose n from [1, 2]:\n            move c to tiles[n]", 3 + 8),
    # a filter that keeps the 4 tokens of the first seat: 4 rounds
    ("for each c in [each c in tiles[2] where c.owner == first(players)]:\n        move c to tiles[3]", 3 + 8 + 4),
])
def test_a_loop_charges_the_rounds_of_a_list_only_when_it_holds_something(tmp_path, loop, charged):
    game = Game(compile_ruleset(ruleset(tmp_path, BUDGET.replace("LOOP", loop)), 2))
    through = game.play_through(0, random_decide(2, 0))
    assert through.steps == charged
    assert final(through) == final(answered_from_outside(game, 0, random_decide(2, 0)))


def test_a_zone_loop_that_moves_its_own_items_back_keeps_their_order(tmp_path):
    # each token leaves tiles[2] and is put back on top: the same 8 tokens in the same order
    game = Game(compile_ruleset(ruleset(tmp_path, BUDGET.replace("LOOP", "pass")), 2))
    start = answered_from_outside(game, 0, random_decide(2, 0))
    assert start.zones[2] == sorted(start.zones[2]) and len(start.zones[2]) == 8


SIMULTANEOUS = """zone pile per player public
zone aside per player public
setup:
    move [each c in box where c.owner == first(players)] to first(players).pile
each turn:
    ask each p in players secretly to choose c from p.pile:
        move c to p.aside
    announce size(first(players).aside), size(last(players).aside)
    if turn == 2:
        end game
"""


def test_a_simultaneous_decision_runs_what_follows_only_for_seats_with_options(tmp_path):
    # the last seat's pile is empty: only the first seat answers and puts a token aside, each turn
    game = Game(compile_ruleset(ruleset(tmp_path, SIMULTANEOUS), 2))
    log: list = []
    stopped = answered_from_outside(game, 0, random_decide(2, 0), sink=log.append)
    assert [e["text"] for e in log if e["e"] == "say"] == ["1 0", "2 0"]
    stopped.sink = None
    assert final(game.play_through(0, random_decide(2, 0))) == final(stopped)
    assert final(played_through(game, 0)) == final(stopped)


@pytest.mark.parametrize("mode, count, length, listed", [
    # up to 2 of 3 items: the pairs first, each in the items' order, then the singles, then none
    ("up to", 2, 3, ((0, 1), (0, 2), (1, 2), (0,), (1,), (2,), ())),
    ("up to", 2, 0, ((),)),
    ("up to", 0, 2, ((),)),
    ("exactly", 2, 3, ((0, 1), (0, 2), (1, 2))),
    ("exactly", 2, 1, ()),
    ("exactly", 0, 2, ((),)),
])
def test_a_constant_counts_answers_are_listed_per_item_count(mode, count, length, listed):
    assert _combination_tables(mode, (count,))[length] == listed


@pytest.mark.parametrize("constant", [None, (-1,), (True,), ("2",)])
def test_other_counts_are_worked_out_when_asked(constant):
    assert _combination_tables("up to", constant) is None


@pytest.mark.parametrize("text, plain", [
    ("((st.zones[(20 + _x168)]))", True),   # a per-player zone by a loop's name
    ("(st.zones[env[3]])", True),           # by a slot
    ("st.zones[_v5[_x3]]", True),           # by a bound table's entry
    ("(st.zones[1]) + (st.zones[2])", False),  # two zones joined
    ("st.zones[_v3(st, env)]", False),      # a closure's call: not read twice
    ("(st.zones[(_a := 3)])", False),       # an assignment: not written twice
    ("st.zones[1][0]", False),              # a zone's item, not its list
    ("(_v5[:])", False),
])
def test_empty_reads_a_zone_twice_only_when_reading_it_is_a_plain_subscript(text, plain):
    assert fuse._zone_read(text) is plain
