"""The played-through templates of decisions (compile/playthrough.py's module docstring says what
playing through is): one seat's choice of one item, each seat's at once, `up to N` / `exactly N`,
each written inline where it can be (a random agent's draw, a single option taken) and asked
through ChooseStep otherwise. They are the `_Builder`'s methods, kept here so that each module
holds one job.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.compile import fuse
from snowrules.compile.closures import constant_in
from snowrules.compile.steps import FEW_ITEMS, ChooseStep, Stopped, index_combinations, resumed_answer
from snowrules.model.rng import seat_draw_text


class ChoiceTemplates:
    """Mixed into playthrough's `_Builder`: it gives `bound`, `value`, `call`, `answered`,
    `checked`, `checked_value`, `each_answered` and `stoppable`."""

    stoppable: bool

    def choose_one_lines(self, step: ChooseStep, ns: dict) -> list[str]:
        """One seat's choice of one item, written inline (ChooseStep.played_through_one as
        lines: no call for the decision, and the lines of what follows it in place): a single
        option is taken, a random agent (st.draws) draws from the option count, any other agent
        is asked through ChooseStep.ask_one. The options are not copied (an optional choice's
        are the items and none, `offered`)."""
        player, found, slot = fuse.fresh(), fuse.fresh(), int(step.slot)
        body = self.body_lines(step, ns)
        drawn = seat_draw_text(player, f"len({found})")
        asking = [f"{player} = {self.value(step.who, ns)}",
                  f"{found} = {self.offered(step, ns)}",
                  f"if not {found}:",
                  f"    env[{slot}] = None",
                  "else:",
                  f"    if len({found}) == 1 and not st.explicit: env[{slot}] = {found}[0]",
                  f"    elif st.draws is not None: env[{slot}] = {found}[{drawn}]",
                  "    else:",
                  *fuse.indent(fuse.indent(self.checked_value(f"env[{slot}]", f"{self.bound(step.ask_one, ns)}"
                                                                              f"(st, {player}, {found})", ns)))]
        if not self.stoppable:
            return [*asking, *fuse.indent(body)]
        # a stopped game resumed at this decision takes its answer, its options not worked out again
        return ["if st.pending is not None:",
                f"    env[{slot}] = {self.bound(resumed_answer, ns)}(st)",
                f"    {found} = True",
                "else:",
                *fuse.indent(asking),
                f"if {found}:",
                *fuse.indent(body)]

    def choose_each_lines(self, step: ChooseStep, ns: dict) -> list[str]:
        """Each seat's choice of one item at once, written inline as `choose_one_lines`: the
        seats with options, each with its options (one pair a seat: one list to build and go
        through, no zip), their answers (each taken, drawn or asked through
        ChooseStep.ask_each), then what follows for each seat in turn."""
        pairs, forced, answered = fuse.fresh(), fuse.fresh(), fuse.fresh()
        seat, found, answer = fuse.fresh(), fuse.fresh(), fuse.fresh()
        seat_slot, slot = int(step.player_slot), int(step.slot)
        body = self.body_lines(step, ns)
        if self.stoppable:  # a stopped game resumed here takes its answers, the options not worked out again
            answering = self.each_answered(step, answered, seat, answer, seat_slot, slot, body, ns)
            return [f"{answered} = None",
                    "if st.pending is not None:",
                    f"    {answered} = list(zip(st.pending.seats, {self.bound(resumed_answer, ns)}(st)))",
                    "else:",
                    *fuse.indent(self.gathered_each(step, pairs, forced, answered, seat, found, ns)),
                    f"if {answered}:",
                    *answering]
        return [*self.gathered_each(step, pairs, forced, answered, seat, found, ns),
                *self.each_answered(step, answered, seat, answer, seat_slot, slot, body, ns)]

    def gathered_each(self, step: ChooseStep, pairs: str, forced: str, answered: str, seat: str, found: str,
                      ns: dict) -> list[str]:
        """The seats with options of a decision of each seat at once and their answers (each
        taken, drawn or asked through ChooseStep.ask_each), the lines of `choose_each_lines`;
        what follows the answers goes inside the last `if`."""
        seat_slot = int(step.player_slot)
        return [f"{pairs}, {forced} = [], True",
                f"for {seat} in {self.value(step.who, ns)}:",
                *_options_of_seat(self.offered(step, ns), seat, seat_slot, found),
                f"    if {found}:",
                f"        {pairs}.append(({seat}, {found}))",
                f"        if len({found}) != 1: {forced} = False",
                f"if {pairs}:",
                f"    if {forced} and not st.explicit:"
                f" {answered} = [({seat}, {found}[0]) for {seat}, {found} in {pairs}]",
                # the seats' draws as a plain loop: in Python 3.11 a comprehension is a call
                "    elif st.draws is not None:",
                f"        {answered} = []",
                f"        for {seat}, {found} in {pairs}:"
                f" {answered}.append(({seat}, {found}[{seat_draw_text(seat, f'len({found})')}]))",
                "    else:",
                *fuse.indent(fuse.indent(self.checked_value(answered, f"{self.bound(_asked_each(step.ask_each), ns)}"
                                                                      f"(st, {pairs})", ns)))]

    def offered(self, step: ChooseStep, ns: dict) -> str:
        """The options of a decision of one item, as ChooseStep.options makes them: the items,
        and none after them when the choice is optional (a new list, so never empty)."""
        items = self.value(step.source, ns)
        return f"({items} + [None])" if step.optional else items

    def played_through_lines(self, step: ChooseStep, ns: dict) -> list[str]:
        """A decision as ChooseStep.played_through asks it, what follows as a function."""
        return self.checked(f"{self.bound(step.played_through, ns)}(st, env, {self.bound(self.answered(step), ns)})")

    def body_lines(self, step: ChooseStep, ns: dict) -> list[str]:
        """The lines of what follows a decision's answer: its native statements in place, or a
        call of its block's function."""
        if step.native_body is not None:
            body, body_ns, _ = fuse.block_code(step.native_body)
            ns.update(body_ns)
            return body
        return ["pass"] if step.block is None else self.checked(self.call(step.block, ns))

    def choose_count_lines(self, step: ChooseStep, ns: dict) -> list[str]:
        """One seat's `up to N` / `exactly N` decision (or an optional one), written inline for
        a random agent among at most FEW_ITEMS items: the combinations' positions looked up
        (steps.index_combinations, as ChooseStep._draw_combination does: the same draw), the
        answer bound and what follows in place. Any other case is
        ChooseStep.played_through_one, with what follows as a function."""
        if step.count_mode is None:
            return self.played_through_lines(step, ns)
        player, items, count, length, table, total = (fuse.fresh() for _ in range(6))
        slot = int(step.slot)
        if step.count_mode == "exactly":
            sizes = f"{count}, {count} + 1, 1) if {count} <= {length} else ()"
        else:
            sizes = f"min({count}, {length}), -1, -1)"
        combinations = self.bound(index_combinations, ns)
        tables = _combination_tables(step.count_mode, constant_in(step.count))
        if tables is not None:  # a constant count: the positions for each item count, listed here
            looked_up = [f"    {table} = {self.bound(tables, ns)}[len({items})]"]
        else:
            looked_up = [f"    {count} = {self.value(step.count, ns)}",
                         f"    {length} = len({items})",
                         f"    {table} = {combinations}({length}, {sizes}"]
        return [f"{player} = {self.value(step.who, ns)}",
                f"{items} = {self.value(step.source, ns)} if st.draws is not None and not st.explicit else None",
                f"if {items} is not None and len({items}) <= {int(FEW_ITEMS)}:",
                *looked_up,
                f"    {total} = len({table})",
                f"    if {total} == 0:",
                f"        env[{slot}] = []",
                "    else:",
                f"        env[{slot}] = [{items}[_i] for _i in {table}[0 if {total} == 1 else "
                f"{seat_draw_text(player, total)}]]",
                *fuse.indent(fuse.indent(self.body_lines(step, ns))),
                "else:",
                *fuse.indent(self.checked(f"{self.bound(step.played_through_one, ns)}(st, env, {player}, "
                                          f"{self.bound(self.answered(step), ns)})"))]


def _asked_each(ask_each: Callable) -> Callable:
    """ChooseStep.ask_each for (seat, options) pairs, answering (seat, answer) pairs."""
    def asked(st, pairs: list[tuple]) -> list[tuple] | Stopped:
        seats = [seat for seat, _ in pairs]
        answers = ask_each(st, seats, [options for _, options in pairs])
        return answers if answers.__class__ is Stopped else list(zip(seats, answers))
    return asked


def _options_of_seat(source: str, seat: str, seat_slot: int, found: str) -> list[str]:
    """A seat's options gathered for a simultaneous decision, as lines of its loop over the
    seats: the options' expression reads the seat from the loop's own name, unless it calls a
    closure (which reads it from the environment). The environment gets each seat anyway
    before what follows its answer runs."""
    if "(st, env)" in source:
        return [f"    env[{seat_slot}] = {seat}", f"    {found} = {source}"]
    return [f"    {found} = {source.replace(f'env[{seat_slot}]', seat)}"]


def _combination_tables(mode: str, constant: tuple | None) -> tuple | None:
    """For an `up to N` / `exactly N` decision whose N is a constant whole number, the positions
    of its answers for each item count from 0 to FEW_ITEMS (steps.index_combinations, in its
    order: the same draw picks the same answer), so that a random answer needs no call to list
    them; None for any other count."""
    if constant is None or type(constant[0]) is not int or constant[0] < 0:
        return None
    count = constant[0]
    if mode == "exactly":
        return tuple(index_combinations(length, count, count + 1, 1) if count <= length else ()
                     for length in range(FEW_ITEMS + 1))
    return tuple(index_combinations(length, min(count, length), -1, -1) for length in range(FEW_ITEMS + 1))
