"""The figures of a simulation, from per-game records: Wilson intervals, quantiles, win shares,
components played (counted from move events), game seeds, and the comparison's tests.

Expected values are worked out by hand (formulas in the comments), never copied from the code."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from snowrules.compile.apply import tally_moves
from snowrules.model.layout import Layout, ZoneFamily
from snowrules.play.batch import GameSpec, PlayTracker, game_seed, play_batch
from snowrules.play.statistics import Tally, distribution, quantile, summarize, wilson
from snowrules.records.game_table import GameRecord

# --- Wilson interval ----------------------------------------------------------------------------
# p = s/n, z = 1.959964; centre = (p + z²/2n) / (1 + z²/n); half = z sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)


@pytest.mark.parametrize("successes, total, low, high", [
    (5, 10, 0.2366, 0.7634),     # centre 0.5, half 1.96 * 0.18602 / 1.38415 = 0.26342
    (0, 20, 0.0, 0.1611),        # high = (z²/n) / (1 + z²/n) = 0.19207 / 1.19207
    (20, 20, 0.8389, 1.0),       # the mirror image of 0 of 20
    (1, 4, 0.0456, 0.6994),      # p = .25: centre .73018/1.96037 = .3725, half .3269
])
def test_wilson_interval(successes, total, low, high):
    rate = wilson(successes, total)
    assert rate.value == pytest.approx(successes / total)
    assert rate.low == pytest.approx(low, abs=5e-5)
    assert rate.high == pytest.approx(high, abs=5e-5)


def test_wilson_of_no_games_is_the_whole_range():
    rate = wilson(0, 0)
    assert (rate.low, rate.high) == (0.0, 1.0)


# --- quantiles and spread -----------------------------------------------------------------------


@pytest.mark.parametrize("values, q, expected", [
    ([1, 2, 3, 4], 0.25, 1.75),     # position (4-1) * .25 = .75: 1 + .75 * (2 - 1)
    ([1, 2, 3, 4], 0.5, 2.5),
    ([1, 2, 3, 4], 0.9, 3.7),       # position 2.7: 3 + .7
    ([7], 0.1, 7),
    ([10, 20], 1.0, 20),
])
def test_quantile_interpolates_between_ranks(values, q, expected):
    assert quantile(values, q) == pytest.approx(expected)


def test_distribution_has_the_sample_spread():
    d = distribution([2, 4, 4, 4, 5, 5, 7, 9])  # mean 5; squares 9+1+1+1+0+0+4+16 = 32; sd sqrt(32/7)
    assert (d.mean, d.minimum, d.median, d.maximum) == (5, 2, 4.5, 9)
    assert d.sd == pytest.approx(math.sqrt(32 / 7))


# --- a summary of hand-made games ---------------------------------------------------------------

GAMES = [
    GameRecord(0, 11, (10, 4), (0,), 5, (("x", 0, 2), ("y", 1, 1)), ("x", "y", "z")),
    GameRecord(1, 12, (3, 9), (1,), 7, (("x", 1, 1),), ("x", "y", "z")),
    GameRecord(2, 13, (6, 6), (0, 1), 6, (), ("x", "z")),
    GameRecord(3, 14, (8, 2), (0,), 4, (("x", 0, 1), ("x", 1, 3)), ("x",)),
]


def test_summary_of_four_games():
    s = summarize(GAMES, 2)
    # player 1 wins games 0 and 3 and shares game 2: 1 + 0 + 1/2 + 1 = 2.5 of 4
    assert s.per_player[0].win_rate.value == 0.625 and s.per_player[1].win_rate.value == 0.375
    assert s.per_player[0].score.mean == pytest.approx((10 + 3 + 6 + 8) / 4)
    assert s.length.mean == pytest.approx(5.5) and s.length.median == pytest.approx(5.5)
    assert s.shared_wins.value == 0.25
    x, y, z = s.components
    assert (x.name, y.name, z.name) == ("x", "y", "z")
    assert x.games_played.value == 0.75                   # games 0, 1 and 3
    assert x.plays_per_game == pytest.approx((2 + 1 + 0 + 4) / 4)
    # players who played x: game 0 player 1 (won), game 1 player 2 (won), game 3 players 1 (won) and 2
    assert x.win_rate_when_played.value == pytest.approx(3 / 4)
    assert y.win_rate_when_played.value == 0.0            # game 0's player 2 played it and lost
    assert z.plays_per_game == 0 and z.win_rate_when_played is None
    assert s.never_played == ["z"]


# --- what counts as played ----------------------------------------------------------------------


def _tracker() -> PlayTracker:
    return PlayTracker(SimpleNamespace(layout=_tracker_layout(), controller=lambda seat: seat, players=2))


def _tracker_layout() -> Layout:
    layout = Layout(2, ["a", "b"])
    for family in (ZoneFamily("box", False, None, "public"), ZoneFamily("hand", True, None, "hidden"),
                   ZoneFamily("aside", True, None, "hidden"), ZoneFamily("bid", True, None, "secret"),
                   ZoneFamily("shown", True, None, "public"), ZoneFamily("deck", False, None, "secret"),
                   ZoneFamily("table", False, None, "public")):
        layout.add_zone(family)
    layout.component_names = ["a k", "b k", "q"]
    layout.fields = {"owner": [0, 1, None]}
    return layout


@pytest.mark.parametrize("source, dest, what, played, held", [
    ("a.hand", "table", ["a k"], [("k", 0, 1)], []),           # from a hand to a public zone
    ("a.hand", "table", ["q", "b k", "a k"], [("k", 0, 2), ("q", 0, 1)], []),  # two copies of k: one entry
    ("b.hand", "b.shown", ["q", "b k"], [("k", 1, 1), ("q", 1, 1)], []),  # to the player's own public zone
    ("a.hand", "a.bid", ["q"], [("q", 0, 1)], []),             # face down in front of the same seat
    ("a.hand", "b.bid", ["q"], [], []),                        # face down in front of another seat
    ("a.hand", "a.aside", ["q"], [], ["q"]),                   # to another hidden zone of the seat
    ("a.aside", "deck", ["q"], [], []),                        # gathered back into a shared face-down deck
    ("table", "a.shown", ["q"], [], []),                       # not from a hand
    ("deck", "b.hand", ["q", "b k"], [], ["k", "q"]),           # dealt: held, not played
])
def test_what_counts_as_played(source, dest, what, played, held):
    tracker = _tracker()
    layout = _tracker_layout()
    zones = {zone.label(layout.seat_names): index for index, zone in enumerate(layout.zones)}
    components = [layout.component_names.index(name) for name in what]
    tally_moves(SimpleNamespace(tally=tracker.tally), components, zones[source], zones[dest])
    plays, holds = tracker.take()
    assert list(plays) == played and list(holds) == held
    assert tracker.take() == ((), ())  # ready for the next game


# --- plays in real games (each rule cited) ------------------------------------------------------


def test_goofspiel_bids_every_card_of_the_hand_once():
    # [Goofspiel] each player bids one card of the hand per prize; with 4 cards, 4 prizes.
    spec = GameSpec("goofspiel", None, 3, ("random",) * 3, (("num_cards", 4),))
    for record in play_batch(spec, 0, range(3)):
        assert record.plays == tuple((f"bid {v}", p, 1) for v in range(1, 5) for p in range(3))
        assert record.held == ("bid 1", "bid 2", "bid 3", "bid 4")   # the prize cards are never in a hand


def test_oh_hell_players_play_one_card_per_trick():
    spec = GameSpec("oh_hell", None, 4, ("random",) * 4, (("num_tricks_fixed", 3),))
    for record in play_batch(spec, 2, range(3)):
        per_player = [sum(t for _, p, t in record.plays if p == player) for player in range(4)]
        assert per_player == [3, 3, 3, 3]


def test_snow_time_single_use_specials_are_played_at_most_once():
    # [Special Cards] the Watcher and the Snowstorm are single use: at most one play per player.
    spec = GameSpec("snow_time", None, 3, ("random",) * 3)
    for record in play_batch(spec, 1, range(5)):
        for name, _, times in record.plays:
            if name in ("Watcher", "Snowstorm"):
                assert times == 1
        assert set(record.held) == {"1", "2", "3", "4", "5", "6", "7", "Healer", "Watcher", "Snowstorm"}


def test_tracking_off_gives_the_same_games_without_plays():
    on = play_batch(GameSpec("snow_time", None, 2, ("random",) * 2), 4, [0, 1])
    off = play_batch(GameSpec("snow_time", None, 2, ("random",) * 2, track_components=False), 4, [0, 1])
    assert [(r.seed, r.scores, r.winners, r.turns) for r in on] == [(r.seed, r.scores, r.winners, r.turns) for r in off]
    assert all(r.plays == () and r.held == () for r in off)


# --- seeds --------------------------------------------------------------------------------------


def test_game_seeds_depend_on_the_master_seed_and_index_only():
    seeds = [game_seed(0, i) for i in range(1000)]
    assert len(set(seeds)) == 1000 and all(0 <= s < 2 ** 32 for s in seeds)
    # another master seed is another stream, not the same one shifted (seeds 0.. and 1.. overlapped)
    assert not set(seeds) & {game_seed(1, i) for i in range(1000)}
    spec = GameSpec("goofspiel", None, 2, ("random", "random"))
    assert play_batch(spec, 9, [5, 6]) == play_batch(spec, 9, [5]) + play_batch(spec, 9, [6])


# --- comparison ---------------------------------------------------------------------------------


def _games(turns: list[int], winners: list[tuple[int, ...]]) -> list[GameRecord]:
    return [GameRecord(i, 100 + i, (t, 0), w, t) for i, (t, w) in enumerate(zip(turns, winners))]


def test_a_paired_comparison_by_hand():
    from snowrules.play.comparison import compare
    base = _games([1, 2, 3, 4], [(0,), (1,), (0,), (1,)])
    other = _games([2, 3, 5, 6], [(0,), (1,), (0,), (1,)])
    result = compare(base, other, 2, 2)
    assert result.paired and result.games == 4
    turns = next(f for f in result.figures if f.figure == "mean turns")
    # differences 1, 1, 2, 2: mean 1.5, sd sqrt(1/3), se .288675, t = 5.196 with 3 degrees of freedom.
    # t's CDF for 3 df: 1/2 + (u/(1+u²) + atan u)/pi with u = t/sqrt 3 = 3: (.3 + atan 3)/pi, p = 2 (1 - F) = .0138468;
    # the interval: 1.5 -+ 3.182446 (t's 97.5% quantile, 3 df) * .288675.
    assert (turns.base, turns.other, turns.difference) == (2.5, 4.0, 1.5)
    assert turns.p_value == pytest.approx(0.0138468, abs=1e-7)
    assert (turns.low, turns.high) == (pytest.approx(0.58130, abs=1e-5), pytest.approx(2.41870, abs=1e-5))
    assert turns.test == "paired t"
    wins = next(f for f in result.figures if f.figure == "player 1 win rate")
    assert (wins.difference, wins.p_value, wins.low, wins.high) == (0, 1.0, 0, 0)   # the same winners
    assert not wins.significant


def test_sides_with_other_player_counts_are_unpaired():
    from snowrules.play.comparison import compare
    base = _games([1, 2, 3, 4], [(0,), (1,), (0,), (1,)])
    other = [GameRecord(i, 100 + i, (0, 0, 0), (2,), 3) for i in range(4)]
    result = compare(base, other, 2, 3)
    assert not result.paired
    assert {f.test for f in result.figures if f.figure.endswith("win rate")} == {"Welch t"}
    assert len([f for f in result.figures if f.figure.endswith("win rate")]) == 2   # players both sides have


def test_a_comparison_of_one_game_has_no_p_values():
    from snowrules.play.comparison import compare
    base = _games([3], [(0,)])
    other = _games([5], [(1,)])
    result = compare(base, other, 2, 2)
    turns = next(f for f in result.figures if f.figure == "mean turns")
    assert turns.difference == 2 and turns.low == turns.high == 2   # one pair: the difference is exact
    wins = next(f for f in result.figures if f.figure == "player 1 win rate")
    assert wins.difference == -1


@pytest.mark.parametrize("weights, sd, median", [
    ([1, 1, 1], 1.0, 2.0),                     # 1, 2, 3
    ([2, 0, 2], math.sqrt(4 / 3), 2.0),        # 1, 1, 3, 3: mean 2, squares 4, over n - 1 = 3
    ([3, 1, 0], 0.5, 1.0),                     # 1, 1, 1, 2: mean 1.25, squares .75 / 3
    ([0, 0, 5], 0.0, 3.0),
])
def test_a_resample_as_counts_of_distinct_values(weights, sd, median):
    import numpy as np
    from snowrules.play.comparison import _weighted
    values, drawn = np.array([1.0, 2.0, 3.0]), np.array([weights])
    assert _weighted(values, drawn, "sd")[0] == pytest.approx(sd)
    assert _weighted(values, drawn, "median")[0] == pytest.approx(median)


def test_a_tally_gives_the_same_figures_whatever_the_order_and_the_batches():
    """simulate adds each batch of games to a Tally as it arrives (workers finish in any order):
    the figures are those of the whole list at once, exactly, shared wins included (sums of
    1/k are kept exact, so no float rounding depends on the order)."""
    games = [GameRecord(i, 100 + i, (i % 5, (i * 3) % 7, 2), tuple(range(i % 3 + 1)), 4 + i % 9,
                        (("x", i % 3, 1),) if i % 2 else (("y", 0, 2), ("x", 1, 1)), ("x", "y"))
             for i in range(60)]
    whole = summarize(games, 3)
    shuffled = games[::-1][7:] + games[::-1][:7]
    tally = Tally(3)
    for start in range(0, 60, 13):
        tally.add(shuffled[start:start + 13])
    assert tally.summary() == whole
    # player 1 wins alone in games i % 3 == 0, shares with player 2 when i % 3 == 1 and with both
    # others when i % 3 == 2: 20 + 20/2 + 20/3 of 60 games
    assert whole.per_player[0].win_rate.count == 20 + 10 + 20 / 3
