"""Steps: compiled statements that run blocks or wait for a decision.

The compiler builds them; the generator (compile/playthrough.py) writes each as lines of Python
that answer its decision in place or stop with the state's frames (`Stopped`), and resume from
them (compile/playthrough_stops.py). A step is data and the helpers its lines call: nothing here
runs a game by itself.
"""
from __future__ import annotations

import functools
import itertools
import math
from typing import Any

from snowrules.compile.closures import constant_in, slot_of
from snowrules.language.diagnostics import Position
from snowrules.model.events import PhaseStarted
from snowrules.model.values import Decision, Ending, Termination


def combinations(items: list, sizes: range) -> list[list]:
    """Every choice of `sizes` items (largest first), each in the items' order."""
    return [list(c) for n in sizes for c in itertools.combinations(items, n)]


def combination_count(length: int, sizes: range) -> int:
    """len(combinations(items, sizes)) for `length` items, without building them."""
    return sum(math.comb(length, n) for n in sizes)


def combination_at(items: list, sizes: range, index: int) -> list:
    """combinations(items, sizes)[index], without building the others (a random agent's answer
    among many combinations needs only their count and the one it draws)."""
    for n in sizes:
        block = math.comb(len(items), n)
        if index < block:
            break
        index -= block
    chosen, start = [], 0
    for left in range(n, 0, -1):  # the index-th combination of n items, in itertools' order
        for at in range(start, len(items)):
            following = math.comb(len(items) - at - 1, left - 1)
            if index < following:
                chosen.append(items[at])
                start = at + 1
                break
            index -= following
    return chosen


FEW_ITEMS = 10  # up to this many items, a random answer's combinations are looked up (2**10 at most)


@functools.lru_cache(maxsize=256)
def index_combinations(length: int, start: int, stop: int, step: int) -> tuple[tuple[int, ...], ...]:
    """combinations(range(length), range(start, stop, step)) as positions: the same choices in
    the same order, made once for the few item counts and sizes a game meets (bounded cache)."""
    return tuple(c for n in range(start, stop, step) for c in itertools.combinations(range(length), n))


_ONE = 1  # `_ONE.__eq__`: whether a seat's option count is one (mapped, without a Python loop)


class GameEnded(Exception):
    """Raised by `end game`: unwinds every generated function at once; the game's entry records
    its ending (compile/playthrough.py)."""

    def __init__(self, winners: list[int], position: Position, reason: Termination = Termination.DURING_PLAY):
        super().__init__("game ended")
        self.ending = Ending(winners, str(position), reason)


class Stopped:
    """What generated code returns where it meets a decision nobody answers in place (no
    `st.decide`, no drawer), instead of None: `st.pending` holds the decision, and each generated
    statement it is returned through adds its frame there (`at`; a loop's items
    and position, `loop`), innermost first, so that the state stops as data and resumes from its
    frames (compile/playthrough_stops.py). A value returned, not an exception raised: a game
    answered from outside stops at every decision, and an exception costs several times a
    return at each function it leaves. Helpers that return an answer return this instead of one."""

    __slots__ = ("frames", "again")

    def __init__(self):
        self.frames: list[list] = []  # [block, pc, env, items, index], innermost first
        # the next statement added runs again when resumed: the stopped decision itself, or a
        # decision that offers free actions, stopped inside one taken
        # there (it is asked again once the free action is done)
        self.again = True

    def at(self, block: int, pc: int, env: list, items: list | None = None, index: int = 0) -> None:
        """Statement `pc` of `block` was running: the decision itself or one asked `again`, or a
        statement that ran a block, which goes on after it."""
        self.frames.append([block, pc if self.again else pc + 1, env, items, index])
        self.again = False

    def waiting(self, routines) -> None:
        """The routines a statement was to run after the one that stopped, each with its
        environment (`(block, env)` pairs, in the order they run): frames of their own at their
        start under the stopped one's, in the order they would have run."""
        for block, env in routines:
            self.frames.append([block, 0, env, None, 0])

    def loop(self, items, index: int | None) -> None:
        """The block just left was a loop's body at `index` of `items` (a turn: `items` None)."""
        frame = self.frames[-1]
        # a loop's list is never changed once the loop starts (a copy, a new list or a constant
        # one: playthrough's ForStep): the frame shares it; a count's range
        # becomes a list, the frame's data
        frame[3] = items if items is None or items.__class__ is list else list(items)
        frame[4] = index


def answered(st) -> Any:
    """The answer to the decision just put in `st.pending`: `st.decide`'s, or a Stopped for the
    caller to return (a stopped game resumes with the answer in `st.answer`)."""
    if st.decide is None:
        return Stopped()
    answer = st.decide(st)
    st.pending = None
    return answer


def resumed_answer(st) -> Any:
    """The answer a stopped decision is resumed with (`Game.answer` put it in `st.answer`)."""
    answer = st.answer
    st.pending = st.answer = None
    return answer


def bind(env: list, slots: tuple, item) -> None:
    if len(slots) == 1:
        env[slots[0]] = item
    else:
        for slot, value in zip(slots, item):
            env[slot] = value


# ---- steps: statements that push blocks or wait for a decision ------------------------------
class PushBlock:
    """Run a block (a phase, a procedure's body, a branch) in the current environment."""

    def __init__(self, block: int, phase: str | None = None):
        self.block = block
        self.phase = None if phase is None else PhaseStarted(phase)


class IfStep:
    """`if` around statements that may wait: the block of the first branch whose condition holds
    (or the `otherwise` block) runs.

    A branch of a single step (a draw, a decision) has a slot in the `if`'s own block once
    `inline` has given it one: the step runs in the `if`'s function, and a stop there keeps the
    `if`'s frame at the slot (InlinedBranch)."""

    def __init__(self, branches: list[tuple], otherwise: int | None):
        self.branches, self.otherwise = branches, otherwise
        self.inlined = False
        self.slots: dict[int, int] = {}  # a branch's block -> its slot in the `if`'s block (`inline`)

    def inline(self, blocks: list, block, pc: int) -> None:
        """Give each branch of a single step a slot past the end of `block` (where this `if` is
        statement `pc`), so that the branch runs in this block's frame rather than one of its own:
        a frame less to make and resume at each draw or decision the branch holds. The branches'
        own blocks stay as they are, and a state saved with a branch's frame still resumes in it.
        A single step that is itself an `if` keeps its own block: its own slots are in it."""
        if self.inlined:
            return
        self.inlined = True
        for target in [*(b for _, b in self.branches), self.otherwise]:
            if target is None or target in self.slots:
                continue
            branch = blocks[target]
            if branch.single is not None and type(branch.single) is not IfStep:
                self.slots[target] = block.add_slot(InlinedBranch(branch.single, pc + 1), branch.positions[0])


class InlinedBranch:
    """A branch of one step run at its slot in its `if`'s block (IfStep.inline): the step, then
    the statement after the `if` (`after`). A stop at the step keeps the `if`'s frame at the
    slot, where the answer resumes it; a stop inside what the step ran, at `after`."""

    def __init__(self, step, after: int):
        self.step, self.after = step, after


def inline_branches(blocks: list) -> None:
    """Give the single-step branches of every `if` around steps their slots (IfStep.inline)."""
    for block in blocks:
        for pc in range(block.size):
            step = block.steps[pc]
            if type(step) is IfStep:
                step.inline(blocks, block, pc)



class ForStep:
    def __init__(self, source, block: int, slot: int):
        self.source, self.block, self.slot = source, block, slot


class WhileStep:
    def __init__(self, cond, block: int):
        self.cond, self.block = cond, block


class RepeatStep:
    def __init__(self, count, block: int):
        self.count, self.block = count, block


class TurnsStep:
    """`each turn:` / `rounds N:` - the game's main loop; keeps the built-in `turn` counter."""

    def __init__(self, block: int):
        self.block = block


class ResolveStep:
    """`resolve CARD for PLAYER`: run the card's effect with `this` and `me` bound."""

    def __init__(self, card, player, routines: dict, defs: list[int], position: Position):
        self.card, self.player, self.routines, self.defs = card, player, routines, defs
        self.position = position


class TriggeredAdd:
    """A counter change whose triggers include some that wait for decisions."""

    def __init__(self, change):
        self.change = change


def routine_env(routine, player_slot: int | None, player: int | None) -> list:
    """The environment a triggered routine (a `when` rule that may wait) starts with: its
    player, if it has one."""
    local = [None] * routine.env_size
    if player_slot is not None:
        local[player_slot] = player
    return local


class ChooseStep:
    """A decision. Suspends with `st.pending`; re-runs when the answer is in `st.answer`."""

    def __init__(self, *, simultaneous: bool, who, player_slot: int | None, source, slot: int,
                 optional: bool, count_mode: str | None, count, block: int | None, native_body,
                 position: Position, variable: str, kind: str = "component"):
        self.simultaneous, self.who, self.player_slot = simultaneous, who, player_slot
        self.source, self.slot, self.optional = source, slot, optional
        self.count_mode, self.count, self.block = count_mode, count, block
        self.native_body = native_body
        self.kind = kind  # what the options are: components, players, numbers...
        self.rule = str(position)
        self.variable = variable
        self.up_to = count_mode is not None and count_mode != "exactly"
        self.plain = count_mode is None and not optional  # the options are the source's items
        # Who decides, when it is known while compiling (closures.const: the seats of a
        # simultaneous decision) or read from a local slot (closures.local: a loop's seat), so
        # that the generated code reads it without a call. None: `who` is called.
        constant = constant_in(who)
        self.known_who = None if constant is None else constant[0]
        self.who_slot = slot_of(who)

    def options(self, st, env) -> list:
        items = self.source(st, env)
        if self.count_mode is None:
            return items + [None] if self.optional else items[:]
        n = self.count(st, env)
        if self.count_mode == "exactly":
            return combinations(items, range(n, n + 1)) if n <= len(items) else []
        return combinations(items, range(min(n, len(items)), -1, -1))

    def _gather_each(self, st, env) -> tuple[list[int], list[list], bool]:
        """A simultaneous decision's seats that have options, their options, and whether each has
        exactly one and the state is not explicit (then nothing is asked; an explicit state asks
        anyway, so the options are not counted)."""
        players, options = [], []
        slot = self.player_slot
        source = self.source if self.plain else self.options
        seats = self.known_who
        for p in self.who(st, env) if seats is None else seats:
            env[slot] = p
            found = source(st, env)
            if found:
                players.append(p)
                options.append(found)
        if self.plain:  # the source's own lists: copies, since the options are never changed
            options = list(map(list.copy, options))
        return players, options, not st.explicit and all(map(_ONE.__eq__, map(len, options)))

    def ask_one(self, st, player: int, found: list):
        """One seat's plain decision put to `st.decide` (the inline decision of a game played
        through, compile/playthrough.py); the answer, or a Stopped when nobody answers in place (a
        game resumed at this decision takes its answer before: playthrough_choices)."""
        st.pending = Decision([player], [found[:]], False, self.rule, self.variable, self.kind,
                              optional=self.optional)
        return answered(st)

    def ask_each(self, st, seats: list[int], options: list[list]) -> list:
        """Several seats' plain decision at once put to `st.decide` (see `ask_one`); the answers,
        one per seat."""
        st.pending = Decision(seats, [found[:] for found in options], True, self.rule, self.variable, self.kind,
                              optional=self.optional)
        return answered(st)

    def played_through(self, st, env, body) -> Stopped | None:
        """The decision in a game played through (compile/playthrough.py): `st.decide` answers
        at once, and `body` (the generated function of what follows, or None) runs straight
        away, for each deciding seat in turn when the decision is simultaneous. A Stopped when
        the game stops there or in what follows (a stoppable build)."""
        if self.simultaneous:  # (a stoppable build writes this out: playthrough_stops.answered_together_lines)
            answers = self.answered_together(st, env)
            if answers.__class__ is Stopped:
                return answers
            if body is not None:
                slot, choice_slot = self.player_slot, self.slot
                for p, a in answers:
                    env[slot] = p
                    env[choice_slot] = a
                    body(st, env)
            return None
        return self.played_through_one(st, env, self.who(st, env), body)

    def answered_together(self, st, env) -> list[tuple[int, Any]] | Stopped:
        """A simultaneous decision asked (or resumed with its answer): each seat that had options
        with its answer, in order (none when no seat had any); or the stop, when nobody answers.
        Resumed, the seats are the decision's, the options not worked out again."""
        if st.pending is not None:
            return list(zip(st.pending.seats, resumed_answer(st)))
        players, options, forced = self._gather_each(st, env)
        if not players:
            return []
        if forced and not st.explicit:
            answer = [found[0] for found in options]
        else:
            how_many = None
            if self.count_mode is not None:
                env[self.player_slot] = players[0]
                how_many = self.count(st, env)
            st.pending = Decision(players, options, True, self.rule, self.variable, self.kind, False,
                                  how_many, self.up_to, self.optional)
            answer = answered(st)
            if answer.__class__ is Stopped:
                return answer
        return list(zip(players, answer))

    def played_through_one(self, st, env, player: int, body) -> Stopped | None:
        """`played_through` of one seat's decision, the seat known (the generated up-to
        decision, compile/playthrough.py, calls it for any agent but a random one)."""
        if st.pending is not None:  # resumed with its answer, the options not worked out again
            env[self.slot] = resumed_answer(st)
            return None if body is None else body(st, env)
        if self.count_mode is not None and st.draws is not None and not st.explicit:
            return self._draw_combination(st, env, player, body)
        found = self.source(st, env)[:] if self.count_mode is None and not self.optional \
            else self.options(st, env)
        if not found:
            env[self.slot] = None if self.count_mode is None else []
            return None
        if len(found) == 1 and not st.explicit:
            answer = found[0]
        else:
            how_many = None if self.count_mode is None else self.count(st, env)
            st.pending = Decision([player], [found], False, self.rule, self.variable, self.kind, False,
                                  how_many, self.up_to, self.optional)
            answer = answered(st)
            if answer.__class__ is Stopped:
                return answer
        env[self.slot] = answer
        return None if body is None else body(st, env)

    def _draw_combination(self, st, env, player: int, body) -> Stopped | None:
        """`played_through` of one seat's `up to N` / `exactly N` decision answered by a random
        agent (st.draws): the same answer as drawn among `options()`, which are only counted."""
        items = self.source(st, env)
        n = self.count(st, env)
        if self.count_mode == "exactly":
            sizes = range(n, n + 1) if n <= len(items) else range(0)
        else:
            sizes = range(min(n, len(items)), -1, -1)
        if len(items) <= FEW_ITEMS:  # the choices as positions, listed once per (count, sizes)
            table = index_combinations(len(items), sizes.start, sizes.stop, sizes.step)
            total = len(table)
            if total == 0:
                env[self.slot] = []
                return None
            index = 0 if total == 1 else st.draws[player](st, total)
            env[self.slot] = [items[at] for at in table[index]]
        else:
            total = combination_count(len(items), sizes)
            if total == 0:
                env[self.slot] = []
                return None
            index = 0 if total == 1 else st.draws[player](st, total)
            env[self.slot] = combination_at(items, sizes, index)
        return None if body is None else body(st, env)
