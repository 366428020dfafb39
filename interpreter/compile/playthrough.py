"""The generator: a program (compile/compiler.py) written as one Python module of functions,
the only code that runs a game.

Each compiled block becomes one generated function (snowrules' own templates; the ruleset's
values are bound in the functions' namespaces, as in fuse.py): its native statements' lines are
laid out inline, and its steps become plain Python control flow: an `if` whose branch may wait is
an `if`, a loop a `for`, a phase its lines, a decision a call that asks `st.decide` and runs what
follows the answer straight away. A decision's answer, a `resolve` and a random agent's `up to N`
choice are lines in place too, and a `when` rule's condition is tested at each counter change it
watches, so that triggers.fire is called only when a rule may fire.

Two builds of a program are made, each once (Program.built): "plain", for a game whose every
decision is answered in place (`play` with random agents, a search's playouts), which keeps no
frames; and "stoppable", for a game answered from outside (a person, a replay, a scenario, the
OpenSpiel adapter), whose state must be data at every decision: there a decision nobody answers
in place returns a steps.Stopped through every statement it leaves, each adding its frame, and
each block has a resume entry that goes on from a frame of it (compile/playthrough_stops.py).

Events and free actions keep as counts of their own what a stopped state's frames hold: how
many reactions are running (the depth of a chain, bounded) and whether a free action's body is
running (its decisions offer no free action). A statement that raises events decides which
reactions fire once it is done, runs the `when` rules it set off, then the reactions; a decision
offering free actions is a loop that runs each free action taken and asks again (these templates
are in compile/playthrough_events.py). A program compiled with explicit chance (the OpenSpiel
adapter's) has its draws as steps: in an explicit state each waits as a chance decision.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable

from snowrules.compile import apply, budget, fuse
from snowrules.compile.chance import (
    ChanceStep,
    DrawStep,
    PickStep,
    ShuffleStep,
    draw_statement,
    explicit_draw_lines,
    explicit_pick_lines,
    explicit_shuffle_lines,
    pick_statement,
    shuffle_statement,
)
from snowrules.compile.closures import constant_in
from snowrules.compile.costs import PayStep
from snowrules.compile.free_actions import FreeChooseStep, OfferStep, free_actions_running
from snowrules.compile.generated_module import GeneratedModule
from snowrules.compile.generated_names import numbering
from snowrules.compile.playthrough_choices import ChoiceTemplates
from snowrules.compile.playthrough_events import EventTemplates
from snowrules.compile.playthrough_stops import Resumed, StopTemplates, stopped
from snowrules.compile.procedure_calls import RoutineCall
from snowrules.compile.reactions import Reacting, reactions_started
from snowrules.compile.statements import _CallStep
from snowrules.compile.steps import (
    ChooseStep,
    ForStep,
    GameEnded,
    IfStep,
    PushBlock,
    RepeatStep,
    ResolveStep,
    Stopped,
    TriggeredAdd,
    TurnsStep,
    WhileStep,
)
from snowrules.compile.triggers import prefiltered
from snowrules.language.diagnostics import RulesetError
from snowrules.model.events import PhaseStarted, kinds_of
from snowrules.model.program import Program

Run = Callable[[object, list], None]


BUILD_RECURSION_LIMIT = 20_000  # Python frames while generating a program's functions


def playthrough(program: Program, heard: frozenset[str] = frozenset(),
                stoppable: bool = False) -> Callable[[object], None]:
    """A function that plays a started state (see Game.play_through) to its end. What is listened
    to is known when the game is built: the event lines of the kinds in `heard` (event class
    names) are kept, each a direct call of `State.sink`; the others are left out and cost nothing.
    `stoppable`: a decision nobody answers in place stops the game, its frames made on the way out
    (steps.Stopped), and each block gets an entry that goes on from a frame of it
    (`_Builder.resume_entry`), so that `start` and `rest` serve a game answered from outside, and
    `rest` a stopped game played on to its end by agents answering in place."""
    # Blocks are built inside the blocks that call them, so a ruleset whose procedures, effects and
    # reactions nest deeply builds deeply (several hundred frames for a full euro game): the builder
    # gets a higher limit of its own, and a ruleset deeper still is refused.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, BUILD_RECURSION_LIMIT))
    try:
        with numbering(program.first_free_name):  # the same names in every build of the program
            builder = _Builder(program, heard, stoppable)
            main = builder.function(program.main.block)
            resumes = [builder.resume_entry(block) for block in program.blocks] if stoppable else None
            builder.finish()
        builder.module.load()
    except RecursionError:
        raise RulesetError.at(program.blocks[program.main.block].position,
                              "the rules nest too deeply to be built (procedures, effects and reactions "
                              "calling one another, each inside blocks)", code="SR705") from None
    finally:
        sys.setrecursionlimit(limit)
    position = program.blocks[program.main.block].position

    ending = (GameEnded, *fuse.PYTHON_ERRORS)  # what leaves the generated code other than a rules error

    def ended_by(st, error: Exception) -> None:
        """`end game` ends the game; a Python error is the rules' error at the innermost generated
        line (fuse.rules_error)."""
        if error.__class__ is GameEnded:
            apply.end_game(st, error.ending)
            return
        raise fuse.rules_error(error, position, "while the game ran") from None

    def ended(st, run: Callable, *arguments) -> Stopped | None:
        try:
            return run(*arguments)
        except ending as error:
            ended_by(st, error)

    def play(st) -> None:
        ended(st, main, st, st.envs[0])

    def rest(st) -> None:
        """A stopped state played on from its frames to its end or next stop: the frames run from
        the top down, each block's statements from the frame's `pc` and what its kind does at its
        end (the next items of a loop, the next turns), everything they start running in place.
        (One function, not `ended` around a loop: an explicit game, the adapter's, comes here at
        every node.)"""
        frames = st.frames
        try:
            while frames:
                frame = frames[-1]
                if counted:
                    running_from_frames(frames)
                stop = resumes[frame.block](st, frame)
                if stop is not None:
                    # stopped inside this frame's block (a deal's next draw, the next seat's turn
                    # in its loop, the next turn): the entry moved the frame to its new place, and
                    # the frames inside it go on top
                    if stop.frames:
                        stopped(st, stop)
                    return
                frames.pop()
        except ending as error:
            ended_by(st, error)
        finally:
            if counted:
                reactions_running[0] = free_action_running[0] = 0

    # The counts the generated code keeps of the reactions and free actions running, read from
    # the frames when a stopped game goes on from them (a reaction has started when its frame's
    # pc is past 0: reactions.reactions_started; free_actions.free_actions_running).
    reactions_running, free_action_running = builder.reactions_running, builder.free_action_running
    reacting = program.reactions.blocks if program.reactions is not None else frozenset()
    freeing = frozenset(action.routine.block for action in program.free_actions)
    counted = bool(reacting or freeing)

    def running_from_frames(frames: list) -> None:
        top = frames[-1]  # about to run: started, even at its first statement
        reactions_running[0] = reactions_started(frames, reacting) + (top.block in reacting and top.pc == 0)
        free_action_running[0] = free_actions_running(frames, freeing)

    def start(st) -> None:
        """A new game run to its first decision nobody answers in place (or its end)."""
        stop = ended(st, main, st, st.envs[0])
        if stop is not None:
            st.frames = []
            stopped(st, stop)
    play.module = builder.module  # its text: `snowrules explain --code`
    play.rest = None if resumes is None else rest
    play.start = start if stoppable else None
    return play


def module_title(program: Program, heard: frozenset[str]) -> str:
    """What a played-through module is of, for its file name: the ruleset, the configuration and
    what its events are built for."""
    variant = f", variant {program.variant}" if program.variant else ""
    options = "".join(f", {key}={value}" for key, value in sorted(program.options.items()))
    kinds = heard - {apply.TALLY}
    hears = "every event" if kinds >= kinds_of(None) else ", ".join(sorted(kinds)) or "no event"
    if apply.TALLY in heard:
        hears += ", counting moves"
    players = f"{program.players} player{'' if program.players == 1 else 's'}"
    return f"{program.ruleset}, {players}{variant}{options}, hearing {hears}"


# The chance statements written in place, by step kind: (as a statement, every draw from the
# generator; where a draw may wait as a chance node). The others (a roll, a weighted pick) go
# through the chance loop (ChanceStep.advance).
_CHANCE_LINES = {DrawStep: (draw_statement, explicit_draw_lines),
                 ShuffleStep: (shuffle_statement, explicit_shuffle_lines),
                 PickStep: (pick_statement, explicit_pick_lines)}


class _Builder(ChoiceTemplates, EventTemplates, StopTemplates):
    def __init__(self, program: Program, heard: frozenset[str], stoppable: bool = False):
        self.program = program
        self.heard = heard
        self.stoppable = stoppable  # each statement that may stop adds its frame (see `stopping`)
        self.module = GeneratedModule(module_title(program, heard))
        self.functions: dict[int, Run] = {}  # block id -> its generated function
        self.building: set[int] = set()       # blocks whose function is being generated
        # what a stopped state's frames hold (see the module's docstring): one game runs at a time
        self.reactions_running = [0]
        self.free_action_running = [0]
        self.unfilled: list[tuple[dict, ResolveStep]] = []  # see effect_entries
        self.entries: dict[int, Callable] = {}  # an effect's block id -> its entry
        self.on_stop: list[str] = []  # see StopTemplates
        self.waiting_routines: list[int] | None = None  # see EventTemplates.after_statement

    def function(self, block_id: int) -> Run:
        if block_id not in self.functions:
            self.building.add(block_id)
            try:
                lines, namespace = self.separately(lambda: self.block_lines(block_id))
                lines = self.final_lines(lines, namespace)
                name = fuse.fresh("_block")
                source = f"def {name}(st, env):\n" + "\n".join(fuse.indent(lines))
                self.functions[block_id] = self.module.define(name, source, namespace)
            finally:
                self.building.discard(block_id)
        return self.functions[block_id]

    def final_lines(self, lines: list[str], namespace: dict) -> list[str]:
        """A block's lines as they run: the `when` rules' conditions tested at each counter
        change, and no event lines of the kinds nobody hears."""
        return _without_spare_passes(prefiltered(apply.unheard(lines, self.heard), namespace))

    def answered(self, step: ChooseStep) -> Run | None:
        """What follows a decision's answer: its native body, or its block's function, or None."""
        if step.native_body is not None:
            return step.native_body
        return None if step.block is None else self.function(step.block)

    def ensure(self, block_id: int) -> None:
        """A routine looked up in `functions` when it runs (a trigger, a reaction, a free action):
        built now, unless it is being built (it holds a statement that may run it again)."""
        if block_id not in self.functions and block_id not in self.building:
            self.function(block_id)

    def call(self, block_id: int, namespace: dict, env: str = "env") -> str:
        function = self.function(block_id)
        name = self.module.name_of(function)  # a function of the module: called by its name
        if name is None:
            name = fuse.fresh("_b")
            namespace[name] = function
        return f"{name}(st, {env})"

    def block_lines(self, block_id: int) -> tuple[list[str], dict]:
        block = self.program.blocks[block_id]
        lines: list[str] = []
        namespace: dict = {}
        for pc in range(block.size):
            lines += self.statement_lines(block, pc, namespace)
        return lines or ["pass"], namespace

    def statement_lines(self, block, pc: int, namespace: dict, resumed: Resumed | None = None) -> list[str]:
        """Statement `pc` of `block` as lines, under the mark of its rule's position. `resumed`: in
        a resume entry, where a stop there moves the resumed frame (playthrough_stops.Resumed)."""
        lines = [fuse.mark(block.positions[pc], namespace)]
        native = block.natives[pc]
        if native is not None:
            more, ns, _ = fuse.block_code(native)
            namespace.update(ns)
            return lines + more
        return lines + self.stopping(block.id, pc, resumed,
                                     lambda: self.step_lines(block.steps[pc], namespace, (block, resumed)))

    def value(self, fn, namespace: dict) -> str:
        src, ns = fuse.expression(fn)
        namespace.update(ns)
        return src

    def bound(self, value, namespace: dict) -> str:
        name = fuse.fresh("_v")
        namespace[name] = value
        return name

    def step_lines(self, step, ns: dict, where: tuple | None = None) -> list[str]:
        """A step's lines; `where`: its block and whether it is resumed (see `statement_lines`),
        for an `if` whose single-step branches run at their slots in its block (`branch_lines`)."""
        kind = type(step)
        if kind is PushBlock:
            lines = [] if step.phase is None else [
                apply.telling(PhaseStarted, f"{self.bound(apply.start_phase, ns)}(st, {self.bound(step.phase, ns)})")]
            more, more_ns = self.block_lines(step.block)  # a phase: its lines, in place
            ns.update(more_ns)
            return lines + more
        if kind is IfStep:
            lines = []
            for number, (cond, block) in enumerate(step.branches):
                lines += [f"{'if' if number == 0 else 'elif'} {self.value(cond, ns)}:",
                          *fuse.indent(self.branch_lines(step, block, where, ns))]
            if step.otherwise is not None:
                otherwise = self.branch_lines(step, step.otherwise, where, ns)
                lines += (["else:"] if lines else ["if True:"]) + fuse.indent(otherwise)
            return lines
        # Loops count their rounds against the game's step budget, as native loops do (budget.py).
        if kind is ForStep:
            item, items = fuse.fresh(), fuse.fresh()
            fail, where = self.bound(budget.over_budget, ns), self.bound(self.program.blocks[step.block].position, ns)
            # a folded constant list is gone through without a copy, its length known
            plain, length = fuse.read_only_list(step.source)
            built = fuse.filter_lines(step.source, items)
            if built is not None:  # a filter: built by a loop of its own, not a comprehension
                ns.update(built[1])
                making = built[0]
            else:
                source = self.value(plain, ns)
                copied = not (_fresh_list(source) or length is not None or _constant_row(source, ns))
                making = [f"{items} = {f'list({source})' if copied else source}"]
            at = fuse.fresh()
            looping = [f"for {at}, {item} in enumerate({items}):" if self.stoppable else f"for {item} in {items}:",
                       f"    env[{int(step.slot)}] = {item}",
                       *fuse.indent(self.in_loop(self.call(step.block, ns), items, at, ns))]
            if length is not None:
                return [*making, *budget.charge_lines(str(length), where, fail), *looping]
            # an empty list (a filter that kept nothing, as often as not) costs one test
            return [*making, f"if {items}:", *fuse.indent(budget.charge_lines(f"len({items})", where, fail)),
                    *fuse.indent(looping)]
        if kind is WhileStep:
            fail, where = self.bound(budget.over_budget, ns), self.bound(self.program.blocks[step.block].position, ns)
            return [f"while {self.value(step.cond, ns)}:",
                    *fuse.indent(self.checked(self.call(step.block, ns))),
                    *fuse.indent(budget.charge_lines("1", where, fail))]
        if kind is RepeatStep:
            rounds = fuse.fresh()
            fail, where = self.bound(budget.over_budget, ns), self.bound(self.program.blocks[step.block].position, ns)
            at = fuse.fresh()
            return [f"{rounds} = {self.value(step.count, ns)}",
                    *budget.charge_lines(f"max({rounds}, 0)", where, fail),
                    f"for {at} in range({rounds}):",
                    *fuse.indent(self.in_loop(self.call(step.block, ns), f"range({rounds})", at, ns))]
        if kind is TurnsStep:
            return self.turns_lines(step, ns)
        if kind is _CallStep:
            lines = [f"env[{int(slot)}] = {self.value(arg, ns)}" for slot, arg in step.bindings]
            return lines + self.checked(self.call(step.block, ns))
        if kind is RoutineCall:  # a procedure compiled once: its own environment, its arguments first
            values = "".join(f"{self.value(arg, ns)}, " for arg in step.arguments)
            spare = self.bound((None,) * (step.env_size - len(step.arguments)), ns)
            return self.checked(self.call(step.block, ns, f"[{values}*{spare}]"))
        if self.stoppable and kind is ChooseStep and step.simultaneous and step.count_mode is not None:
            return self.answered_together_lines(step, ns)
        if kind is FreeChooseStep:
            return self.checked(f"{self.bound(self.free_choose(step, self.answered(step)), ns)}(st, env)")
        if kind is OfferStep:
            return self.checked(f"{self.bound(self.offer(step), ns)}(st, env)")
        if kind is Reacting:
            return self.checked(f"{self.bound(self.reacting(step), ns)}(st, env)")
        if kind is ChooseStep and step.count_mode is None:  # one item (or none, when optional)
            return self.choose_each_lines(step, ns) if step.simultaneous else self.choose_one_lines(step, ns)
        if kind is ChooseStep and not step.simultaneous:
            return self.choose_count_lines(step, ns)
        if kind is ChooseStep:
            return self.played_through_lines(step, ns)
        if kind is ResolveStep:
            return self.resolve_lines(step, ns)
        if kind is TriggeredAdd:
            return self.checked(f"{self.bound(self.triggered(step), ns)}(st, env)")
        if kind is PayStep:
            return self.checked(f"{self.bound(self.pay(step), ns)}(st, env)")
        written = _CHANCE_LINES.get(kind)
        if written is not None and (kind is not PickStep or step.weight is None):
            # a draw of a program with explicit chance, written in place: it waits in an explicit state
            if not self.stoppable:  # nothing waits: every draw from the generator
                fn = written[0](step)
                ns.update(fn.ns)
                return fn.lines
            lines, more = written[1](step, [f"_r = {self.bound(Stopped, ns)}()", *self.on_stop, "return _r"])
            ns.update(more)
            return lines
        if isinstance(step, ChanceStep):  # the other chance statements, through the chance loop
            advance = f"{self.bound(step.advance, ns)}(st, env)"
            if not self.stoppable:
                return [advance]
            return [f"if {advance}:", f"    _r = {self.bound(Stopped, ns)}()",
                    *fuse.indent([*self.on_stop, "return _r"])]
        raise TypeError(f"no template for the step {kind.__name__}")  # a bug: every step has one

    def branch_lines(self, step: IfStep, branch: int, where: tuple | None, ns: dict) -> list[str]:
        """An `if`'s branch: a call of its block, or, for a branch of a single step that has a
        slot in the `if`'s block (steps.IfStep.inline), the step's lines in place, a stop there
        keeping the `if`'s frame at the slot (a stop inside what the step ran, after the `if`),
        as a resume entry's slot resumes it: no function called, no frame of the branch's own."""
        slot = step.slots.get(branch)
        if slot is None or where is None:
            return self.checked(self.call(branch, ns))
        block, resumed = where
        inlined = block.steps[slot]
        outer = self.on_stop
        self.on_stop = outer[1:]  # the `if`'s own frame is the slot's
        try:
            return [fuse.mark(block.positions[slot], ns),
                    *self.stopping(block.id, slot, resumed, lambda: self.step_lines(inlined.step, ns),
                                   inlined.after)]
        finally:
            self.on_stop = outer

    def turns_lines(self, step: TurnsStep, ns: dict, done: str | None = None,
                    body: Callable[[], list[str]] | None = None) -> list[str]:
        """`each turn:` / `rounds N:`: each turn numbered, checked against the limit (evaluated
        before each turn, at the end of the one before) and the budget, started, played. `done`
        names the number of the turn last played (a resume entry's `end_of_block_lines`); None:
        none yet. `body`: the turn's lines in place (a resume entry's), rather than a call of its
        block."""
        block = self.program.blocks[step.block]
        turn, counter = done or fuse.fresh(), int(self.program.turn_counter)
        started = self.bound(apply.start_turn, ns)
        played = self.in_loop(self.call(step.block, ns), None, turn, ns) if body is None else body()
        fail, where = self.bound(budget.over_budget, ns), self.bound(block.position, ns)
        lines = ([] if done else [f"{turn} = 0"]) + ["while True:", f"    {turn} += 1"]
        fixed = None if block.limit is None else constant_in(block.limit)
        if fixed is not None and fixed[0].__class__ is int:  # a number of rounds known while compiling
            lines.append(f"    if {turn} > {int(fixed[0])}: break")
        elif block.limit is not None and fixed != (None,):  # a count that is none sets no limit
            limit, limit_ns = fuse.expression(block.limit)
            ns.update(limit_ns)
            count = fuse.fresh()
            lines += [f"    {count} = {limit}", f"    if {count} is not None and {turn} > {count}: break"]
        # the turns themselves are bounded by their number (the rounds of the loops in them are charged)
        lines += [f"    if {turn} > st.max_steps: {fail}({where}, st.max_steps)",
                  f"    {started}(st, {counter}, {turn})", *fuse.indent(played)]
        resumed = done is not None
        return (self.paused_lines(block, turn, resumed, ns) if resumed else []) + lines + \
            fuse.indent(self.paused_lines(block, turn, resumed, ns))

    def paused_lines(self, block, turn: str, resumed: bool, ns: dict) -> list[str]:
        """At the end of turn `turn`, in a stoppable build: a scenario looking at the end of that
        turn stops the game there, the turns' frame at its end (in a resume entry, the resumed
        frame moved there)."""
        if not self.stoppable:
            return []
        place = ([f"frame.pc, frame.index = {int(block.size)}, {turn}"] if resumed else
                 [f"_r.at({int(block.id)}, {int(block.size)}, env, None, {turn})", *self.on_stop])
        return [f"if st.pause_after_turn == {turn}:",
                "    st.pause_after_turn = None",
                "    st.paused = True",
                f"    _r = {self.bound(Stopped, ns)}()",
                *fuse.indent([*place, "return _r"])]

    def resolve_lines(self, step: ResolveStep, ns: dict) -> list[str]:
        """`resolve CARD for PLAYER` written inline (as ResolveStep.run, without a frame): the
        entry of the card's definition's effect looked up and called with the card and the
        player (`effect_entries`: each entry makes the effect's environment and runs its lines)."""
        card, entry = fuse.fresh(), fuse.fresh()
        return [f"{card} = {self.value(step.card, ns)}",
                f"if {card} is not None:",
                f"    {entry} = {self.bound(self.effect_entries(step), ns)}.get({self.bound(step.defs, ns)}[{card}])",
                f"    if {entry} is not None:",
                *fuse.indent(fuse.indent(self.checked(f"{entry}(st, {card}, {self.value(step.player, ns)})")))]

    def effect_entries(self, step: ResolveStep) -> dict:
        """Definition -> the entry of its effect, a generated function `(st, this, me)` that makes
        the effect's environment and runs the effect's block's lines in place (no frame, no call
        of the block). The table is filled once every block is built (`finish`): an effect may
        resolve itself again, so its entry is looked up when it runs."""
        table: dict = {}
        self.unfilled.append((table, step))
        return table

    def finish(self) -> None:
        """Fill the tables of `effect_entries`, building each effect's entry once (building one
        may ask for more tables)."""
        while self.unfilled:
            table, step = self.unfilled.pop()
            for definition, routine in step.routines.items():
                if routine.block not in self.entries:
                    self.entries[routine.block] = self.entry(routine)
                table[definition] = self.entries[routine.block]

    def entry(self, routine) -> Callable:
        lines, namespace = self.separately(lambda: self.block_lines(routine.block))
        lines = self.final_lines(lines, namespace)
        return _entry_function(self.module, lines, namespace, routine.env_size, routine.slots["this"],
                               routine.slots["me"])


SMALL_ENVIRONMENT = 12  # an effect's environment of at most this many slots is written as a list display


def _entry_function(module: GeneratedModule, lines: list[str], namespace: dict, size: int, this: int,
                    me: int) -> Callable:
    """A generated function `(st, this, me)` of `module` that makes an environment of `size`
    slots with `this` and `me` in theirs, then runs `lines` (snowrules' templates)."""
    name = fuse.fresh("_effect")
    if size <= SMALL_ENVIRONMENT:  # a list display: no multiplication, no stores
        slots = ["None"] * int(size)
        slots[int(this)], slots[int(me)] = "this", "me"
        making = [f"    env = [{', '.join(slots)}]"]
    else:
        making = [f"    env = [None] * {int(size)}", f"    env[{int(this)}] = this", f"    env[{int(me)}] = me"]
    return module.define(name, "\n".join([f"def {name}(st, this, me):", *making, *fuse.indent(lines)]), namespace)


def _without_spare_passes(lines: list[str]) -> list[str]:
    """Generated lines without the `pass` lines that follow a statement of their own block (a
    dropped event line, a template's placeholder): Python keeps each as an instruction, run every
    time. A `pass` that a block needs (its first line) stays. The lines are snowrules' templates,
    one statement a line, indented by four spaces a level."""
    kept: list[str] = []
    last = None  # the last line kept that is not a comment
    for line in "\n".join(lines).split("\n"):
        text = line.lstrip()
        if text == "pass" and last is not None:
            indent, last_indent = len(line) - len(text), len(last) - len(last.lstrip())
            if last_indent > indent or (last_indent == indent and not last.endswith(":")):
                continue
        kept.append(line)
        if text and not text.startswith("#"):
            last = line.rstrip()
    return kept


def _fresh_list(src: str) -> bool:
    """Whether a generated expression makes a new list each time it runs (a comprehension, a
    list of unpacked zones, a copy): a loop over it needs no copy of its own. The text is snowrules' templates, in which
    no bracket is ever inside a text (values are bound names), so brackets can be counted."""
    body = src[1:-1] if src.startswith("(") and src.endswith(")") else src
    if body.endswith("[:]"):
        return re.fullmatch(r"_v\d+\[:\]", body) is not None
    if not (body.startswith("[") and body.endswith("]") and (" for " in body or body.startswith("[*"))):
        return False
    depth = 0
    for at, char in enumerate(body):
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0:
            return at == len(body) - 1  # the first bracket closes only at the end
    return False


def _constant_row(src: str, namespace: dict) -> bool:
    """Whether a generated expression is a row of a table of lists that snowrules made while
    compiling (`_v5[leader % 4]`: players_from's orders): no game's zone, and lists are never
    changed in place, so a loop goes through it without a copy. The text is snowrules'
    templates (brackets counted as in `_fresh_list`)."""
    body = src[1:-1] if src.startswith("(") and src.endswith(")") else src
    found = re.match(r"(_v\d+)\[", body)
    table = namespace.get(found.group(1)) if found else None
    if type(table) not in (list, tuple) or not table or not all(type(row) in (list, tuple) for row in table):
        return False
    depth = 0
    for at, char in enumerate(body[found.end() - 1:], start=found.end() - 1):
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0:
            return at == len(body) - 1  # the index's bracket closes only at the end
    return False
