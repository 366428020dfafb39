"""`snowrules replay LOG --show`: a saved game told step by step at the terminal, from one seat's
view or all of it (Enter: the next step, `b`: back, `q`: quit).

The game is played again with the log's choices, so that a seat's account hides exactly what
that seat could not see at the table (the same Narrator and UnseenCounters as `snowrules run`),
counters of face-down components included: the log alone does not say where each component is.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snowrules.language.diagnostics import LogError, Position
from snowrules.play.agents import play
from snowrules.play.narrate import account_listeners, account_observer, narrator_for, tee
from snowrules.play.replay import LoggedChoices, _Divergence
from snowrules.records.logfile import LoggedGame
from snowrules.runtime.engine import Game

CLEAR = "\033[H\033[2J\033[3J"
BACK = 20  # how many steps are shown again, the last one included, after going back


def account_steps(logged: LoggedGame, game: Game, seat: int | None) -> list[list[str]]:
    """The account of a logged game in steps: the lines each event adds (events that add none are
    part of the next step). `seat`: told as that seat's player saw it; None: everything."""
    program, layout = game.program, game.layout
    readers = None
    if seat is not None:
        readers = set(program.seats_of(program.controller(seat))) if seat < layout.player_seats else {seat}
    lines: list[str] = []
    narrator = narrator_for(game, lines.append, readers)
    listeners = account_listeners(narrator)
    steps: list[list[str]] = []

    def feed(event: dict) -> None:
        narrator.feed(event)
        if lines:
            steps.append(list(lines))
            lines.clear()
    try:
        st = play(game, [LoggedChoices(logged)] * program.players, int(logged.header["seed"]), sink=feed,
                  listen=tee(listeners), observe=account_observer(narrator))
    except _Divergence:
        raise LogError.at(Position(logged.path, 1, 1), "the game no longer plays as the log says",
                          f"`snowrules replay {logged.path}` shows where it differs") from None
    narrator.finish(st)
    if lines:
        steps.append(lines)
    return steps


def show_steps(steps: list[list[str]], title: str, read: Callable[[str], str] = input,
               write: Callable[[str], Any] = print) -> None:
    """Step through the account: Enter shows the next step, `b` goes back one (the screen shows
    the steps before it again), `q` or the end of input quits."""
    write(f"{title} (Enter: next, b: back, q: quit)")
    if not steps:
        write("the log tells nothing")
        return
    at = 0
    for line in steps[0]:
        write(line)
    while True:
        try:
            key = read(f"[{at + 1}/{len(steps)}] ").strip().casefold()
        except EOFError:
            return
        if key == "q":
            return
        if key == "b":
            if at == 0:
                write("this is the first step")
                continue
            at -= 1
            write(CLEAR + title)
            for step in steps[max(0, at - BACK + 1):at + 1]:
                for line in step:
                    write(line)
        elif key:
            write("Enter: next, b: back, q: quit")
        elif at + 1 == len(steps):
            write("the end of the game")
            return
        else:
            at += 1
            for line in steps[at]:
                write(line)
