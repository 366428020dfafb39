#!/usr/bin/env python3
"""Games per second of every bundled ruleset with random agents, and, where a hand-written
reference simulator exists in ../shared/bench/<ruleset>.py, the ratio snowrules / reference
measured in the same run (alternating rounds, medians: the machines are shared and noisy).

    python tools/bench.py                       # every ruleset, 2 and 4 players
    python tools/bench.py --ruleset snow_time --players 2 4 --seconds 3 --json
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time

from snowrules.agents import RandomAgent, play
from snowrules.compiler import load_program
from snowrules.engine import Game
from snowrules.ruleset import PROJECT_ROOT, bundled_names, load_ruleset

REFERENCES = PROJECT_ROOT.parent / "shared" / "bench"


def snowrules_round(game: Game, players: int, games: int, first_seed: int) -> float:
    """Games per second for `games` seeded random games."""
    # Like the reference, one seeded generator per seat serves the whole round.
    agents = [RandomAgent(first_seed * 1000 + i) for i in range(players)]
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        play(game, agents, seed)
    return games / (time.perf_counter() - start)


def load_reference(name: str):
    path = REFERENCES / f"{name}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"reference_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference_round(module, players: int, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        module.play_game(players, rng)
    return games / (time.perf_counter() - start)


def calibrate(run, seconds: float) -> int:
    """How many games make one round last about `seconds`."""
    games = 5
    while True:
        rate = run(games)
        if games / rate >= 0.2:
            return max(5, int(rate * seconds))
        games *= 4


def measure(name: str, players: int, rounds: int, seconds: float) -> dict:
    game = Game(load_program(name, None, players))
    reference = load_reference(name)
    ours_games = calibrate(lambda g: snowrules_round(game, players, g, 0), seconds)
    ours, theirs = [], []
    ref_games = calibrate(lambda g: reference_round(reference, players, g, 1), seconds) if reference else 0
    for r in range(rounds):
        ours.append(snowrules_round(game, players, ours_games, r * ours_games))
        if reference:
            theirs.append(reference_round(reference, players, ref_games, r + 1))
    row = {"ruleset": name, "players": players, "games_per_s": round(statistics.median(ours), 1)}
    if reference:
        row["reference_games_per_s"] = round(statistics.median(theirs), 1)
        row["ratio"] = round(row["games_per_s"] / row["reference_games_per_s"], 4)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="a bundled ruleset (default: all)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians are reported")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round of one side")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for name in args.ruleset or bundled_names():
        ruleset = load_ruleset(name)
        for players in args.players:
            if ruleset.min_players <= players <= ruleset.max_players:
                rows.append(measure(name, players, args.rounds, args.seconds))
    if args.json:
        print(json.dumps(rows))
        return 0
    from rich.console import Console
    from rich.table import Table
    table = Table(title="random-agent games per second (medians of alternating rounds)")
    for column in ("ruleset", "players", "snowrules", "reference", "ratio"):
        table.add_column(column, justify="left" if column == "ruleset" else "right")
    for row in rows:
        table.add_row(row["ruleset"], str(row["players"]), f"{row['games_per_s']:.0f}",
                      f"{row.get('reference_games_per_s', 0):.0f}" if "ratio" in row else "-",
                      f"{row['ratio']:.3f}" if "ratio" in row else "-")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
