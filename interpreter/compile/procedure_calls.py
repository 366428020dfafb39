"""Procedures too big to expand at every call: compiled once per kinds of their arguments, then called.

A procedure (`procedure gain(p, what): ...`) is normally expanded where it is called, as a define
is (compile/define_calls.py): its body is compiled again at each call, with the call's arguments
in place. A procedure sees only its parameters and the game, so compiling its body once and
calling it gives the same game; expansion only trades compile time for a call at run time. Past
`EXPANSION_LIMIT` syntax nodes (its body's, and those of every procedure it calls, expanded), that
trade is bad: a big euro game's card effects call a handful of procedures some eight hundred
times, and expanding them was two thirds of its compile time. Such a procedure is compiled once
for each combination of its arguments' kinds (and for each way it is run: as a step that may wait,
or as plain code), in an environment of its own whose first slots are its parameters; each call
evaluates the arguments into a new environment and runs the body on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from snowrules.compile import fuse
from snowrules.compile.closures import Fn, const
from snowrules.compile.define_calls import expanded_nodes
from snowrules.compile.scope import RoutineSlots, Scope
from snowrules.language import syntax as s
from snowrules.language.diagnostics import CallRecord
from snowrules.model import kinds as t
from snowrules.model.program import ROUTINE

if TYPE_CHECKING:
    from snowrules.compile.statements import StatementCompiler

EXPANSION_LIMIT = 400  # syntax nodes a procedure may expand to and still be expanded at each call
EXPANDED_CALLS = 8  # call sites a procedure is expanded at before its later ones call it


def expanded_size(procedures: dict[str, s.ProcedureDecl], name: str, sizes: dict[str, int]) -> int:
    """How many syntax nodes a call of `name` expands to: its body's, with every call of another
    procedure counted at that procedure's own expanded size (a cycle counts once: the compiler
    refuses it elsewhere)."""
    return expanded_nodes(procedures, name, sizes, lambda decl: decl.body, s.CallStatement)


@dataclass(frozen=True)
class CompiledProcedure:
    """A procedure's body compiled once: a ROUTINE block (run as a step) or generated code."""

    block: int | None
    native: Fn | None
    env_size: int


class RoutineCall:
    """A call of a procedure compiled once whose body may wait: the arguments evaluated into a new
    environment, the body's block pushed on it (its end drops the environment: a ROUTINE)."""

    def __init__(self, arguments: list[Fn], block: int, env_size: int):
        self.arguments, self.block, self.env_size = arguments, block, env_size

    def environment(self, st, env) -> list:
        local = [argument(st, env) for argument in self.arguments]
        local += [None] * (self.env_size - len(local))
        return local


class ProcedureCalls:
    """The procedures a compiler calls instead of expanding."""

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}
        self.expanded: dict[str, int] = {}  # procedure -> call sites where it was expanded
        self.compiled: dict[tuple, CompiledProcedure] = {}
        self.checks: dict[tuple, CallRecord] = {}  # the record of each compiled body's check

    def called(self, statements: StatementCompiler, name: str) -> bool:
        """Whether this call site calls the procedure's body compiled once (else: expands it)."""
        if expanded_size(statements.sym.procedures, name, self.sizes) > EXPANSION_LIMIT:
            return True
        expanded = self.expanded.get(name, 0)
        if expanded >= EXPANDED_CALLS:
            return True
        self.expanded[name] = expanded + 1
        return False

    def call(self, statements: StatementCompiler, node: s.CallStatement, scope: Scope, stepped: bool):
        """The call `node` (its procedure known, not recursive): a RoutineCall step, or a native
        statement calling the body's generated code on a new environment."""
        decl = statements.sym.procedures[node.name]
        if len(node.args) != len(decl.params):
            statements.diag.error(node.pos, f"procedure {node.name!r} takes {len(decl.params)} argument(s), "
                                  f"given {len(node.args)}")
        arguments = [statements.x.compile(arg, scope) for arg in node.args[:len(decl.params)]]
        arguments += [(const(None), t.ANY)] * (len(decl.params) - len(arguments))
        key = (node.name, tuple(kind for _, kind in arguments), stepped)
        if key not in self.compiled:
            made = len(statements.diag.call_records)
            self.compiled[key] = self._body(statements, node, decl, key[1], stepped)
            self.checks[key] = statements.diag.call_records[made]  # the record of the body's one check
        else:  # the body is not checked again: this call meets what its check met
            statements.diag.reuse_call(node.name, node.pos, self.checks[key])
        body = self.compiled[key]
        values = [fn for fn, _ in arguments]
        if stepped:
            return RoutineCall(values, body.block, body.env_size)
        sources, namespace = [], {}
        for fn in values:
            src, ns = fuse.expression(fn)
            sources.append(src)
            namespace.update(ns)
        called, spare = fuse.fresh("_v"), fuse.fresh("_v")
        namespace[called], namespace[spare] = body.native, (None,) * (body.env_size - len(values))
        return fuse.statement([f"{called}(st, [{''.join(src + ', ' for src in sources)}*{spare}])"], namespace, 1)

    @staticmethod
    def _body(statements: StatementCompiler, node: s.CallStatement, decl: s.ProcedureDecl,
              kinds: tuple[t.Kind, ...], stepped: bool) -> CompiledProcedure:
        slots = RoutineSlots()
        inner = Scope(slots)
        for param, kind in zip(decl.params, kinds):
            inner.define(param, kind)  # slots 0, 1, ...: the call lists the arguments in order
        statements.calling.append(node.name)
        statements.diag.enter_call(node.name, node.pos)
        try:
            if stepped:
                block = statements.new_block(ROUTINE, decl.body.pos)
                statements.fill(block, decl.body, inner)
                return CompiledProcedure(block.id, None, slots.size)
            lines, namespace, nesting = statements.body_code(decl.body, inner)
            return CompiledProcedure(None, fuse.statement(lines, namespace, nesting), slots.size)
        finally:
            statements.calling.pop()
            statements.diag.leave_call()
