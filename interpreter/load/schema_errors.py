"""JSON Schema violations as diagnostics a designer can act on: every violation at its line, each
value reported once, with why it must be otherwise.

jsonschema's `iter_errors` yields every violation with the path to the failing node. A value can
break several rules of its schema at once (`number: '2'` on a special card is not an integer, and
an `if kind is special then number is 0` rule wants 0): those are one mistake, reported once at
the value, with the other rules, the condition that made them apply and the field's description
in the hint. An unknown field is reported at the key itself, with the known field it is closest
to; a misspelt required field (`knid:` for `kind:`) is one mistake, so the "required" error that
follows from it is left out.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from snowrules.language.diagnostics import Diagnostic
from snowrules.load.yaml_files import YamlDocument, key_position, plain

# Rules of a schema about one value (not about a map's keys): those broken at the same value are
# one mistake. The first of them in this order is the message; the others go into the hint.
VALUE_RULES = ("type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
               "minLength", "maxLength", "pattern", "multipleOf", "format")


def dotted(path: list[str | int]) -> str:
    """The default name of a place in a document: `components.2.number`, or `the file`."""
    return ".".join(str(p) for p in path) or "the file"


def schema_errors(document: YamlDocument, schema: dict, node: Any = None, base: list[str | int] | None = None,
                  label: Callable[[list[str | int]], str] = dotted,
                  paths: list[list[str | int]] | None = None) -> list[Diagnostic]:
    """Every violation of `schema` by `node` (by default the whole document), each at its line.

    `base` is where `node` sits in the document; `label` names a place (its path from the
    document's top) in messages; `paths`, when given, receives the place of each diagnostic."""
    base = base or []
    node = document.tree if node is None else node
    validator = Draft202012Validator(schema)
    errors = list(validator.iter_errors(plain(node)))
    unknown: dict[tuple, list[str]] = {}  # path of a map -> its unknown keys
    for error in errors:
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = set(error.schema.get("properties") or {})
            patterns = error.schema.get("patternProperties") or {}
            unknown[tuple(error.absolute_path)] = [
                k for k in error.instance if k not in known and not any(re.search(p, k) for p in patterns)]
    by_value: dict[tuple, list[ValidationError]] = {}
    for error in errors:
        if error.validator in VALUE_RULES:
            by_value.setdefault(tuple(error.absolute_path), []).append(error)
    found: list[Diagnostic] = []

    def add(diagnostic: Diagnostic, where: list[str | int]) -> None:
        found.append(diagnostic)
        if paths is not None:
            paths.append(where)

    for error in errors:
        path = list(error.absolute_path)
        where = base + path
        field = label(where)
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = error.message.split("'")[1] if error.message.count("'") >= 2 else ""
            if difflib.get_close_matches(missing, unknown.get(tuple(path), []), n=1, cutoff=0.6):
                continue  # the misspelt key is reported, at itself
            known = set(error.schema.get("properties") or {})
            close = difflib.get_close_matches(missing, [str(k) for k in error.instance if k not in known],
                                              n=1, cutoff=0.7)
            if close:  # a schema without `additionalProperties: false`: the misspelling is still the key
                add(Diagnostic(key_position(document.path, document.tree, where, close[0]),
                               f"{field}: unknown field {close[0]!r}", f"did you mean {missing!r}?",
                               code="SR201"), where)
                continue
        if error.validator == "additionalProperties" and tuple(path) in unknown:
            properties = list(error.schema.get("properties") or {})
            for key in unknown[tuple(path)]:
                close = difflib.get_close_matches(str(key), properties, n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}?" if close else (
                    f"fields: {', '.join(properties)}" if properties else "")
                add(Diagnostic(key_position(document.path, document.tree, where, key),
                               f"{field}: unknown field {key!r}", hint, code="SR201"), where + [key])
            continue
        if error.validator in VALUE_RULES:
            group = by_value.pop(tuple(path), None)
            if group is None:
                continue  # reported with the first rule broken at this value
            group.sort(key=lambda e: VALUE_RULES.index(e.validator))
            first = group[0]
            add(Diagnostic(document.position(where), f"{field}: {first.message}",
                           _why(schema, group, path), code="SR203" if first.validator == "type" else ""), where)
            continue
        add(Diagnostic(document.position(where), f"{field}: {_excerpted(error.message, error.instance)}"), where)
    return found


def _why(schema: dict, group: list[ValidationError], path: list) -> str:
    """The hint of a wrong value: the rules it breaks (the first is the message: only its
    condition is repeated), the condition under which each applies, the field's description."""
    parts = []
    for index, error in enumerate(group):
        condition = _condition(schema, list(error.schema_path))
        if index == 0:
            unquoted = _unquoted(error)
            if unquoted:
                parts.append(unquoted)
            if condition:
                parts.append(f"this applies {condition}")
            continue
        rule = _rule(error)
        if rule:
            parts.append(f"{rule} {condition}".strip())
    description = _description(schema, path)
    if description:
        parts.append(f"{path[-1]}: {description}")
    return "; ".join(parts)


def _unquoted(error: ValidationError) -> str:
    """A number or true/false written in quotes is a text in YAML: say how to write it."""
    if error.validator != "type" or not isinstance(error.instance, str):
        return ""
    wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    text = error.instance.strip()
    if ("integer" in wanted or "number" in wanted) and re.fullmatch(r"-?\d+(\.\d+)?", text):
        return f"write {text} without quotes"
    if "boolean" in wanted and text.lower() in ("true", "false"):
        return f"write {text.lower()} without quotes"
    return ""


def _rule(error: ValidationError) -> str:
    """A broken rule as what the value must be."""
    value = error.validator_value
    words = {
        "type": f"it must be of type {value!r}",
        "const": f"it must be {value!r}",
        "enum": f"it must be one of {value!r}",
        "minimum": f"it must be at least {value!r}",
        "maximum": f"it must be at most {value!r}",
        "exclusiveMinimum": f"it must be more than {value!r}",
        "exclusiveMaximum": f"it must be less than {value!r}",
        "minLength": f"it must be at least {value!r} characters long",
        "maxLength": f"it must be at most {value!r} characters long",
        "pattern": f"it must match {value!r}",
    }
    return words.get(str(error.validator), "")


def _condition(schema: dict, schema_path: list) -> str:
    """`when kind is 'special'` for a rule found under an `if`'s `then` (`is not` under `else`)."""
    for index in range(len(schema_path) - 1, -1, -1):
        if schema_path[index] in ("then", "else"):
            holder = _follow(schema, schema_path[:index])
            test = holder.get("if") if isinstance(holder, dict) else None
            if not isinstance(test, dict):
                return ""
            words = []
            for key, rule in (test.get("properties") or {}).items():
                if isinstance(rule, dict) and "const" in rule:
                    words.append(f"{key} is {rule['const']!r}")
                elif isinstance(rule, dict) and "enum" in rule:
                    words.append(f"{key} is one of {rule['enum']!r}")
            present = [str(key) for key in test.get("required") or [] if isinstance(key, str)]
            if not words and present and set(test) == {"required"}:  # `if` the entry has these keys
                said = " and ".join(f"`{key}:`" for key in present)
                return f"to an entry with {said}" if schema_path[index] == "then" else f"to an entry without {said}"
            if not words:
                return "under a condition of the schema (`if`)" if schema_path[index] == "then" else ""
            said = " and ".join(words)
            return f"when {said}" if schema_path[index] == "then" else f"unless {said}"
    return ""


def _follow(schema: Any, steps: list) -> Any:
    for step in steps:
        if isinstance(schema, dict):
            schema = schema.get(step)
        elif isinstance(schema, list) and isinstance(step, int) and step < len(schema):
            schema = schema[step]
        else:
            return None
    return schema


def _description(schema: dict, path: list) -> str:
    """The schema's description of a top-level field (what a designer reads to know the value)."""
    if len(path) != 1 or not isinstance(path[0], str):
        return ""
    entry = (schema.get("properties") or {}).get(path[0])
    return str(entry.get("description", "")) if isinstance(entry, dict) else ""


EXCERPT = 60  # characters of an offending value a message quotes


def _excerpted(message: str, instance: Any) -> str:
    """jsonschema's message with the value it quotes cut to a short excerpt: a 5,000-entry list
    that breaks `maxItems` is named by its start and its length, not printed whole."""
    quoted = repr(instance)
    if len(quoted) <= EXCERPT or quoted not in message:
        return message
    size = f", {len(instance)} items" if isinstance(instance, (list, dict)) else ""
    return message.replace(quoted, f"{quoted[:EXCERPT]}... ({len(quoted)} characters{size})")
