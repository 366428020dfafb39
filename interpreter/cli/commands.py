"""What each `snowrules` sub-command does (the argument parsing lives in cli.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import Diagnostic, SnowrulesError
from snowrules.load.ruleset import bundled_names, find_ruleset, load_ruleset, options_text, set_options
from snowrules.play.agents import AGENTS, make_agent, play
from snowrules.play.narrate import Narrator, secrets_for
from snowrules.records.logfile import LogWriter, header, replay, result_event
from snowrules.records.scenarios import run_scenario, scenario_files
from snowrules.runtime.engine import Game


class UsageError(Exception):
    """A wrong command-line argument (exit 2)."""


def _ruleset(ref: str, variant: str | None, options: list[str] | None = None):
    if find_ruleset(ref) is None:
        raise UsageError(f"no ruleset {ref!r}: give a bundled ruleset ({', '.join(bundled_names())}) "
                         "or a folder holding a ruleset.yaml")
    ruleset = load_ruleset(ref, variant)
    values = {}
    for text in options or []:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise UsageError(f"--option {text!r}: write NAME=VALUE, e.g. --option size=6")
        values[name.strip()] = value.strip()
    try:
        set_options(ruleset, values)
    except SnowrulesError as error:
        problem = error.diagnostics[0]
        hint = f" ({problem.hint})" if problem.hint else ""
        raise UsageError(f"--option: {problem.message}{hint}") from None
    return ruleset


def _players(ruleset, requested: int | None) -> int:
    players = ruleset.min_players if requested is None else requested
    if not ruleset.min_players <= players <= ruleset.max_players:
        variant = f" (variant {ruleset.variant})" if ruleset.variant else ""
        raise UsageError(f"--players {players}: {ruleset.title}{variant} is for {ruleset.min_players} "
                         f"to {ruleset.max_players} players")
    return players


def _agents(spec: str, players: int, seed: int) -> tuple[list, list[str]]:
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(f"--agents gives {len(names)} agents for {players} players")
    for name in names:
        if name not in AGENTS:
            raise UsageError(f"--agents: unknown agent {name!r}; agents: {', '.join(AGENTS)}")
    return [make_agent(name, seed * 1000 + i) for i, name in enumerate(names)], names


def command_run(args) -> int:
    ruleset = _ruleset(args.ruleset, args.variant, args.option)
    players = _players(ruleset, args.players)
    agents, agent_names = _agents(args.agents, players, args.seed)
    game = Game(compile_ruleset(ruleset, players))
    sinks = []
    narrator = None
    if not args.json:
        # With people at the table, the account tells only what they may see.
        humans = {seat for seat in range(game.layout.seats) if agent_names[game.program.controller(seat)] == "human"}
        narrator = Narrator(args.rules, print, secrets_for(game.layout, humans) if humans else None)
        changed = {k: v for k, v in ruleset.option_values.items() if v != ruleset.options[k]["default"]}
        print(f"{ruleset.title} - {players} players"
              + (f", variant {ruleset.variant}" if ruleset.variant else "")
              + (f", {options_text(changed)}" if changed else "")
              + f", seed {args.seed}, seats: {', '.join(game.layout.seat_names)}")
        sinks.append(narrator.feed)

    if args.log is not None:
        with LogWriter(args.log) as log:
            log.write(header(game, args.seed, agent_names, str(ruleset.folder)))
            st = play(game, agents, args.seed, _tee(sinks + [log.write]))
            log.write(result_event(game, st))
    else:
        st = play(game, agents, args.seed, _tee(sinks))
    outcome = game.outcome(st)
    seat_names = game.layout.seat_names
    player_names = [" & ".join(seat_names[s] for s in game.program.seats_of(p)) for p in range(players)]
    result = {"ruleset": ruleset.name, "variant": ruleset.variant, "options": ruleset.option_values,
              "seed": args.seed, "players": players,
              "agents": agent_names, "player_names": player_names, "scores": outcome.scores,
              "seat_scores": dict(zip(seat_names, outcome.seat_scores)), "winners": outcome.winners,
              "winner_names": [player_names[w] for w in outcome.winners], "turns": outcome.turns}
    if args.json:
        print(json.dumps(result))
        return 0
    narrator.flush()
    _print_result(ruleset.title, result)
    if args.log is not None:
        print(f"log written to {args.log}")
    return 0


def _tee(sinks: list):
    """One event sink that feeds every sink of the list (None when the list is empty)."""
    if len(sinks) <= 1:
        return sinks[0] if sinks else None

    def every(event: dict) -> None:
        for sink in sinks:
            sink(event)
    return every


def _print_result(title: str, result: dict) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{title}: result after {result['turns']} turns")
    table.add_column("player")
    table.add_column("agent")
    table.add_column("score", justify="right")
    table.add_column("")
    for i, name in enumerate(result["player_names"]):
        table.add_row(name, result["agents"][i], str(result["scores"][i]),
                      "winner" if i in result["winners"] else "")
    Console().print(table)


def command_validate(args) -> int:
    """Exit 0 clean (warnings allowed unless --strict), 1 with errors, 2 on a usage error."""
    from snowrules.cli.formats import FORMATS, render
    from snowrules.cli.validation import validate_paths
    form = getattr(args, "format", "text")
    if form not in FORMATS:
        raise UsageError(f"--format {form!r}: choose one of {', '.join(FORMATS)}")
    folders, problems = validate_paths(args.paths, play=not getattr(args, "no_play", False))
    sys.stdout.write(render(problems, form, _version()))
    errors = sum(d.severity == "error" for d in problems)
    failing = errors + (len(problems) - errors if getattr(args, "strict", False) else 0)
    if problems and form == "text":
        print(f"{len(problems)} problem(s) found: {errors} error(s), {len(problems) - errors} warning(s)",
              file=sys.stderr)
    if not failing and form == "text":
        for folder in folders:
            print(f"{folder}: valid")
    return 1 if failing else 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("snowrules")
    except PackageNotFoundError:
        return "0"


def validate_folder(folder: Path) -> list[Diagnostic]:
    """Every problem of a ruleset folder (kept for scripts that import it; see cli/validation.py)."""
    from snowrules.cli.validation import validate_folder as validate
    return validate(folder)


def command_test(args) -> int:
    ruleset = _ruleset(args.ruleset, None)
    files = scenario_files(ruleset)
    if not files:
        print(f"{ruleset.name}: no scenarios in {ruleset.folder / 'scenarios'}")
        return 1
    passed = failed = 0
    for path in files:
        try:
            result = run_scenario(path, args.ruleset)
        except SnowrulesError as error:
            failed += 1
            print(f"FAIL {path.name}")
            for diagnostic in error.diagnostics:
                print(f"    {diagnostic}")
            continue
        if args.verbose:
            from snowrules.play.narrate import narrate
            for line in narrate(result.events):
                print("    " + line)
        if result.passed:
            passed += 1
            print(f"pass {path.name}: {result.name}")
        else:
            failed += 1
            print(f"FAIL {path.name}: {result.name}")
            for failure in result.failures:
                print(f"    {failure}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def command_replay(args) -> int:
    report = replay(args.log)
    if report.identical:
        print(f"{args.log}: identical ({report.events} events replayed)")
        return 0
    where = f"{args.log}:{report.line}:1: " if report.line else f"{args.log}: "
    print(f"{where}error: {report.message} after {report.events} identical events")
    print(f"  log:    {json.dumps(report.expected)}")
    print(f"  replay: {json.dumps(report.got)}")
    return 1


def command_simulate(args) -> int:
    ruleset = _ruleset(args.ruleset, args.variant, args.option)
    players = _players(ruleset, args.players)
    _agents(args.agents, players, 0)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    from snowrules.play.simulate import simulate
    options = tuple(sorted(ruleset.option_values.items()))
    summary = simulate(args.ruleset, args.variant, players, args.agents, args.games, args.seed,
                       args.workers, progress=not args.json, options=options)
    summary.update({"ruleset": ruleset.name, "variant": args.variant, "options": dict(options)})
    if args.json:
        print(json.dumps(summary))
        return 0
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{ruleset.title}: {args.games} games, {summary['games_per_s']} games/s")
    table.add_column("player")
    table.add_column("win rate", justify="right")
    table.add_column("mean score", justify="right")
    for i in range(players):
        table.add_row(str(i + 1), f"{summary['win_rates'][i]:.3f}", f"{summary['score_means'][i]:.2f}")
    Console().print(table)
    print(f"mean turns: {summary['mean_turns']:.2f}")
    return 0

