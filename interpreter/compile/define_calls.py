"""Defines too big to expand at every call: compiled once per kinds of their arguments, then called.

A define (`define bingos(p) = ...`) is normally expanded where it is called: its body is compiled
again with the call's arguments in place, which lets the generated code read a constant or a local
argument directly and fold what the arguments make known. Expansion multiplies, though: a define
that calls a define five times, called four times from a define that forty rules call, is compiled
eight hundred times. Past `EXPANSION_LIMIT` syntax nodes (its own and those of every define it
expands), a define is compiled once for each combination of its arguments' kinds, in an
environment of its own, and each call evaluates the arguments into a new environment and calls it.
It computes the same value either way (a define reads only its parameters and the game), so this
is a choice of cost: a call costs a Python call and a list at run time, expansion costs compile
time at every call site. The defines of scoring and end-of-game conditions cross the limit; the
small ones read during a turn do not.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from snowrules.compile.closures import Fn, const
from snowrules.compile.fuse import fused
from snowrules.compile.scope import RECURSION_HINT, RoutineSlots, Scope, recursion_message
from snowrules.language import syntax as s
from snowrules.language.diagnostics import CallRecord
from snowrules.model import kinds as t

if TYPE_CHECKING:
    from snowrules.compile.expressions import ExpressionCompiler

EXPANSION_LIMIT = 400  # syntax nodes a define may expand to and still be expanded at each call


def expanded_size(functions: dict[str, s.FunctionDecl], name: str, sizes: dict[str, int]) -> int:
    """How many syntax nodes a call of `name` expands to: its body's, with every call of another
    define counted at that define's own expanded size (a define calling itself counts once: it is
    refused elsewhere)."""
    return expanded_nodes(functions, name, sizes, lambda decl: decl.expr, s.Call)


def expanded_nodes(declarations: dict, name: str, sizes: dict[str, int], body_of, call_kind: type) -> int:
    """The syntax nodes of `body_of(declarations[name])`, each node of `call_kind` that calls
    another of `declarations` counted with that one's own (a cycle counts once); the sizes found
    are kept in `sizes`. Defines and procedures are measured alike (procedure_calls.py)."""
    if name in sizes:
        return sizes[name]
    sizes[name] = 1  # while it is being counted: a cycle adds nothing
    total = 0
    for node in s.walk(body_of(declarations[name])):
        total += 1
        if isinstance(node, call_kind) and node.name in declarations:
            total += expanded_nodes(declarations, node.name, sizes, body_of, call_kind)
    sizes[name] = total
    return total


class DefineCalls:
    """The defines a compiler calls instead of expanding: each compiled once per argument kinds."""

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}
        self.compiled: dict[tuple, tuple[Fn, t.Kind, int]] = {}
        self.checks: dict[tuple, CallRecord] = {}  # the record of each compiled body's check

    def called(self, compiler: ExpressionCompiler, name: str) -> bool:
        return expanded_size(compiler.sym.functions, name, self.sizes) > EXPANSION_LIMIT

    def call(self, compiler: ExpressionCompiler, node: s.Call, scope: Scope) -> tuple[Fn, t.Kind]:
        """The call `node` of a define too big to expand: its arguments evaluated in the caller's
        scope into a new environment (parameters first, in order), its body called on it."""
        decl = compiler.sym.functions[node.name]
        if len(node.args) != len(decl.params):
            compiler.diag.error(node.pos, f"function {node.name!r} takes {len(decl.params)} argument(s), "
                                f"given {len(node.args)}")
        arguments = [compiler.compile(arg, scope) for arg in node.args[:len(decl.params)]]
        arguments += [(const(None), t.ANY)] * (len(decl.params) - len(arguments))
        kinds = tuple(kind for _, kind in arguments)
        key = (node.name, kinds)
        if key not in self.compiled:
            made = len(compiler.diag.call_records)
            self.compiled[key] = self._body(compiler, node, decl, kinds)
            if made < len(compiler.diag.call_records):  # none when the call was refused as recursive
                self.checks[key] = compiler.diag.call_records[made]
        elif key in self.checks:  # the body is not checked again: this call meets what its check met
            compiler.diag.reuse_call(node.name, node.pos, self.checks[key])
        body, kind, size = self.compiled[key]
        parts = [fn for fn, _ in arguments]
        items = [f"{{p{i}}}" for i in range(len(parts))]
        spare = size - len(parts)
        if spare:
            items.append("*{v1}")
        return fused("{v0}(st, [" + ", ".join(items) + "])", parts, [body, (None,) * spare]), kind

    @staticmethod
    def _body(compiler: ExpressionCompiler, node: s.Call, decl: s.FunctionDecl,
              kinds: tuple[t.Kind, ...]) -> tuple[Fn, t.Kind, int]:
        if node.name in compiler.inlining:
            compiler.diag.error(node.pos, recursion_message("function", node.name, compiler.inlining),
                                RECURSION_HINT)
            return const(None), t.ANY, 0
        slots = RoutineSlots()
        inner = Scope(slots)
        for param, kind in zip(decl.params, kinds):
            inner.define(param, kind)  # slots 0, 1, ...: the call lists the arguments in order
        compiler.inlining.append(node.name)
        compiler.diag.enter_call(node.name, node.pos)
        expanded_before = len(compiler.inlined_calls)
        try:
            body, kind = compiler.compile(decl.expr, inner)
        finally:
            compiler.inlining.pop()
            compiler.diag.leave_call()
            # the defines expanded inside read the body's own environment: no comprehension around
            # the call may take them for its own (fuse.comprehension's `calls`)
            del compiler.inlined_calls[expanded_before:]
        return body, kind, slots.size
