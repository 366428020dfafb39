#!/usr/bin/env python3
"""What stopping at every decision costs: games answered from outside against the same games
answered in place, measured in one run, interleaved.

A game answered from outside stops at every decision (a person, a replay, a scenario, a search's
root, the OpenSpiel adapter): `Game.start`, then `Game.answer` with seeded random answers, nobody
listening; its state is data at each stop (the stoppable build, compile/playthrough_stops.py).
The same game answered in place (`Game.start` with `decide`) keeps no frames (the plain build).
With `--explicit`, the program has explicit chance and every draw is a node too (what the adapter
runs): nodes per second stopped only, since a game answered in place samples its draws. Decisions
(nodes) per CPU second of each, medians of the rounds, and the ratio stopped / in place: the
share of the speed that stopping keeps.

    python tools/bench_stops.py snow_time snowy_tricks --players 4
    python tools/bench_stops.py oh_hell goofspiel --players 4 --explicit
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from snowrules.compile.compiler import load_program
from snowrules.language.diagnostics import SnowrulesError
from snowrules.runtime.engine import Game


def stopped_per_second(game: Game, explicit: bool, seconds: float, first_seed: int) -> float:
    """Decisions (and draws, when explicit) answered from outside per CPU second, games in turn."""
    start, nodes, seed = time.process_time(), 0, first_seed
    while time.process_time() - start < seconds:
        answers = random.Random(seed)
        st = game.start(seed, explicit=explicit)
        while st.result is None:
            game.answer(st, [answers.randrange(len(options)) for options in st.pending.options])
            nodes += 1
        seed += 1
    return nodes / (time.process_time() - start)


def in_place_per_second(game: Game, seconds: float, first_seed: int) -> float:
    """Decisions answered in place per CPU second, the same answers drawn."""
    start, nodes, seed = time.process_time(), 0, first_seed
    while time.process_time() - start < seconds:
        answers = random.Random(seed)

        def decide(st, answers=answers):
            nonlocal nodes
            nodes += 1
            pending = st.pending
            chosen = [options[answers.randrange(len(options))] for options in pending.options]
            return chosen if pending.simultaneous else chosen[0]
        game.start(seed, decide=decide)
        seed += 1
    return nodes / (time.process_time() - start)


def measure(name: str, players: int, explicit: bool, rounds: int, seconds: float) -> dict:
    game = Game(load_program(name, None, players, explicit_chance=explicit))
    rates: dict[str, list[float]] = {"in place": [], "stopped": []}
    for number in range(rounds):
        if not explicit:
            rates["in place"].append(in_place_per_second(game, seconds, 1000 * number))
        rates["stopped"].append(stopped_per_second(game, explicit, seconds, 1000 * number))
    stopped = statistics.median(rates["stopped"])
    placed = None if explicit else statistics.median(rates["in place"])
    return {"ruleset": name, "players": players, "explicit": explicit, "in place": placed, "stopped": stopped,
            "ratio": None if placed is None else stopped / placed}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="+")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--explicit", action="store_true", help="explicit chance: every draw a node")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of each side a round")
    args = parser.parse_args(argv)
    print(f"{'ruleset':<26}{'players':>8}{'in place/s':>12}{'stopped/s':>12}{'ratio':>8}")
    for name in args.rulesets:
        for players in args.players:
            try:
                row = measure(name, players, args.explicit, args.rounds, args.seconds)
            except SnowrulesError as error:  # a player count the ruleset does not take, a wrong name
                print(f"{name:<26}{players:>8}  skipped: {error}")
                continue
            placed = "-" if row["in place"] is None else f"{row['in place']:.0f}"
            ratio = "-" if row["ratio"] is None else f"{row['ratio']:.3f}"
            print(f"{name:<26}{players:>8}{placed:>12}{row['stopped']:>12.0f}{ratio:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
