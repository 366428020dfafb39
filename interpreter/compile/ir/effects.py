"""What each statement may do to the course of a game, derived from its lowered form.

The compiler must know, before it compiles a statement, whether the statement may stop the game
where it is: a statement that may wait for a decision, or that raises an event something reacts
to (its reactions run once it is done), runs as a step, whose generated code can stop with its
frame; any other one becomes plain generated code. Both facts follow from the intermediate form (ir/nodes.py):

- a statement *waits* when it asks (an `Ask`), draws while chance is explicit (a `Chance`), or
  holds, calls or sets off something that waits: a block it holds, a procedure it calls, a
  trigger watching a counter it changes or pays from (a trigger's reactions count as waiting: its
  body runs as a routine), or a payment that offers a choice of how to pay;
- a statement *sets off reactions* when what it raises itself (`Statement.raised`: a named event,
  a change of a counter family, a move) is heard by a reaction of the rules or of a component.

`together` blocks are why the two are apart: their changes' reactions run once the block is done,
so what they raise does not stop the block, but what they ask would.
"""
from __future__ import annotations

from collections.abc import Iterable

from snowrules.compile.ir import nodes as ir
from snowrules.compile.ir.lower import Lowering
from snowrules.language import syntax as s


class Effects:
    """The derived facts of one program's statements, each worked out once (procedures and
    triggers are shared by every statement that calls or sets them off; a recursive call counts
    as not waiting while it is worked out, and the compiler reports the recursion)."""

    def __init__(self, lowering: Lowering, outline: ir.Outline, heard: Iterable[ir.Raised],
                 explicit_chance: bool):
        self.lowering = lowering
        self.heard = frozenset(heard)
        self.explicit_chance = explicit_chance
        self.procedures = {r.name: r for r in outline.of(ir.RoutineKind.PROCEDURE)}
        self.triggers = outline.of(ir.RoutineKind.TRIGGER)
        self._procedure_waits: dict[tuple[str, bool], bool] = {}
        self._trigger_waits: dict[str, bool] = {}

    # ---- asked with the syntax the compiler walks ----------------------------------------------
    def may_pause(self, node: s.Node) -> bool:
        """Whether this statement must be a step: it may wait for a decision or set off reactions."""
        return self.waits(self.lowering.statement(node), heard_too=True)

    def may_wait(self, node: s.Node) -> bool:
        """Whether a statement may wait for a decision, leaving aside the events it raises."""
        return self.waits(self.lowering.statement(node), heard_too=False)

    def sets_off_reactions(self, node: s.Node) -> bool:
        """Whether this one statement raises an event that something reacts to."""
        return self.heard_at(self.lowering.statement(node))

    # ---- on the intermediate form ------------------------------------------------------------
    def heard_at(self, statement: ir.Statement) -> bool:
        return any(raised in self.heard for raised in statement.raised)

    def waits(self, statement: ir.Statement, heard_too: bool) -> bool:
        """`heard_too`: an event it raises that something hears counts as waiting (its reactions
        may wait)."""
        if heard_too and self.heard_at(statement):
            return True
        if isinstance(statement, ir.Ask):
            return True
        if isinstance(statement, ir.Chance):
            return self.explicit_chance
        if isinstance(statement, ir.Call):
            return self.procedure_waits(statement.procedure, heard_too)
        if isinstance(statement, ir.Change):
            return self.trigger_waits(statement.family)
        if isinstance(statement, ir.Pay):
            return statement.offers_choice or any(self.trigger_waits(f) for f in statement.families)
        return any(self.block_waits(block, heard_too) for block in statement.inner)

    def block_waits(self, block: ir.Block, heard_too: bool) -> bool:
        return any(self.waits(x, heard_too) for x in block.statements)

    def procedure_waits(self, name: str, heard_too: bool) -> bool:
        procedure = self.procedures.get(name)
        if procedure is None:
            return False  # an unknown procedure, reported by the compiler
        key = (name, heard_too)
        if key not in self._procedure_waits:
            self._procedure_waits[key] = False  # a recursive call, reported by the compiler
            self._procedure_waits[key] = self.block_waits(procedure.body, heard_too)
        return self._procedure_waits[key]

    def trigger_waits(self, family: str | None) -> bool:
        """Whether a change of this counter family may set off a trigger that waits; a trigger's
        body runs as a routine, so an event it raises that something hears counts."""
        if family is None:
            return False
        if family not in self._trigger_waits:
            self._trigger_waits[family] = False
            self._trigger_waits[family] = any(
                self.block_waits(trigger.body, heard_too=True) for trigger in self.triggers
                if family in trigger.watches)
        return self._trigger_waits[family]
