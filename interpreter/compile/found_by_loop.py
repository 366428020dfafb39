"""`first()` of a filter, and `max()` / `min()` of a list comprehension, given to a name by a
statement: worked out by a loop instead of a list.

As an expression, `first([each p in L where COND])` builds the whole filtered list to keep its
first item, and `max([strength(p) for each p in L])` builds the list to pass it to max(). In
Python 3.11 each comprehension is a call of its own, and one that assigns inside (an inlined
define's `(_a := ARG)`) turns those names into cells of the function around it, slower at every
read. When a statement gives the value to a name (`let w = first(...)`, `x = max(...)`), it is
a loop instead: first() tests the same items in the same order up to the first that passes,
which is the value (none when none passes); max() and min() go through the items in order and
keep the first largest (smallest), as the built-ins do, none for no item. A define whose body is
such a first() (`define winner(ps, best) = first([each p in ps where ...])`), inlined with its
arguments in Python locals (fuse.substituted), is one too: its arguments are given to the
locals first, in order, each by a loop of its own when it is one of these.

Generated text comes only from snowrules' templates: a comprehension's parts (fuse.Listing) as
fuse.comprehension made them.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

from snowrules.compile import fuse


@dataclass(frozen=True)
class FoundByLoop:
    """A value a loop can find: `pick` ("first", "max" or "min"), the lines to run before (a
    define's arguments given to their locals), the comprehension's parts, their namespace."""
    pick: str
    before: tuple[str, ...]
    listing: fuse.Listing
    namespace: dict


_FOUND: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # an expression -> FoundByLoop


def note(fn: fuse.Fn, pick: str, listing: fuse.Fn) -> None:
    """Remember that `fn` is `pick`() of `listing` (first() of a filter, max()/min() of any
    comprehension), when `listing` is a list fuse.comprehension made."""
    parts = fuse.listing_of(listing)
    if parts is None or (pick == "first" and (parts.element is not None or parts.cond is None)):
        return
    _FOUND[fn] = FoundByLoop(pick, (), parts, fn.ns)


def note_substituted(inlined: fuse.Fn, body: fuse.Fn, bindings: list[tuple[int, fuse.Fn]]) -> None:
    """Remember `inlined` (fuse.substituted of a define's body and its arguments) as a value found
    by a loop when the body is one: each parameter's env[slot] read from the local that `inlined`
    gives its argument to, the arguments given first, in their order."""
    found = _FOUND.get(body)
    arguments = fuse.argument_locals(inlined)
    if found is None or arguments is None or len(arguments) != len(bindings):
        return
    listing, before = found.listing, list(found.before)
    namespace = dict(inlined.ns)
    given: list[str] = []
    for (slot, name, text), (_, argument) in zip(arguments, bindings):
        reading = f"env[{int(slot)}]"
        listing = listing.reading(reading, name)
        before = [line.replace(reading, name) for line in before]
        by_loop = lines(argument, name)
        if by_loop is None:
            given.append(f"{name} = {text}")
        else:
            given += by_loop[0]
            namespace.update(by_loop[1])
    _FOUND[inlined] = FoundByLoop(found.pick, (*given, *before), listing, namespace)


def lines(fn: fuse.Fn, target: str) -> tuple[list[str], dict] | None:
    """Statement lines giving `target` (generated text: `env[3]`, `st.vars[1]`, a local) the value
    of `fn` by a loop, and their namespace; None when `fn` is no value found by a loop (or nests
    too deeply to be written out)."""
    found = _FOUND.get(fn)
    if found is None or fn.depth >= fuse.MAX_DEPTH:
        return None
    parts = found.listing
    head = [*found.before, *(f"{name} = {fuse.UNKNOWN_NAME}" for name in parts.cached),
            f"for {parts.item} in {parts.source}:"]
    if found.pick == "first":
        return [*head, f"    if {parts.cond}:", f"        {target} = {parts.item}", "        break",
                "else:", f"    {target} = None"], dict(found.namespace)
    # the best so far in a local of its own (the element may read the target's old value)
    best, value = fuse.fresh("_m"), fuse.fresh("_m")
    better = ">" if found.pick == "max" else "<"
    body = [f"{value} = {parts.element or parts.item}",
            f"if {best} is {fuse.UNKNOWN_NAME} or {value} {better} {best}: {best} = {value}"]
    if parts.cond is not None:
        body = [f"if {parts.cond}:", *fuse.indent(body)]
    return [f"{best} = {fuse.UNKNOWN_NAME}", *head, *fuse.indent(body),
            f"{target} = None if {best} is {fuse.UNKNOWN_NAME} else {best}"], \
        {**found.namespace, fuse.UNKNOWN_NAME: fuse.UNKNOWN}
