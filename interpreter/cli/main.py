"""The `snowrules` command: run, validate, test, replay, simulate, compare, tournament, list, explain, sweep,
tune, lsp, upgrade, serve.

Exit codes (a contract scripts rely on): 0 success; 1 the input has problems (each printed as
`path:line:col: error: message`), a scenario failed or a replay differs; 2 a usage error;
130 interrupted; 70 an internal error. No Python traceback reaches the user.
"""
from __future__ import annotations

import argparse
import os
import re
import select
import sys
from pathlib import Path

from snowrules.cli.usage import UsageError
from snowrules.language.diagnostics import SnowrulesError
from snowrules.language.limits import MAX_NUMBER, excerpt, number_too_large

USAGE_ERROR, PROBLEMS = 2, 1


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own usage errors: exit 2, no traceback
        self.print_usage(sys.stderr)
        # a value argparse quotes whole (`invalid int value: '1000...'`): a short excerpt of it
        message = re.sub(r"'([^']{40,})'", lambda quoted: repr(excerpt(quoted.group(1))), message)
        self.exit(USAGE_ERROR, f"snowrules: error: {message}\n")


class _Version(argparse.Action):
    """`--version`: the installed version, read from the package metadata only when asked (reading
    it cost every command's start 40 ms)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the program's version number and exit"):  # noqa: A002 - argparse's name
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from snowrules.cli.version import installed_version
        print(f"snowrules {installed_version()}")  # on stdout, as argparse's own version action
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="snowrules", description="Run tabletop games from rules written as data.")
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = commands.add_parser("run", help="play one game and tell it")
    run.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    run.add_argument("--players", type=int,
                     help="number of players (default: one per agent given in --agents, else the ruleset's minimum)")
    run.add_argument("--seed", type=seed_number, default=0, help="random seed (default 0)")
    run.add_argument("--agents", default="random",
                     help="one agent for everybody, or one per player, comma-separated: random, first, human, "
                          "greedy, mcts; settings as NAME:key=value,... (mcts:iterations=200,seed=3)")
    run.add_argument("--variant", help="a variant of the ruleset, by name")
    run.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="set a game parameter the ruleset declares (repeatable), e.g. --option size=6")
    run.add_argument("--constant", action="append", default=[], metavar="NAME=VALUE",
                     help="try another value of a constant of the rules or the component files (repeatable)")
    run.add_argument("--log", type=Path, help="write the game's JSON Lines log to this file")
    run.add_argument("--json", action="store_true", help="print only the result, as one JSON object")
    run.add_argument("--rules", action="store_true", help="show the rule (file:line) behind each event")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="also draw the layout of a grid zone, as a text grid, after each placement")
    run.add_argument("--reveal", action="store_true",
                     help="several human seats at one terminal, played openly: no passing the screen, "
                          "everything told (for a designer playing every seat)")
    run.add_argument("--picture", type=Path, metavar="FILE.svg",
                     help="draw the grid zones at the end of the game as an SVG picture in this file")
    _time_limit_argument(run, 60.0, "the game (none with a human agent)")

    validate = commands.add_parser("validate", help="check rulesets, report every problem")
    validate.add_argument("paths", nargs="+", help="ruleset folders or names, or files inside a ruleset")
    validate.add_argument("--format", choices=["text", "json", "github", "sarif"], default="text",
                          help="text (default), json, github (workflow annotations) or sarif (2.1.0)")
    validate.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    validate.add_argument("--no-play", action="store_true", help="skip the seeded smoke games")
    validate.add_argument("--workers", type=_positive_workers, metavar="N",
                          help="processes playing the smoke games and scenarios (default: one per CPU)")
    validate.add_argument("--no-scenarios", action="store_true",
                          help="read the scenarios without playing them (their expectations are not checked)")
    validate.add_argument("--watch", action="store_true",
                          help="check again each time a file of the rulesets is saved (Ctrl-C stops; the watch extra)")
    validate.add_argument("--junit-xml", type=Path, metavar="FILE",
                          help="also write the results as JUnit XML: each ruleset's check and each scenario a case")
    _time_limit_argument(validate, 5.0, "each smoke game and each scenario")

    test = commands.add_parser("test", help="run a ruleset's scenarios")
    test.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    test.add_argument("-v", "--verbose", action="store_true", help="tell each scenario's game")
    test.add_argument("-k", metavar="PATTERN", dest="pattern",
                      help="only the scenarios whose file name or name holds PATTERN (case-insensitive)")
    test.add_argument("--junit-xml", type=Path, metavar="FILE", help="also write the results as JUnit XML")
    _time_limit_argument(test, 5.0, "each scenario")

    replay = commands.add_parser("replay", help="re-run a game log and check it")
    replay.add_argument("log", type=Path, help="a game log written by `snowrules run --log`")
    replay.add_argument("--ruleset", help="the ruleset's folder, for a log of a ruleset that is not bundled "
                        "(default: the bundled ruleset the log names)")
    replay.add_argument("--show", action="store_true",
                        help="step through the game at the terminal (Enter: next event, b: back, q: quit)")
    replay.add_argument("--seat", metavar="NAME", help="with --show: the game as this seat saw it (default: all)")
    replay.add_argument("--html", type=Path, metavar="FILE", help="write the game as one self-contained page "
                        "that steps through it from any seat's view (docs/serve.md)")
    _time_limit_argument(replay, 60.0, "the replayed game")

    simulate = commands.add_parser("simulate", help="play many games and sum them up")
    simulate.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    simulate.add_argument("--variant", help="a variant of the ruleset, by name")
    simulate.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                          help="set a game parameter the ruleset declares (repeatable)")
    simulate.add_argument("--constant", action="append", default=[], metavar="NAME=VALUE",
                          help="try another value of a constant of the ruleset (repeatable)")
    _simulation_arguments(simulate)
    simulate.add_argument("--out", type=Path, metavar="FILE",
                          help="one row per game (seed, scores, winners, turns): .csv, .jsonl or .parquet")

    compare = commands.add_parser("compare", help="simulate two versions of a ruleset on the same seeds")
    compare.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    compare.add_argument("--variant", action="append", default=[], metavar="V",
                         help="once: the base game against V; twice: the first against the second")
    compare.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                         help="set a game parameter on both sides (repeatable)")
    compare.add_argument("--other-option", action="append", default=[], metavar="NAME=VALUE",
                         help="set a game parameter on the compared side only (repeatable)")
    compare.add_argument("--constant", action="append", default=[], metavar="NAME=VALUE",
                         help="set a constant of the ruleset on both sides (repeatable)")
    compare.add_argument("--other-constant", action="append", default=[], metavar="NAME=VALUE",
                         help="set a constant on the compared side only (repeatable)")
    _simulation_arguments(compare)

    tournament = commands.add_parser("tournament", help="agents in every seating on the same seeds, rated")
    tournament.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    tournament.add_argument("--agents", required=True, help="two or more agents, comma-separated "
                            "(random,greedy,mcts:iterations=50): every seating is played (docs/tournament.md)")
    tournament.add_argument("--games", type=int, required=True, help="games per seating (the same seeds for each)")
    tournament.add_argument("--players", type=int, help="default: one per agent, as far as the ruleset allows")
    tournament.add_argument("--seed", type=int, default=0, help="master seed: game i's seed is derived from it")
    tournament.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    tournament.add_argument("--variant", help="a variant of the ruleset, by name")
    tournament.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                            help="set a game parameter the ruleset declares (repeatable)")
    tournament.add_argument("--json", action="store_true", help="print one JSON object (docs/tournament.md)")
    tournament.add_argument("--report", type=Path, metavar="DIR", help="write an HTML page with plots there")
    _time_limit_argument(tournament, 60.0, "each game")

    sweep = commands.add_parser("sweep", help="simulate at every value of one or two constants: each figure "
                                "against them (docs/sweep.md)")
    sweep.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    sweep.add_argument("--constant", action="append", default=[], metavar="NAME=A..B[:STEP]",
                       help="a constant or option and its values: A..B[:STEP] or V1,V2,... (once or twice)")
    sweep.add_argument("--figure", action="append", default=[], metavar="NAME",
                       help="a figure to show in the table (repeatable; default: a few; --json has all)")
    _sweep_arguments(sweep)

    tune = commands.add_parser("tune", help="search constants for the values that best meet an objective "
                               "(the tune extra: Optuna; docs/sweep.md)")
    tune.add_argument("ruleset", help="a bundled ruleset's name or a ruleset folder")
    tune.add_argument("--vary", action="append", default=[], metavar="NAME=A..B[:STEP]",
                      help="a constant or option and the values to search: A..B[:STEP] or V1,V2,... (repeatable)")
    tune.add_argument("--objective", required=True, metavar="EXPR",
                      help="what to minimise, in the figures' names: "
                           "'abs(first player edge) + abs(mean turns - 18) / 10'")
    tune.add_argument("--maximize", action="store_true", help="maximise the objective instead")
    tune.add_argument("--trials", type=int, default=30, help="candidates the search plays (default 30)")
    tune.add_argument("--recheck", type=int, default=3,
                      help="the best candidates played again on fresh seeds (default 3)")
    tune.add_argument("--write-variant", metavar="NAME",
                      help="write the winner as the variant NAME of the ruleset folder (variants/NAME.yaml)")
    _sweep_arguments(tune)
    new = commands.add_parser("new", help="make a ruleset folder to start from: it validates, plays, has a scenario")
    new.add_argument("name", help="the new folder (its name is the ruleset's name: lowercase, digits, _)")

    commands.add_parser("lsp", help="a language server for editors, over stdio (the lsp extra: pygls)")
    upgrade = commands.add_parser("upgrade", help="rewrite a ruleset to the current edition of the language")
    upgrade.add_argument("ruleset", help="a ruleset folder (or a bundled ruleset's name)")
    upgrade.add_argument("--write", action="store_true", help="make the rewrites (default: print them)")

    from snowrules.web.arguments import add_arguments  # `serve` itself needs the web extra, its arguments do not
    add_arguments(commands.add_parser("serve", help="play in a browser with people and bots, or watch a saved game "
                                      "(the web extra: Starlette, uvicorn)"))

    from snowrules.cli.explain import add_arguments as explain_arguments
    explain_arguments(commands.add_parser("explain", help="show the Python a ruleset's game runs (--code)"))

    listing = commands.add_parser("list", help="the bundled rulesets: player counts, variants, options")
    listing.add_argument("--json", action="store_true", help="print them as one JSON object")
    no_cache = "read and build everything afresh, without the build cache (see SNOWRULES_CACHE)"
    parser.add_argument("--no-cache", action="store_true", help=no_cache)
    for command in commands.choices.values():  # also after the command: `snowrules run x --no-cache`
        command.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS, help=no_cache)
    return parser


def _simulation_arguments(command: argparse.ArgumentParser) -> None:
    """The arguments simulate and compare share."""
    command.add_argument("--games", type=int, required=True, help="how many games (each side, for compare)")
    command.add_argument("--players", type=int,
                         help="default: one per agent given in --agents, else the ruleset's minimum")
    command.add_argument("--seed", type=int, default=0, help="master seed: game i's seed is derived from it")
    command.add_argument("--agents", default="random",
                         help="one agent for everybody, or one per player (mcts:iterations=50,random,random)")
    command.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    command.add_argument("--cluster", metavar="ADDRESS",
                         help="play on a Dask scheduler, e.g. tcp://10.0.0.5:8786 (the cluster extra)")
    command.add_argument("--json", action="store_true", help="print one JSON object (see schemas/)")
    command.add_argument("--report", type=Path, metavar="DIR", help="write an HTML page with plots there")
    command.add_argument("--no-components", action="store_true",
                         help="skip the per-component figures (faster: no move events are followed)")
    _time_limit_argument(command, 60.0, "each game")


def _sweep_arguments(command: argparse.ArgumentParser) -> None:
    """What sweep and tune take besides their constants: simulate's arguments, without --out."""
    command.add_argument("--variant", help="a variant of the ruleset, by name")
    command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                         help="set a game parameter the ruleset declares (repeatable)")
    _simulation_arguments(command)


def _time_limit_argument(command: argparse.ArgumentParser, default: float, what: str) -> None:
    """`--time-limit SECONDS`: a game past it stops at the rule it was running (SR709, exit 1), as
    the step budget bounds steps but not what each step costs (runtime/clock.py)."""
    command.add_argument("--time-limit", type=_seconds, default=default, metavar="SECONDS",
                         help=f"stop {what} past this many seconds of CPU time (default {default:g})")


def _positive_workers(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 256:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of processes from 1 to 256")
    return int(text)


def seed_number(text: str) -> int:
    """A seed as a log can hold it: a whole number within +-MAX_NUMBER (a log refuses more)."""
    if not re.fullmatch(r"[-+]?[0-9]+", text.strip()):
        raise argparse.ArgumentTypeError(f"invalid int value: {excerpt(text)!r}")  # as argparse's own int
    if number_too_large(text.strip()):
        raise argparse.ArgumentTypeError(f"{excerpt(text)!r}: give a seed within +-{MAX_NUMBER:,}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 1e6:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0, at most 1000000")
    return value



def _command_lsp(_args) -> int:
    """`snowrules lsp`: serve until the editor says exit (the server: cli/lsp.py)."""
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("the language server needs pygls: pip install 'snowrules[lsp]'") from None
    from snowrules.cli.lsp import serve
    from snowrules.data import cache
    cache.disable()  # each check reads a copy of the folder with the editor's texts: nothing to reuse
    serve()
    return 0


# what reads rulesets and logs
_MEMORY_LIMITED = ("run", "validate", "test", "replay", "simulate", "compare", "tournament", "serve", "sweep", "tune")
_memory_mb: int | None = None  # the address-space limit entry() set (cli/memory.py), for the message


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # a usage error (2) or --help (0): return the code, as for any other outcome
        return done.code if isinstance(done.code, int) else USAGE_ERROR
    if args.no_cache:
        from snowrules.data import cache
        cache.disable()
    if args.command == "list":  # reads manifests only: not every command's imports
        from snowrules.cli.listing import command_list as handler
    elif args.command == "tournament":
        from snowrules.cli.tournament import command_tournament as handler
    elif args.command == "sweep":
        from snowrules.cli.sweep import command_sweep as handler
    elif args.command == "tune":
        from snowrules.cli.tune import command_tune as handler
    elif args.command == "lsp":
        handler = _command_lsp
    elif args.command == "explain":
        from snowrules.cli.explain import command_explain as handler
    elif args.command == "new":
        from snowrules.cli.new import command_new as handler
    elif args.command == "upgrade":
        from snowrules.cli.upgrade import command_upgrade as handler
    elif args.command == "serve":
        from snowrules.web.command import command_serve as handler
    else:
        from snowrules.cli import commands
        handler = getattr(commands, f"command_{args.command}")
    try:
        return handler(args)
    except UsageError as error:
        print(f"snowrules {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except SnowrulesError as error:
        for diagnostic in error.diagnostics:  # with its code, as validate prints it: `run`, `replay`, `test` too
            print(diagnostic.with_code(), file=sys.stderr)
        return PROBLEMS
    except _out_of_time() as stop:  # a timer that rang as its game was ending (runtime/clock.py)
        print(f"{stop.position}: error: the game ran past its time limit [SR709]", file=sys.stderr)
        return PROBLEMS
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except _worker_lost() as lost:  # validate's worker killed (out of memory, kill -9): stopped, as by Ctrl-C
        print(f"snowrules {args.command}: error: {lost}; the command stops here", file=sys.stderr)
        return 130
    except MemoryError as error:  # past the address-space limit: a clear message, not a swapping machine
        from snowrules.cli.memory import out_of_memory
        print(out_of_memory(error, _memory_mb), file=sys.stderr)
        return PROBLEMS
    except BrokenPipeError as error:
        return _broken_pipe(args.command, error)
    except Exception as error:  # noqa: BLE001 - the last guard: never a traceback for a user
        from snowrules.cli.memory import library_out_of_memory, out_of_memory
        if library_out_of_memory(error):
            print(out_of_memory(error, _memory_mb), file=sys.stderr)
            return PROBLEMS
        print(f"snowrules: internal error: {type(error).__name__}: {error}\n"
              "This is a bug in snowrules, not in your input; please report it with the command you ran.",
              file=sys.stderr)
        return 70


IO_ERROR = 74  # sysexits.h's EX_IOERR: a pipe or connection to another process closed under the command


def _broken_pipe(command: str, error: BrokenPipeError) -> int:
    """A reader of the output that stopped reading (`snowrules run ... | head`) is not a failure: the
    command ends quietly with 0, its output sent nowhere from then on (else Python's last flush
    at exit prints an error about the same pipe). Any other pipe (a worker's, a socket's) that
    closed is: said in one line, exit IO_ERROR."""
    if _stdout_closed():
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # no file descriptor behind sys.stdout: nothing flushes it at exit
            pass
        return 0
    print(f"snowrules {command}: error: a pipe or connection to another process was closed while the command "
          f"was writing to it ({error.strerror or error}); the command stops here", file=sys.stderr)
    return IO_ERROR


def _stdout_closed() -> bool:
    """Whether standard output is a pipe whose reader has closed it: poll() says POLLERR on the
    writing end of such a pipe (a file or a terminal never does)."""
    try:
        fd = sys.stdout.fileno()
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # no descriptor, or no poll() (Windows): not known closed
        return False


def _out_of_time() -> tuple[type[BaseException], ...]:
    """The game clock's exception, when a clock was used (evaluated only as an exception passes)."""
    clock = sys.modules.get("snowrules.runtime.clock")
    return (clock.OutOfTime,) if clock is not None else ()


def _worker_lost() -> tuple[type[BaseException], ...]:
    """The error of a worker process that died, when workers were used (play/workers.py)."""
    workers = sys.modules.get("snowrules.play.workers")
    return (workers.WorkerLost,) if workers is not None else ()


def _terminated(signal_number, frame) -> None:
    """SIGTERM (a CI job cancelled, `kill`) stops a command as Ctrl-C does: its `finally` blocks
    stop its worker processes (without this, they were left running, printing BrokenPipe
    tracebacks), a simulation reports the games it finished, and the exit code is 130."""
    raise KeyboardInterrupt


def entry() -> None:
    global _memory_mb
    import signal
    signal.signal(signal.SIGTERM, _terminated)
    if len(sys.argv) > 1 and any(command in sys.argv[1:] for command in _MEMORY_LIMITED):
        from snowrules.cli.memory import fewer_reservations, limit_memory
        fewer_reservations()
        try:
            _memory_mb = limit_memory()
        except UsageError as error:
            print(f"snowrules: error: {error}", file=sys.stderr)
            sys.exit(USAGE_ERROR)
    sys.exit(main())


if __name__ == "__main__":
    entry()
