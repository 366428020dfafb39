"""The VM: runs compiled blocks from the frame stack until a decision or the end of the game.

A frame is `[block id, next statement, env index, loop items, loop position]`. Native statements
run straight through; steps (statements that may wait for a decision) push frames or suspend.
Everything the VM keeps between calls is in the state, so a state can be cloned, written to
JSON and resumed anywhere.
"""
from __future__ import annotations

from snowrules.compile.fuse import position_of_error
from snowrules.compile.steps import GameEnded, bind
from snowrules.language.diagnostics import Position, RuntimeRulesError, SnowrulesError
from snowrules.model.program import LOOP, ROUTINE, SEQUENCE, TURNS, WHILE, Program
from snowrules.model.state import State


def run(program: Program, st: State) -> None:
    """Advance `st` until it waits for a decision (`st.pending`) or the game is over."""
    blocks = program.blocks
    frames = st.frames
    envs = st.envs
    budget = program.max_steps - st.steps  # statements this call may still run
    steps = 0
    block = pc = None
    try:
        while frames:
            frame = frames[-1]
            block = blocks[frame[0]]
            pc = frame[1]
            if pc < block.size:
                frame[1] = pc + 1
                native = block.natives[pc]
                if native is not None:
                    native(st, envs[frame[2]])
                elif block.steps[pc].run(st, frame, envs[frame[2]], program):
                    return
                steps += 1
                if steps > budget:
                    raise RuntimeRulesError.at(block.positions[pc], "the game did not end within "
                                               f"{program.max_steps} steps")
            elif block.kind is SEQUENCE:
                frames.pop()
            elif _end_of_block(program, st, block, frame):
                return
    except GameEnded as end:
        st.result = {"winners": end.winners, "rule": str(end.position)}
        frames.clear()
        envs.clear()
        st.pending = None
        if st.sink is not None:
            st.sink({"e": "end", "winners": [program.layout.seat_names[w] for w in end.winners],
                     "rule": str(end.position)})
    except SnowrulesError:
        raise
    except RecursionError:
        raise RuntimeRulesError.at(_where(block, pc), "the rules nest too deeply") from None
    except (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError) as error:
        where = position_of_error(error.__traceback__) or _where(block, pc)
        if isinstance(error, ZeroDivisionError):
            message = "a division by zero"
        elif "NoneType" in str(error):
            message = "a value is none where this rule needs one (find() or first() found nothing?)"
        else:
            message = "a value is not of the kind this rule expects"
        raise RuntimeRulesError.at(where, f"{message}, while the game ran", f"Python said: {error}") from None
    finally:
        st.steps += steps


def _where(block, pc) -> Position:
    if block is None or pc is None:
        return Position("<rules>", 0, 0)
    return block.positions[min(pc, len(block.positions) - 1)] if block.positions else block.position


def _end_of_block(program: Program, st: State, block, frame: list) -> bool:
    """Leave or repeat a finished block. True when the state should pause here (a scenario asked
    to look at the end of this turn)."""
    kind = block.kind
    if kind is SEQUENCE:
        st.frames.pop()
    elif kind is LOOP:
        index = frame[4] + 1
        items = frame[3]
        if index < len(items):
            frame[4] = index
            frame[1] = 0
            bind(st.envs[frame[2]], block.slots, items[index])
        else:
            st.frames.pop()
    elif kind is WHILE:
        if block.cond(st, st.envs[frame[2]]):
            frame[1] = 0
        else:
            st.frames.pop()
    elif kind is ROUTINE:
        st.frames.pop()
        st.envs.pop()
    elif kind is TURNS:
        if st.pause_after_turn == frame[4]:
            st.pause_after_turn = None
            st.paused = True
            return True
        st.paused = False
        turn = frame[4] + 1
        limit = block.limit(st, st.envs[frame[2]]) if block.limit is not None else None
        if limit is not None and turn > limit:
            st.frames.pop()
            return False
        frame[4] = turn
        frame[1] = 0
        st.counters[program.turn_counter] = turn
        if st.sink is not None:
            st.sink({"e": "turn", "turn": turn})
    return False


