"""Statements to generated functions and blocks.

A statement that can never wait for a decision compiles to native code `fn(state, env)`, loops and
branches included (generated lines, see fuse.py; a run of such statements becomes one function).
A statement that may wait (a choice, a card's effect, a call or a counter change whose trigger may
choose) compiles to a step object, whose generated code can stop and resume (playthrough.py). Which is which is derived
from the statement's intermediate form before anything is compiled (compile/ir/effects.py).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snowrules.compile import apply, found_by_loop, fuse
from snowrules.compile.automa import played_by_rules
from snowrules.compile.budget import charge_lines, over_budget
from snowrules.compile.chance import CHANCE, ChanceStatements, outcome_kind
from snowrules.compile.changes import ChangeStatements
from snowrules.compile.closures import constant_in
from snowrules.compile.costs import CostStatements
from snowrules.compile.decision_blocks import answer_never_none, declined_or_chosen
from snowrules.compile.expressions import ExpressionCompiler
from snowrules.compile.free_actions import FreeActionTable, FreeChooseStep, OfferStep
from snowrules.compile.grid_statements import GridStatements
from snowrules.compile.ir.effects import Effects
from snowrules.compile.option_texts import compile_option_text, with_option_text
from snowrules.compile.payment_prompts import offer_prompt, payment_step
from snowrules.compile.procedure_calls import ProcedureCalls
from snowrules.compile.prompt_values import compile_prompt, with_prompt
from snowrules.compile.reactions import Events, Reacting
from snowrules.compile.remembered import RememberedStatements
from snowrules.compile.scope import RECURSION_HINT, Scope, Symbols, recursion_message, refined, suggest
from snowrules.compile.spot_pieces import placed_piece, with_placed_piece
from snowrules.compile.steps import (
    ChooseStep,
    ForStep,
    IfStep,
    PushBlock,
    RepeatStep,
    ResolveStep,
    TriggeredAdd,
    WhileStep,
)
from snowrules.compile.triggers import TriggerRuntime, release
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position
from snowrules.language.limits import bound_line, refusal_of_large_number, stored_number
from snowrules.model import kinds as t
from snowrules.model.events import PhaseStarted
from snowrules.model.layout import Layout
from snowrules.model.program import LOOP, SEQUENCE, WHILE, Block

Native = Callable[[Any, list], None]


def assigned_names(node: s.Node) -> frozenset[str]:
    """Names a block assigns with `name = value` (its parameters among them need own slots).
    A procedure's body is asked at each of its calls: the walk is done once per body (by
    identity: hashing a syntax tree would walk it too)."""
    found = _ASSIGNED.get(id(node))
    if found is None or found[0] is not node:
        if len(_ASSIGNED) > 4096:
            _ASSIGNED.clear()
        found = _ASSIGNED[id(node)] = (node, frozenset(item.name for item in s.walk(node)
                                                        if isinstance(item, s.Assign)))
    return found[1]


_ASSIGNED: dict[int, tuple[s.Node, frozenset[str]]] = {}  # id of a body -> (the body, its names)


class StatementCompiler(ChangeStatements, ChanceStatements, CostStatements, GridStatements, RememberedStatements):
    _handlers: dict = {}  # node class -> method; filled below the class

    def __init__(self, exprs: ExpressionCompiler, blocks: list[Block], analysis: Effects,
                 triggers: dict[str, list[TriggerRuntime]], effects: dict[int, Any]):
        self.x = exprs
        self.sym: Symbols = exprs.sym
        self.layout: Layout = exprs.layout
        self.diag: Diagnostics = exprs.diag
        self.blocks = blocks
        self.analysis = analysis
        self.triggers = triggers
        self.effects = effects
        self.calling: list[str] = []
        self.procedure_calls = ProcedureCalls()  # the procedures too big to expand at each call
        self.final_section = False  # compiling `at game end:` (an `end game` there is the final one)
        self.events: Events | None = None  # the ruleset's events (compile/reactions.py)
        # The ruleset's free actions (compile/free_actions.py), offered at its decisions of one
        # player; with them, phases keep `State.phase` so that a free action knows where it is.
        self.free_table: FreeActionTable | None = None
        self.field_effects: dict[str, dict[int, Any]] = {}  # `resolve CARD.FIELD` (see _resolve)

    # ---- blocks ---------------------------------------------------------------------------
    def new_block(self, kind: str, position: Position, slots: tuple[int, ...] = ()) -> Block:
        block = Block(len(self.blocks), kind, slots=slots, position=position)
        self.blocks.append(block)
        return block

    def native_body(self, node: s.Block, scope: Scope) -> Native:
        """One generated function for a block of statements that never wait."""
        lines, namespace, nesting = self.body_code(node, scope)
        return fuse.statement(lines, namespace, nesting)

    def body_code(self, node: s.Block, scope: Scope) -> tuple[list[str], dict, int]:
        lines, namespace, nesting = [], {}, 0
        for statement in node.statements:
            more, ns, depth = fuse.block_code(self.native(statement, scope))
            lines += more
            namespace.update(ns)
            nesting = max(nesting, depth)
        return lines, namespace, nesting

    def stepped_body(self, node: s.Block, scope: Scope, kind: str = SEQUENCE,
                     slots: tuple[int, ...] = ()) -> int:
        block = self.new_block(kind, node.pos, slots)
        self.fill(block, node, scope)
        return block.id

    def fill(self, block: Block, node: s.Block, scope: Scope) -> None:
        """Steps one by one; each run of native statements between them as one generated function
        (a runtime error in a run is reported at the run's first statement)."""
        run: list[tuple[Native, Position]] = []

        def flush():
            if len(run) == 1:
                block.add_native(*run[0])
            elif run:
                lines, namespace, nesting = [], {}, 0
                for fn, _ in run:
                    more, ns, depth = fuse.block_code(fn)
                    lines += more
                    namespace.update(ns)
                    nesting = max(nesting, depth)
                block.add_native(fuse.statement(lines, namespace, nesting), run[0][1])
            run.clear()

        def add(statements, scope):
            for statement in statements:
                if not self.analysis.may_pause(statement):
                    run.append((self.native(statement, scope), statement.pos))
                elif isinstance(statement, s.Phase):
                    # A phase that may wait is laid out inline: no block of its own to push.
                    run.append((_phase_event(statement.name), statement.pos))
                    if self.free_table is not None:
                        run.append((_phase_entered(statement.name), statement.pos))
                    add(statement.body.statements, scope.child())
                    if self.free_table is not None:
                        run.append((_phase_left(), statement.pos))
                else:
                    flush()
                    block.add_step(self.step(statement, scope), statement.pos)

        add(node.statements, scope)
        flush()

    # ---- resolve: a component's effect, or the effect written in another of its fields ------
    # `field_effects`: each field's routines per component definition, filled by the compiler
    # once the rules are compiled (`resolve c.on_leave for p` may stand above the components'
    # routines); `effect_fields`: the fields that hold statements, set by the compiler.
    effect_fields: frozenset[str] = frozenset()

    def _resolve(self, node: s.Resolve, scope: Scope) -> ResolveStep:
        """`resolve CARD for P` runs the card's `effect`; `resolve CARD.FIELD for P` the effect
        written in FIELD (a field whose schema says `"x-language": "effect"`). A component
        without that field resolves nothing, as one without an `effect` does."""
        target, routines = node.card, self.effects
        if isinstance(target, s.Attribute) and target.name in self.effect_fields:
            target = target.obj
            if node.card.name != "effect":
                routines = self.field_effects.setdefault(node.card.name, {})
        elif isinstance(target, s.Attribute) and target.name in self.layout.fields:
            self.diag.error(target.pos, f"the field {target.name!r} holds no effect to resolve",
                            f"fields with effects: {', '.join(sorted(self.effect_fields)) or 'none'}; "
                            "a field is an effect when its schema says \"x-language\": \"effect\"", code="SR402")
            target, routines = target.obj, {}
        card = self.x.expect(target, scope, t.COMPONENT, "the card to resolve")
        player = self.x.expect(node.player, scope, t.PLAYER, "the player who resolves it")
        return ResolveStep(card, player, routines, self.layout.component_defs, node.pos)

    # ---- statements that may wait ---------------------------------------------------------
    def step(self, node: s.Node, scope: Scope):
        reacting = self._reacting(node, scope)
        if reacting is not None:
            return reacting
        if isinstance(node, s.Choose):
            return self._choose(node, scope)
        if isinstance(node, CHANCE):
            return self.chance_step(node, scope)
        if isinstance(node, s.Resolve):
            return self._resolve(node, scope)
        if isinstance(node, s.If):
            branches = [(self.x.expect(c, scope, t.BOOL, "the condition"), self.stepped_body(b, scope.child()))
                        for c, b in node.branches]
            otherwise = self.stepped_body(node.otherwise, scope.child()) if node.otherwise else None
            return IfStep(branches, otherwise)
        if isinstance(node, s.ForEach):
            source, kind = self.x.sequence(node.source, scope, "the list to go through")
            inner = scope.child()
            slot = inner.define(node.var, t.element(kind))
            return ForStep(source, self.stepped_body(node.body, inner, LOOP, (slot,)), slot)
        if isinstance(node, s.While):
            cond = self.x.expect(node.cond, scope, t.BOOL, "the condition")
            block = self.new_block(WHILE, node.body.pos)
            block.cond = cond
            self.fill(block, node.body, scope.child())
            return WhileStep(cond, block.id)
        if isinstance(node, s.Repeat):
            count = self.x.expect(node.count, scope, t.INT, "the number of times")
            inner = scope.child()
            slot = inner.slots.new()
            return RepeatStep(count, self.stepped_body(node.body, inner, LOOP, (slot,)))
        if isinstance(node, s.Phase):
            return PushBlock(self.stepped_body(node.body, scope.child()), node.name)
        if isinstance(node, s.CallStatement):
            return self._call(node, scope, stepped=True)
        if isinstance(node, (s.Add, s.SetCounter)):
            return TriggeredAdd(self._counter_change(node, scope, stepped=True))
        if isinstance(node, s.Pay):
            return payment_step(self, node, scope)
        if isinstance(node, s.OfferFreeActions):
            return self._offer_free_actions(node, scope)
        if isinstance(node, s.Together):
            self.diag.error(node.pos, "a `together` block cannot wait for a decision",
                            "move the decision before or after the block")
            return IfStep([], None)
        raise AssertionError(f"not a step: {node}")  # pragma: no cover

    def _choose(self, node: s.Choose, scope: Scope) -> ChooseStep:
        inner = scope.child()
        player_slot = None
        if node.simultaneous:
            who = self.x.expect(node.who, scope, t.list_of(t.PLAYER), "the players who choose")
            player_slot = inner.define(node.chooser_var, t.PLAYER)
            if node.body is None:
                self.diag.error(node.pos, "a secret choice by several players needs a block of steps "
                                "(what each player does with their choice)")
        else:
            who = self.x.expect(node.who, scope, t.PLAYER, "the player who chooses")
        source, kind, is_zone = self.x.sequence_of(node.source, inner, "the options")
        count = None if node.count is None else self.x.expect(node.count, inner, t.INT, "the number of items")
        shown = compile_prompt(self.x, node, inner, self.diag, player_slot)  # before the answer is named
        placed = placed_piece(self.x, node, inner)  # the piece its spots are for, to preview them
        chosen = t.element(kind) if node.count_mode is None else (kind if t.is_list(kind) else t.list_of(
            t.COMPONENT))
        if kind == t.list_of(t.COMPONENT) and node.count_mode is not None:
            chosen = kind
        self.remembered_of(node, chosen, scope)
        target = inner if node.simultaneous or node.body is not None else scope
        slot = target.define(node.var, chosen)
        option_text = compile_option_text(self.x, node, target, slot, player_slot)  # `each as "TEXT"`
        if answer_never_none(node, is_zone and kind != t.ANY):
            target.present.add(node.var)
        block = native_body = None
        body = declined_or_chosen(node)
        if body is not None:
            body_scope = inner if node.simultaneous else target.child()
            if self.analysis.may_pause(body):
                kind_of_block = LOOP if node.simultaneous else SEQUENCE
                slots = (player_slot, slot) if node.simultaneous else ()
                block = self.stepped_body(body, body_scope, kind_of_block, slots)
            else:  # what follows the answer cannot wait: run it straight away
                native_body = self.native_body(body, body_scope)
        who = played_by_rules(who, node.who, self.layout, node.simultaneous, node.pos, self.diag)
        step = with_prompt(ChooseStep(simultaneous=node.simultaneous, who=who, player_slot=player_slot,
                                      source=source, slot=slot, optional=node.optional, count_mode=node.count_mode,
                                      count=count, block=block, native_body=native_body, position=node.pos,
                                      variable=node.var, kind=outcome_kind(t.element(kind))), shown)
        with_placed_piece(with_option_text(step, option_text), placed)
        if self.free_table is not None and not node.simultaneous:
            # a slot of its own counts the free actions taken before the decision is answered
            return FreeChooseStep.around(step, self.free_table, scope.slots.new())
        return step

    def _offer_free_actions(self, node: s.OfferFreeActions, scope: Scope) -> OfferStep:
        who = self.x.expect(node.player, scope, t.PLAYER, "the player offered free actions")
        if self.free_table is None:
            self.diag.error(node.pos, "no free action is declared: there is nothing to offer",
                            "declare one: `free action \"NAME\" for p when ...:`")
            return OfferStep(who, FreeActionTable(), scope.slots.new(), node.pos)
        automa = self.layout.automa
        if automa is not None and isinstance(node.player, s.Name) and node.player.name == "automa":
            self.diag.error(node.pos, f"free actions are not offered to the automa "
                            f"({self.layout.seat_names[automa]}): no agent plays it",
                            "offer them to the players: `for each p in players: offer free actions to p`")
        return with_prompt(OfferStep(who, self.free_table, scope.slots.new(), node.pos, automa),
                           offer_prompt(self, node, scope))

    # ---- events and reactions (compile/reactions.py) ----------------------------------------
    def _reacting(self, node: s.Node, scope: Scope) -> Reacting | None:
        """A statement that raises events, as a step that runs it and then pushes its reactions;
        None for any other statement."""
        if self.events is None:
            return None
        if isinstance(node, s.Together):
            if self.analysis.may_wait(node.body):
                return None  # reported by `step`: a `together` block cannot wait
            return Reacting(self.native(node, scope), self.events.table, node.pos)
        if not self.analysis.sets_off_reactions(node) or isinstance(node, s.Pay):  # a PayStep dispatches its own
            return None
        if isinstance(node, (s.Add, s.SetCounter)):
            return Reacting(self._counter_change(node, scope, stepped=True), self.events.table, node.pos)
        return Reacting(self.native(node, scope), self.events.table, node.pos)

    def _raise(self, node: s.Raise, scope: Scope):
        if self.events is None:  # pragma: no cover - the compiler always gives the events
            return lambda st, env: None
        return self.events.raise_native(node, scope, self.x)

    # ---- statements that run straight through ---------------------------------------------
    def native(self, node: s.Node, scope: Scope) -> Native:
        handler = self._handlers.get(type(node))
        if handler is None:
            self.diag.error(node.pos, f"a {type(node).__name__} cannot stand where a statement is expected")
            return lambda st, env: None
        fn = handler(self, node, scope)
        if getattr(fn, "lines", None) is not None:  # where the generated lines came from
            fn.lines = [fuse.mark(node.pos, fn.ns)] + fn.lines
        return fn

    def _let(self, node: s.Let, scope: Scope):
        fn, kind = self.x.compile(node.value, scope)
        if node.name in scope.names:
            self.diag.error(node.pos, f"{node.name!r} is already defined in this block",
                            "use `name = value` to change it")
        key = ("local", node.pos, node.name)
        slot = scope.define(node.name, self.sym.kinds.start(key, kind))
        scope.origins[node.name] = key
        return _given(fn, f"env[{int(slot)}]")

    def _assign(self, node: s.Assign, scope: Scope):
        """`name = value`; a whole number bounded as it is stored (limits.bound_line), not at each `+`."""
        fn, kind = self.x.compile(node.value, scope)
        refuse = fuse.fresh("_v")
        bounded = {refuse: refusal_of_large_number(node.value.pos, stored_number(node.value))} if kind == t.INT else {}
        local = scope.lookup(node.name)
        if local is not None:
            target = f"env[{int(local[0])}]"
            if local[1] == t.NONE or t.vague(local[1]):
                scope.retype(node.name, refined(local[1], kind))
                origin = scope.origin(node.name)
                if origin is not None:
                    self.sym.kinds.learn(origin, refined(local[1], kind))
            if bounded and found_by_loop.lines(fn, target) is None:
                src, ns = fuse.expression(fn)
                return fuse.statement([f"{target} = {src}", bound_line(target, refuse)], {**ns, **bounded}, 0)
            return _given(fn, target)
        variable = self.sym.variables.get(node.name)
        if variable is None:
            self.diag.error(node.pos, f"unknown variable {node.name!r}",
                            suggest(node.name, scope.visible() + list(self.sym.variables))
                            or "declare it with `let` or `variable`")
            return lambda st, env: None
        if variable.kind == t.NONE or t.vague(variable.kind):
            variable.kind = refined(variable.kind, kind)
            self.sym.kinds.learn(("variable", node.name), variable.kind)
        rule = fuse.fresh("_v")
        found = found_by_loop.lines(fn, f"st.vars[{int(variable.index)}]")
        if found is not None:  # first(), max() or min() of a list: found by a loop, then told
            lines, ns = found
            told = apply.variable_lines(variable.index, f"st.vars[{int(variable.index)}]", rule)[1:]
            return fuse.statement(lines + told, {**ns, **apply.NAMESPACE, rule: str(node.pos)}, 3)
        src, ns = fuse.expression(fn)
        lines = apply.variable_lines(variable.index, src, rule)
        lines[1:1] = [bound_line(f"st.vars[{int(variable.index)}]", refuse)] if bounded else []  # stored, not told
        return fuse.statement(lines, {**ns, **apply.NAMESPACE, **bounded, rule: str(node.pos)}, 0)

    def _callstatement(self, node: s.CallStatement, scope: Scope):
        return self._call(node, scope, stepped=False)

    def _call(self, node: s.CallStatement, scope: Scope, stepped: bool):
        decl = self.sym.procedures.get(node.name)
        if decl is None:
            if node.name in self.sym.functions:
                self.diag.error(node.pos, f"{node.name!r} gives a value; use it in an expression")
            elif self.events is not None and node.name in self.events.events:
                self.diag.error(node.pos, f"{node.name!r} is an event, not a procedure",
                                f"raise it with `raise {node.name}(...)`")
            else:
                self.diag.error(node.pos, f"unknown procedure {node.name!r}",
                                suggest(node.name, list(self.sym.procedures)))
            return (lambda st, env: None) if not stepped else IfStep([], None)
        if node.name in self.calling:
            self.diag.error(node.pos, recursion_message("procedure", node.name, self.calling), RECURSION_HINT)
            return (lambda st, env: None) if not stepped else IfStep([], None)
        if self.procedure_calls.called(self, node.name):
            return self.procedure_calls.call(self, node, scope, stepped)
        inner, bindings = self.x.bind_arguments(node, decl.params, node.args, scope, "procedure",
                                                assigned_names(decl.body))
        self.calling.append(node.name)
        self.diag.enter_call(node.name, node.pos)
        try:
            if stepped:
                return _CallStep(bindings, self.stepped_body(decl.body, inner))
            lines, namespace, nesting = [], {}, 0
            for slot, arg in bindings:
                src, ns = fuse.expression(arg)
                lines.append(f"env[{int(slot)}] = {src}")
                namespace.update(ns)
            body, body_ns, nesting = self.body_code(decl.body, inner)
        finally:
            self.calling.pop()
            self.diag.leave_call()
        return fuse.statement(lines + body, {**namespace, **body_ns}, nesting)

    def _if(self, node: s.If, scope: Scope):
        lines, namespace, nesting = [], {}, 0
        for number, (cond, body) in enumerate(node.branches):
            src, ns = fuse.expression(self.x.expect(cond, scope, t.BOOL, "the condition"))
            inner, inner_ns, depth = self.body_code(body, scope.child())
            if number:
                lines.append(fuse.mark(cond.pos, namespace))
            lines += [f"{'if' if number == 0 else 'elif'} {src}:"] + fuse.indent(inner)
            namespace.update(ns)
            namespace.update(inner_ns)
            nesting = max(nesting, depth + 1)
        if node.otherwise is not None:
            inner, inner_ns, depth = self.body_code(node.otherwise, scope.child())
            lines += [fuse.mark(node.pos, namespace), "else:"] + fuse.indent(inner)
            namespace.update(inner_ns)
            nesting = max(nesting, depth + 1)
        return fuse.statement(lines, namespace, nesting)

    def _foreach(self, node: s.ForEach, scope: Scope):
        source, kind, is_zone = self.x.sequence_of(node.source, scope, "the list to go through")
        inner = scope.child()
        slot = inner.define(node.var, t.element(kind))
        inner.known.update(_known_loop_values(node, source))
        if is_zone and not _assigned_in(node):
            inner.present.add(node.var)
        # A zone changes while the loop moves its components: go through a copy. Other lists are
        # never changed in place, so they are gone through as they are (a folded constant list
        # without the copy that guards it: the loop only reads it).
        plain, length = (source, None) if is_zone else fuse.read_only_list(source)
        src, ns = fuse.expression(plain)
        body, body_ns, depth = self.body_code(node.body, inner)
        item, items, charge_name, where = fuse.fresh(), fuse.fresh(), fuse.fresh("_v"), fuse.fresh("_v")
        if is_zone:
            lines = _zone_loop_lines(src, items, item, int(slot), body, where, charge_name)
            return fuse.statement(lines, {**ns, **body_ns, charge_name: over_budget, where: node.pos},
                                  max(depth + 2, 2))
        # every round is a step of the budget, charged before the first round
        fixed = constant_in(source)
        # a constant list's length is known: no len() each time the loop starts
        if length is not None:
            rounds = str(length)
        elif fixed is not None and isinstance(fixed[0], list):
            rounds = str(len(fixed[0]))
        else:
            rounds = f"len({items})"
        # a filter is built by a loop of its own (a comprehension is a call in Python 3.11)
        built = None if is_zone else fuse.filter_lines(source, items)
        making = [f"{items} = {src}"] if built is None else built[0]
        if built is not None:
            ns = {**ns, **built[1]}
        lines = [*making, *charge_lines(rounds, where, charge_name),
                 f"for {item} in {items}:", f"    env[{int(slot)}] = {item}"] + fuse.indent(body)
        if not rounds.isdigit():  # an empty list costs one test: no charge of zero rounds
            lines = [*making, f"if {items}:", *fuse.indent(lines[len(making):])]
            return fuse.statement(lines, {**ns, **body_ns, charge_name: over_budget, where: node.pos},
                                  max(depth + 2, 2))
        return fuse.statement(lines, {**ns, **body_ns, charge_name: over_budget, where: node.pos}, max(depth + 1, 2))

    def _while(self, node: s.While, scope: Scope):
        src, ns = fuse.expression(self.x.expect(node.cond, scope, t.BOOL, "the condition"))
        body, body_ns, depth = self.body_code(node.body, scope.child())
        charge_name, where = fuse.fresh("_v"), fuse.fresh("_v")
        # every round is a step of the budget, charged after the round
        lines = [f"while {src}:", *fuse.indent(body), *fuse.indent(charge_lines("1", where, charge_name))]
        return fuse.statement(lines, {**ns, **body_ns, charge_name: over_budget, where: node.pos}, depth + 1)

    def _repeat(self, node: s.Repeat, scope: Scope):
        src, ns = fuse.expression(self.x.expect(node.count, scope, t.INT, "the number of times"))
        body, body_ns, depth = self.body_code(node.body, scope.child())
        rounds, charge_name, where = fuse.fresh(), fuse.fresh("_v"), fuse.fresh("_v")
        # every round is a step of the budget, charged before the first round
        lines = [f"{rounds} = {src}", *charge_lines(f"max({rounds}, 0)", where, charge_name),
                 f"for {fuse.fresh()} in range({rounds}):"] + fuse.indent(body)
        return fuse.statement(lines, {**ns, **body_ns, charge_name: over_budget, where: node.pos}, depth + 1)

    def _phase(self, node: s.Phase, scope: Scope):
        body, body_ns, depth = self.body_code(node.body, scope.child())
        start, start_ns, _ = fuse.block_code(_phase_event(node.name))
        if self.free_table is not None:  # free actions read where the rules are
            entered, entered_ns, _ = fuse.block_code(_phase_entered(node.name))
            left, left_ns, _ = fuse.block_code(_phase_left())
            return fuse.statement(start + entered + body + left, {**body_ns, **start_ns, **entered_ns, **left_ns},
                                  depth)
        return fuse.statement(start + body, {**body_ns, **start_ns}, depth)

    def _pass(self, node, scope):
        return fuse.statement(["pass"], {}, 0)

    def _together(self, node: s.Together, scope: Scope):
        body, body_ns, depth = self.body_code(node.body, scope.child())
        release_name = fuse.fresh("_v")
        lines = ["st.deferring += 1", "try:"] + fuse.indent(body) + [
            "finally:", "    st.deferring -= 1",
            f"if not st.deferring and st.deferred: {release_name}(st)"]
        return fuse.statement(lines, {**body_ns, release_name: release}, depth + 1)


class _CallStep:
    """A procedure call whose body may wait: bind the arguments, then run the body as a block."""

    def __init__(self, bindings, block: int):
        self.bindings, self.block = bindings, block


def _phase_event(name: str) -> Native:
    """The start of a phase laid out inline (apply.start_phase sends its event)."""
    event, start = fuse.fresh("_v"), fuse.fresh("_v")
    return fuse.statement([apply.telling(PhaseStarted, f"{start}(st, {event})")],
                          {event: PhaseStarted(name), start: apply.start_phase}, 1)


def _phase_entered(name: str) -> Native:
    """`State.phase` gains the phase the rules enter (programs with free actions only)."""
    entered = fuse.fresh("_v")
    return fuse.statement([f"st.phase = st.phase + {entered}"], {entered: (name,)}, 0)


def _phase_left() -> Native:
    """`State.phase` loses the phase the rules leave: phases nest, and nothing leaves one early
    but the end of the game."""
    return fuse.statement(["st.phase = st.phase[:-1]"], {}, 0)


StatementCompiler._handlers = s.handlers(StatementCompiler)


def _zone_loop_lines(zone: str, items: str, item: str, slot: int, body: list[str], where: str,
                     fail: str) -> list[str]:
    """A loop over a zone as generated lines: through a copy (the body may move the zone's
    components), made only when the zone holds something. An empty zone, as often as not (the
    levels of a board, a player's tableau), costs one test: no copy, no charge of zero rounds."""
    return [f"{items} = {zone}",
            f"if {items}:",
            f"    {items} = list({items})",
            *fuse.indent(charge_lines(f"len({items})", where, fail)),
            f"    for {item} in {items}:",
            f"        env[{slot}] = {item}",
            *fuse.indent(fuse.indent(body))]


def _known_loop_values(node: s.ForEach, source) -> dict[str, frozenset]:
    """The values a loop variable can hold when its list is a constant of whole numbers and its
    body never assigns it (each round sets it anew): {name: values}, or nothing. Zone indexes
    read from it need no range check (expressions.py)."""
    fixed = constant_in(source)
    if fixed is None or not isinstance(fixed[0], (list, tuple)) \
            or not all(type(item) is int for item in fixed[0]):
        return {}
    if _assigned_in(node):
        return {}
    return {node.var: frozenset(fixed[0])}


def _given(fn, target: str):
    """The statement giving a local (`target`, generated text) the value of `fn`: first() of a
    filter, max() or min() of a list, found by a loop (compile/found_by_loop.py); any other
    value assigned."""
    found = found_by_loop.lines(fn, target)
    if found is not None:
        return fuse.statement(*found, 3)
    src, ns = fuse.expression(fn)
    return fuse.statement([f"{target} = {src}"], ns, 0)


def _assigned_in(node: s.ForEach) -> bool:
    """Whether the loop's body assigns its variable anywhere (then its values are not the list's)."""
    return any(isinstance(inner, s.Assign) and inner.name == node.var for inner in s.walk(node.body))

