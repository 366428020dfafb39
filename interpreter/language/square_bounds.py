"""The bounds on a component's squares, and how each refusal reads.

A component's `squares:` are either a board's cells (`grid of NAME` names it) or a tile's squares
(anything else: a piece placed on a grid zone at a spot). The two uses have two bounds:

- a board has at most MAX_BOARD_CELLS cells, the bound of `grid W by H` (its geometry is made
  once and read in constant time; what it costs grows with the rectangle that holds it);
- a tile has at most MAX_SQUARES squares: looking for where a tile may go turns it and tries
  every square at every spot next to the layout, at every decision.

Which use a component has is known only once the rules are read, so the reading of a YAML file
can refuse only what no use allows (more squares than a board's cells, before the list is
checked square by square: a hostile file stays cheap), and compile/square_uses.py the rest. A
component that is a board and is also placed as a tile gets the tile's bound. Every message
names the bound and the use, and is reported at the component's `squares:`.
"""
from __future__ import annotations

from snowrules.language.limits import MAX_BOARD_CELLS, MAX_SQUARES

TILE_CODE = "SR740"   # a tile, or a board placed as a tile, with more than MAX_SQUARES squares
BOARD_CODE = "SR708"  # a board of more than MAX_BOARD_CELLS cells (as `grid W by H`'s)
SQUARES_PAST_ANY_USE = MAX_BOARD_CELLS  # the most squares a component may list, whatever its use


def squares_past_any_use(count: int) -> tuple[str, str, str]:
    """(message, hint, code) for a `squares:` list longer than any use allows, refused as it is read."""
    return (f"this component has {count:,} squares, more than {SQUARES_PAST_ANY_USE:,}",
            f"a board has at most {MAX_BOARD_CELLS:,} cells, a tile at most {MAX_SQUARES} squares", BOARD_CODE)


def tile_too_large(name: str, count: int, placed_at: str = "") -> tuple[str, str, str]:
    """(message, hint, code) for a tile of too many squares: a component with squares that no
    `grid of` names, or (`placed_at`: the rule that places it) a board placed on a grid as a tile."""
    written = name if name.isidentifier() else f'"{name}"'  # as `grid of` names it
    if placed_at:
        hint = (f"it is placed on a grid as a tile at {placed_at}; as the board of `grid of {written}` it may "
                f"have {MAX_BOARD_CELLS:,} cells, as a tile {MAX_SQUARES} squares")
    else:
        hint = (f"no `grid of {written}` names it, so it is a tile, placed on a grid; a board of a shape "
                f"(`zone board shared public grid of {written}`) may have {MAX_BOARD_CELLS:,} cells")
    return f"a tile has at most {MAX_SQUARES} squares; {name} has {count:,}", hint, TILE_CODE


def board_too_large(name: str, width: int, height: int) -> tuple[str, str, str]:
    """(message, hint, code) for a board of a shape whose rectangle passes the cells `grid W by H`
    may have: what a board costs grows with the rectangle that holds it, holes and all."""
    return (f"a board has at most {MAX_BOARD_CELLS:,} cells; the squares of {name} lie in {width} by {height}, "
            f"{width * height:,} cells", "a board of a shape counts the cells of the rectangle that holds it, "
            "holes too: bring its squares closer together", BOARD_CODE)
