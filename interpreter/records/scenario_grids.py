"""A scenario's grid zones: a layout laid out in the situation, and a layout expected at the end.

Under a grid zone's name, a scenario lists placements in order, each
`{component: "tile 03", at: [1, 0], turned: 90}` (`turned` 0 when absent); a later one may lie
on earlier ones only when it says `on_top: true`, so that a typo in a cell is reported rather
than silently stacking a tile. The same list under `expect: zones:` is compared with where each
component lies (anchor and rotation), in any order.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snowrules.language.diagnostics import ScenarioError
from snowrules.language.square_bounds import tile_too_large
from snowrules.model.grid import ROTATIONS, Cell, Grid, Placement, place, placement_of
from snowrules.model.grid_board import Board
from snowrules.model.grid_spots import describe_placement
from snowrules.model.layout import Layout

Error = Callable[..., ScenarioError]  # _Names.error: (where, message, hint="") -> ScenarioError


def is_grid_listing(content: Any) -> bool:
    """Whether a zone's listing is made of placements (maps) rather than names."""
    return isinstance(content, list) and any(isinstance(entry, dict) for entry in content)


def placement_names(content: list, grid: bool, label: str, where: list, error: Error) -> list[str]:
    """The component names of a listing, each entry checked: a grid zone lists placements, any
    other zone names."""
    names = []
    for number, entry in enumerate(content):
        at = where + [number]
        if not grid:
            if isinstance(entry, dict):
                raise error(at, f"{label} is not a grid zone: list its components by name")
            names.append(entry)
            continue
        if not isinstance(entry, dict):
            raise error(at, f"{label} is a grid zone: each component needs a place",
                        f'write {{component: "{entry}", at: [0, 0], turned: 0}}')
        _placement(entry, at, error)
        names.append(entry["component"])
    return names


def _placement(entry: dict, where: list, error: Error) -> Placement:
    cell = entry.get("at")
    if not (isinstance(cell, list) and len(cell) == 2 and all(type(v) is int for v in cell)):
        raise error(where, f"`at` must be a cell [x, y], not {cell!r}")
    turned = entry.get("turned", 0)
    if type(turned) is not int or turned % 360 not in ROTATIONS:
        raise error(where, f"`turned` must be 0, 90, 180 or 270 (clockwise degrees), not {turned!r}")
    return Placement(Cell(*cell), turned % 360)


def lay_out(layout: Layout, components: list[int], content: list, where: list,
            error: Error, board: Board | None = None) -> list[tuple[int, Placement]]:
    """Each listed component with its place, in order, checked on a scratch grid: a component
    lying on another without `on_top: true`, off a bounded grid zone's `board` (a cell that is
    not one of its cells), or a board's component too large to be a tile, is reported at its entry."""
    scratch = Grid()
    placed = []
    for number, (c, entry) in enumerate(zip(components, content)):
        placement = _placement(entry, where + [number], error)
        if c in layout.boards_only:  # a board of more squares than a tile may have (compile/square_uses.py)
            message, hint, _ = tile_too_large(layout.component_names[c], layout.boards_only[c][1], "this entry")
            raise error(where + [number], message, hint)
        cells = layout.pieces[c].cells(placement.anchor, placement.rotation)
        off = [cell for cell in cells if board is not None and not board.holds(cell.x, cell.y)]
        if off:
            raise error(where + [number], f"{entry['component']} at {off[0]} is off the board, {board.extent()}")
        taken = [cell for cell in cells if cell in scratch.stacks]
        if taken and not entry.get("on_top"):
            below = ", ".join(dict.fromkeys(layout.component_names[scratch.stacks[cell][-1].piece] for cell in taken))
            spot = describe_placement(placement.anchor, placement.rotation)
            raise error(where + [number], f"{entry['component']} at {spot} would lie on {below} at "
                        f"{', '.join(str(cell) for cell in taken)}",
                        "move it, or say `on_top: true` if it covers them on purpose")
        place(scratch, layout.pieces, c, placement)
        placed.append((c, placement))
    return placed


def compare_layout(grid: Grid, layout: Layout, zone: list[int], wanted: list, label: str, at: str) -> list[str]:
    """Where the components of a grid zone lie, against the expected placements (any order)."""
    got = {}
    for c in zone:
        where = placement_of(grid, layout.pieces, c)
        got[layout.component_names[c]] = where
    failures = []
    expected = {entry["component"]: Placement(Cell(*entry["at"]), entry.get("turned", 0) % 360) for entry in wanted
                if isinstance(entry, dict) and "component" in entry and "at" in entry}
    for name, placement in expected.items():
        if name not in got:
            failures.append(f"{at}: {name} is not in {label}")
        elif got[name] != placement:
            failures.append(f"{at}: {name} lies at {describe_placement(got[name].anchor, got[name].rotation)}, "
                            f"expected {describe_placement(placement.anchor, placement.rotation)}")
    for name in got:
        if name not in expected:
            failures.append(f"{at}: {label} also holds {name}, not expected")
    return failures
