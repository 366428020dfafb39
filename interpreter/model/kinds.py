"""The few kinds of values the rules handle, as short strings the checker compares.

`int`, `bool`, `str`, `none`, `player`, `component`, `zone`, `record`, `any`, `fraction` (only from
`ratio()`: a return or an average, never a count), and `list:T`.
Two kinds exist only while compiling: `zones` (a zone declared with an index or per player,
waiting for `[i]` or `.name`) and `counters` (a counter with keys, waiting for `[key]`).
"""
from __future__ import annotations

ANY, INT, BOOL, STR, NONE, FRACTION = "any", "int", "bool", "str", "none", "fraction"
PLAYER, COMPONENT, ZONE, RECORD = "player", "component", "zone", "record"

WORDS = {
    INT: "a number", FRACTION: "a fraction", BOOL: "true or false", STR: "a text", NONE: "none", PLAYER: "a player",
    COMPONENT: "a component", ZONE: "a zone", RECORD: "a table row", ANY: "a value",
}


def list_of(element: str) -> str:
    return f"list:{element}"


def is_list(kind: str) -> bool:
    return kind.startswith("list:")


def element(kind: str) -> str:
    if kind == ZONE:
        return COMPONENT
    return kind[5:] if is_list(kind) else ANY


def iterable(kind: str) -> bool:
    return kind in (ZONE, ANY) or is_list(kind)


def unify(a: str, b: str) -> str:
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


def describe(kind: str) -> str:
    if is_list(kind):
        inner = element(kind)
        return "a list" if inner == ANY else f"a list of {WORDS.get(inner, inner).split(' ', 1)[-1]}s"
    return WORDS.get(kind, kind)


def compatible(actual: str, wanted: str) -> bool:
    if ANY in (actual, wanted) or actual == wanted:
        return True
    if wanted == INT and actual == BOOL:
        return False
    if is_list(wanted) and (actual == ZONE or is_list(actual)):
        return compatible(element(actual), element(wanted))
    return False
