"""A saved game to step through, decision by decision: `snowrules serve --watch LOG`.

The log's choices are played again (every event checked against the log, as for a resumed game),
and the state is kept at the start and after each decision, with how far each reader's account
had got there. A step is then shown from any player's view, or everybody's.
"""
from __future__ import annotations

from dataclasses import dataclass

from snowrules.model.state import State
from snowrules.records.logfile import LoggedGame
from snowrules.runtime.engine import Game
from snowrules.web import views
from snowrules.web.table import check_same_events, find_token, logged_indexes, new_token


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
        readers = [None, *range(game.program.players)]
        self.accounts = views.Accounts(game, readers)
        self.events: list[dict] = []
        st = game.start(int(logged.header["seed"]), self._record, listen=self.accounts.listen)
        self.steps = [self._step(st, [])]
        choices = [(n, e) for n, e in logged.events if e["e"] == "choice"]
        taken = 0
        while st.result is None and st.pending is not None and taken < len(choices):
            group = choices[taken:taken + len(st.pending.seats)]
            indexes = logged_indexes(logged, group, st.pending, choices)
            taken += len(group)
            shown = [f"{event.get('seat')}: {event.get('option')}" for _number, event in group]
            game.answer(st, indexes)
            self.steps.append(self._step(st, shown))
        check_same_events(logged, self.events)

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
        lines = self.accounts.lines[reader][:here.told[reader]]
        if since.__class__ is not int or not 0 <= since <= len(lines):
            since = 0
        game, st = self.game, here.state
        view = views.seen(game, st, reader)
        return {"kind": "watch", "title": self.title, "step": step, "steps": len(self.steps) - 1,
                "reader": reader, "readers": [views.player_name(game, p) for p in range(players)],
                "seat_names": list(game.layout.seat_names), "view": view, "details": views.details(game, view),
                "picture": views.picture(game, st, reader),
                "chosen": here.chosen if reader is None else [],
                "waiting": views.waiting_for(game, st), "result": views.result(game, st),
                "account_start": since, "account": lines[since:]}
