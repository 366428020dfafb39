"""Agents: who answers a decision for a player. Each sees only its own player's view."""
from __future__ import annotations

import random
import sys
from typing import Protocol

from snowrules.model.state import State
from snowrules.runtime.engine import Game


class Observation:
    """What an agent is given for one seat's decision: the legal options and, on request, the
    view of the player who owns the seat (never more: the state itself is not handed over)."""

    __slots__ = ("seat", "options", "_game", "_state")

    def __init__(self, game: Game, state: State, seat: int, options: list):
        self.seat = seat
        self.options = options
        self._game = game
        self._state = state

    @property
    def player(self) -> int:
        return self._game.program.controller(self.seat)

    @property
    def view(self) -> dict:
        """The deciding player's view."""
        return self._game.view(self._state, self.player)

    @property
    def seat_name(self) -> str:
        return self._game.layout.seat_names[self.seat]

    @property
    def choice(self) -> str:
        return self._state.pending.variable

    def label(self, option) -> str:
        return self._game.option_label(self._state, option)


class Agent(Protocol):
    name: str

    def choose(self, observation: Observation) -> int:
        """The index of the chosen option among `observation.options`."""


class RandomAgent:
    """Uniformly random among the legal options, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._random = random.Random(seed).random

    def choose(self, observation: Observation) -> int:
        return int(self._random() * len(observation.options))

    def choose_index(self, count: int) -> int:
        """The same choice given only the number of options (`play` uses it: no Observation)."""
        return int(self._random() * count)


class FirstAgent:
    """Always the first legal option: deterministic, for tests and golden transcripts."""

    name = "first"

    def choose(self, observation: Observation) -> int:
        return 0


class HumanAgent:
    """Asks at the terminal: shows the player's view and numbered options, re-asks on bad input."""

    name = "human"

    def __init__(self, read=input, write=print):
        self.read, self.write = read, write

    def choose(self, observation: Observation) -> int:
        view, options = observation.view, observation.options  # the view is computed here, once
        self.write(f"\n--- {observation.seat_name} to choose ({observation.choice}) ---")
        for label, content in view["zones"].items():
            if isinstance(content, list) and content:
                self.write(f"  {label}: {', '.join(content)}")
        scores = {k: v for k, v in view["counters"].items() if v}
        if scores:
            self.write("  " + ", ".join(f"{k}={v}" for k, v in scores.items()))
        for number, option in enumerate(options, 1):
            self.write(f"  {number}) {observation.label(option)}")
        while True:
            try:
                text = self.read(f"choice 1-{len(options)}: ").strip()
            except EOFError:
                self.write("no more input: the game stops here")
                sys.exit(2)
            if text.isdigit() and 1 <= int(text) <= len(options):
                return int(text) - 1
            self.write(f"please type a number from 1 to {len(options)}")


AGENTS = {"random": RandomAgent, "first": FirstAgent, "human": HumanAgent}


def make_agent(name: str, seed: int):
    if name == "random":
        return RandomAgent(seed)
    return AGENTS[name]()


def play(game: Game, agents: list, seed: int, sink=None, forced=None, listen=None) -> State:
    """Play one game from the start to its end; `agents` holds one agent per player. Events go
    to `listen` as values and to `sink` as JSON (see Game.start)."""
    program = game.program
    by_seat = [agents[program.controller(seat)] for seat in range(program.seats)]
    if sink is None and listen is None and all(type(agent) is RandomAgent for agent in agents):
        # Random agents and nobody listening: the same draws from each seat's generator, given
        # the number of options only (no Observation, no answer check: the index is in range).
        draws = [agent._random for agent in by_seat]

        def decide(st: State):
            pending = st.pending
            if pending.simultaneous:
                return [options[int(draws[seat]() * len(options))]
                        for seat, options in zip(pending.seats, pending.options)]
            options = pending.options[0]
            return options[int(draws[pending.seats[0]]() * len(options))]
    else:
        decide = _asking(game, by_seat)
    st = game.start(seed, sink, forced, decide, listen=listen)
    st.decide = None
    while st.result is None:  # a state whose run stopped at a decision (never, today)
        pending = st.pending
        game.answer(st, [by_seat[seat].choose(Observation(game, st, seat, options))
                         for seat, options in zip(pending.seats, pending.options)])
    return st


def _asking(game: Game, by_seat: list):
    """The `decide` of `play` for any agents: each is shown an Observation, its answer checked."""

    def decide(st: State):
        """Answer the decision the rules wait for, from inside the run (no suspending)."""
        pending = st.pending
        seats = pending.seats
        if len(seats) == 1:
            seat = seats[0]
            return game.take(st, [by_seat[seat].choose(Observation(game, st, seat, pending.options[0]))])
        return game.take(st, [by_seat[seat].choose(Observation(game, st, seat, options))
                              for seat, options in zip(seats, pending.options)])
    return decide
