"""Figures of a simulation: pure functions from per-game records to typed summaries.

Nothing here plays a game or prints: the runners give `GameRecord`s, the command line and the
report show the `Summary`. Win rates count a shared victory as a fraction (two winners get 1/2
each), so the rates of all players add up to the share of games that have a winner. Intervals are
95% Wilson score intervals, which stay inside 0..1 and behave at rates near 0 or 1 and for few
games, where the textbook p +- 1.96 sd does not.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from snowrules.records.game_table import GameRecord

Z95 = 1.959963984540054  # the normal distribution's 97.5% quantile


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval."""

    value: float
    low: float
    high: float
    count: float      # successes (fractional for shared wins)
    total: int


@dataclass(frozen=True)
class Distribution:
    """Mean, spread (sample standard deviation) and quantiles of a number measured once per game."""

    mean: float
    sd: float
    minimum: float
    q10: float
    q25: float
    median: float
    q75: float
    q90: float
    maximum: float


@dataclass(frozen=True)
class PlayerFigures:
    player: int                # from 0
    win_rate: Rate
    score: Distribution
    returns: Distribution | None = None  # when the manifest declares returns


@dataclass(frozen=True)
class ComponentFigures:
    """How a component (by its definition's name) was used: in what share of the games some player
    played it, how many times per game, and how often the players who played it won."""

    name: str
    games_played: Rate                 # share of games in which anyone played it
    plays_per_game: float
    win_rate_when_played: Rate | None  # over (game, player) pairs where that player played it


@dataclass(frozen=True)
class MetricFigures:
    """The game metrics of docs/metrics.md over a simulation's games. The event-measured ones
    (decisions, options, lead changes, winner known) are None when the games were played without
    following their events (--no-components)."""

    decisions: Distribution | None             # decisions per game
    decisions_per_player: list[float] | None   # mean decisions per game of each player
    options: Distribution | None               # options per decision, over every decision
    options_counts: list[tuple[int, int]] | None  # (options, decisions with that many), over the games
    lead_changes: Distribution | None          # per game
    winner_known: Distribution | None          # per game with a sole winner who leads at the end
    winner_known_games: int                    # how many games winner_known is measured on
    margin: Distribution | None                # winner's score minus the best other score (sole winners)
    first_player_edge: tuple[float, float, float] | None  # player 1's win rate - 1/players, its interval


@dataclass(frozen=True)
class Summary:
    games: int
    players: int
    per_player: list[PlayerFigures]
    length: Distribution               # turns per game
    shared_wins: Rate                  # share of games won by several players together
    components: list[ComponentFigures]
    never_played: list[str]            # held in some hand, never played in any game
    metrics: MetricFigures | None = None


def wilson(successes: float, total: int, z: float = Z95) -> Rate:
    """The Wilson score interval of `successes` out of `total` (0..1 when there is no data)."""
    if total == 0:
        return Rate(0.0, 0.0, 1.0, successes, 0)
    p = successes / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return Rate(p, max(0.0, centre - half), min(1.0, centre + half), successes, total)


def quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's and R's default, type 7)."""
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def distribution(values: Sequence[float]) -> Distribution:
    if not values:
        return Distribution(*[math.nan] * 9)
    ordered = sorted(values)
    n = len(ordered)
    mean = math.fsum(ordered) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in ordered) / (n - 1)) if n > 1 else 0.0
    return Distribution(mean, sd, ordered[0], quantile(ordered, 0.1), quantile(ordered, 0.25),
                        quantile(ordered, 0.5), quantile(ordered, 0.75), quantile(ordered, 0.9), ordered[-1])


def plays_of(record: GameRecord) -> dict[str, dict[int, int]]:
    """component name -> player -> times played, for one game."""
    found: dict[str, dict[int, int]] = {}
    for name, player, times in record.plays:
        found.setdefault(name, {})[player] = times
    return found


def component_names(records: Sequence[GameRecord]) -> list[str]:
    """Every component name that was held or played in some game, sorted."""
    return sorted({n for r in records for n in r.held} | {n for r in records for n, _, _ in r.plays})


def component_figures(records: Sequence[GameRecord], plays_by_game: Sequence[dict], name: str) -> ComponentFigures:
    """The figures of one component; `plays_by_game` holds `plays_of` of each record."""
    games_with = 0
    plays = 0
    players_who_played = 0
    their_wins = 0.0
    for record, game_plays in zip(records, plays_by_game):
        by_player = game_plays.get(name, {})
        if by_player:
            games_with += 1
        plays += sum(by_player.values())
        for player in by_player:
            players_who_played += 1
            their_wins += record.win_share(player)
    n = len(records)
    return ComponentFigures(name, wilson(games_with, n), plays / n if n else 0.0,
                            wilson(their_wins, players_who_played) if players_who_played else None)


def summarize(records: Sequence[GameRecord], players: int) -> Summary:
    """Every figure of a simulation from its games (in any order)."""
    n = len(records)
    declared = bool(records) and all(r.returns is not None for r in records)
    per_player = [PlayerFigures(p, wilson(math.fsum(r.win_share(p) for r in records), n),
                                distribution([r.scores[p] for r in records]),
                                distribution([r.returns[p] for r in records]) if declared else None)
                  for p in range(players)]
    plays_by_game = [plays_of(r) for r in records]
    components = [component_figures(records, plays_by_game, name) for name in component_names(records)]
    never = [c.name for c in components if c.plays_per_game == 0]
    return Summary(n, players, per_player, distribution([r.turns for r in records]),
                   wilson(sum(1 for r in records if len(r.winners) > 1), n), components, never,
                   metric_figures(records, players, per_player[0].win_rate if per_player else None))


def margin(record: GameRecord) -> float | None:
    """The sole winner's final score minus the best final score of the others (None: no sole winner)."""
    if len(record.winners) != 1 or len(record.scores) < 2:
        return None
    winner = record.winners[0]
    return record.scores[winner] - max(s for p, s in enumerate(record.scores) if p != winner)


def options_mean(record: GameRecord) -> float | None:
    """The mean number of options of this game's decisions (None: it had none, or was not followed)."""
    if record.metrics is None or not record.metrics.options:
        return None
    return math.fsum(k * n for k, n in record.metrics.options) / sum(n for _, n in record.metrics.options)


def metric_figures(records: Sequence[GameRecord], players: int, first: Rate | None) -> MetricFigures:
    """The metrics of docs/metrics.md from the games' records."""
    margins = [m for m in map(margin, records) if m is not None]
    edge = None
    if first is not None and players > 1:
        edge = (first.value - 1 / players, first.low - 1 / players, first.high - 1 / players)
    measured = [r.metrics for r in records if r.metrics is not None]
    if not records or len(measured) < len(records):
        return MetricFigures(None, None, None, None, None, None, 0, distribution(margins) if margins else None, edge)
    counts: dict[int, int] = {}
    for m in measured:
        for k, times in m.options:
            counts[k] = counts.get(k, 0) + times
    every = [k for k in sorted(counts) for _ in range(counts[k])]
    known = [m.winner_known for m in measured if m.winner_known is not None]
    n = len(measured)
    return MetricFigures(distribution([sum(m.decisions) for m in measured]),
                         [math.fsum(m.decisions[p] for m in measured) / n for p in range(players)],
                         distribution(every) if every else None, sorted(counts.items()),
                         distribution([m.lead_changes for m in measured]),
                         distribution(known) if known else None, len(known),
                         distribution(margins) if margins else None, edge)
