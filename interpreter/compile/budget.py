"""The step budget and the size bounds, as generated loops and draws use them at run time.

The generated code bounds the turns by their number; a loop and a draw count their rounds here,
so that `repeat 1000000000000 times: pass`, a `while true:` around an inner loop or `roll
100000000 dice` stop at the budget instead of running for minutes. A `repeat` or `for each`
charges all its rounds before the first, so the check costs nothing per round.

The lists the rules make are bounded before they are made: a range (`bounded_range`) and a
flatten() (`joined`, `joined_zones`), the one function whose result can be longer than its
argument, so that `xs = flatten([xs, xs])` in a loop is refused at 1,000,000 items (8 MB) instead
of doubling until the machine swaps. Every other list the rules make is at most as long as one
they already hold (a filter, a `[... for each ...]`, sorted(), unique()).

Whole numbers are bounded where they can grow fast: every number written (rules, YAML, a log) lies
within MAX_NUMBER, `+` and `-` add at most a bit a step, and a product (`product`) is refused past
MAX_NUMBER, its operands' sizes checked before it is worked out: `x = x * x` in a loop doubles its
digits each round, and one product of two numbers of millions of digits takes seconds that no
clock can interrupt.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import chain

from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.language.limits import MAX_LIST, MAX_NUMBER, MAX_STEPS, refusal_of_large_number


def over_budget(position: Position, limit: int = MAX_STEPS):
    """The game's step budget (`State.max_steps`, at most MAX_STEPS) is spent at `position`: one
    error wherever it is counted (the turns, a loop's rounds, a roll's dice)."""
    raise RuntimeRulesError.at(position, f"the game ran more than {limit} steps (statements, loop rounds "
                               "and draws) here", "a loop that never ends, or one far too long?", code="SR706")


def no_statement(position: Position, pc: int) -> None:
    """A stopped state's frame names no statement of its block (`pc` below 0, or past its last
    slot): a state not written by snowrules, refused rather than run from a place it never was."""
    raise RuntimeRulesError.at(position, f"a frame of the state is at statement {pc}, which its block "
                               "does not have", "was the state written by snowrules?")


def charge(st, rounds: int, position: Position) -> None:
    """Count `rounds` steps against the budget (a loop's rounds, a roll's dice)."""
    st.steps += rounds
    if st.steps > st.max_steps:
        over_budget(position, st.max_steps)


def charge_lines(rounds: str, where: str, fail: str) -> list[str]:
    """`charge` written into generated code (a call per loop costs more than the check): count
    `rounds` (generated text, evaluated once) and call `fail` (bound to `over_budget`) with
    `where` (bound to the loop's position) past the budget."""
    return [f"st.steps += {rounds}", f"if st.steps > st.max_steps: {fail}({where}, st.max_steps)"]


def too_many(position: Position, size: int, what: str):
    raise RuntimeRulesError.at(position, f"{what} has {size} items, more than {MAX_LIST}", code="SR704")


def bounded_range(start: int, end: int, descending: bool, position: Position) -> list[int]:
    """The list `start..end` (or `start down to end`), refused past MAX_LIST items."""
    size = start - end + 1 if descending else end - start + 1
    if size > MAX_LIST:
        too_many(position, size, "this range")
    return list(range(start, end - 1, -1)) if descending else list(range(start, end + 1))


def joined(lists: list, position: Position) -> list:
    """flatten() of a list of lists: their items in one list, refused past MAX_LIST items (the
    lengths are added up first: a list of a million references to one long list is refused
    without being walked)."""
    size = sum(map(len, lists))
    if size > MAX_LIST:
        too_many(position, size, "the list flatten() makes here")
    return list(chain.from_iterable(lists))


def joined_zones(zones: list[int], st, position: Position) -> list[int]:
    """flatten() of a list of zones: their components in one list, refused past MAX_LIST items
    (a zone may be listed many times)."""
    held = st.zones
    size = sum(len(held[zone]) for zone in zones)
    if size > MAX_LIST:
        too_many(position, size, "the list flatten() makes here")
    return [item for zone in zones for item in held[zone]]


# A product whose operands have fewer bits than this in all is under 2**61 < MAX_NUMBER: no check.
_SMALL_BITS = 61


def division(position: Position, divide: Callable[[int, int], int]):
    """The rules' `/` (`operator.floordiv`: the whole quotient, rounded down) or `%`
    (`operator.mod`, of the sign of the divisor) at `position`: a division by zero refused there."""
    def divided(a: int, b: int) -> int:
        if b == 0:
            raise RuntimeRulesError.at(position, "division by zero")
        return divide(a, b)
    return divided


def product(position: Position):
    """`a * b` for the rules' `*` at `position`: refused past MAX_NUMBER (SR711), before it is
    worked out when the operands are far too big (a sum of bit lengths bounds the product's)."""
    refuse = refusal_of_large_number(position, "this product", "x = x * x")

    def times(a: int, b: int) -> int:
        bits = a.bit_length() + b.bit_length()
        if bits <= _SMALL_BITS:
            return a * b
        value = a * b if bits <= 2 * _SMALL_BITS + 4 else None
        if value is None or not -MAX_NUMBER <= value <= MAX_NUMBER:
            refuse()
        return value
    return times
