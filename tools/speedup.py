#!/usr/bin/env python3
"""Speed-up of `snowrules simulate --workers K` over one process, measured as a designer sees it.

Alternates runs with 1 and K workers (the machine may be shared: alternating spreads the noise
over both), each timing the whole playing of the games including each worker's compile, and
prints games per second, the ratio of the medians and the load average around the runs.

    python tools/speedup.py                                   # snow_time, 4 players, 6000 games, 2 workers
    python tools/speedup.py --ruleset oh_hell --players 4 --games 20000 --rounds 3 --json
"""
from __future__ import annotations

import argparse
import json
import os
import statistics

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
    load_before = os.getloadavg()
    speeds: dict[int, list[float]] = {1: [], args.workers: []}
    for _ in range(args.rounds):
        for workers in (1, args.workers):
            run = simulate(spec, args.games, 0, workers)
            speeds[workers].append(run.games_per_s)
    load_after = os.getloadavg()
    one, many = statistics.median(speeds[1]), statistics.median(speeds[args.workers])
    result = {"ruleset": args.ruleset, "players": args.players, "games": args.games, "workers": args.workers,
              "components": not args.no_components, "cpus": os.cpu_count(),
              "games_per_s_1": [round(s, 1) for s in speeds[1]],
              f"games_per_s_{args.workers}": [round(s, 1) for s in speeds[args.workers]],
              "speedup": round(many / one, 2), "load_before": [round(v, 2) for v in load_before],
              "load_after": [round(v, 2) for v in load_after]}
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.ruleset}, {args.players} players, {args.games} games per run, {os.cpu_count()} CPUs")
    print(f"  1 process:  {', '.join(f'{s:.0f}' for s in speeds[1])} games/s")
    print(f"  {args.workers} workers:  {', '.join(f'{s:.0f}' for s in speeds[args.workers])} games/s")
    print(f"  speed-up (medians): {many / one:.2f}x")
    print(f"  load average (1, 5, 15 min) before {load_before}, after {load_after}")


if __name__ == "__main__":
    main()
