"""The grid zones of a game as its events tell them: what `snowrules run --verbose` draws after
each placement.

A listener receives a game's events, not its state (the state is the rules' own while they
run), so the account keeps its own copy of each grid zone, changed as the events say: a `Moved`
event with a spot (`at`: cell and rotation) puts its components there, on top of what the cells
hold; a `Moved` event out of a grid zone lifts them. The copy is the state's layout at every
event (a test plays games and compares the two at the end); it is never read by the rules.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.model.events import Event, Moved
from snowrules.model.grid import Cell, Grid, Placement, lift, place
from snowrules.model.layout import Layout


class GridFollower:
    """Follows a game's events (`feed` each one, as a `listen` of Game.start) and keeps each grid
    zone instance's layout. `placed` is called with the zone instance after each placement."""

    def __init__(self, layout: Layout, placed: Callable[[int], None] | None = None):
        self.layout = layout
        self.grids: dict[int, Grid] = {zone: Grid() for zone in layout.grid_zones}
        self.placed = placed

    def feed(self, event: Event) -> None:
        if not isinstance(event, Moved) or not self.grids:
            return
        pieces = self.layout.pieces
        if event.source in self.grids:
            for component in event.components:
                if component in self.grids[event.source].pieces():
                    lift(self.grids[event.source], pieces, component)
        if event.dest in self.grids and event.at is not None:
            x, y, rotation = event.at
            for component in event.components:
                place(self.grids[event.dest], pieces, component, Placement(Cell(x, y), rotation))
            if self.placed is not None:
                self.placed(event.dest)
