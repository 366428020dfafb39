"""The `mcts` agent: information-set Monte Carlo tree search with determinization.

Each iteration samples a world consistent with the player's view (see determinize.py, the only
way the agent gets a state: it never reads what its player cannot see), walks down one shared
tree with that world, adds one node, plays the rest of the game at random and backs up who won.
The tree is keyed by the answers given (the options' values), so that all the worlds a player
cannot tell apart share their statistics; an option that a world does not offer (a component another
player holds in one world and not in another) is only counted where it is offered: UCB uses,
for each option, the number of visits in which it was available (single-observer ISMCTS, Cowling,
Powley and Whitehouse, 2012).

Simultaneous decisions: each deciding seat picks its own answer from its own statistics at the
node (decoupled UCT), so every seat searches its own choice without seeing the others'.

Rewards are the share of the win (1 for a sole winner, 1/k for each of k winners, 0 otherwise),
for the player who controls each seat. A solo game whose manifest declares `returns` is the
exception: there the win often says nothing (a solo game that always ends "you win" ranks the
player by score instead), so the reward is the player's return scaled to [0, 1] by the declared
`min` and `max`. The answer is the option visited most at the root.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.play.greedy import option_key, settle_chance
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import VALUE, declares_returns, evaluate_manifest

if TYPE_CHECKING:
    from snowrules.play.agents import Observation

# A seat's statistics of one option at a node: [visits, total reward, times available].
VISITS, REWARD, AVAILABLE = 0, 1, 2


class _Node:
    """The statistics of each seat deciding here, and the nodes after each set of answers."""

    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        self.stats: dict[int, dict] = {}
        self.children: dict[tuple, _Node] = {}


class MctsAgent:
    """ISMCTS with `iterations` sampled worlds per decision and UCB constant `exploration`."""

    name = "mcts"
    parameters = {"seed": (int, None), "iterations": (int, 1), "exploration": (float, 0.0)}

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 0.7):
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.exploration = exploration

    def choose(self, observation: Observation) -> int:
        options = observation.options
        if len(options) == 1:
            return 0
        game, rng, seat = observation.game, self._rng, observation.seat
        root = _Node()
        for _ in range(self.iterations):
            world = observation.determinize(rng)
            decision = game.decision(world)
            if decision is not None and seat in decision.seats:
                self._iterate(game, root, world, rng)
        table = root.stats.get(seat, {})
        empty = [0, 0.0, 0]

        def rank(index: int) -> tuple:
            entry = table.get(option_key(options[index]), empty)
            return entry[VISITS], entry[REWARD] / entry[VISITS] if entry[VISITS] else 0.0, -index
        return max(range(len(options)), key=rank)

    def _iterate(self, game: Game, root: _Node, st: State, rng: random.Random) -> None:
        """One iteration: select and expand in the tree, play out at random, back up."""
        node, path = root, []
        while True:
            settle_chance(game, st, rng)
            decision = game.decision(st)
            if decision is None:
                break
            answers, picked = [], []
            for seat, options in zip(decision.seats, decision.options):
                table = node.stats.get(seat)
                if table is None:
                    table = node.stats[seat] = {}
                keys = [option_key(o) for o in options]
                index = self._select(table, keys, rng)
                answers.append(index)
                picked.append((seat, table[keys[index]]))
            path.append(picked)
            game.answer(st, answers)
            joint = tuple(answer_key for answer_key in _keys(decision.options, answers))
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = _Node()
                break  # expanded: the rest is a random playout
            node = child
        self._playout(game, st, rng)
        reward = _rewards(game, st)
        controller = game.program.controller
        for picked in path:
            for seat, entry in picked:
                entry[VISITS] += 1
                entry[REWARD] += reward[controller(seat)]

    def _select(self, table: dict, keys: list, rng: random.Random) -> int:
        """UCB1 over the options offered here, each counted by the visits it was available in;
        an option never tried is tried first (at random among them)."""
        untried = []
        for index, key in enumerate(keys):
            entry = table.get(key)
            if entry is None:
                entry = table[key] = [0, 0.0, 0]
            entry[AVAILABLE] += 1
            if entry[VISITS] == 0:
                untried.append(index)
        if untried:
            return untried[int(rng.random() * len(untried))]
        c = self.exploration
        best, best_index = -math.inf, 0
        for index, key in enumerate(keys):
            visits, total, available = table[key]
            score = total / visits + c * math.sqrt(math.log(available) / visits)
            if score > best:
                best, best_index = score, index
        return best_index

    @staticmethod
    def _playout(game: Game, st: State, rng: random.Random) -> None:
        """Uniformly random answers for every seat until the game ends. The answers are given from
        inside the run, as `play` does, which spares a stop and a restart at every decision."""
        draw = rng.random

        def decide(state: State):
            decision = game.decision(state)
            return game.take(state, [int(draw() * len(options)) for options in decision.options])
        while True:
            settle_chance(game, st, rng)
            decision = game.decision(st)
            if decision is None:
                return
            st.decide = decide
            try:
                game.answer(st, [int(draw() * len(options)) for options in decision.options])
            finally:
                st.decide = None


def _keys(options: list[list], answers: list[int]):
    for legal, index in zip(options, answers):
        yield option_key(legal[index])


def _rewards(game: Game, st: State) -> list[float]:
    """Each player's reward for an ended game: the share of the win, or in a solo game with
    declared returns the return scaled to [0, 1] (see the module's docstring)."""
    program = game.program
    if program.players == 1 and declares_returns(program):
        low, high = _return_bounds(program)
        value = sum(float(evaluate_manifest(program, VALUE, st, seat)) for seat in program.seats_of(0))
        return [min(1.0, max(0.0, (value - low) / (high - low))) if high > low else 0.5]
    return _win_shares(game, st)


_BOUNDS: dict[int, tuple[Program, float, float]] = {}


def _return_bounds(program: Program) -> tuple[float, float]:
    """The declared `min` and `max` of the returns (evaluated on an empty state, as OpenSpiel's
    adapter does: they may use constants and options only), once per program."""
    known = _BOUNDS.get(id(program))
    if known is None or known[0] is not program:
        known = (program, float(evaluate_manifest(program, ("returns", "min"), State())),
                 float(evaluate_manifest(program, ("returns", "max"), State())))
        _BOUNDS[id(program)] = known
    return known[1], known[2]


def _win_shares(game: Game, st: State) -> list[float]:
    """Each player's share of the win of an ended game."""
    shares = [0.0] * game.program.players
    outcome = game.outcome(st)
    if outcome is not None and outcome.winners:
        for winner in outcome.winners:
            shares[winner] = 1.0 / len(outcome.winners)
    return shares
