"""Perfect recall for the OpenSpiel adapter: what each seat saw change, was asked and chose.

A seat's perfect-recall information state is its whole sequence of observations (Recall), made
of the parts of its view that never change (Sight) and the facts noted at each node, which become
text only when asked for (`_note_text`). Kept apart from adapters/openspiel.py, which decides
when the notes are taken.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, count
from operator import ne
from pathlib import Path
from typing import Any

from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.model.values import Decision
from snowrules.runtime.engine import Game


@dataclass(frozen=True)
class Sight:
    """What never changes in what the seats see: the zones' labels and which zones' content each
    seat sees (as in Game.view: public zones and its player's hidden ones). Kept by the game, not
    in the states, which are copied at every node."""

    zone_labels: list[str]
    counter_labels: list[str]
    variable_names: list[str]
    component_names: list[str]
    sees: list[list[bool]]
    # counters `per component`: (counter index, component id); a seat sees such a counter where
    # it sees the component, as in Game.view
    on_components: list[tuple[int, int]] = ()
    folder: str = ""  # the ruleset's folder, resolved: rules are named inside it (`rule_in_folder`)
    # the zones declared `unordered`, by index: shown as a sorted multiset of names, so that the
    # order their components arrived in is in no view and no information state
    unordered: tuple[int, ...] = ()

    @classmethod
    def of(cls, program: Program, folder: Path | None = None) -> Sight:
        layout = program.layout
        sees = [[zone.visibility == "public" or (zone.visibility == "hidden"
                                                 and zone.owner in program.seats_of(program.controller(seat)))
                 for zone in layout.zones] for seat in range(layout.player_seats)]
        on_components = [(family.base + slot, c) for family in layout.counter_families.values()
                         if family.per_component for slot, c in enumerate(family.holders)]
        return cls([zone.label(layout.seat_names) for zone in layout.zones], list(layout.counter_labels),
                   list(program.variable_names), list(layout.component_names), sees, on_components,
                   str(folder.resolve()) if folder is not None else "",
                   tuple(i for i, zone in enumerate(layout.zones) if zone.unordered))

    def shown(self, zone: int, names: list[str]) -> list[str]:
        """A zone's component names as a seat that sees them is shown them: in the zone's order, or
        sorted when the zone is `unordered`."""
        return sorted(names) if zone in self.unordered else names

    def options_shown(self, st: State, options: list, kind: str) -> list:
        """A decision's options in the order a seat is shown them: as the rules list them, or
        sorted by name when they are all components of `unordered` zones (whose order is the
        order they arrived in); combinations of such components (`up to N`, `exactly N`) each
        with its items sorted, largest first, then by their names."""
        if not self.unordered or kind != "component" or not options:
            return options
        names, unordered, where = self.component_names, self.unordered, st.where
        if all(type(c) is int and where[c] in unordered for c in options):
            return sorted(options, key=lambda c: (names[c], c))
        if all(type(o) is list and all(type(c) is int and where[c] in unordered for c in o) for o in options):
            shown = [sorted(o, key=lambda c: (names[c], c)) for o in options]
            return sorted(shown, key=lambda o: (-len(o), [(names[c], c) for c in o]))
        return options

    def option_shown(self, st: State, option: Any, kind: str) -> Any:
        """One option as a seat is shown it: a combination of components of `unordered` zones
        with its items sorted by name (see options_shown)."""
        if type(option) is list and option and self.unordered and kind == "component":
            return self.options_shown(st, [option], kind)[0]
        return option


@lru_cache(maxsize=4096)
def rule_in_folder(rule: str, folder: str) -> str:
    """A rule's position (`path:line:col`, its path as the ruleset was loaded) with its file named
    from inside the ruleset's folder (`rules.sr:53:9`): the same game loaded from two paths
    (`leduc_poker`, `../x/leduc_poker`, an absolute path) gives the same information states."""
    path, sep, place = rule.partition(":")
    while place.count(":") > 1:  # a path holding ':' (rare): the line and column are the last two
        head, _, place = place.partition(":")
        path = f"{path}:{head}"
    if not sep or not folder:
        return rule
    try:
        inside = Path(path).resolve().relative_to(folder).as_posix()
    except (ValueError, OSError, RuntimeError):
        inside = Path(path).name
    return f"{inside}:{place}"


class Recall:
    """Each seat's whole sequence of observations, in order: what it saw change (the parts of
    its view, Game.view, that differ from the last time it looked), the decisions it was asked
    (the rule and the options) and what it chose. Nothing is ever removed, so a value the seat
    saw and that was later overwritten is still told apart: this is its perfect-recall
    information state. Every seat looks at the same moments, so the state is compared with the
    last look once, and each change is told to the seats that may see it.

    The notes keep the facts (component ids, counts, values, options) and become text only when
    an information state is asked for (`text`): most nodes of a playout are never asked."""

    # Each seat's notes folded into its information-state tensor so far (notes told, seen, chose:
    # tensors.TensorLayout.remember), made only once a tensor is asked for: None until then, so
    # that a game asking for no tensor pays nothing for them.
    folded: list[tuple[int, Any, Any]] | None = None

    def __init__(self, seats: int):
        self.notes: list[list[tuple]] = [[] for _ in range(seats)]
        self.last_zones: list[tuple[int, ...]] | None = None  # each zone's content at the last look
        self.last_counters: list[int] | None = None
        self.last_vars: list[Any] | None = None
        self.last_types: list[type] | None = None  # 1, 1.0 and true are equal, but not alike
        self.last_grids: dict[int, str] = {}  # each grid zone's layout at the last look, as JSON text
        # each seat's text as far as it was asked (notes told, text): a search asks after every
        # move, and each note is made text once rather than the whole sequence again every time
        self.texts: list[tuple[int, str]] = [(0, "")] * seats

    def __deepcopy__(self, memo: dict) -> Recall:
        """pyspiel clones a state with copy.deepcopy at every `clone()`. The notes are only ever
        appended and a note never changes, nor does a kept copy of the zones or of a value (they are
        replaced, not changed): so a copy shares them and copies only the lists that change."""
        other = Recall.__new__(Recall)
        other.notes = [notes[:] for notes in self.notes]
        other.last_zones = self.last_zones
        other.last_counters = self.last_counters
        other.last_vars = None if self.last_vars is None else self.last_vars[:]
        other.last_types = self.last_types
        other.last_grids = self.last_grids
        other.texts = self.texts[:]
        if self.folded is not None:  # its arrays are replaced, never changed: a copy shares them
            other.folded = self.folded[:]
        return other

    def look(self, st: State, sight: Sight) -> None:
        """Every seat notes what changed since the last look (at the first look, everything).
        The comparisons run in C (map, compress): this runs at every node of every playout."""
        zones = list(map(tuple, st.zones))  # as they are now; compared with last time's in C
        for z in sight.unordered:  # a new order of the same components is no change
            zones[z] = tuple(sorted(zones[z]))
        counters, values = st.counters, st.vars
        last_zones = self.last_zones
        if last_zones is None:
            last_zones = [None] * len(zones)
            changed_zones: Any = range(len(zones))
            changed_counters: Any = range(len(counters))
            changed_values: Any = range(len(values))
            self.last_vars = [None] * len(values)
            types = list(map(type, values))
        else:
            changed_zones = list(compress(count(), map(ne, zones, last_zones)))
            changed_counters = (() if counters == self.last_counters
                                else list(compress(count(), map(ne, counters, self.last_counters))))
            types = list(map(type, values))
            changed_values = (() if values == self.last_vars and types == self.last_types
                              else [i for i in range(len(values)) if values[i] != self.last_vars[i]
                                    or types[i] is not self.last_types[i]])
        last_vars = self.last_vars
        public: list[tuple] = [("counter", i, counters[i]) for i in changed_counters]
        if sight.on_components:
            public = self._component_counters(st, sight, public, set(changed_zones))
        if st.grids:  # a grid zone is public: where its components lie, what covers what
            layouts = {z: json.dumps(grid.to_json()) for z, grid in st.grids.items()}
            public += [("grid", z, text) for z, text in sorted(layouts.items()) if self.last_grids.get(z) != text]
            self.last_grids = layouts
        for i in changed_values:
            last_vars[i] = seen = _copied(values[i])
            public.append(("variable", i, seen))
        # One note for every seat: each changed zone's content, and its size when that changed. What
        # a seat may see of it (Sight.sees) is picked out when its notes become text.
        changes = tuple([(i, zones[i], len(zones[i]) if last_zones[i] is None
                          or len(zones[i]) != len(last_zones[i]) else None) for i in changed_zones])
        if changes or public:
            note = ("saw", changes, tuple(public))
            for notes in self.notes:
                notes.append(note)
        self.last_zones = zones
        if changed_counters or self.last_counters is None:  # never changed in place: copies share it
            self.last_counters = counters[:]
        self.last_types = types

    @staticmethod
    def _component_counters(st: State, sight: Sight, public: list[tuple], moved: set[int]) -> list[tuple]:
        """A component's counter is told with the zone its component is in (a seat that cannot see
        the zone does not see the counter), and told again when the component changes zones (so a
        card turned face up shows its counter)."""
        where = st.where
        holder = dict(sight.on_components)
        told = [(what, i, value, where[holder[i]]) if what == "counter" and i in holder else (what, i, value)
                for what, i, value in public]
        changed = {i for what, i, *_ in public if what == "counter"}
        told += [("counter", i, st.counters[i], where[c]) for i, c in sight.on_components
                 if i not in changed and where[c] in moved]
        return told

    def asked(self, seat: int, rule: str, options: list, kind: str) -> None:
        self.notes[seat].append(("asked", rule, options, kind))

    def asked_each(self, pending: Decision, st: State | None = None, sight: Sight | None = None) -> None:
        """Each deciding seat notes what it is asked (`asked`, for every seat of the decision).
        Options that are all components of `unordered` zones are noted sorted by name: their order
        is the order they arrived in, which such a zone never shows."""
        notes, rule, kind = self.notes, pending.rule, pending.kind
        for seat, options in zip(pending.seats, pending.options):
            if sight is not None and sight.unordered:
                options = sight.options_shown(st, options, kind)
            notes[seat].append(("asked", rule, options, kind))

    def chose(self, seat: int, option: Any, kind: str) -> None:
        self.notes[seat].append(("chose", option, kind))

    def text(self, seat: int, sight: Sight, engine: Game) -> str:
        """The seat's notes, one line each: `saw ...`, `asked at RULE: [options]`, `chose OPTION`
        (the notes added since the last time this seat's text was asked, made text and added)."""
        notes = self.notes[seat]
        told, text = self.texts[seat]
        if told < len(notes):
            lines = [line for line in (_note_text(note, seat, sight, engine) for note in notes[told:])
                     if line is not None]
            if lines:
                text = "\n".join([text, *lines] if told and text else lines)
            self.texts[seat] = (len(notes), text)
        return text


def _note_text(note: tuple, seat: int, sight: Sight, engine: Game) -> str | None:
    """A note as the seat reads it; None for a change it cannot see at all."""
    if note[0] == "asked":
        _, rule, options, kind = note
        return f"asked at {rule_in_folder(rule, sight.folder)}: {json.dumps([engine.label(o, kind) for o in options])}"
    if note[0] == "chose":
        return f"chose {engine.label(note[1], note[2])}"
    _, changes, public = note
    sees = sight.sees[seat]
    parts = [(i, content if sees[i] else size) for i, content, size in changes if sees[i] or size is not None]
    if not parts and not public:
        return None
    names = sight.component_names
    texts = [f"zones.{sight.zone_labels[i]}={json.dumps(sight.shown(i, [names[c] for c in seen]))}"
             if isinstance(seen, tuple)
             else f'zones.{sight.zone_labels[i]}={{"count": {seen}}}' for i, seen in parts]
    for what, i, value, *zone in public:
        if what == "counter":
            if not zone or sees[zone[0]]:  # a component's counter: seen where the component is
                texts.append(f"counters.{sight.counter_labels[i]}={value}")
        elif what == "grid":
            texts.append(f"grids.{sight.zone_labels[i]}={value}")
        else:
            texts.append(f"variables.{sight.variable_names[i]}={json.dumps(_plain(value), sort_keys=True)}")
    return "saw " + "; ".join(texts)


def _copied(value: Any) -> Any:
    """A variable's value as it is now (lists change in place)."""
    return [_copied(v) for v in value] if isinstance(value, list) else value


def _plain(value: Any) -> Any:
    """A variable's value as Game.view shows it: none, a number, a text, or a list of those."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, (int, str, bool, float)) else str(value)
