"""Agents: who answers a decision for a player. Each sees only its own player's view."""
from __future__ import annotations

import random
import sys
from typing import Protocol

from .engine import Game
from .state import State


class Agent(Protocol):
    name: str

    def choose(self, game: Game, st: State, seat: int, options: list) -> int:
        """The index of the chosen option among `options` (the legal ones for `seat`)."""


class RandomAgent:
    """Uniformly random among the legal options, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._random = random.Random(seed).random

    def choose(self, game: Game, st: State, seat: int, options: list) -> int:
        return int(self._random() * len(options))


class FirstAgent:
    """Always the first legal option: deterministic, for tests and golden transcripts."""

    name = "first"

    def choose(self, game: Game, st: State, seat: int, options: list) -> int:
        return 0


class HumanAgent:
    """Asks at the terminal: shows the player's view and numbered options, re-asks on bad input."""

    name = "human"

    def __init__(self, read=input, write=print):
        self.read, self.write = read, write

    def choose(self, game: Game, st: State, seat: int, options: list) -> int:
        player = game.program.controller(seat)
        view = game.view(st, player)
        self.write(f"\n--- {game.layout.seat_names[seat]} to choose ({st.pending['choice']}) ---")
        for label, content in view["zones"].items():
            if isinstance(content, list) and content:
                self.write(f"  {label}: {', '.join(content)}")
        scores = {k: v for k, v in view["counters"].items() if v}
        if scores:
            self.write("  " + ", ".join(f"{k}={v}" for k, v in scores.items()))
        for number, option in enumerate(options, 1):
            self.write(f"  {number}) {game.label(option)}")
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


def play(game: Game, agents: list, seed: int, sink=None, forced=None) -> State:
    """Play one game from the start to its end; `agents` holds one agent per player."""
    st = game.start(seed, sink, forced)
    program = game.program
    by_seat = [agents[program.controller(seat)] for seat in range(program.seats)]
    while st.result is None:
        pending = st.pending
        game.answer(st, [by_seat[seat].choose(game, st, seat, options)
                         for seat, options in zip(pending["players"], pending["options"])])
    return st
