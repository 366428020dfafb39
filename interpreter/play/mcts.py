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

Two settings change the search where asked (both off by default): `workers=K` runs K independent
searches of the decision, in K processes, and adds up their root statistics (parallel_search.py);
`widening=W` lets a node's options take part gradually as its visits grow (progressive
widening), for decisions with more options than the iterations can try several times each.
"""
from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from snowrules.model.program import TURNS, Program
from snowrules.model.rng import index_drawer
from snowrules.model.state import State
from snowrules.play.greedy import option_key, settle_chance
from snowrules.play.parallel_search import SearchPool, shares
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import VALUE, declares_returns, evaluate_manifest

if TYPE_CHECKING:
    from snowrules.play.agents import Observation

# The most searching processes one agent may ask for: more only queue for the same cores.
MAX_WORKERS = 64

# A seat's statistics of one option at a node: [visits, total reward, times available], and with
# progressive widening the option's place in the node's random order.
VISITS, REWARD, AVAILABLE, PRIORITY = 0, 1, 2, 3


class _Node:
    """The statistics of each seat deciding here, and the nodes after each set of answers."""

    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        self.stats: dict[int, dict] = {}
        self.children: dict[tuple, _Node] = {}


class MctsAgent:
    """ISMCTS with `iterations` sampled worlds per decision and UCB constant `exploration`, split
    over `workers` independent searches whose statistics are added up (parallel_search.py)."""

    name = "mcts"
    parameters = {"seed": (int, None), "iterations": (int, 1), "exploration": (float, 0.0),
                  "workers": (int, 1, MAX_WORKERS), "widening": (float, 0.0)}

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 0.7, workers: int = 1,
                 widening: float = 0.0):
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.exploration = exploration
        self.workers = workers
        self.widening = widening
        self._pool: SearchPool | None = None

    def choose(self, observation: Observation) -> int:
        options = observation.options
        if len(options) == 1:
            return 0
        seat = observation.seat
        if self.workers == 1:
            search = _Search(self.exploration, self.widening)
            table = search.root(observation.game, observation.determinize, seat, self._rng, self.iterations)
        else:
            # one seed per search, drawn whatever the split, so that the next decision's seeds do
            # not depend on how many searches had iterations to run
            seeds = [self._rng.getrandbits(64) for _ in range(self.workers)]
            sampler = observation.sampler()
            tasks = [(sampler, seat, seed, share, self.exploration, self.widening)
                     for seed, share in zip(seeds, shares(self.iterations, self.workers))]
            table = summed(self._pool_for(observation.game).map(searched, tasks))
        empty = [0, 0.0, 0]

        def rank(index: int) -> tuple:
            entry = table.get(option_key(options[index]), empty)
            return entry[VISITS], entry[REWARD] / entry[VISITS] if entry[VISITS] else 0.0, -index
        return max(range(len(options)), key=rank)

    def _pool_for(self, game: Game) -> SearchPool:
        """The agent's pool of searching processes, forked for `game` at its first decision (and
        again if the agent goes on to play another game)."""
        if self._pool is None or self._pool.game is not game:
            if self._pool is not None:
                self._pool.close()
            self._pool = SearchPool(game, self.workers)
        return self._pool

    def close(self) -> None:
        """End the agent's searching processes (they end anyway when the agent is collected)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def searched(task: tuple) -> dict:
    """One search of a parallel `choose` (sent to a worker): the root statistics of the deciding
    seat after `share` iterations from the generator seeded `seed`."""
    sampler, seat, seed, share, exploration, widening = task
    return _Search(exploration, widening).root(sampler.game, sampler, seat, random.Random(seed), share)


def summed(tables: list[dict]) -> dict:
    """The root statistics of several searches added up, option by option, in the searches' order
    (floating-point sums in a fixed order: the same total on every run)."""
    total: dict = {}
    for table in tables:
        for key, found in table.items():
            entry = total.get(key)
            if entry is None:
                total[key] = found[:PRIORITY]
            else:
                entry[VISITS] += found[VISITS]
                entry[REWARD] += found[REWARD]
                entry[AVAILABLE] += found[AVAILABLE]
    return total


class _Search:
    """One search of one decision: the tree walk, UCB selection and random playouts."""

    __slots__ = ("exploration", "widening", "_select")

    def __init__(self, exploration: float, widening: float = 0.0):
        self.exploration = exploration
        self.widening = widening
        self._select = self._select_widened if widening else self._select_all

    def root(self, game: Game, sample: Callable[[random.Random], State], seat: int, rng: random.Random,
             iterations: int) -> dict:
        """The deciding seat's statistics at the root (option key -> [visits, reward, available])
        after `iterations` sampled worlds from `sample`."""
        root = _Node()
        for _ in range(iterations):
            world = sample(rng)
            decision = game.decision(world)
            if decision is not None and seat in decision.seats:
                self._iterate(game, root, world, rng)
        return root.stats.get(seat, {})

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

    def _select_all(self, table: dict, keys: list, rng: random.Random) -> int:
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

    def _select_widened(self, table: dict, keys: list, rng: random.Random) -> int:
        """Progressive widening (Coulom, 2007; Chaslot et al., 2008): of the options offered
        here, only the ceil(widening * sqrt(n + 1)) first in the node's own random order take part,
        n being the visits of this seat here so far; among them, as `_select_all`. Where there are
        many options (every spot of a large grid) and few iterations, the search then values a
        few options by several playouts each, instead of each option by one."""
        offered, visits_here = [], 0
        for index, key in enumerate(keys):
            entry = table.get(key)
            if entry is None:
                entry = table[key] = [0, 0.0, 0, rng.random()]
            entry[AVAILABLE] += 1
            visits_here += entry[VISITS]
            offered.append((entry[PRIORITY], index))
        limit = math.ceil(self.widening * math.sqrt(visits_here + 1))
        taking = sorted(index for _, index in heapq.nsmallest(limit, offered)) if limit < len(offered) \
            else range(len(keys))
        untried = [index for index in taking if table[keys[index]][VISITS] == 0]
        if untried:
            return untried[int(rng.random() * len(untried))]
        c = self.exploration
        best, best_index = -math.inf, 0
        for index in taking:
            visits, total, available = table[keys[index]][:PRIORITY]
            score = total / visits + c * math.sqrt(math.log(available) / visits)
            if score > best:
                best, best_index = score, index
        return best_index

    @staticmethod
    def _playout(game: Game, st: State, rng: random.Random) -> None:
        """Uniformly random answers for every seat until the game ends. The playout goes on as
        generated functions from the decision it starts at (Game.play_rest_through), with the
        same draws from `rng`, when the program can; else the answers are given from inside the
        run, as `play` does, which spares a stop and a restart at every decision, and the playout
        goes on as generated functions at the end of the turn it is in, when it can then."""
        drawer = index_drawer(rng.random)

        def decide(state: State):
            decision = game.decision(state)
            return game.take(state, [drawer(state, len(options)) for options in decision.options])
        draws = [drawer] * game.layout.seats
        handing_over = True  # until the program is found unable to go on as generated functions
        while True:
            settle_chance(game, st, rng)
            decision = game.decision(st)
            if decision is None or game.play_rest_through(st, decide, draws):
                return
            frames = st.frames
            if handing_over and len(frames) == 2 and game.program.blocks[frames[1].block].kind == TURNS:
                st.pause_after_turn = frames[1].index  # in a turn of the main turns loop: pause at its end
            st.decide = decide
            try:
                game.answer(st, [drawer(st, len(options)) for options in decision.options])
                if st.paused:
                    if game.play_rest_through(st, decide, draws):
                        return
                    handing_over = st.paused = False
                    game.go_on(st)
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
