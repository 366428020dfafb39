"""The intermediate form as text, for `snowrules explain RULESET --ir`.

One line a statement, indented as the rules nest it: what the statement is in the intermediate
form, where it is written, and what the compiler derived from it (whether it may wait for a
decision, whether it sets off reactions). Names written by the ruleset are shown with their
unprintable characters replaced, so that a listing is always one line a statement.
"""
from __future__ import annotations

from snowrules.compile.fuse import printable
from snowrules.compile.ir import nodes as ir
from snowrules.compile.ir.effects import Effects

INDENT = "  "


def listing(outline: ir.Outline, effects: Effects) -> str:
    lines = []
    for routine in outline.routines:
        title = routine.kind.value if routine.name == routine.kind.value else f"{routine.kind.value} {routine.name}"
        if routine.watches:
            title += " (watches " + ", ".join(sorted(routine.watches)) + ")"
        tail = "  [may wait]" if effects.block_waits(routine.body, heard_too=False) else ""
        lines.append(f"{printable(title)}  @ {printable(str(routine.pos))}{tail}")
        _block(routine.body, 1, effects, lines)
        lines.append("")
    return "\n".join(lines)


def _block(block: ir.Block, depth: int, effects: Effects, lines: list[str]) -> None:
    for statement in block.statements:
        facts = []
        if effects.waits(statement, heard_too=False):
            facts.append("may wait")
        if effects.heard_at(statement):
            facts.append("sets off reactions: " + ", ".join(str(r) for r in statement.raised if r in effects.heard))
        tail = f"  [{'; '.join(facts)}]" if facts else ""
        lines.append(f"{INDENT * depth}{printable(describe(statement))}  @ {printable(str(statement.pos))}{tail}")
        inner = statement.inner
        for number, body in enumerate(inner):
            label = _inner_label(statement, number, len(inner))
            if label is None:
                _block(body, depth + 1, effects, lines)
            else:
                lines.append(f"{INDENT * (depth + 1)}{label}:")
                _block(body, depth + 2, effects, lines)


def _inner_label(statement: ir.Statement, number: int, count: int) -> str | None:
    if isinstance(statement, ir.Branch) and count > 1:
        if statement.otherwise is not None and number == count - 1:
            return "otherwise"
        return "then" if number == 0 else "else if"
    if isinstance(statement, ir.Ask) and statement.otherwise is not None:
        return "then" if statement.then is not None and number == 0 else "if declined"
    return None


def describe(statement: ir.Statement) -> str:
    """What a statement is, in words."""
    if isinstance(statement, ir.Ask):
        said = f": \"{statement.prompt}\"" if statement.prompt else ""
        kept = ", the chooser remembering a value of the answer" if statement.remembered else ""
        return f"ask for {statement.decision.value}{said}{kept}"
    if isinstance(statement, ir.Chance):
        return f"chance: {statement.draw.value}"
    if isinstance(statement, ir.Raise):
        return f"raise {statement.event}"
    if isinstance(statement, ir.Move):
        return "move components"
    if isinstance(statement, ir.Change):
        return f"change {statement.family}" if statement.family else "change a counter"
    if isinstance(statement, ir.Pay):
        how = ", the payer choosing how" if statement.offers_choice else ""
        return f"pay from {', '.join(statement.families)}{how}"
    if isinstance(statement, ir.Call):
        return f"call {statement.procedure}"
    if isinstance(statement, ir.Branch):
        return "if"
    if isinstance(statement, ir.Loop):
        return statement.repetition.value
    if isinstance(statement, ir.Phase):
        return f"phase {statement.name}"
    if isinstance(statement, ir.Together):
        return "together"
    if isinstance(statement, ir.Act):
        return statement.what
    raise TypeError(f"no description of {type(statement).__name__}")  # pragma: no cover
