"""Constants given other values for one game, from the command line: the axes of `snowrules sweep
--constant NAME=A..B[:STEP]` and `snowrules tune --vary NAME=...`.

A designer asks "where should this number be?" about any number the ruleset fixes: a constant of
a component list (`constants: {track_length: 30}`), a constant of a rules file (`constant bonus =
10`) or a game parameter the manifest declares (an option, with its checks). Each is set here on
a freshly read ruleset, before it is compiled, exactly as a variant file's `constants:` or
`set_options` would set it, so the game played is the game a variant file with these values
plays (tune writes that file). Nothing here plays or compiles.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from snowrules.language import syntax as s
from snowrules.language.diagnostics import SnowrulesError
from snowrules.load.ruleset import Ruleset, set_options

MOST_VALUES = 1000  # values of one axis: a sweep plays --games games at each point
RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?::(-?\d+))?$")
UNKNOWN = object()  # the base value of a rules-file constant written as an expression


class OverrideError(Exception):
    """A wrong axis or value (the command line makes it a usage error)."""


@dataclass(frozen=True)
class Axis:
    """One constant and the values to try, in the order given."""

    name: str
    values: tuple
    is_range: bool  # A..B[:STEP] (whole numbers, a search may pick any step between)
    step: int = 1

    @property
    def low(self):
        return self.values[0]

    @property
    def high(self):
        return self.values[-1]


def parse_axis(text: str, flag: str) -> tuple[str, str]:
    """(name, values text) of `NAME=VALUES`; the values are read against the ruleset (`axis`)."""
    name, equals, values = text.partition("=")
    name, values = name.strip(), values.strip()
    if not equals or not name or not values:
        raise OverrideError(f"{flag} {text!r}: write NAME=A..B[:STEP] or NAME=V1,V2,..., "
                            f"e.g. {flag} hand_size=8..12:2")
    return name, values


def settable(ruleset: Ruleset) -> dict[str, Any]:
    """Every name an axis may vary, with its base value: component-list constants, rules-file
    constants (UNKNOWN when written as an expression) and options."""
    found: dict[str, Any] = {name: value for name, (value, _) in ruleset.constants.items()}
    for rules in ruleset.rules:
        for decl in rules.declarations:
            if isinstance(decl, s.ConstantDecl):
                found[decl.name] = decl.value.value if isinstance(decl.value, s.Literal) else UNKNOWN
    return found


def _shown(value: Any) -> str:
    """A base value as the ruleset writes it (true, 3, 'random')."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


def _kind(value: Any) -> str:
    return {bool: "true or false", int: "a whole number", str: "a text"}.get(type(value), "a value")


def _value(text: str, base: Any, name: str, flag: str) -> Any:
    """One value read as the base value's kind (a whole number, true/false or a text)."""
    text = text.strip()
    if base is UNKNOWN:  # a constant written as an expression: read as the value looks
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        return {"true": True, "false": False}.get(text, text)
    if isinstance(base, bool):
        if text in ("true", "false"):
            return text == "true"
    elif isinstance(base, int):
        if re.fullmatch(r"-?\d+", text):
            return int(text)
    elif isinstance(base, str):
        if text:
            return text
    raise OverrideError(f"{flag} {name}: {text!r} is not {_kind(base)}, as {name} is ({_shown(base)} in the ruleset)")


def axis(ruleset: Ruleset, text: str, flag: str) -> Axis:
    """The axis `NAME=A..B[:STEP]` or `NAME=V1,V2,...` of a constant this ruleset has."""
    name, values = parse_axis(text, flag)
    known = settable(ruleset)
    if name not in known:
        listed = ", ".join(sorted(known)) or "none"
        raise OverrideError(f"{flag} {name}: {ruleset.title} has no constant or option {name!r}; "
                            f"its constants and options: {listed}")
    base = known[name]
    found = RANGE.match(values)
    if found is not None:
        low, high = int(found.group(1)), int(found.group(2))
        step = int(found.group(3)) if found.group(3) is not None else 1
        if isinstance(base, bool) or not (base is UNKNOWN or isinstance(base, int)):
            raise OverrideError(f"{flag} {name}: a range is for whole numbers; {name} is {_kind(base)} "
                                f"({_shown(base)}): list the values, {name}=V1,V2")
        if step < 1:
            raise OverrideError(f"{flag} {text}: the step must be at least 1")
        if low > high:
            raise OverrideError(f"{flag} {text}: {low}..{high} is empty (write the lower end first)")
        if (high - low) // step + 1 > MOST_VALUES:
            raise OverrideError(f"{flag} {text}: more than {MOST_VALUES} values")
        return _checked_option(ruleset, Axis(name, tuple(range(low, high + 1, step)), True, step), flag)
    if ".." in values:
        raise OverrideError(f"{flag} {text}: write a range as A..B or A..B:STEP with whole numbers")
    items = [_value(v, base, name, flag) for v in values.split(",")]
    if len(items) > MOST_VALUES:
        raise OverrideError(f"{flag} {text}: more than {MOST_VALUES} values")
    if len(set(items)) < len(items):
        raise OverrideError(f"{flag} {text}: a value is listed twice")
    return _checked_option(ruleset, Axis(name, tuple(items), False), flag)


def _checked_option(ruleset: Ruleset, found: Axis, flag: str) -> Axis:
    """An option's values checked as `--option` checks them (choices, range), before any game."""
    name = found.name
    if name not in ruleset.options:
        return found
    before = ruleset.option_values[name], ruleset.constants[name]
    try:
        for value in found.values:
            set_options(ruleset, {name: value})
    except SnowrulesError as error:
        problem = error.diagnostics[0]
        hint = f" ({problem.hint})" if problem.hint else ""
        raise OverrideError(f"{flag} {name}: {problem.message}{hint}") from None
    finally:
        ruleset.option_values[name], ruleset.constants[name] = before
    return found


def set_constants(ruleset: Ruleset, values: dict[str, Any]) -> None:
    """Give constants and options these values on a ruleset just read (before compiling it)."""
    options = {name: value for name, value in values.items() if name in ruleset.options}
    if options:
        set_options(ruleset, options)
    for name, value in values.items():
        if name in ruleset.options:
            continue
        if name in ruleset.constants:
            ruleset.constants[name] = (value, ruleset.constants[name][1])
    rest = {name: value for name, value in values.items() if name not in ruleset.options
            and name not in ruleset.constants}
    if not rest:
        return
    for i, rules in enumerate(ruleset.rules):  # `constant x = ...` of a rules file: its value replaced
        declarations = tuple(
            dataclasses.replace(d, value=s.Literal(d.value.pos, rest[d.name]))
            if isinstance(d, s.ConstantDecl) and d.name in rest else d for d in rules.declarations)
        ruleset.rules[i] = dataclasses.replace(rules, declarations=declarations)
