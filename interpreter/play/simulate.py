"""Many seeded games, summed up: win rates (shared wins count as a fraction), mean scores, speed."""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor


def _batch(ruleset: str, variant: str | None, players: int, agents: str, seeds: list[int],
           options: tuple = ()) -> list[tuple]:
    from snowrules.compile.compiler import load_program
    from snowrules.play.agents import parse_agents, play
    from snowrules.runtime.engine import Game
    game = Game(load_program(ruleset, variant, players, options))
    specs = parse_agents(agents)
    specs = specs * players if len(specs) == 1 else specs
    results = []
    for seed in seeds:
        st = play(game, [s.build(seed * 1000 + i) for i, s in enumerate(specs)], seed)
        outcome = game.outcome(st)
        results.append((outcome.winners, outcome.scores, outcome.turns))
    return results


def simulate(ruleset: str, variant: str | None, players: int, agents: str, games: int, seed: int,
             workers: int = 1, progress: bool = False, options: tuple = ()) -> dict:
    from rich.progress import Progress
    seeds = list(range(seed, seed + games))
    size = max(1, min(200, -(-games // (workers * 4))))  # several chunks per worker, at most 200 games
    chunks = [seeds[i:i + size] for i in range(0, games, size)]
    start = time.perf_counter()
    results: list[tuple] = []
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("playing", total=games)
        if workers == 1:
            for chunk in chunks:
                results += _batch(ruleset, variant, players, agents, chunk, options)
                bar.advance(task, len(chunk))
        else:
            with ProcessPoolExecutor(workers) as pool:
                futures = [pool.submit(_batch, ruleset, variant, players, agents, c, options) for c in chunks]
                for future in futures:
                    part = future.result()
                    results += part
                    bar.advance(task, len(part))
    elapsed = time.perf_counter() - start
    wins = [0.0] * players
    totals = [0] * players
    turns = 0
    for winners, scores, game_turns in results:
        for w in winners:
            wins[w] += 1 / len(winners)
        for i, score in enumerate(scores):
            totals[i] += score
        turns += game_turns
    return {"players": players, "games": games, "agents": agents, "seed": seed,
            "win_rates": [round(w / games, 4) for w in wins],
            "score_means": [round(t / games, 3) for t in totals], "mean_turns": round(turns / games, 3),
            "seconds": round(elapsed, 3), "games_per_s": round(games / elapsed, 1)}
