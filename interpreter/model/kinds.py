"""The kinds of values the rules handle, as values the checker compares.

A `Kind` is a frozen value: `INT`, `BOOL`, `STR`, `NONE`, `PLAYER`, `COMPONENT`, `ZONE`, `RECORD`,
`ANY`, `FRACTION` (only from `ratio()`: a return or an average, never a count) and lists of any
kind (`list_of(PLAYER)`). Two kinds exist only while compiling: `ZONES` (a zone declared with an
index or per player, waiting for `[i]` or `.name`) and `COUNTERS` (a counter with keys, waiting
for `[key]`). Kinds are compared with `==` and may be dictionary keys.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Kind:
    """What a value is; `element` is set for lists only."""

    name: str
    element: Kind | None = None

    def __str__(self) -> str:
        return f"list:{self.element}" if self.element is not None else self.name

    @property
    def option_label(self) -> str:
        """How an option of this kind is told to players: "player", "component" or "value"
        (see Game.label); a value of unknown kind is told as a component, as before."""
        if self in (PLAYER, COMPONENT):
            return self.name
        return "component" if self == ANY else "value"


ANY, INT, BOOL, STR, NONE, FRACTION = Kind("any"), Kind("int"), Kind("bool"), Kind("str"), Kind("none"), \
    Kind("fraction")
PLAYER, COMPONENT, ZONE, RECORD = Kind("player"), Kind("component"), Kind("zone"), Kind("record")
ZONES, COUNTERS = Kind("zones"), Kind("counters")  # compile-time only: waiting for an index

WORDS = {
    INT: "a number", FRACTION: "a fraction", BOOL: "true or false", STR: "a text", NONE: "none", PLAYER: "a player",
    COMPONENT: "a component", ZONE: "a zone", RECORD: "a table row", ANY: "a value",
    ZONES: "a zone with several instances", COUNTERS: "a counter with several keys",
}


def list_of(element: Kind) -> Kind:
    return Kind("list", element)


def is_list(kind: Kind) -> bool:
    return kind.element is not None


def element(kind: Kind) -> Kind:
    if kind == ZONE:
        return COMPONENT
    return kind.element if kind.element is not None else ANY


def iterable(kind: Kind) -> bool:
    return kind in (ZONE, ANY) or is_list(kind)


def unify(a: Kind, b: Kind) -> Kind:
    """The kind of a value that is sometimes `a`, sometimes `b`."""
    if a == b:
        return a
    if a == NONE:
        return b
    if b == NONE:
        return a
    if is_list(a) and is_list(b):
        return list_of(unify(element(a), element(b)))
    if {a, b} == {ZONE, list_of(COMPONENT)}:
        return list_of(COMPONENT)
    return ANY


def describe(kind: Kind) -> str:
    if is_list(kind):
        inner = element(kind)
        return "a list" if inner == ANY else f"a list of {WORDS.get(inner, str(inner)).split(' ', 1)[-1]}s"
    return WORDS.get(kind, str(kind))


def compatible(actual: Kind, wanted: Kind) -> bool:
    if ANY in (actual, wanted) or actual == wanted:
        return True
    if wanted == INT and actual == BOOL:
        return False
    if is_list(wanted) and (actual == ZONE or is_list(actual)):
        return compatible(element(actual), element(wanted))
    return False


def vague(kind: Kind) -> bool:
    """Whether the kind is not fully known (`any`, or a list of `any`...): a later assignment may tell more."""
    return kind == ANY or (kind.element is not None and vague(kind.element))
