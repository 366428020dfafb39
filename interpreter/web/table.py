"""A live game at the server: its seats (people with their tokens, bots), their answers, its log.

The state lives here and only here. A person's answer is an option's index, checked against the
decision waiting for one of their seats and then given to `Game.answer` like any agent's; a
bot's answer is its agent's (play/agents.py) from an `Observation` of its own seat. When every
seat of a decision has answered, the game goes on to the next decision a person must take. With
a log, the whole log is written again (atomically, records/logwriter.py) after each answer, so a
stopped server leaves a log that `serve --resume` continues (`resume`: the logged choices played
again, every event checked against the log).
"""
from __future__ import annotations

import hmac
import secrets
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from snowrules.language.diagnostics import LogError, Position, SnowrulesError
from snowrules.play.agents import AgentSpec, Observation, agent_seed
from snowrules.records.logfile import LoggedGame, LogWriter, header, result_event
from snowrules.records.logwriter import PortableRules
from snowrules.runtime.engine import Game
from snowrules.web import views


class AnswerError(ValueError):
    """An answer the table refuses: not this player's turn, not one of the options, game over."""


@dataclass
class Place:
    """One player's place at the table: a person (with the token of their join link) or a bot."""

    player: int
    agent: str                 # the agent's name as the log records it: human, random, mcts:...
    bot: object | None = None  # the agent answering for a bot
    token: str | None = None   # a person's secret (None for a bot)


def new_token() -> str:
    """An unguessable secret for a join link (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def find_token(tokens: dict, given: object):
    """The key whose token is `given` (None when none is), every token compared in constant time
    and all of them compared, so that neither the time taken nor the order tells anything."""
    if not isinstance(given, str) or not given.isascii():
        return None
    found = None
    for key, token in tokens.items():
        if hmac.compare_digest(token.encode("ascii"), given.encode("ascii")):
            found = key
    return found


class Table:
    """One game being played, shared by the requests of every seat (each call holds a lock)."""

    def __init__(self, game: Game, seed: int, agents: list[AgentSpec], ruleset_folder: Path | str,
                 log: Path | None = None, logged: LoggedGame | None = None, title: str | None = None):
        self.game = game
        self.kind = "table"
        self.title = title or game.program.ruleset
        self.lock = threading.Lock()
        self.places = []
        for player, spec in enumerate(agents):
            if spec.name == "human":
                self.places.append(Place(player, str(spec), token=new_token()))
            else:
                self.places.append(Place(player, str(spec), bot=spec.build(agent_seed(seed, player))))
        self.tokens = {p.player: p.token for p in self.places if p.token is not None}
        self.log = log
        self.header = header(game, seed, [p.agent for p in self.places], ruleset_folder)
        self.events: list[dict] = []
        self.accounts = views.Accounts(game, range(game.program.players))
        self.answers: dict[int, int] = {}     # seat -> option index, for the decision waiting now
        self.failure: str | None = None       # the rules' error that stopped the game (the page shows it)
        self.st = game.start(seed, self._record, listen=self.accounts.listen)
        self.accounts.follow(self.st)
        if logged is not None:
            self._resume(logged)
        self._go_on()

    def _record(self, event: dict) -> None:
        self.events.append(event)
        self.accounts.sink(event)

    def player_of(self, token: object) -> int | None:
        """The player whose join link holds `token` (None: no seat's)."""
        return find_token(self.tokens, token)

    def snapshot(self, player: int, since: int = 0) -> dict:
        """What `player`'s page shows: their view, their decisions, who else the game waits for,
        the result once over, and their account from line `since` on (all of it when `since` is
        not a line number it has)."""
        with self.lock:
            game, st = self.game, self.st
            lines = self.accounts.lines[player]
            if since.__class__ is not int or not 0 <= since <= len(lines):
                since = 0
            view = views.seen(game, st, player)
            decisions = [] if self.failure else views.decisions(game, st, player, self.answers)
            drawn, places = views.picture_and_places(game, st, player, decisions)
            return {"kind": "table", "title": self.title, "player": player, "you": views.player_name(game, player),
                    "places": [{"name": views.player_name(game, p.player), "agent": p.agent} for p in self.places],
                    "seat_names": list(game.layout.seat_names),
                    "view": view, "picture": drawn, "spots": places,
                    "details": views.details(game, st, view, decisions), "decisions": decisions,
                    "waiting": [] if self.failure else views.waiting_for(game, st, self.answers),
                    "result": views.result(game, st), "failure": self.failure,
                    "account_start": since, "account": lines[since:]}

    # ---- answering ------------------------------------------------------------------------
    def answer(self, player: int, index: object, seat: object = None) -> None:
        """A person's answer for one of their seats (the first one waiting, unless `seat` says
        which): checked, then given to the game with the other seats' answers once all are in."""
        with self.lock:
            st, game = self.st, self.game
            if self.failure is not None:
                raise AnswerError(self.failure)
            if st.result is not None or st.pending is None:
                raise AnswerError("the game is over")
            waiting = [d["seat"] for d in views.decisions(game, st, player, self.answers)]
            if not waiting:
                raise AnswerError("nothing to choose now: the game waits for "
                                  + ", ".join(views.waiting_for(game, st, self.answers)))
            if seat is None:
                seat = waiting[0]
            if seat.__class__ is not int or seat not in waiting:
                raise AnswerError(f"seat {seat!r} is not one of yours waiting to choose: "
                                  + ", ".join(str(s) for s in waiting))
            options = st.pending.options[st.pending.seats.index(seat)]
            if index.__class__ is not int or not 0 <= index < len(options):
                raise AnswerError(f"option {index!r} is not one of the {len(options)} options "
                                  f"(0 to {len(options) - 1})")
            self.answers[seat] = index
            self._go_on()

    def _go_on(self) -> None:
        """Let the bots answer and the game run until it waits for a person (or ends), then tell
        the accounts and write the log. A rules error on the way (the ruleset's, not the player's)
        stops the game where it last waited: the state, the account and the log are put back as
        they were then, and every page is told the error at its place in the rules (`failure`);
        the saved log is the game up to there, which `serve --resume` continues once the rules
        are fixed."""
        st, game, program = self.st, self.game, self.game.program
        kept = st.clone(), len(self.events), {reader: len(lines) for reader, lines in self.accounts.lines.items()}
        try:
            while st.result is None and st.pending is not None:
                pending = st.pending
                for seat, options in zip(pending.seats, pending.options):
                    place = self.places[program.controller(seat)]
                    if seat not in self.answers and place.bot is not None:
                        self.answers[seat] = place.bot.choose(Observation(game, st, seat, options))
                if any(seat not in self.answers for seat in pending.seats):
                    break
                choices = [self.answers[seat] for seat in pending.seats]
                self.answers = {}
                kept = st.clone(), len(self.events), {r: len(lines) for r, lines in self.accounts.lines.items()}
                game.answer(st, choices)
            self.accounts.flush()
        except SnowrulesError as error:
            self._stop(error, *kept)
            return
        self._write_log()

    def _stop(self, error: SnowrulesError, state, events: int, told: dict) -> None:
        """The game stopped by a rules error: back to the state before the decision that failed."""
        self.st = state
        self.accounts.follow(state)
        del self.events[events:]
        for reader, lines in self.accounts.lines.items():
            del lines[told[reader]:]
        self.answers = {}
        saved = (f". The game before this decision is saved in {self.log}: `snowrules serve --resume {self.log}` "
                 "continues it once the rules are fixed") if self.log is not None else ""
        self.failure = f"The rules failed and the game cannot go on: {error}{saved}"
        print(f"snowrules serve: {error}", file=sys.stderr, flush=True)

    def _write_log(self) -> None:
        if self.log is None:
            return
        with LogWriter(self.log) as log:
            log.write(self.header)
            for event in self.events:
                log.write(event)
            if self.st.result is not None:
                log.write(result_event(self.game, self.st))

    def _resume(self, logged: LoggedGame) -> None:
        """Play the logged choices again, decision by decision, and check that the game told the
        same events as the log (a ruleset changed since gives the first line that differs)."""
        st, game = self.st, self.game
        choices = [(n, e) for n, e in logged.events if e["e"] == "choice"]
        taken = 0
        while st.result is None and st.pending is not None and taken < len(choices):
            group = choices[taken:taken + len(st.pending.seats)]
            indexes = logged_indexes(logged, group, st.pending, choices)
            taken += len(group)
            game.answer(st, indexes)
        check_same_events(logged, self.events)


def logged_indexes(logged: LoggedGame, group: list[tuple[int, dict]], pending, choices: list) -> list[int]:
    """The option indexes a log's `choice` lines (`group`, numbered) give the pending decision,
    each checked against its options; a LogError at the line that does not fit."""
    if len(group) < len(pending.seats):
        number = group[0][0] if group else choices[-1][0]
        raise LogError.at(Position(logged.path, number, 1), "the log stops in the middle of a decision")
    indexes = []
    for (number, event), options in zip(group, pending.options):
        index = event.get("index")
        if index.__class__ is not int or not 0 <= index < len(options):
            raise LogError.at(Position(logged.path, number, 1),
                              f"choice index {index!r} is not legal here: 0..{len(options) - 1}")
        indexes.append(index)
    return indexes


def check_same_events(logged: LoggedGame, produced: list[dict]) -> None:
    """The events of a game played again from a log are the log's, line for line (else a LogError
    at the first line that differs)."""
    portable = PortableRules()
    for index, (number, expected) in enumerate(logged.events):
        got = portable.event(produced[index]) if index < len(produced) else None
        if got != expected:
            raise LogError.at(Position(logged.path, number, 1), "the game played again from the log differs "
                              "from it here (was the ruleset changed since the log was written?)")
    if len(produced) > len(logged.events):
        last = logged.events[-1][0] + 1 if logged.events else 2
        raise LogError.at(Position(logged.path, last, 1), "the game played again from the log goes on after "
                          "the log ends (was the ruleset changed since the log was written?)")
