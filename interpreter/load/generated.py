"""Generated component entries: one item of a component list that stands for the product of some
fields' values, named by a template, with overrides for the entries that match given values
(docs/language.md, "Generated entries").

    - generate: {suit: [S, H, D, C], rank: 2..14}
      name: "{rank}{suit}"
      kind: card                      # a field every generated entry has
      overrides:
        - where: {rank: 14}
          fields: {points: 4}

`expand` turns such an item into the entries it stands for, each a map in the shape of a written
entry whose every key and value carries the line and column of the text it comes from (the name
template's, the `generate:` value's, the override's field): the component reader
(load/component_lists.py) then checks each one exactly as it checks a written entry, against the
list's schema, and every message points into the text that made the value. Order: the first
field of `generate:` varies slowest, the last fastest, each field's values in their written
order (a range counts up); the entries take the item's place in the list. Overrides apply in
their written order, a later one over an earlier one.
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from snowrules.language.diagnostics import Diagnostic, Position
from snowrules.language.limits import MAX_COMPONENTS, MAX_GENERATED
from snowrules.load.yaml_files import YamlDocument, key_position, plain

GENERATE = "generate"
OVERRIDES = "overrides"
WHERE, FIELDS = "where", "fields"
# snowrules' own keys of an entry: never generated, never set by an override
NOT_GENERATED = ("name", "copies", "reacts", GENERATE, OVERRIDES)
RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def is_generator(entry: Any) -> bool:
    """Whether a component list's item is a `generate:` item rather than a written entry."""
    return isinstance(entry, dict) and GENERATE in entry


@dataclass(frozen=True)
class Axis:
    """One generated field: its values in order, and the document path of each value's text."""

    field: str
    values: tuple[Any, ...]
    places: tuple[tuple[str | int, ...], ...]


@dataclass(frozen=True)
class GeneratedEntry:
    """One entry a `generate:` item makes: the map the reader checks as a written entry (its
    keys and values placed at the text they come from) and its generated fields' values."""

    entry: CommentedMap
    values: tuple[tuple[str, Any], ...]

    def said(self) -> str:
        """Its generated values as a reader says them: `rank 14, suit S`."""
        return ", ".join(f"{field} {shown(value)}" for field, value in self.values)


def shown(value: Any) -> str:
    """A generated value as a name template writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Problems:
    """The mistakes found in one `generate:` item, each at a path of the document (the value's
    text, or a map's key); SR212 unless said otherwise."""

    def __init__(self, document: YamlDocument):
        self.document, self.found = document, []

    def at(self, where: list, message: str, hint: str = "", code: str = "SR212") -> None:
        self.found.append(Diagnostic(self.document.position(where), message, hint, code=code))

    def at_key(self, where: list, key: str, message: str, hint: str = "", code: str = "SR212") -> None:
        self.found.append(Diagnostic(key_position(self.document.path, self.document.tree, where, key),
                                     message, hint, code=code))


def expand(document: YamlDocument, where: list[str | int]) -> tuple[list[GeneratedEntry], list[Diagnostic]]:
    """The entries the `generate:` item at `where` makes, in order, or none and the reasons.

    The item's shape (a map of lists or texts, a text name, overrides of `where:` and `fields:`)
    is the list envelope's to check (schemas/component_list.schema.json); this checks what a
    schema cannot say, each where it is written, and bounds the work before doing it."""
    item = document.tree
    for step in where:
        item = item[step]
    problems = _Problems(document)
    axes = _axes(document, item, where, problems)
    if problems.found:  # a field left out would make the template's use of it a second mistake
        return [], problems.found
    template = _template(item.get("name"), [a.field for a in axes], where, problems)
    if problems.found or template is None:
        return [], problems.found
    changes = _overrides(item, where, axes, problems)
    if problems.found:
        return [], problems.found
    entries: list[GeneratedEntry] = []
    named: dict[str, GeneratedEntry] = {}
    for number, indexes in enumerate(itertools.product(*(range(len(a.values)) for a in axes))):
        values = tuple((a.field, a.values[k]) for a, k in zip(axes, indexes))
        name = "".join(piece if field is None else shown(dict(values)[field]) for piece, field in template)
        made = GeneratedEntry(_entry(item, where, name, axes, indexes, dict(changes.get(number, {}))), values)
        first = named.setdefault(name, made)
        if first is not made:
            problems.at(where + ["name"], f"the name template {item['name']!r} gives {name!r} to two entries: "
                        f"{first.said()} and {made.said()}",
                        "name every generated field in the template (" +
                        ", ".join("{" + a.field + "}" for a in axes) + ")", code="SR205")
            return [], problems.found
        entries.append(made)
    return entries, []


def _axes(document: YamlDocument, item: Any, where: list, problems: _Problems) -> list[Axis]:
    """The generated fields of an item, each with its values; a bad range or a value listed
    twice is reported at itself, a product beyond MAX_GENERATED at `generate:`."""
    declared = item[GENERATE]
    at = where + [GENERATE]
    axes = []
    for field, written in declared.items():
        if not isinstance(field, str):
            problems.at_key(at, field, f"{GENERATE}: a field's name is a text, not {field!r}", code="SR203")
            continue
        if field in NOT_GENERATED:
            problems.at_key(at, field, f"{field!r} cannot be generated",
                            "the name comes from `name:`'s template; copies and reacts are written once for all"
                            if field != GENERATE else "")
            continue
        if field in item:
            problems.at_key(where, field, f"{field!r} is both generated and written as a field of every entry",
                            f"keep one: generated, at {key_position(document.path, document.tree, at, field)}",
                            code="SR205")
            continue
        if isinstance(written, list):
            axes.append(_listed(field, written, at + [field], problems))
            continue
        match = RANGE.match(str(written))
        if match is None:
            problems.at(at + [field], f"{GENERATE}.{field}: {str(written)[:60]!r} is neither a list of values "
                        "nor a range", "write a list ([S, H, D, C]) or a range of whole numbers (2..14)")
            continue
        low, high = int(match.group(1)), int(match.group(2))
        if low > high:
            problems.at(at + [field], f"{GENERATE}.{field}: the range {low}..{high} is empty: a range counts up",
                        f"write {high}..{low}, or the values as a list in the order wanted")
            continue
        if high - low + 1 > MAX_GENERATED:
            problems.at(at + [field], f"{GENERATE}.{field}: the range {low}..{high} has {high - low + 1} values, "
                        f"more than {MAX_GENERATED}", code="SR703")
            continue
        axes.append(Axis(field, tuple(range(low, high + 1)), tuple(tuple(at + [field]) for _ in range(low, high + 1))))
    if not problems.found and axes:
        size = math.prod(len(a.values) for a in axes)
        if size > MAX_GENERATED:
            problems.at_key(where, GENERATE, f"this `{GENERATE}:` makes {size} entries "
                            f"({' x '.join(str(len(a.values)) for a in axes)}), more than {MAX_GENERATED}",
                            "a deck is a few hundred cards at most; split the list?", code="SR703")
    return axes


def _listed(field: str, written: list, at: list, problems: _Problems) -> Axis:
    """A field's values written as a list; a value listed twice would make two entries alike."""
    seen: dict[tuple[type, Any], int] = {}
    values, places = [], []
    for k, value in enumerate(written):
        value = plain(value)
        first = seen.setdefault((type(value), value), k)
        if first != k:
            problems.at(at + [k], f"{GENERATE}.{field}: {shown(value)} is listed twice",
                        f"first at {problems.document.position(at + [first])}")
            continue
        values.append(value)
        places.append(tuple(at + [k]))
    return Axis(field, tuple(values), tuple(places))


def _template(name: Any, fields: list[str], where: list, problems: _Problems) -> list[tuple[str, str | None]] | None:
    """A name template as pieces: (text, None) or ("", field); `{{` and `}}` are braces."""
    if not isinstance(name, str):
        return None  # the envelope's schema reports it
    pieces: list[tuple[str, str | None]] = []
    start = 0
    for match in _PLACEHOLDER.finditer(name):
        pieces.append((name[start:match.start()], None))
        start = match.end()
        token = match.group()
        if token in ("{{", "}}"):
            pieces.append((token[0], None))
        elif match.group(1) is None:
            problems.at(where + ["name"], f"the name template {name!r} has a lone {token!r} "
                        f"(character {match.start() + 1})", "write {{ or }} for a brace in a name")
            return None
        elif match.group(1).strip() not in fields:
            problems.at(where + ["name"], f"the name template {name!r} names {match.group(1)!r}, "
                        "which is not a generated field", "generated fields: " + ", ".join(fields))
            return None
        else:
            pieces.append(("", match.group(1).strip()))
    pieces.append((name[start:], None))
    if not any(field for _, field in pieces):
        problems.at(where + ["name"], f"the name template {name!r} names no generated field: every entry "
                    "would have this name", "generated fields: " + ", ".join("{" + f + "}" for f in fields))
        return None
    return pieces


# an override's field: its key, its value (as written) and the path of the map that holds it
Change = tuple[str, Any, tuple[str | int, ...]]


def _overrides(item: Any, where: list, axes: list[Axis], problems: _Problems) -> dict[int, dict[str, Change]]:
    """The fields overrides give each entry (by its number in the product order), a later
    override over an earlier one; a `where:` that matches no entry is reported at itself."""
    changes: dict[int, dict[str, Change]] = {}
    by_field = {a.field: a for a in axes}
    work = 0
    for n, override in enumerate(item.get(OVERRIDES) or []):
        at = where + [OVERRIDES, n]
        allowed: list[list[int]] = [list(range(len(a.values))) for a in axes]
        for field, wanted in override[WHERE].items():
            axis = by_field.get(str(field))
            if axis is None:
                problems.at_key(at + [WHERE], str(field), f"`{WHERE}:` names {str(field)!r}, which is not a "
                                "generated field", "generated fields: " + ", ".join(by_field))
                continue
            wanted_values = [plain(v) for v in wanted] if isinstance(wanted, list) else [plain(wanted)]
            index = {(type(v), v): k for k, v in enumerate(axis.values)}
            missing = [v for v in wanted_values if (type(v), v) not in index]
            if missing:
                problems.at(at + [WHERE, field], f"`{WHERE}: {{{field}: {shown(missing[0])}}}` matches no generated "
                            f"entry", f"{field} takes " + ", ".join(shown(v) for v in axis.values[:20]) +
                            (" ..." if len(axis.values) > 20 else ""))
                continue
            allowed[axes.index(axis)] = sorted({index[(type(v), v)] for v in wanted_values})
        for key in override[FIELDS]:
            if str(key) in by_field or str(key) in ("name", GENERATE, OVERRIDES):
                problems.at_key(at + [FIELDS], str(key), f"an override cannot set {str(key)!r}",
                                "the name comes from the template and generated fields from `generate:`; "
                                "an override adds or changes the other fields")
        if problems.found:
            continue
        work += math.prod(len(a) for a in allowed)
        if work > MAX_COMPONENTS:
            problems.at(at, f"the overrides up to here change more than {MAX_COMPONENTS} entries",
                        "fewer overrides, or a field written once for every entry", code="SR703")
            return {}
        for number in _numbers(allowed, [len(a.values) for a in axes]):
            fields = changes.setdefault(number, {})
            for key in override[FIELDS]:
                fields[str(key)] = (str(key), override[FIELDS][key], tuple(at + [FIELDS]))
    return changes


def _numbers(allowed: list[list[int]], sizes: list[int]) -> Iterator[int]:
    """The numbers (in product order) of the entries whose index on each axis is allowed."""
    for indexes in itertools.product(*allowed):
        number = 0
        for index, size in zip(indexes, sizes):
            number = number * size + index
        yield number


def _entry(item: Any, where: list, name: str, axes: list[Axis], indexes: tuple[int, ...],
           changes: dict[str, Change]) -> CommentedMap:
    """One generated entry in the shape of a written one: its name, then the item's keys in
    their order, its `generate:` replaced by the generated fields, the fields overrides add at the end; each key
    placed where its text is (a generated value at its list item or range, an override's field
    in the override)."""
    entry = CommentedMap()
    entry.lc.line, entry.lc.col = item.lc.line, item.lc.col
    generate = item[GENERATE]

    def put(key: str, value: Any, data: list[int]) -> None:
        entry[key] = value
        entry.lc.add_kv_line_col(key, data)

    put("name", name, list(item.lc.data["name"]))  # first, as a written entry starts
    for key in item:
        if key == GENERATE:
            for axis, k in zip(axes, indexes):
                value_line, value_col = _value_place(generate, axis, k)
                put(axis.field, axis.values[k], [*generate.lc.key(axis.field), value_line, value_col])
        elif key in changes:
            put(*_changed(changes.pop(key), item, where))
        elif key not in (OVERRIDES, "name"):
            put(str(key), item[key], list(item.lc.data[key]))
    for change in changes.values():
        put(*_changed(change, item, where))
    return entry


def _value_place(generate: CommentedMap, axis: Axis, k: int) -> tuple[int, int]:
    """Line and column (0-based) of a generated value's text: its list item, or its range."""
    written = generate[axis.field]
    if isinstance(written, CommentedSeq):
        return written.lc.item(axis.places[k][-1])
    return generate.lc.value(axis.field)


def _changed(change: Change, item: Any, where: list) -> tuple[str, Any, list[int]]:
    key, value, holder_path = change
    holder = item
    for step in holder_path[len(where):]:
        holder = holder[step]
    return key, value, list(holder.lc.data[key])


def generated_document(document: YamlDocument, i: int) -> tuple[YamlDocument, CommentedSeq]:
    """A view of `document` whose `components` item `i` can be swapped for each generated entry
    in turn (the returned list), so that everything that finds a place by a path from the top
    (`["components", i, "rank"]`) finds the generated value's text."""
    tree = document.tree
    top = CommentedMap()
    top.lc.line, top.lc.col = tree.lc.line, tree.lc.col
    for key in tree:
        top[key] = tree[key]
        top.lc.add_kv_line_col(key, list(tree.lc.data[key]))
    items = CommentedSeq(tree["components"])
    items.lc.line, items.lc.col = tree["components"].lc.line, tree["components"].lc.col
    for k in range(len(items)):
        items.lc.add_kv_line_col(k, list(tree["components"].lc.data[k]))
    top["components"] = items
    return YamlDocument(document.path, top), items


def names_in(document: YamlDocument) -> list[tuple[str, Position, dict[str, Any]]]:
    """Every generated entry's name in a component list, with the position of its item's name
    template and the entry's fields (for the language server's hovers), in order; an item that
    cannot be expanded gives none."""
    found = []
    items = document.tree.get("components") if isinstance(document.tree, dict) else None
    for i, item in enumerate(items if isinstance(items, list) else []):
        if not is_generator(item) or not isinstance(item.get(GENERATE), dict):
            continue
        try:
            entries, _ = expand(document, ["components", i])
        except (KeyError, TypeError, AttributeError):  # a shape the envelope's schema refuses
            continue
        at = document.position(["components", i, "name"])
        found += [(str(e.entry["name"]), at, plain(e.entry)) for e in entries]
    return found
