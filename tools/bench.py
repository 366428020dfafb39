#!/usr/bin/env python3
"""Games per second of every bundled ruleset with random agents, and the ratio snowrules / reference
measured in the same run (alternating rounds, medians: the machines are shared and noisy).

The reference is a hand-written Python simulator in ../shared/bench/<ruleset>.py, or, for the
rulesets written from OpenSpiel's games, OpenSpiel's C++ implementation driven by a Python loop
(random legal actions, chance sampled from its outcomes). For those, the same loop also drives
snowrules through its OpenSpiel adapter (column "adapter"), which adds explicit chance nodes and
action ids to the cost of the game itself.

Column "simulate" is what a designer runs: the games of `snowrules simulate` with its default
per-component figures (play/batch.py: the games' move tally and their metrics), one process.

    python tools/bench.py                       # every ruleset, 2 and 4 players (solo games at 1)
    python tools/bench.py --ruleset snow_time --players 2 4 --seconds 3 --json

Besides games per second, each row says how many decisions a game asks and how many options a
decision offers on average, from a few seeded games played apart from the timed ones. A ruleset
that plays at none of the player counts asked (a solo game) is measured at its fewest players.

A games-per-second ratio compares like work only if both sides play games of the same length. So for
a hand-written reference each row also gives the mean number of turns a game lasts on each side
(untimed games: the reference's `play_game_stats`, the ruleset's turn counter), and the ratio of
turns per second. When the two lengths differ by more than sampling error (a ruleset changed after
its reference was written), a warning says so: the turn ratio is then like for like only if a turn
is the same work on both sides; a variant that plays the reference's game (--variant) is exact.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from snowrules.compile.compiler import load_program
from snowrules.language.diagnostics import SnowrulesError
from snowrules.load.ruleset import PROJECT_ROOT, bundled_names, load_ruleset
from snowrules.play.agents import RandomAgent, agent_seed, play
from snowrules.play.batch import GameSpec, play_batch
from snowrules.runtime.engine import Game


def _references() -> Path:
    """../shared/bench beside the project, or beside a folder above it (a git worktree)."""
    for folder in [PROJECT_ROOT, *PROJECT_ROOT.parents]:
        if (folder.parent / "shared" / "bench").is_dir():
            return folder.parent / "shared" / "bench"
    return PROJECT_ROOT.parent / "shared" / "bench"


REFERENCES = _references()
# Bundled rulesets written from an OpenSpiel game, by OpenSpiel's name for it.
OPENSPIEL_GAMES = {"goofspiel": "goofspiel", "oh_hell": "oh_hell", "crazy_eights": "crazy_eights", "othello": "othello"}


def snowrules_round(game: Game, players: int, games: int, first_seed: int) -> float:
    """Games per second for `games` seeded random games."""
    # Like the reference, one seeded generator per seat serves the whole round.
    agents = [RandomAgent(agent_seed(first_seed, i)) for i in range(players)]
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        play(game, agents, seed)
    return games / (time.perf_counter() - start)


def simulate_round(spec: GameSpec, games: int, master_seed: int) -> float:
    """Games per second of `snowrules simulate`'s games (one process, its default figures)."""
    start = time.perf_counter()
    play_batch(spec, master_seed, list(range(games)))
    return games / (time.perf_counter() - start)


class CountingAgent(RandomAgent):
    """A random agent that counts the decisions it is asked and the options it is offered."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.decisions = 0
        self.options = 0

    def choose(self, observation) -> int:
        self.decisions += 1
        self.options += len(observation.options)
        return super().choose(observation)


def decisions_of(game: Game, players: int, games: int = 10) -> tuple[float, float]:
    """Decisions asked per game and options per decision, over `games` seeded random games (not
    timed: an agent that counts is not the bare random agent the timed rounds use)."""
    agents = [CountingAgent(agent_seed(0, i)) for i in range(players)]
    for seed in range(games):
        play(game, agents, seed)
    decisions = sum(a.decisions for a in agents)
    return decisions / games, sum(a.options for a in agents) / max(decisions, 1)


@dataclass(frozen=True)
class Length:
    """Turns per game over a sample of games: the mean and its standard error."""
    mean: float
    error: float

    @classmethod
    def of(cls, turns: list[int]) -> Length:
        spread = statistics.stdev(turns) if len(turns) > 1 else 0.0
        return cls(statistics.fmean(turns), spread / math.sqrt(len(turns)))

    def differs_from(self, other: Length, sigmas: float = 4.0) -> bool:
        """Whether the two means differ by more than `sigmas` standard errors of their difference."""
        return abs(self.mean - other.mean) > sigmas * max(math.hypot(self.error, other.error), 1e-9)


def snowrules_length(game: Game, players: int, games: int) -> Length:
    """Turns per game of `games` seeded random games: the built-in `turn` counter at the end."""
    counter = game.program.turn_counter
    agents = [RandomAgent(agent_seed(0, i)) for i in range(players)]
    return Length.of([play(game, agents, seed).counters[counter] for seed in range(games)])


def reference_length(module, players: int, games: int) -> Length | None:
    """Turns per game of the reference's random games (the second value `play_game_stats` returns),
    or None when it does not say."""
    stats = getattr(module, "play_game_stats", None)
    if stats is None:
        return None
    rng = random.Random(0)
    return Length.of([stats(players, rng)[1] for _ in range(games)])


def load_reference(name: str, folder: Path = REFERENCES):
    path = folder / f"{name}.py"
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


def openspiel_round(game, games: int, seed: int) -> float:
    """Games per second of a pyspiel game played at random by a Python loop."""
    import pyspiel
    rng = random.Random(seed)
    chance, simultaneous = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.SIMULTANEOUS
    players = game.num_players()
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == chance:
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            elif player == simultaneous:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def openspiel_reference(name: str, players: int):
    """OpenSpiel's game of that name, or None when OpenSpiel is missing or has no such game."""
    if name not in OPENSPIEL_GAMES:
        return None
    try:
        import pyspiel
    except ImportError:
        print(f"{name}: open-spiel is not installed; no OpenSpiel reference", file=sys.stderr)
        return None
    from snowrules.adapters.openspiel import load_game
    # A game for a fixed number of players (Othello) takes no `players` parameter.
    parameters = pyspiel.load_game(OPENSPIEL_GAMES[name]).get_type().parameter_specification
    given = {"players": players} if "players" in parameters else {}
    return pyspiel.load_game(OPENSPIEL_GAMES[name], given), load_game(name, players=players)


def calibrate(run, seconds: float) -> int:
    """How many games make one round last about `seconds`."""
    games = 5
    while True:
        rate = run(games)
        if games / rate >= 0.2:
            return max(5, int(rate * seconds))
        games *= 4


def measure(name: str, players: int, rounds: int, seconds: float, references: Path = REFERENCES,
            variant: str | None = None) -> dict:
    game = Game(load_program(name, variant, players))
    sides = {"games_per_s": lambda g, r: snowrules_round(game, players, g, r * g)}
    spec = GameSpec(name, variant, players, ("random",) * players)
    sides["simulate_games_per_s"] = lambda g, r: simulate_round(spec, g, r + 1)
    reference = load_reference(name, references)
    if reference is not None:
        sides["reference_games_per_s"] = lambda g, r: reference_round(reference, players, g, r + 1)
    pair = openspiel_reference(name, players) if variant is None else None  # OpenSpiel plays the base game
    if pair is not None:
        sides["reference_games_per_s"] = lambda g, r: openspiel_round(pair[0], g, r + 1)
        sides["adapter_games_per_s"] = lambda g, r: openspiel_round(pair[1], g, r + 1)
    sizes = {side: calibrate(lambda g, run=run: run(g, 0), seconds) for side, run in sides.items()}
    rates: dict[str, list[float]] = {side: [] for side in sides}
    for r in range(rounds):
        for side, run in sides.items():
            rates[side].append(run(sizes[side], r))
    row = {"ruleset": name if variant is None else f"{name}+{variant}", "players": players}
    row["decisions_per_game"], row["options_per_decision"] = (round(x, 1) for x in decisions_of(game, players))
    row.update({side: round(statistics.median(values), 1) for side, values in rates.items()})
    if "reference_games_per_s" in row:
        row["reference"] = "OpenSpiel" if pair is not None else "shared/bench"
        row["ratio"] = round(row["games_per_s"] / row["reference_games_per_s"], 4)
        row["ratio_range"] = round_ratios(rates["games_per_s"], rates["reference_games_per_s"])
    if "reference_games_per_s" in row:
        row["simulate_ratio"] = round(row["simulate_games_per_s"] / row["reference_games_per_s"], 4)
        row["simulate_ratio_range"] = round_ratios(rates["simulate_games_per_s"], rates["reference_games_per_s"])
    if "adapter_games_per_s" in row:
        row["adapter_ratio"] = round(row["adapter_games_per_s"] / row["reference_games_per_s"], 4)
        row["adapter_ratio_range"] = round_ratios(rates["adapter_games_per_s"], rates["reference_games_per_s"])
    if reference is not None and pair is None:
        compare_lengths(row, snowrules_length(game, players, sizes["games_per_s"]),
                        reference_length(reference, players, sizes["reference_games_per_s"]))
    return row


def round_ratios(ours: list[float], theirs: list[float]) -> list[float]:
    """The lowest and the highest ratio of one round's rates, each side's round r having run
    next to the other's: how far the median ratio of another run may well fall from this one's
    on a shared machine (a change smaller than this range is not seen in one run)."""
    ratios = [a / b for a, b in zip(ours, theirs)]
    return [round(min(ratios), 4), round(max(ratios), 4)]


def compare_lengths(row: dict, ours: Length | None, theirs: Length | None) -> None:
    """Add both sides' turns per game and the ratio of turns per second to `row`, and warn when
    the two sides' games are not of the same length."""
    if ours is None or theirs is None:
        return
    row["turns_per_game"], row["reference_turns_per_game"] = round(ours.mean, 2), round(theirs.mean, 2)
    row["turn_ratio"] = round(row["ratio"] * ours.mean / theirs.mean, 4)
    if "ratio_range" in row:
        row["turn_ratio_range"] = [round(r * ours.mean / theirs.mean, 4) for r in row["ratio_range"]]
    row["same_length"] = not ours.differs_from(theirs)
    if not row["same_length"]:
        print(f"{row['ruleset']} at {row['players']} players: the reference's games last {theirs.mean:.2f} turns "
              f"(+-{theirs.error:.2f}) and the ruleset's {ours.mean:.2f} (+-{ours.error:.2f}): they do not play the "
              f"same game, so the ratio of games ({row['ratio']:.3f}) is not like for like; the ratio of turns per "
              f"second ({row['turn_ratio']:.3f}) is, if a turn is the same work on both sides; else measure a variant "
              f"that plays the reference's game (--variant)", file=sys.stderr)


def configuration_arguments(description: str) -> argparse.ArgumentParser:
    """The arguments every benchmark of tools/ takes: which rulesets, at which player counts."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--ruleset", action="append", help="a bundled ruleset (default: all)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    return parser


def configurations(names: list[str] | None, players: list[int], variant: str | None = None) -> list[tuple[str, int]]:
    """(ruleset, player count) for each ruleset asked (default: every bundled one) at each count it
    plays (with `variant`, each count the variant plays); a ruleset that plays at none of them (a
    solo game) at its fewest players."""
    found = []
    for name in names or bundled_names():
        ruleset = load_ruleset(name, variant)
        counts = [p for p in players if ruleset.min_players <= p <= ruleset.max_players]
        found += [(name, count) for count in counts or [ruleset.min_players]]
    return found


def configurations_asked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[tuple[str, int]]:
    """`configurations` of the command line's arguments; an unknown ruleset or variant ends the
    command with its message (path:line:col), as argparse ends it for a malformed argument."""
    try:
        return configurations(args.ruleset, args.players, getattr(args, "variant", None))
    except SnowrulesError as error:
        parser.error(str(error))


def ratio_cell(row: dict, key: str) -> str:
    """A ratio for the table: the median, and under it the range of the rounds' ratios."""
    if key not in row:
        return "-"
    median = f"{row[key]:.3f}"
    if f"{key}_range" not in row:
        return median
    low, high = (f"{r:.2f}".removeprefix("0") for r in row[f"{key}_range"])  # .18-.23: a narrow column
    return f"{median}\n{low}-{high}"


def main(argv=None) -> int:
    parser = configuration_arguments(__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians are reported")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round of one side")
    parser.add_argument("--variant", help="play this variant of the ruleset (one --ruleset) instead of its base game")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--references", type=Path, help=f"the hand-written references (default: {REFERENCES})")
    args = parser.parse_args(argv)
    if args.variant is not None and len(args.ruleset or []) != 1:
        parser.error("--variant needs exactly one --ruleset")

    rows = [measure(name, players, args.rounds, args.seconds, args.references or REFERENCES, args.variant)
            for name, players in configurations_asked(parser, args)]
    if args.json:
        print(json.dumps(rows))
        return 0
    from rich import box
    from rich.console import Console
    from rich.table import Table
    # Few borders and short headings, so that a 120-column terminal shows every figure whole.
    table = Table(title="random-agent games per second (medians of alternating rounds; under a ratio, its range "
                        "over the rounds)", box=box.SIMPLE_HEAD,
                  caption="ref/s: the reference's games per second, of the hand-written simulator in "
                          "../shared/bench or of OpenSpiel's own game (*); turns: turns per game, the ruleset's/the "
                          "reference's; simulate: games of `snowrules simulate` (its default figures on); "
                          "adapter: through the OpenSpiel adapter; asks: decisions per game; options: options per "
                          "decision")
    cells = []
    for row in rows:
        openspiel = row.get("reference") == "OpenSpiel"
        cells.append([row["ruleset"], str(row["players"]), f"{row['games_per_s']:.1f}" if row["games_per_s"] < 10
                      else f"{row['games_per_s']:.0f}",
                      f"{row['reference_games_per_s']:.0f}{'*' if openspiel else ''}" if "ratio" in row else "-",
                      ratio_cell(row, "ratio"),
                      f"{row['turns_per_game']:.1f}/{row['reference_turns_per_game']:.1f}"
                      if "turn_ratio" in row else "-",
                      ratio_cell(row, "turn_ratio"),
                      f"{row['simulate_games_per_s']:.0f}", ratio_cell(row, "simulate_ratio"),
                      f"{row['adapter_games_per_s']:.0f}" if "adapter_ratio" in row else "-",
                      ratio_cell(row, "adapter_ratio"),
                      f"{row['decisions_per_game']:.1f}", f"{row['options_per_decision']:.1f}"])
    headings = ("ruleset", "players", "games/s", "ref/s", "ratio", "turns", "turn\nratio", "simulate", "sim\nratio",
                "adapter", "adapter\nratio", "asks", "options")
    for number, heading in enumerate(headings):  # a figure is never cut short; a heading may be
        table.add_column(heading, justify="left" if number == 0 else "right", no_wrap=True,
                         min_width=max((len(text) for line in cells for text in line[number].split("\n")), default=1))
    for line in cells:
        table.add_row(*line)
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
