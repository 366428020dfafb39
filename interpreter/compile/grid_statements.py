"""Statements on grid zones: `move c to ZONE at SPOT`, and the check that a grid is entered so.

Mixed into the statement compiler (statements.py). The changes themselves, with their events,
are made by compile/apply.py's `GridMoves`; what is compiled here checks the statement and
works out its values.
"""
from __future__ import annotations

from snowrules.compile import fuse
from snowrules.compile.apply import GridMoves
from snowrules.compile.scope import Scope, family_name
from snowrules.language import syntax as s
from snowrules.model import kinds as t
from snowrules.model.layout import ZoneFamily


class GridStatements:
    """The `_moveplaced` and `_turnpiece` methods of StatementCompiler, and the grid checks of
    plain moves."""

    _grid_moves: GridMoves | None = None

    def grid_moves(self) -> GridMoves | None:
        """The game's grid changes, bound into its generated code; None without grid zones (so
        that moves in other games stay exactly as they were)."""
        if not self.layout.grid_zones:
            return None
        if self._grid_moves is None:
            self._grid_moves = GridMoves(self.layout)
        return self._grid_moves

    def _static_family(self, node: s.Node) -> ZoneFamily | None:
        """The zone family a destination names, when the expression names one (`board`,
        `p.board`, `pile[3]`)."""
        name = family_name(node)
        return self.layout.zone_families.get(name) if name else None

    def refuse_grid_target(self, node: s.Node) -> None:
        family = self._static_family(node)
        if family is not None and family.grid:
            self.diag.error(node.pos, f"{family.name!r} is a grid zone: a component goes there at a spot",
                            f"write `move c to {family.name} at spot`, with a spot from "
                            f"placements({family.name}, c, 0)")

    def _moveplaced(self, node: s.MovePlaced, scope: Scope):
        what = self.x.expect(node.what, scope, t.COMPONENT, "the component to place")
        target = self.x.zone(node.target, scope, "the destination")
        spot, kind = self.x.compile(node.spot, scope)
        if kind not in (t.RECORD, t.ANY):
            self.diag.error(node.spot.pos, f"the spot must be a record such as placements(...) gives, "
                            f"not {t.describe(kind)}")
        family = self._static_family(node.target)
        if family is not None and not family.grid:
            self.diag.error(node.target.pos, f"`at` a spot needs a grid zone; {family.name!r} is not one",
                            f"declare it `zone {family.name} ... grid`, or write `at bottom`")
        grids = self.grid_moves()
        if grids is None:
            if family is None:
                self.diag.error(node.target.pos, "`at` a spot needs a grid zone; this game declares none")
            return fuse.statement(["pass"], {}, 0)
        what_src, what_ns = fuse.expression(what)
        target_src, target_ns = fuse.expression(target)
        spot_src, spot_ns = fuse.expression(spot)
        c, b, a, place, rule = fuse.fresh("_c"), fuse.fresh("_b"), fuse.fresh("_a"), fuse.fresh("_v"), fuse.fresh("_v")
        react = {fuse.fresh("_v"): event for event in self._move_events()}
        lines = [f"{c} = {what_src}", f"{b} = {target_src}"]
        if react:  # a move as any other: its `from moves` events queued, with the zone it left
            lines.append(f"{a} = None if {c} is None else st.where[{c}]")
        lines.append(f"{place}(st, {c}, {b}, {spot_src}, {rule})")
        lines += [f"st.raised.append(({event}, [{c}, {a}, {b}]))" for event in react]
        return fuse.statement(lines, {**what_ns, **target_ns, **spot_ns, **react, place: grids.place,
                                      rule: str(node.pos)}, 1)

    def _turnpiece(self, node: s.TurnPiece, scope: Scope):
        what = self.x.expect(node.what, scope, t.COMPONENT, "the component to turn")
        degrees = self.x.expect(node.degrees, scope, t.INT, "the degrees to turn by")
        grids = self.grid_moves()
        if grids is None:
            self.diag.error(node.pos, "`turn` turns a component on a grid zone; this game declares none")
            return fuse.statement(["pass"], {}, 0)
        what_src, what_ns = fuse.expression(what)
        degrees_src, degrees_ns = fuse.expression(degrees)
        turn, rule = fuse.fresh("_v"), fuse.fresh("_v")
        return fuse.statement([f"{turn}(st, {what_src}, {degrees_src}, {rule})"],
                              {**what_ns, **degrees_ns, turn: grids.turn, rule: str(node.pos)}, 1)
