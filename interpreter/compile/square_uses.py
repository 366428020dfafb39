"""What each component's squares are for, once the rules are read: a board's cells or a tile's
squares, and each use's bound (language/square_bounds.py says the bounds and their messages).

A component named by `grid of NAME` is a board: its squares may be as many as a board's cells
(the reading of its YAML file already refused more). Any other component with squares is a tile,
a piece placed on a grid zone at a spot: past the tile's bound it is refused here, at its
`squares:`. A board may also be placed on a grid as a tile (a copy of it moved to a grid zone,
or asked where it may go): which component a rule places is known only when the game runs, so a
board of more squares than a tile's bound is listed in `Layout.boards_only`, and the placement
refuses it there (`refuse_as_tile`), reported at its `squares:` with the rule that placed it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position, RuntimeRulesError
from snowrules.language.limits import MAX_SQUARES
from snowrules.language.square_bounds import tile_too_large
from snowrules.load.component_lists import SQUARES, ComponentDef
from snowrules.model.layout import Layout


def board_names(zone_decls: Iterable[s.ZoneDecl]) -> set[str]:
    """The components the rules make boards of (`grid of NAME`)."""
    return {decl.board.of.name for decl in zone_decls if decl.board is not None and decl.board.of is not None}


def check_square_uses(components: list[ComponentDef], boards: set[str], layout: Layout, diag: Diagnostics) -> None:
    """Refuse each tile of more than MAX_SQUARES squares at its `squares:`; list in
    `layout.boards_only` the copies of each board that has more, to refuse them as tiles."""
    for index, definition in enumerate(components):
        squares = definition.fields.get(SQUARES)
        if not isinstance(squares, list) or len(squares) <= MAX_SQUARES:
            continue
        where = definition.squares_position or definition.position
        if definition.name not in boards:
            diag.error(where, *tile_too_large(definition.name, len(squares)))
            continue
        for cid, defined in enumerate(layout.component_defs):
            if defined == index:
                layout.boards_only[cid] = (str(where), len(squares))


def refuse_as_tile(layout: Layout, c: int, rule: str) -> NoReturn:
    """A board of more squares than a tile may have, placed as a tile by `rule` (a position's
    text): refused at the board's `squares:`."""
    where, count = layout.boards_only[c]
    raise RuntimeRulesError.at(Position.parse(where), *tile_too_large(layout.component_names[c], count, rule))
