"""A stopped game's frames: where a branch of one step stops (a slot of its `if`'s block,
IfStep.inline), that a state saved with the branch's own frame still goes on, that a frame naming
no statement is refused, and what a draw and a decision know of their zones and seats while
compiling. The games these frames come from are checked event by event elsewhere (goldens,
tests/test_stopping.py, tests/test_differential.py)."""
from __future__ import annotations

import random
import re

import pytest
from snowrules.compile.chance import DrawStep
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.steps import ChooseStep, IfStep, InlinedBranch
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.model.state import State
from snowrules.model.values import Frame
from snowrules.runtime.engine import Game
from test_language import ruleset


def _explicit(name: str, players: int):
    """A program of its own (load_program's is shared)."""
    return compile_ruleset(load_ruleset(name, None, {}), players, True)


def _without_frames(st) -> dict:
    data = st.to_json()
    del data["frames"]
    return data


def test_only_a_sequence_of_one_step_is_single():
    program = _explicit("goofspiel", 2)
    for block in program.blocks:
        one_step = block.kind == "sequence" and block.size == 1 and block.natives[0] is None
        assert (block.single is block.steps[0]) if one_step else block.single is None


def test_a_branch_of_one_step_stops_at_its_slot_in_the_ifs_frame():
    """Goofspiel's turn (5 statements) starts with an `if` whose branches are each one draw: the
    deal waits at the turn block's first slot (6), in the turn's frame, with no frame of the
    branch's own."""
    game = Game(_explicit("goofspiel", 2))
    st = game.start(0, explicit=True)
    turn = game.program.blocks[st.frames[-1].block]
    assert [st.frames[-1].block, st.frames[-1].pc] == [2, 6] and turn.size == 5
    assert isinstance(turn.steps[6], InlinedBranch) and turn.steps[6].after == 2


def test_a_state_saved_in_a_branchs_own_frame_resumes_there():
    """A state written with a branch's own frame (as the frames were before slots) goes on as the
    one stopped at the slot: the branch's block is still there, and the game goes on alike."""
    game = Game(_explicit("goofspiel", 2))
    resumed = 0
    for seed in range(6):
        st = game.start(seed, explicit=True)
        rng = random.Random(seed)
        while st.pending is not None:
            top = st.frames[-1]
            block = game.program.blocks[top.block]
            choices = [rng.randrange(len(options)) for options in st.pending.options]
            if top.pc > block.size:  # at a slot: the same state with the branch's own frame
                inlined = block.steps[top.pc]
                branch = next(b for b in game.program.blocks if b.single is inlined.step)
                data = st.to_json()
                data["frames"][-1][1] = inlined.after
                data["frames"].append(Frame(branch.id, 0, top.env).to_json())
                old = State.from_json(data)
                game.answer(old, choices)
                game.answer(st, choices)
                assert _without_frames(old) == _without_frames(st) and old.steps == st.steps
                resumed += 1
            else:
                game.answer(st, choices)
    assert resumed > 50


NESTED = """rounds 4:
    if turn > 1:
        if turn > 2:
            ask first(players) to choose n from [1, 2, 3]:
                announce "late", n
    else:
        ask first(players) to choose n from [4, 5]:
            announce "first", n

at game end:
    end game winners players
"""


def test_a_branch_that_is_an_if_keeps_its_own_block(tmp_path):
    """An `if` alone in a branch keeps its slots in its own block, so it is not run at a slot of
    the outer `if`'s block (its slots would be in the wrong block): answered in place or stopped
    at each decision, the game says what the rules say."""
    program = compile_ruleset(ruleset(tmp_path, NESTED), 2)
    turns = next(block for block in program.blocks if block.kind == "turns")
    outer = next(step for step in turns.steps[:turns.size] if isinstance(step, IfStep))
    assert isinstance(program.blocks[outer.branches[0][1]].single, IfStep)
    slotted = [step.step for block in program.blocks for step in block.steps[block.size:] if step is not None]
    assert len(slotted) == 2 and all(isinstance(step, ChooseStep) for step in slotted)
    for stopped in (False, True):
        events: list = []
        game = Game(program)
        if stopped:
            st = game.start(0, sink=events.append)
            while st.pending is not None:
                game.answer(st, [len(st.pending.options[0]) - 1])
        else:
            game.start(0, decide=lambda st: st.pending.options[0][-1], sink=events.append)
        assert [e["text"] for e in events if e["e"] == "say"] == ["first 5", "late 3", "late 3"]


@pytest.mark.parametrize("pc", [99, 5, 8, -3])
def test_a_frame_at_no_statement_is_refused_not_run(pc):
    """A state written by hand whose frame's pc names no statement of its block (past its slots,
    below 0) ends with a rules error at a position of the block; it does not run from a place the
    game never was. Goofspiel's turn has 5 statements (pc 5 is its end: the next turn) and slots 6
    and 7."""
    game = Game(_explicit("goofspiel", 2))
    data = game.start(0, explicit=True).to_json()
    assert data["frames"][-1][:2] == [2, 6]  # waiting for the deal, at the turn block's first slot
    data["frames"][-1][1] = pc
    st = State.from_json(data)
    if pc == 5:  # the end: the next turn starts (and the answer waiting is taken by its deal)
        game.answer(st, [0])
        assert st.pending is not None and st.counters[0] == 2
        return
    with pytest.raises(RuntimeRulesError) as raised:
        game.answer(st, [0])
    assert "rules.sr:" in str(raised.value) and f"at statement {pc}" in str(raised.value)


def test_a_draw_that_may_wait_is_written_in_place():
    """An explicit game's draws are lines of its module (chance.explicit_draw_lines): no routine of
    a draw is bound, the deck's zone is a number in the text, and each draw waits as a chance
    node whose progress says where it draws from and how many are left."""
    game = Game(_explicit("oh_hell", 4))
    module = game.played_through(frozenset(), "stoppable").module
    assert not [name for name, value in module.scope.items() if isinstance(getattr(value, "__self__", None), DrawStep)]
    deck = next(i for i, z in enumerate(game.layout.zones) if z.label(game.layout.seat_names) == "deck")
    assert re.search(rf"^\s+_a\d+ = {deck}$", module.text, re.MULTILINE)
    st = game.start(0, explicit=True)
    while not Game.is_chance(st) or st.pending.variable != "draw":
        game.answer(st, [0] * max(len(st.pending.seats), 1))
    assert st.pending.progress["from"] == deck and st.pending.progress["left"] == 1


def test_a_decisions_seat_read_in_place_is_the_seat_its_closure_gives():
    for name, players in (("goofspiel", 2), ("oh_hell", 4)):
        program = _explicit(name, players)
        chooses = [step for block in program.blocks for step in block.steps if isinstance(step, ChooseStep)]
        env = list(range(100, 200))
        for step in chooses:
            if step.known_who is not None:
                assert step.who(None, env) is step.known_who
            if step.who_slot is not None:
                assert step.who(None, env) == env[step.who_slot]
        assert any(step.known_who is not None or step.who_slot is not None for step in chooses)
