#!/usr/bin/env python3
"""How strong are the bots? `mcts` and `greedy` against `random` in every bundled multiplayer ruleset.

Each game seats one bot and `random` on every other seat; the bot's seat turns round from game to
game (game g: seat g mod P), so no seat's advantage counts for or against it. Game g is played
with seed g and the bot's generator seeded g too: a run is reproducible. The figure is the bot's
win rate (a shared win counts as 1/k for each of k winners) with a 95% Wilson interval; a random
seat's fair share is 1/P, so a bot is better than random when the interval lies above 1/P.

    python tools/bots.py                                  # every ruleset, 3 players, 100 games
    python tools/bots.py --ruleset goofspiel --games 200 --iterations 100 --json
    python tools/bots.py --speed --ruleset snow_time --games 4 --iterations 200   # workers=1 against 2

With `--ratings`, each ruleset is played as `snowrules tournament` plays it (random, greedy and mcts
round the table in every seating, `--games` games per seating, paired seeds) and the figures are
the tournament's openskill ratings (mu with mu +- 1.96 sigma, best first), the same numbers the
command prints for the same agents, games and seed.

With `--speed`, `--games` games of each ruleset are played with `mcts` searching in one process
and then in `--workers` processes (the others random), and the figures are the bot's decisions per
CPU-second (this process and its searching children together) and per wall-second.
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from dataclasses import asdict, dataclass

from snowrules.compile.compiler import load_program
from snowrules.load.ruleset import bundled_names, load_ruleset
from snowrules.play.agents import agent_seed, make_agent, play
from snowrules.runtime.engine import Game

Z95 = 1.959963984540054


@dataclass
class Figure:
    ruleset: str
    players: int
    bot: str
    games: int
    win_rate: float
    low: float
    high: float
    fair_share: float
    seconds: float

    @property
    def verdict(self) -> str:
        if self.low > self.fair_share:
            return "better than random"
        if self.high < self.fair_share:
            return "worse than random"
        return "not distinguishable"


def wilson(rate: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion observed over `games` trials."""
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(ruleset: str, players: int, bot: str, games: int) -> Figure:
    game = Game(load_program(ruleset, None, players))
    wins = 0.0
    start = time.perf_counter()
    for g in range(games):
        seat = g % players
        agents = [make_agent(bot if p == seat else "random", agent_seed(g, p)) for p in range(players)]
        outcome = game.outcome(play(game, agents, g))
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    rate = wins / games
    low, high = wilson(rate, games)
    return Figure(ruleset, players, bot, games, round(rate, 4), round(low, 4), round(high, 4),
                  round(1 / players, 4), round(time.perf_counter() - start, 1))


def rated(ruleset: str, players: int, bots: list[str], games: int) -> list[dict]:
    """The tournament's ratings of random and the bots in one ruleset (seed 0, one process)."""
    from snowrules.play.tournament import tournament
    found = tournament(ruleset, None, (), players, ["random", *bots], games, 0)
    return [{"ruleset": ruleset, "players": players, "agent": r.agent, "mu": round(r.mu, 2),
             "low": round(r.low, 2), "high": round(r.high, 2), "win_share": round(r.win_rate.value, 4),
             "seats": r.seats} for r in found.ratings]


def speed(ruleset: str, players: int, iterations: int, workers: int, games: int) -> dict:
    """Decisions per CPU-second and per wall-second of `mcts:iterations=N,workers=K` on seat 0."""
    game = Game(load_program(ruleset, None, players))
    decisions = 0
    before = _cpu()
    start = time.perf_counter()
    for g in range(games):
        bot = make_agent(f"mcts:iterations={iterations},workers={workers}", agent_seed(g, 0))
        chosen = bot.choose

        def counted(observation, chosen=chosen):
            nonlocal decisions
            decisions += 1
            return chosen(observation)
        bot.choose = counted
        play(game, [bot] + [make_agent("random", agent_seed(g, p)) for p in range(1, players)], g)
        bot.close()  # its workers end here, so that their CPU time is counted
    wall, cpu = time.perf_counter() - start, _cpu() - before
    return {"ruleset": ruleset, "players": players, "iterations": iterations, "workers": workers,
            "decisions": decisions, "cpu_seconds": round(cpu, 4), "wall_seconds": round(wall, 4),
            "per_cpu_second": round(decisions / cpu, 2), "per_wall_second": round(decisions / wall, 2)}


def _cpu() -> float:
    """CPU seconds of this process and of its ended children (the searching workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", help="a bundled ruleset (repeatable; default: all)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=50, help="mcts iterations per decision")
    parser.add_argument("--samples", type=int, default=4, help="greedy's sampled worlds per decision")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--speed", action="store_true",
                        help="mcts's decisions per CPU- and wall-second, in one process and in --workers")
    parser.add_argument("--workers", type=int, default=2, help="searching processes of --speed")
    parser.add_argument("--ratings", action="store_true",
                        help="ratings from a tournament of random, greedy and mcts (--games per seating)")
    args = parser.parse_args(argv)
    names = args.ruleset or [n for n in bundled_names() if load_ruleset(n, None).max_players > 1]
    bots = [f"mcts:iterations={args.iterations}", f"greedy:samples={args.samples}"]
    figures = []
    for name in names:
        ruleset = load_ruleset(name, None)
        players = min(max(args.players, ruleset.min_players), ruleset.max_players)
        if args.speed:
            for workers in (1, args.workers):
                row = speed(name, players, args.iterations, workers, args.games)
                figures.append(row)
                if not args.json:
                    print(f"{name:13} {players}p mcts:iterations={args.iterations},workers={workers}: "
                          f"{row['decisions']} decisions, {row['per_cpu_second']:.2f} per CPU-second, "
                          f"{row['per_wall_second']:.2f} per wall-second", flush=True)
            continue
        if args.ratings:
            rows = rated(name, players, bots, args.games)
            figures.extend(rows)
            for row in rows if not args.json else []:
                print(f"{name:13} {players}p {row['agent']:20} rating {row['mu']:6.2f} "
                      f"[{row['low']:6.2f}, {row['high']:6.2f}] win share {row['win_share']:.3f} "
                      f"({row['seats']} seats)", flush=True)
            continue
        for bot in bots:
            figure = measure(name, players, bot, args.games)
            figures.append(figure)
            if not args.json:
                print(f"{name:13} {players}p {bot:20} win rate {figure.win_rate:.3f} "
                      f"[{figure.low:.3f}, {figure.high:.3f}] vs fair share {figure.fair_share:.3f}: "
                      f"{figure.verdict} ({figure.games} games, {figure.seconds:.0f} s)", flush=True)
    if args.json:
        print(json.dumps([f if isinstance(f, dict) else asdict(f) | {"verdict": f.verdict} for f in figures]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
