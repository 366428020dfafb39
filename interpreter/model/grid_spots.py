"""Where a piece may go on a grid: its legal spots under a game's placement rules, each spot's
stable id (an OpenSpiel action id) and the label a person reads.

The geometry and the changes of the grid are model/grid.py's; this module reads a grid and never
changes it. A spot is a placement (anchor and rotation) that obeys the rules, with what it covers.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from snowrules.model.grid import FACING, STEP, Cell, Grid, GridError, Layer, Pieces, Placement


# ---- placing -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlacementRules:
    """The rules a placement obeys. `touching`: the piece must touch the layout (an edge shared
    with an occupied cell it does not cover, or a covered cell). `least_covered`/`most_covered`:
    how many occupied cells it covers (0 and 0: never overlap; 1 and 2 for a domino: "cover 2
    squares, or 1 square and an empty area"). `least_contact`: edges it must share with the layout
    when it covers nothing (1: one square aligned with one square of a neighbour is enough).
    `uncoverable`: pieces nothing may be put on."""

    touching: bool = True
    least_covered: int = 0
    most_covered: int = 0
    least_contact: int = 1
    uncoverable: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Spot:
    """A legal placement: anchor, rotation, the cells covered (square order), the layers covered
    (the top of each occupied cell it covers), a stable id and a readable label."""

    anchor: Cell
    rotation: int
    cells: tuple[Cell, ...]
    covers: tuple[Layer, ...]
    id: int
    label: str

    @property
    def placement(self) -> Placement:
        return Placement(self.anchor, self.rotation)

    def to_json(self) -> dict[str, Any]:
        return {"cell": self.anchor.to_json(), "rotation": self.rotation, "cells": [c.to_json() for c in self.cells],
                "covers": [layer.to_json() for layer in self.covers], "id": self.id, "label": self.label}


def spot_id(anchor: Cell, rotation: int) -> int:
    """A stable number for (anchor, rotation), whatever else is legal: an OpenSpiel action id.
    Each coordinate is folded to a natural number (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...), the pair
    is numbered by Szudzik's pairing, then the rotation is the last factor of 4. Spots within
    `radius` of the origin have ids below `spot_id_bound(radius)`."""
    return _spot_number(anchor.x, anchor.y, rotation)


def _spot_number(x: int, y: int, rotation: int) -> int:
    a, b = _fold(x), _fold(y)
    pair = a * a + a + b if a >= b else b * b + a
    return pair * 4 + (rotation // 90) % 4


def spot_id_bound(radius: int) -> int:
    """One more than the largest id of a spot whose anchor has |x| and |y| at most `radius`."""
    return 4 * (2 * radius + 1) ** 2


def _fold(value: int) -> int:
    return 2 * value if value >= 0 else -2 * value - 1


def legal_spots(grid: Grid, pieces: Pieces, piece: int, rules: PlacementRules = PlacementRules(),
                names: Mapping[int, str] | None = None, labelled: bool = True) -> list[Spot]:
    """Every legal placement of a piece (which must not be on the grid), each distinct footprint
    once, sorted by id. Two placements are one footprint when they put the same turned fields in
    the same cells (a domino whose two squares are alike, turned 180° about its middle). On an
    empty grid the anchor is the origin, in every distinct rotation. Without `labelled`, the
    spots' labels are left empty (a caller that labels only what it shows)."""
    spots = []
    for number, ax, ay, rotation, cells, covers in spot_tuples(grid, pieces, piece, rules):
        placement = Placement(Cell(ax, ay), rotation)
        spots.append(Spot(placement.anchor, rotation, tuple(Cell(x, y) for x, y in cells), covers, number,
                          spot_label(placement, covers, names) if labelled else ""))
    return spots


SpotTuple = tuple[int, int, int, int, list[tuple[int, int]], tuple[Layer, ...]]


def spot_tuples(grid: Grid, pieces: Pieces, piece: int, rules: PlacementRules = PlacementRules()) -> list[SpotTuple]:
    """`legal_spots` as plain tuples `(id, x, y, rotation, cells, covered layers)`, cells as
    (x, y) pairs: this runs at every decision of a tile game, over a few hundred candidates, and
    a caller that makes its own values of the spots (the rules' records) skips making Spots."""
    occupied = grid.stacks  # keyed by cells, which are (x, y) tuples
    for stack in occupied.values():
        for layer in stack:
            if layer.piece == piece:
                raise GridError(f"piece {piece} is on the grid: lift it before looking for its spots")
    turnings = pieces[piece].turnings()
    # The common rule (touch the layout, cover nothing): a legal spot has a cell on the frontier
    # (a free cell next to the layout) and none occupied, so only the frontier anchors candidates.
    beside = bool(occupied) and rules.touching and rules.most_covered == 0 and rules.least_contact == 1
    if beside:
        starts = {(x + dx, y + dy) for x, y in occupied for dx, dy in STEPS}.difference(occupied)
    else:
        starts = set(occupied) | {(x + dx, y + dy) for x, y in occupied for dx, dy in STEPS}
    candidates = []
    for rotation, offsets, looks, _ in turnings:
        anchors = {(0, 0)} if not occupied else {(x - ox, y - oy) for x, y in starts for ox, oy in offsets}
        if beside:  # the anchors that would put a square on an occupied cell, taken out at once
            anchors.difference_update({(x - ox, y - oy) for x, y in occupied for ox, oy in offsets})
        for ax, ay in anchors:
            cells = [(ax + ox, ay + oy) for ox, oy in offsets]
            if beside or _allowed(occupied, cells, rules):
                candidates.append((_spot_number(ax, ay, rotation), ax, ay, rotation, cells, looks))
    candidates.sort(key=_number)
    alike = bool(turnings) and turnings[0].alike  # else no two candidates share a footprint
    seen: set[frozenset] = set()
    found = []
    for number, ax, ay, rotation, cells, looks in candidates:
        if alike:
            footprint = frozenset(zip(cells, looks))
            if footprint in seen:
                continue
            seen.add(footprint)
        covers = tuple(occupied[c][-1] for c in cells if c in occupied) if not beside else ()
        found.append((number, ax, ay, rotation, cells, covers))
    return found


STEPS = tuple(STEP.values())


def _number(candidate: tuple) -> int:
    return candidate[0]


def _allowed(occupied: Mapping[tuple[int, int], list[Layer]], cells: list[tuple[int, int]],
             rules: PlacementRules) -> bool:
    own = set(cells)
    if len(own) != len(cells):
        return False
    covered = [c for c in cells if c in occupied]
    if not rules.least_covered <= len(covered) <= rules.most_covered:
        return False
    if rules.uncoverable and any(occupied[c][-1].piece in rules.uncoverable for c in covered):
        return False
    if not rules.touching or not occupied or covered:
        return True
    contact = sum(1 for x, y in cells for dx, dy in STEP.values()
                  if (x + dx, y + dy) in occupied and (x + dx, y + dy) not in own)
    return contact >= rules.least_contact


def spot_label(placement: Placement, covers: tuple[Layer, ...], names: Mapping[int, str] | None = None) -> str:
    """"(2,-1) turned east, covers nothing"; what is covered is named when names are given."""
    covered = [names.get(layer.piece, str(layer.piece)) for layer in covers] if names else []
    return describe_spot(placement.anchor, placement.rotation, len(covers), covered)


def describe_spot(anchor: Cell, rotation: int, covers: int, covered: Iterable[str] = ()) -> str:
    """A spot as a person reads it, from its anchor, rotation, how many occupied cells it covers
    and the names of what it covers (none given: only the count): "(2,-1) turned east, covers
    nothing", "(0,0) turned south, covers 1 square of tile 07"."""
    where = describe_placement(anchor, rotation)
    if not covers:
        return f"{where}, covers nothing"
    count = f"{covers} square{'s' if covers > 1 else ''}"
    named = list(dict.fromkeys(covered))
    if named:
        count += " of " + " and ".join(named)
    return f"{where}, covers {count}"


def describe_placement(anchor: Cell, rotation: int) -> str:
    """"(2,-1) turned south": where a piece lies, as a person reads it."""
    return f"{anchor} turned {FACING[rotation % 360]}"
