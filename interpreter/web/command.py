"""`snowrules serve`: a game (new, resumed from its log, or a saved one to watch) served to browsers.

It checks everything it is given before it listens (a wrong argument is exit 2, a bad log exit 1,
as for every command), listens on 127.0.0.1 unless `--host` says otherwise, prints the address and
one join link per person, and serves until Ctrl-C. The ruleset is named here, on the command line,
and nowhere else: nothing a browser sends names a file.
"""
from __future__ import annotations

import os
import secrets
import socket

from snowrules.cli.commands import _players, _ruleset
from snowrules.cli.usage import UsageError
from snowrules.compile.compiler import compile_ruleset
from snowrules.play.agents import AgentSpec, AgentSpecError, parse_agents
from snowrules.play.replay import logged_game
from snowrules.records.logfile import read_log
from snowrules.records.logwriter import log_target_problem
from snowrules.runtime.engine import Game


def command_serve(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError("serve needs Starlette and uvicorn: pip install 'snowrules[web]'") from None
    room = prepare(args)
    listener = listen(args.host, args.port)
    port = listener.getsockname()[1]
    for line in links(room, args.host, port):
        print(line, flush=True)
    run(room, listener)
    return 0


def prepare(args):
    """The Table or Watch the arguments ask for, every argument and the log checked."""
    from snowrules.web.table import Table
    from snowrules.web.watch import Watch
    if args.watch is not None and args.resume is not None:
        raise UsageError("give --watch LOG or --resume LOG, not both")
    log = args.log if args.log is not None else args.resume
    if log is not None and (problem := log_target_problem(log)) is not None:
        raise UsageError(f"--log {log}: {problem}")
    if args.watch is not None:
        given = [name for name in ("players", "variant", "seats", "seed", "log") if getattr(args, name) is not None]
        if given or args.option:
            raise UsageError(f"--watch shows the game as the log saved it: drop --{(given or ['option'])[0]}")
        logged = read_log(args.watch, finished=False)
        game, ruleset, _notes = logged_game(logged, args.ruleset)
        return Watch(game, logged, ruleset.title)
    if args.resume is not None:
        if args.players is not None or args.variant is not None or args.option or args.seed is not None:
            raise UsageError("--resume continues the game as the log saved it: its players, variant, options "
                             "and seed come from the log (--seats may change who plays)")
        logged = read_log(args.resume, finished=False)
        game, ruleset, _notes = logged_game(logged, args.ruleset)
        agents = logged.header.get("agents") or ["human"]
        if args.seats is None and "human" not in agents:
            raise UsageError(f"{args.resume}: the logged game's seats are {', '.join(agents)}: no seat is human; "
                             "give --seats to say who plays now (human,random,...)")
        seats = _seats(args.seats or ",".join(agents), game.program.players)
        return Table(game, int(logged.header["seed"]), seats, ruleset.folder, log, logged, ruleset.title)
    if args.ruleset is None:
        raise UsageError("give a RULESET to play, or --resume LOG, or --watch LOG")
    ruleset = _ruleset(args.ruleset, args.variant, args.option)
    listed = len(_parsed_seats(args.seats)) if args.seats else 0
    players = _players(ruleset, args.players if args.players is not None or listed < 2 else listed)
    seats = _seats(args.seats or ",".join(["human"] + ["random"] * (players - 1)), players)
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    game = Game(compile_ruleset(ruleset, players))
    return Table(game, seed, seats, ruleset.folder, log, title=ruleset.title)


def _seats(text: str, players: int) -> list[AgentSpec]:
    """One agent per player from `--seats` (one name alone: everybody), at least one human."""
    specs = _parsed_seats(text)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UsageError(f"--seats gives {len(specs)} seats for {players} players")
    if not any(spec.name == "human" for spec in specs):
        raise UsageError(f"--seats {text}: no seat is human, so nobody could play; "
                         "a game of bots is `snowrules run`, a saved one is watched with --watch LOG")
    return specs


def _parsed_seats(text: str) -> list[AgentSpec]:
    try:
        return parse_agents(text)
    except AgentSpecError as error:
        raise UsageError(f"--seats: {error}") from None


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port (a usage error, said plainly, when it cannot)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except (OSError, UnicodeError) as error:
        errno = getattr(error, "errno", None)
        reason = os.strerror(errno) if isinstance(errno, int) and errno > 0 else getattr(error, "strerror", None) \
            or str(error)
        raise UsageError(f"cannot listen on --host {host} --port {port}: {reason}") from None


def links(room, host: str, port: int) -> list[str]:
    """What `serve` prints: the address and one join link per person (each with its token)."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    base = f"http://{shown}:{port}/"
    if room.kind == "watch":
        return [f"{room.title}: a saved game of {len(room.steps) - 1} decisions, served on {base}",
                f"  watch it: {base}#{room.token}", "Ctrl-C stops the server."]
    from snowrules.web.views import player_name
    players = room.game.program.players
    lines = [f"{room.title}: {players} player{'' if players == 1 else 's'}, seed {room.header['seed']}, "
             f"served on {base}"]
    for place in room.places:
        name = player_name(room.game, place.player)
        lines.append(f"  {name}: {base}#{place.token}" if place.token else f"  {name}: {place.agent} (a bot)")
    lines.append("Each link is its seat's key: give each person their own. Ctrl-C stops the server"
                 + (f"; the game is saved in {room.log} after every answer." if room.log else "."))
    return lines


def run(room, listener: socket.socket) -> None:
    """Serve until interrupted (uvicorn stops cleanly on Ctrl-C)."""
    import uvicorn
    from snowrules.web.app import Limits, create_app
    limits = Limits()
    config = uvicorn.Config(create_app(room, limits), log_level="warning", access_log=False, lifespan="off",
                            ws="auto", ws_max_size=limits.message_bytes, server_header=False)
    uvicorn.Server(config).run(sockets=[listener])
