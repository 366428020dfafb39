#!/usr/bin/env python3
"""What building a program costs, and what the commands that only build take: the figures of the
back-end issue's build targets, measured as a user meets them.

- **build, cold**: CPU seconds to read and compile one configuration of each bundled ruleset (its
  smallest player count, or `--players`) in a fresh process with the build cache off, the
  interpreter already imported (what every `snowrules run`, simulate worker and test used to pay);
- **build, cached**: the same in a fresh process whose cache holds the configuration;
- **first game**: CPU of the first seeded random game after the build (a game also finishes
  building: generated functions are compiled at their first call);
- the wall-clock seconds of `snowrules list`, `snowrules run snow_time --json` and, with
  `--validate`, `snowrules validate rulesets/snow_planner` (slow: minutes before the cache),
  each the median of `--repeat` runs in fresh processes, cache warm.

Every process gets its own cache folder under a temporary folder, so nothing of the user's cache
is read or written.

    python tools/bench_build.py                      # every ruleset; list and run
    python tools/bench_build.py --ruleset snow_planner --players 3 --validate --json
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent

# One configuration's build in a fresh process: its CPU seconds, as JSON on stdout.
_BUILD = """
import json, sys, time
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import RandomAgent, play
from snowrules.runtime.engine import Game
name, players = sys.argv[1], int(sys.argv[2])
start = time.process_time()
program = compile_ruleset(load_ruleset(name), players)
built = time.process_time()
play(Game(program), [RandomAgent(i) for i in range(program.players)], seed=1)
print(json.dumps({"build": built - start, "game": time.process_time() - built}))
"""


def _environment(cache: Path | None) -> dict:
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # measured as an installed package runs: with .pyc files
    environment["SNOWRULES_CACHE"] = str(cache) if cache is not None else "off"
    return environment


def build_seconds(name: str, players: int, cache: Path | None) -> dict:
    done = subprocess.run([sys.executable, "-c", _BUILD, name, str(players)], capture_output=True, text=True,
                          env=_environment(cache), check=False)
    if done.returncode != 0:
        sys.exit(f"bench_build.py: building {name} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout)


def command_seconds(arguments: list[str], cache: Path, repeat: int) -> float:
    """The median wall-clock seconds of a snowrules command line, after one run that fills the cache."""
    command = [sys.executable, "-m", "snowrules.cli.main", *arguments]
    times = []
    for _ in range(repeat + 1):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, env=_environment(cache), check=False)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(f"bench_build.py: {' '.join(arguments)} exited {done.returncode}:\n{done.stderr.decode()}")
    return statistics.median(times[1:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", help="a bundled ruleset (repeatable; default: all)")
    parser.add_argument("--players", type=int, help="player count (default: each ruleset's smallest)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("--validate", action="store_true", help="also time `validate rulesets/snow_planner`")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    from snowrules.language.diagnostics import SnowrulesError
    from snowrules.load.ruleset import bundled_names, load_ruleset
    names = args.ruleset or bundled_names()
    figures: dict = {"builds": {}, "commands": {}}
    with tempfile.TemporaryDirectory(prefix="snowrules-bench-build-") as scratch:
        cache = Path(scratch) / "cache"
        for name in names:
            try:
                ruleset = load_ruleset(name)
            except SnowrulesError as error:
                print("\n".join(str(d) for d in error.diagnostics), file=sys.stderr)
                return 2
            players = args.players or ruleset.min_players
            cold = build_seconds(name, players, None)
            build_seconds(name, players, cache)  # fills the cache
            warm = build_seconds(name, players, cache)
            figures["builds"][f"{name} {players}p"] = {"cold": cold["build"], "cached": warm["build"],
                                                       "first_game": warm["game"]}
        commands = {"list": ["list"], "run snow_time --json": ["run", "snow_time", "--json"]}
        if args.validate:
            commands["validate rulesets/snow_planner"] = ["validate", str(REPOSITORY / "rulesets" / "snow_planner")]
        for label, arguments in commands.items():
            figures["commands"][label] = command_seconds(arguments, cache, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{'configuration':32s} {'cold CPU s':>10s} {'cached CPU s':>12s} {'first game CPU s':>16s}")
    for label, row in figures["builds"].items():
        print(f"{label:32s} {row['cold']:10.3f} {row['cached']:12.3f} {row['first_game']:16.3f}")
    print(f"\n{'command (median wall s, cache warm)':40s}")
    for label, seconds in figures["commands"].items():
        print(f"  snowrules {label:36s} {seconds:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
