"""Shared test helpers: every bundled ruleset, variant and player count, and a checked game runner."""
from __future__ import annotations

import json
import random

from snowrules.compile.compiler import load_program
from snowrules.load.ruleset import bundled_names, load_ruleset
from snowrules.model.state import State
from snowrules.play.agents import Observation, RandomAgent
from snowrules.runtime.engine import Game


def configurations() -> list[tuple[str, str | None, int]]:
    """(ruleset, variant, players) for every bundled ruleset, each variant, every player count."""
    found = []
    for name in bundled_names():
        base = load_ruleset(name)
        for variant in [None, *base.variants]:
            ruleset = load_ruleset(name, variant)
            for players in range(ruleset.min_players, ruleset.max_players + 1):
                found.append((name, variant, players))
    return found


def config_id(config) -> str:
    name, variant, players = config
    return f"{name}{'+' + variant if variant else ''}-{players}p"


def game_for(config) -> Game:
    return Game(load_program(*config))


def check_invariants(game: Game, st: State) -> None:
    """What holds at every decision of every ruleset."""
    layout = game.layout
    count = len(layout.component_names)
    everywhere = sorted(c for zone in st.zones for c in zone)
    assert everywhere == list(range(count)), "a component is missing or duplicated"
    for index, zone in enumerate(st.zones):
        for c in zone:
            assert st.where[c] == index
    for i, value in enumerate(st.counters):
        low, high = layout.counter_lower[i], layout.counter_upper[i]
        assert low is None or value >= low, f"{layout.counter_labels[i]} = {value} < {low}"
        assert high is None or value <= high, f"{layout.counter_labels[i]} = {value} > {high}"
    copy = st.clone()
    assert copy == st
    assert State.from_json(json.loads(json.dumps(st.to_json()))) == st


def play_checked(game: Game, seed: int, check_every: int = 1, sink=None) -> tuple[State, list[list[int]]]:
    """A random game, invariants checked at decisions; returns the end state and the choices made."""
    agents = [RandomAgent(seed * 1000 + i) for i in range(game.program.players)]
    st = game.start(seed, sink)
    choices = []
    n = 0
    while st.result is None:
        if n % check_every == 0:
            check_invariants(game, st)
        n += 1
        pending = st.pending
        answer = [agents[game.program.controller(s)].choose(Observation(game, st, s, o))
                  for s, o in zip(pending.seats, pending.options)]
        choices.append(answer)
        game.answer(st, answer)
    check_invariants(game, st)
    return st, choices


def replay_choices(game: Game, st: State, choices: list[list[int]]) -> State:
    for answer in choices:
        game.answer(st, answer)
    return st


__all__ = ["Observation", "check_invariants", "configurations", "config_id", "game_for", "play_checked", "random",
           "replay_choices"]
