"""The game state: plain lists and integers, so it can be cloned cheaply and written to JSON.

Where the rules will continue is data too: a stack of `Frame`s (block, next statement, env index,
loop items, loop position), and a stack of environments (local variable slots of each running
routine). What the rules wait for is a `Decision`, how the game ended an `Ending` (values.py).
No Python generator or closure is ever stored here; the compiled program that the ids refer to
lives beside the state, shared by every copy.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snowrules.language.limits import MAX_STEPS
from snowrules.model.grid import Grid
from snowrules.model.move_tally import MoveTally
from snowrules.model.values import Decision, Ending, Frame, plain_copy

Sink = Callable[[Any], None]   # receives the game's events (model/events.py)


class State:
    __slots__ = ("zones", "where", "counters", "vars", "frames", "envs", "rng", "pending", "answer",
                 "result", "forced", "steps", "max_steps", "pause_after_turn", "paused", "deferring", "deferred",
                 "sink", "tally", "decide", "draws", "explicit", "raised", "phase", "grids")

    def __init__(self) -> None:
        self.zones: list[list[int]] = []      # zone instance -> component ids, bottom first
        self.where: list[int] = []            # component id -> zone instance (derived, kept for speed)
        # A grid zone's layout (zone instance -> Grid: where each of its components lies, turned
        # how, covering what); the zone's list keeps its components in placement order.
        self.grids: dict[int, Grid] = {}
        self.counters: list[int] = []
        self.vars: list[Any] = []             # global variables
        self.frames: list[Frame] = []
        self.envs: list[list] = []
        self.rng: int = 0
        self.pending: Decision | None = None  # the decision the rules wait for
        self.answer: Any = None               # its answer, until the rules take it
        self.result: Ending | None = None     # set when the game has ended
        self.forced: list = []                # chance outcomes a scenario imposes, in order
        self.steps: int = 0                   # statements run, against runaway rules
        # The most `steps` may reach: the program's budget (Program.max_steps, lowered for a smoke
        # game or a scenario), given by the game that makes or reads the state.
        self.max_steps: int = MAX_STEPS
        self.pause_after_turn: int | None = None  # stop when this turn ends (scenarios look there)
        self.paused: bool = False             # stopped at the end of a turn, not at a decision
        self.sink: Sink | None = None         # where events go; not part of the state
        self.tally: MoveTally | None = None   # counts moves for whoever follows the game; not state
        self.decide = None                    # answers decisions inline (agents.play); not state
        # Random agents answering inline (agents.play's random path): each seat's `random()`, so that
        # a plain decision draws its answer from the option count alone, without building a Decision
        # for `decide` to read (the same draw `decide` would make); not state.
        self.draws: list | None = None
        # Explicit chance (OpenSpiel's view): every draw at random waits as a chance decision, and a
        # decision with one legal option is still asked, instead of being taken without asking.
        self.explicit: bool = False
        # The `phase NAME:` blocks the rules are inside, outermost first; kept only by programs
        # with free actions, which are allowed in some phases (compile/free_actions.py).
        self.phase: tuple[str, ...] = ()
        # Inside a `together` block (never open at a decision, so not part of the saved state):
        self.deferring: int = 0               # how many `together` blocks are open
        self.deferred: list = []              # the triggers they set off, run when they close
        # Events raised by the statement running now, whose reactions run once it is done (never
        # left over at a decision, so not part of the saved state): (event, arguments) pairs.
        self.raised: list = []

    @property
    def over(self) -> bool:
        return self.result is not None

    def clone(self) -> State:
        other = State.__new__(State)
        other.zones = [z[:] for z in self.zones]
        other.where = self.where[:]
        other.grids = {zone: grid.copy() for zone, grid in self.grids.items()} if self.grids else {}
        other.counters = self.counters[:]
        # The slots are copied, the values in them shared: the language never changes a list or
        # a record in place (a statement sets a whole variable; a frame's loop items are shared
        # the same way), and a deep copy of every value was a sixth of a bot's lookahead.
        other.vars = self.vars[:]
        other.frames = [f.copy() for f in self.frames]
        other.envs = [e[:] for e in self.envs]
        other.rng = self.rng
        pending = self.pending
        other.pending = pending if pending is None or pending.progress is None else pending.copy()
        other.answer = _copy(self.answer)
        other.result = self.result              # frozen
        other.forced = self.forced[:]
        other.steps = self.steps
        other.max_steps = self.max_steps
        other.pause_after_turn = self.pause_after_turn
        other.paused = self.paused
        other.explicit = self.explicit
        other.phase = self.phase                # a tuple: never changed in place
        other.sink = other.tally = other.decide = other.draws = None
        other.deferring, other.deferred = 0, []
        other.raised = []
        return other

    def __deepcopy__(self, memo: dict) -> State:
        """copy.deepcopy (how OpenSpiel clones a Python game's state) as the fast `clone`."""
        return self.clone()

    def to_json(self) -> dict:
        data = self._to_json()
        if self.grids:  # only a game with grid zones has the key: other states keep their bytes
            data["grids"] = [[zone, grid.to_json()] for zone, grid in sorted(self.grids.items())]
        return data

    def _to_json(self) -> dict:
        data = {
            "zones": self.zones, "counters": self.counters, "vars": self.vars,
            "frames": [f.to_json() for f in self.frames], "envs": self.envs, "rng": self.rng,
            "pending": None if self.pending is None else self.pending.to_json(), "answer": self.answer,
            "result": None if self.result is None else self.result.to_json(), "forced": self.forced,
            "steps": self.steps,
            "pause_after_turn": self.pause_after_turn, "paused": self.paused, "explicit": self.explicit,
        }
        if self.phase:  # only programs with free actions keep it
            data["phase"] = list(self.phase)
        return data

    @classmethod
    def from_json(cls, data: dict) -> State:
        state = cls()
        state.zones = [list(z) for z in data["zones"]]
        state.counters = list(data["counters"])
        state.vars = _copy(data["vars"])
        state.frames = [Frame.from_json(f) for f in data["frames"]]
        state.envs = [_copy(e) for e in data["envs"]]
        state.rng = int(data["rng"])
        state.pending = None if data["pending"] is None else Decision.from_json(data["pending"])
        state.answer = _copy(data["answer"])
        state.result = None if data["result"] is None else Ending.from_json(data["result"])
        state.forced = _copy(data["forced"])
        state.steps = int(data["steps"])
        state.pause_after_turn = data["pause_after_turn"]
        state.paused = bool(data["paused"])
        state.explicit = bool(data.get("explicit", False))
        state.phase = tuple(data.get("phase", ()))
        state.deferring, state.deferred = 0, []
        state.raised = []
        state.grids = {int(zone): Grid.from_json(grid) for zone, grid in data.get("grids", [])}
        state.where = [0] * sum(len(z) for z in state.zones)
        for index, zone in enumerate(state.zones):
            for component in zone:
                state.where[component] = index
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json() and self.where == other.where


_copy = plain_copy  # the state copies its plain data the same way
