"""The intermediate form: what a program is made of, as typed values.

The syntax tree says how the rules were written; these nodes say what each statement *does* to
the course of a game: whether it asks a player, draws at random, raises an event, changes a
counter, moves components, calls a procedure, or holds other statements. Facts the compiler needs
before it compiles a statement (may it wait for a decision? does it set off reactions?) are
derived from these nodes by a pass (effects.py), never listed by hand beside the statements.

Expressions are not lowered yet: a node keeps the syntax it was lowered from (`syntax`), from
which the compiler still compiles its values.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position


# ---- what a statement may raise --------------------------------------------------------------
@dataclass(frozen=True)
class NamedEvent:
    """An event raised by name (`raise scored(p, 3)`)."""

    name: str

    def __str__(self) -> str:
        return f"event {self.name}"


@dataclass(frozen=True)
class CounterChanged:
    """Every change of a counter family raises the events declared `from changes of` it."""

    family: str

    def __str__(self) -> str:
        return f"change of {self.family}"


@dataclass(frozen=True)
class ComponentsMoved:
    """Every move of components raises the events declared `from moves`."""

    def __str__(self) -> str:
        return "move"


Raised = NamedEvent | CounterChanged | ComponentsMoved


# ---- statements ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Statement:
    pos: Position = field(compare=False)
    syntax: s.Node = field(compare=False, repr=False)

    @property
    def raised(self) -> tuple[Raised, ...]:
        """What this statement itself raises each time it runs (not what it holds or calls)."""
        return ()

    @property
    def inner(self) -> tuple[Block, ...]:
        """The blocks it holds, run as part of it."""
        return ()


@dataclass(frozen=True)
class Block:
    pos: Position = field(compare=False)
    statements: tuple[Statement, ...]


class Decision(Enum):
    """What a statement asks a player (the answer is a player's, or an agent's)."""

    CHOICE = "a choice"
    RESOLUTION = "the resolution of a card's effect"
    FREE_ACTIONS = "free actions"


@dataclass(frozen=True)
class Remembered:
    """What a decision's chooser remembers of its answer (`remembered as EXPR`): the value of
    `expression`, with the answer named `answer` and the chooser named `chooser` (the name of
    `ask p ...` or of `ask each p in ... secretly`; None when the chooser is not written as a
    name). An adapter's information state keeps this value where it would keep the answer, so a
    player may forget what the rules let them forget (the order of cards picked one by one) or
    remember what a move meant (the legal move an illegal one stands for). Only the chooser's
    memory changes: the game, its log and every other seat's view are the same."""

    pos: Position = field(compare=False)
    expression: s.Node = field(compare=False, repr=False)
    answer: str
    chooser: str | None


@dataclass(frozen=True)
class Ask(Statement):
    decision: Decision
    then: Block | None = None        # run with the answer
    otherwise: Block | None = None   # run on a declined optional choice
    prompt: str | None = None        # what the decision is, in the rules' words
    remembered: Remembered | None = None  # what the chooser remembers of the answer (a choice's)

    @property
    def inner(self) -> tuple[Block, ...]:
        return tuple(b for b in (self.then, self.otherwise) if b is not None)


class Draw(Enum):
    ROLL = "a roll of dice"
    SHUFFLE = "a shuffle"
    RANDOM_MOVE = "a move at random"
    RANDOM_PICK = "a pick at random"


@dataclass(frozen=True)
class Chance(Statement):
    """A draw: an outcome of chance, which waits only when chance is explicit (an adapter's chance
    node); a draw at random is not a move event."""

    draw: Draw


@dataclass(frozen=True)
class Raise(Statement):
    event: str

    @property
    def raised(self) -> tuple[Raised, ...]:
        return (NamedEvent(self.event),)


@dataclass(frozen=True)
class Move(Statement):
    """Components moved from zone to zone (or placed on a grid zone)."""

    @property
    def raised(self) -> tuple[Raised, ...]:
        return (ComponentsMoved(),)


@dataclass(frozen=True)
class Change(Statement):
    """A counter added to or set; `family` is None when the target names no declared counter
    (reported by the compiler)."""

    family: str | None

    @property
    def raised(self) -> tuple[Raised, ...]:
        return () if self.family is None else (CounterChanged(self.family),)


@dataclass(frozen=True)
class Pay(Statement):
    """A payment: it changes its counters, and asks its payer when it offers a choice of how to
    pay (several counters, or an amount that is not exact)."""

    families: tuple[str, ...]
    offers_choice: bool

    @property
    def raised(self) -> tuple[Raised, ...]:
        return tuple(CounterChanged(f) for f in self.families)


@dataclass(frozen=True)
class Call(Statement):
    procedure: str


@dataclass(frozen=True)
class Branch(Statement):
    """`if` / `otherwise`: one of its blocks runs."""

    branches: tuple[Block, ...]
    otherwise: Block | None

    @property
    def inner(self) -> tuple[Block, ...]:
        return self.branches + (() if self.otherwise is None else (self.otherwise,))


class Repetition(Enum):
    FOR_EACH = "for each"
    WHILE = "while"
    REPEAT = "repeat"


@dataclass(frozen=True)
class Loop(Statement):
    repetition: Repetition
    body: Block

    @property
    def inner(self) -> tuple[Block, ...]:
        return (self.body,)


@dataclass(frozen=True)
class Phase(Statement):
    name: str
    body: Block

    @property
    def inner(self) -> tuple[Block, ...]:
        return (self.body,)


@dataclass(frozen=True)
class Together(Statement):
    """Changes that count as simultaneous: what they raise is heard once the block is done, so
    the block itself may not wait for a decision."""

    body: Block

    @property
    def inner(self) -> tuple[Block, ...]:
        return (self.body,)


@dataclass(frozen=True)
class Act(Statement):
    """Any other statement: it neither asks, draws, raises, changes a counter nor moves (a `let`,
    a variable set, a turn of a piece, a reset, an announcement, `end game`)."""

    what: str


# ---- routines and the program ----------------------------------------------------------------
class RoutineKind(Enum):
    SETUP = "setup"
    TURN = "each turn"
    FINAL = "at game end"
    PROCEDURE = "procedure"
    TRIGGER = "when"
    REACTION = "on"
    FREE_ACTION = "free action"
    EFFECT = "card effect"


@dataclass(frozen=True)
class Routine:
    """A body of statements the program runs as a whole: a section, a procedure, a trigger, a
    reaction, a free action or a component's effect. `name` is what the rules call it; `pos`
    where it is declared; `watches` the counter families a trigger watches."""

    kind: RoutineKind
    name: str
    pos: Position = field(compare=False)
    body: Block
    watches: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Outline:
    """Every routine of a program, in the order the rules give them."""

    routines: tuple[Routine, ...]

    def of(self, kind: RoutineKind) -> tuple[Routine, ...]:
        return tuple(r for r in self.routines if r.kind is kind)

    def statements(self) -> list[Statement]:
        """Every statement of every routine, each before the statements it holds."""
        found: list[Statement] = []
        blocks = [r.body for r in reversed(self.routines)]
        while blocks:
            for statement in blocks.pop().statements:
                found.append(statement)
                blocks.extend(reversed(statement.inner))
        return found
