"""`snowrules sweep`: the figures of a simulation at every value of one or two constants.

Every figure a sweep (and `tune`'s objective) reads is the mean of a per-game value over the games
where that value is defined: a player's win rate is the mean of their win share (1, 1/k of a
shared win, 0), the first-player edge the mean of player 1's win share minus 1/players, the
winning margin the mean over games with a sole winner, and so on (docs/sweep.md lists them). So one
table of per-game values gives every figure, its interval, and a bootstrap of any objective made
of them (play/tune.py). Intervals are 95%: Wilson's for rates (as `simulate`'s), for other means
mean +- 1.96 standard errors (the normal approximation: give a sweep tens of games per point).

Every point plays the same game seeds (the same master seed): the games of two points differ by
the constants only, as far as the rules draw alike, so the curve is smoother than the luck of
independent seeds would let it be (common random numbers), as `compare` pairs its two sides.
"""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from snowrules.load.overrides import Axis
from snowrules.play.batch import GameSpec, forget
from snowrules.play.simulate import simulate
from snowrules.play.statistics import Z95, margin, options_mean, wilson
from snowrules.records.game_table import GameRecord

PerGame = Callable[[GameRecord], "float | None"]


@dataclass(frozen=True)
class FigureDef:
    """A figure: its name (an objective's word), whether it is a rate (Wilson's interval), the value
    each game gives (None where undefined), and a shift of a rate (the first-player edge)."""

    name: str
    rate: bool
    per_game: PerGame
    shift: float = 0.0


@dataclass(frozen=True)
class Figure:
    value: float   # nan when no game defines it
    low: float
    high: float
    games: int     # games it is measured on


def figure_defs(players: int, measured: bool) -> list[FigureDef]:
    """The figures of a game of `players` players; `measured`: the games followed their events
    (the metrics of docs/metrics.md exist; not with --no-components)."""
    defs = [FigureDef("mean_turns", False, lambda r: r.turns)]
    if players > 1:
        defs.append(FigureDef("first_player_edge", True, lambda r: r.win_share(0), -1 / players))
        defs.append(FigureDef("shared_wins", True, lambda r: float(len(r.winners) > 1)))
        defs.append(FigureDef("winning_margin", False, margin))
    if measured:
        defs += [FigureDef("decisions_per_game", False, lambda r: sum(r.metrics.decisions)),
                 FigureDef("options_per_decision", False, options_mean),
                 FigureDef("lead_changes", False, lambda r: r.metrics.lead_changes),
                 FigureDef("winner_known", False, lambda r: r.metrics.winner_known)]
    for p in range(players):
        defs.append(FigureDef(f"player_{p + 1}_win_rate", True, lambda r, p=p: r.win_share(p)))
        defs.append(FigureDef(f"player_{p + 1}_mean_score", False, lambda r, p=p: r.scores[p]))
    return defs


def figure(definition: FigureDef, values: Sequence[float | None]) -> Figure:
    """The figure over the games' values (None: undefined in that game)."""
    kept = [v for v in values if v is not None]
    n = len(kept)
    if n == 0:
        return Figure(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(kept) / n
    if definition.rate:
        rate = wilson(math.fsum(kept), n)
        return Figure(mean + definition.shift, rate.low + definition.shift, rate.high + definition.shift, n)
    if n == 1:
        return Figure(mean, math.nan, math.nan, 1)
    sd = math.sqrt(max(0.0, math.fsum((v - mean) ** 2 for v in kept) / (n - 1)))
    half = Z95 * sd / math.sqrt(n)
    return Figure(mean, mean - half, mean + half, n)


def measure(records: Sequence[GameRecord], defs: Sequence[FigureDef]) -> dict[str, Figure]:
    return {d.name: figure(d, [d.per_game(r) for r in records]) for d in defs}


@dataclass(frozen=True)
class Point:
    values: tuple                  # one value per axis
    games: int                     # games finished at this point
    figures: dict[str, Figure]


@dataclass
class Sweep:
    axes: list[Axis]
    spec: GameSpec                 # the base game (without the axes' constants)
    games: int                     # asked for at each point
    seed: int
    points: list[Point]
    names: list[str]               # the figures, in order
    seconds: float
    interrupted: bool


def grid(axes: Sequence[Axis]) -> list[tuple]:
    """Every point: the first axis varies slowest."""
    return list(itertools.product(*(a.values for a in axes)))


def at_point(spec: GameSpec, axes: Sequence[Axis], values: tuple) -> GameSpec:
    return replace(spec, constants=tuple(zip((a.name for a in axes), values)))


def play_point(spec: GameSpec, games: int, seed: int, workers: int, cluster: str | None, progress: bool):
    """The simulation of one point; its compiled game is dropped afterwards (one per point)."""
    try:
        return simulate(spec, games, seed, workers, cluster, progress)
    finally:
        forget(spec)


def sweep(spec: GameSpec, axes: Sequence[Axis], games: int, seed: int, workers: int = 1,
          cluster: str | None = None, progress: bool = False,
          started: Callable[[tuple], None] | None = None) -> Sweep:
    """Simulate `games` games at every point of the axes' grid; Ctrl-C stops after the point being
    played (its finished games kept). `started` hears each point before it is played."""
    defs = figure_defs(spec.players, spec.track_components)
    points: list[Point] = []
    interrupted = False
    start = time.perf_counter()
    for values in grid(axes):
        if started is not None:
            started(values)
        run = play_point(at_point(spec, axes, values), games, seed, workers, cluster, progress)
        if run.records:
            points.append(Point(values, len(run.records), measure(run.records, defs)))
        if run.interrupted:
            interrupted = True
            break
    return Sweep(list(axes), spec, games, seed, points, [d.name for d in defs],
                 time.perf_counter() - start, interrupted)
