"""The game's events: one typed value for each change of the game, sent once, by the one place
that makes the change (compile/apply.py for the rules' own changes, runtime/ for turns, choices
and the end).

Whoever drives a game may listen (`Game.start(..., listen=...)`): the log and the narrated
account read each event's JSON form (`to_json`, the lines of a log file, byte for byte as they
were before events were typed); the scenario runner and tests read the values themselves. An
event names things by index (a component id, a zone instance, a counter index, a seat), so a
listener reacts without parsing labels; `to_json(layout)` turns indexes into the names a reader
sees. Events are documented, with their JSON forms, in docs/events.md.

An event is a value: nobody changes one once it is sent. The classes are not declared frozen
for all that, because a frozen dataclass sets each field through `object.__setattr__`: making
one took four times as long (1.2 against 0.3 microseconds for a move), and a game followed by a
simulation's figures sends hundreds of moves.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from snowrules.model.layout import Layout


class Event:
    """Base of every event: `to_json` is the event as a log line (None: not written to logs)."""

    __slots__ = ()

    def to_json(self, layout: Layout) -> dict | None:  # pragma: no cover - every event overrides it
        raise NotImplementedError


@dataclass(slots=True)
class Moved(Event):
    """Components moved from one zone to another by a rule (`move`, `move all`, a random draw)."""

    components: list[int]   # in the order they moved
    source: int             # zone instances (Layout.zones)
    dest: int
    rule: str               # path:line:col of the rule
    at_random: bool = False  # a draw at random (`move N at random from ...`)
    # `move c to ZONE at SPOT` on a grid zone: the anchor cell and the rotation, (x, y, degrees)
    at: tuple[int, int, int] | None = None

    def to_json(self, layout: Layout) -> dict:
        data = {"e": "move", "what": [layout.component_names[c] for c in self.components],
                "from": layout.zones[self.source].label(layout.seat_names),
                "to": layout.zones[self.dest].label(layout.seat_names), "rule": self.rule}
        if self.at is not None:  # only a placement on a grid: other moves keep their bytes
            data["at"] = [self.at[0], self.at[1]]
            data["turned"] = self.at[2]
        return data


@dataclass(slots=True)
class CounterChanged(Event):
    """A counter changed (`add`, `subtract`, `set`; after clamping to its bounds, never by 0)."""

    counter: int            # index in State.counters (Layout.counter_labels)
    old: int
    new: int
    rule: str

    @property
    def by(self) -> int:
        return self.new - self.old

    def owner(self, layout: Layout) -> int | None:
        """The seat whose counter it is (None for a shared counter or a component's)."""
        for family in layout.counter_families.values():
            if family.base <= self.counter < family.base + layout.family_size(family):
                return (self.counter - family.base) // family.width if family.per_player else None
        return None

    def component(self, layout: Layout) -> int | None:
        """The component whose counter it is (`counter ... per component`), else None."""
        for family in layout.counter_families.values():
            if family.holders is not None and family.base <= self.counter < family.base + len(family.holders):
                return family.holders[self.counter - family.base]
        return None

    def family(self, layout: Layout) -> str:
        """The counter's declared name (`coins` for every seat's `coins`)."""
        for family in layout.counter_families.values():
            if family.base <= self.counter < family.base + layout.family_size(family):
                return family.name
        return ""

    def to_json(self, layout: Layout) -> dict:
        return {"e": "count", "counter": layout.counter_labels[self.counter], "by": self.new - self.old,
                "now": self.new, "rule": self.rule}


@dataclass(slots=True)
class VariableSet(Event):
    """A game variable (`variable` at the top of the rules) was given a value. Not in the log:
    a variable's value follows from the logged events."""

    variable: int           # index in State.vars (Program.variable_names)
    value: Any
    rule: str

    def to_json(self, layout: Layout) -> None:
        return None


@dataclass(slots=True)
class Rolled(Event):
    dice: list[int]
    sides: int
    rule: str

    def to_json(self, layout: Layout) -> dict:
        return {"e": "roll", "dice": self.dice, "sides": self.sides, "rule": self.rule}


@dataclass(slots=True)
class Shuffled(Event):
    zone: int
    rule: str

    def to_json(self, layout: Layout) -> dict:
        return {"e": "shuffle", "zone": layout.zones[self.zone].label(layout.seat_names), "rule": self.rule}


@dataclass(slots=True)
class PhaseStarted(Event):
    """A `phase` (or the `setup` / `at game end:` section) begins."""

    name: str

    def to_json(self, layout: Layout) -> dict:
        return {"e": "phase", "phase": self.name}


@dataclass(slots=True)
class TurnStarted(Event):
    turn: int

    def to_json(self, layout: Layout) -> dict:
        return {"e": "turn", "turn": self.turn}


@dataclass(slots=True)
class Chosen(Event):
    """A seat answered a decision: the option's index among the legal ones (`options` of them), its
    value and the label the seat read."""

    seat: int
    index: int
    value: Any
    label: str
    rule: str
    options: int

    def to_json(self, layout: Layout) -> dict:
        return {"e": "choice", "seat": layout.seat_names[self.seat], "index": self.index, "option": self.label,
                "rule": self.rule}


@dataclass(slots=True)
class Said(Event):
    """`announce`: prose the ruleset adds to the account."""

    text: str
    rule: str

    def to_json(self, layout: Layout) -> dict:
        return {"e": "say", "text": self.text, "rule": self.rule}


@dataclass(slots=True)
class GameOver(Event):
    """The game ended (State.result holds the same ending)."""

    winners: list[int]      # seats
    rule: str
    reason: str             # a Termination value

    def to_json(self, layout: Layout) -> dict:
        return {"e": "end", "winners": [layout.seat_names[w] for w in self.winners], "rule": self.rule}


@dataclass(slots=True)
class Reacted(Event):
    """A reaction ran: the `on` rule or the component's `reacts:` entry (`rule`, its path:line:col),
    the component whose entry it is (None for a rule of the rules file), and the event it
    answered, with its arguments as values and the kind of each (to name them in the log)."""

    rule: str
    card: int | None
    event: str
    args: tuple
    kinds: tuple[str, ...]   # "player", "component", "zone" or "value", one per argument

    def to_json(self, layout: Layout) -> dict:
        args = [_named(layout, value, kind) for value, kind in zip(self.args, self.kinds)]
        return {"e": "react", "event": self.event, "args": args,
                "card": None if self.card is None else layout.component_names[self.card], "rule": self.rule}


def _named(layout: Layout, value: Any, kind: str) -> Any:
    """An event's argument as a reader sees it: seats, components and zones by their names."""
    if value is None or isinstance(value, bool):
        return value
    if kind == "player" and isinstance(value, int):
        return layout.seat_names[value]
    if kind == "component" and isinstance(value, int):
        return layout.component_names[value]
    if kind == "zone" and isinstance(value, int):
        return layout.zones[value].label(layout.seat_names)
    return value


def kinds_of(classes) -> frozenset[str]:
    """The names of these event classes, as a program built for its listeners takes them (see
    Game.play_through); None: every kind of event."""
    chosen = Event.__subclasses__() if classes is None else classes
    return frozenset(cls.__name__ for cls in chosen)
