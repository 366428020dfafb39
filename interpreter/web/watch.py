"""A saved game to step through, decision by decision: `snowrules serve --watch LOG`.

The log's choices are played again (every event checked against the log, as for a resumed game),
and the state is kept at the start and after each decision, with how far each reader's account
had got there. A step is then shown from any player's view, or everybody's.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from snowrules.model.state import State
from snowrules.records.logfile import LoggedGame, read_log
from snowrules.runtime.engine import Game
from snowrules.web import views
from snowrules.web.table import check_same_events, find_token, logged_indexes, new_token


def stamp(path) -> tuple | None:
    """When and how big a log file was last written (None: it cannot be read now)."""
    try:
        status = os.stat(path)
    except (OSError, TypeError):
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino


@dataclass
class Step:
    state: State
    told: dict[int | None, int]   # reader -> how many lines of their account were told by then
    chosen: list[str]             # the choices that led here ("p0: prize 3"), as everybody reads them


class Watch:
    """The steps of a logged game, read by anyone holding the watch link's token."""

    def __init__(self, game: Game, logged: LoggedGame, title: str | None = None):
        self.game = game
        self.kind = "watch"
        self.title = title or game.program.ruleset
        self.token = new_token()
        self.lock = threading.Lock()
        readers = [None, *range(game.program.players)]
        self.accounts = views.Accounts(game, readers)
        self.events: list[dict] = []
        self.st = game.start(int(logged.header["seed"]), self._record, listen=self.accounts.listen)
        self.accounts.follow(self.st)
        self.steps = [self._step(self.st, [])]
        self.taken = 0                 # the log's choices played so far
        self.logged, self.stamp = logged, stamp(logged.path)
        self._play(logged)

    def _play(self, logged: LoggedGame) -> None:
        """Play the log's choices from the first not yet played, a step after each decision, and
        check the game's events against the log's."""
        st, game = self.st, self.game
        choices = [(n, e) for n, e in logged.events if e["e"] == "choice"]
        while st.result is None and st.pending is not None and self.taken < len(choices):
            group = choices[self.taken:self.taken + len(st.pending.seats)]
            if len(group) < len(st.pending.seats):
                break                  # a decision of several seats logged in part: wait for the rest
            indexes = logged_indexes(logged, group, st.pending, choices)
            self.taken += len(group)
            # each answer as the account tells it: by its label, with the values it has as it is chosen
            shown = [f"{event.get('seat')}: {game.shown_label(st, options[index])}"
                     for (_number, event), options, index in zip(group, st.pending.options, indexes)]
            game.answer(st, indexes)
            self.steps.append(self._step(st, shown))
        check_same_events(logged, self.events)

    def follow(self) -> None:
        """A game still being played (`serve --log` or `run --log` writes its log after every
        answer, atomically): the decisions logged since are played on, so that a page at the last
        step sees the game go on. A log that no longer fits is a ValueError (a LogError) for the page."""
        with self.lock:
            if self.st.result is not None or self.logged.path is None:
                return
            now = stamp(self.logged.path)
            if now is None or now == self.stamp:
                return
            logged = read_log(Path(self.logged.path), finished=False)
            self.stamp = now
            self._play(logged)
            self.logged = logged

    def _record(self, event: dict) -> None:
        self.events.append(event)
        self.accounts.sink(event)

    def _step(self, st: State, chosen: list[str]) -> Step:
        self.accounts.flush()
        return Step(st.clone(), {reader: len(lines) for reader, lines in self.accounts.lines.items()}, chosen)

    def player_of(self, token: object) -> str | None:
        """"watch" for the watch link's token, else None."""
        return find_token({"watch": self.token}, token)

    def snapshot(self, step: object, reader: object, since: int = 0) -> dict:
        """Step `step` (0: before the first decision) from `reader`'s view (a player's index, or
        None for everybody); the account from line `since` on."""
        players = self.game.program.players
        if step.__class__ is not int or not 0 <= step < len(self.steps):
            raise ValueError(f"step {step!r} is not one of 0 to {len(self.steps) - 1}")
        if reader is not None and (reader.__class__ is not int or not 0 <= reader < players):
            raise ValueError(f"reader {reader!r} is not a player (0 to {players - 1}) or null for everybody")
        here = self.steps[step]
        live = self.st.result is None
        turn = self.game.layout.counter_index("turn")   # every game counts its turns (compiler.py)
        turns: dict[int, int] = {}                       # turn -> the first step in it
        for number, kept in enumerate(self.steps):
            turns.setdefault(kept.state.counters[turn], number)
        lines = self.accounts.lines[reader][:here.told[reader]]
        if since.__class__ is not int or not 0 <= since <= len(lines):
            since = 0
        game, st = self.game, here.state
        view = views.seen(game, st, reader)
        return {"kind": "watch", "title": self.title, "step": step, "steps": len(self.steps) - 1, "live": live,
                "turn": here.state.counters[turn], "turns": [[t, n] for t, n in turns.items()],
                "reader": reader, "readers": [views.player_name(game, p) for p in range(players)],
                "seat_names": list(game.layout.seat_names), "view": view, "details": views.details(game, st, view),
                "picture": views.picture(game, st, reader),
                "chosen": here.chosen if reader is None else [],
                "waiting": views.waiting_for(game, st), "result": views.result(game, st),
                "account_start": since, "account": lines[since:]}
