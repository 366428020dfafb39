"""What a seat chooses, as OpenSpiel's actions and as the seat remembers it.

A `choose exactly N` decision whose options' kind has declared ids (the manifest's `action_ids:
choice:`) is asked one item at a time (`Picks`): N nodes, each offering every seat of the
decision the items it has not picked yet by their own declared ids (a secret decision of several
seats: N simultaneous nodes), as OpenSpiel's hearts asks a pass of three cards. Choosing card X
is then the same action wherever X lies in the hand; the rules still get one answer per seat
(the combination, by its index among the seat's options: the log is as without the adapter).
A `choose up to N` decision is asked the same way when the manifest also declares the id of
"done" (`action_ids: done:`): each node offers the items left and done; a seat's answer is made
when it picks done or its N-th item (or every item there is), so a seat may stop at any number
of items, none included. A seat that has answered while others of a secret decision still pick
has the single action NOTHING_TO_DECIDE. Any other decision (`up to N` without `done:`,
`optionally`, no declared ids) keeps one node whose combinations are numbered by position.

What the chooser remembers of its answer (`remember`) is the answer, or the value the decision
declares (`remembered as EXPR`, compile/remembered.py). Picks are noted one by one as they are
made (and done, as `chose done`), unless the decision declares what is remembered: then they are
held apart (shown as `picking ...` in the seat's information state while the decision is open,
since they decide what is still legal) and only the declared value is noted once the seat has
answered, so two orders of the same items leave the chooser in one information state.
"""
from __future__ import annotations

import json
from math import comb
from typing import TYPE_CHECKING, Any, NamedTuple

from snowrules.adapters.nodes import NOTHING_TO_DECIDE, Node
from snowrules.adapters.option_ids import option_ids
from snowrules.adapters.recall import Recall, Sight
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.model.values import Decision

if TYPE_CHECKING:
    from snowrules.adapters.openspiel import SnowrulesGame
    from snowrules.runtime.engine import Game


DONE = "done"  # how "done" reads, as an option and in a seat's notes


class Picking(NamedTuple):
    """A decision asked item by item: its items in the rules' order, each one's declared id, the
    positions picked so far in the order they were picked, how many items make an answer, the id
    of "done" (`up to N` only; None for `exactly N`) and whether the seat picked it. Never
    changed: a pick makes a new one, so copies of a state share it."""

    items: list
    ids: list[int]
    picked: tuple[int, ...] = ()
    most: int = 0
    done: int | None = None
    stopped: bool = False

    def __deepcopy__(self, memo: dict) -> Picking:
        return self

    def answered(self) -> bool:
        return self.stopped or len(self.picked) >= self.most

    def ids_left(self) -> list[int]:
        """The ids the seat may take now: the items not picked yet, then done (when it may stop)."""
        left = [i for at, i in enumerate(self.ids) if at not in self.picked]
        return left if self.done is None else left + [self.done]

    def left(self) -> list:
        return [item for at, item in enumerate(self.items) if at not in self.picked]

    def offered(self) -> list:
        """What each of `ids_left` stands for: the items left, then done."""
        return self.left() if self.done is None else self.left() + [DONE]

    def picked_items(self) -> list:
        return [self.items[at] for at in self.picked]

    def pick(self, action: int) -> Picking | None:
        """With the item of id `action` picked (or done); None if that id is not one of those left."""
        if action == self.done:
            return self._replace(stopped=True)
        try:
            at = self.ids.index(action)
        except ValueError:
            return None
        return None if at in self.picked else self._replace(picked=self.picked + (at,))

    def answer(self, options: list[list]) -> int:
        """The index of the combination picked among the decision's options (each combination
        holds its items in the rules' order)."""
        return options.index([self.items[at] for at in sorted(self.picked)])


class Picks(NamedTuple):
    """A decision asked item by item: each seat's Picking, in the decision's order of seats, and
    whether each took an item or done at the last node (what is noted of it). Never changed: a
    pick makes a new one."""

    each: tuple[Picking, ...]
    acted: tuple[bool, ...] = ()

    def __deepcopy__(self, memo: dict) -> Picks:
        return self

    def node(self, pending: Decision) -> Node:
        """The node of the next pick: each seat's items not picked yet (and done), by their ids
        (a seat of a secret decision with nothing to pick, or that has answered, has the single
        action NOTHING_TO_DECIDE)."""
        pairs = [(ids, sorted(ids)) for ids in
                 ([NOTHING_TO_DECIDE] if seat.answered() else seat.ids_left() for seat in self.each)]
        seats = pending.seats
        return Node(pairs, {seat: pair[1] for seat, pair in zip(seats, pairs)},
                    [NOTHING_TO_DECIDE] if pending.simultaneous and len(seats) > 1 else [])

    def of(self, pending: Decision, seat: int) -> Picking | None:
        return self.each[pending.seats.index(seat)] if seat in pending.seats else None

    def picked(self, node: Node, positions: list[int]) -> Picks:
        """With each seat's item at its position among its ids left (node.ids) picked; a seat
        that has answered stays as it is."""
        return Picks(tuple(seat if seat.answered() else seat.pick(ids[at])
                           for seat, (ids, _), at in zip(self.each, node.ids, positions)),
                     tuple(not seat.answered() for seat in self.each))

    def answers(self, pending: Decision) -> list[int] | None:
        """Each seat's answer (its combination's index among its options) once every seat has
        answered; None before."""
        if not all(seat.answered() for seat in self.each):
            return None
        return [seat.answer(options) for seat, options in zip(self.each, pending.options)]


def picks_of(game: SnowrulesGame, pending: Decision) -> Picks | None:
    """The decision asked item by item, or None when it is asked as one node (see above)."""
    if pending.how_many is None or pending.optional or pending.chance or pending.how_many < 1 \
            or ("choice", pending.kind) not in game.interface:
        return None
    done = done_id(game) if pending.up_to else None
    if pending.up_to and done is None:
        return None
    each = []
    for options in pending.options:
        if not all(type(o) is list for o in options):  # free actions offered beside the combinations
            return None
        items = list(dict.fromkeys(item for option in options for item in option))
        most = min(pending.how_many, len(items)) if pending.up_to else pending.how_many
        sizes = range(most + 1) if pending.up_to else [most]
        if sum(comb(len(items), size) for size in sizes) != len(options):  # an item offered twice: positions
            return None
        ids = option_ids(game, pending, "choice", items)
        if done in ids:
            raise RuntimeRulesError.at(Position.parse(pending.rule), f"the id of done, {done}, is also the id of "
                                       f"{game.engine.label(items[ids.index(done)], pending.kind)}",
                                       "declare `action_ids: {done: ...}` apart from the ids of the items")
        each.append(Picking(items, ids, (), most, done))
    return Picks(tuple(each))


def done_id(game: SnowrulesGame) -> int | None:
    """The manifest's id of "done" (`action_ids: done:`), worked out once per game; None if it
    has none."""
    found = game.__dict__.get("done_id", ())
    if found == ():
        found = game.done_id = game.evaluate(("done",), State()) if ("done",) in game.interface else None
    return found


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
        for seat, picking, acted in zip(pending.seats, picks.each, picks.acted):
            if acted and picking.stopped:
                recall.chose(seat, DONE, "value")
            elif acted:
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
