"""The manifest's `result:` expressions compiled (load/result_section.py): a player's title and
the tie-breakers, each with `p` bound to a player, as the manifest's `returns: value:` is.

They are read once the game is over, from the state it ends in (play/results.py); the
tie-breakers also by `tie_broken(players)` as the game runs (compile/stdlib_result.py), when the
rules take their winners from the declared order.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from snowrules.load.result_section import TITLE
from snowrules.model import kinds as t

if TYPE_CHECKING:
    from snowrules.language import syntax as s

TITLE_KINDS = (t.STR, t.NONE, t.ANY)     # a text, or none: no title for this player
TIE_KINDS = (t.INT, t.FRACTION, t.ANY)   # a number the players are compared by


def compile_result_expression(compiler: Any, key: tuple, node: s.Node) -> tuple[Any, int, int, Any]:
    """One `result:` expression as the manifest's compiled expressions are kept: its function,
    its environment's size, the slot of `p`, and its place (for a failure while it is read).
    `compiler` is the ruleset's compiler (compile/compiler.py)."""
    scope, slots = compiler._routine_scope({"p": t.PLAYER})
    fn, kind = compiler.exprs.compile(node, scope)
    if key == TITLE and kind not in TITLE_KINDS:
        compiler.diag.error(node.pos, f"a player's title must be a text (or none), not {t.describe(kind)}",
                            "a title reads the player's result: `rank_of(p.score)`, `\"Chief\" if p.score > 50 "
                            "else none`", code="SR750")
    elif key != TITLE and kind not in TIE_KINDS:
        compiler.diag.error(node.pos, f"a tie-breaker must be a number, not {t.describe(kind)}",
                            "a tie-breaker counts something of the player: `size(p.hand)`, `p.coins`",
                            code="SR750")
    return fn, scope.slots.size, slots["p"], node.pos
