"""Costs: the `pay` statement, compiled.

`pay` takes units from counters, each unit worth its rate, all or nothing (model/costs.py works
out the ways to pay). With one way it pays at once; with several, the payer (the seat owning the
counters) is asked, the options being the ways, labelled `1 coin + 1 gem` and sorted. A
shortfall (`else subtract N per missing from C`) pays what there is and takes the penalty for
each unit missing from another counter, clamped to its bounds like any counter change.

Every counter change goes through apply.change_counter (the single change point), once per
counter per statement, so each sends its CounterChanged event and runs its `when` rules: those
that run straight through at once, those that may wait right after the statement. A counter
that an event is declared from (`event spent(p, k, n) from counter res`) queues that event with
its change, and the reactions run once the payment is done, after its `when` rules (as after any
statement that raises events: compile/reactions.py).
"""
from __future__ import annotations

from snowrules.compile import apply
from snowrules.compile.closures import Fn, const, constant_in, fail
from snowrules.compile.reactions import ReactionTable
from snowrules.compile.scope import Scope, family_name
from snowrules.compile.steps import Stopped, answered, resumed_answer
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position
from snowrules.model import kinds as t
from snowrules.model.costs import Mode, Payment, TooManyWays, ways_to_pay
from snowrules.model.layout import Layout
from snowrules.model.values import Decision

CAN_PAY_HINT = "offer it only when it can be paid: `where can_pay(...)`"


def may_ask(node: s.Pay) -> bool:
    """Whether a payment may ask its payer: only a choice between several counters can."""
    return not node.single or node.mode != Mode.EXACT.value


def counters_of(node: s.Pay) -> list[str | None]:
    """The counter families a payment changes (for the triggers that watch them)."""
    names = [family_name(source.counter) for source in node.sources]
    if node.shortfall is not None:
        names.append(family_name(node.shortfall.counter))
    return names


class _Penalty:
    """The shortfall: `penalty` per unit missing, taken from counter `ref` within its bounds."""

    def __init__(self, penalty: Fn, ref: Fn, low: int | None, high: int | None, triggers: list,
                 react: tuple = ()):
        self.penalty, self.ref, self.low, self.high, self.triggers = penalty, ref, low, high, triggers
        self.react = react


class PayStep:
    """A payment. As a step it may stop with `st.pending` (the ways to pay) and resumes with the
    chosen way in `st.answer` (`settle_inline`); `native` runs one that cannot ask straight through."""

    def __init__(self, *, mode: Mode, amount: Fn, refs: list[Fn], rates: list[Fn], floors: list[int],
                 triggers: list[list], penalty: _Penalty | None, slot: int | None, variable: str,
                 layout: Layout, position: Position, rate_positions: list[Position],
                 reacts: list[tuple] | None = None, table: ReactionTable | None = None):
        self.mode, self.amount, self.refs, self.rates, self.floors = mode, amount, refs, rates, floors
        # for each counter that pays, the events its changes raise (compile/reactions.py)
        self.reacts, self.table = reacts or [()] * len(refs), table
        self.triggers, self.penalty, self.slot, self.variable = triggers, penalty, slot, variable
        self.position, self.rule, self.rate_positions = position, str(position), rate_positions
        self.labels = layout.counter_labels
        self.owners, self.units = _owners_and_units(layout)
        self.automa = layout.automa

    # ---- working out the ways -------------------------------------------------------------
    def _read(self, st, env) -> tuple[int, list[int], tuple[int, ...], tuple[int, ...]]:
        amount = self.amount(st, env)
        if amount < 0:
            fail(self.position, f"cannot pay a negative amount ({amount})")
        where = [ref(st, env) for ref in self.refs]
        if len(set(where)) < len(where):
            fail(self.position, "a payment names the same counter twice")
        rates = []
        for rate, at in zip(self.rates, self.rate_positions):
            value = rate(st, env)
            if value < 1:
                fail(at, f"a rate is what one unit is worth: a whole number of 1 or more, not {value}")
            rates.append(value)
        holdings = tuple(max(0, st.counters[i] - floor) for i, floor in zip(where, self.floors))
        return amount, where, tuple(rates), holdings

    def _ways(self, st, env) -> tuple[int, list[int], tuple[int, ...], list[Payment]]:
        amount, where, rates, holdings = self._read(st, env)
        try:
            ways = ways_to_pay(amount, holdings, rates, self.mode)
        except TooManyWays as error:
            fail(self.position, f"{error}: give fewer counters or a smaller amount")
        if not ways:
            held = ", ".join(f"{self.labels[i]} (holds {h}) at {r}" for i, h, r in zip(where, holdings, rates))
            fail(self.position, f"cannot pay {'at least ' if self.mode is Mode.AT_LEAST else ''}{amount} "
                 f"using {held}: a payment is all or nothing ({CAN_PAY_HINT})")
        return amount, where, rates, ways

    def _decision(self, amount: int, where: list[int], rates: tuple[int, ...], ways: list[Payment]) -> Decision:
        payers = {self.owners[i] for i in where} - {None}
        if len(payers) != 1:
            fail(self.position, "a payment with a choice needs counters of one player, who chooses: "
                 f"these belong to {len(payers) or 'no'} player{'s' if len(payers) != 1 else ''}")
        names = tuple(self.units[i] for i in where)
        every = self.mode is Mode.UP_TO  # a reduction tells each option's worth; a cost, only overpaying
        options = [{"name": way.label(names, every or way.worth != amount), "id": way.stable_id(amount, rates),
                    "worth": way.worth, "paid": list(way.paid)} for way in ways]
        return Decision([payers.pop()], [options], False, self.rule, self.variable, "value")

    def _at_once(self, st, where: list[int], ways: list[Payment]) -> bool:
        """Whether the payment is made without asking: one way (an explicit game asks even then),
        or the automa pays: no agent plays it, so it takes the first way, in the options' order."""
        if len(ways) == 1 and not st.explicit:
            return True
        return self.automa is not None and bool(where) and self.owners[where[0]] == self.automa

    # ---- paying ---------------------------------------------------------------------------
    def _settle(self, st, env, paid: list[int], worth: int) -> list:
        """Take the units, each counter once (its event, its triggers); the triggered bodies that
        may wait, in the order they were set off."""
        if self.slot is not None:
            env[self.slot] = worth
        waiting = []
        for ref, units, floor, triggers, react in zip(self.refs, paid, self.floors, self.triggers, self.reacts):
            if units:
                i = ref(st, env)
                more = apply.change_counter(st, i, max(st.counters[i] - units, floor), triggers, self.rule, react)
                if more:
                    waiting += more
        return waiting

    def _short(self, st, env) -> list:
        """A shortfall: what there is, then the penalty for each unit missing."""
        amount, _, _, holdings = self._read(st, env)
        paid = min(amount, holdings[0])
        waiting = self._settle(st, env, [paid], paid)
        missing = amount - paid
        if missing:
            penalty = self.penalty
            i = penalty.ref(st, env)
            new = st.counters[i] - penalty.penalty(st, env) * missing
            if penalty.low is not None and new < penalty.low:
                new = penalty.low
            if penalty.high is not None and new > penalty.high:
                new = penalty.high
            waiting += apply.change_counter(st, i, new, penalty.triggers, self.rule, penalty.react) or []
        return waiting

    def settle_inline(self, st, env) -> list | Stopped:
        """The payment straight through: a decision, if any, is answered by `st.decide` at once
        (with no `st.decide`, the game stops there: a steps.Stopped is returned). The triggered
        bodies that may wait, for the caller to run."""
        if st.pending is not None:  # a stopped game resumed at this payment with the chosen way
            answer = resumed_answer(st)
            return self._settle(st, env, answer["paid"], answer["worth"])
        if self.penalty is not None:
            return self._short(st, env)
        amount, where, rates, ways = self._ways(st, env)
        if self._at_once(st, where, ways):
            return self._settle(st, env, list(ways[0].paid), ways[0].worth)
        st.pending = self._decision(amount, where, rates, ways)
        answer = answered(st)
        if answer.__class__ is Stopped:
            return answer
        return self._settle(st, env, answer["paid"], answer["worth"])

    def native(self, st, env) -> None:
        """A payment that cannot ask nor set off a waiting trigger (see compile/ir/effects.py)."""
        self.settle_inline(st, env)

def _owners_and_units(layout: Layout) -> tuple[list[int | None], list[str]]:
    """For each counter: the seat owning it (None: shared) and what one unit is called in a label
    (its key, else its family's name)."""
    owners: list[int | None] = [None] * len(layout.counter_labels)
    units = [""] * len(layout.counter_labels)
    for family in layout.counter_families.values():
        seats = range(layout.seats) if family.per_player else [None]
        for number, owner in enumerate(seats):
            for offset, key in enumerate(family.keys or [None]):
                i = family.base + number * family.width + offset
                if i < len(owners):
                    owners[i], units[i] = owner, key if key is not None else family.name
    return owners, units


class CostStatements:
    """The `_pay` method of StatementCompiler (a payment that cannot wait) and `pay_step`."""

    def _pay(self, node: s.Pay, scope: Scope):
        return self.pay_step(node, scope).native

    def pay_step(self, node: s.Pay, scope: Scope) -> PayStep:
        mode = Mode(node.mode)
        amount = self.x.expect(node.amount, scope, t.INT,
                               "the cap of the reduction" if mode is Mode.UP_TO else "the amount to pay")
        refs, rates, floors, triggers, positions, reacts, families = [], [], [], [], [], [], []
        for source in node.sources:
            ref, family = self.x.counter_ref(source.counter, scope, "what pays")
            families.append(family)
            reacts.append(self._pay_events(family))
            refs.append(ref or const(0))
            floors.append(max(0, family.lower or 0) if family is not None else 0)
            triggers.append(self.triggers.setdefault(family.name, []) if family is not None else [])
            rates.append(self._rate(source, scope))
            positions.append(source.rate.pos if source.rate is not None else source.pos)
        self._payer_known(node, families)
        penalty = None
        if node.shortfall is not None:
            if not node.single or mode is not Mode.EXACT:
                self.diag.error(node.shortfall.pos, "a shortfall is paid from one counter",
                                "write `pay N from COUNTER else subtract M per missing from OTHER`")
            cost = self.x.expect(node.shortfall.penalty, scope, t.INT, "the penalty per missing unit")
            ref, family = self.x.counter_ref(node.shortfall.counter, scope, "what the penalty is taken from")
            if family is not None:
                penalty = _Penalty(cost, ref, family.lower, family.upper,
                                   self.triggers.setdefault(family.name, []), self._pay_events(family))
            else:
                penalty = _Penalty(cost, const(0), None, None, [])
        if mode is Mode.UP_TO and node.var is None:
            self.diag.error(node.pos, "a reduction needs a name for the amount the payer buys",
                            "write `pay up to CAP using ... as NAME`")
        slot = scope.define(node.var, t.INT) if node.var is not None else None
        return PayStep(mode=mode, amount=amount, refs=refs, rates=rates, floors=floors, triggers=triggers,
                       penalty=penalty, slot=slot, variable=node.var or "payment", layout=self.layout,
                       position=node.pos, rate_positions=positions, reacts=reacts,
                       table=self.events.table if any(reacts) or (penalty and penalty.react) else None)

    def _payer_known(self, node: s.Pay, families: list) -> None:
        """A payment that may ask is asked of the player whose counters pay: with none of a
        player's counters among them (counters on components, shared counters) nobody could be
        asked, so it is refused here rather than when a game first reaches it."""
        if not may_ask(node) or not families or any(f is None or f.per_player for f in families):
            return
        kinds = sorted({"a counter on a component" if f.per_component else "a shared counter" for f in families})
        named = ", ".join(repr(f.name) for f in families)
        self.diag.error(node.pos, "a payment with a choice needs counters of one player, who chooses: "
                        f"{named} {'is' if len(families) == 1 else 'are'} {' and '.join(kinds)}",
                        "pay from the player's counters (`p.res[\"k\"]`), or a fixed amount from one counter "
                        "(`pay 2 from d.value`), which asks nobody", code="SR499")

    def _pay_events(self, family) -> tuple:
        """The events a change of this counter family raises, that something reacts to."""
        events = getattr(self, "events", None)
        if family is None or events is None:
            return ()
        return tuple(events.counter_events(family.name))

    def _rate(self, source: s.PaySource, scope: Scope) -> Fn:
        if source.rate is None:
            return const(1)
        rate = self.x.expect(source.rate, scope, t.INT, "a rate")
        fixed = _written_number(source.rate)
        if fixed is None:
            known = constant_in(rate)
            fixed = known[0] if known is not None and isinstance(known[0], int) else None
        if fixed is not None and fixed < 1:
            self.diag.error(source.rate.pos, f"a rate is what one unit is worth: a whole number of 1 or more, "
                            f"not {fixed}")
        return rate


def _written_number(node: s.Node) -> int | None:
    """A whole number written as it is (`2`, `-1`), so a wrong rate is reported before any game."""
    if isinstance(node, s.Unary) and node.op == "neg":
        inner = _written_number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, s.Literal) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None
