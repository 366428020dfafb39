"""The kinds of the fields the rules read from data: components' fields and table rows' fields.

A field read from YAML has the kind of the values written there (every row's `points` a whole
number: a number), so that what the rules compute from it keeps that kind: an option built from
a table row's number is offered and labelled as a number, not as the component that a number
also stands for. A field whose values differ in kind (or that a grid function or a record built
from computed values also gives) stays of any kind, and the checker lets it through as before.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from snowrules.language import syntax as s
from snowrules.model import kinds as t

SCALARS = {bool: t.BOOL, int: t.INT, str: t.STR, type(None): t.NONE}


def value_kind(value: Any) -> t.Kind:
    """The kind of one value written in YAML: a number, a text, true/false, or a list of one of
    them (`[2, 1]`: a list of numbers); anything else (a map, a mixed list) is of any kind."""
    if isinstance(value, list):
        kinds = {value_kind(v) for v in value}
        if len(kinds) == 1 and (kind := kinds.pop()) in (t.BOOL, t.INT, t.STR):
            return t.list_of(kind)
        return t.list_of(t.ANY)
    return SCALARS.get(type(value), t.ANY)


def merged(kinds: Mapping[str, set[t.Kind]]) -> dict[str, t.Kind]:
    """One kind per field: the kind all its values share (none aside), else any."""
    return {name: _unified(k) for name, k in kinds.items()}


def _unified(kinds: set[t.Kind]) -> t.Kind:
    kind = t.NONE
    for each in sorted(kinds, key=str):
        kind = t.unify(kind, each)
    return t.ANY if kind == t.NONE else kind


def table_field_kinds(tables: Iterable[list[dict]], literals: Iterable[s.RecordExpr]) -> dict[str, set[t.Kind]]:
    """The kinds each record field takes in the tables' rows and in the rules' record literals
    (`{x: 0, y: 1}`: numbers; a field given a computed value is of any kind)."""
    kinds: dict[str, set[t.Kind]] = {}
    for rows in tables:
        for row in rows:
            for name, value in row.items():
                kinds.setdefault(name, set()).add(value_kind(value))
    for node in literals:
        for entry in node.fields:
            value = entry.value
            kind = value_kind(value.value) if isinstance(value, s.Literal) else t.ANY
            kinds.setdefault(entry.name, set()).add(kind)
    return kinds
