"""The VM: runs compiled blocks from the frame stack until a decision or the end of the game.

A frame (model/values.py) names its block, next statement, environment, loop items and loop
position. Native statements run straight through; steps (statements that may wait for a
decision) push frames or suspend.
Everything the VM keeps between calls is in the state, so a state can be cloned, written to
JSON and resumed anywhere.
"""
from __future__ import annotations

from snowrules.compile.apply import end_game, start_turn
from snowrules.compile.block_code import too_long
from snowrules.compile.fuse import PYTHON_ERRORS, rules_error
from snowrules.compile.steps import GameEnded, bind
from snowrules.language.diagnostics import Position, SnowrulesError
from snowrules.model.program import LOOP, ROUTINE, SEQUENCE, TURNS, WHILE, Program
from snowrules.model.state import State
from snowrules.model.values import Frame


def run(program: Program, st: State) -> None:
    """Advance `st` until it waits for a decision (`st.pending`) or the game is over."""
    blocks = program.blocks
    frames = st.frames
    envs = st.envs
    budget = st.max_steps - st.steps  # statements this call may still run
    steps = 0
    block = pc = None
    try:
        while frames:
            frame = frames[-1]
            block = blocks[frame.block]
            step = block.single
            if step is not None and frame.pc == 0:
                # A block of one step (a branch around a draw or a decision), just pushed or
                # resumed with its answer: run here, as the loop below would run it, without it.
                pc = 0  # where an error is
                frame.pc = 1
                if step.run(st, frame, envs[frame.env], program):
                    return
                steps += 1
                if steps > budget:
                    too_long(st, block, 0)
                if frames[-1] is frame and frame.pc == 1:  # done, neither pushed nor repeating
                    frames.pop()  # its end, as a SEQUENCE's
                continue
            pc = frame.pc
            size = block.size
            if pc != size:
                code = block.code
                if code is not None:
                    # The block's statements as one generated function: the loop below, written out.
                    steps = code(st, frame, envs[frame.env], program, steps, budget)
                    if steps < 0:  # a step waits
                        steps = ~steps
                        return
                    if frames[-1] is not frame:  # a step pushed a block: it runs next
                        continue
                else:
                    # The block's statements one after another while this frame stays on top:
                    # its `pc` is written back before a step (which may wait, and then reads it)
                    # and when the block is done. Natives neither wait nor push frames. A pc past
                    # `size` is a slot that an `if` jumped to (IfStep.inline), which jumps back.
                    natives = block.natives
                    env = envs[frame.env]
                    while pc != size:
                        native = natives[pc]
                        if native is not None:
                            native(st, env)
                            pc += 1
                            steps += 1
                            if steps > budget:
                                too_long(st, block, pc - 1)
                            continue
                        frame.pc = pc + 1
                        if block.steps[pc].run(st, frame, env, program):
                            return
                        steps += 1
                        if steps > budget:
                            too_long(st, block, pc)
                        if frames[-1] is not frame:  # the step pushed a block: it runs next
                            break
                        pc = frame.pc
                    else:
                        frame.pc = pc
                    if pc != size:
                        continue
            if block.kind is SEQUENCE:
                frames.pop()
            elif block.kind is LOOP:  # the next item
                index = frame.index + 1
                items = frame.items
                if index < len(items):
                    frame.index = index
                    frame.pc = 0
                    slots = block.slots
                    if len(slots) == 1:  # bind's common case in place
                        envs[frame.env][slots[0]] = items[index]
                    else:
                        bind(envs[frame.env], slots, items[index])
                else:
                    frames.pop()
            elif _end_of_block(program, st, block, frame):
                return
    except GameEnded as end:
        if end.steps is not None:  # counted by a block's generated function, from `steps` on
            steps = end.steps
        end_game(st, end.ending)
    except SnowrulesError:
        raise
    except PYTHON_ERRORS as error:
        raise rules_error(error, _where(block, pc), "while the game ran") from None
    finally:
        st.steps += steps


def _where(block, pc) -> Position:
    if block is None or pc is None:
        return Position("<rules>", 0, 0)
    return block.positions[min(pc, len(block.positions) - 1)] if block.positions else block.position


def _end_of_block(program: Program, st: State, block, frame: Frame) -> bool:
    """Leave or repeat a finished block that is neither a sequence nor a loop (the VM's loop ends
    those itself, the commonest). True when the state should pause here (a scenario asked to look
    at the end of this turn)."""
    kind = block.kind
    if kind is WHILE:
        if block.cond(st, st.envs[frame.env]):
            frame.pc = 0
        else:
            st.frames.pop()
    elif kind is ROUTINE:
        st.frames.pop()
        st.envs.pop()
    elif kind is TURNS:
        if st.pause_after_turn == frame.index:
            st.pause_after_turn = None
            st.paused = True
            return True
        st.paused = False
        turn = frame.index + 1
        limit = block.limit(st, st.envs[frame.env]) if block.limit is not None else None
        if limit is not None and turn > limit:
            st.frames.pop()
            return False
        frame.index = turn
        frame.pc = 0
        start_turn(st, program.turn_counter, turn)
    return False


