"""How a component reads to a person: a component list's `label:` template, read and checked.

A component's name says which it is ("red die", "space 2"), not what matters about it when a
person must choose: the face a die shows, what a space costs. A component list may say how its
components read, with values:

    schema: die.schema.json
    per_seat: true
    label: "{owner} die showing {value}"
    components: ...

Each `{NAME}` is, when the component is shown, one of: `name` (the entry's name), `owner` (the
seat a per-seat component belongs to), a field of the entry, or a counter the rules put on the
component (`counter value per component of kind die`), read at that moment. `{{` and `}}` are
braces. Every name is checked when the ruleset is read: a name no entry has and no counter of the
rules puts on the list's components, or one that some entries lack, is refused at its column.

Only what people read uses a label: the terminal's options, the browser, an adapter's action
strings. A log keeps the plain names, so that logs replay and stay byte-identical.
"""
from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position

LABEL = "label"     # the component list's key
BUILT_IN = ("name", "owner")
CODE = "SR213"


@dataclass(frozen=True, slots=True)
class LabelTemplate:
    """A parsed `label:`: text pieces, each followed by the name of a value (or None at the end).
    `columns` holds where each name is written, for messages."""

    text: str
    parts: tuple[tuple[str, str | None], ...]
    columns: tuple[Position, ...]
    position: Position

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for _, name in self.parts if name is not None)

    def render(self, value_of: Callable[[str], Any]) -> str:
        """The label with each name's value as a person reads it (a list joined by commas, a
        truth as yes or no, nothing as "none"). `value_of` reads a name's first part; the rest
        of a path (`squares.0.features`) is looked up in that value."""
        def value(path: str) -> Any:
            first, *rest = path.split(".")
            return descend(value_of(first), rest)
        return "".join(text + ("" if name is None else shown(value(name))) for text, name in self.parts)


MISSING = object()


def descend(value: Any, keys: list[str]) -> Any:
    """A part of a field's value along a path's keys: a map's key, a list's index (from 0);
    MISSING when the path leads nowhere."""
    for key in keys:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and key.isdecimal() and int(key) < len(value):
            value = value[int(key)]
        else:
            return MISSING
    return value


def shown(value: Any) -> str:
    """A field's or counter's value in a label."""
    if value is None or value is MISSING:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value) if value else "none"
    return str(value)


def read_label(text: Any, at: Position, problems: Diagnostics) -> LabelTemplate | None:
    """A list's `label:` text (at `at`, the first character of the text) as a template, or None
    with the problem reported: unbalanced braces, a conversion or format (`{value!r}`,
    `{value:>3}`), an empty or dotted name."""
    if not isinstance(text, str) or not text.strip():
        problems.error(at, "label: the template is empty", 'write how a component reads, e.g. "{name} costs {cost}"',
                       code=CODE)
        return None
    lone = _lone_brace(text)
    if lone is not None:
        problems.error(Position(at.path, at.line, at.col + lone), f"label: a lone {text[lone]!r} in {text!r}",
                       "write a value's name in braces, {cost}, and a brace itself as {{ or }}", code=CODE)
        return None
    pieces = list(string.Formatter().parse(text))
    parts, columns, offset = [], [], 0
    for literal, name, spec, conversion in pieces:
        offset += len(literal.replace("{", "{{").replace("}", "}}"))
        if name is None:
            parts.append((literal, None))
            continue
        column = Position(at.path, at.line, at.col + offset)
        first, *rest = name.split(".")
        if not first.isidentifier() or not all(k.isidentifier() or k.isdecimal() for k in rest) or spec or conversion:
            written = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            problems.error(column, f"label: {{{written}}} is not a value's name",
                           "write a field's or counter's name alone in braces, e.g. {cost}, or a path into "
                           "a field, e.g. {squares.0.features}", code=CODE)
            return None
        parts.append((literal, name))
        columns.append(column)
        offset += len(name) + 2
    return LabelTemplate(text, tuple(parts), tuple(columns), at)


def _lone_brace(text: str) -> int | None:
    """The index of the first brace that neither pairs with another (`{{`, `}}`) nor encloses a
    name (`{cost}`), or None."""
    i = 0
    while i < len(text):
        if text.startswith(("{{", "}}"), i):
            i += 2
        elif text[i] == "}":
            return i
        elif text[i] == "{":
            end = text.find("}", i)
            if end < 0 or "{" in text[i + 1:end]:
                return i
            i = end + 1
        else:
            i += 1
    return None


def check_labels(components: Iterable[Any], rules: Iterable[s.RulesFile], problems: Diagnostics) -> None:
    """Every name of every list's label is a built-in name, a field of each of the list's entries,
    or a counter the rules put on each of them; otherwise an error at the name's column."""
    counters = {d.name: d.per_component.kinds for f in rules for d in f.declarations
                if isinstance(d, s.CounterDecl) and d.per_component is not None}
    by_template: dict[int, tuple[LabelTemplate, list[Any]]] = {}
    for component in components:
        template = getattr(component, "label", None)
        if template is not None:
            by_template.setdefault(id(template), (template, []))[1].append(component)
    for template, entries in by_template.values():
        for name, column in zip(template.names, template.columns):
            lacking = [e.name for e in entries if not _has(e, name, counters)]
            if not lacking:
                continue
            field_name = name.split(".")[0]
            if "." in name and any(field_name in e.fields for e in entries):
                problems.error(column, f"label: {name!r} leads to no value in "
                               f"{'any entry' if len(lacking) == len(entries) else ', '.join(map(repr, lacking[:3]))}",
                               f"a path reads a field's map keys and list places (from 0): "
                               f"{field_name}.0, {field_name}.KEY", code=CODE)
            elif len(lacking) == len(entries):
                known = sorted({f for e in entries for f in e.fields} | {"name"}
                               | ({"owner"} if entries[0].per_seat else set())
                               | {c for c in counters if all(_has(e, c, counters) for e in entries)})
                problems.error(column, f"label: unknown field {name!r}: no entry of this list has it and no "
                               "counter of the rules is on its components",
                               f"the names a label may use here: {', '.join(known)}", code=CODE)
            else:
                problems.error(column, f"label: {name!r} is not a field or counter of every entry "
                               f"(not of {', '.join(repr(n) for n in lacking[:3])}"
                               f"{', ...' if len(lacking) > 3 else ''})",
                               "give every entry the field, or write the label without it", code=CODE)


def _has(component: Any, path: str, counters: dict[str, tuple[str, ...]]) -> bool:
    name, *rest = path.split(".")
    if rest:  # a path into a field: the field's value is known now, so the whole path is checked
        return name in component.fields and descend(component.fields[name], rest) is not MISSING
    if name == "name" or (name == "owner" and component.per_seat) or name in component.fields:
        return True
    if name in counters:
        kinds = counters[name]
        return not kinds or component.fields.get("kind") in kinds
    return False
