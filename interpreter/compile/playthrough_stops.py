"""The generated code of a game that stops and resumes: a resume entry per block, and the lines
that add a statement's frame when a decision nobody answers in place stops a game
(compile/playthrough.py's module docstring says what the builds are).

A stopped state is a stack of frames (block, pc, environment, a loop's items and position:
model/values.Frame). **Resuming** runs each frame from the top down with its block's resume
entry: the block's statements from the frame's `pc`, each guarded by `if pc <= k`, then what a
block of that kind does at its end (a loop's next items, a `while`'s next passes, the next
turns); everything they start runs in place, as a game played through runs, and a stop there
moves the resumed frame to its new place. **Stopping** goes the other way: a decision returns a
steps.Stopped with the decision in `st.pending`, and each statement it is returned through adds
its frame, innermost first (the decision's own pc, so that it is asked again and resumed with
its answer; any other statement's next pc), a loop's items and position added by the loop that
called the body. (A returned value rather than an exception: a game answered from outside stops
at every decision, and an exception costs several times as much at each function it leaves.)

These are `_Builder`'s methods, kept here so that each module holds one job.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from snowrules.compile import budget, fuse
from snowrules.compile.steps import ChooseStep, Stopped, TurnsStep
from snowrules.compile.steps import bind as bind_items
from snowrules.model.program import LOOP, ROUTINE, TURNS, WHILE, Program
from snowrules.model.values import Frame

Run = Callable[[object, list], None]

@dataclass(frozen=True)
class Resumed:
    """Statements of a resume entry: their frame is the one resumed (`frame`), moved in place at
    a stop rather than a new one added; `index` (generated text): the loop position or turn it is
    at then (its next items or turns run in place), None: the frame's own."""

    index: str | None = None


RESUMED = Resumed()


def frame_line(block: int, pc: int, after: int, resumed: Resumed | None) -> str:
    """The line that adds a statement's frame to a stop returned through it: statement `pc` of
    `block`, asked again there (`Stopped.again`: the stopped decision itself) or gone on at `after`.
    In a resume entry (`resumed`), the resumed frame itself is moved there instead: no frame made,
    and nothing for the caller to compare (an explicit game stops at every node)."""
    if resumed is not None:
        index = "" if resumed.index is None else f"; frame.index = {resumed.index}"
        return f"frame.pc = {pc} if _r.again else {after}{index}"
    place = f"{pc}" if after == pc + 1 else f"{pc} if _r.again else {after - 1}"
    return f"_r.at({block}, {place}, env)"


class StopTemplates:
    """Mixed into playthrough's `_Builder`: it gives `program`, `module`, `stoppable`, `bound`,
    `value`, `call`, `statement_lines`, `step_lines`, `turns_lines` and `final_lines`, and keeps
    `on_stop`: the lines that add the frames of the statements being generated (innermost
    first), which a stop returned through them runs."""

    program: Program
    stoppable: bool
    on_stop: list[str]

    def stopping(self, block: int, pc: int, resumed: Resumed | None, make: Callable[[], list[str]],
                 after: int | None = None) -> list[str]:
        """A statement's lines (`make()`), generated with its frame (statement `pc` of `block`;
        `resumed`: in a resume entry, see Resumed; `after`: where the frame goes on once the
        statement is done, when not at `pc + 1`: an `if`'s slot goes on after the `if`) added to
        any stop returned through them (a stoppable build's only; steps.Stopped.at)."""
        if not self.stoppable:
            return make()
        outer = self.on_stop
        self.on_stop = [frame_line(int(block), int(pc), int(pc) + 1 if after is None else int(after), resumed),
                        *outer]
        try:
            return make()
        finally:
            self.on_stop = outer

    def checked(self, call: str, loop: str | None = None) -> list[str]:
        """A call of a generated function or routine (None, or in a stoppable build a Stopped
        when the game stopped inside): lines that return a stop on, the frame of a loop's body
        (`loop`: a line) and of each statement it leaves added."""
        if not self.stoppable:
            return [call]
        returned = [*([loop] if loop else []), *self.on_stop, "return _r"]
        return [f"_r = {call}", "if _r is not None:", *fuse.indent(returned)]

    def checked_value(self, target: str, call: str, ns: dict) -> list[str]:
        """`target = call` for a helper that returns an answer, or in a stoppable build a Stopped
        (returned on as `checked` returns it)."""
        if not self.stoppable:
            return [f"{target} = {call}"]
        return [f"_r = {call}", f"if _r.__class__ is {self.bound(Stopped, ns)}:",
                *fuse.indent([*self.on_stop, "return _r"]), f"{target} = _r"]

    def in_loop(self, call: str, items: str | None, index: str, ns: dict) -> list[str]:
        """A loop's call of its body: in a stoppable build, a stop inside it gives the body's frame
        the loop's `items` (generated text; None for the turns) and position `index`."""
        return self.checked(call, f"_r.loop({items or 'None'}, {index})")

    def separately(self, make: Callable[[], object]) -> object:
        """`make()` generating a function of its own: its statements add no frame of the
        statement being generated when the function was asked for."""
        outer, self.on_stop = self.on_stop, []
        try:
            return make()
        finally:
            self.on_stop = outer

    def resume_entry(self, block) -> Run:
        """A function `(st, frame)` that runs `block` on from a frame of it (the frame's
        environment, loop items and position) to the block's end, everything it starts running
        in place: a stopped decision's step (its `pc`, or a slot an
        `if` jumped to) asks again, each statement from `pc` on runs guarded by `if pc <= k`, then
        what the block's kind does at its end (a loop's next items, a `while`'s next passes, the
        next turns, a routine's environment dropped). The same statement lines as the block's
        own function: a game played on from a stop runs the code that plays it through."""
        ns: dict = {}
        slots = [(pc, inlined) for pc, inlined in enumerate(block.steps) if pc > block.size and inlined is not None]
        known = self.bound(frozenset(pc for pc, _ in slots), ns)
        lines = ["env = st.envs[frame.env]", "pc = frame.pc",  # a pc that is no statement's: a state not ours
                 f"if not 0 <= pc <= {int(block.size)} and pc not in {known}:",
                 f"    {self.bound(budget.no_statement, ns)}({self.bound(block.position, ns)}, pc)"]
        if slots:  # only a stopped decision's frame is ever at a slot
            lines.append(f"if pc > {int(block.size)}:")
            for pc, inlined in slots:
                # a stop at the slot's step stays there; one inside what it ran goes on after the `if`
                lines += [f"    if pc == {int(pc)}:", f"        {fuse.mark(block.positions[pc], ns)}",
                          *fuse.indent(fuse.indent(self.stopping(
                              block.id, pc, RESUMED, lambda inlined=inlined: self.step_lines(inlined.step, ns),
                              inlined.after))),
                          f"        pc = {int(inlined.after)}"]
        for pc in range(block.size):
            lines += [f"if pc <= {int(pc)}:", *fuse.indent([*self.statement_lines(block, pc, ns, RESUMED), "pass"])]
        lines += [fuse.mark(block.position, ns), *self.end_of_block_lines(block, ns)]  # its errors at the block
        lines = self.final_lines(lines, ns)
        name = fuse.fresh("_resume")
        return self.module.define(name, f"def {name}(st, frame):\n" + "\n".join(fuse.indent(lines)), ns)

    def end_of_block_lines(self, block, ns: dict) -> list[str]:
        """What a block of each kind does at its end, as lines of a resume entry: the frame's next
        items, passes or turns, the block's statements in place (`body_in_place`); a routine's
        environment dropped. A sequence ends there."""
        kind = block.kind
        fail, where = self.bound(budget.over_budget, ns), self.bound(block.position, ns)
        if kind is LOOP:
            items, at = fuse.fresh(), fuse.fresh()
            slots = tuple(int(slot) for slot in block.slots)
            if len(slots) == 1:
                binding = [f"    env[{slots[0]}] = {items}[{at}]"]
            else:
                binding = [f"    {self.bound(bind_items, ns)}(env, {slots!r}, {items}[{at}])"] if slots else []
            # the rounds were charged when the loop started (the state keeps its count)
            return [f"{items} = frame.items",
                    f"for {at} in range(frame.index + 1, len({items})):",
                    *binding,
                    *fuse.indent(self.body_in_place(block, Resumed(at), ns))]
        if kind is WHILE:  # the pass that stopped is counted once done, as every pass is
            return [*budget.charge_lines("1", where, fail),
                    f"while {self.value(block.cond, ns)}:",
                    *fuse.indent(self.body_in_place(block, RESUMED, ns)),
                    *fuse.indent(budget.charge_lines("1", where, fail))]
        if kind is TURNS:
            turn = fuse.fresh()
            return [f"{turn} = frame.index", *self.turns_lines(
                TurnsStep(block.id), ns, done=turn, body=lambda: self.body_in_place(block, Resumed(turn), ns))]
        if kind is ROUTINE:
            return ["st.envs.pop()"]
        return []

    def body_in_place(self, block, resumed: Resumed, ns: dict) -> list[str]:
        """The statements of a resume entry's block again, for its next items, passes or turns:
        in place rather than a call of the block's function, a stop there moving the resumed frame
        (to the loop's position or turn `resumed.index`)."""
        outer, self.on_stop = self.on_stop, []
        try:
            lines: list[str] = []
            for pc in range(block.size):
                lines += self.statement_lines(block, pc, ns, resumed)
            return lines or ["pass"]
        finally:
            self.on_stop = outer

    def answered_together_lines(self, step: ChooseStep, ns: dict) -> list[str]:
        """A simultaneous decision of several items a seat, in a stoppable build: the seats'
        answers (ChooseStep.answered_together: asked, or resumed), then what follows for each seat
        in turn (`each_answered`)."""
        answered, seat, answer = fuse.fresh(), fuse.fresh(), fuse.fresh()
        body = self.body_lines(step, ns)
        return [*self.checked_value(answered, f"{self.bound(step.answered_together, ns)}(st, env)", ns),
                f"if {answered}:",
                *self.each_answered(step, answered, seat, answer, int(step.player_slot), int(step.slot), body, ns)]

    def each_answered(self, step: ChooseStep, answered: str, seat: str, answer: str, seat_slot: int, slot: int,
                      body: list[str], ns: dict) -> list[str]:
        """What follows a decision of several seats, for each seat in turn: in a stoppable build,
        a body block that stops keeps its loop (each [seat, answer], its place)."""
        if not self.stoppable or step.native_body is not None or step.block is None:
            return [f"    for {seat}, {answer} in {answered}:", f"        env[{seat_slot}] = {seat}",
                    f"        env[{slot}] = {answer}", *fuse.indent(fuse.indent(body))]
        at = fuse.fresh()
        return [f"    for {at}, ({seat}, {answer}) in enumerate({answered}):",
                f"        env[{seat_slot}] = {seat}", f"        env[{slot}] = {answer}",
                *fuse.indent(fuse.indent(self.in_loop(self.call(step.block, ns), f"[list(_x) for _x in {answered}]",
                                                      at, ns)))]


def stopped(st, stop: Stopped) -> None:
    """The frames of a game stopped at a decision, outermost first, on top of `st.frames`: each
    environment by its place in `st.envs` (one not there yet, a routine's, added)."""
    envs = st.envs
    for block, pc, env, items, index in reversed(stop.frames):
        at = len(envs) - 1
        while at >= 0 and envs[at] is not env:
            at -= 1
        if at < 0:
            envs.append(env)
            at = len(envs) - 1
        st.frames.append(Frame(block, pc, at, items, index))
