"""A tournament: several agents around the same table in every seating, on paired seeds, rated.

Which seatings: with at least as many agents as seats, every combination of that many agents;
with fewer agents than seats, every combination with repetition that holds at least two different
agents (a table of one agent says nothing about strength). Each combination is played in each of
its distinct seat rotations, so every agent of a line-up sits once in every seat. Every seating
plays the same games: game i of each seating has the seed `batch.game_seed(master, i)` and each
player's agent the seed `agents.agent_seed(game seed, player)`, as simulate's games do, so any
tournament game replays with `snowrules run RULESET --agents SEATING --seed SEED`.

The figures (docs/tournament.md defines each):
- ratings: Plackett-Luce ratings (openskill, the `tournament` extra), each game a ranking of its
  seats (the winners share the first place, the others the second), games taken in a fixed order
  (game 0 of every seating, then game 1, ...). An agent that holds several seats of one game gets
  the mean of its seats' updated ratings. The interval is mu +- 1.96 sigma;
- the win matrix: for agents a and b, over every game and every pair of seats held by a and b,
  1 when a's seat won and b's did not, 1/2 when both or neither did, 0 otherwise, averaged;
- the first-seat effect: an agent's win share in the first seat minus its win share in the other
  seats, with Newcombe's interval for a difference of two proportions (from Wilson intervals).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from snowrules.play.batch import GameSpec
from snowrules.play.statistics import Rate, wilson
from snowrules.records.game_table import GameRecord

Z95 = 1.959963984540054


class RatingsUnavailable(Exception):
    """openskill is not installed."""


def check_ratings_available() -> None:
    try:
        import openskill  # noqa: F401
    except ImportError:
        raise RatingsUnavailable("the tournament's ratings need openskill: pip install 'snowrules[tournament]'") \
            from None


def rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct seat rotations of a line-up, starting with the line-up itself."""
    found: list[tuple[str, ...]] = []
    for shift in range(len(lineup)):
        turned = tuple(lineup[shift:]) + tuple(lineup[:shift])
        if turned not in found:
            found.append(turned)
    return found


def seatings(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every seating of a tournament (see the module's docstring), in a fixed order."""
    if len(agents) >= players:
        lineups = list(itertools.combinations(agents, players))
    else:
        lineups = [c for c in itertools.combinations_with_replacement(agents, players) if len(set(c)) > 1]
    return [seating for lineup in lineups for seating in rotations(lineup)]


@dataclass(frozen=True)
class SeatingResult:
    agents: tuple[str, ...]            # one agent per player, in seat order
    records: list[GameRecord]          # sorted by game index
    wins: tuple[float, ...]            # win shares per seat, summed over the games


@dataclass(frozen=True)
class AgentRating:
    agent: str
    mu: float
    sigma: float
    low: float                         # mu - 1.96 sigma
    high: float
    seats: int                         # (game, seat) pairs it played
    win_rate: Rate                     # its win share per seat played, with a Wilson interval


@dataclass(frozen=True)
class FirstSeat:
    agent: str
    first: Rate | None                 # its win share in the first seat (None: it never sat there)
    others: Rate | None                # in the other seats
    difference: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Tournament:
    agents: list[str]
    players: int
    games: int                         # per seating
    seed: int
    seatings: list[SeatingResult]
    ratings: list[AgentRating]         # best first (by mu - 1.96 sigma, then mu)
    matrix: list[list[float | None]]   # matrix[a][b]: a's score against b (agents in --agents order)
    encounters: list[list[int]]        # how many seat pairs each cell averages
    first_seat: list[FirstSeat]
    seconds: float
    interrupted: bool
    where: str


def newcombe(first: Rate, second: Rate) -> tuple[float, float, float]:
    """first - second with Newcombe's hybrid score interval (his method 10) from the two Wilson
    intervals: it stays inside -1..1 and behaves near 0 and 1 as Wilson's does."""
    d = first.value - second.value
    low = d - math.sqrt((first.value - first.low) ** 2 + (second.high - second.value) ** 2)
    high = d + math.sqrt((first.high - first.value) ** 2 + (second.value - second.low) ** 2)
    return d, low, high


def ratings(agents: Sequence[str], results: Sequence[SeatingResult]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) of every agent after all the games, in the fixed order of the module's docstring."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    current = {agent: model.rating(name=agent) for agent in agents}
    by_index = [{r.index: r for r in result.records} for result in results]
    indexes = sorted({i for found in by_index for i in found})
    for index in indexes:
        for result, found in zip(results, by_index):
            record = found.get(index)
            if record is None:  # an interrupted run: this seating did not reach the game
                continue
            teams = [[model.rating(mu=current[a].mu, sigma=current[a].sigma, name=a)] for a in result.agents]
            ranks = [1 if p in record.winners else 2 for p in range(len(result.agents))]
            rated = model.rate(teams, ranks=ranks)
            updated: dict[str, list] = {}
            for agent, team in zip(result.agents, rated):
                updated.setdefault(agent, []).append(team[0])
            for agent, seats in updated.items():
                current[agent] = model.rating(mu=math.fsum(s.mu for s in seats) / len(seats),
                                              sigma=math.fsum(s.sigma for s in seats) / len(seats), name=agent)
    return {agent: (rating.mu, rating.sigma) for agent, rating in current.items()}


def win_matrix(agents: Sequence[str], results: Sequence[SeatingResult]) -> tuple[list[list[float | None]],
                                                                                list[list[int]]]:
    """matrix[a][b] and the number of seat pairs behind it (see the module's docstring)."""
    position = {agent: i for i, agent in enumerate(agents)}
    points = [[0.0] * len(agents) for _ in agents]
    pairs = [[0] * len(agents) for _ in agents]
    for result in results:
        for record in result.records:
            won = [p in record.winners for p in range(len(result.agents))]
            for i, j in itertools.permutations(range(len(result.agents)), 2):
                a, b = position[result.agents[i]], position[result.agents[j]]
                if a == b:
                    continue
                pairs[a][b] += 1
                points[a][b] += 0.5 if won[i] == won[j] else float(won[i])
    matrix = [[points[a][b] / pairs[a][b] if pairs[a][b] else None for b in range(len(agents))]
              for a in range(len(agents))]
    return matrix, pairs


def first_seat(agents: Sequence[str], results: Sequence[SeatingResult]) -> list[FirstSeat]:
    """Each agent's win share in the first seat against the other seats."""
    found = []
    for agent in agents:
        first, first_n, others, others_n = 0.0, 0, 0.0, 0
        for result in results:
            for seat, seated in enumerate(result.agents):
                if seated != agent:
                    continue
                share = math.fsum(r.win_share(seat) for r in result.records)
                if seat == 0:
                    first, first_n = first + share, first_n + len(result.records)
                else:
                    others, others_n = others + share, others_n + len(result.records)
        a = wilson(first, first_n) if first_n else None
        b = wilson(others, others_n) if others_n else None
        if a is None or b is None:
            found.append(FirstSeat(agent, a, b, None, None, None))
        else:
            found.append(FirstSeat(agent, a, b, *newcombe(a, b)))
    return found


def tournament(ruleset: str, variant: str | None, options: tuple, players: int, agents: Sequence[str],
               games: int, seed: int, workers: int = 1, progress: bool = False,
               play: Callable | None = None, time_limit: float | None = None) -> Tournament:
    """Play every seating's games (simulate's runners: the same games whatever the workers) and
    rate the agents; Ctrl-C keeps the games finished so far."""
    from snowrules.play.simulate import simulate
    play = play or simulate
    results: list[SeatingResult] = []
    seconds, interrupted, where = 0.0, False, "1 process"
    for seating in seatings(agents, players):
        spec = GameSpec(ruleset, variant, players, seating, options, track_components=False, time_limit=time_limit)
        run = play(spec, games, seed, workers, progress=progress)
        seconds, where = seconds + run.seconds, run.where
        wins = tuple(math.fsum(r.win_share(p) for r in run.records) for p in range(players))
        results.append(SeatingResult(seating, run.records, wins))
        if run.interrupted:
            interrupted = True
            break
    return rate(list(agents), players, games, seed, results, seconds, interrupted, where)


def rate(agents: list[str], players: int, games: int, seed: int, results: list[SeatingResult],
         seconds: float = 0.0, interrupted: bool = False, where: str = "1 process") -> Tournament:
    """Every figure of a tournament from its seatings' games."""
    rated = ratings(agents, results)
    table = []
    for agent in agents:
        mu, sigma = rated[agent]
        seats, wins = 0, 0.0
        for result in results:
            for seat, seated in enumerate(result.agents):
                if seated == agent:
                    seats += len(result.records)
                    wins += result.wins[seat]
        table.append(AgentRating(agent, mu, sigma, mu - Z95 * sigma, mu + Z95 * sigma, seats, wilson(wins, seats)))
    table.sort(key=lambda r: (-r.low, -r.mu, agents.index(r.agent)))
    matrix, encounters = win_matrix(agents, results)
    return Tournament(agents, players, games, seed, results, table, matrix, encounters,
                      first_seat(agents, results), seconds, interrupted, where)
