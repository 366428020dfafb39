"""Which piece a decision among spots places, and on which grid zone, compiled where the
decision stands, so that a person can see each spot before choosing it (play/spot_preview.py).

A spot record says where a piece would lie (its anchor, rotation and cells), not which piece:
the rules know it. The decision says it in one of two ways, looked for in this order:

- its body puts a piece at the answer: `ask p to choose spot from S: move P to Z at spot`;
- its options are the spots of a piece: `placements(Z, P, n)`, also inside a list made of them
  (`[each s in placements(Z, P, 2) where ...]`).

P and Z are compiled in the decision's own scope, before its answer is named, as a prompt's
values are (compile/prompt_values.py): they read the piece as the rules hold it while the
question is asked. An expression that cannot be read there (a name the body defines) gives no
piece, and nothing is reported: the spots are still shown, only without their preview. The
compiled piece rides on the decision's step (`PLACED_PIECE`); nothing runs it while a game
plays, so a game runs exactly as it does without it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from snowrules.compile.closures import Fn
from snowrules.compile.scope import Scope
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics
from snowrules.model import kinds as t

if TYPE_CHECKING:
    from snowrules.compile.expressions import ExpressionCompiler

PLACED_PIECE = "placed_piece"  # the attribute of a decision's step that holds its PlacedPiece
SPOTS_OF = "placements"        # the standard library's function that lists a piece's spots


@dataclass(frozen=True)
class PlacedPiece:
    """The piece a decision among spots places and the grid zone it goes to, each a closure of
    the state and the decision's environment (the component; the zone instance's index)."""

    piece: Fn
    zone: Fn


def placed_piece(x: ExpressionCompiler, node: s.Choose, scope: Scope) -> PlacedPiece | None:
    """The piece decision `node` places, compiled in `scope` (the decision's scope before its
    answer is named); None when the decision says none that can be read there."""
    found = _moved_at_answer(node) or _spots_of(node.source)
    if found is None:
        return None
    piece, zone = found
    if any(isinstance(n, s.Name) and n.name == node.var and scope.lookup(n.name) is None
           for e in (piece, zone) for n in s.walk(e)):
        return None
    kept, x.diag = x.diag, Diagnostics()  # an unreadable piece is no mistake of the rules: no preview
    try:
        piece_fn = x.expect(piece, scope, t.COMPONENT, "the piece placed")
        zone_fn = x.zone(zone, scope, "the grid zone")
        failed = bool(x.diag.items)
    finally:
        x.diag = kept
    return None if failed else PlacedPiece(piece_fn, zone_fn)


def _moved_at_answer(node: s.Choose) -> tuple[s.Node, s.Node] | None:
    """(the piece, the zone) of the first `move P to Z at ANSWER` in the decision's body."""
    if node.body is None:
        return None
    for n in s.walk(node.body):
        if isinstance(n, s.MovePlaced) and isinstance(n.spot, s.Name) and n.spot.name == node.var:
            return n.what, n.target
    return None


def _spots_of(source: s.Node) -> tuple[s.Node, s.Node] | None:
    """(the piece, the zone) of the first `placements(Z, P, ...)` the options are made from."""
    for n in s.walk(source):
        if isinstance(n, s.Call) and n.name == SPOTS_OF and len(n.args) >= 2:
            return n.args[1], n.args[0]
    return None


def with_placed_piece(step, placed: PlacedPiece | None):
    """The decision's `step` keeping the piece it places, when it has one (read by
    play/spot_preview.py)."""
    if placed is not None:
        setattr(step, PLACED_PIECE, placed)
    return step
