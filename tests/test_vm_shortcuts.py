"""The VM's shortcuts give what its general path gives: a block of a single step (a branch
around a draw or a decision, `Block.single`), pushed or resumed, runs at the head of the VM's loop;
such a branch of an `if` runs at a slot of the `if`'s own block instead of being pushed
(IfStep.inline); and a draw reads the zones and count known while compiling without a call. Each test compares
the shortcut with the general path (the shortcut turned off) state by state, or checks that the
shortcut's condition is what it should be."""
from __future__ import annotations

import random

import pytest
from snowrules.compile.chance import DrawStep
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.steps import ChooseStep, IfStep, InlinedBranch
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.model.state import State
from snowrules.runtime.engine import Game
from test_language import ruleset

# (ruleset, players, whether it has a block of one step: Oh Hell's draws and decisions are in loops)
GAMES = [("goofspiel", 2, True), ("goofspiel", 4, True), ("oh_hell", 4, False), ("snowy_tricks", 4, True)]


def _explicit(name: str, players: int):
    """A program of its own (load_program's is shared: the general one is changed)."""
    return compile_ruleset(load_ruleset(name, None, {}), players, True)


def _general(program):
    """The same program with the single-step shortcut off: every pushed block takes the VM's loop."""
    for block in program.blocks:
        block.single = None
    return program


def _looped(program):
    """The same program with the VM's loop over each block's statements, not its generated
    function (compile/block_code.py)."""
    for block in program.blocks:
        block.code = None
    return program


def _pushed(program):
    """The same program with every `if` pushing its branches' blocks (none run at a slot), on
    the VM's loop (a block's generated function has its `if`s' picks written in)."""
    for block in _looped(program).blocks:
        for step in block.steps[:block.size]:
            if isinstance(step, IfStep):
                step.pick = IfStep(step.branches, step.otherwise).pick
    return program


def _without_frames(st) -> dict:
    data = st.to_json()
    del data["frames"]
    return data


def _answers(game: Game, st, rng: random.Random) -> list[int]:
    """Random option indexes for the pending decision (one per deciding seat; one for a draw)."""
    return [rng.randrange(len(options)) for options in st.pending.options]


def _in_lockstep(first: Game, second: Game, seed: int, view, explicit: bool = True) -> None:
    """Play the same seeded game on two programs, the same random answers to both: `view` of
    each state (and its count of statements run) is the same after every answer, and so is the end."""
    a, b = first.start(seed, explicit=explicit), second.start(seed, explicit=explicit)
    rng = random.Random(seed)
    while True:
        assert view(a) == view(b)
        assert a.steps == b.steps
        if a.pending is None:
            break
        choices = _answers(first, a, rng)
        first.answer(a, choices)
        second.answer(b, choices)
    assert a.result == b.result is not None


@pytest.mark.parametrize("name, players, single", GAMES)
def test_single_step_blocks_give_the_general_paths_states(name, players, single):
    fast = Game(_explicit(name, players))
    general = Game(_general(_explicit(name, players)))
    assert any(block.single is not None for block in fast.program.blocks) == single
    for seed in range(12):
        _in_lockstep(fast, general, seed, State.to_json)


ALL_GAMES = [("goofspiel", 2), ("goofspiel", 4), ("oh_hell", 3), ("oh_hell", 5), ("snowy_tricks", 2),
             ("snowy_tricks", 4), ("snow_time", 2), ("snow_time", 5), ("snow_planner", 1), ("snow_planner", 3),
             ("snowfall_over_mountains", 1)]


@pytest.mark.parametrize("name, players", ALL_GAMES)
def test_a_blocks_generated_function_gives_the_vms_loops_states(name, players):
    """Each block's statements as one generated function, or the VM's loop over them: the same
    state (frames too) and the same count of statements after every answer, explicit or not."""
    generated = Game(_explicit(name, players))
    looped = Game(_looped(_explicit(name, players)))
    assert all((block.code is not None) == (block.size > 1 or len(block.steps) > block.size)
               for block in generated.program.blocks)
    for seed in range(4):
        for explicit in (True, False):
            _in_lockstep(generated, looped, seed, State.to_json, explicit)


@pytest.mark.parametrize("name, players, single", GAMES)
def test_branches_at_slots_give_the_pushed_branches_states(name, players, single):
    """The same game, step for step, whether an `if` runs its single-step branches at slots of
    its own block or pushes their blocks: everything but the frames is the same after every
    answer, and so is the number of statements run (the budget counts them)."""
    inlined = Game(_explicit(name, players))
    pushed = Game(_pushed(_explicit(name, players)))
    slots = [step for block in inlined.program.blocks for step in block.steps[block.size:] if step is not None]
    assert bool(slots) == single and all(isinstance(step, InlinedBranch) for step in slots)
    for seed in range(12):
        _in_lockstep(inlined, pushed, seed, _without_frames)


def test_a_state_saved_in_a_branchs_own_frame_resumes_there():
    """A state written while a branch's block was pushed (as before slots, or by a program that
    pushes it) resumes in a program that runs that branch at a slot: the branch's block is still
    there, and the game goes on as it would have."""
    inlined = Game(_explicit("goofspiel", 2))
    pushed = Game(_pushed(_explicit("goofspiel", 2)))
    resumed = 0
    for seed in range(6):
        b = pushed.start(seed, explicit=True)
        rng = random.Random(seed)
        while b.pending is not None:
            top = pushed.program.blocks[b.frames[-1].block]
            if top.single is not None:  # waiting in a branch's own frame
                a = State.from_json(b.to_json())
                choices = _answers(pushed, b, rng)
                inlined.answer(a, choices)
                pushed.answer(b, choices)
                assert _without_frames(a) == _without_frames(b) and a.steps == b.steps
                resumed += 1
            else:
                pushed.answer(b, _answers(pushed, b, rng))
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


def test_a_branch_that_is_an_if_is_pushed(tmp_path):
    """An `if` alone in a branch keeps its slots in its own block, so it is pushed rather than
    run at a slot of the outer `if`'s block (its jumps would land in the wrong block); the game is
    the one that pushes every branch."""
    program = compile_ruleset(ruleset(tmp_path, NESTED), 2)
    turns = next(block for block in program.blocks if block.kind == "turns")
    outer = next(step for step in turns.steps[:turns.size] if isinstance(step, IfStep))
    assert isinstance(program.blocks[outer.branches[0][1]].single, IfStep)
    slotted = [step.step for block in program.blocks for step in block.steps[block.size:] if step is not None]
    assert len(slotted) == 2 and all(isinstance(step, ChooseStep) for step in slotted)
    states = []
    for game in (Game(program), Game(_pushed(compile_ruleset(ruleset(tmp_path, NESTED), 2)))):
        events = []
        st = game.start(0, decide=lambda st: st.pending.options[0][-1], sink=events.append)
        states.append((_without_frames(st), st.steps, [e["text"] for e in events if e["e"] == "say"]))
    assert states[0] == states[1]
    assert states[0][2] == ["first 5", "late 3", "late 3"]


def test_only_a_sequence_of_one_step_is_single():
    program = _explicit("goofspiel", 2)
    for block in program.blocks:
        one_step = block.kind == "sequence" and block.size == 1 and block.natives[0] is None
        assert (block.single is block.steps[0]) if one_step else block.single is None


# The budget runs out inside a branch of one step (an `if` whose block is one decision, answered
# as the rules reach it): the error points where the general path points.
ENDLESS = "each turn:\n    if turn > 0:\n        ask first(players) to choose n from [1, 2]:\n            announce n\n"


@pytest.mark.parametrize("shortcut", [True, False])
@pytest.mark.parametrize("budget", [200, 201, 202])
def test_the_budget_ends_in_a_single_step_block_where_the_general_path_ends(tmp_path, shortcut, budget):
    program = compile_ruleset(ruleset(tmp_path, ENDLESS), 2)
    assert any(block.single is not None for block in program.blocks)
    if not shortcut:  # nor a slot for the branch: the VM's general path throughout
        _pushed(_general(program))
    program.max_steps = budget
    with pytest.raises(RuntimeRulesError) as raised:
        Game(program).start(0, decide=lambda st: st.pending.options[0][0])
    assert f"the game ran more than {budget} steps" in str(raised.value)
    assert ("rules.sr:2:5" if budget % 2 else "rules.sr:3:9") in str(raised.value)


def test_a_draw_knows_its_constant_zones_and_count_and_calls_the_others():
    program = _explicit("oh_hell", 4)
    draws = [step for block in program.blocks for step in block.steps if isinstance(step, DrawStep)]
    assert draws
    for step in draws:
        for known, closure in ((step.known_source, step.source), (step.known_target, step.target),
                               (step.known_count, step.count)):
            constant = getattr(closure, "constant", None)
            assert known == (None if constant is None else constant[0])
    assert any(step.known_target is None for step in draws)  # a seat's hand: read each time


def _step_at(program, st):
    frame = st.frames[-1]
    return program.blocks[frame.block].steps[frame.pc]


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


@pytest.mark.parametrize("branches", [3, 17], ids=["in-one-expression", "one-by-one"])
@pytest.mark.parametrize("otherwise", [None, 99], ids=["no-otherwise", "otherwise"])
def test_an_if_around_steps_pushes_the_first_branch_whose_condition_holds(branches, otherwise):
    """IfStep's picker (one generated expression, or a loop past 16 branches): the block of the
    first true condition, later true ones left alone; `otherwise` (or nothing) when none holds.
    Branch k's condition reads env[k], its block is 10 + k."""
    from snowrules.compile.closures import local
    from snowrules.compile.steps import IfStep
    from snowrules.model.values import Frame
    step = IfStep([(local(k), 10 + k) for k in range(branches)], otherwise)

    class St:
        frames: list

    for true_ones, expected in [({1, 2}, 11), ({branches - 1}, 10 + branches - 1), (set(), otherwise)]:
        st = St()
        st.frames = [Frame(0, 1, 0)]
        env = [k in true_ones for k in range(branches)]
        assert step.run(st, st.frames[0], env, None) is False
        pushed = [(f.block, f.pc, f.env) for f in st.frames[1:]]
        assert pushed == ([] if expected is None else [(expected, 0, 0)])


@pytest.mark.parametrize("looped", [False, True], ids=["generated", "vm-loop"])
@pytest.mark.parametrize("pc", [99, 5, -3])
def test_a_frame_at_no_statement_is_refused_not_run_for_ever(looped, pc):
    """A state written by hand whose frame's pc names no statement of its block (past its slots,
    the empty place at its end, or below 0) ends with a rules error at a position of the block,
    from the block's generated function as from the VM's loop; it does not go round for ever.
    Goofspiel's turn has 5 statements (pc 5 is its end: the next turn) and slots 6 and 7."""
    program = _explicit("goofspiel", 2)
    if looped:
        _looped(program)
    game = Game(program)
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
    assert "rules.sr:" in str(raised.value)
