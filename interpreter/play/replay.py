"""Replaying a log: the game played again with the logged choices, compared event by event.

Replaying plays a game (it drives agents), so it lives with play; reading and writing the log
file itself is records/logfile.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from snowrules.language.diagnostics import Diagnostic, LogError, Position, SnowrulesError
from snowrules.play.agents import play
from snowrules.records.logfile import LoggedGame, read_log, result_event
from snowrules.records.logwriter import PortableRules, ruleset_hash
from snowrules.runtime.engine import Game


class LoggedChoices:
    """An agent that answers with the choices a log recorded, in order."""

    name = "log"

    def __init__(self, logged: LoggedGame):
        self.choices = [(n, e) for n, e in logged.events if e["e"] == "choice"]
        self.next = 0
        self.path = logged.path

    def choose(self, observation) -> int:
        options = observation.options
        if self.next >= len(self.choices):
            raise _Divergence(None, {"e": "choice", "seat": observation.seat_name},
                              "the game asks for a choice the log does not have")
        number, event = self.choices[self.next]
        self.next += 1
        index = event.get("index")
        if not isinstance(index, int) or not 0 <= index < len(options):
            raise LogError.at(Position(self.path, number, 1), f"choice index {index!r} is not legal here: "
                              f"0..{len(options) - 1}")
        return index


class _Divergence(Exception):
    def __init__(self, number: int | None, got: dict | None, message: str):
        super().__init__(message)
        self.number, self.got, self.message = number, got, message


@dataclass
class ReplayReport:
    identical: bool
    events: int
    message: str = ""
    line: int | None = None
    expected: Any = None
    got: Any = None
    notes: list[str] = field(default_factory=list)  # said before the verdict: the ruleset changed, ...


def replay(path: Path, ruleset_ref: str | None = None) -> ReplayReport:
    """Re-run a logged game and compare it, event by event, with the log. The ruleset is the
    bundled one the header names, or the folder `ruleset_ref`."""
    logged = read_log(path)
    game, _ruleset, notes = logged_game(logged, ruleset_ref)
    report = _compare(logged, game)
    report.notes = notes
    return report


def logged_game(logged: LoggedGame, ruleset_ref: str | None = None):
    """The game a log was played with: (Game, Ruleset, notes said before anything else: the
    ruleset's files or version changed since). The ruleset is the bundled one the header names,
    or the folder `ruleset_ref`; one that cannot be found or loaded is a LogError at the header."""
    from snowrules.compile.compiler import compile_ruleset
    from snowrules.load.ruleset import bundled_names, find_ruleset, load_ruleset

    head = logged.header
    reference = ruleset_ref or head["ruleset"]
    folder = find_ruleset(reference)
    if folder is None:
        hint = (f"bundled rulesets: {', '.join(bundled_names())}" if ruleset_ref is None
                else "give a ruleset's folder (holding a ruleset.yaml) or a bundled ruleset's name")
        raise LogError.at(Position(logged.path, 1, 1), f"the log's ruleset {reference!r} is not found: give its "
                          "folder with --ruleset FOLDER", hint)
    notes = []
    now = ruleset_hash(folder)
    if head.get("ruleset_hash") and head["ruleset_hash"] != now:
        notes.append(f"the ruleset's files at {folder} differ from those the log was written with "
                     f"(the log has {head['ruleset_hash'][:19]}..., the folder {now[:19]}...)")
    try:
        ruleset = load_ruleset(str(folder), head["variant"], head.get("options"))
        game = Game(compile_ruleset(ruleset, head["players"]))
    except SnowrulesError as error:
        changed = " (its files changed since the log was written)" if notes else ""
        raise LogError([Diagnostic(Position(logged.path, 1, 1), f"the log's ruleset cannot be loaded{changed}")]
                       + error.diagnostics) from None
    if head.get("version") is not None and ruleset.version != head["version"]:
        notes.append(f"the log was written with version {head['version']}, the ruleset is {ruleset.version}")
    return game, ruleset, notes


def _compare(logged: LoggedGame, game: Game) -> ReplayReport:
    portable = PortableRules()
    produced: list[dict] = []
    agent = LoggedChoices(logged)
    illegal = None
    try:
        st = play(game, [agent] * game.program.players, int(logged.header["seed"]),
                  sink=lambda event: produced.append(portable.event(event)))
    except _Divergence as divergence:
        st = None
        problem = divergence
    except LogError as error:  # a logged choice index not legal here: maybe the game had already diverged
        st, problem, illegal = None, None, error
    else:
        problem = None
    for index, (number, expected) in enumerate(logged.events):
        got = produced[index] if index < len(produced) else None
        if got != expected:
            if illegal is not None and index >= len(produced):
                raise illegal  # the replay agreed with the log up to the illegal choice itself
            if problem is not None and index >= len(produced):
                break  # the log ran out of choices: it ends before the game does (below)
            return ReplayReport(False, index, "the replay differs from the log", number, expected, got)
    if illegal is not None:
        raise illegal
    if len(produced) > len(logged.events):
        return ReplayReport(False, len(logged.events), "the replay goes on after the log ends",
                            logged.events[-1][0] + 1 if logged.events else 2, None, produced[len(logged.events)])
    if problem is not None:
        last = logged.events[-1][0] if logged.events else 1
        return ReplayReport(False, len(produced), "the replay goes on after the log ends (" + problem.message + ")",
                            last + 1, None, problem.got)
    number, expected = logged.result
    got = result_event(game, st)
    if got != expected:
        return ReplayReport(False, len(produced), "the result differs from the log", number, expected, got)
    return ReplayReport(True, len(produced))
