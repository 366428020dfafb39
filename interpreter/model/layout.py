"""Where everything lives in a game of a given size: seats, components, zones and counters.

A ruleset is compiled once per seat count, so that every zone and counter instance has a fixed
integer index and every component a fixed id. The state then holds only flat lists of integers.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from snowrules.load.labels import LabelTemplate
from snowrules.load.ruleset import Ruleset
from snowrules.model.grid_board import Board

BOX = "box"  # the implicit shared zone where every component starts


@dataclass
class ZoneFamily:
    """A declared zone: one instance, one per index, one per player, or one per player and index."""

    name: str
    per_player: bool
    indexes: list[int] | None
    visibility: str
    base: int = 0
    grid: bool = False  # `grid`: its components also lie on a grid (model/grid_zones.py)
    bounded: bool = False  # `grid W by H`, `grid of NAME`: a bounded board (its `Board`: Layout.boards)
    unordered: bool = False  # `unordered`: the order its components arrived in is never shown

    @property
    def width(self) -> int:
        return len(self.indexes) if self.indexes else 1


@dataclass
class ZoneInstance:
    family: str
    owner: int | None
    index: int | None
    visibility: str
    unordered: bool = False  # its family's: seen as a sorted multiset of names (Game.view, the adapter)

    def label(self, seat_names: list[str]) -> str:
        text = self.family if self.owner is None else f"{seat_names[self.owner]}.{self.family}"
        return text if self.index is None else f"{text}[{self.index}]"


@dataclass
class CounterFamily:
    name: str
    per_player: bool
    keys: list[str]
    lower: int | None
    upper: int | None
    base: int = 0
    start: int | None = None  # `initially N`
    # A counter `per component`: the ids of the components that have one, in id order (every
    # component, or those of the named kinds), and for each component id its counter's index (-1:
    # none). Such a family has no keys: one counter per holder.
    holders: list[int] | None = None
    index_of: list[int] | None = None
    kinds: tuple[str, ...] = ()  # the kinds of component that have one (none given: every component)

    @property
    def width(self) -> int:
        return len(self.keys) if self.keys else 1

    @property
    def per_component(self) -> bool:
        return self.holders is not None

    @property
    def initial(self) -> int:
        """The value a game starts with and `reset` returns to: `initially`, else the lower bound,
        else 0 (so that a counter's floor need not be where it starts, as with `from -999`)."""
        if self.start is not None:
            return self.start
        return self.lower if self.lower is not None else 0


@dataclass
class Layout:
    seats: int
    seat_names: list[str]
    component_names: list[str] = field(default_factory=list)
    component_defs: list[int] = field(default_factory=list)  # cid -> index in ruleset.components
    component_files: list[str] = field(default_factory=list)  # cid -> the component list it is from
    component_copy: list[int] = field(default_factory=list)  # cid -> 1 + earlier components of its name
    fields: dict[str, list[Any]] = field(default_factory=dict)
    labels: list[LabelTemplate | None] = field(default_factory=list)  # cid -> its list's `label:`
    zone_families: dict[str, ZoneFamily] = field(default_factory=dict)
    zones: list[ZoneInstance] = field(default_factory=list)
    counter_families: dict[str, CounterFamily] = field(default_factory=dict)
    counter_labels: list[str] = field(default_factory=list)
    counter_lower: list[int | None] = field(default_factory=list)
    counter_upper: list[int | None] = field(default_factory=list)
    counter_initial: list[int] = field(default_factory=list)
    # Grid zones (model/grid_zones.py): their instances, every component's shape, the side fields.
    grid_zones: list[int] = field(default_factory=list)
    boards: dict[int, Board] = field(default_factory=dict)  # a bounded one's board (set once it is read)
    pieces: dict[int, Any] = field(default_factory=dict)
    # cid -> (where its `squares:` is written, how many): a board's copy with more squares than a
    # tile may have, refused where it would be placed as one (compile/square_uses.py)
    boards_only: dict[int, tuple[str, int]] = field(default_factory=dict)
    side_fields: frozenset[str] = frozenset()
    automa: int | None = None  # the seat the rules play (the last one), when the game has one

    @property
    def player_seats(self) -> int:
        """The seats that agents play: every seat but the automa's (`players` in the rules)."""
        return self.seats if self.automa is None else self.seats - 1

    def add_zone(self, family: ZoneFamily) -> None:
        family.base = len(self.zones)
        self.zone_families[family.name] = family
        owners = range(self.seats) if family.per_player else [None]
        for owner in owners:
            for index in family.indexes or [None]:
                if family.grid:
                    self.grid_zones.append(len(self.zones))
                self.zones.append(ZoneInstance(family.name, owner, index, family.visibility, family.unordered))

    @property
    def grid_bounds(self) -> dict[int, tuple[int, int]]:
        """Each bounded grid zone instance's columns and rows (W, H): the rectangle drawn."""
        return {z: (board.width, board.height) for z, board in self.boards.items()}

    def set_board(self, name: str, board: Board) -> None:
        """The board of the bounded grid zone `name`, the same for each of its instances."""
        for z, zone in enumerate(self.zones):
            if zone.family == name:
                self.boards[z] = board

    def add_counter(self, family: CounterFamily) -> None:
        family.base = len(self.counter_labels)
        self.counter_families[family.name] = family
        if family.holders is not None:
            self._add_component_counters(family)
            return
        owners = range(self.seats) if family.per_player else [None]
        for owner in owners:
            for key in family.keys or [None]:
                label = family.name if owner is None else f"{self.seat_names[owner]}.{family.name}"
                self.counter_labels.append(label if key is None else f"{label}[{key}]")
                self.counter_lower.append(family.lower)
                self.counter_upper.append(family.upper)
                self.counter_initial.append(family.initial)

    def _add_component_counters(self, family: CounterFamily) -> None:
        """One counter per holding component, labelled by the component as a player reads it
        (`die 2.value`; copies of one name by their number, `token #3.value`)."""
        family.index_of = [-1] * len(self.component_names)
        repeated = {name for name, n in Counter(self.component_names).items() if n > 1}
        for slot, c in enumerate(family.holders):
            family.index_of[c] = family.base + slot
            self.counter_labels.append(f"{self.component_label(c, repeated)}.{family.name}")
            self.counter_lower.append(family.lower)
            self.counter_upper.append(family.upper)
            self.counter_initial.append(family.initial)

    def component_label(self, c: int, repeated: set[str]) -> str:
        """A component's name, with its copy's number when it is in `repeated` (names that several
        components have)."""
        name = self.component_names[c]
        return f"{name} #{self.component_copy[c]}" if name in repeated else name

    def family_size(self, family: CounterFamily) -> int:
        """How many counters a family holds, every seat, key or component together (what `reset`
        resets)."""
        if family.holders is not None:
            return len(family.holders)
        return family.width * (self.seats if family.per_player else 1)

    def counter_index(self, name: str, owner: int | None = None, key: str | None = None) -> int:
        family = self.counter_families[name]
        offset = family.keys.index(key) if key is not None else 0
        return family.base + (owner or 0) * family.width + offset


def seat_names(ruleset: Ruleset, seats: int) -> list[str]:
    names = list(ruleset.seat_names)
    return [names[i] if i < len(names) else f"seat {i + 1}" for i in range(seats)]


def instantiate_components(ruleset: Ruleset, layout: Layout) -> None:
    """Give every copy of every component an id, and build one list per field (fast lookup)."""
    field_names = sorted({k for c in ruleset.components for k in c.fields})
    layout.fields = {name: [] for name in field_names + ["owner"]}
    seen: dict[str, int] = {}
    for def_index, definition in enumerate(ruleset.components):
        owners = range(layout.seats) if definition.per_seat else [None]
        for owner in owners:
            for _copy in range(definition.count):
                prefix = "" if owner is None else f"{layout.seat_names[owner]} "
                layout.component_names.append(prefix + definition.name)
                name = prefix + definition.name
                seen[name] = seen.get(name, 0) + 1
                layout.component_copy.append(seen[name])
                layout.component_defs.append(def_index)
                layout.labels.append(definition.label)
                layout.component_files.append(definition.position.path)
                for name in field_names:
                    layout.fields[name].append(definition.fields.get(name))
                layout.fields["owner"].append(owner)
