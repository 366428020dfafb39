"""Names while compiling: what the whole ruleset declares, and each routine's local slots."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position
from snowrules.language.hints import suggest
from snowrules.model import kinds as t
from snowrules.model.layout import Layout

# Names every ruleset can read without declaring them, and the names a card's effect is given.
BUILTIN_VALUES = ("players", "components", "box", "turn", "player_count", "seats", "automa")
BOUND_NAMES = ("me", "this")


def family_name(node: s.Node) -> str | None:
    """The declared zone or counter an expression names: `p.scored[k]`, `scored[k]` and
    `p.scored` all name `scored`; None when it names none."""
    while isinstance(node, s.Index):
        node = node.obj
    if isinstance(node, s.Attribute):
        return node.name
    return node.name if isinstance(node, s.Name) else None


@dataclass
class Variable:
    index: int
    kind: str
    position: Position


@dataclass
class Symbols:
    """Everything declared at the top level of the rules and in the component files."""

    layout: Layout
    constants: dict[str, tuple[Any, Position]] = field(default_factory=dict)
    tables: dict[str, tuple[list[dict], Position]] = field(default_factory=dict)
    variables: dict[str, Variable] = field(default_factory=dict)
    functions: dict[str, s.FunctionDecl] = field(default_factory=dict)
    procedures: dict[str, s.ProcedureDecl] = field(default_factory=dict)
    field_kinds: dict[str, str] = field(default_factory=dict)
    record_fields: set[str] = field(default_factory=set)
    # a table row's field -> its kind, when every row and record literal agree (field_kinds.py)
    record_field_kinds: dict[str, t.Kind] = field(default_factory=dict)
    # (component definition, field) -> (closure, its slots, `me` slot, `this` slot): the
    # expressions written in component files, filled once the rules are compiled
    expressions: dict[tuple[int, str], tuple] = field(default_factory=dict)
    expression_fields: set[str] = field(default_factory=set)
    # true once every field expression is compiled (before the rules): evaluate() then reads
    # them while compiling, rather than looking them up during play
    expressions_ready: bool = False
    # field -> {definition: the field's expression as a function (st, me, this)}, for evaluate()
    field_functions: dict[str, dict[int, Any]] = field(default_factory=dict)
    kinds: LearnedKinds = field(default_factory=lambda: LearnedKinds())
    # the manifest's `result:` expressions (load/result_section.py), compiled once the rules are
    # (compile/result_exprs.py): key -> (closure, env size, slot of `p`, position); tie_broken()
    # reads the declared tie-breakers there as the game runs
    result_expressions: dict[tuple, tuple] = field(default_factory=dict)
    tie_breaks: list = field(default_factory=list)  # their keys (TieBreak), in the declared order

    def all_names(self) -> list[str]:
        return (list(self.constants) + list(self.tables) + list(self.variables) + list(self.functions)
                + list(self.procedures) + list(self.layout.zone_families) + list(self.layout.counter_families))


def refined(kind: t.Kind, later: t.Kind) -> t.Kind:
    """The kind of a name declared as `kind` (none, or a list of unknown items: `[]`) once it is
    given a value of kind `later`; a name whose kind is already known keeps it."""
    if kind == t.NONE or t.vague(kind):
        return later if t.vague(kind) else t.unify(kind, later)
    return kind


@dataclass
class LearnedKinds:
    """The kinds that names set to `none` (or `[]`) take from their later assignments.

    Compiling reads a ruleset from top to bottom, so a use written above the first assignment
    (a procedure defined before the one that assigns, a loop body that tests `x != none` before
    `x = c`) would see the kind `none`. Whenever a pass finds problems and learns kinds, the
    compiler runs again with what it learnt as `hints`, so that every use sees the kind of all
    the assignments. Keys: ("variable", name) or ("local", position of its `let`, name)."""

    hints: dict[tuple, str] = field(default_factory=dict)
    found: dict[tuple, str] = field(default_factory=dict)

    def start(self, key: tuple, kind: str) -> str:
        """The kind a name starts with: as declared, refined by an earlier pass's hint."""
        hint = self.hints.get(key)
        return kind if hint is None else refined(kind, hint)

    def learn(self, key: tuple, kind: str) -> None:
        self.found[key] = kind

    def news(self) -> bool:
        """Whether this pass learnt a kind that the hints did not already give."""
        return any(self.hints.get(key) != kind for key, kind in self.found.items())


class RoutineSlots:
    """Counts the local slots of one routine (its environment's size)."""

    def __init__(self) -> None:
        self.size = 0

    def new(self) -> int:
        self.size += 1
        return self.size - 1


class Scope:
    """Local names visible at one point of a routine, each bound to a slot and a kind."""

    def __init__(self, slots: RoutineSlots, parent: Scope | None = None):
        self.slots = slots
        self.parent = parent
        self.names: dict[str, tuple[int, str]] = {}
        self.aliases: dict[str, tuple[object, str]] = {}  # a parameter that reads its argument
        self.origins: dict[str, tuple] = {}  # a `let` name -> its LearnedKinds key
        self.known: dict[str, frozenset] = {}  # a loop name -> every value it can hold (a constant list's)
        self.present: set[str] = set()  # loop names over a zone's components: never none

    def child(self) -> Scope:
        return Scope(self.slots, self)

    def _owner(self, name: str) -> Scope | None:
        """The innermost scope that defines the local `name` (the one visible here), or None."""
        scope: Scope | None = self
        while scope is not None and name not in scope.names:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> tuple[int, str] | None:
        owner = self._owner(name)
        return None if owner is None else owner.names[name]

    def alias(self, name: str) -> tuple[object, str] | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return None
            if name in scope.aliases:
                return scope.aliases[name]
            scope = scope.parent
        return None

    def define(self, name: str, kind: str) -> int:
        slot = self.slots.new()
        self.names[name] = (slot, kind)
        return slot

    def origin(self, name: str) -> tuple | None:
        """The LearnedKinds key of the `let` that defined the visible `name`, if a `let` did."""
        owner = self._owner(name)
        return None if owner is None else owner.origins.get(name)

    def known_values(self, name: str) -> frozenset | None:
        """Every value the visible local `name` can hold, when snowrules knows them: a loop
        variable over a constant list that its body never assigns. Checks of its range can go."""
        owner = self._owner(name)
        return None if owner is None else owner.known.get(name)

    def never_none(self, name: str) -> bool:
        """Whether the visible local `name` always holds a component: a loop variable over a
        zone that its body never assigns. A move of it needs no check for none."""
        owner = self._owner(name)
        return owner is not None and name in owner.present

    def retype(self, name: str, kind: str) -> None:
        owner = self._owner(name)
        if owner is not None:
            owner.names[name] = (owner.names[name][0], kind)

    def visible(self) -> list[str]:
        names: list[str] = []
        scope: Scope | None = self
        while scope is not None:
            names.extend(scope.names)
            names.extend(scope.aliases)
            scope = scope.parent
        return names


__all__ = ["Diagnostics", "LearnedKinds", "RoutineSlots", "Scope", "Symbols", "Variable", "refined", "suggest"]


# Procedures and functions are expanded where they are called (their bodies checked with the
# arguments' kinds), so a call to itself, directly or through others, would expand forever: it
# is refused when the rules are checked, naming the chain of calls.
RECURSION_HINT = ("procedures and functions are expanded where they are called, so they cannot call "
                  "themselves: repeat with `while`, `repeat N times` or `for each` instead")


def recursion_message(what: str, name: str, calling: list[str]) -> str:
    """`procedure 'a' calls itself through 'b' (a -> b -> a); recursion is not allowed`."""
    chain = calling[calling.index(name):] + [name]
    if len(chain) == 2:
        return f"{what} {name!r} calls itself; recursion is not allowed"
    through = ", ".join(repr(n) for n in chain[1:-1])
    return f"{what} {name!r} calls itself through {through} ({' -> '.join(chain)}); recursion is not allowed"
