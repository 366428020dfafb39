"""Many seeded games, summed up: win rates (shared wins count as a fraction), mean scores, speed."""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor


def _batch(ruleset: str, variant: str | None, players: int, agents: str, seeds: list[int],
           options: tuple = ()) -> list[tuple]:
    from snowrules.compile.compiler import load_program
    from snowrules.play.agents import make_agent, play
    from snowrules.runtime.engine import Game
    from snowrules.runtime.returns import player_returns
    game = Game(load_program(ruleset, variant, players, options))
    names = [n.strip() for n in agents.split(",")]
    names = names * players if len(names) == 1 else names
    results = []
    for seed in seeds:
        st = play(game, [make_agent(n, seed * 1000 + i) for i, n in enumerate(names)], seed)
        outcome = game.outcome(st)
        results.append((outcome.winners, outcome.scores, outcome.turns, player_returns(game.program, st)))
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
    returns = [0.0] * players
    for winners, scores, game_turns, game_returns in results:
        for w in winners:
            wins[w] += 1 / len(winners)
        for i, score in enumerate(scores):
            totals[i] += score
        turns += game_turns
        for i, value in enumerate(game_returns or []):
            returns[i] += value
    summary = {"players": players, "player_names": _player_names(ruleset, variant, players, options),
               "games": games, "agents": agents, "seed": seed,
               "win_rates": [round(w / games, 4) for w in wins],
               "score_means": [round(t / games, 3) for t in totals], "mean_turns": round(turns / games, 3),
               "seconds": round(elapsed, 3), "games_per_s": round(games / elapsed, 1)}
    if results and results[0][3] is not None:  # the manifest declares `returns`: their means too
        summary["return_means"] = [round(r / games, 4) for r in returns]
    return summary


def _player_names(ruleset: str, variant: str | None, players: int, options: tuple) -> list[str]:
    """Each player by their seats' names (a player with several seats: "red & blue")."""
    from snowrules.compile.compiler import load_program
    program = load_program(ruleset, variant, players, options)
    names = program.layout.seat_names
    return [" & ".join(names[s] for s in program.seats_of(p)) for p in range(players)]
