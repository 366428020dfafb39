"""Figures of a simulation: pure functions from per-game records to typed summaries.

Nothing here plays a game or prints: the runners give `GameRecord`s, the command line and the
report show the `Summary`. Win rates count a shared victory as a fraction (two winners get 1/2
each), so the rates of all players add up to the share of games that have a winner. Intervals are
95% Wilson score intervals, which stay inside 0..1 and behave at rates near 0 or 1 and for few
games, where the textbook p +- 1.96 sd does not.
"""
from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

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


def distribution(values: Iterable[float]) -> Distribution:
    return counted_distribution(Counter(values))


def counted_distribution(counts: Mapping[float, int]) -> Distribution:
    """The distribution of values given as value -> how many times. Sums are exact (fractions),
    then rounded once: the same figures as math.fsum over every value, in time that grows with the
    number of different values, not of games (a run of a million games is summed at once when
    Ctrl-C stops it)."""
    n = sum(counts.values())
    if not n:
        return Distribution(*[math.nan] * 9)
    values = sorted(counts)
    mean = float(sum(Fraction(float(v)) * counts[v] for v in values)) / n
    sd = math.sqrt(float(sum(Fraction((v - mean) ** 2) * counts[v] for v in values)) / (n - 1)) if n > 1 else 0.0
    ordered = _Ranks(values, list(itertools.accumulate(counts[v] for v in values)))
    return Distribution(mean, sd, values[0], quantile(ordered, 0.1), quantile(ordered, 0.25),
                        quantile(ordered, 0.5), quantile(ordered, 0.75), quantile(ordered, 0.9), values[-1])


class _Ranks(Sequence):
    """Counted values read as the sorted list of every value, without making it."""

    def __init__(self, values: list[float], ends: list[int]):
        self.values = values
        self.ends = ends  # ends[i]: how many values are <= values[i]

    def __len__(self) -> int:
        return self.ends[-1]

    def __getitem__(self, rank):
        return self.values[bisect.bisect_right(self.ends, rank)]


def plays_of(record: GameRecord) -> dict[str, dict[int, int]]:
    """component name -> player -> times played, for one game."""
    found: dict[str, dict[int, int]] = {}
    for name, player, times in record.plays:
        found.setdefault(name, {})[player] = times
    return found


class Tally:
    """Running totals of a simulation's figures. Games are added as they finish, in any order (a
    worker's batch, a cluster's), and `summary()` reads every figure at any moment in time that
    grows with the number of different values, not of games: Ctrl-C after a million games prints
    its summary at once. Sums are kept exact (whole numbers of games by their number of winners),
    so the order in which games arrive never changes a figure."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.scores = [Counter() for _ in range(players)]
        self.returns: list[Counter] | None = [Counter() for _ in range(players)]  # None: a game without returns
        self.wins = [Counter() for _ in range(players)]      # number of winners -> games the player won among them
        self.turns: Counter[int] = Counter()
        self.shared = 0                                      # games with several winners
        self.held: set[str] = set()
        self.games_with: Counter[str] = Counter()            # component -> games in which someone played it
        self.plays: Counter[str] = Counter()                 # component -> times played
        self.played_by: Counter[str] = Counter()             # component -> (game, player) pairs that played it
        self.won_when_played: dict[str, Counter] = {}        # component -> number of winners -> such pairs that won
        self.margins: Counter = Counter()
        self.measured = 0                                    # games whose metrics were measured
        self.decisions: Counter[int] = Counter()
        self.decisions_by = [0] * players
        self.options: Counter[int] = Counter()
        self.lead_changes: Counter[int] = Counter()
        self.winner_known: Counter = Counter()

    def add(self, records: Iterable[GameRecord]) -> Tally:
        for record in records:
            self._add(record)
        return self

    def _add(self, record: GameRecord) -> None:
        self.games += 1
        winners = record.winners
        for player, score in enumerate(record.scores):
            self.scores[player][score] += 1
        if record.returns is None:
            self.returns = None
        elif self.returns is not None:
            for player, value in enumerate(record.returns):
                self.returns[player][value] += 1
        for player in winners:
            self.wins[player][len(winners)] += 1
        self.turns[record.turns] += 1
        self.shared += len(winners) > 1
        self.held.update(record.held)
        for name, by_player in plays_of(record).items():
            self.games_with[name] += 1
            self.plays[name] += sum(by_player.values())
            self.played_by[name] += len(by_player)
            won = self.won_when_played.setdefault(name, Counter())
            for player in by_player:
                if player in winners:
                    won[len(winners)] += 1
        if (edge := margin(record)) is not None:
            self.margins[edge] += 1
        if (metrics := record.metrics) is not None:
            self.measured += 1
            self.decisions[sum(metrics.decisions)] += 1
            for player, decisions in enumerate(metrics.decisions):
                self.decisions_by[player] += decisions
            for options, times in metrics.options:
                self.options[options] += times
            self.lead_changes[metrics.lead_changes] += 1
            if metrics.winner_known is not None:
                self.winner_known[metrics.winner_known] += 1

    def summary(self) -> Summary:
        n, players = self.games, self.players
        per_player = [PlayerFigures(p, wilson(_shares(self.wins[p]), n), counted_distribution(self.scores[p]),
                                    counted_distribution(self.returns[p]) if self.returns is not None and n else None)
                      for p in range(players)]
        components = [ComponentFigures(name, wilson(self.games_with[name], n), self.plays[name] / n if n else 0.0,
                                       wilson(_shares(self.won_when_played[name]), self.played_by[name])
                                       if self.played_by[name] else None)
                      for name in sorted(self.held | set(self.games_with))]
        never = [c.name for c in components if c.plays_per_game == 0]
        return Summary(n, players, per_player, counted_distribution(self.turns), wilson(self.shared, n), components,
                       never, self._metric_figures(per_player[0].win_rate if per_player else None))

    def _metric_figures(self, first: Rate | None) -> MetricFigures:
        """The metrics of docs/metrics.md: the measured ones only when every game was measured."""
        players = self.players
        margins = counted_distribution(self.margins) if self.margins else None
        edge = None
        if first is not None and players > 1:
            edge = (first.value - 1 / players, first.low - 1 / players, first.high - 1 / players)
        n = self.measured
        if not self.games or n < self.games:
            return MetricFigures(None, None, None, None, None, None, 0, margins, edge)
        known = self.winner_known
        return MetricFigures(counted_distribution(self.decisions), [self.decisions_by[p] / n for p in range(players)],
                             counted_distribution(self.options) if self.options else None, sorted(self.options.items()),
                             counted_distribution(self.lead_changes),
                             counted_distribution(known) if known else None, sum(known.values()), margins, edge)


def summarize(records: Iterable[GameRecord], players: int) -> Summary:
    """Every figure of a simulation from its games (in any order)."""
    return Tally(players).add(records).summary()


def _shares(games_by_winners: Mapping[int, int]) -> float:
    """The sum of 1/k over games won among k winners: exact, then rounded once (as math.fsum)."""
    return float(sum(Fraction(1 / k) * games for k, games in games_by_winners.items()))


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
