"""Observation and information-state tensors of a ruleset's states, for learning algorithms.

The encoding is read from what the compiled game already knows, never from a game's names: its
zones and which of them a seat sees (Sight, the same rule as Game.view), its components grouped
by name (copies of a name are alike to a player, as in the observation strings), its counters
with their declared bounds, its variables, the seats to move and the decisions its rules can ask.
Its size is fixed for a game configuration (a ruleset, a variant, a player count, options), so
that a network can be built for it; docs/language.md ("OpenSpiel") gives the pieces and a worked
example.

Nothing here runs unless a tensor is asked for: the adapter's default path (strings, random play)
never builds a layout or an array.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from snowrules.adapters.recall import Recall, Sight, rule_in_folder
from snowrules.language import syntax as s
from snowrules.load.ruleset import Ruleset
from snowrules.model.program import Program
from snowrules.model.state import State


@dataclass(frozen=True)
class Piece:
    """One named part of a tensor (OpenSpiel's observer `dict`): its name and shape."""

    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


@dataclass(frozen=True)
class TensorLayout:
    """Where each fact goes in a seat's tensor, for one game configuration (see the module's doc).

    `group_of[c]` is the group (distinct name) of component `c`, `copies[g]` how many components
    share that name; `sees[seat][zone]` whether the seat sees the zone's content (Sight.sees);
    counters are scaled by `counter_low` and `counter_span` (a span of 0: not scaled, the value
    itself); `texts` are the texts a variable's value may be told by (the components' text fields
    and the seat names), `sites` the decisions the rules can ask, by position in the folder."""

    seats: int
    player_seats: int
    zones: int
    group_names: tuple[str, ...]
    group_of: np.ndarray
    copies: np.ndarray
    sees: np.ndarray
    counter_low: np.ndarray
    counter_span: np.ndarray
    component_counters: tuple[tuple[int, int], ...]
    variables: int
    texts: dict[str, int]
    sites: dict[str, int]
    grid_zones: tuple[int, ...]
    components: int
    folder: str

    @classmethod
    def of(cls, program: Program, ruleset: Ruleset, sight: Sight) -> TensorLayout:
        layout = program.layout
        names = layout.component_names
        group_names = tuple(dict.fromkeys(names))
        index = {name: g for g, name in enumerate(group_names)}
        group_of = np.array([index[name] for name in names], dtype=np.int64)
        copies = np.bincount(group_of, minlength=len(group_names)).astype(np.float32)
        low = np.array([lo if lo is not None else 0 for lo in layout.counter_lower], dtype=np.float32)
        span = np.array([hi - lo if lo is not None and hi is not None and hi > lo else 0
                         for lo, hi in zip(layout.counter_lower, layout.counter_upper)], dtype=np.float32)
        texts = sorted({v for values in layout.fields.values() for v in values if isinstance(v, str)}
                       | set(layout.seat_names))
        nodes = [n for f in ruleset.rules for n in s.walk(f)]
        nodes += [n for d in ruleset.components for body in d.effects.values() for n in s.walk(body)]
        sites = sorted({rule_in_folder(str(n.pos), sight.folder) for n in nodes if isinstance(n, s.Choose)})
        return cls(layout.seats, layout.player_seats, len(layout.zones), group_names, group_of, copies,
                   np.array(sight.sees, dtype=bool).reshape(layout.player_seats, len(layout.zones)),
                   low, span, tuple(sight.on_components), len(program.variable_names),
                   {text: i for i, text in enumerate(texts)}, {site: i for i, site in enumerate(sites)},
                   tuple(layout.grid_zones), len(names), sight.folder)

    # ---- the pieces -------------------------------------------------------------------------
    def observation_pieces(self) -> list[Piece]:
        """A seat's view now: who it is, who is to move, what it is asked, each zone's content
        by name (or only its size where it cannot see it), counters, variables, grid places."""
        groups = len(self.group_names)
        pieces = [Piece("observer", (self.player_seats,)),
                  Piece("to_move", (self.seats + 2,)),  # each seat to decide, then chance, then the end
                  Piece("asked", (len(self.sites) + 2,)),  # asked at all, then which decision (or another)
                  Piece("zone_sizes", (self.zones,)),
                  Piece("zones", (self.zones, groups)),
                  Piece("counters", (len(self.counter_low),)),
                  Piece("variables", (self.variables, 3))]
        if self.grid_zones:
            pieces.append(Piece("grid", (self.components, 4)))
        return [p for p in pieces if p.size]

    def information_state_pieces(self) -> list[Piece]:
        """The view now and what the seat has seen and done: for each zone and name, the most of
        that name it has seen there at once; how often it chose each name and each seat."""
        groups = len(self.group_names)
        extra = [Piece("seen", (self.zones, groups)), Piece("chose", (groups + self.seats,))]
        return self.observation_pieces() + [p for p in extra if p.size]

    # ---- filling them -----------------------------------------------------------------------
    def observe(self, st: State, seat: int, out: dict[str, np.ndarray]) -> None:
        """Write the seat's view of `st` into the pieces `out` (zeroed first by the caller)."""
        sees = self.sees[seat]
        if "observer" in out:
            out["observer"][seat] = 1
        moving = out["to_move"]
        pending = st.pending
        if st.result is not None:
            moving[self.seats + 1] = 1
        elif pending is not None and pending.chance:
            moving[self.seats] = 1
        elif pending is not None:
            moving[pending.seats] = 1
            if seat in pending.seats:
                asked = out["asked"]
                asked[0] = 1
                asked[1 + self.sites.get(rule_in_folder(pending.rule, self.folder), len(self.sites))] = 1
        sizes = np.fromiter(map(len, st.zones), dtype=np.float32, count=self.zones)
        if "zone_sizes" in out:
            out["zone_sizes"][:] = sizes / max(self.components, 1)
        if "zones" in out:
            zones = out["zones"]
            for z in np.flatnonzero(sees):
                content = st.zones[z]
                if content:
                    zones[z] = np.bincount(self.group_of[content], minlength=len(self.copies)) / self.copies
        if "counters" in out:
            self._counters(st, sees, out["counters"])
        if "variables" in out:
            self._variables(st.vars, out["variables"])
        if "grid" in out:
            grid = out["grid"]
            for z in self.grid_zones:
                layout = st.grids.get(z)
                for cell, stack in (layout.stacks.items() if layout is not None else ()):
                    for layer in stack:
                        if layer.square == 0:
                            grid[layer.piece] = (1, cell.x, cell.y, layer.rotation)

    def _counters(self, st: State, sees: np.ndarray, out: np.ndarray) -> None:
        """Counters scaled into 0..1 by their declared bounds (the value itself where a bound is
        missing); a component's counter only where the seat sees the component, as in Game.view."""
        values = np.asarray(st.counters, dtype=np.float32) - self.counter_low
        bounded = self.counter_span > 0
        values[bounded] /= self.counter_span[bounded]
        where = st.where
        for i, c in self.component_counters:
            if not sees[where[c]]:
                values[i] = 0
        out[:] = values

    def _variables(self, values: list[Any], out: np.ndarray) -> None:
        """Each variable (public, as in Game.view) as three numbers: whether it is set, its number
        (a true/false as 1/0, a list by its length), and a text by its place among the known texts
        (1..n scaled to 0..1; -1 for a text not among them)."""
        known = len(self.texts)
        for i, value in enumerate(values):
            if value is None:
                continue
            out[i, 0] = 1
            if isinstance(value, (bool, int, float)):
                out[i, 1] = float(value)
            elif isinstance(value, (list, tuple)):
                out[i, 1] = len(value)
            elif isinstance(value, str):
                place = self.texts.get(value)
                out[i, 2] = -1 if place is None else (place + 1) / known

    def remember(self, recall: Recall, seat: int, out: dict[str, np.ndarray]) -> None:
        """Write what the seat has seen and chosen (its notes, Recall) into `seen` and `chose`.
        Folded once per note: the folded sums are kept on the notes (Recall.folded) and only the
        notes added since are read at the next ask."""
        groups = len(self.group_names)
        if recall.folded is None:
            recall.folded = [(0, None, None)] * len(recall.notes)
        told, seen, chose = recall.folded[seat]
        notes = recall.notes[seat]
        if told < len(notes):
            seen = np.zeros((self.zones, groups), np.float32) if seen is None else seen.copy()
            chose = np.zeros(groups + self.seats, np.float32) if chose is None else chose.copy()
            sees = self.sees[seat]
            for note in notes[told:]:
                if note[0] == "saw":
                    for z, content, _ in note[1]:
                        if sees[z] and content:
                            counts = np.bincount(self.group_of[list(content)], minlength=groups) / self.copies
                            np.maximum(seen[z], counts, out=seen[z])
                elif note[0] == "chose":
                    self._chose(note[1], note[2], chose, groups)
            recall.folded[seat] = (len(notes), seen, chose)
        if seen is not None and "seen" in out:
            out["seen"][:] = seen
        if chose is not None and "chose" in out:
            out["chose"][:] = chose

    def count_chosen(self, option: Any, kind: str, chose: np.ndarray) -> None:
        """Add a choice not (yet) in the notes to a `chose` piece (picks held apart: picks.py)."""
        self._chose(option, kind, chose, len(self.group_names))

    def _chose(self, option: Any, kind: str, chose: np.ndarray, groups: int) -> None:
        """A choice counted by what it names: a component by its name, a seat by its number (an
        option of several items counts each; a value chosen is seen in what it changed)."""
        items = option if isinstance(option, (list, tuple)) else [option]
        for item in items:
            if type(item) is not int:
                continue
            if kind == "component" and 0 <= item < self.components:
                chose[self.group_of[item]] += 1
            elif kind == "player" and 0 <= item < self.seats:
                chose[groups + item] += 1
