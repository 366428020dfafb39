"""The runtime's typed values (Frame, Decision, Ending) and the game's events, on small rulesets
written for the test; the expected values are worked out by hand from the rules text."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import round_trip
from snowrules.compile import fuse
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.model.events import CounterChanged, GameOver, Moved, PhaseStarted, Said, TurnStarted, VariableSet
from snowrules.model.state import State
from snowrules.model.values import Decision, Ending, Frame, Termination
from snowrules.play.agents import FirstAgent, RandomAgent, play
from snowrules.runtime.engine import Game
from test_language import ruleset

GEMS = """counter gems per player from 0 to 5
zone pile shared public
variable rounds_seen = 0
when p.gems >= 3:
    announce p, "reached 3"
setup:
    move all from box to pile
each turn:
    phase collect:
        add 4 to first(players).gems
        add 4 to first(players).gems
        rounds_seen = rounds_seen + 1
        move 2 from pile to box
    end game winners [first(players)]
"""


def events_of(tmp_path, rules: str, players: int = 2):
    game = Game(compile_ruleset(ruleset(tmp_path, rules), players))
    typed, logged = [], []
    st = game.start(1, logged.append, decide=lambda st: game.take(st, [0] * len(st.pending.seats)),
                    listen=typed.append)
    return game, st, typed, logged


def test_each_change_sends_one_typed_event_whose_json_is_the_log_line(tmp_path):
    game, st, typed, logged = events_of(tmp_path, GEMS)
    moves = [e for e in typed if isinstance(e, Moved)]
    # setup: the 8 tokens (4 per seat, per_seat) move at once, in the box's order; then the top 2
    assert [(len(m.components), m.source, m.dest) for m in moves] == [(8, 0, 1), (2, 1, 0)]
    assert moves[1].components == [7, 6], "the top of a pile is its end: the last two, top first"
    counts = [e for e in typed if isinstance(e, CounterChanged)]
    # 0 + 4 = 4, then 4 + 4 = 8 clamped to 5: by 1; both seat 1's (index 0 of `gems`)
    assert [(c.old, c.new, c.by) for c in counts] == [(0, 4, 4), (4, 5, 1)]
    assert [c.owner(game.layout) for c in counts] == [0, 0]
    assert counts[0].family(game.layout) == "gems"
    assert counts[0].rule.endswith("rules.sr:10:9")
    assert [e.value for e in typed if isinstance(e, VariableSet)] == [1]
    assert [e.name for e in typed if isinstance(e, PhaseStarted)] == ["setup", "collect"]  # setup is told as a phase
    assert [e.turn for e in typed if isinstance(e, TurnStarted)] == [1]
    assert [e.text for e in typed if isinstance(e, Said)] == ["seat 1 reached 3"]
    assert isinstance(typed[-1], GameOver) and typed[-1].winners == [0]
    # the log gets every event but the variable's, in the same order, as JSON
    assert logged == [e.to_json(game.layout) for e in typed if not isinstance(e, VariableSet)]
    assert logged[-1] == {"e": "end", "winners": ["seat 1"], "rule": typed[-1].rule}


def test_a_trigger_sees_the_counter_after_its_change_event(tmp_path):
    _, _, typed, _ = events_of(tmp_path, GEMS)
    kinds = [type(e).__name__ for e in typed if isinstance(e, (CounterChanged, Said))]
    assert kinds == ["CounterChanged", "Said", "CounterChanged"], "the trigger runs after the first +4"


@pytest.mark.parametrize("rules, winners, reason", [
    # an `end game` in a turn stops the game there
    ("each turn:\n    end game winners players\n", [0, 1], Termination.DURING_PLAY),
    # two rounds, then the final section ends it as planned
    ("rounds 2:\n    pass\nat game end:\n    end game winners [last(players)]\n", [1], Termination.FINAL),
])
def test_the_ending_says_whether_the_game_stopped_during_play(tmp_path, rules, winners, reason):
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    st = play(game, [FirstAgent(), FirstAgent()], 0)
    assert st.result == Ending(winners, st.result.rule, reason)
    outcome = game.outcome(st)
    assert outcome.reason is reason and outcome.winners == winners
    assert round_trip(st).result == st.result


@pytest.mark.parametrize("name, players, reason", [
    ("snow_time", 3, Termination.DURING_PLAY),     # [End of Game & Winner] the first pawn on the last space
    ("goofspiel", 2, Termination.FINAL),           # after the last bid, `at game end:`
])
def test_bundled_games_end_for_the_reason_their_rules_give(name, players, reason):
    game = Game(load_program(name, None, players))
    st = play(game, [RandomAgent(i) for i in range(players)], 5)
    assert game.outcome(st).reason is reason


def test_a_decision_is_a_typed_value_that_keeps_its_compact_json_form(tmp_path):
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
    decision = game.decision(st)
    assert isinstance(decision, Decision)
    assert (decision.seats, decision.simultaneous, decision.chance) == ([0], False, False)
    assert (decision.variable, decision.how_many, decision.up_to, decision.kind) == ("picked", 2, True, "component")
    assert len(decision.options[0]) == 4   # both, either one, none
    saved = st.to_json()
    assert saved["pending"]["players"] == [0] and saved["pending"]["choice"] == "picked"
    assert all(isinstance(f, list) and len(f) == 5 for f in saved["frames"])
    back = State.from_json(json.loads(json.dumps(saved)))
    assert back.pending == decision and back.frames == st.frames
    assert all(isinstance(f, Frame) for f in back.frames)
    game.answer(back, [1])
    assert back.over and back.result.winners == []


def test_a_clone_shares_nothing_that_changes(tmp_path):
    game = Game(load_program("snow_time", None, 4))
    agents = [RandomAgent(i) for i in range(4)]
    st = game.start(3)
    for _ in range(10):
        pending = st.pending
        game.answer(st, [agents[s].choose_index(len(o)) for s, o in zip(pending.seats, pending.options)])
    copy = st.clone()
    assert copy == st and copy.frames is not st.frames
    assert all(a is not b for a, b in zip(copy.frames, st.frames))
    before = copy.to_json()
    pending = st.pending
    game.answer(st, [0] * len(pending.seats))
    assert copy.to_json() == before, "answering the original leaves the copy where it was"


def test_runtime_errors_map_to_the_rule_of_each_program(tmp_path):
    # one generated function runs the three statements: the mark of the second names its line
    rules = "zone pile shared public\neach turn:\n    let y = 2\n    let x = first(pile).owner\n    end game\n"
    for path in ("a", "b"):   # two programs compiled one after the other each keep their own marks
        folder = tmp_path / path
        folder.mkdir()
        if path == "b":
            rules = "\n\n" + rules
        game = Game(compile_ruleset(ruleset(folder, rules), 2))
        with pytest.raises(RuntimeRulesError) as caught:
            game.start(0, sink=lambda e: None)
        line = 4 if path == "a" else 6
        assert f"rules.sr:{line}:5: error: a value is none where this rule needs one" in str(caught.value)


_GOES_AWAY = """
import gc, sys, weakref
from snowrules.compile import fuse
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import load_ruleset

def generated():
    gc.collect()
    return [o for o in gc.get_objects() if type(o).__name__ == "function" and o.__code__.co_filename == fuse.GENERATED]

ruleset = load_ruleset(sys.argv[1])
before = generated()  # held, so that no new function can take an old one's id
old = set(map(id, before))
program = compile_ruleset(ruleset, 2)
made = [weakref.ref(f) for f in generated() if id(f) not in old]
del program
gc.collect()
print(len(made), len([ref for ref in made if ref() is not None]))
"""


def test_generated_code_goes_away_with_its_program(tmp_path):
    """Every function generated while compiling a program is freed with it. Counted by weak
    references to the program's own functions, not by a total, in a process of its own: the
    suite's worker holds thousands of programs' objects, and scanning them all took seconds."""
    ruleset(tmp_path, GEMS)
    done = subprocess.run([sys.executable, "-c", _GOES_AWAY, str(tmp_path)], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    made, alive = map(int, done.stdout.split())
    assert made > 0 and alive == 0


def test_the_listener_of_docs_events_md_sees_every_point_scored():
    """The example of docs/events.md: the score gains it collects add up to each final score."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "events.md").read_text()
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(example, scope)  # noqa: S102 - our own documentation
    game, gains = scope["game"], scope["gains"]
    st = play(game, [RandomAgent(i) for i in range(3)], seed=7)
    for seat in range(3):
        assert sum(by for owner, by, _ in gains if owner == seat) == game.seat_scores(st)[seat]
    assert all(":" in rule for _, _, rule in gains)


def test_the_generator_is_splitmix64_and_below_draws_from_its_outputs():
    """SplitMix64's published first output from state 0, and `below` (written out for speed) is
    the multiply-shift of `next_u64`'s bits, draw for draw."""
    from snowrules.model.rng import below, next_u64, seed_state
    assert next_u64(0) == (0x9E3779B97F4A7C15, 0xE220A8397B1DCDAF)
    state = other = seed_state(2024)
    for n in (1, 2, 6, 52, 10**12):
        for _ in range(50):
            state, value = below(state, n)
            other, bits = next_u64(other)
            assert (state, value) == (other, (bits * n) >> 64) and 0 <= value < n


def test_a_generated_function_is_compiled_when_first_called():
    # fuse's functions start as stubs: most are only fused into bigger ones and never run
    expression = fuse.from_source("env[0] + 1", {}, 1)
    block = fuse.statement(["env[1] = env[0] * 2"], {}, 0)
    assert expression.__code__.co_name == block.__code__.co_name == "stub"
    env = [20, None]
    assert expression(None, env) == 21 and expression(None, [1]) == 2
    block(None, env)
    assert env == [20, 40]
    assert expression.__code__.co_name == "<lambda>" and block.__code__.co_name == block.__name__
