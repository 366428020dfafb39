"""What each seat gets at the end of a game when the manifest declares `returns`.

One place works the manifest's expressions out, so that OpenSpiel's returns, the result that
`run` prints, the means `simulate` reports and a scenario's `expect: returns:` agree. A game
without `returns` has no returns here: its result is its winners and its scores.
"""
from __future__ import annotations

from typing import Any

from snowrules.compile.fuse import PYTHON_ERRORS, rules_error
from snowrules.model.program import Program
from snowrules.model.state import State

VALUE = ("returns", "value")


def declares_returns(program: Program) -> bool:
    return VALUE in program.interface


def evaluate_manifest(program: Program, key: tuple, st: State, bound: Any = None) -> Any:
    """A manifest expression's value, with `p` or `it` bound; its failure is reported at its
    place in the manifest. Counts, bounds and ids are evaluated on an empty state: they may
    use constants and options (and the option `it`), never the game's state."""
    fn, size, slot, position = program.interface[key]
    env = [None] * size
    if slot is not None:
        env[slot] = bound
    try:
        return fn(st, env)
    except PYTHON_ERRORS as error:
        hint = "" if st.zones else "counts, bounds and action ids may use only constants, options and `it`"
        raise rules_error(error, position, "in this manifest expression", hint) from None


def seat_returns(program: Program, st: State) -> list[float] | None:
    """Each seat's declared return once the game is over; None without `returns` or before the end."""
    if st.result is None or not declares_returns(program):
        return None
    return [float(evaluate_manifest(program, VALUE, st, seat)) for seat in range(program.seats)]


def player_returns(program: Program, st: State) -> list[float] | None:
    """Each player's return: the sum of their seats' (one seat each, unless a variant gives more)."""
    seats = seat_returns(program, st)
    if seats is None:
        return None
    return [sum(seats[s] for s in program.seats_of(p)) for p in range(program.players)]
