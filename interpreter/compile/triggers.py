"""Triggers at run time: `when` rules watching counters, and `together` blocks that delay them.

A counter change (compile/apply.py) calls `fire` once the counter holds its new value: every
trigger on that counter whose condition has just become true runs at once (native body), is
handed back for the statement to run once it is done (a body that may wait), or, inside `together`, is remembered and
run by `release` when the block closes.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from snowrules.compile import fuse

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
    (it holds `new`). Native trigger bodies run at once; the others are returned, for the
    statement to run once it is done. A condition is evaluated on the new value first; only when
    it holds is it evaluated on the old one (did it *become* true?)."""
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


def may_fire_source(triggers: list[TriggerRuntime], counter: str) -> tuple[str, dict] | None:
    """A generated condition that holds whenever `fire` on counter `counter` (a local of
    generated code holding its index, the counter holding its new value) would run or remember
    a trigger of `triggers`: each trigger's condition on the new value, its player worked out
    from the counter as `fire` does. A game played through tests it in place, and calls `fire`
    only when it holds. None when a condition has no source form or reads another name."""
    parts, namespace = [], {}
    for trigger in triggers:
        src, ns, depth = fuse.code(trigger.cond)
        if "(st, env)" in src or depth >= fuse.MAX_DEPTH:
            return None
        if trigger.per_player:
            base, width = int(trigger.base), int(trigger.width)
            owner = f"({counter} - {base})" if width == 1 else f"(({counter} - {base}) // {width})"
            if trigger.subjects is not None:
                name = fuse.fresh("_v")
                namespace[name] = trigger.subjects
                owner = f"{name}[{owner}]"
            src = src.replace(f"env[{int(trigger.player_slot)}]", owner)
            # base + (counter - base) is the counter itself: read it at its index
            src = src.replace(f"st.counters[{base} + {owner}]", f"st.counters[{counter}]")
        if "env[" in src:
            return None
        parts.append(src)
        namespace.update(ns)
    return " or ".join(parts), namespace


_FIRE_LINE = re.compile(r"^(\s*)if (_v\d+): _fire\(st, \2, (_i\d+), (_o\d+), (_n\d+)\)$")


def prefiltered(lines: list[str], namespace: dict) -> list[str]:
    """Generated lines whose `fire` lines (apply.counter_lines, not handing back) call `fire`
    only when `may_fire_source` holds; a counter no `when` rule watches has no such line. For
    a program whose triggers are all compiled (the `when` lists are final): a game played
    through (compile/playthrough.py). The lines and conditions are snowrules' templates."""
    result = []
    for line in lines:
        found = _FIRE_LINE.match(line)
        triggers = namespace.get(found.group(2)) if found else None
        if not found or not isinstance(triggers, list):
            result.append(line)
            continue
        indent = found.group(1)
        if not triggers:
            result.append(f"{indent}pass")
            continue
        condition = may_fire_source(triggers, found.group(3))
        if condition is None:
            result.append(line)
            continue
        src, ns = condition
        namespace.update(ns)
        result.append(f"{indent}if {src}: _fire(st, {found.group(2)}, {found.group(3)}, {found.group(4)}, "
                      f"{found.group(5)})")
    return result
