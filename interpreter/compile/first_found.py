"""`first()` of a filter given to a name by a statement, found by a loop that stops at the first
item that passes.

As an expression, `first([each p in L where COND])` builds the whole filtered list (a comprehension,
which Python 3.11 runs as a call of its own) to keep its first item. When a statement gives it
to a name (`let w = first(...)`, `x = first(...)`), it is a loop instead: the same items tested in
the same order up to the first that passes, which is the value, or none when no item passes; no
list, no call. A define whose body is such a first() (`define winner(ps, best) = first([each p in
ps where ...])`), inlined with its arguments in Python locals (fuse.substituted), is one too: its
arguments are given to the locals first, as the expression does. Generated text comes only from
snowrules' templates: a filter's parts (fuse.Listing) as fuse.comprehension made them.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

from snowrules.compile import fuse


@dataclass(frozen=True)
class FirstFound:
    """first() of a filter, as the lines that find it need it: the lines to run before (a define's
    arguments into their locals), the filter's parts, and the namespace of them all."""
    before: tuple[str, ...]
    listing: fuse.Listing
    namespace: dict


_FIRSTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # first()'s function -> FirstFound


def note_first(fn: fuse.Fn, listing: fuse.Fn) -> None:
    """Remember that `fn` is first() of `listing`, when that is a filter."""
    parts = fuse.listing_of(listing)
    if parts is not None:
        _FIRSTS[fn] = FirstFound((), parts, fn.ns)


def note_substituted(inlined: fuse.Fn, body: fuse.Fn) -> None:
    """Remember `inlined` (fuse.substituted of a define's body) as first() of a filter when the
    body is one: each parameter's env[slot] read from the local that `inlined` gives its
    argument to, the arguments given first, in their order."""
    found = _FIRSTS.get(body)
    arguments = fuse.argument_locals(inlined)
    if found is None or arguments is None:
        return
    listing, before = found.listing, list(found.before)
    for slot, name, _ in arguments:
        reading = f"env[{int(slot)}]"
        listing = fuse.Listing(listing.item, listing.source.replace(reading, name),
                               listing.cond.replace(reading, name), listing.cached)
        before = [line.replace(reading, name) for line in before]
    assigned = tuple(f"{name} = {argument}" for _, name, argument in arguments)
    _FIRSTS[inlined] = FirstFound((*assigned, *before), listing, inlined.ns)


def first_lines(fn: fuse.Fn, target: str) -> tuple[list[str], dict] | None:
    """Statement lines giving `target` (generated text: `env[3]`, `st.vars[1]`) the value of `fn`,
    first() of a filter, by a loop that stops at the first item that passes; and their namespace.
    None for any other expression."""
    found = _FIRSTS.get(fn)
    if found is None or fn.depth >= fuse.MAX_DEPTH:
        return None
    parts = found.listing
    return [*found.before,
            *(f"{name} = {fuse.UNKNOWN_NAME}" for name in parts.cached),
            f"for {parts.item} in {parts.source}:",
            f"    if {parts.cond}:",
            f"        {target} = {parts.item}",
            "        break",
            "else:",
            f"    {target} = None"], dict(found.namespace)
