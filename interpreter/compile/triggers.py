"""Triggers at run time: `when` rules watching counters, and `together` blocks that delay them.

A counter change (compile/apply.py) calls `fire` once the counter holds its new value: every
trigger on that counter whose condition has just become true runs at once (native body), is
handed back for the VM to push (a body that may wait), or, inside `together`, is remembered and
run by `release` when the block closes.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Native = Callable[[Any, list], None]


@dataclass
class TriggerRuntime:
    """A compiled `when` rule watching one counter family."""

    cond: Callable
    native: Native | None
    routine: Any
    player_slot: int | None
    env_size: int
    per_player: bool
    base: int
    width: int
    subjects: list[int] | None = None  # a counter per component: its holders, so the name is bound to one


def fire(st, triggers: list[TriggerRuntime], i: int, old: int, new: int):
    """Run the triggers whose condition became true when counter `i` went from `old` to `new`
    (it holds `new`). Native trigger bodies run at once; the others are returned for the VM to
    push. A condition is evaluated on the new value first; only when it holds is it evaluated on
    the old one (did it *become* true?)."""
    counters = st.counters
    deferring = st.deferring
    pushed = None
    for trigger in triggers:
        local = [None] * trigger.env_size
        if trigger.per_player:
            owner = (i - trigger.base) // trigger.width
            local[trigger.player_slot] = owner if trigger.subjects is None else trigger.subjects[owner]
        if not trigger.cond(st, local):
            continue
        counters[i] = old
        was = trigger.cond(st, local)
        counters[i] = new
        if was:
            continue
        if deferring:  # inside `together`: run it when the block closes (once per trigger and player)
            key = (trigger, local[trigger.player_slot] if trigger.per_player else None)
            if key not in st.deferred:
                st.deferred.append(key)
            continue
        if trigger.native is not None:
            trigger.native(st, local)
        else:
            pushed = pushed or []
            pushed.append((trigger.routine, trigger.player_slot, local[trigger.player_slot]
                           if trigger.per_player else None))
    return pushed


def release(st) -> None:
    """Run the triggers set off inside a `together` block, in the order they were set off."""
    deferred, st.deferred = st.deferred, []
    for trigger, player in deferred:
        local = [None] * trigger.env_size
        if trigger.per_player:
            local[trigger.player_slot] = player
        trigger.native(st, local)
