"""What a seat chooses, as OpenSpiel's actions and as the seat remembers it.

A `choose exactly N` decision whose options' kind has declared ids (the manifest's `action_ids:
choice:`) is asked one item at a time (`Picks`): N nodes, each offering every seat of the
decision the items it has not picked yet by their own declared ids (a secret decision of several
seats: N simultaneous nodes), as OpenSpiel's hearts asks a pass of three cards. Choosing card X
is then the same action wherever X lies in the hand; the rules still get one answer per seat
(the combination, by its index among the seat's options: the log is as without the adapter).
Any other decision (`up to N`, `optionally`, no declared ids) keeps one node whose combinations
are numbered by position.

What the chooser remembers of its answer (`remember`) is the answer, or the value the decision
declares (`remembered as EXPR`, compile/remembered.py). Picks are noted one by one as they are
made, unless the decision declares what is remembered: then they are held apart (shown as
`picking ...` in the seat's information state while the decision is open, since they decide
what is still legal) and only the declared value is noted once the last item is picked, so two
orders of the same items leave the chooser in one information state.
"""
from __future__ import annotations

import json
from math import comb
from typing import TYPE_CHECKING, Any, NamedTuple

from snowrules.adapters.nodes import NOTHING_TO_DECIDE, Node
from snowrules.adapters.option_ids import option_ids
from snowrules.adapters.recall import Recall, Sight
from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.model.values import Decision

if TYPE_CHECKING:
    from snowrules.adapters.openspiel import SnowrulesGame
    from snowrules.runtime.engine import Game


class Picking(NamedTuple):
    """A `choose exactly N` decision asked item by item: its items in the rules' order, each
    one's declared id, and the positions picked so far, in the order they were picked. Never
    changed: a pick makes a new one, so copies of a state share it."""

    items: list
    ids: list[int]
    picked: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict) -> Picking:
        return self

    def ids_left(self) -> list[int]:
        return [i for at, i in enumerate(self.ids) if at not in self.picked]

    def left(self) -> list:
        return [item for at, item in enumerate(self.items) if at not in self.picked]

    def picked_items(self) -> list:
        return [self.items[at] for at in self.picked]

    def pick(self, action: int) -> Picking | None:
        """With the item of id `action` picked; None if that id is not one of the items left."""
        try:
            at = self.ids.index(action)
        except ValueError:
            return None
        return None if at in self.picked else Picking(self.items, self.ids, self.picked + (at,))

    def answer(self, options: list[list]) -> int:
        """The index of the combination picked among the decision's options (each combination
        holds its items in the rules' order)."""
        return options.index([self.items[at] for at in sorted(self.picked)])


class Picks(NamedTuple):
    """A decision asked item by item: each seat's Picking, in the decision's order of seats.
    Never changed: a pick makes a new one."""

    each: tuple[Picking, ...]

    def __deepcopy__(self, memo: dict) -> Picks:
        return self

    def node(self, pending: Decision) -> Node:
        """The node of the next pick: each seat's items not picked yet, by their ids (a seat of
        a secret decision with nothing to pick has the single action NOTHING_TO_DECIDE)."""
        pairs = [(ids, sorted(ids)) for ids in (seat.ids_left() for seat in self.each)]
        seats = pending.seats
        return Node(pairs, {seat: pair[1] for seat, pair in zip(seats, pairs)},
                    [NOTHING_TO_DECIDE] if pending.simultaneous and len(seats) > 1 else [])

    def of(self, pending: Decision, seat: int) -> Picking | None:
        return self.each[pending.seats.index(seat)] if seat in pending.seats else None

    def picked(self, node: Node, positions: list[int]) -> Picks:
        """With each seat's item at its position among its ids left (node.ids) picked."""
        return Picks(tuple(seat.pick(ids[at]) for seat, (ids, _), at in zip(self.each, node.ids, positions)))

    def answers(self, pending: Decision) -> list[int] | None:
        """Each seat's answer (its combination's index among its options) once every item is
        picked; None before."""
        if len(self.each[0].picked) < pending.how_many:
            return None
        return [seat.answer(options) for seat, options in zip(self.each, pending.options)]


def picks_of(game: SnowrulesGame, pending: Decision) -> Picks | None:
    """The decision asked item by item, or None when it is asked as one node (see above)."""
    if pending.how_many is None or pending.up_to or pending.optional or pending.chance \
            or pending.how_many < 1 or ("choice", pending.kind) not in game.interface:
        return None
    each = []
    for options in pending.options:
        if not all(type(o) is list for o in options):  # free actions offered beside the combinations
            return None
        items = list(dict.fromkeys(item for option in options for item in option))
        if comb(len(items), pending.how_many) != len(options):  # an item offered twice: positions
            return None
        each.append(Picking(items, option_ids(game, pending, "choice", items)))
    return Picks(tuple(each))


def remembered(program: Program, st: State, pending: Decision, seat: int, answer: Any) -> tuple[Any, str]:
    """What `seat` notes of its answer, and how a whole number in it reads ("component",
    "player" or "value"): the answer, or the value its decision declares it remembers."""
    declared = program.remembered.get(pending.rule)
    if declared is None:
        return answer, pending.kind
    return declared.of(st, answer, seat), declared.kind


def note_picks(recall: Recall, program: Program, pending: Decision, picks: Picks) -> None:
    """Each seat's last pick of an item asked one by one: noted at once, unless what the seat
    remembers is declared (then only the declared value is noted, once the last item is picked)."""
    if pending.rule not in program.remembered:
        for seat, picking in zip(pending.seats, picks.each):
            recall.chose(seat, picking.items[picking.picked[-1]], pending.kind)


def note_answer(recall: Recall, program: Program, st: State, pending: Decision, seat: int, answer: Any,
                picked: bool) -> None:
    """The seat's answer as it remembers it; an answer picked item by item was noted item by item
    when nothing is declared (`note_pick`)."""
    if not picked or pending.rule in program.remembered:
        recall.chose(seat, *remembered(program, st, pending, seat, answer))


def note_asked(recall: Recall, pending: Decision, picks: Picks, st: State, sight: Sight) -> None:
    """A decision asked item by item is noted with each seat's items (its actions), not its
    combinations."""
    for seat, picking in zip(pending.seats, picks.each):
        recall.notes[seat].append(("asked", pending.rule, sight.options_shown(st, picking.items, pending.kind),
                                   pending.kind))


def held_picks(picks: Picks | None, program: Program, pending: Decision | None, seat: int) -> list:
    """The items `seat` has picked so far and holds apart (a declared `remembered as`: they are in
    no note until the last is picked); none for any other seat or decision."""
    picking = None if picks is None or pending is None else picks.of(pending, seat)
    if picking is None or pending.rule not in program.remembered:
        return []
    return picking.picked_items()


def picking_text(picks: Picks | None, program: Program, pending: Decision | None, seat: int,
                 engine: Game) -> str:
    """The picks held apart so far, as the chooser's information state shows them while the
    decision is open: as a set (sorted by name), since the order is what the declaration forgets;
    "" when there are none."""
    held = held_picks(picks, program, pending, seat)
    return "\npicking " + json.dumps(sorted(engine.label(item, pending.kind) for item in held)) if held else ""
