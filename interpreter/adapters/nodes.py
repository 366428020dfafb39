"""A node's OpenSpiel action ids (Node), worked out from the options' declared ids, and kept from
the last draw and the last decision of several seats to the next ones (Kept).

The ids of an options list are worked out at every node of every playout, so the common case
has a path of its own: whole-number options (components, players, numbers) whose declared ids
are all known and all differ (`declared_ids`). A seat's options at its next decision are often
its last options but the one it took (a hand less the card played, a deck less the card drawn):
then its ids are the last ids but that one's, in the same order and sorted, without mapping,
sorting and checking them again (`_after_taking`). Everything else (ids by position, free
actions, spots, payments, an id not yet known) is worked out by the state (openspiel.py).
"""
from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple

import pyspiel
from snowrules.model.values import Decision

NOTHING_TO_DECIDE = 0   # the one legal action of a seat left out of a simultaneous node
CHANCE_PLAYER = pyspiel.PlayerId.CHANCE
CHANCE_SEAT = -1  # the chance player among the seats of a draw left (Taken.seats; a plain int: never a seat)
_new_tuple = tuple.__new__


class Node(NamedTuple):
    """A node's action ids, worked out once: per options list of the decision, its ids in the
    options' order and sorted; each player's legal ids (the chance player's at a draw); the single
    action of a seat left out of a simultaneous node (or none). Never changed once made, so the
    copies of a state share it (pyspiel clones states with copy.deepcopy). A named tuple: one is
    made at every node of every playout, three times faster than a frozen dataclass."""

    ids: list[tuple[list[int], list[int]]]
    legal: dict[int, list[int]]
    left_out: list[int]
    by_option: bool = False  # whether each id is its option's declared id, whatever its position

    def __deepcopy__(self, memo: dict) -> Node:
        return self

    def after_draw(self, index: int, before: list, after: list) -> Node | None:
        """The next draw's node, when its outcomes are this draw's but the one drawn (a deal:
        draws from one zone, one component fewer each time), from this node's ids (see
        `_after_taking`). None when the outcomes are others (then worked out as at any node)."""
        pair = _after_taking(before, *self.ids[0], index, after)
        if pair is None:
            return None
        return Node([pair], {CHANCE_PLAYER: pair[1]}, [], True)


class Taken(NamedTuple):
    """A node left with declared ids: its options' kind, its seats ([CHANCE_SEAT] for a draw), its
    options lists, their ids (Node.ids) and the index taken in each list. Made of the node's own
    lists, which are never changed (a Decision's options never are, nor a Node's ids): leaving a
    node costs one record, whatever the number of seats."""

    kind: str
    seats: list[int]
    options: list[list]
    ids: list[tuple[list[int], list[int]]]
    taken: list[int]

    def __deepcopy__(self, memo: dict) -> Taken:
        return self


class Kept(NamedTuple):
    """The last draw and the last decision of several seats left with declared ids (Taken), for
    the next ones' ids: a list's ids are its last list's less the one taken, when its options are
    exactly those (see `declared_node`), whatever happened in between. Never changed once made: a
    move replaces it, so the copies of a state share it (pyspiel clones states with
    copy.deepcopy, where copying a dict of entries cost 0.87 us against 0.18 us for one shared;
    an adapter clone is about 9 us)."""

    draw: Taken | None = None
    decision: Taken | None = None

    def __deepcopy__(self, memo: dict) -> Kept:
        return self


NO_KEPT = Kept()  # a new state's: nothing kept yet


def declared_ids(known: dict, options: list) -> tuple[list[int], list[int]] | None:
    """The options' ids in their order and sorted, when all are whole numbers (never a free
    action, a spot, a way to pay or "nothing", which are records or None: the first and the last
    are tested, since a list mixes ints with those only at its end or its start) with known ids
    that all differ; else None (then worked out option by option). When the ids come out sorted
    (options in id order), both are the same list."""
    if not options or options[0].__class__ is not int or options[-1].__class__ is not int:
        return None
    try:
        ids = list(map(known.__getitem__, options))
    except (KeyError, TypeError):
        return None
    ordered = sorted(ids)
    if len(set(ordered)) != len(ordered):
        return None
    if ordered == ids:
        return ids, ids
    return ids, ordered


def _after_taking(before: list, ids: list[int], ordered: list[int], index: int,
                  options: list) -> tuple[list[int], list[int]] | None:
    """The options' ids from a list left (`before`, its ids in order and sorted, the index taken),
    when the options are that list but the one taken, in the same order: its ids less the taken
    one's (they differ, being some of the list's, and stay sorted). None otherwise."""
    if len(options) != len(before) - 1:
        return None
    expected = before[:]  # one copy and one comparison rather than four slices and two
    del expected[index]
    if expected != options:
        return None
    taken = ids[index]
    same = ordered is ids
    ids = ids[:]
    del ids[index]
    if same:
        return ids, ids
    ordered = ordered[:]
    del ordered[bisect_left(ordered, taken)]
    return ids, ordered


def declared_node(known: dict, pending: Decision, kept: Kept) -> Node | None:
    """The node of a decision (or a draw) whose options lists all have known declared ids, all
    different within each list; None when one list is not like that. A draw's ids and each
    seat's of a decision of several seats are kept from the last draw's or decision's list when
    they can be (`_after_taking`), else worked out (`declared_ids`). One seat's decision is always
    worked out: measured on a trick-taking game, its hand is mostly offered in part (follow suit),
    and keeping what it took cost more than it saved (a draw's ids are kept once a deal is done,
    see SnowrulesState._apply_action; consecutive draws use Node.after_draw)."""
    kind = pending.kind
    if pending.chance:
        options = pending.options[0]
        last = kept.draw
        pair = None
        if last is not None and last.kind == kind:
            pair = _after_taking(last.options[0], *last.ids[0], last.taken[0], options)
        if pair is None:
            pair = declared_ids(known, options)
            if pair is None:
                return None
        return _new_tuple(Node, ([pair], {CHANCE_PLAYER: pair[1]}, [], True))
    seats = pending.seats
    if len(seats) == 1:
        pair = declared_ids(known, pending.options[0])
        if pair is None:
            return None
        return _new_tuple(Node, ([pair], {seats[0]: pair[1]}, [], True))
    last = kept.decision
    if last is not None and last.kind != kind:
        last = None
    same = last is not None and last.seats == seats  # then each seat at its place in the last
    found = []
    legal = {}
    for at, (seat, options) in enumerate(zip(seats, pending.options)):
        pair = None
        if last is not None:
            if not same:
                at = last.seats.index(seat) if seat in last.seats else -1
            if at >= 0:
                pair = _after_taking(last.options[at], *last.ids[at], last.taken[at], options)
        if pair is None:
            pair = declared_ids(known, options)
            if pair is None:
                return None
        found.append(pair)
        legal[seat] = pair[1]
    # tuple.__new__ rather than Node(...): a third of its cost (no Python __new__)
    return _new_tuple(Node, (found, legal, [NOTHING_TO_DECIDE] if pending.simultaneous else [], True))


_DRAWN_BY = [CHANCE_SEAT]


def after_draw_left(kept: Kept, pending: Decision, node: Node, index: int) -> Kept:
    """The record once a draw with declared ids is left, `index` drawn."""
    return _new_tuple(Kept, (_new_tuple(Taken, (pending.kind, _DRAWN_BY, pending.options, node.ids, [index])),
                             kept.decision))


def after_decision_left(kept: Kept, pending: Decision, node: Node, answers: list[int]) -> Kept:
    """The record once a decision of several seats with declared ids is left, `answers` (one
    index per seat) taken."""
    return _new_tuple(Kept, (kept.draw, _new_tuple(Taken, (pending.kind, pending.seats, pending.options, node.ids,
                                                           answers))))
