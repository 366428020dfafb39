"""One game, every caller: each bundled configuration (ruleset x variant x player count, and each
declared option value) is played with the same seeded random agents through every way a program
is run, and every way must give the same game, event for event.

This is the back end's differential test (issue 23, point 7): a program runs as one generated
module in two builds (plain: answered in place; stoppable: stopped and resumed), and these callers
must agree:

- **listened**: `play` with a log: random agents answer inline, on the played-through functions
  built with their event lines (the path of `simulate` and of `run --log` with random bots);
- **listened in place**: the same game, each decision answered inline from an Observation by
  a `decide` that takes the answer through `Game.take` (the path of an agent answering inline);
- **stopped**: the state stops at every decision and is answered from outside (`Game.answer`),
  as a replay, a scenario, a human or the OpenSpiel adapter does;
- **copies**: stopped too, and at every decision the game goes on from a clone or from the
  state written to JSON and read back (what MCTS, `--log` resumption and pickling rely on);
- **resumed**: stopped at its first decisions, then played on in place from its frames
  (`Game.play_rest_through`, a search's playouts), answered inline;
- **unlistened**: `play` with nobody listening (the played-through path, where the program has
  one), which writes no log: its end state must be the others' end state;
- **tallied**: `play` as `simulate` runs it, its moves counted by a move tally in the generated
  lines (model/move_tally.py) rather than told: the same end, and each component moved as
  many times as the log's move events say;
- **the adapter**: the game as OpenSpiel plays it (adapters/openspiel.py: explicit chance, every
  draw a chance node, actions as OpenSpiel ids), its chance nodes answered with the draws the
  seed's generator makes and its decisions with the same random agents, logged through the
  state's sink: from its first node on, the same log.
"""
from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable

import pytest
from conftest import configurations, every_move, game_for, generator_draw, round_trip
from snowrules.load.ruleset import bundled_names, load_ruleset
from snowrules.model.rng import seed_state
from snowrules.model.state import State
from snowrules.play.agents import Observation, RandomAgent, agent_seed, play
from snowrules.runtime.engine import Game

SEED = 11


def _option_values() -> list[tuple[str, tuple]]:
    """Each bundled ruleset's declared option values other than the defaults: (ruleset, options)."""
    found = []
    for name in bundled_names():
        for option, spec in load_ruleset(name).options.items():
            for value in spec.get("choices", []):
                if value != spec["default"]:
                    found.append((name, ((option, value),)))
    return found


def _cases() -> list[tuple[str, str | None, int, tuple]]:
    cases = [(name, variant, players, ()) for name, variant, players in configurations()]
    for name, options in _option_values():
        players = load_ruleset(name).min_players
        cases.append((name, None, max(players, 2) if name != "snowfall_over_mountains" else players, options))
    return cases


def _case_id(case) -> str:
    name, variant, players, options = case
    shown = "".join(f"+{k}={v}" for k, v in options)
    return f"{name}{'+' + variant if variant else ''}{shown}-{players}p"


def _agents(game: Game, seed: int) -> list[RandomAgent]:
    return [RandomAgent(agent_seed(seed, i)) for i in range(game.program.players)]


def _answers(game: Game, st: State, agents: list[RandomAgent]) -> list[int]:
    pending = st.pending
    return [agents[game.program.controller(seat)].choose(Observation(game, st, seat, options))
            for seat, options in zip(pending.seats, pending.options)]


def listened(game: Game, seed: int) -> tuple[list[str], State]:
    log: list = []
    st = play(game, _agents(game, seed), seed, sink=log.append)
    return [json.dumps(e, sort_keys=True) for e in log], st


def listened_in_place(game: Game, seed: int) -> tuple[list[str], State]:
    log: list = []
    agents = _agents(game, seed)

    def decide(st: State):
        return game.take(st, _answers(game, st, agents))
    st = game.start(seed, log.append, decide=decide)
    return [json.dumps(e, sort_keys=True) for e in log], st


def _stopped(game: Game, seed: int, resume: Callable[[State, int], State]) -> tuple[list[str], State]:
    log: list = []
    agents = _agents(game, seed)
    st = game.start(seed, log.append)
    decisions = 0
    while st.result is None:
        st = resume(st, decisions)
        decisions += 1
        game.answer(st, _answers(game, st, agents))
    return [json.dumps(e, sort_keys=True) for e in log], st


def stopped(game: Game, seed: int) -> tuple[list[str], State]:
    return _stopped(game, seed, lambda st, _: st)


def copies(game: Game, seed: int) -> tuple[list[str], State]:
    """Every decision resumed from a copy: a clone at odd ones, a JSON round trip at even ones."""
    def resume(st: State, decision: int) -> State:
        other = st.clone() if decision % 2 else round_trip(st)
        other.sink = st.sink  # the listener is the caller's, not the state's data
        return other
    return _stopped(game, seed, resume)


def resumed(game: Game, seed: int) -> tuple[list[str], State]:
    """Stopped at its first decisions, then played on in place from the first one it can, from
    its frames (Game.play_rest_through, what a search's playouts do), each decision
    answered inline by the same agents."""
    log: list = []
    agents = _agents(game, seed)

    def decide(st: State):
        return game.take(st, _answers(game, st, agents))
    st = game.start(seed, log.append)
    decisions = 0
    while st.result is None and (decisions < 3 or not game.play_rest_through(st, decide)):
        decisions += 1
        game.answer(st, _answers(game, st, agents))
    return [json.dumps(e, sort_keys=True) for e in log], st


def _game(case) -> Game:
    """The case's game, on the program conftest's game_for keeps for the test process: the two
    tests below play each case, and the properties' modules play each default-option one."""
    name, variant, players, options = case
    return game_for((name, variant, players, options) if options else (name, variant, players))


@functools.cache
def _reference(case) -> tuple[list[str], State]:
    """The listened game of a case, played once per test process for both tests below that
    compare with it (a Snow Planner game is 0.4 s of CPU). Nothing changes it: the tests read
    its log and end state only."""
    return listened(_game(case), SEED)


def _end(game: Game, st: State) -> tuple:
    return (game.outcome(st), st.zones, st.counters, st.vars, st.rng)


@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_every_caller_plays_the_same_game(case):
    game = _game(case)
    reference, end = _reference(case)
    assert any('"e": "choice"' in line for line in reference), "a game with no decision compares nothing"
    for caller in (listened_in_place, stopped, copies, resumed):
        log, other_end = caller(game, SEED)
        first = next((i for i, (a, b) in enumerate(zip(reference, log)) if a != b), min(len(reference), len(log)))
        assert log == reference, (f"{caller.__name__} differs from listened at event {first}: "
                                  f"{log[first:first + 1]} != {reference[first:first + 1]}")
        assert _end(game, other_end) == _end(game, end)
    unlistened = play(game, _agents(game, SEED), SEED)
    assert _end(game, unlistened) == _end(game, end)
    tally = every_move(game)
    tallied = play(game, _agents(game, SEED), SEED, tally=tally)
    assert _end(game, tallied) == _end(game, end)
    names = game.layout.component_names
    counted: Counter = Counter()
    for c, times in enumerate(tally.take()[0]):
        counted[names[c]] += times
    told = Counter(name for line in reference if (event := json.loads(line))["e"] == "move" for name in event["what"])
    assert +counted == told


def through_the_adapter(case, seed: int) -> tuple[list[str], State]:
    """The game played through the OpenSpiel adapter, by pyspiel's calls (apply_action at a
    chance or a one-player node, apply_actions at a simultaneous one, one action per player).

    Two things differ from the other callers by design, and are answered here so that the game is
    the same one: each draw is a chance node, answered with the outcome the seed's generator
    would draw (generator_draw); and every decision is a node, even one where each seat has a
    single option, which a game without explicit chance takes without asking. At such a node no
    agent draws, and the `choice` events it logs are left out (the other callers log none).
    The adapter runs its setup once per game, with nobody listening, before the first node (its
    draws are chance nodes): its log starts there."""
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game

    name, variant, players, options = case
    spiel_game = load_game(name, players=players, variant=variant or "", **dict(options))
    engine = spiel_game.engine
    agents = _agents(engine, seed)
    log: list = []
    state = spiel_game.new_initial_state()
    state._owned()  # its own engine state, not the game's shared first one, before a sink is set
    state.st.sink = engine.listener(log.append)
    rng = seed_state(seed)
    while not state.is_terminal():
        pending = state.st.pending
        if state.is_chance_node():
            rng, index = generator_draw(rng, pending)
            state.apply_action(state._node_ids()[0][0][index])
            continue
        asked = any(len(options) > 1 for options in pending.options)
        answers = {seat: agents[engine.program.controller(seat)].choose_index(len(options)) if asked else 0
                   for seat, options in zip(pending.seats, pending.options)}
        before = len(log)
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([state._seat_options(player)[0][answers[player]] if player in answers else 0
                                 for player in range(spiel_game.num_players())])
        else:
            (seat, index), = answers.items()
            state.apply_action(state._seat_options(seat)[0][index])
        if not asked:
            log[before:] = [event for event in log[before:] if event["e"] != "choice"]
    return [json.dumps(e, sort_keys=True) for e in log], state.st


@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_the_adapter_plays_the_same_game(case):
    """The adapter's game, from its first node, is the listened game's: the same events after the
    setup, and the same end (the generator's state aside: the adapter's draws are answered from
    outside, so its own generator never draws)."""
    game = _game(case)
    reference, end = _reference(case)
    log, adapter_end = through_the_adapter(case, SEED)
    assert any('"e": "choice"' in line for line in log), "an adapter game with no decision compares nothing"
    setup = len(reference) - len(log)
    assert setup >= 0 and not any('"e": "choice"' in line for line in reference[:setup]), \
        "the adapter's log holds more than the listened game after its setup"
    after_setup = reference[setup:]
    first = next((i for i, (a, b) in enumerate(zip(after_setup, log)) if a != b), len(log))
    assert log == after_setup, (f"the adapter differs from listened at event {setup + first}: "
                                f"{log[first:first + 1]} != {after_setup[first:first + 1]}")
    assert _end(game, adapter_end)[:-1] == _end(game, end)[:-1]
