#!/usr/bin/env python3
"""Microseconds a state clone costs at a mid-game decision, per bundled ruleset and player count.

Search bots (MCTS, determinized playouts) and OpenSpiel's algorithms clone a state at every step,
so a back end that plays faster but clones slower is no gain for them: issue 8 asks for clone no
slower than before. For each configuration, a few seeded random games are played to the decision
halfway through them, and each state is cloned many times; the figure is the median over the games
of the best of several timed repetitions (the machine is shared: the best repetition is the one
least disturbed). For the rulesets written from OpenSpiel games, the OpenSpiel adapter's
`state.clone()` at the same point is timed too (when open-spiel is installed).

    python tools/bench_clone.py                               # every ruleset, 2 and 4 players
    python tools/bench_clone.py --ruleset snow_time --players 4 --json
"""
from __future__ import annotations

import json
import statistics
import sys
import timeit

from bench import OPENSPIEL_GAMES, configuration_arguments, configurations_asked  # beside this file, in tools/
from snowrules.compile.compiler import load_program
from snowrules.play.agents import RandomAgent, agent_seed
from snowrules.runtime.engine import Game


def answers_of(game: Game, seed: int) -> list[list[int]]:
    """The answers of one seeded random game, decision by decision."""
    agents = [RandomAgent(agent_seed(seed, i)) for i in range(game.program.players)]
    st = game.start(seed)
    answers = []
    while st.result is None:
        pending = st.pending
        answer = [agents[game.program.controller(s)].choose_index(len(o))
                  for s, o in zip(pending.seats, pending.options)]
        answers.append(answer)
        game.answer(st, answer)
    return answers


def best_microseconds(clone, number: int, repeat: int) -> float:
    return min(timeit.repeat(clone, number=number, repeat=repeat)) / number * 1e6


def engine_clone_us(name: str, players: int, games: int, number: int, repeat: int) -> float:
    game = Game(load_program(name, None, players))
    figures = []
    for seed in range(games):
        answers = answers_of(game, seed)
        st = game.start(seed)
        for answer in answers[:len(answers) // 2]:
            game.answer(st, answer)
        figures.append(best_microseconds(st.clone, number, repeat))
    return statistics.median(figures)


def adapter_clone_us(name: str, players: int, games: int, number: int, repeat: int) -> float | None:
    """The OpenSpiel adapter's clone halfway through random games, or None without open-spiel."""
    try:
        from snowrules.adapters.openspiel import load_game
    except ImportError:
        return None
    import random
    game = load_game(name, players=players)
    figures = []
    for seed in range(games):
        rng = random.Random(seed)
        actions = []
        state = game.new_initial_state()
        while not state.is_terminal():  # one game to learn its length, its actions kept
            action = (rng.choices(*zip(*state.chance_outcomes()))[0] if state.is_chance_node()
                      else [rng.choice(state.legal_actions(p)) for p in range(players)]
                      if state.is_simultaneous_node() else rng.choice(state.legal_actions()))
            actions.append(action)
            (state.apply_actions if isinstance(action, list) else state.apply_action)(action)
        state = game.new_initial_state()
        for action in actions[:len(actions) // 2]:
            (state.apply_actions if isinstance(action, list) else state.apply_action)(action)
        figures.append(best_microseconds(state.clone, number, repeat))
    return statistics.median(figures)


def main(argv=None) -> int:
    parser = configuration_arguments(__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="seeded games per configuration")
    parser.add_argument("--number", type=int, default=2000, help="clones per timed repetition")
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions (the best is kept)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for name, players in configurations_asked(parser, args):
        row = {"ruleset": name, "players": players,
               "clone_us": round(engine_clone_us(name, players, args.games, args.number, args.repeat), 2)}
        if name in OPENSPIEL_GAMES:
            adapter = adapter_clone_us(name, players, args.games, args.number // 4, args.repeat)
            if adapter is not None:
                row["adapter_clone_us"] = round(adapter, 2)
        rows.append(row)
    if args.json:
        print(json.dumps(rows))
        return 0
    from rich.console import Console
    from rich.table import Table
    table = Table(title="microseconds per clone at a mid-game decision (median over games of the best repetition)")
    for column in ("ruleset", "players", "engine clone", "adapter clone"):
        table.add_column(column, justify="left" if column == "ruleset" else "right")
    for row in rows:
        table.add_row(row["ruleset"], str(row["players"]), f"{row['clone_us']:.1f}",
                      f"{row['adapter_clone_us']:.1f}" if "adapter_clone_us" in row else "-")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
