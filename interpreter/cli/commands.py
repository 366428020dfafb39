"""What each `snowrules` sub-command does (the argument parsing lives in cli/main.py)."""
from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

from snowrules.cli.usage import UsageError
from snowrules.compile.compiler import compile_ruleset
from snowrules.data.extras import installed
from snowrules.language.diagnostics import Diagnostic, Position, SnowrulesError
from snowrules.language.names import name_problem
from snowrules.load.option_text import options_text
from snowrules.load.ruleset import bundled_names, find_ruleset, load_ruleset, set_options
from snowrules.play.agents import AgentSpecError, HumanAgent, agent_seed, parse_agents, play
from snowrules.play.grid_follower import GridFollower
from snowrules.play.grid_picture import PictureError, picture_target_problem
from snowrules.play.layouts import draw_state, followed_grids, layouts_text, state_grids, visible_grid_zones
from snowrules.play.narrate import account_listeners, account_observer, narrator_for, tee
from snowrules.play.replay import replay
from snowrules.play.results import result_reading
from snowrules.records.logfile import LogWriter, header, result_event
from snowrules.records.logwriter import log_target_problem
from snowrules.records.scenarios import run_scenario, scenario_files
from snowrules.runtime.clock import TIME_LIMIT_CODE, game_clock
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import player_returns


def _ruleset(ref: str, variant: str | None, options: list[str] | None = None, constants: list[str] | None = None,
             flag: str = "--constant"):
    if find_ruleset(ref) is None:
        raise UsageError(f"no ruleset {ref!r}: give a bundled ruleset ({', '.join(bundled_names())}) "
                         "or a folder holding a ruleset.yaml")
    if variant is not None and name_problem(variant, "variant name"):
        raise UsageError(f"--variant: {name_problem(variant, 'variant name')}")
    try:
        ruleset = load_ruleset(ref, variant)
    except SnowrulesError as error:  # an unknown variant is a wrong argument, as an unknown option is
        unknown = [d for d in error.diagnostics if d.code == "SR208"]
        if variant is None or len(unknown) != len(error.diagnostics):
            raise
        raise UsageError(f"--variant: {unknown[0].message} ({unknown[0].hint})") from None
    if constants:
        from snowrules.load.set_constants import ConstantError, set_constants
        try:
            ruleset = set_constants(ruleset, constants, flag)
        except ConstantError as error:
            raise UsageError(str(error)) from None
    values = {}
    for text in options or []:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise UsageError(f"--option {text!r}: write NAME=VALUE, e.g. --option size=6")
        if name_problem(name.strip(), "option name"):
            raise UsageError(f"--option: {name_problem(name.strip(), 'option name')}")
        values[name.strip()] = value.strip()
    try:
        set_options(ruleset, values)
    except SnowrulesError as error:
        problem = error.diagnostics[0]
        hint = f" ({problem.hint})" if problem.hint else ""
        raise UsageError(f"--option: {problem.message}{hint}") from None
    return ruleset


RUN_FORMAT = "snowrules-run/1"  # the `run --json` object: schemas/run_result.schema.json


def _players(ruleset, requested: int | None, agents: str = "") -> int:
    """The player count asked for; without one, one player per agent listed, else the ruleset's minimum."""
    if requested is None and agents:
        try:
            listed = parse_agents(agents)  # `mcts:iterations=200,seed=3,random` is two agents
        except AgentSpecError as error:
            raise UsageError(f"--agents: {error}") from None
        if len(listed) > 1:
            requested = len(listed)
    players = ruleset.min_players if requested is None else requested
    if not ruleset.min_players <= players <= ruleset.max_players:
        variant = f" (variant {ruleset.variant})" if ruleset.variant else ""
        low, high = ruleset.min_players, ruleset.max_players
        counts = f"{low} player{'' if low == 1 else 's'}" if low == high else f"{low} to {high} players"
        raise UsageError(f"--players {players}: {ruleset.title}{variant} is for {counts}")
    return players


def _agents(spec: str, players: int, seed: int) -> tuple[list, list[str]]:
    """The agents of `--agents` (see `parse_agents`: `mcts:iterations=200,seed=3,random`): one
    for everybody, or one per player."""
    try:
        specs = parse_agents(spec)
    except AgentSpecError as error:
        raise UsageError(f"--agents: {error}") from None
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UsageError(f"--agents gives {len(specs)} agents for {players} players")
    return [s.build(agent_seed(seed, i)) for i, s in enumerate(specs)], [str(s) for s in specs]


def command_run(args) -> int:
    if args.log is not None and (problem := log_target_problem(args.log)) is not None:
        raise UsageError(f"--log {args.log}: {problem}")
    if args.log is not None and getattr(args, "constant", []):
        raise UsageError("--log with --constant: a log replays the ruleset as its files say; "
                         "put the constant in a variant file to keep such a game (docs/language.md, Variants)")
    picture = getattr(args, "picture", None)
    if picture is not None and (problem := picture_target_problem(picture)) is not None:
        raise UsageError(f"--picture {picture}: {problem}")
    ruleset = _ruleset(args.ruleset, args.variant, args.option, getattr(args, "constant", []))
    players = _players(ruleset, args.players, args.agents)
    agents, agent_names = _agents(args.agents, players, args.seed)
    if args.json:  # stdout holds only the result: a person at the table is asked on stderr
        agents = [HumanAgent.on_stderr() if type(agent) is HumanAgent else agent for agent in agents]
    game = Game(compile_ruleset(ruleset, players))
    if picture is not None and not game.layout.grid_zones:
        raise UsageError(f"--picture {picture}: {ruleset.title} has no grid zone to draw")
    table = None
    humans: set[int] = set()
    if not args.json:
        humans = {seat for seat in range(game.layout.player_seats)
                  if agent_names[game.program.controller(seat)] == "human"}
    if humans:  # people at the terminal share it (hot seat, undo: play/table.py)
        from snowrules.play.table import Table
        table = Table(game, humans, getattr(args, "reveal", False))
        agents = [HumanAgent(table=table) if type(agent) is HumanAgent else agent for agent in agents]
    # With people at the table, the account tells only what they may see (in hot seat: the public part).
    readers = table.reader_seats(humans) if table is not None else None
    if not args.json:
        changed = {k: v for k, v in ruleset.option_values.items() if v != ruleset.options[k]["default"]}
        print(f"{ruleset.title} - {players} player{'' if players == 1 else 's'}"
              + (f", variant {ruleset.variant}" if ruleset.variant else "")
              + (f", {options_text(changed)}" if changed else "")
              + f", seed {args.seed}, seats: {', '.join(game.layout.seat_names)}")
    account: list = [None]  # the narrator of the current play of the game (a new one after each undo)

    def attempt(log=None):
        """The sink, listener and observer of one play of the game: a fresh account (and log, from
        its start); the observer gives the account's labels the state (narrate.AccountLabels)."""
        sinks, listeners = [], []
        if not args.json:
            write = table.say if table is not None else print
            narrator = narrator_for(game, write, readers, args.rules)
            account[0] = narrator
            if table is not None:
                table.flush_account = narrator.flush
            sinks.append(narrator.feed)
            listeners.extend(account_listeners(narrator))
            if getattr(args, "verbose", False) and game.layout.grid_zones:
                follow_layouts, tell_layout = _layout_after_placements(game, readers, write)
                sinks.append(tell_layout)
                listeners.insert(0, follow_layouts)
        if log is not None:
            log.restart()
            log.write(header(game, args.seed, agent_names, ruleset.folder))
            sinks.append(log.write)
        return tee(sinks), tee(listeners), account_observer(account[0]) if not args.json else None

    def played(log=None):
        if table is not None:
            from snowrules.play.table import play_at_table
            return play_at_table(game, agents, args.seed, table, lambda: attempt(log))
        sink, listen, observe = attempt(log)
        return play(game, agents, args.seed, sink, listen=listen, observe=observe)

    # a person's thinking is not timed: a game with people stops when they do
    seconds = None if "human" in agent_names else args.time_limit
    if args.log is not None:
        with LogWriter(args.log) as log:
            with game_clock(seconds, game.program):
                st = played(log)
            log.write(result_event(game, st))
    else:
        with game_clock(seconds, game.program):
            st = played()
    narrator = account[0]
    if picture is not None:
        try:
            draw_state(game.program, st, picture)
        except PictureError as error:
            raise UsageError(f"--picture {error}") from None
    outcome = game.outcome(st)
    seat_names = game.layout.seat_names
    player_names = [" & ".join(seat_names[s] for s in game.program.seats_of(p)) for p in range(players)]
    result = {"format": RUN_FORMAT, "ruleset": ruleset.name, "variant": ruleset.variant,
              "options": ruleset.option_values, "seed": args.seed, "players": players,
              "agents": agent_names, "player_names": player_names, "scores": outcome.scores,
              "seat_scores": dict(zip(seat_names, outcome.seat_scores)), "winners": outcome.winners,
              "winner_names": [player_names[w] for w in outcome.winners], "turns": outcome.turns}
    returns = player_returns(game.program, st)
    if returns is not None:  # the manifest's `returns`: what each player gets, shown instead of scores
        result["returns"] = returns
    result.update(result_reading(game, st))  # the manifest's `result:`: titles, what decided a tie
    if game.layout.automa is not None:  # played by the rules: shown beside the players, never one of them
        result["automa"] = {"name": seat_names[game.layout.automa], "score": outcome.automa_score,
                            "winner": outcome.automa_won}
    if args.json:
        print(json.dumps(result))
        return 0
    narrator.finish(st)
    if game.layout.grid_zones:  # the layout at the end, as far as the people at the table see it
        print("\n" + layouts_text(game.program, state_grids(game.program, st, readers)))
    _print_result(ruleset.title, result, game.program.turn_word)
    if args.log is not None:
        print(f"log written to {args.log}")
    if picture is not None:
        print(f"picture written to {picture}")
    return 0


def _layout_after_placements(game: Game, seats: set[int] | None, write=print):
    """`--verbose`: a listener that follows the grid zones (play/grid_follower.py), and a sink,
    after the narrator's, that draws a zone's layout once the account has told the placement."""
    placed: list[int] = []
    follower = GridFollower(game.layout, placed.append)
    shown = set(visible_grid_zones(game.program, seats))

    def tell_layout(event: dict) -> None:
        zones = [z for z in dict.fromkeys(placed) if z in shown]
        placed.clear()
        if zones:
            text = layouts_text(game.program, followed_grids(game.program, follower.grids, zones))
            write("\n".join("      " + line if line else "" for line in text.splitlines()))
    return follower.feed, tell_layout


def _print_result(title: str, result: dict, turn_word: str = "turn") -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{title}: result after {result['turns']} {turn_word}{'' if result['turns'] == 1 else 's'}")
    table.add_column("player")
    table.add_column("agent")
    shown = "returns" if "returns" in result else "scores"
    table.add_column("return" if shown == "returns" else "score", justify="right")
    solo = len(result["player_names"]) == 1 and "automa" not in result  # nobody to win against
    if not solo:
        table.add_column("")
    titles = result.get("titles")
    if titles is not None:  # the manifest's `result: title:` (play/results.py)
        table.add_column("title")
    for i, name in enumerate(result["player_names"]):
        value = result[shown][i]
        table.add_row(name, result["agents"][i], str(value) if isinstance(value, int) else f"{value:.4g}",
                      *([] if solo else ["winner" if i in result["winners"] else ""]),
                      *([] if titles is None else [titles[i] or ""]))
    automa = result.get("automa")
    if automa is not None:  # its score, beside the players' scores (or returns)
        table.add_row(automa["name"], "the rules", str(automa["score"]) if shown == "scores" else "",
                      "winner" if automa["winner"] else "", *([] if titles is None else [""]))
    Console().print(table)
    if "tie" in result:  # what decided a shared best score, under the table
        print(result["tie"])


def command_validate(args) -> int:
    """Exit 0 clean (warnings allowed unless --strict), 1 with errors, 2 on a usage error."""
    from snowrules.cli.formats import FORMATS
    from snowrules.play.smoke import DEFAULT_BOUNDS, SmokeBounds
    form = getattr(args, "format", "text")
    if form not in FORMATS:
        raise UsageError(f"--format {form!r}: choose one of {', '.join(FORMATS)}")
    from snowrules.cli import junit
    bounds = SmokeBounds(seconds=getattr(args, "time_limit", DEFAULT_BOUNDS.seconds))
    junit_file = getattr(args, "junit_xml", None)
    junit.check_target(junit_file)
    if getattr(args, "watch", False):
        from snowrules.cli.watch import watch_and_validate
        return watch_and_validate(args, lambda: _validate_once(args, form, bounds, junit_file))
    return _validate_once(args, form, bounds, junit_file)


def _validate_once(args, form: str, bounds, junit_file: Path | None) -> int:
    """One round of validate: the problems printed, the exit code returned."""
    from snowrules.cli import junit
    from snowrules.cli.formats import render
    from snowrules.cli.validation import validate_paths
    from snowrules.cli.version import installed_version
    cases: list = []
    # each folder's check, smoke games and scenarios compile each configuration once (validate_folder)
    workers = getattr(args, "workers", None) or os.cpu_count() or 1
    folders, problems = validate_paths(args.paths, not getattr(args, "no_play", False), bounds,
                                       not getattr(args, "no_scenarios", False), cases, getattr(args, "strict", False),
                                       workers)
    if junit_file is not None:
        junit.write(junit_file, cases)
    sys.stdout.write(render(problems, form, installed_version()))
    errors = sum(d.severity == "error" for d in problems)
    notes = sum(d.severity == "note" for d in problems)  # a note never fails, even --strict
    warnings = len(problems) - errors - notes
    failing = errors + (warnings if getattr(args, "strict", False) else 0)
    if errors + warnings and form == "text":
        print(f"{errors + warnings} problem(s) found: {errors} error(s), {warnings} warning(s)"
              + (f", {notes} note(s)" if notes else ""), file=sys.stderr)
    if not failing and form == "text":
        for folder in folders:
            print(f"{folder}: valid")
    return 1 if failing else 0



def validate_folder(folder: Path) -> list[Diagnostic]:
    """Every problem of a ruleset folder (kept for scripts that import it; see cli/validation.py)."""
    from snowrules.cli.validation import validate_folder as validate
    return validate(folder)


def command_test(args) -> int:
    import time

    from snowrules.cli import junit
    junit_file = getattr(args, "junit_xml", None)
    junit.check_target(junit_file)
    ruleset = _ruleset(args.ruleset, None)
    files = scenario_files(ruleset)
    if not files:
        print(f"{ruleset.name}: no scenarios in {ruleset.folder / 'scenarios'}")
        return 1
    files = junit.chosen(files, getattr(args, "pattern", None))
    passed = failed = 0
    cases: list[junit.Case] = []
    read: dict = {}  # the ruleset is read once for all its scenarios
    out_of_time = None  # the first scenario stopped by its time limit: the others are not run
    not_run = 0
    for path in files:
        started = time.perf_counter()
        if out_of_time is not None:
            not_run += 1
            print(f"SKIP {path.name}: not run, as {out_of_time} ran out of time (most likely in the same rule)")
            cases.append(junit.Case(ruleset.name, path.name, 0.0, [f"not run: {out_of_time} ran out of time"]))
            continue
        try:
            result = run_scenario(path, args.ruleset, read=read, clock=functools.partial(
                game_clock, getattr(args, "time_limit", None), where=Position(str(path), 1, 1)))
        except SnowrulesError as error:
            failed += 1
            print(f"FAIL {path.name}")
            for diagnostic in error.diagnostics:
                print(f"    {diagnostic}")
            cases.append(junit.Case(ruleset.name, path.name, time.perf_counter() - started,
                                    [str(d) for d in error.diagnostics]))
            if any(d.code == TIME_LIMIT_CODE for d in error.diagnostics):
                out_of_time = path.name
            continue
        cases.append(junit.Case(ruleset.name, path.name, time.perf_counter() - started, list(result.failures)))
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
    print(f"{passed} passed, {failed} failed" + (f", {not_run} not run" if not_run else ""))
    if junit_file is not None:
        junit.write(junit_file, cases)
    return 1 if failed else 0


def command_replay(args) -> int:
    if getattr(args, "seat", None) is not None and not getattr(args, "show", False):
        raise UsageError("--seat goes with --show (it says whose view the game is shown from)")
    if getattr(args, "html", None) is not None:
        from snowrules.web.saved_page import command_replay_html
        return command_replay_html(args)
    if getattr(args, "show", False):
        return _show_log(args)
    with game_clock(getattr(args, "time_limit", None), where=Position(str(args.log), 1, 1)):
        report = replay(args.log, args.ruleset)
    for note in report.notes:
        print(f"{args.log}:1:1: note: {note}")
    if report.identical:
        print(f"{args.log}: identical ({report.events} events replayed)")
        return 0
    where = f"{args.log}:{report.line}:1: " if report.line else f"{args.log}: "
    print(f"{where}error: {report.message} after {report.events} identical events")
    print(f"  log:    {json.dumps(report.expected)}")
    print(f"  replay: {json.dumps(report.got)}")
    return 1


def _show_log(args) -> int:
    """`replay LOG --show [--seat NAME]`: the game told step by step (play/show.py)."""
    from snowrules.play.replay import logged_game
    from snowrules.play.show import account_steps, show_steps
    from snowrules.records.logfile import read_log
    logged = read_log(args.log)
    game, _ruleset, notes = logged_game(logged, args.ruleset)
    for note in notes:
        print(f"{args.log}:1:1: note: {note}")
    names = game.layout.seat_names
    seat = None
    if args.seat is not None:
        if args.seat not in names:
            raise UsageError(f"--seat {args.seat!r}: the seats of this game are {', '.join(names)}")
        seat = names.index(args.seat)
    view = f"{args.seat}'s view" if seat is not None else "every seat's view"
    with game_clock(getattr(args, "time_limit", None), where=Position(str(args.log), 1, 1)):
        steps = account_steps(logged, game, seat)
    show_steps(steps, f"{args.log}: {logged.header['ruleset']}, {view}")
    return 0


def _check_simulation_arguments(args, agent_names: list[str]) -> None:
    """Usage errors of simulate and compare, found before any game is played."""
    if "human" in agent_names:
        raise UsageError(f"--agents {args.agents}: {args.command} plays its games without people; "
                         "give random, first, greedy or mcts (a person plays with `snowrules run`)")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.cluster is not None and args.workers != 1:
        raise UsageError("give --workers or --cluster, not both (a cluster's workers are its own)")
    check_report_argument(args.report)


def check_report_argument(folder: Path | None) -> None:
    """`--report DIR` (simulate, compare, tournament): the plotting library there, and a folder
    that can be written; else a usage error."""
    if folder is None:
        return
    from snowrules.play.report import ReportUnavailable, check_report_available, report_folder_problem
    try:
        check_report_available()
    except ReportUnavailable as error:
        raise UsageError(f"--report: {error}") from None
    if (problem := report_folder_problem(folder)) is not None:
        raise UsageError(f"--report {folder}: {problem}")


def _simulated(args, ruleset, players: int, agent_names: list[str]):
    """Play the games of one side; a cluster that cannot be used is a usage error."""
    from snowrules.play.batch import GameSpec
    from snowrules.play.cluster import ClusterError
    from snowrules.play.simulate import simulate
    options = tuple(sorted(ruleset.option_values.items()))
    spec = GameSpec(args.ruleset, ruleset.variant, players, tuple(agent_names), options, not args.no_components,
                    getattr(args, "time_limit", None), ruleset.constants_set)
    try:
        return simulate(spec, args.games, args.seed, args.workers, args.cluster,
                        progress=not args.json and sys.stderr.isatty())
    except ClusterError as error:
        raise UsageError(str(error)) from None


def _replay_command(args, ruleset, players: int, agent_names: list[str]) -> str:
    """The `snowrules run` command that plays one of the simulated games again (add --seed)."""
    parts = ["snowrules run", args.ruleset, f"--players {players}"]
    if ruleset.variant:
        parts.append(f"--variant {ruleset.variant}")
    parts += [f"--option {name}={value}" for name, value in sorted(ruleset.option_values.items())
              if value != ruleset.options[name]["default"]]
    from snowrules.load.set_constants import constant_text
    parts += [f"--constant {constant_text(name, value)}" for name, value in ruleset.constants_set]
    if set(agent_names) != {"random"}:
        parts.append(f"--agents {','.join(agent_names)}")
    return " ".join(parts)


def command_simulate(args) -> int:
    ruleset = _ruleset(args.ruleset, args.variant, args.option, getattr(args, "constant", []))
    players = _players(ruleset, args.players, args.agents)
    _, agent_names = _agents(args.agents, players, 0)
    _check_simulation_arguments(args, agent_names)
    if args.out is not None:
        from snowrules.records.game_table import TableFormatError, check_table_path
        try:
            check_table_path(args.out)
        except TableFormatError as error:
            raise UsageError(f"--out: {error}") from None
    from snowrules.cli.simulation_output import print_summary, simulate_json
    from snowrules.play.batch import player_names
    run = _simulated(args, ruleset, players, agent_names)
    if not run.records:
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    summary = run.summary
    names = player_names(run.spec)
    if args.out is not None:
        from snowrules.records.game_table import write_table
        write_table(args.out, run.records, players)
    if args.report is not None:
        from snowrules.play.report import simulation_report
        page = simulation_report(args.report, ruleset.title, run, summary)
        if not args.json:
            print(f"report written to {page}")
    if args.json:
        print(json.dumps(simulate_json(run, summary, ruleset.name, ruleset.option_values, names)))
    else:
        print_summary(ruleset.title, run, summary, _replay_command(args, ruleset, players, agent_names), names)
        if args.out is not None:
            print(f"{len(run.records)} games written to {args.out}")
    return 130 if run.interrupted else 0


def _compared_sides(args):
    """(base ruleset, other ruleset): base against one variant, or the first variant against the second."""
    if len(args.variant) > 2:
        raise UsageError("--variant: give one (base against it) or two (the first against the second)")
    if not args.variant and not args.other_option and not args.other_constant:
        raise UsageError("nothing to compare: give --variant V, two --variant, --other-option NAME=VALUE "
                         "or --other-constant NAME=VALUE")
    base_variant = args.variant[0] if len(args.variant) == 2 else None
    other_variant = args.variant[-1] if args.variant else None
    base = _ruleset(args.ruleset, base_variant, args.option, args.constant)
    other = _ruleset(args.ruleset, other_variant, args.option + args.other_option, args.constant + args.other_constant,
                     "--other-constant")
    return base, other


def _compared_players(args, base, other) -> tuple[int, int]:
    """--players for both sides; by default the fewest players both allow (paired games), else each
    side's own minimum."""
    if args.players is not None:
        return _players(base, args.players, args.agents), _players(other, args.players, args.agents)
    common = max(base.min_players, other.min_players)
    if common <= min(base.max_players, other.max_players):
        return common, common
    return base.min_players, other.min_players


def _side_label(ruleset, base_options: dict) -> str:
    changed = {k: v for k, v in ruleset.option_values.items() if base_options.get(k) != v}
    label = f"variant {ruleset.variant}" if ruleset.variant else "base game"
    return label + (f" with {options_text(changed)}" if changed else "")


def command_compare(args) -> int:
    base, other = _compared_sides(args)
    base_players, other_players = _compared_players(args, base, other)
    _, base_agents = _agents(args.agents, base_players, 0)
    _, other_agents = _agents(args.agents, other_players, 0)
    _check_simulation_arguments(args, base_agents + other_agents)
    if not installed("scipy"):
        raise UsageError("compare needs scipy for its tests: pip install 'snowrules[stats]'")
    from snowrules.cli.simulation_output import compare_json, print_comparison, side_json
    from snowrules.play.comparison import compare
    runs = []
    for ruleset, players, agents in ((base, base_players, base_agents), (other, other_players, other_agents)):
        runs.append(_simulated(args, ruleset, players, agents))
        if runs[-1].interrupted:
            break
    if len(runs) < 2 or not runs[0].records or not runs[1].records:
        print("interrupted before both sides finished a game", file=sys.stderr)
        return 130
    comparison = compare(runs[0].records, runs[1].records, base_players, other_players)
    labels = (_side_label(base, base.option_values), _side_label(other, base.option_values))
    if args.other_constant:  # what the compared side sets, as typed
        labels = (labels[0], labels[1] + (" with " if " with " not in labels[1] else ", ")
                  + ", ".join(text.strip() for text in args.other_constant))
    if args.report is not None:
        from snowrules.play.report import comparison_report
        page = comparison_report(args.report, base.title, runs, comparison, labels)
        if not args.json:
            print(f"report written to {page}")
    if args.json:
        sides = [side_json(run, base.name, ruleset.option_values) for run, ruleset in zip(runs, (base, other))]
        print(json.dumps(compare_json(comparison, *sides)))
    else:
        print_comparison(base.title, comparison, *labels, tuple(runs))
    return 130 if any(run.interrupted for run in runs) else 0
