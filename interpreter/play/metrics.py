"""Game metrics measured while a game is played: decisions, options per decision, the lead.

What is measured is read from the state at each decision the agents are asked (play/agents.py
`play(observe=...)`): each seat asked is one decision, with its number of options; the per-player
counter `score` gives the standings. Nothing is listened to: a game followed for its metrics
sends no event for each answer and each change of a score (an event would be a value made and
dispatched thousands of times a game, to be read once a decision).

The standings are sampled at checkpoints: checkpoint k (1..n for a game of n decisions) is the
standing when decision k+1 is answered, before its effects, and checkpoint n is the final score
(the game's outcome). docs/metrics.md defines each figure with its formula.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.play.statistics import MetricFigures
from snowrules.records.game_table import GameMetrics


def sole_leader(scores: Sequence[float]) -> int | None:
    """The one player with the highest score, or None when several share it (or in a solo game,
    which has no lead to take)."""
    if len(scores) < 2:
        return None
    best = max(scores)
    leaders = [p for p, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How many times the sole leader is a different player than the last sole leader before it
    (checkpoints with a tied lead are skipped: A, tie, A is no change; A, tie, B is one)."""
    changes, last = 0, None
    for leader in leaders:
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def winner_known(leaders: Sequence[int | None], winners: Sequence[int]) -> float | None:
    """k/n for the first checkpoint k from which the sole winner is the sole leader at every
    checkpoint to the end (n checkpoints); None without a sole winner, without checkpoints, or
    when the winner does not lead on score at the end."""
    if len(winners) != 1 or not leaders or leaders[-1] != winners[0]:
        return None
    k = len(leaders)
    while k > 1 and leaders[k - 2] == winners[0]:
        k -= 1
    return k / len(leaders)


class MetricsTracker:
    """Follows one game at a time; `take` gives its metrics and readies the tracker for the next."""

    def __init__(self, program: Program):
        layout = program.layout
        self._players = program.players
        self._controller = program.controller
        self._seats_of = [list(program.seats_of(p)) for p in range(program.players)]
        score = layout.counter_families.get("score")
        per_player = score is not None and score.per_player and not score.keys
        self._base = score.base if per_player else 0
        self._seats = layout.seats
        self._followed = layout.seats if per_player else 0  # no score counter: no standings to follow
        self._initial = score.initial if per_player else 0
        self._one_seat_each = all(len(seats) == 1 for seats in self._seats_of) and program.players == layout.seats
        self._player_of = [program.controller(seat) for seat in range(layout.seats)]
        # The game followed now; emptied in place by `_reset`, never replaced: each seat's drawer
        # (`drawer`) holds these lists.
        self._decisions = [0] * self._players
        self._options: list[int] = []  # the number of options of each decision asked, in order
        self._leaders: list[int | None] = []
        # the score counters at the last standing worked out, and its leader: most decisions
        # follow one that changed no score, and keep its leader
        self._last: list = [None, None]
        self._scores = [self._initial] * self._seats
        self._asking = [self.drawer(seat, _nothing_drawn) for seat in range(layout.seats)]

    def _reset(self) -> None:
        self._decisions[:] = [0] * self._players
        self._options.clear()
        self._leaders.clear()
        self._last[:] = [None, None]

    def _leader(self, counters: list[int]) -> int | None:
        """The sole leader on the state's score counters now (`sole_leader`, in place: it runs
        at every decision)."""
        if self._followed and self._one_seat_each:
            if self._players < 2:
                return None
            scores = counters[self._base:self._base + self._seats]
            best = max(scores)
            return scores.index(best) if scores.count(best) == 1 else None
        scores = counters[self._base:self._base + self._seats] if self._followed else self._scores
        if not self._one_seat_each:
            scores = [max(scores[s] for s in seats) for seats in self._seats_of]
        return sole_leader(scores)

    def asked(self, st: State, seat: int, options: int) -> None:
        """A seat is asked a decision of `options` options (the state before its answer): one
        decision, and the standing after the previous one (the state's score counters now)."""
        self._asking[seat](st, options)

    __call__ = asked  # the tracker is play()'s `observe`

    def drawer(self, seat: int, draw: Callable[[State, int], Any]) -> Callable[[State, int], Any]:
        """Seat `seat`'s drawer (rng.index_drawer) that notes each decision as `asked` says
        first: what play() gives a random agent's seat when this tracker observes the game
        (play/agents.py `observed_drawer`). The noting is written in the drawer, one call a
        decision where a call to `asked` and one to the draw would be two (a game of a few
        minutes asks about a hundred); `asked` itself is this with nothing drawn."""
        options, leaders, last, decisions = self._options, self._leaders, self._last, self._decisions
        remember, note = options.append, leaders.append
        base, end, player, leader = self._base, self._base + self._seats, self._player_of[seat], self._leader

        def asked_and_drawn(st: State, count: int) -> int:
            if options:
                counters = st.counters
                scores = counters[base:end]
                if scores != last[0]:
                    last[0], last[1] = scores, leader(counters)
                note(last[1])
            remember(count)
            decisions[player] += 1
            return draw(st, count)
        return asked_and_drawn

    def take(self, scores: Sequence[int], winners: Sequence[int]) -> GameMetrics:
        """This game's metrics, given its final scores and winners (players, from 0)."""
        leaders = self._leaders
        if self._options:
            leaders.append(sole_leader(scores))
        metrics = GameMetrics(tuple(self._decisions), tuple(sorted(Counter(self._options).items())),
                              lead_changes(leaders), winner_known(leaders, winners))
        self._reset()
        return metrics


def _nothing_drawn(st: State, count: int) -> None:
    return None


def _g(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def metric_rows(m: MetricFigures) -> list[tuple[str, str]]:
    """The game metrics as the terminal and the report show them: (name, value) rows."""
    rows = []
    if m.decisions is not None:
        per = ", ".join(_g(v) for v in m.decisions_per_player or [])
        rows.append(("decisions per game", f"mean {_g(m.decisions.mean)} (sd {_g(m.decisions.sd)}); per player {per}"))
    if m.options is not None:
        o = m.options
        rows.append(("options per decision", f"mean {_g(o.mean)}, median {_g(o.median)}, "
                                             f"10%-90% {_g(o.q10)}-{_g(o.q90)}, range {_g(o.minimum)}-{_g(o.maximum)}"))
    if m.lead_changes is not None:
        c = m.lead_changes
        rows.append(("lead changes per game", f"mean {_g(c.mean)}, median {_g(c.median)}, max {_g(c.maximum)}"))
    if m.winner_known is not None:
        k = m.winner_known
        rows.append(("winner leads for good after", f"{k.mean:.0%} of the game on average (median {k.median:.0%}; "
                                                    f"{m.winner_known_games} games)"))
    if m.margin is not None:
        rows.append(("winning margin", f"mean {_g(m.margin.mean)}, median {_g(m.margin.median)}, "
                                       f"range {_g(m.margin.minimum)}-{_g(m.margin.maximum)}"))
    if m.first_player_edge is not None:
        value, low, high = m.first_player_edge
        rows.append(("first-player edge", f"{value:+.3f} ({low:+.3f}..{high:+.3f}): player 1's win rate minus "
                                          "an even share"))
    return rows
