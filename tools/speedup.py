#!/usr/bin/env python3
"""Speed-up of `snowrules simulate --workers K` over one process, measured as a designer sees it.

Alternates runs with 1 and K workers (the machine may be shared: alternating spreads the noise
over both), each timing the whole playing of the games including each worker's compile, and
prints games per second, the ratio of the medians and the load average around the runs.

On a shared machine the wall-clock ratio says more about the other users than about snowrules, so
it also prints the CPU seconds each game cost (this process and its workers together): when 2
workers spend no more CPU per game than one process, an idle 2-core machine runs them twice as
fast, less the start-up (forking, each worker's compile) that the wall-clock figures include.

    python tools/speedup.py                                   # snow_time, 4 players, 6000 games, 2 workers
    python tools/speedup.py --ruleset oh_hell --players 4 --games 20000 --rounds 3 --json
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics

from snowrules.play import batch
from snowrules.play.batch import GameSpec
from snowrules.play.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="snow_time")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-components", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    spec = GameSpec(args.ruleset, None, args.players, ("random",) * args.players,
                    track_components=not args.no_components)
    simulate(spec, 1, 0)  # imports done once, outside the measure
    load_before = os.getloadavg()
    speeds: dict[int, list[float]] = {1: [], args.workers: []}
    cpu: dict[int, list[float]] = {1: [], args.workers: []}
    for _ in range(args.rounds):
        for workers in (1, args.workers):
            batch._GAMES.clear()  # every run compiles, as a fresh `snowrules simulate` does
            before = _cpu_seconds()
            run = simulate(spec, args.games, 0, workers)
            cpu[workers].append((_cpu_seconds() - before) / args.games * 1000)
            speeds[workers].append(run.games_per_s)
    load_after = os.getloadavg()
    one, many = statistics.median(speeds[1]), statistics.median(speeds[args.workers])
    result = {"ruleset": args.ruleset, "players": args.players, "games": args.games, "workers": args.workers,
              "components": not args.no_components, "cpus": os.cpu_count(),
              "games_per_s_1": [round(s, 1) for s in speeds[1]],
              f"games_per_s_{args.workers}": [round(s, 1) for s in speeds[args.workers]],
              "cpu_ms_per_game_1": [round(c, 3) for c in cpu[1]],
              f"cpu_ms_per_game_{args.workers}": [round(c, 3) for c in cpu[args.workers]],
              "speedup": round(many / one, 2), "load_before": [round(v, 2) for v in load_before],
              "load_after": [round(v, 2) for v in load_after]}
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.ruleset}, {args.players} players, {args.games} games per run, {os.cpu_count()} CPUs")
    print(f"  1 process:  {', '.join(f'{s:.0f}' for s in speeds[1])} games/s")
    print(f"  {args.workers} workers:  {', '.join(f'{s:.0f}' for s in speeds[args.workers])} games/s")
    print(f"  speed-up (medians): {many / one:.2f}x")
    cpu_one, cpu_many = statistics.median(cpu[1]), statistics.median(cpu[args.workers])
    print(f"  CPU per game: {cpu_one:.2f} ms in 1 process, {cpu_many:.2f} ms with {args.workers} workers "
          f"(workers included): on {args.workers} idle cores at most {args.workers * cpu_one / cpu_many:.2f}x")
    print(f"  load average (1, 5, 15 min) before {load_before}, after {load_after}")


def _cpu_seconds() -> float:
    """User and system time of this process and of its finished children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
