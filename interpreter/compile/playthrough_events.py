"""The played-through templates of the statements that run the rules' own routines: payments,
statements that raise events and the reactions they fire, decisions that offer free actions and
`offer free actions to p` (compile/playthrough.py's module docstring says what playing through
is). They are the `_Builder`'s methods, kept here so that each module holds one job: the builder
lays out blocks and control flow, these keep the counts the VM reads from its frames (how many
reactions are running, whether a free action's body is) and run the routines in the VM's order.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.compile.costs import PayStep
from snowrules.compile.free_actions import DONE_INDEX, FREE_KEY, FreeChooseStep, OfferStep, is_free
from snowrules.compile.reactions import Reacting, check_depth, fired_reactions
from snowrules.model.program import Program
from snowrules.model.values import Decision

Run = Callable[[object, list], None]


class EventTemplates:
    """Mixed into playthrough's `_Builder`: it gives `functions` (block id -> generated function),
    `ensure(block_id)`, `program`, `reactions_running` and `free_action_running`."""

    functions: dict[int, Run]
    program: Program
    reactions_running: list[int]
    free_action_running: list[int]

    def ensure(self, block_id: int) -> None:  # pragma: no cover - the builder's own
        raise NotImplementedError

    def pay(self, step: PayStep) -> Run:
        """A payment (compile/costs.py): its decision answered at once, then the triggers it set off
        that may wait, in order, then its reactions (as PayStep does on the VM)."""
        functions, settle = self.functions, step.settle_inline
        for block in trigger_routines(self.program):
            self.ensure(block.id)
        react = self.reactions(step.table, step.position) if step.table is not None else None

        def pay(st, env) -> None:
            waiting = settle(st, env)
            fired = react.fired(st) if react is not None and st.raised else None
            for routine, player_slot, player in waiting:
                local = [None] * routine.env_size
                if player_slot is not None:
                    local[player_slot] = player
                functions[routine.block](st, local)
            if fired:
                react.run(st, fired)
        return pay

    # ---- events and free actions ----------------------------------------------------------
    def reactions(self, table, position) -> _Reactions:
        for block in table.blocks:
            self.ensure(block)
        return _Reactions(table, position, self.functions, self.reactions_running)

    def reacting(self, step: Reacting) -> Run:
        """A statement that raises events (compile/reactions.Reacting): which reactions fire is
        decided once it is done, then the `when` rules it set off run, then the reactions."""
        functions, change = self.functions, step.change
        for block in trigger_routines(self.program):
            self.ensure(block.id)
        react = self.reactions(step.table, step.position)

        def reacting(st, env) -> None:
            waiting = change(st, env)
            fired = react.fired(st) if st.raised else None
            for routine, player_slot, player in waiting or ():
                local = [None] * routine.env_size
                if player_slot is not None:
                    local[player_slot] = player
                functions[routine.block](st, local)
            if fired:
                react.run(st, fired)
        return reacting

    def free_choose(self, step: FreeChooseStep, body) -> Run:
        """A decision that offers free actions (compile/free_actions.FreeChooseStep): asked again
        after each free action taken, until one of its own options is chosen."""
        table, take = step.free, self.free_action_taker(step.free)
        who, source, slot, rule, variable, kind = step.who, step.source, step.slot, step.rule, step.variable, step.kind
        plain = step.count_mode is None and not step.optional
        options, count, none = step.options, step.count, None if step.count_mode is None else []
        up_to, optional, running, counted = step.up_to, step.optional, self.free_action_running, step.count_slot

        def free_choose(st, env) -> None:
            taken = env[counted] or 0  # free actions taken at this decision (a game resumed there: the VM's count)
            env[counted] = None
            while True:
                player = who(st, env)
                found = source(st, env)[:] if plain else options(st, env)
                if not found:
                    env[slot] = none
                    return
                extra = table.allowed(st, player) if not running[0] else []
                if not extra and len(found) == 1 and not st.explicit:
                    answer = found[0]
                    break
                how_many = None if plain or step.count_mode is None else count(st, env)
                st.pending = Decision([player], [found + extra], False, rule, variable, kind, False, how_many,
                                      up_to, optional)
                answer = st.decide(st)
                st.pending = None
                if not is_free(answer):
                    break
                take(st, answer, taken, player, rule)
                taken += 1
            env[slot] = answer
            if body is not None:
                body(st, env)
        return free_choose

    def offer(self, step: OfferStep) -> Run:
        """`offer free actions to p` (compile/free_actions.OfferStep): "done" and the free actions
        allowed, again after each one taken; skipped when none is (and for the automa)."""
        table, take, who, rule, automa = step.free, self.free_action_taker(step.free), step.who, step.rule, step.automa
        running, counted = self.free_action_running, step.count_slot
        done = [{FREE_KEY: DONE_INDEX}]

        def offer(st, env) -> None:
            taken = env[counted] or 0  # as free_choose's
            env[counted] = None
            while True:
                player = who(st, env)
                extra = table.allowed(st, player) if player != automa and not running[0] else []
                if not extra:
                    return
                st.pending = Decision([player], [done + extra], False, rule, FREE_KEY, "value")
                answer = st.decide(st)
                st.pending = None
                if answer[FREE_KEY] == DONE_INDEX:
                    return
                take(st, answer, taken, player, rule)
                taken += 1
        return offer

    def free_action_taker(self, table) -> Callable:
        """Runs a chosen free action's body, counted as running (its decisions offer none)."""
        functions, running = self.functions, self.free_action_running
        for action in table.actions:
            self.ensure(action.routine.block)

        def take(st, option: dict, taken: int, player: int, rule: str) -> None:
            action, local = table.started(st, option, taken, player, rule)
            running[0] += 1
            try:
                functions[action.routine.block](st, local)
            finally:
                running[0] -= 1
        return take


class _Reactions:
    """The reactions of one raising statement, played through: decided, then run in order."""

    def __init__(self, table, position, functions: dict[int, Run], running: list[int]):
        self.table, self.position, self.functions, self.running = table, position, functions, running

    def fired(self, st) -> list:
        queue, fired = fired_reactions(st, self.table)
        if fired:
            check_depth(self.running[0], queue, self.position)
        return fired

    def run(self, st, fired: list) -> None:
        functions, running = self.functions, self.running
        running[0] += 1
        try:
            for reaction, local in fired:
                functions[reaction.block](st, local)
        finally:
            running[0] -= 1


def trigger_routines(program: Program):
    """Every routine a waiting trigger may run (the ROUTINE blocks that are neither the game nor a
    card's effect): built ahead, so that a triggered change finds them."""
    from snowrules.model.program import ROUTINE
    taken = {program.main.block} | {routine.block for routine in program.effects.values()}
    for block in program.blocks:
        if block.kind == ROUTINE and block.id not in taken:
            yield block
