"""Game logs: JSON Lines, one event a line, self-describing; and their replay.

The first line names the ruleset, its version, the variant, the seed, the players and the agents;
then come the game's events in order (each choice with the option index the agent gave); the last
line is the result. A replay re-runs the game with the logged choices and compares every event,
reporting the first line that differs.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snowrules.language.diagnostics import Diagnostic, LogError, Position, SnowrulesError
from snowrules.model.state import State
from snowrules.runtime.engine import Game

FORMAT = "snowrules-log/1"


def header(game: Game, seed: int, agents: list[str], ruleset_ref: str) -> dict:
    program = game.program
    return {"e": "header", "format": FORMAT, "ruleset": program.ruleset, "ruleset_ref": ruleset_ref,
            "version": program.version, "variant": program.variant, "seed": seed,
            "players": program.players, "seats": game.layout.seat_names, "agents": agents,
            "options": program.options}


def result_event(game: Game, st: State) -> dict:
    outcome = game.outcome(st)
    return {"e": "result", "winners": outcome.winners, "scores": outcome.scores,
            "seat_scores": outcome.seat_scores, "turns": outcome.turns}


class LogWriter:
    """Writes a log to a temporary file beside the target and renames it only when the game has
    ended, so a failed run never leaves a half log in place of a good one."""

    def __init__(self, path: Path):
        self.path = path
        self.temporary = path.with_name(path.name + ".partial")
        self.file = None

    def __enter__(self) -> LogWriter:
        try:
            self.file = self.temporary.open("w", encoding="utf-8")
        except OSError as error:
            raise LogError.at(Position(str(self.path)), f"cannot write the log: {error.strerror}") from None
        return self

    def write(self, event: dict) -> None:
        self.file.write(json.dumps(event, separators=(",", ":"), sort_keys=True) + "\n")

    def __exit__(self, kind, value, traceback) -> None:
        self.file.close()
        if kind is None:
            os.replace(self.temporary, self.path)
        else:
            self.temporary.unlink(missing_ok=True)


@dataclass
class LoggedGame:
    path: str
    header: dict
    events: list[tuple[int, dict]]  # (line number, event), header and result excluded
    result: tuple[int, dict] | None


def read_log(path: Path) -> LoggedGame:
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LogError.at(Position(shown), "log file not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LogError.at(Position(shown), f"cannot read the log: {error}") from None
    events: list[tuple[int, dict]] = []
    head, result = None, None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise LogError.at(Position(shown, number, error.colno), f"not JSON: {error.msg}") from None
        if not isinstance(event, dict) or "e" not in event:
            raise LogError.at(Position(shown, number, 1), "each line must be an object with an \"e\" field")
        if head is None:
            if event["e"] != "header" or event.get("format") != FORMAT:
                raise LogError.at(Position(shown, number, 1), f"the first line must be a {FORMAT} header")
            for key in ("ruleset", "seed", "players", "variant"):
                if key not in event:
                    raise LogError.at(Position(shown, number, 1), f"the header has no {key!r}")
            head = event
        elif event["e"] == "result":
            result = (number, event)
        else:
            events.append((number, event))
    if head is None:
        raise LogError.at(Position(shown, 1, 1), "the log is empty")
    return LoggedGame(shown, head, events, result)


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


def replay(path: Path) -> ReplayReport:
    """Re-run a logged game and compare it, event by event, with the log."""
    from snowrules.compile.compiler import compile_ruleset
    from snowrules.load.ruleset import load_ruleset
    from snowrules.play.agents import play

    logged = read_log(path)
    head = logged.header
    try:
        ruleset = load_ruleset(head.get("ruleset_ref") or head["ruleset"], head["variant"], head.get("options"))
        game = Game(compile_ruleset(ruleset, int(head["players"])))
    except SnowrulesError as error:
        raise LogError([Diagnostic(Position(logged.path, 1, 1), "the log's ruleset cannot be loaded")]
                       + error.diagnostics) from None
    if ruleset.version != head.get("version"):
        note = f"the log was written with version {head.get('version')}, the ruleset is {ruleset.version}"
    else:
        note = ""
    produced: list[dict] = []
    agent = LoggedChoices(logged)
    illegal = None
    try:
        st = play(game, [agent] * game.program.players, int(head["seed"]), sink=produced.append)
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
            return ReplayReport(False, index, "the replay differs from the log" + (f" ({note})" if note else ""),
                                number, expected, got)
    if illegal is not None:
        raise illegal
    if len(produced) > len(logged.events):
        return ReplayReport(False, len(logged.events), "the replay goes on after the log ends",
                            logged.events[-1][0] + 1 if logged.events else 2, None, produced[len(logged.events)])
    if problem is not None:
        last = logged.events[-1][0] if logged.events else 1
        return ReplayReport(False, len(produced), "the replay goes on after the log ends (" + problem.message + ")",
                            last + 1, None, problem.got)
    if logged.result is not None:
        number, expected = logged.result
        got = result_event(game, st)
        if got != expected:
            return ReplayReport(False, len(produced), "the result differs from the log", number, expected, got)
    return ReplayReport(True, len(produced))
