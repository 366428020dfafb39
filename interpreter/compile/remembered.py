"""What a decision's chooser remembers of its answer (`remembered as EXPR`, ir.Remembered), compiled
to a function of the state, the answer and the chooser.

The game never reads it: it answers, logs and shows the decision as without it. An adapter's
information state (adapters/recall.py) keeps this value where it would keep the answer, so a
ruleset can say what its original game lets a player forget (`remembered as sorted(passed)`: the
order in which three cards were picked) or what a move meant. The expression is compiled in a
scope of its own, where only the answer and the chooser are local names: it is worked out when
the answer is given, with the state as the chooser saw it at the decision, and may read anything
global (zones, counters, variables, constants, defines) but no other local of the rules around
the decision, whose values an adapter does not hold.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from snowrules.compile.chance import outcome_kind
from snowrules.compile.expressions import ExpressionCompiler
from snowrules.compile.fuse import PYTHON_ERRORS, rules_error
from snowrules.compile.ir import nodes as ir
from snowrules.compile.ir.effects import Effects
from snowrules.compile.scope import RoutineSlots, Scope
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position
from snowrules.model import kinds as t
from snowrules.model.state import State


@dataclass(frozen=True)
class RememberedValue:
    """A compiled `remembered as EXPR`: `of(st, answer, seat)` is what the chooser `seat`
    remembers of `answer`. `kind` says how a whole number in the value is read ("component",
    "player" or "value", as a decision's options: Game.label)."""

    fn: Callable[[State, list], Any]
    size: int
    answer: int
    chooser: int | None
    kind: str
    position: Position

    def of(self, st: State, answer: Any, seat: int) -> Any:
        env: list[Any] = [None] * self.size
        env[self.answer] = answer
        if self.chooser is not None:
            env[self.chooser] = seat
        try:
            return self.fn(st, env)
        except PYTHON_ERRORS as error:
            raise rules_error(error, self.position, "in what the chooser remembers of the answer") from None


def compile_remembered(exprs: ExpressionCompiler, remembered: ir.Remembered, answer_kind: str,
                       outer: Scope) -> RememberedValue:
    """The declaration compiled, the answer of kind `answer_kind`. A local of the rules around
    the decision (`outer`) read by the expression is reported with what it may read instead."""
    scope = Scope(RoutineSlots())
    answer = scope.define(remembered.answer, answer_kind)
    chooser = None if remembered.chooser is None else scope.define(remembered.chooser, t.PLAYER)
    walked = list(s.walk(remembered.expression))
    # the answer, the chooser and what the expression's own lists name (`[each c in X ...]`)
    visible = {remembered.answer, remembered.chooser} | {n.var for n in walked if isinstance(n, (s.Filter, s.Map))}
    for node in walked:
        if isinstance(node, s.Name) and node.name not in visible and outer.lookup(node.name) is not None:
            exprs.diag.error(node.pos, f"`remembered as` cannot read {node.name!r}, a local name of the rules around "
                             "the decision", f"it may read the answer ({remembered.answer})"
                             + (f", the chooser ({remembered.chooser})" if remembered.chooser else "")
                             + " and anything global: zones, counters, variables, constants, defines", code="SR401")
            return RememberedValue(lambda st, env: None, 1, 0, None, "value", remembered.pos)
    fn, kind = exprs.compile(remembered.expression, scope)
    item = t.element(kind) if t.is_list(kind) or kind == t.ZONE else kind  # a list's numbers read as its items
    return RememberedValue(fn, scope.slots.size, answer, chooser, outcome_kind(item), remembered.pos)


class RememberedStatements:
    """The part of StatementCompiler that compiles each decision's `remembered as` (from its
    lowered form, ir.Ask.remembered) into `remembered`, by the decision's rule (path:line:col, as
    Decision.rule): the table the program keeps for the adapters (Program.remembered)."""

    x: ExpressionCompiler
    analysis: Effects
    remembered: dict[str, RememberedValue]

    def remembered_of(self, node: s.Choose, answer_kind: str, outer: Scope) -> None:
        remembered = self.analysis.lowering.statement(node).remembered
        if remembered is not None:
            self.remembered[str(node.pos)] = compile_remembered(self.x, remembered, answer_kind, outer)
