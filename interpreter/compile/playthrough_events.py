"""The played-through templates of the statements that run the rules' own routines: payments,
statements that raise events and the reactions they fire, decisions that offer free actions and
`offer free actions to p` (compile/playthrough.py's module docstring says what playing through
is). They are the `_Builder`'s methods, kept here so that each module holds one job: the builder
lays out blocks and control flow, these keep the counts a stopped state's frames hold (how many
reactions are running, whether a free action's body is) and run the routines in their order.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.compile.costs import PayStep
from snowrules.compile.free_actions import DONE_INDEX, FREE_KEY, FreeChooseStep, OfferStep, is_free
from snowrules.compile.reactions import Reacting, check_depth, fired_reactions
from snowrules.compile.steps import Stopped, TriggeredAdd, answered, resumed_answer, routine_env
from snowrules.model.program import Program
from snowrules.model.values import Decision

Run = Callable[[object, list], None]


class EventTemplates:
    """Mixed into playthrough's `_Builder`: it gives `functions` (block id -> generated function),
    `ensure(block_id)`, `program`, `reactions_running`, `free_action_running` and
    `waiting_routines` (None until `after_statement` works them out)."""

    functions: dict[int, Run]
    program: Program
    waiting_routines: list[int] | None
    reactions_running: list[int]
    free_action_running: list[int]

    def ensure(self, block_id: int) -> None:  # pragma: no cover - the builder's own
        raise NotImplementedError

    def pay(self, step: PayStep) -> Run:
        """A payment (compile/costs.py): its decision answered at once (or the game stopped
        there), then the triggers it set off that may wait, in order, then its reactions."""
        settle = step.settle_inline
        after = self.after_statement(step.table, step.position)

        def pay(st, env) -> Stopped | None:
            waiting = settle(st, env)
            if waiting.__class__ is Stopped:
                return waiting
            return after(st, waiting) if waiting or st.raised else None
        return pay

    def after_statement(self, table, position) -> Callable:
        """What runs once a statement is done: the `when` rules it set off that may wait, in
        order, then the reactions to the events it raised (`table`: None when it raises none),
        decided before the first of them runs. When one of them stops the game, the ones after it
        become frames at their start under it (steps.Stopped.waiting), and the stop is returned."""
        functions = self.functions
        if self.waiting_routines is None:  # worked out once a build: a program has many statements
            self.waiting_routines = [block.id for block in trigger_routines(self.program)]
        for block_id in self.waiting_routines:
            self.ensure(block_id)
        react = self.reactions(table, position) if table is not None else None

        def after(st, waiting) -> Stopped | None:
            fired = react.fired(st) if react is not None and st.raised else None
            if waiting:
                for at, (routine, player_slot, player) in enumerate(waiting):
                    stop = functions[routine.block](st, routine_env(routine, player_slot, player))
                    if stop is not None:
                        stop.waiting([*((r.block, routine_env(r, slot, p)) for r, slot, p in waiting[at + 1:]),
                                      *((reaction.block, local) for reaction, local in fired or ())])
                        return stop
            return react.run(st, fired) if fired else None
        return after

    # ---- events and free actions ----------------------------------------------------------
    def reactions(self, table, position) -> _Reactions:
        for block in table.blocks:
            self.ensure(block)
        return _Reactions(table, position, self.functions, self.reactions_running)

    def reacting(self, step: Reacting) -> Run:
        """A statement that raises events (compile/reactions.Reacting): which reactions fire is
        decided once it is done, then the `when` rules it set off run, then the reactions."""
        change, after = step.change, self.after_statement(step.table, step.position)

        def reacting(st, env) -> Stopped | None:
            waiting = change(st, env)
            return after(st, waiting) if waiting or st.raised else None
        return reacting

    def triggered(self, step: TriggeredAdd) -> Run:
        """A counter change whose `when` rules may wait (steps.TriggeredAdd): those it set off
        run after it, in order."""
        change, after = step.change, self.after_statement(None, None)

        def triggered(st, env) -> Stopped | None:
            waiting = change(st, env)
            return after(st, waiting) if waiting else None
        return triggered

    def free_choose(self, step: FreeChooseStep, body) -> Run:
        """A decision that offers free actions (compile/free_actions.FreeChooseStep): asked again
        after each free action taken, until one of its own options is chosen. With nobody to
        answer, the game stops there, the free actions taken so far kept in the environment; one
        resumed there goes on with its answer."""
        table, take = step.free, self.free_action_taker(step.free)
        who, source, slot, rule, variable, kind = step.who, step.source, step.slot, step.rule, step.variable, step.kind
        plain = step.count_mode is None and not step.optional
        options, count, none = step.options, step.count, None if step.count_mode is None else []
        up_to, optional, running, counted = step.up_to, step.optional, self.free_action_running, step.count_slot

        def free_choose(st, env) -> Stopped | None:
            taken = env[counted] or 0  # free actions taken at this decision (a game resumed there: its count)
            env[counted] = None
            while True:
                if st.pending is not None:  # resumed at this decision with its answer
                    player, answer = st.pending.seats[0], resumed_answer(st)
                else:
                    player = who(st, env)
                    found = source(st, env)[:] if plain else options(st, env)
                    if not found:
                        env[slot] = none
                        return None
                    extra = table.allowed(st, player) if not running[0] else []
                    if not extra and len(found) == 1 and not st.explicit:
                        answer = found[0]
                        break
                    how_many = None if plain or step.count_mode is None else count(st, env)
                    st.pending = Decision([player], [found + extra], False, rule, variable, kind, False, how_many,
                                          up_to, optional)
                    answer = answered(st)
                    if answer.__class__ is Stopped:
                        env[counted] = taken or None
                        return answer
                if not is_free(answer):
                    break
                stop = take(st, answer, taken, player, rule, env, counted)
                if stop is not None:
                    return stop
                taken += 1
            env[slot] = answer
            return None if body is None else body(st, env)
        return free_choose

    def offer(self, step: OfferStep) -> Run:
        """`offer free actions to p` (compile/free_actions.OfferStep): "done" and the free actions
        allowed, again after each one taken; skipped when none is (and for the automa). It stops
        and resumes as `free_choose`."""
        table, take, who, rule, automa = step.free, self.free_action_taker(step.free), step.who, step.rule, step.automa
        running, counted = self.free_action_running, step.count_slot
        done = [{FREE_KEY: DONE_INDEX}]

        def offer(st, env) -> Stopped | None:
            taken = env[counted] or 0  # as free_choose's
            env[counted] = None
            while True:
                if st.pending is not None:
                    player, answer = st.pending.seats[0], resumed_answer(st)
                else:
                    player = who(st, env)
                    extra = table.allowed(st, player) if player != automa and not running[0] else []
                    if not extra:
                        return None
                    st.pending = Decision([player], [done + extra], False, rule, FREE_KEY, "value")
                    answer = answered(st)
                    if answer.__class__ is Stopped:
                        env[counted] = taken or None
                        return answer
                if answer[FREE_KEY] == DONE_INDEX:
                    return None
                stop = take(st, answer, taken, player, rule, env, counted)
                if stop is not None:
                    return stop
                taken += 1
        return offer

    def free_action_taker(self, table) -> Callable:
        """Runs a chosen free action's body, counted as running (its decisions offer none). When
        the body stops the game, the decision that offered it is asked again once it is done
        (steps.Stopped.again), the free actions taken there counted in its environment."""
        functions, running = self.functions, self.free_action_running
        for action in table.actions:
            self.ensure(action.routine.block)

        def take(st, option: dict, taken: int, player: int, rule: str, env: list, counted: int) -> Stopped | None:
            action, local = table.started(st, option, taken, player, rule)
            running[0] += 1
            try:
                stop = functions[action.routine.block](st, local)
            finally:
                running[0] -= 1
            if stop is not None:
                env[counted] = taken + 1
                stop.again = True
            return stop
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

    def run(self, st, fired: list) -> Stopped | None:
        functions, running = self.functions, self.running
        running[0] += 1
        try:
            for at, (reaction, local) in enumerate(fired):
                stop = functions[reaction.block](st, local)
                if stop is not None:  # the reactions after it wait at their start
                    stop.waiting([(after.block, env) for after, env in fired[at + 1:]])
                    return stop
        finally:
            running[0] -= 1
        return None


def trigger_routines(program: Program):
    """Every routine a waiting trigger may run (the ROUTINE blocks that are neither the game nor a
    card's effect): built ahead, so that a triggered change finds them."""
    from snowrules.model.program import ROUTINE
    taken = {program.main.block} | {routine.block for routine in program.effects.values()}
    for block in program.blocks:
        if block.kind == ROUTINE and block.id not in taken:
            yield block
