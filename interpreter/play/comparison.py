"""Two simulations side by side: each figure's difference with its 95% interval and p-value.

Both sides play the same game seeds (game i of each side has the same seed), so when they have the
same number of players the games are *paired*: game i of the base and game i of the variant
start from the same shuffle and the same agents' random numbers, as far as the two rulesets draw
them alike. A paired test removes the luck the two games share, so it detects smaller effects than
comparing two independent samples; it is still valid when the variant draws differently (the pairs
are then merely uncorrelated). With different player counts the sides are compared as independent
samples (Welch's t-test), and per-player figures only for the players both sides have.

Which test for which figure:
- means and rates (win rate, mean score, mean length, shared wins, plays per game): paired t-test
  on the per-game values, or Welch's t-test when unpaired; its interval is the t interval of the
  difference;
- spread (standard deviation): Levene's test (Brown-Forsythe, around the median) for the p-value,
  a bootstrap (1000 resamples of the games or of the pairs, fixed seed) for the interval;
- medians: Mood's median test for the p-value, the same bootstrap for the interval;
- win rate of those who played a component: Welch's t-test on won/lost of each such player.
A figure is marked significant when its p-value, adjusted for the number of figures by the
Benjamini-Hochberg procedure (false discovery rate 5%), is below 0.05: with forty figures some raw
p-values fall below 0.05 by chance alone.

Needs scipy (the `stats` extra).
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace

from snowrules.play.statistics import Summary, plays_of, summarize
from snowrules.records.game_table import GameRecord

ALPHA = 0.05
BOOTSTRAP_RESAMPLES = 1000


@dataclass(frozen=True)
class Difference:
    section: str                 # players, length, shared wins, components
    figure: str                  # e.g. "player 1 win rate"
    base: float
    other: float
    difference: float            # other - base
    low: float | None            # 95% interval of the difference
    high: float | None
    p_value: float | None
    test: str                    # the test behind the p-value
    adjusted_p: float | None = None
    significant: bool = False


@dataclass(frozen=True)
class Comparison:
    games: int                   # games per side used for the comparison
    paired: bool
    base: Summary
    other: Summary
    figures: list[Difference]


def p_text(value: float | None) -> str:
    """A p-value as shown to a designer: one below the smallest float reads as such, not as 0."""
    if value is None:
        return "-"
    return "<1e-300" if value == 0 else f"{value:.3g}"


def _means(a: Sequence[float], b: Sequence[float], paired: bool) -> tuple[float, float, float | None, str]:
    """(low, high, p) of mean(b) - mean(a), and the test's name."""
    from scipy import stats
    test = "paired t" if paired else "Welch t"
    if paired:
        diffs = [y - x for x, y in zip(a, b)]
        if len(set(diffs)) <= 1:  # no variation: the difference is exact
            d = diffs[0] if diffs else 0.0
            return d, d, 1.0 if d == 0 else 0.0, test
        result = stats.ttest_rel(b, a)
    else:
        if len(set(a)) <= 1 and len(set(b)) <= 1:
            d = (b[0] if b else 0.0) - (a[0] if a else 0.0)
            return d, d, 1.0 if d == 0 else 0.0, test
        if len(a) < 2 or len(b) < 2:
            return math.nan, math.nan, None, test
        result = stats.ttest_ind(b, a, equal_var=False)
    interval = result.confidence_interval(1 - ALPHA)
    p = float(result.pvalue)
    return float(interval.low), float(interval.high), None if math.isnan(p) else p, test


def _bootstrap(a: Sequence[float], b: Sequence[float], paired: bool, figure: str) -> tuple[float, float]:
    """95% percentile interval of figure(b) - figure(a), figure "sd" or "median", over
    BOOTSTRAP_RESAMPLES resamples of the games (of the pairs when paired), with a fixed seed.

    Drawing n games with replacement is drawing multinomial counts of the distinct values (or
    distinct pairs) with their observed frequencies; scores and turns take few distinct values, so
    each resample costs the number of distinct values, not the number of games."""
    import numpy as np
    rng = np.random.default_rng(0)
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if paired:
        pairs, counts = np.unique(np.stack([x, y], axis=1), axis=0, return_counts=True)
        weights = rng.multinomial(len(x), counts / len(x), size=BOOTSTRAP_RESAMPLES)
        diffs = _weighted(pairs[:, 1], weights, figure) - _weighted(pairs[:, 0], weights, figure)
    else:
        sides = []
        for values in (x, y):
            distinct, counts = np.unique(values, return_counts=True)
            weights = rng.multinomial(len(values), counts / len(values), size=BOOTSTRAP_RESAMPLES)
            sides.append(_weighted(distinct, weights, figure))
        diffs = sides[1] - sides[0]
    low, high = np.percentile(diffs, [2.5, 97.5])
    return float(low), float(high)


def _weighted(values, weights, figure: str):
    """The figure of each resample (a row of `weights`: how many times each value was drawn)."""
    import numpy as np
    n = int(weights[0].sum())
    if figure == "sd":
        mean = weights @ values / n
        variance = (weights @ (values * values) - n * mean * mean) / max(n - 1, 1)
        return np.sqrt(np.maximum(variance, 0.0))
    order = np.argsort(values, kind="stable")
    ordered, cumulative = values[order], np.cumsum(weights[:, order], axis=1)
    # the median is the mean of the values of rank floor((n-1)/2) and ceil((n-1)/2), from 0
    low = (cumulative <= (n - 1) // 2).sum(axis=1)
    high = (cumulative <= n // 2).sum(axis=1)
    return (ordered[low] + ordered[high]) / 2


def _spread(a, b, paired) -> tuple[float, float, float | None, str]:
    from scipy import stats
    low, high = _bootstrap(a, b, paired, "sd")
    if len(set(a)) <= 1 and len(set(b)) <= 1:
        return low, high, None, "Levene"
    return low, high, float(stats.levene(a, b, center="median").pvalue), "Levene"


def _median(a, b, paired) -> tuple[float, float, float | None, str]:
    from scipy import stats
    low, high = _bootstrap(a, b, paired, "median")
    try:
        p = float(stats.median_test(a, b).pvalue)
    except ValueError:  # every value equal to the grand median: the test is undefined
        p = None
    return low, high, None if p is None or math.isnan(p) else p, "Mood median"


def _figure(section: str, name: str, base: float, other: float, tested) -> Difference:
    low, high, p, test = tested
    return Difference(section, name, base, other, other - base, low, high, p, test)


def _mark(figures: list[Difference]) -> list[Difference]:
    """Adjust the p-values for the number of figures (Benjamini-Hochberg) and mark significance."""
    from scipy import stats
    tested = [i for i, f in enumerate(figures) if f.p_value is not None]
    if not tested:
        return figures
    adjusted = stats.false_discovery_control([figures[i].p_value for i in tested])
    marked = list(figures)
    for i, q in zip(tested, adjusted):
        marked[i] = replace(figures[i], adjusted_p=float(q), significant=bool(q < ALPHA))
    return marked


def compare(base: Sequence[GameRecord], other: Sequence[GameRecord], base_players: int,
            other_players: int) -> Comparison:
    """Every figure of `summarize`, base against other, on the games both sides finished."""
    from snowrules.play.out_of_memory import room_for
    room_for("numpy", "scipy.stats")
    with warnings.catch_warnings():  # scipy warns about nearly constant samples; their p-values stand
        warnings.simplefilter("ignore", RuntimeWarning)
        return _compare(base, other, base_players, other_players)


def _compare(base: Sequence[GameRecord], other: Sequence[GameRecord], base_players: int,
             other_players: int) -> Comparison:
    common = sorted({r.index for r in base} & {r.index for r in other})
    by_index_a, by_index_b = {r.index: r for r in base}, {r.index: r for r in other}
    a = [by_index_a[i] for i in common]
    b = [by_index_b[i] for i in common]
    paired = base_players == other_players
    sa, sb = summarize(a, base_players), summarize(b, other_players)
    figures: list[Difference] = []
    for p in range(min(base_players, other_players)):
        wins_a, wins_b = [r.win_share(p) for r in a], [r.win_share(p) for r in b]
        scores_a, scores_b = [r.scores[p] for r in a], [r.scores[p] for r in b]
        pa, pb = sa.per_player[p], sb.per_player[p]
        who = f"player {p + 1}"
        figures.append(_figure("players", f"{who} win rate", pa.win_rate.value, pb.win_rate.value,
                               _means(wins_a, wins_b, paired)))
        figures.append(_figure("players", f"{who} mean score", pa.score.mean, pb.score.mean,
                               _means(scores_a, scores_b, paired)))
        figures.append(_figure("players", f"{who} score spread (sd)", pa.score.sd, pb.score.sd,
                               _spread(scores_a, scores_b, paired)))
        figures.append(_figure("players", f"{who} median score", pa.score.median, pb.score.median,
                               _median(scores_a, scores_b, paired)))
    turns_a, turns_b = [r.turns for r in a], [r.turns for r in b]
    figures.append(_figure("length", "mean turns", sa.length.mean, sb.length.mean, _means(turns_a, turns_b, paired)))
    figures.append(_figure("length", "turns spread (sd)", sa.length.sd, sb.length.sd,
                           _spread(turns_a, turns_b, paired)))
    figures.append(_figure("length", "median turns", sa.length.median, sb.length.median,
                           _median(turns_a, turns_b, paired)))
    shared_a, shared_b = [float(len(r.winners) > 1) for r in a], [float(len(r.winners) > 1) for r in b]
    figures.append(_figure("shared wins", "shared wins", sa.shared_wins.value, sb.shared_wins.value,
                           _means(shared_a, shared_b, paired)))
    figures += _metric_figures(a, b, base_players, other_players, paired)
    figures += _component_figures(a, b, sa, sb, paired)
    return Comparison(len(common), paired, sa, sb, _mark(figures))


def _metric_figures(a, b, players_a: int, players_b: int, paired: bool) -> list[Difference]:
    """The game metrics of docs/metrics.md that are measured per game, each as a mean per game;
    a figure undefined in some games (no sole winner) is compared on the games (the pairs) where
    both sides define it."""
    from snowrules.play.statistics import margin, options_mean

    def edge(players: int):
        return lambda r: r.win_share(0) - 1 / players if players > 1 else None

    measures = [("winning margin", margin, margin), ("first-player edge", edge(players_a), edge(players_b))]
    if all(r.metrics is not None for r in (*a, *b)):
        measures = [
            ("decisions per game", lambda r: sum(r.metrics.decisions), lambda r: sum(r.metrics.decisions)),
            ("options per decision (game mean)", options_mean, options_mean),
            ("lead changes per game", lambda r: r.metrics.lead_changes, lambda r: r.metrics.lead_changes),
            ("winner known (share of the game)", lambda r: r.metrics.winner_known,
             lambda r: r.metrics.winner_known),
        ] + measures
    figures = []
    for name, of_a, of_b in measures:
        xs, ys = [of_a(r) for r in a], [of_b(r) for r in b]
        if paired:
            kept = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
            xs, ys = [x for x, _ in kept], [y for _, y in kept]
        else:
            xs, ys = [x for x in xs if x is not None], [y for y in ys if y is not None]
        if not xs or not ys:
            continue
        figures.append(_figure("metrics", name, math.fsum(xs) / len(xs), math.fsum(ys) / len(ys),
                               _means(xs, ys, paired)))
    return figures


def _component_figures(a, b, sa: Summary, sb: Summary, paired: bool) -> list[Difference]:
    figures = []
    by_name_a = {c.name: c for c in sa.components}
    by_name_b = {c.name: c for c in sb.components}
    plays_a = [plays_of(r) for r in a]
    plays_b = [plays_of(r) for r in b]
    for name in sorted(set(by_name_a) & set(by_name_b)):
        ca, cb = by_name_a[name], by_name_b[name]
        per_game_a = [sum(p.get(name, {}).values()) for p in plays_a]
        per_game_b = [sum(p.get(name, {}).values()) for p in plays_b]
        figures.append(_figure("components", f"{name}: plays per game", ca.plays_per_game, cb.plays_per_game,
                               _means(per_game_a, per_game_b, paired)))
        if ca.win_rate_when_played is None or cb.win_rate_when_played is None:
            continue
        won_a = [r.win_share(player) for r, p in zip(a, plays_a) for player in p.get(name, {})]
        won_b = [r.win_share(player) for r, p in zip(b, plays_b) for player in p.get(name, {})]
        figures.append(_figure("components", f"{name}: win rate when played", ca.win_rate_when_played.value,
                               cb.win_rate_when_played.value, _means(won_a, won_b, False)))
    return figures
