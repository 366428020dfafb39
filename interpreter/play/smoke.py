"""Smoke play: a few seeded random games of a ruleset, bounded in steps and seconds, so that a
mistake that only shows while a game runs (a deleted `setup:`, a value of the wrong kind in a
rarely used rule, a game that never ends) is reported by `validate` at its rule, before a
designer's `run` or CI's `test` meets it.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import Diagnostic, SnowrulesError
from snowrules.load.ruleset import Ruleset
from snowrules.play.agents import RandomAgent, agent_seed, play
from snowrules.runtime.clock import clock_works, game_clock
from snowrules.runtime.engine import Game


@dataclass(frozen=True)
class SmokeBounds:
    """How much smoke play may cost: games per player count and variant, and per game a step
    budget (far below a real game's) and a time limit."""

    seeds: tuple[int, ...] = (1, 2)
    max_steps: int = 200_000
    seconds: float = 5.0


DEFAULT_BOUNDS = SmokeBounds()


class _OutOfTime(Exception):
    """A smoke game passed its time limit (raised from the agent, at a decision)."""


class _TimedAgent:
    """A random agent that stops the game once its deadline has passed."""

    def __init__(self, seed: int, deadline: float):
        self.agent, self.deadline = RandomAgent(seed), deadline

    def choose(self, observation) -> int:
        if time.monotonic() > self.deadline:
            raise _OutOfTime
        return self.agent.choose(observation)


def smoke_play(ruleset: Ruleset, bounds: SmokeBounds = DEFAULT_BOUNDS) -> list[Diagnostic]:
    """Play `bounds.seeds` games for each player count of `ruleset` (already read with its
    variant), until one fails: its failure becomes a diagnostic at its rule."""
    variant = f", variant {ruleset.variant}" if ruleset.variant else ""
    for players in range(ruleset.min_players, ruleset.max_players + 1):
        try:
            program = compile_ruleset(ruleset, players)
        except SnowrulesError:  # reported by the check already
            return []
        game = Game(dataclasses.replace(program, max_steps=min(program.max_steps, bounds.max_steps)))
        for seed in bounds.seeds:
            where = f"a smoke game: {players} players{variant}, seed {seed}, random agents"
            # The clock stops the game at its rule, and plain random agents play it through; where
            # the clock cannot (a thread: the language server), agents that look at the time do.
            deadline = time.monotonic() + bounds.seconds + 1.0
            agents = [RandomAgent(agent_seed(seed, i)) if clock_works(bounds.seconds)
                      else _TimedAgent(agent_seed(seed, i), deadline) for i in range(players)]
            try:
                with game_clock(bounds.seconds, program):
                    play(game, agents, seed)
            except _OutOfTime:
                problem = Diagnostic(ruleset.manifest_position, f"a smoke game did not end within "
                                     f"{bounds.seconds:g} seconds", where, code="SR602")
            except SnowrulesError as error:
                first = error.diagnostics[0]
                # a refused limit keeps its own code (SR7xx); any other failure is SR601
                code = first.code if first.code.startswith("SR7") else "SR601"
                problem = Diagnostic(first.position, f"{first.message} (in {where})", first.hint, code=code)
            else:
                continue
            # one failing game is enough for this ruleset and variant: the other player counts
            # would fail the same way, each after its whole budget
            return [problem]
    return []
