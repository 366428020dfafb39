"""Game logs: JSON Lines, one event a line, self-describing; and their replay.

The first line, the header, names the ruleset, its version and the hash of its files, the
variant, the seed, the players, the agents and the options; then come the game's events in order
(each choice with the option index the agent gave); the last line is the result. Nothing in a log
depends on where it was written (see logwriter.py). A replay re-runs the game with the logged
choices and compares every event, reporting the first line that differs; a log whose ruleset
changed since it was written says so first.
"""
from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snowrules.language.diagnostics import LogError, Position
from snowrules.language.limits import (
    MAX_JSON_DEPTH,
    MAX_LOG_BYTES,
    MAX_LOG_LINE_BYTES,
    MAX_NUMBER,
    excerpt,
    number_too_large,
)
from snowrules.model.state import State
from snowrules.records.logwriter import LogWriter, ruleset_hash
from snowrules.runtime.engine import Game

FORMAT = "snowrules-log/2"  # /2: rule paths inside the ruleset folder, the ruleset's hash, no folder path

__all__ = ["FORMAT", "LogWriter", "header", "read_log", "result_event"]


def header(game: Game, seed: int, agents: list[str], ruleset_ref: str | Path) -> dict:
    """The first line of a log. `ruleset_ref` (a bundled ruleset's name or its folder) is only
    read for the hash of its files: the header names the ruleset by its name."""
    from snowrules.load.ruleset import find_ruleset
    program = game.program
    folder = find_ruleset(str(ruleset_ref))
    return {"e": "header", "format": FORMAT, "ruleset": program.ruleset,
            "ruleset_hash": ruleset_hash(folder) if folder is not None else None,
            "version": program.version, "variant": program.variant, "seed": seed,
            "players": program.players, "seats": game.layout.seat_names, "agents": agents,
            "options": program.options}


def result_event(game: Game, st: State) -> dict:
    outcome = game.outcome(st)
    return {"e": "result", "winners": outcome.winners, "scores": outcome.scores,
            "seat_scores": outcome.seat_scores, "turns": outcome.turns}


@dataclass
class LoggedGame:
    path: str
    header: dict
    events: list[tuple[int, dict]]  # (line number, event), header and result excluded
    result: tuple[int, dict] | None  # None only for a game still going on (read_log(finished=False))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The header's fields a replay relies on: (name, required, check, what it must be).
HEADER_FIELDS: list[tuple[str, bool, Any, str]] = [
    ("ruleset", True, lambda v: isinstance(v, str) and v != "", "a ruleset's name"),
    ("seed", True, _is_int, "a whole number"),
    ("players", True, lambda v: _is_int(v) and v >= 1, "a whole number, at least 1"),
    ("variant", True, lambda v: v is None or isinstance(v, str), "a variant's name or null"),
    ("version", False, lambda v: isinstance(v, str), "a version text"),
    ("ruleset_hash", False, lambda v: v is None or isinstance(v, str), "a text (sha256:...)"),
    ("options", False, lambda v: isinstance(v, dict), "an object of option names and values"),
    ("agents", False, lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v), "a list of names"),
]


def _check_header(event: dict, where: str, number: int, line: str) -> None:
    """Every header field a replay uses, of the right kind, or a message at its place in the line."""
    for key, required, valid, what in HEADER_FIELDS:
        column = line.find(json.dumps(key)) + 1 or 1
        if key not in event:
            if required:
                raise LogError.at(Position(where, number, 1), f"the header has no {key!r}")
            continue
        if not valid(event[key]):
            raise LogError.at(Position(where, number, column),
                              f"the header's {key!r} must be {what}, not {json.dumps(event[key])}")


# A JSON text (skipped whole, or to the end of the line when it is not closed: a linear scan) or
# one bracket: what the nesting check looks at.
_TEXT_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|$)|[\[\]{}]')
PARTIAL = re.compile(r"\.[a-z0-9_]{8}\.partial$")  # the name LogWriter gives its temporary file


def _lines(path: Path, shown: str) -> Iterator[tuple[int, str]]:
    """The log's lines with their numbers, read one at a time and each bounded before it is decoded
    (a log is untrusted input): a line longer than MAX_LOG_LINE_BYTES, a log longer than
    MAX_LOG_BYTES or a line nested deeper than MAX_JSON_DEPTH is refused at its line, so a
    hostile log costs bounded memory and time whatever its size."""
    try:
        file = path.open("rb")
    except FileNotFoundError:
        raise LogError.at(Position(shown), "log file not found") from None
    except OSError as error:
        raise LogError.at(Position(shown), f"cannot read the log: {error}") from None
    total = 0
    with file:
        for number in itertools.count(1):
            try:
                raw = file.readline(MAX_LOG_LINE_BYTES + 2)
            except OSError as error:
                raise LogError.at(Position(shown, number), f"cannot read the log: {error}") from None
            if not raw:
                return
            total += len(raw)
            if len(raw.rstrip(b"\r\n")) > MAX_LOG_LINE_BYTES:
                raise LogError.at(Position(shown, number, 1), f"this line is longer than {MAX_LOG_LINE_BYTES} bytes",
                                  "a log's lines are a few hundred bytes; this is not a snowrules log",
                                  code="SR802")
            if total > MAX_LOG_BYTES:
                raise LogError.at(Position(shown, number, 1), f"the log is longer than {MAX_LOG_BYTES} bytes here",
                                  "a game's log is under a megabyte; this is not a snowrules log", code="SR802")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                column = len(raw[:error.start].decode("utf-8", "replace")) + 1
                raise LogError.at(Position(shown, number, column), f"not UTF-8 text ({error.reason})") from None
            _check_nesting(text, shown, number)
            yield number, text.rstrip("\r\n")


def _check_nesting(line: str, shown: str, number: int) -> None:
    """Refuse a line whose lists and objects nest deeper than MAX_JSON_DEPTH, at the bracket one
    level too deep, before the JSON decoder recurses into it."""
    depth = 0
    for match in _TEXT_OR_BRACKET.finditer(line):
        bracket = match.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise LogError.at(Position(shown, number, match.start() + 1),
                                  f"lists and objects nested more than {MAX_JSON_DEPTH} deep",
                                  "a log's events nest two deep; this is not a snowrules log", code="SR705")
        elif bracket in ("]", "}"):
            depth = max(0, depth - 1)


def _whole_number(digits: str, *, line: str, shown: str, number: int) -> int:
    """A whole number of a log line, refused beyond MAX_NUMBER before it is converted (Python
    refuses to convert more than 4,300 digits) at its first place in the line."""
    if number_too_large(digits):
        raise LogError.at(Position(shown, number, line.find(digits) + 1), f"the number {excerpt(digits)} is "
                          f"larger than {MAX_NUMBER:,}", "a log's numbers are seeds, counts and indexes",
                          code="SR711")
    return int(digits)


def read_log(path: Path, finished: bool = True) -> LoggedGame:
    """A log file, read as untrusted input: every line bounded before it is decoded (see `_lines`),
    and never the temporary `.partial` file of a run still writing, or killed while writing.
    `finished=False` also reads the log of a game that has not ended yet (no result line), as
    `snowrules serve` writes it after each answer, to resume or watch it."""
    shown = str(path)
    if PARTIAL.search(path.name):
        raise LogError.at(Position(shown), "this is the unfinished log of a run that was still writing it or was "
                          "killed (a .partial file), not a log",
                          "replay the log itself (its name without the ending); the next run writing that log "
                          "removes a partial file left by a killed run", code="SR801")
    events: list[tuple[int, dict]] = []
    head, result = None, None
    last = 0
    for number, line in _lines(path, shown):
        if not line.strip():
            continue
        last = number
        try:
            event = json.loads(line, parse_int=functools.partial(_whole_number, line=line, shown=shown, number=number))
        except json.JSONDecodeError as error:
            raise LogError.at(Position(shown, number, error.colno), f"not JSON: {error.msg}") from None
        if not isinstance(event, dict) or "e" not in event:
            raise LogError.at(Position(shown, number, 1), "each line must be an object with an \"e\" field")
        if head is None:
            if event["e"] != "header" or not isinstance(event.get("format"), str):
                raise LogError.at(Position(shown, number, 1), f"the first line must be a {FORMAT} header")
            if event["format"] != FORMAT:
                raise LogError.at(Position(shown, number, line.find('"format"') + 1 or 1),
                                  f"this log is {event['format']}; this snowrules reads {FORMAT}",
                                  "write the log again with this version of snowrules")
            _check_header(event, shown, number, line)
            head = event
        elif result is not None:
            raise LogError.at(Position(shown, number, 1), f"an event after the result line (line {result[0]})",
                              "the result is the last line of a log")
        elif event["e"] == "result":
            result = (number, event)
        else:
            events.append((number, event))
    if head is None:
        raise LogError.at(Position(shown, 1, 1), "the log is empty")
    if result is None and finished:
        raise LogError.at(Position(shown, last + 1, 1), "the log ends without its result line",
                          "a log is complete only when its game ended; this one was cut short or edited")
    return LoggedGame(shown, head, events, result)
