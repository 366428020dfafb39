"""`--constant NAME=VALUE` on run, simulate and compare (and `--other-constant` on compare's
compared side): try another value of one constant without writing a variant file.

A constant comes from a component file's `constants:` (any YAML value) or from a rules file's
`constant NAME = VALUE` (a number, a text, true or false). The value is read as YAML reads it
(`3`, `true`, `[1, 2]`, `red`), and must be of the kind the ruleset gives the constant: a
constant read as a number where the rules compare it cannot silently become a text. An option is
set with --option (its range and choices are checked there); a name that is neither is a wrong
argument with the close names. The commands say each ConstantError as a usage error (exit 2),
before a game; a simulation's workers set the same (name, value) pairs on their own copy
(play/batch.py), through the one function that sets a constant (load/overrides.py).
"""
from __future__ import annotations

import dataclasses
import difflib
import json
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from snowrules.language import syntax as s
from snowrules.load.overrides import set_constants as apply_values
from snowrules.load.ruleset import Ruleset


class ConstantError(ValueError):
    """A `NAME=VALUE` that cannot be set: its message says why and what would do."""


KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a text", list: "a list",
         dict: "a map", type(None): "none"}


def set_constants(ruleset: Ruleset, texts: list[str], flag: str = "--constant") -> Ruleset:
    """The ruleset with each `NAME=VALUE` of `texts` checked and set (component-file constants in
    its `constants`, rules-file constants in their declaration; `constants_set` lists them); the
    read ruleset is left as it was."""
    if not texts:
        return ruleset
    declared = _rules_constants(ruleset)
    constants = ruleset.constants
    given: dict[str, Any] = {}
    for text in texts:
        name, equals, raw = text.partition("=")
        name = name.strip()
        if not equals or not name:
            raise ConstantError(f"{flag} {text!r}: write NAME=VALUE, e.g. {flag} hand_size=6")
        if name in ruleset.options:
            raise ConstantError(f"{flag} {name}: {name} is an option of {ruleset.title}: "
                                f"set it with --option {name}=VALUE")
        try:
            value = YAML(typ="safe", pure=True).load(raw) if raw.strip() else ""
        except YAMLError:
            raise ConstantError(f"{flag} {name}: {raw!r} is not a value "
                                "(a number, true/false, a text or a list)") from None
        if name in constants:
            old = constants[name][0]
            _same_kind(flag, name, old, value)
        elif name in declared:
            old = declared[name].value
            if not isinstance(value, (bool, int, str)):
                raise ConstantError(f"{flag} {name}: a constant of the rules is a number, a text or true/false, "
                                 f"not {KINDS.get(type(value), type(value).__name__)}")
            if isinstance(old, s.Literal):
                _same_kind(flag, name, old.value, value)
        else:
            known = sorted((set(constants) | set(declared)) - set(ruleset.options))
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConstantError(f"{flag}: {ruleset.title} has no constant {name!r} ({hint}its constants: "
                             f"{', '.join(known) or 'none'})")
        given[name] = value
    copy = dataclasses.replace(ruleset, constants=dict(constants), rules=list(ruleset.rules),
                               constants_set=ruleset.constants_set + tuple(given.items()))
    apply_values(copy, given)  # as a sweep's values are set (load/overrides.py): one way to set them
    return copy


def constant_text(name: str, value: Any) -> str:
    """`NAME=VALUE` as --constant takes it (YAML's spelling of the value)."""
    if isinstance(value, bool) or value is None:
        shown = {True: "true", False: "false", None: "null"}[value]
    else:
        shown = value if isinstance(value, str) else json.dumps(value)  # JSON is YAML's flow style
    return f"{name}={shown}"


def _same_kind(flag: str, name: str, old: Any, value: Any) -> None:
    if type(old) is type(value) or (type(old) is float and type(value) is int):
        return
    raise ConstantError(f"{flag} {name}: {value!r} is {KINDS.get(type(value), type(value).__name__)}, but {name} is "
                     f"{KINDS.get(type(old), type(old).__name__)} ({old!r} in the ruleset)")


def _rules_constants(ruleset: Ruleset) -> dict[str, s.ConstantDecl]:
    return {d.name: d for rules_file in ruleset.rules for d in rules_file.declarations
            if isinstance(d, s.ConstantDecl)}
