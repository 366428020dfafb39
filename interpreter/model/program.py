"""The compiled program: blocks of statements that the generator writes as Python, and the
game's layout.

A block's statements come in two forms. A *native* statement is one Python closure (and the lines
it fuses to) that runs to completion (most of the rules: arithmetic, moves, loops without
decisions). A *step* is a statement that may stop for a decision or run a block: its generated
code adds its frame to a stop returned through it, so the state between decisions is plain data
(compile/playthrough.py, compile/playthrough_stops.py).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from snowrules.language.diagnostics import Position
from snowrules.load.display import GridDisplay
from snowrules.model.layout import Layout

Native = Callable[[Any, list], None]

# What happens at the end of a block (compile/playthrough_stops.py: end_of_block_lines).
SEQUENCE, LOOP, WHILE, ROUTINE, TURNS = "sequence", "loop", "while", "routine", "turns"


@dataclass
class Block:
    id: int
    kind: str
    natives: list[Native | None] = field(default_factory=list)
    steps: list[Any] = field(default_factory=list)
    slots: tuple[int, ...] = ()          # loop variables bound from each item
    cond: Callable | None = None         # while: test before each pass
    limit: Callable | None = None        # turns: how many (None: until the game ends)
    position: Position | None = None
    positions: list[Position] = field(default_factory=list)
    size: int = 0                        # number of statements
    # Past `size`: slots of steps run in this block's frame though written in a branch of it
    # (compile/steps.py: IfStep.inline): a stop there keeps the `if`'s frame at the slot.
    # A sequence of exactly one step (a branch around a draw or a decision), else None: the step
    # that such a slot runs.
    single: Any = None

    def add_native(self, native: Native, position: Position) -> None:
        assert len(self.steps) == self.size, "statements are added before any slot"
        self.natives.append(native)
        self.steps.append(None)
        self.positions.append(position)
        self.size += 1
        self.single = None

    def add_step(self, step: Any, position: Position) -> None:
        assert len(self.steps) == self.size, "statements are added before any slot"
        self.natives.append(None)
        self.steps.append(step)
        self.positions.append(position)
        self.single = step if self.size == 0 and self.kind == SEQUENCE else None
        self.size += 1

    def next_slot(self) -> int:
        """The pc of the next slot past the block's statements (see `size`). The first is
        `size + 1`: a pc of `size` is the block's end, so that place is left empty."""
        return len(self.steps) + (len(self.steps) == self.size)

    def add_slot(self, step: Any, position: Position) -> int:
        """A step at the next slot; its pc."""
        slot = self.next_slot()
        while len(self.steps) < slot:
            self.natives.append(None)
            self.steps.append(None)
            self.positions.append(position)
        self.natives.append(None)
        self.steps.append(step)
        self.positions.append(position)
        return slot


@dataclass
class Routine:
    """A body that runs with its own local slots: the game itself, a trigger, a card's effect."""

    block: int
    env_size: int
    slots: dict[str, int] = field(default_factory=dict)


@dataclass
class Program:
    title: str
    ruleset: str
    version: str
    variant: str | None
    players: int
    seats_per_player: int
    layout: Layout
    blocks: list[Block]
    main: Routine
    variables_initial: list[Any]
    counters_initial: list[int]
    effects: dict[tuple[int, str], Routine]   # (component def index, field) -> routine
    turn_counter: int
    variable_names: list[str] = field(default_factory=list)  # index in State.vars -> name
    # The manifest's `returns` and `action_ids` expressions: key -> (fn, env size, slot of `p`/`it`,
    # position in the manifest).
    interface: dict[tuple, tuple] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # the game parameters it was compiled with
    explicit_chance: bool = False  # its draws can wait as chance decisions (see chance.py)
    # How people see its grid zones (the manifest's `display:`, load/display.py): zone name -> display.
    display: dict[str, GridDisplay] = field(default_factory=dict)
    max_steps: int = 5_000_000
    # The events a ruleset declares and the reactions they run (compile/reactions.py); None when
    # nothing reacts, so that the generated code has no lines for them.
    reactions: Any = None
    # The free actions (compile/free_actions.py: FreeAction), offered at decisions of one player.
    free_actions: list[Any] = field(default_factory=list)
    # What each decision is, in the rules' words (`ask p to choose d from D as "place a die"`):
    # the decision's rule (path:line:col, as `Decision.rule`) -> its prompt.
    prompts: dict[str, str] = field(default_factory=dict)
    # How a free action's option reads, with values (`as "TEXT"`): its index -> its compiled text
    # (compile/prompt_values.py OptionText); the others read "free: NAME (ITEM)".
    option_texts: dict[int, Any] = field(default_factory=dict)
    # How a zone reads to a person, where its declaration says (`as "TEXT"`): the zone's name ->
    # its compiled text (compile/prompt_values.py NameText); the others read by their labels.
    zone_texts: dict[str, Any] = field(default_factory=dict)
    # How a counter reads to a person, where its declaration says (`as "TEXT"`): the counter's
    # name -> its compiled text (compile/counter_texts.py); the others by their key or their name.
    counter_texts: dict[str, Any] = field(default_factory=dict)
    # What a decision's chooser remembers of the answer (`remembered as EXPR`): the decision's rule
    # -> compile/remembered.py's RememberedValue, read by the adapters' information states.
    remembered: dict[str, Any] = field(default_factory=dict)
    # The program built as generated code (compile/playthrough.py), by (event kinds heard, mode):
    # built once, shared by every Game of this program and by a copy of it with a lower step
    # budget (validate's scenarios and smoke games; the budget is read from the state as it runs).
    built: dict[tuple, Any] = field(default_factory=dict, compare=False, repr=False)
    # The first number of a generated name its compile left unused, where its builds number
    # theirs from (compile/fuse.py `numbering`).
    first_free_name: int = field(default=0, compare=False, repr=False)

    @property
    def seats(self) -> int:
        return self.layout.seats

    @property
    def turn_word(self) -> str:
        """What one pass of the rules' main section is called where a person reads it: "round"
        for `rounds N:` (a fixed number of rounds, each with every player's turns inside, as
        rulebooks count them), "turn" for `each turn:`. Logs and JSON say "turn" either way."""
        return "round" if any(b.kind == TURNS and b.limit is not None for b in self.blocks) else "turn"

    def controller(self, seat: int) -> int:
        """The player who plays a seat (two colours each in some variants)."""
        return seat // self.seats_per_player

    def seats_of(self, player: int) -> list[int]:
        k = self.seats_per_player
        return list(range(player * k, player * k + k))
