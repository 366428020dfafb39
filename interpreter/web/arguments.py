"""The arguments of `snowrules serve`, apart from the command so that building the parser of
every `snowrules` command stays cheap (the command itself imports the compiler and Starlette)."""
from __future__ import annotations

import argparse
from pathlib import Path

LOOPBACK = "127.0.0.1"


def add_arguments(serve: argparse.ArgumentParser) -> None:
    """The arguments of `snowrules serve` (cli/main.py makes the sub-command)."""
    serve.add_argument("ruleset", nargs="?",
                       help="a bundled ruleset's name or a ruleset folder (with --resume or --watch: the folder of "
                            "a ruleset that is not bundled; default the one the log names)")
    serve.add_argument("--players", type=int, help="number of players (default: one per seat in --seats, else "
                       "the ruleset's minimum)")
    serve.add_argument("--variant", help="a variant of the ruleset, by name")
    serve.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="set a game parameter the ruleset declares (repeatable)")
    serve.add_argument("--seats", help="who plays each seat, comma-separated: human (a person with a join link) "
                       "or a bot (random, first, greedy, mcts:iterations=200); default: human, then random")
    serve.add_argument("--seed", type=int, help="random seed (default: a random one, written in the log)")
    serve.add_argument("--host", default=LOOPBACK,
                       help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the network)")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0: any free one)")
    serve.add_argument("--log", type=Path, help="save the game's log to this file after every answer")
    serve.add_argument("--resume", type=Path, metavar="LOG", help="continue the game a log saved (and go on "
                       "saving it there, unless --log says elsewhere)")
    serve.add_argument("--watch", type=Path, metavar="LOG", help="step through a saved game, decision by decision")


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return int(text)
