"""The `greedy` agent: one step of lookahead on the ruleset's declared returns or score.

For each legal option it takes a sampled world (see determinize.py: it never reads what its
player cannot see), plays the option, lets the rules run their chance and forced steps up to the
next decision of anyone, and values the state reached for its player. The option of best mean
value over a few sampled worlds wins; ties are broken by the agent's own seeded generator.

The value of a state, for a player:
- when the game has ended: 1000 for a win (shared: 1000 divided among the winners), plus the
  value below, so that a winning move always beats a merely good one;
- when the manifest declares `returns`: the player's return (evaluated on the state reached,
  ended or not);
- otherwise the player's score minus the best score of the others: taking points from the
  leader counts as much as scoring.

The other seats of a simultaneous decision answer at random in each sampled world (the same
answers for every option of one world, so that options are compared on equal terms).

Sampling stops before `samples` worlds when two worlds in a row gave every option the same value:
what the player cannot see did not change the next step's values there (a solo game's face-down
stack, whose order matters only for later draws), so more worlds would most likely only repeat
them. Each option is still valued in the same worlds, so the totals compare as before.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from snowrules.model.state import State
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import evaluate_manifest

if TYPE_CHECKING:
    from snowrules.play.agents import Observation

WIN = 1000.0
RETURNS = ("returns", "value")


_PLAIN = frozenset({int, str, float, bool, type(None)})


def option_key(option: Any) -> Any:
    """An option as a dictionary key: options are whole numbers, none, texts, or lists of them.
    Plain values are kept as they are without a call (a spot record's fields are mostly
    numbers, and every option of every lookahead is keyed)."""
    plain = _PLAIN
    if type(option) in plain:
        return option
    if isinstance(option, dict):
        return tuple(sorted([(k, v if type(v) in plain else option_key(v)) for k, v in option.items()]))
    if isinstance(option, (list, tuple)):
        return tuple([o if type(o) in plain else option_key(o) for o in option])
    return option


def settle_chance(game: Game, st: State, rng: random.Random) -> None:
    """Draw the pending chance outcomes of an explicit state (OpenSpiel's view) at random, so that
    the state waits for a player's decision or is over."""
    while game.is_chance(st):
        outcomes = game.chance_outcomes(st)
        game.answer(st, [int(rng.random() * len(outcomes))])


def state_value(game: Game, st: State, player: int) -> float:
    """How good `st` is for `player` (see the module's docstring)."""
    program = game.program
    seats = program.seats_of(player)
    if RETURNS in program.interface:
        value = max(float(evaluate_manifest(program, RETURNS, st, seat)) for seat in seats)
    else:
        scores = game.seat_scores(st)
        best_other = max((scores[s] for s in range(program.seats) if program.controller(s) != player),
                         default=0)
        value = float(max(scores[s] for s in seats) - best_other)
    outcome = game.outcome(st)
    if outcome is not None and player in outcome.winners:
        value += WIN / len(outcome.winners)
    return value



class GreedyAgent:
    """One-step lookahead over `samples` sampled worlds per decision."""

    name = "greedy"
    parameters = {"seed": (int, None), "samples": (int, 1)}

    def __init__(self, seed: int = 0, samples: int = 4):
        self._rng = random.Random(seed)
        self.samples = samples

    def choose(self, observation: Observation) -> int:
        options = observation.options
        if len(options) == 1:
            return 0
        game, rng, seat, player = observation.game, self._rng, observation.seat, observation.player
        wanted = [option_key(o) for o in options]
        distinct = len(set(wanted)) == len(wanted)
        totals = [0.0] * len(options)
        last = len(options) - 1
        before = None
        for _ in range(self.samples):
            world = observation.determinize(rng)
            decision = game.decision(world)
            if decision is None or seat not in decision.seats:
                continue  # this world's rules skip the decision: it tells nothing about the options
            position = decision.seats.index(seat)
            here = decision.options[position]
            if distinct and here == options:  # the same options (most worlds): option i is i here
                indexes = range(len(options))
            else:
                offered = {option_key(o): i for i, o in enumerate(here)}
                if any(key not in offered for key in wanted):
                    continue  # options drawn from what the player cannot see: not this world's
                indexes = [offered[key] for key in wanted]
            answers = [int(rng.random() * len(o)) for o in decision.options]
            values = []
            for i, index in enumerate(indexes):
                st = world if i == last else world.clone()  # the world itself is not needed after
                answers[position] = index
                game.answer(st, answers)
                settle_chance(game, st, rng)
                values.append(state_value(game, st, player))
            totals = [total + value for total, value in zip(totals, values)]
            if values == before:
                break  # two worlds in a row valued every option alike: see the module's docstring
            before = values
        best = max(totals)
        ties = [i for i, total in enumerate(totals) if total == best]
        return ties[int(rng.random() * len(ties))]
