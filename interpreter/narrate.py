"""A game's events as a readable account, for `snowrules run`.

Events are generic (moves, counter changes, dice, choices, phases), so the account is too; a
ruleset adds prose with `announce`. Setup moves are summed up rather than listed.
"""
from __future__ import annotations

from collections.abc import Iterable


class Narrator:
    """Turns a stream of events into lines; call `feed` per event, read `lines`."""

    def __init__(self, show_rules: bool = False, write=None):
        self.show_rules = show_rules
        self.write = write or (lambda line: None)
        self.phase = ""
        self.setup_moves = 0
        self.revealed: list[str] = []

    def _flush(self) -> None:
        if self.revealed:
            self.write("    chosen: " + "; ".join(self.revealed))
            self.revealed = []

    def _rule(self, event: dict) -> str:
        return f"   ({event['rule']})" if self.show_rules and "rule" in event else ""

    def feed(self, event: dict) -> None:
        kind = event["e"]
        if kind != "choice":
            self._flush()
        if kind == "phase":
            if self.phase == "setup" and self.setup_moves:
                self.write(f"  {self.setup_moves} components set out")
                self.setup_moves = 0
            self.phase = event["phase"]
            if self.phase != "setup":
                self.write(f"  - {self.phase.replace('_', ' ')}")
            else:
                self.write("Setup")
        elif kind == "turn":
            if self.setup_moves:
                self.write(f"  {self.setup_moves} components set out")
                self.setup_moves = 0
            self.phase = ""
            self.write(f"\nTurn {event['turn']}")
        elif kind == "move":
            if self.phase == "setup":
                self.setup_moves += len(event["what"])
                return
            self.write(f"    {_items(event['what'])}: {event['from']} -> {event['to']}{self._rule(event)}")
        elif kind == "count":
            sign = "+" if event["by"] > 0 else ""
            self.write(f"    {event['counter']} {sign}{event['by']} (now {event['now']}){self._rule(event)}")
        elif kind == "roll":
            self.write(f"    rolled {', '.join(str(d) for d in event['dice'])}{self._rule(event)}")
        elif kind == "shuffle":
            self.write(f"    shuffled {event['zone']}")
        elif kind == "choice":
            self.revealed.append(f"{event['seat']}: {event['option']}")
        elif kind == "say":
            self.write(f"    {event['text']}")
        elif kind == "end":
            winners = " and ".join(event["winners"]) or "nobody"
            self.write(f"\nThe game ends: {winners} {'win' if len(event['winners']) > 1 else 'wins'}"
                       f"{self._rule(event)}")


def _items(names: list[str]) -> str:
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{n} x {name}" for name, n in counts.items())


def narrate(events: Iterable[dict], show_rules: bool = False) -> list[str]:
    lines: list[str] = []
    narrator = Narrator(show_rules, lines.append)
    for event in events:
        narrator.feed(event)
    narrator._flush()
    return lines
