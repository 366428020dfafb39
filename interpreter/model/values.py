"""The typed values a game state holds: where the rules continue (`Frame`), what they wait for
(`Decision`) and how the game ended (`Ending`, with its `Termination`).

All three are plain data: their fields are numbers, texts and lists of those (a decision's
options may also be records), so a state copies cheaply and writes to JSON. On disk they keep
the compact forms of earlier versions (a frame is a five-item list, a decision and an ending are
objects with the same keys as before), so saved states stay readable.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Frame:
    """One running block: which block, which statement next, which environment (index in
    `State.envs`), and for a loop the items it goes through and the position in them (for the
    game's turns, the turn number).

    A class with slots rather than a dataclass: a resume entry reads and moves it at every stop
    and a clone copies every frame, and both stay as cheap as with the five-item lists this
    replaces."""

    __slots__ = ("block", "pc", "env", "items", "index")

    def __init__(self, block: int, pc: int, env: int, items: list | None = None, index: int = 0):
        self.block = block
        self.pc = pc
        self.env = env
        self.items = items      # never changed in place once the loop starts: copies may share it
        self.index = index

    def copy(self) -> Frame:
        return Frame(self.block, self.pc, self.env, self.items, self.index)

    def to_json(self) -> list:
        return [self.block, self.pc, self.env, self.items, self.index]

    @classmethod
    def from_json(cls, data: list) -> Frame:
        block, pc, env, items, index = data
        return cls(block, pc, env, items, index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Frame(block={self.block}, pc={self.pc}, env={self.env}, items={self.items!r}, index={self.index})"


@dataclass(slots=True)
class Decision:
    """What the rules wait for.

    `seats` decide (empty for a chance draw); `options[i]` are the legal options of `seats[i]`
    (a chance draw has one list: its outcomes, equally likely unless `weights` gives each one's
    weight). `simultaneous`: the seats
    answer at once without seeing each other's answers. `how_many` is None when an option is one
    item, else the number of items each option holds (`exactly`) or at most holds (`up_to`).
    `rule` is where the decision is written (path:line:col), `variable` the name the rules give
    the answer, `kind` what a whole-number option stands for ("component", "player" or "value",
    see Game.label). A chance draw keeps its `progress` (dice so far, the shuffle's place...)."""

    seats: list[int]
    options: list[list[Any]]
    simultaneous: bool
    rule: str
    variable: str
    kind: str = "component"
    chance: bool = False
    how_many: int | None = None
    up_to: bool = False
    optional: bool = False
    progress: Any = None
    weights: list[int] | None = None  # a chance draw's weight per outcome (None: all equally likely)

    def copy(self) -> Decision:
        """A copy for a cloned state: the options are never changed once offered, so the copy
        shares them; only a draw's progress changes as the draw goes on."""
        if self.progress is None:
            return self
        return Decision(self.seats, self.options, self.simultaneous, self.rule, self.variable, self.kind,
                        self.chance, self.how_many, self.up_to, self.optional, plain_copy(self.progress),
                        self.weights)

    def to_json(self) -> dict:
        data = {"players": self.seats, "options": self.options, "simultaneous": self.simultaneous,
                "rule": self.rule, "choice": self.variable, "kind": self.kind}
        if self.chance:
            data["chance"] = True
            data["progress"] = self.progress
        if self.how_many is not None:
            data["how_many"] = self.how_many
            data["up_to"] = self.up_to
        if self.optional:
            data["optional"] = True
        if self.weights is not None:
            data["weights"] = self.weights
        return data

    @classmethod
    def from_json(cls, data: dict) -> Decision:
        return cls(list(data["players"]), plain_copy(data["options"]), bool(data["simultaneous"]), data["rule"],
                   data["choice"], data.get("kind", "component"), bool(data.get("chance", False)),
                   data.get("how_many"), bool(data.get("up_to", False)), bool(data.get("optional", False)),
                   plain_copy(data.get("progress")), data.get("weights"))


class Termination(StrEnum):
    """Why the game ended. Both come from an `end game` rule; they differ in where it ran."""

    DURING_PLAY = "during play"   # in the setup, a turn, a trigger or a card: the game stops at once
    FINAL = "final"               # in the `at game end:` section, after the last turn


@dataclass(frozen=True, slots=True)
class Ending:
    """How the game ended: the winning seats (several share a victory; none: nobody wins), the
    `end game` rule that ended it (path:line:col) and why (`reason`)."""

    winners: list[int]
    rule: str
    reason: Termination = Termination.DURING_PLAY

    def to_json(self) -> dict:
        return {"winners": self.winners, "rule": self.rule, "reason": self.reason.value}

    @classmethod
    def from_json(cls, data: dict) -> Ending:
        return cls(list(data["winners"]), data["rule"], Termination(data.get("reason", Termination.DURING_PLAY)))


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (lists, dicts, scalars), much faster than copy.deepcopy."""
    if isinstance(value, list):
        return [plain_copy(v) if isinstance(v, (list, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: plain_copy(v) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value
