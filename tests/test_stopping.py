"""Stopping and resuming the generated code, on the test rulesets of tests/rulesets: each holds
constructs that stop a game in their own way (a payment with a choice, a reaction that asks with
more reactions waiting after it, a `when` rule that waits, free actions and offers). The bundled
games are tests/test_differential.py's; these small games make each kind of stop happen often.

Each game is played with the same seeded answers several ways, which must give the same log,
event for event: answered in place as the rules reach each decision (the generated code that
keeps no frames); stopped at every decision and written to JSON and read back at each; and
stopped for its first decisions, then played on to its end from the frames it stopped with,
answered in place (what a search's playouts do).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import round_trip
from snowrules.compile.compiler import load_program
from snowrules.load.ruleset import load_ruleset
from snowrules.model.state import State
from snowrules.runtime.engine import Game

TOYS = sorted(p for p in (Path(__file__).resolve().parent / "rulesets").iterdir() if (p / "ruleset.yaml").exists())
SEEDS = range(6)


def _game(folder: Path) -> Game:
    return Game(load_program(str(folder), None, load_ruleset(str(folder)).min_players))


def _played(game: Game, seed: int, way: str | int) -> tuple[list[str], int]:
    """The game's log (JSON lines) and its number of decisions, each answered from a generator of
    the seed's, run `way`: "in place", "stopped", or a number: stopped for that many decisions,
    then played on in place from the frames."""
    log: list = []
    answers = random.Random(seed)
    decisions = 0

    def decide(st: State):
        nonlocal decisions
        decisions += 1
        return game.take(st, [answers.randrange(len(options)) for options in st.pending.options])

    if way == "in place":
        st = game.start(seed, log.append, decide=decide)
    else:
        st = game.start(seed, log.append)
    while st.result is None:
        if way == "stopped":
            copy = round_trip(st)
            copy.sink = st.sink  # the listener is the caller's, not the state's data
            st = copy
        elif decisions == way and game.play_rest_through(st, decide):
            break
        game.answer(st, [answers.randrange(len(options)) for options in st.pending.options])
        decisions += 1
    return [json.dumps(event, sort_keys=True) for event in log], decisions


@pytest.mark.parametrize("folder", TOYS, ids=lambda folder: folder.name)
def test_a_game_stopped_and_resumed_anywhere_is_the_game_played_in_place(folder):
    game = _game(folder)
    asked = 0
    for seed in SEEDS:
        in_place, decisions = _played(game, seed, "in place")
        asked += decisions
        for way in ("stopped", 1, 3, 7):
            log, _ = _played(game, seed, way)
            first = next((i for i, (a, b) in enumerate(zip(in_place, log)) if a != b), min(len(in_place), len(log)))
            assert log == in_place, f"{way}, seed {seed}: event {first} differs: {log[first:first + 1]} != " \
                                    f"{in_place[first:first + 1]}"
    assert asked >= len(SEEDS), "every game asks at least once"


def _stops(game: Game, seed: int, blocks: frozenset[int]) -> int:
    """How many of a game's stops are inside one of `blocks` (a frame of theirs on the stack)."""
    answers, found = random.Random(seed), 0
    st: State = game.start(seed)
    while st.result is None:
        found += any(frame.block in blocks for frame in st.frames)
        game.answer(st, [answers.randrange(len(options)) for options in st.pending.options])
    return found


def _toy(name: str) -> Game:
    return _game(TOYS[[folder.name for folder in TOYS].index(name)])


def test_the_probe_stops_inside_each_kind_of_routine():
    """tests/rulesets/stops makes each kind of stop happen (the test above checks that the game
    goes on from each as played in place): inside a reaction with another waiting after it, inside a
    `when` rule with the reactions waiting after it, inside a free action's block (its decision
    asked again after it), and at a payment."""
    game = _toy("stops")
    program = game.program
    reactions = program.reactions.blocks
    free = frozenset(action.routine.block for action in program.free_actions)
    triggers = frozenset(block.id for block in program.blocks if block.kind == "routine") - reactions - free \
        - {program.main.block}
    found = {"reaction": 0, "when": 0, "free action": 0}
    for seed in SEEDS:
        found["reaction"] += _stops(game, seed, reactions)
        found["when"] += _stops(game, seed, triggers)
        found["free action"] += _stops(game, seed, free)
    assert min(found.values()) >= len(SEEDS), found


def test_a_stop_inside_a_reaction_of_the_reactions_toy():
    """tests/rulesets/reactions: the host's reaction asks for a bonus, then raises the pings."""
    assert _stops(_toy("reactions"), 1, _toy("reactions").program.reactions.blocks) == 1


@pytest.mark.parametrize(("name", "players"), [("goofspiel", 2), ("oh_hell", 3), ("crazy_eights", 2)])
def test_an_explicit_game_stopped_at_every_draw_goes_on_from_its_json(name, players):
    """A program with explicit chance (the OpenSpiel adapter's) stops at each draw too, each
    resumed with its outcome: written to JSON and read back at every node, the same log (the
    games themselves are checked against OpenSpiel's move by move: tests/test_openspiel*.py)."""
    game = Game(load_program(name, None, players, explicit_chance=True))
    for seed in range(3):
        logs = []
        for way in ("kept", "round trip"):
            log: list = []
            answers = random.Random(seed)
            st = game.start(seed, log.append, explicit=True)
            nodes = draws = 0
            while st.result is None:
                if way == "round trip":
                    copy = round_trip(st)
                    copy.sink = st.sink
                    st = copy
                draws += st.pending.chance
                game.answer(st, [answers.randrange(len(options)) for options in st.pending.options])
                nodes += 1
            logs.append([json.dumps(event, sort_keys=True) for event in log])
        assert logs[1] == logs[0] and nodes > draws > 0
