"""The smallest pieces of compiled rules: closures `fn(state, env) -> value` and what the
compiler may learn from them (a constant's value, a local variable's slot)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snowrules.language.diagnostics import Position, RuntimeRulesError

Fn = Callable[[Any, list], Any]


def const(value: Any) -> Fn:
    """A closure giving a value known while compiling; consumers may read `.constant` instead."""
    fn = lambda st, env: value  # noqa: E731 - an attribute is set on it
    fn.constant = (value,)
    return fn


def local(slot: int) -> Fn:
    """A closure reading a local slot; consumers may read `.slot` and index `env` themselves."""
    fn = lambda st, env: env[slot]  # noqa: E731
    fn.slot = slot
    return fn


def slot_of(fn: Fn) -> int | None:
    return getattr(fn, "slot", None)


def constant_in(fn: Fn) -> tuple | None:
    return getattr(fn, "constant", None)


def fail(position: Position, message: str):
    raise RuntimeRulesError.at(position, message)
