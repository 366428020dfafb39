"""A block's statements as one generated function, which the VM calls in place of its loop over
them (runtime/vm.py).

The VM's loop reads each statement from the block's lists, tests whether it is a native statement
or a step, calls it, counts it against the step budget and, after a step, looks whether it waited,
pushed a block or jumped (an `if` to a branch's slot, IfStep.inline). The generated function does
the same in the same order, written out: a native statement's own lines in place (or a call, for
one without lines), an `if` with slots its pick and jump, any other step a call, each count and
check a line. So a state is the same after every statement either way (the frames too), and a
state written by one resumes on the other: the function starts at the frame's `pc` and leaves it
where the VM's loop would. For a turn of two statements, an `if` with a slot and a decision:

    def _bN(st, frame, env, program, steps, budget):   # statements run so far, and the most allowed
        pc = frame.pc
        try:
            while True:
                if pc == 0:
                    # @position of statement 0
                    ...its lines...
                    steps += 1
                    if steps > budget: _too_long(st, _block, 0)
                    pc = 1
                if pc == 1:                            # the if: its slot follows it
                    _picked = _tP(st, env)             # a block to push, ~slot, or None
                    ...counted...; pc = ~_picked (or 2, or push the block and return steps)
                if pc == 4:                            # its slot: a step (see InlinedBranch)
                    frame.pc = 5
                    if _tS(st, frame, env, program): return ~steps      # waits
                    ...counted...
                    if frame.pc == 5: frame.pc = 2                      # back after the if
                    if st.frames[-1] is not frame: return steps         # pushed a block
                    pc = frame.pc
                if pc == 2:
                    ...a step, as the slot's without the jump back...
                if pc == 3:                            # the end (the block's size)
                    frame.pc = 3
                    return steps
        except _GameEnded as ending:
            ending.steps = steps                       # the VM adds what was counted
            raise

It returns the statements counted so far, bitwise negated (`~steps`, below 0) when a step waits.
Only snowrules' templates make its text; a statement's lines are the fused code that
compile/statements.py made of it, and its `# @` mark names its position, so a Python error is
reported at the rule that failed (fuse.position_of_error).
"""
from __future__ import annotations

from snowrules.compile import fuse
from snowrules.compile.apply import start_turn
from snowrules.compile.budget import over_budget
from snowrules.compile.steps import GameEnded, IfStep
from snowrules.compile.steps import bind as bind_items
from snowrules.model.program import LOOP, TURNS, WHILE
from snowrules.model.values import Frame


def too_long(st, block, pc: int) -> None:
    """The step budget is spent at statement `pc` of `block`: the VM's error, and the generated
    functions' (budget.over_budget's)."""
    over_budget(block.positions[pc], st.max_steps)


def block_function(block):
    """The function running `block`'s statements from its frame's pc, or None for a block of one
    statement or none, without slots (a loop's one draw or decision, a branch of one step): the
    VM's loop runs those for less than the call would cost. It is generated at its first call,
    which puts it in the block's place: a big ruleset has thousands of blocks (some 2,500 in one
    of the bundled), most never run in a given game, and generating them all took a quarter of
    its compile time."""
    if block.size < 2 and len(block.steps) == block.size:
        return None  # one statement: the VM's loop runs it for less than a call costs

    def first_call(st, frame, env, program, steps, budget):
        block.code = generated = _generated(block)
        return generated(st, frame, env, program, steps, budget)
    return first_call


def _generated(block):
    """The generated function of a block of statements.

    The statements are tested in order, `if pc == K:` each, so that one falls through to the
    next; an `if` whose branches run at slots (IfStep.inline) is followed at once by its slots,
    and a slot by the statement after the `if`: a jump to a branch, and back, falls through too.
    Only a step that goes back (one that repeats) goes round the `while` again."""
    namespace = {"_too_long": too_long, "_block": block, "_GameEnded": GameEnded, "_Frame": Frame}
    slots_of: dict[int, list[int]] = {}
    for pc in range(block.size + 1, len(block.steps)):
        slots_of.setdefault(block.steps[pc].after - 1, []).append(pc)
    body: list[str] = []
    for pc in range(block.size):
        body += [f"if pc == {pc}:", *fuse.indent(_statement(block, pc, namespace))]
        for slot in slots_of.get(pc, ()):
            body += [f"if pc == {slot}:", *fuse.indent(_slot(block, slot, namespace))]
    body += [f"if pc == {block.size}:", *fuse.indent(_end(block, namespace)),
             # no statement at this pc (a state written by hand): refused, where the VM's loop
             # would fail to find it, rather than going round for ever
             f"if pc < 0 or pc >= {len(block.steps)}: raise IndexError(f'no statement {{pc}} in this block')"]
    lines = ["pc = frame.pc", "try:", *fuse.indent(["while True:", *fuse.indent(body)]),
             "except _GameEnded as ending:", "    ending.steps = steps", "    raise"]
    name = fuse.fresh("_b")
    source = f"def {name}(st, frame, env, program, steps, budget):\n" + "\n".join(fuse.indent(lines))
    namespace[fuse.SOURCE] = source.splitlines()
    return fuse.definition(source, name, namespace)


def _end(block, namespace: dict) -> list[str]:
    """The end of the block: a loop's next item, a `while`'s next pass and the game's next turn
    go on here, as the VM would (vm.run, vm._end_of_block), without a return to it; the last item,
    pass or turn pops the frame here. Anything else (a sequence, a routine, a turn at whose end a
    scenario looks) returns to the VM with the frame at its end, for the VM to end it."""
    end = block.size
    if block.kind == LOOP:
        bind = (f"env[{block.slots[0]}] = _items[_index]" if len(block.slots) == 1
                else f"_bind(env, {block.slots!r}, _items[_index])")
        namespace["_bind"] = bind_items
        return ["_index = frame.index + 1", "_items = frame.items",
                "if _index < len(_items):",
                "    frame.index = _index", "    frame.pc = pc = 0", f"    {bind}", "    continue",
                f"frame.pc = {end}", "st.frames.pop()", "return steps"]
    if block.kind == WHILE:
        return [f"if {_bound(block.cond, namespace, '_c')}(st, env):", "    frame.pc = pc = 0", "    continue",
                f"frame.pc = {end}", "st.frames.pop()", "return steps"]
    if block.kind == TURNS:
        lines = [f"frame.pc = {end}",
                 "if st.pause_after_turn == frame.index: return steps",  # the VM pauses there
                 "st.paused = False", "_turn = frame.index + 1"]
        if block.limit is not None:
            lines += [f"_limit = {_bound(block.limit, namespace, '_c')}(st, env)",
                      "if _limit is not None and _turn > _limit:", "    st.frames.pop()", "    return steps"]
        return lines + ["frame.index = _turn", "frame.pc = pc = 0",
                        f"{_bound(start_turn, namespace, '_c')}(st, program.turn_counter, _turn)", "continue"]
    return [f"frame.pc = {end}", "return steps"]


def _counted(pc: int) -> list[str]:
    return ["steps += 1", f"if steps > budget: _too_long(st, _block, {pc})"]


def _statement(block, pc: int, namespace: dict) -> list[str]:
    native = block.natives[pc]
    if native is None:
        step = block.steps[pc]
        return _if(block, pc, step, namespace) if type(step) is IfStep and step.inlined else _step(block, pc, namespace)
    lines, ns, _ = fuse.block_code(native)  # in place when not nested too deep (fuse.MAX_NESTING)
    namespace.update(ns)
    return [fuse.mark(block.positions[pc], namespace), *lines, *_counted(pc), f"pc = {pc + 1}"]


def _bound(value, namespace: dict, prefix: str = "_t") -> str:
    name = fuse.fresh(prefix)
    namespace[name] = value
    return name


def _step(block, pc: int, namespace: dict) -> list[str]:
    """A step as the VM runs it: the frame's pc set past it, then run; it may wait, push a block
    or set the pc (a jump, or back to itself)."""
    return [fuse.mark(block.positions[pc], namespace),
            f"frame.pc = {pc + 1}",
            f"if {_bound(block.steps[pc].run, namespace)}(st, frame, env, program): return ~steps",
            *_counted(pc),
            "if st.frames[-1] is not frame: return steps",
            "pc = frame.pc"]


def _if(block, pc: int, step: IfStep, namespace: dict) -> list[str]:
    """IfStep.run written in: the branch picked, then its slot jumped to or its block pushed."""
    return [fuse.mark(block.positions[pc], namespace),
            f"_picked = {_bound(step.pick, namespace)}(st, env)",
            *_counted(pc),
            "if _picked is None:",
            f"    pc = {pc + 1}",
            "elif _picked < 0:",
            "    pc = ~_picked",
            "else:",
            f"    frame.pc = {pc + 1}",
            "    st.frames.append(_Frame(_picked, 0, frame.env))",
            "    return steps"]


def _slot(block, pc: int, namespace: dict) -> list[str]:
    """InlinedBranch.run at its slot written in: its step, then the statement after its `if`."""
    inlined = block.steps[pc]
    return [fuse.mark(block.positions[pc], namespace),
            f"frame.pc = {pc + 1}",
            f"if {_bound(inlined.step.run, namespace)}(st, frame, env, program): return ~steps",
            *_counted(pc),
            f"if frame.pc == {pc + 1}: frame.pc = {inlined.after}",
            "if st.frames[-1] is not frame: return steps",
            "pc = frame.pc"]
