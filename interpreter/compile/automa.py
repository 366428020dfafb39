"""The automa: a seat the rules play, never an agent (the manifest's `automa:`).

A solo game's automa takes turns from its own deck; the rules say what it does, so no decision
is ever addressed to it. It is the last seat, present when the manifest's `when` holds for the
game being compiled (an expression of constants, options and `player_count`). The players'
built-in names leave it out: `players` and `player_count` are the seats agents play, `seats`
is every seat at the table, `automa` is its seat (none when it does not take part).
"""
from __future__ import annotations

from snowrules.compile.closures import Fn, fail
from snowrules.compile.expressions import ExpressionCompiler
from snowrules.compile.fuse import PYTHON_ERRORS, fused, rules_error
from snowrules.compile.scope import RoutineSlots, Scope, Symbols
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position
from snowrules.load.ruleset import Ruleset
from snowrules.model import kinds as t
from snowrules.model.layout import Layout
from snowrules.model.state import State


def automa_takes_part(ruleset: Ruleset, seats: int, names: list[str], diagnostics: Diagnostics) -> bool:
    """Whether the game of `seats` player seats has the ruleset's automa: its `when`, worked out
    from the constants and options alone (like a manifest constraint), else always."""
    automa = ruleset.automa
    if automa is None:
        return False
    if automa.name in names:
        diagnostics.error(automa.position, f"the automa's name {automa.name!r} is a player's seat name too",
                          "give the automa a name of its own")
    if automa.when is None:
        return True
    symbols = Symbols(Layout(seats, names))
    symbols.constants = dict(ruleset.constants)
    found = Diagnostics()
    scope = Scope(RoutineSlots())
    holds = ExpressionCompiler(symbols, found).expect(automa.when, scope, t.BOOL, "the automa's `when`")
    if found.items:
        diagnostics.extend(found.items)
        return False
    try:
        return bool(holds(State(), [None] * scope.slots.size))
    except PYTHON_ERRORS as error:
        problem = rules_error(error, automa.when.pos, "in the automa's `when`",
                              "it may use only constants, options and player_count")
        diagnostics.extend(problem.diagnostics)
        return False


def played_by_rules(who: Fn, who_node: s.Node, layout: Layout, simultaneous: bool, position: Position,
                    diagnostics: Diagnostics) -> Fn:
    """`who` of an `ask`, refusing the automa: its choices are the rules' to make (`first(...)`,
    a priority order), so asking it is a mistake in the rules, reported at the `ask`."""
    automa = layout.automa
    if automa is None:
        return who
    name = layout.seat_names[automa]
    hint = "the rules decide for the automa: pick with first(...) or a priority order instead of `ask`"
    if isinstance(who_node, s.Name) and who_node.name == "automa":
        diagnostics.error(position, f"a decision cannot be asked of the automa ({name}): no agent plays it", hint)
    message = f"{name} is asked to choose, but no agent plays the automa ({hint})"
    if simultaneous:
        def everyone(seats: list[int]) -> list[int]:
            if automa in seats:
                fail(position, message)
            return seats
        return fused("{v0}({p0})", [who], [everyone])

    def one(seat: int) -> int:
        if seat == automa:
            fail(position, message)
        return seat
    return fused("{v0}({p0})", [who], [one])
