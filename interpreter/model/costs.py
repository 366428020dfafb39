"""The ways to pay a cost from several counters, each unit worth its rate: pure functions.

A payment is how many units each counter gives (`paid`, one number per counter, in the order the
rules list them) and what they are worth together (`worth`: the sum of units times rates). Three
modes say which payments a statement accepts:

- exact: worth equal to the amount. A unit worth 2 never pays a cost of 1: the payer may not
  overpay, as a reduction that "cannot exceed" its cap says;
- at least: worth of the amount or more, with nothing to spare (taking back any one unit leaves
  less than the amount), so a payment that gives more than another for the same purpose is never
  offered;
- up to: every worth from the cap down to 0, each exactly (a reduction the payer buys).

Each payment has a stable id (mixed radix over the counters, each digit from 0 to the most units
of that counter the amount could take), which depends on the payment alone, never on what else
the payer could afford: an OpenSpiel action id (`value: it.id`) or a test can name it.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_WAYS = 10_000  # a payment with more ways than this stops the game with an error at the statement
MAX_LOOKED_AT = 200_000  # partial payments looked through (rates that never add up to the amount)


class Mode(StrEnum):
    EXACT = "exact"
    AT_LEAST = "at least"
    UP_TO = "up to"


@dataclass(frozen=True, slots=True)
class Payment:
    """Units given by each counter (in the rules' order) and their worth."""

    paid: tuple[int, ...]
    worth: int

    def stable_id(self, amount: int, rates: tuple[int, ...]) -> int:
        """The payment's number among every payment of `amount` at `rates`, whatever is held."""
        number, radix = 0, 1
        for units, rate in zip(self.paid, rates):
            number += units * radix
            radix *= amount // rate + 2  # at least: one unit more than the amount may be given
        return number

    def label(self, names: tuple[str, ...], shown_worth: bool) -> str:
        """`1 coin + 1 gem`, `nothing`; with its worth when it is not the amount (`1 gem = 2`)."""
        parts = [f"{units} {name}" for units, name in zip(self.paid, names) if units]
        text = " + ".join(parts) or "nothing"
        return f"{text} = {self.worth}" if shown_worth else text


PAYMENT_FIELDS = frozenset(("name", "id", "worth", "paid"))


def payment_id(option) -> int | None:
    """The stable id of an option that is a way to pay (the record a payment decision offers:
    `{name, id, worth, paid}`), None for any other option."""
    if option.__class__ is dict and option.keys() == PAYMENT_FIELDS:
        return option["id"]
    return None


class TooManyWays(ValueError):
    """More payments than MAX_WAYS: the statement is refused rather than listing them all."""


def ways_to_pay(amount: int, holdings: tuple[int, ...], rates: tuple[int, ...], mode: Mode) -> list[Payment]:
    """Every accepted payment of `amount` from counters holding `holdings` units at `rates` (each
    1 or more), sorted: for `up to`, the highest worth first; then most of the first counter,
    then of the second, and so on (the rules list the counters in the order a payer prefers)."""
    found: list[Payment] = []
    count = len(rates)
    target = max(amount, 0)
    looked = [0]

    def extend(index: int, paid: list[int], worth: int) -> None:
        looked[0] += 1
        if looked[0] > MAX_LOOKED_AT:
            raise TooManyWays(f"more than {MAX_LOOKED_AT} partial ways to look through to pay {amount}")
        if index == count:
            if _accepted(worth, paid, rates, target, mode):
                found.append(Payment(tuple(paid), worth))
                if len(found) > MAX_WAYS:
                    raise TooManyWays(f"more than {MAX_WAYS} ways to pay {amount}")
            return
        rate = rates[index]
        room = target - worth if mode is not Mode.AT_LEAST else target - worth + rate - 1
        most = min(holdings[index], max(room, 0) // rate)
        for units in range(most, -1, -1):
            paid.append(units)
            extend(index + 1, paid, worth + units * rate)
            paid.pop()

    extend(0, [], 0)
    if mode is Mode.UP_TO:
        found.sort(key=lambda p: -p.worth)  # stable: within one worth, the order above
    return found


def _accepted(worth: int, paid: list[int], rates: tuple[int, ...], amount: int, mode: Mode) -> bool:
    if mode is Mode.EXACT:
        return worth == amount
    if mode is Mode.UP_TO:
        return worth <= amount
    return worth >= amount and all(worth - rate < amount for units, rate in zip(paid, rates) if units)


def can_pay(amount: int, holdings: tuple[int, ...], rates: tuple[int, ...]) -> bool:
    """Whether some payment is worth exactly `amount` (subset sums: no list of payments built)."""
    if amount < 0:
        return False
    reachable = 1  # bit w set: worth w can be paid
    mask = (1 << (amount + 1)) - 1
    for held, rate in zip(holdings, rates):
        step = reachable
        for _ in range(min(max(held, 0), amount // rate)):
            step = (step << rate) & mask
            reachable |= step
    return bool(reachable >> amount & 1)
