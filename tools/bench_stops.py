#!/usr/bin/env python3
"""Games answered from outside, on the VM and on the generated code that stops (issue 23, item
3: one execution model for every caller), measured in one run, interleaved.

A game answered from outside stops at every decision (a person, a replay, a scenario, a search's
root, the OpenSpiel adapter): `Game.start`, then `Game.answer` with seeded random answers, nobody
listening. With `--explicit`, the program has explicit chance and every draw is a node too (what
the adapter runs). Decisions (nodes) per CPU second of each, medians of the rounds, and the ratio
generated / VM: above 1, stopping at each decision costs the generated code less than the VM.

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
from snowrules.runtime import engine
from snowrules.runtime.engine import Game


def nodes_per_second(game: Game, explicit: bool, seconds: float, first_seed: int) -> float:
    """Decisions (and draws, when explicit) answered per CPU second, games played in turn."""
    start, nodes, seed = time.process_time(), 0, first_seed
    while time.process_time() - start < seconds:
        answers = random.Random(seed)
        st = game.start(seed, explicit=explicit)
        while st.result is None:
            game.answer(st, [answers.randrange(len(options)) for options in st.pending.options])
            nodes += 1
        seed += 1
    return nodes / (time.process_time() - start)


def on_the_vm(self, st):
    """Game._stopping that stops nothing: every game runs on the VM."""
    return None


def measure(name: str, players: int, explicit: bool, rounds: int, seconds: float) -> dict:
    game = Game(load_program(name, None, players, explicit_chance=explicit))
    original = generated = engine.Game._stopping
    rates: dict[str, list[float]] = {"vm": [], "generated": []}
    try:
        for number in range(rounds):
            for way, stopping in (("vm", on_the_vm), ("generated", generated)):
                engine.Game._stopping = stopping
                game._quiet_stopping = False if way == "vm" else None  # Game._run's shortcut to the stoppable build
                rates[way].append(nodes_per_second(game, explicit, seconds, 1000 * number))
    finally:
        engine.Game._stopping = original
    vm, ours = statistics.median(rates["vm"]), statistics.median(rates["generated"])
    return {"ruleset": name, "players": players, "explicit": explicit, "vm": vm, "generated": ours,
            "ratio": ours / vm}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="+")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--explicit", action="store_true", help="explicit chance: every draw a node")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of each side a round")
    args = parser.parse_args(argv)
    original = engine.Game._stopping
    print(f"{'ruleset':<26}{'players':>8}{'VM nodes/s':>12}{'generated':>12}{'ratio':>8}")
    try:
        for name in args.rulesets:
            for players in args.players:
                try:
                    row = measure(name, players, args.explicit, args.rounds, args.seconds)
                except SnowrulesError as error:  # a player count the ruleset does not take, a wrong name
                    print(f"{name:<26}{players:>8}  skipped: {error}")
                    continue
                print(f"{name:<26}{players:>8}{row['vm']:>12.0f}{row['generated']:>12.0f}{row['ratio']:>8.3f}")
    finally:
        engine.Game._stopping = original
    return 0


if __name__ == "__main__":
    sys.exit(main())
