"""Which statements may wait for a decision, from the syntax alone, before anything is compiled.

A statement that may wait runs as a step from the VM's frame stack; one that never waits becomes
native code (compile/statements.py). A statement waits when it asks (a choice, a resolve, an offer
of free actions), draws while chance is explicit, raises an event something reacts to (its
reactions run once it is done), or calls, changes or pays into something that may wait in turn: a
procedure whose body waits, a counter watched by a trigger whose body waits.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.compile.chance import CHANCE
from snowrules.compile.costs import counters_of, may_ask
from snowrules.compile.scope import Symbols, family_name
from snowrules.language import syntax as s


class SuspendAnalysis:
    """Which statements may wait for a decision, from the syntax alone."""

    def __init__(self, symbols: Symbols, triggers: list[s.TriggerDecl], watched: Callable,
                 explicit_chance: bool = False):
        self.sym = symbols
        self.explicit_chance = explicit_chance  # draws wait as chance decisions (see chance.py)
        self.triggers = triggers
        self.watched = watched
        self._procedures: dict[str, bool] = {}
        self._families: dict[str, bool] = {}
        # Events (compile/reactions.py): a statement that raises one runs as a step, so that its
        # reactions run once it is done. `_quiet` leaves raising aside (see `waits`).
        self.raising_events: set[str] = set()
        self.raising_counters: set[str] = set()
        self.raising_moves = False
        self._quiet = False
        self._quiet_procedures: dict[str, bool] = {}

    def raises(self, node: s.Node) -> bool:
        """Whether this one statement raises an event something reacts to."""
        if isinstance(node, s.Raise):
            return node.event in self.raising_events
        if isinstance(node, (s.Add, s.SetCounter)):
            return family_name(node.target) in self.raising_counters
        if isinstance(node, s.Pay):  # a payment dispatches its own reactions (compile/costs.py)
            return any(family in self.raising_counters for family in counters_of(node))
        return node.moves_components and self.raising_moves

    def waits(self, node: s.Node) -> bool:
        """Whether a statement may wait for a decision, leaving aside the events it raises (a
        `together` block may raise events: their reactions run once it is done)."""
        quiet, self._quiet = self._quiet, True
        try:
            return self.statement(node)
        finally:
            self._quiet = quiet

    def statement(self, node: s.Node) -> bool:
        if not self._quiet and self.raises(node):
            return True
        if isinstance(node, (s.Choose, s.Resolve, s.OfferFreeActions)):
            return True
        if isinstance(node, CHANCE):
            return self.explicit_chance
        if isinstance(node, s.Block):
            return any(self.statement(x) for x in node.statements)
        if isinstance(node, s.CallStatement):
            return self.procedure(node.name)
        if isinstance(node, (s.Add, s.SetCounter)):
            return self.counter(family_name(node.target))
        if isinstance(node, s.Pay):  # costs: a choice of ways to pay, or a trigger that may wait
            return may_ask(node) or any(self.counter(family) for family in counters_of(node))
        if isinstance(node, s.If):
            return any(self.statement(b) for _, b in node.branches) or (
                node.otherwise is not None and self.statement(node.otherwise))
        if isinstance(node, (s.ForEach, s.While, s.Repeat, s.Phase, s.Together)):
            return self.statement(node.body)
        return False

    def procedure(self, name: str) -> bool:
        decl = self.sym.procedures.get(name)
        if decl is None:
            return False
        known = self._quiet_procedures if self._quiet else self._procedures
        if name not in known:
            known[name] = False  # a recursive call is reported by the compiler
            known[name] = self.statement(decl.body)
        return known[name]

    def counter(self, family: str | None) -> bool:
        if family is None:
            return False
        if family not in self._families:
            self._families[family] = False
            quiet, self._quiet = self._quiet, False  # a trigger that raises is a routine: it waits
            try:
                self._families[family] = any(
                    self.statement(trigger.body) for trigger in self.triggers if family in self.watched(trigger))
            finally:
                self._quiet = quiet
        return self._families[family]
