"""Searching one decision in several processes (root parallelisation).

A search agent asked for `workers=K` runs K independent searches of the same decision, each
from its own seed and with its share of the iterations, and adds up what they found. Each search
depends only on its seed, its share and the decision, so the answer is the same whether the K
searches run in K processes or one after the other in this one: a game is reproduced by its seed
and K on any machine, with or without processes to spare (Chaslot, Winands and van den Herik,
"Parallel Monte-Carlo Tree Search", 2008, call this root parallelisation).

The processes are forked, so that they start with the compiled game already in memory (a
compiled program is generated code and does not travel between processes; a state does, as plain
data). Where there is no fork (Windows), or inside a process that may not have children (a
worker of `simulate --workers`), the searches run here, one after the other.
"""
from __future__ import annotations

import multiprocessing
import random
import signal
import weakref
from collections.abc import Callable
from typing import Any

from snowrules.model.state import State
from snowrules.play.determinize import determinize
from snowrules.runtime.engine import Game

# The games that forked workers may search, by key: a worker finds there, by the key a sampler
# travels with, the game its parent had when it forked.
_GAMES: dict[int, Game] = {}


class WorldSampler:
    """`Observation.determinize` as a value that can be sent to a forked worker: the game (by its
    key), a copy of the state waiting at the decision, and the deciding player. Calling it with a
    generator gives a sampled world, exactly as the observation would (determinize.py)."""

    __slots__ = ("game", "state", "player")

    def __init__(self, game: Game, state: State, player: int):
        self.game, self.state, self.player = game, state, player

    def __call__(self, rng: random.Random) -> State:
        return determinize(self.game, self.state, self.player, rng)

    def __reduce__(self) -> tuple:
        return _sampler_in_worker, (id(self.game), self.state, self.player)


def _sampler_in_worker(key: int, state: State, player: int) -> WorldSampler:
    return WorldSampler(_GAMES[key], state, player)


def shares(iterations: int, workers: int) -> list[int]:
    """Each of `workers` searches' iterations: `iterations` split as evenly as can be, the first
    searches taking one more when it does not divide (10 over 4: 3, 3, 2, 2); a search with no
    iteration is left out."""
    base, extra = divmod(iterations, workers)
    return [n for n in (base + (1 if w < extra else 0) for w in range(workers)) if n]


def can_fork() -> bool:
    """Whether this process may fork searching workers: the system forks, and this process is not
    itself a pool's worker (which may not have children)."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon


def _quiet() -> None:
    """Workers leave Ctrl-C to the main process, which stops them (no traceback from each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class SearchPool:
    """Up to `workers` forked processes that run searches of one game's decisions; see the module's
    docstring for when it runs them here instead. `close` (or the pool's owner being collected)
    ends the processes."""

    def __init__(self, game: Game, workers: int):
        self.game = game
        self._pool = None
        if workers > 1 and can_fork():
            _GAMES[id(game)] = game  # before the fork, so that the workers have it
            # a worker that dies (killed for its memory) is an error, not a search waited for ever
            from snowrules.play.workers import Workers
            self._pool = Workers(workers, initializer=_quiet, method="fork")
            self._closer = weakref.finalize(self, _close, self._pool, id(game))

    @property
    def forked(self) -> bool:
        """Whether the searches run in other processes (False: one after the other, here)."""
        return self._pool is not None

    def map(self, search: Callable[[Any], Any], tasks: list) -> list:
        """`search` of each task, in the tasks' order. `search` must be a module-level function
        (it is sent to the workers by name)."""
        if self._pool is None or len(tasks) < 2:
            return [search(task) for task in tasks]
        return self._pool.map(search, tasks)

    def close(self) -> None:
        if self._pool is not None:
            self._closer()
            self._pool = None


def _close(pool, key: int) -> None:
    pool.close()
    _GAMES.pop(key, None)
