"""Static checks of a manifest's `action_ids`, for one game (its options and player count).

OpenSpiel's adapter needs every id to be a whole number in `0..distinct - 1` (chance:
`0..chance_outcomes - 1`) that depends on the option alone, and the options of one decision to
have different ids. Without these checks a mistake shows only in play, deep inside a game; here
`validate` reports it at the manifest's line, in the rules' words. What can be known without
playing is checked: the counts; every component's and every seat's id; the ids of the options
of decisions and draws whose options the rules fix (`["roll", "stop"]`, `1..6`, a die's faces,
or a fixed list filtered by a condition, whose options are some of the list). Components offered
by a decision depend on the game, so two of them with one id are still reported in play, at
the decision.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from snowrules.compile.chance import outcome_kind
from snowrules.compile.expressions import ExpressionCompiler
from snowrules.compile.free_actions import DONE_INDEX, FREE_KEY, ITEM_KEY
from snowrules.compile.scope import RoutineSlots, Scope, Symbols
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position
from snowrules.model import kinds as t
from snowrules.model.layout import Layout
from snowrules.model.state import State

COUNTS = ("distinct", "chance_outcomes", "max_game_length")
STATE_HINT = "an action id or count may use only `it`, constants, options and player_count, never the game's state"


@dataclass(frozen=True)
class FixedOptions:
    """The options a decision ("choice") or a draw ("chance") may offer, when the rules fix them."""

    group: str
    kind: str           # how the options are told apart: "component", "player" or "value"
    values: tuple
    position: Position  # the decision or draw in the rules


class ActionIdCheck:
    """Works the manifest's ids out on an empty state and reports what cannot work."""

    def __init__(self, interface: dict[tuple, tuple], layout: Layout, symbols: Symbols, diag: Diagnostics):
        self.interface = interface
        self.layout = layout
        self.symbols = symbols
        self.diag = diag
        self.failed: set[tuple] = set()  # one message per manifest expression

    def run(self, nodes: list[s.Node]) -> None:
        components = len(self.layout.component_names)
        limits = {"choice": self._count("distinct", components + 1),
                  "chance": self._count("chance_outcomes", components + 1)}
        self._count("max_game_length", 0)
        if None in limits.values():
            return
        self._done(limits["choice"])
        fixed = list(self._fixed_options(nodes))
        for key, (_, _, _, position) in self.interface.items():
            if key[0] not in limits:
                continue
            group, kind = key
            if kind == "component":
                candidates = self._offerable(key, range(components))
            elif kind == "player":
                candidates = range(self.layout.seats)
            else:
                candidates = sorted({v for f in fixed if (f.group, f.kind) == (group, kind) for v in f.values},
                                    key=repr)
            # Components may stay in the box in a game of these options (a smaller deck): their
            # ids must be worked out, but may fall outside the range; the others must be in it.
            limit = None if kind == "component" else limits[group]
            ids = {value: self._id(group, kind, value, limit) for value in candidates}
            if kind == "player":  # a decision among players may offer every seat
                self._distinct(group, kind, list(ids.items()), position, "two seats")
        for options in fixed:
            key = (options.group, options.kind)
            if key in self.interface:
                pairs = [(v, self._id(*key, v, limits[options.group])) for v in options.values]
                self._distinct(*key, pairs, self.interface[key][3], f"two options of the {self._what(options)}")
            elif len(options.values) > limits[options.group]:
                what = "distinct" if options.group == "choice" else "chance_outcomes"
                self.diag.error(options.position, f"{len(options.values)} options here, more than the "
                                f"{limits[options.group]} ids the game has",
                                f"declare `action_ids: {{{what}: ...}}` in the ruleset's manifest")

    # ---- counts and ids -------------------------------------------------------------------
    def _offerable(self, key: tuple, candidates: range) -> list[int]:
        """The components whose id can be worked out, when some can: an id is needed only for
        what a decision offers, and a component without the fields the ids read (a first player
        token among cards) is not offered where they are; if one is, the game says so at its
        decision (adapters/openspiel.py). When none can, all are kept, so the expression's
        mistake is reported here."""
        fn, size, slot, _ = self.interface[key]
        works = []
        for value in candidates:
            env = [None] * size
            if slot is not None:
                env[slot] = value
            try:
                fn(State(), env)
            except Exception:  # noqa: BLE001 - any failure: this component has no id
                continue
            works.append(value)
        return works or list(candidates)

    def _evaluate(self, key: tuple, bound: Any = None) -> tuple[bool, Any]:
        fn, size, slot, position = self.interface[key]
        env = [None] * size
        if slot is not None:
            env[slot] = bound
        try:
            return True, fn(State(), env)
        except ZeroDivisionError:
            self._fail(key, position, "a division by zero")
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            self._fail(key, position, "this expression cannot be worked out without the game's state", STATE_HINT)
        return False, None

    def _count(self, name: str, default: int) -> int | None:
        key = (name,)
        if key not in self.interface:
            return default
        ok, value = self._evaluate(key)
        if not ok:
            return None
        if type(value) is not int or value < 0:
            self._fail(key, self.interface[key][3], f"a count must be a whole number, not {value!r}")
            return None
        return value

    def _done(self, limit: int) -> None:
        """`done:`, the id with which a seat stops picking an `up to N` decision's items early
        (adapters/picks.py): a whole number below `distinct`, like any choice's id."""
        key = ("done",)
        if key not in self.interface:
            return
        ok, done = self._evaluate(key)
        if ok and (type(done) is not int or not 0 <= done < limit):
            self._fail(key, self.interface[key][3], f"the id of done is {done!r}, not one of 0..{limit - 1}",
                       "ids must be below `distinct`")

    def _id(self, group: str, kind: str, value: Any, limit: int | None) -> int | None:
        key = (group, kind)
        if key in self.failed:
            return None
        ok, found = self._evaluate(key, value)
        if ok and type(found) is not int:
            self._fail(key, self.interface[key][3], f"the id of {self._label(kind, value)!r} is {found!r}, "
                       "not a whole number")
            return None
        if ok and limit is not None and not 0 <= found < limit:
            what = "distinct" if group == "choice" else "chance_outcomes"
            self._fail(key, self.interface[key][3],
                       f"the id of {self._label(kind, value)!r} is {found!r}, not one of 0..{limit - 1}",
                       f"ids must be below `{what}`")
            return None
        return found if ok else None

    def _distinct(self, group: str, kind: str, pairs: list[tuple[Any, int | None]], position: Position,
                  what: str) -> None:
        seen: dict[int, Any] = {}
        for value, found in pairs:
            if found is None:
                continue
            if found in seen and (group, kind) not in self.failed:
                self._fail((group, kind), position, f"{what} have the id {found}: "
                           f"{self._label(kind, seen[found])!r} and {self._label(kind, value)!r}",
                           "the options of one decision must have different ids")
                return
            seen[found] = value

    def _fail(self, key: tuple, position: Position, message: str, hint: str = "") -> None:
        if key not in self.failed:
            self.failed.add(key)
            self.diag.error(position, message, hint)

    def _label(self, kind: str, value: Any) -> str:
        if kind == "component" and type(value) is int and 0 <= value < len(self.layout.component_names):
            return self.layout.component_names[value]
        if kind == "player" and type(value) is int and 0 <= value < len(self.layout.seat_names):
            return self.layout.seat_names[value]
        return str(value)

    @staticmethod
    def _what(options: FixedOptions) -> str:
        return f"{'decision' if options.group == 'choice' else 'draw'} at {options.position}"

    # ---- options the rules fix ----------------------------------------------------------------
    def _fixed_options(self, nodes: list[s.Node]) -> Iterator[FixedOptions]:
        for node in nodes:
            if isinstance(node, s.Choose) and node.count_mode is None and not node.optional:
                source = node.source.source if isinstance(node.source, s.Filter) else node.source
                found = self._fixed_list(source)
                if found is not None:
                    yield FixedOptions("choice", found[0], found[1], node.pos)
            elif isinstance(node, s.RandomPick):
                found = self._fixed_list(node.source)
                if found is not None:
                    yield FixedOptions("chance", found[0], found[1], node.pos)
            elif isinstance(node, s.Roll):
                found = self._fixed_list(s.Range(node.sides.pos, s.Literal(node.sides.pos, 1), node.sides, False))
                if found is not None:
                    yield FixedOptions("chance", "value", found[1], node.pos)

    def _fixed_list(self, node: s.Node) -> tuple[str, tuple] | None:
        """The list's kind of option and its values, when it is made of constants and options
        only (worked out with a scratch checker: a list that uses names of the rules' routines
        is simply not fixed)."""
        scratch = ExpressionCompiler(self.symbols, Diagnostics())
        fn, kind = scratch.compile(node, Scope(RoutineSlots()))
        if scratch.diag.items or not t.is_list(kind):
            return None
        try:
            values = fn(State(), [])
        except Exception:  # noqa: BLE001 - any failure means the list depends on the game
            return None
        if not isinstance(values, list) or not all(type(v) in (int, str, bool) for v in values):
            return None
        return outcome_kind(t.element(kind)), tuple(values)


def check_action_ids(interface: dict[tuple, tuple], layout: Layout, symbols: Symbols, diag: Diagnostics,
                     nodes: list[s.Node]) -> None:
    """Report at the manifest's lines the action ids and counts of this game that cannot work."""
    ActionIdCheck(interface, layout, symbols, diag).run(nodes)


# ---- free actions (compile/free_actions.py) ------------------------------------------------------
@dataclass(frozen=True)
class FreeActionIds:
    """OpenSpiel ids for the options that are free actions, after the game's own `base` ids: each
    free action has a range of its own (one id without items; one per component, per seat, or
    per value id for items), and "done" of `offer free actions` the last id. An option's id
    depends on the free action and its item only, so it means the same move at every node."""

    base: int
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    kinds: tuple[str | None, ...]

    @property
    def done(self) -> int:
        return self.base + sum(self.sizes)

    @property
    def count(self) -> int:
        """The ids free actions add to the game's, "done" included."""
        return sum(self.sizes) + 1

    def of(self, option: dict, position: int, value_id: Any = None) -> int | None:
        """The id of a free-action option; `position` is its item's place among the options of
        the same free action at this node, used for values without a declared id. None when
        the item falls outside its free action's range."""
        index = option[FREE_KEY]
        if index == DONE_INDEX:
            return self.done
        offset, size, kind = self.offsets[index], self.sizes[index], self.kinds[index]
        if ITEM_KEY not in option:
            return offset
        item = option[ITEM_KEY]
        if kind in ("component", "player"):
            place = item
        else:
            place = value_id(item) if value_id is not None else position
        return offset + place if type(place) is int and 0 <= place < size else None


def free_action_ids(actions: list, layout: Layout, base: int) -> FreeActionIds:
    """The id ranges of a program's free actions, after the `base` ids of its other options."""
    offsets, sizes, kinds = [], [], []
    offset = base
    for action in actions:
        kind = action.item_kind if action.items is not None else None
        size = 1 if kind is None else len(layout.component_names) if kind == "component" else \
            layout.seats if kind == "player" else base
        offsets.append(offset)
        sizes.append(size)
        kinds.append(kind)
        offset += size
    return FreeActionIds(base, tuple(offsets), tuple(sizes), tuple(kinds))
