"""A tally of moves: how many times each component moved between the zone pairs a listener marked.

A listener that only counts moves (simulate's per-component figures: which cards each player
played, which were ever held) would otherwise be told each move as an event: a value made and a
call made hundreds of times a game, each to be sorted by its zones and mostly dropped. A tally is
that listener's question asked before the game starts: it marks each (source zone, destination
zone) pair it cares about with a slot, and the game adds 1 to `counts[slot][component]` at each
move between a marked pair, in the generated code itself (compile/apply.py `tallying`, and
`tally_moves` for the moves a function makes), with no event and no call. Moves between unmarked
pairs cost a look-up.

A tally belongs to whoever follows the game, like a listener: it is not part of the state (never
cloned, never written to JSON), and a copy of the state made for a search's look-ahead does not
count into it.
"""
from __future__ import annotations


class MoveTally:
    """`slots[source][dest]`: the slot a move from zone instance `source` to `dest` counts in, or
    None (not counted); `counts[slot][component]`: the moves counted so far."""

    __slots__ = ("slots", "counts", "_components")

    def __init__(self, slots: list[list[int | None]], slot_count: int, components: int):
        self.slots = slots
        self._components = components
        self.counts: list[list[int]] = self._zeros(slot_count)

    def _zeros(self, slot_count: int) -> list[list[int]]:
        return [[0] * self._components for _ in range(slot_count)]

    def take(self) -> list[list[int]]:
        """The counts so far; the tally then starts again from zero (the next game)."""
        counts, self.counts = self.counts, self._zeros(len(self.counts))
        return counts
