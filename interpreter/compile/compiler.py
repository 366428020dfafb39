"""Checked ruleset to program, once per seat count.

Compiling resolves every name, checks kinds and collects every problem as a diagnostic; a ruleset
with any problem gives no program. `check` runs the same pass for every allowed player count, so
`snowrules validate` sees what any game of the ruleset would run into.
"""
from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from typing import Any

from snowrules.compile.action_ids import check_action_ids
from snowrules.compile.automa import automa_takes_part
from snowrules.compile.board_shapes import board_of
from snowrules.compile.counter_texts import compile_counter_texts
from snowrules.compile.expressions import ExpressionCompiler
from snowrules.compile.field_kinds import merged, table_field_kinds, value_kind
from snowrules.compile.free_actions import FreeActionCompiler, FreeActionTable, phase_names
from snowrules.compile.fuse import PYTHON_ERRORS, fresh, rules_error, statement
from snowrules.compile.generated_names import numbering
from snowrules.compile.ir.effects import Effects
from snowrules.compile.ir.lower import Lowering, outline
from snowrules.compile.ir.nodes import Ask, Outline
from snowrules.compile.prompt_values import compile_option_texts, compile_zone_texts
from snowrules.compile.reactions import Events
from snowrules.compile.result_exprs import compile_result_expression
from snowrules.compile.scope import BOUND_NAMES, BUILTIN_VALUES, RoutineSlots, Scope, Symbols, Variable, suggest
from snowrules.compile.square_uses import board_names, check_square_uses
from snowrules.compile.statements import StatementCompiler, TriggerRuntime
from snowrules.compile.steps import PushBlock, TurnsStep, inline_branches
from snowrules.compile.swapped_calls import swap_trial
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Diagnostics, Position, RulesetError, RuntimeRulesError, SwapTrial
from snowrules.language.limits import MAX_ZONE_FAMILY
from snowrules.load.option_text import options_text
from snowrules.load.result_section import tie_breaks
from snowrules.load.ruleset import UTILITIES, Ruleset, load_ruleset
from snowrules.model import kinds as t
from snowrules.model.grid_zones import RECORD_FIELDS, SQUARES, pieces_of
from snowrules.model.layout import BOX, CounterFamily, Layout, ZoneFamily, instantiate_components, seat_names
from snowrules.model.program import ROUTINE, TURNS, Block, Program, Routine
from snowrules.model.state import State


def compile_ruleset(ruleset: Ruleset, players: int, explicit_chance: bool = False) -> Program:
    """The program for a game of `players` players; raises RulesetError listing every problem.
    With `explicit_chance`, its games may be started explicit (see chance.py)."""
    diagnostics = Diagnostics()
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise RulesetError.at(ruleset.manifest_position,
                              f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} "
                              f"players, not {players}")
    program = _compile(ruleset, players, diagnostics, explicit_chance)
    diagnostics.raise_if_any()
    return program


def intermediate_form(ruleset: Ruleset, players: int, explicit_chance: bool = False) -> tuple[Outline, Effects]:
    """The program's routines in the intermediate form and the facts derived from them (what
    `snowrules explain --ir` shows); raises RulesetError as `compile_ruleset` does."""
    compile_ruleset(ruleset, players, explicit_chance)
    compiler = _Compiler(ruleset, players, Diagnostics(), explicit_chance, {})
    compiler.compile()
    return compiler.outline, compiler.effects


MAX_KIND_PASSES = 4


def _compile(ruleset: Ruleset, players: int, diagnostics: Diagnostics, explicit_chance: bool = False) -> Program:
    """Compile (`_passes`); the problems found inside definitions are moved to the calls that
    cause them (Diagnostics.relocate_call_errors, with a trial of swapped arguments)."""
    key = _content_key(ruleset, players, explicit_chance) if _shared is not None else None
    if key is not None and key in _shared:
        return _shared[key]
    program, found = _passes(ruleset, players, explicit_chance)
    found.relocate_call_errors(_swap_trial(ruleset, players, explicit_chance, found) if found.items else None)
    diagnostics.extend(found.items)
    if key is not None and not found.items:
        _shared[key] = program
    return program


def _passes(ruleset: Ruleset, players: int, explicit_chance: bool) -> tuple[Program, Diagnostics]:
    """Compile; when the pass found problems and learnt the kinds of names first set to `none`
    (see LearnedKinds), compile again with them, so that a use above an assignment is checked
    against the assigned kind. A ruleset without problems compiles once."""
    hints: dict[tuple, str] = {}
    for _ in range(MAX_KIND_PASSES):
        found = Diagnostics()
        compiler = _Compiler(ruleset, players, found, explicit_chance, hints)
        with numbering() as names:  # generated names from 0 (generated_names.py)
            program = compiler.compile()
        program.first_free_name = next(names)
        learned = compiler.symbols.kinds
        if (not found.items and not compiler.events.stale) or not learned.news():
            break
        hints = {**hints, **learned.found}
    return program, found


def _swap_trial(ruleset: Ruleset, players: int, explicit_chance: bool, found: Diagnostics) -> SwapTrial:
    """The trial of a call with two arguments exchanged (compile/swapped_calls.py): the same
    compile, passes and all (the kinds learnt from the wrong call are not kept), of the rules
    with that one call changed."""
    def recompile(rules: list[s.RulesFile]) -> list[Diagnostic]:
        return _passes(replace(ruleset, rules=rules), players, explicit_chance)[1].items
    return swap_trial(ruleset.rules, found, recompile,
                      lambda rules: _content_key(replace(ruleset, rules=rules, variant=None), 0, explicit_chance))


_shared: dict[bytes, Program] | None = None  # the programs of `programs_shared`, while it lasts


@contextmanager
def programs_shared() -> Iterator[None]:
    """Within this block, compiling a ruleset again (the same content, player count and options)
    gives the program compiled before, for commands that compile one ruleset many times and
    never change a program: validate's check, smoke games and scenarios, `snowrules test`. The
    key is the ruleset's whole content as pickled bytes: equal bytes are an equal ruleset, and a
    ruleset changed in any way (a scenario's options) is a new key. Outside such a block every
    compile gives a program of its own, which its caller may change."""
    global _shared
    outer = _shared
    if outer is None:
        _shared = {}
    try:
        yield
    finally:
        _shared = outer


def _content_key(ruleset: Ruleset, players: int, explicit_chance: bool) -> bytes | None:
    try:
        data = pickle.dumps((ruleset, players, explicit_chance), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a ruleset holding something that does not pickle: not shared
        return None
    return hashlib.sha256(data).digest()


def check(ruleset: Ruleset, counts: list[int] | None = None) -> list[Diagnostic]:
    """Every problem of the ruleset, for every player count it allows (each reported once): its
    fewest and most players, or the player `counts` given."""
    found: dict[str, Diagnostic] = {}
    for players in sorted(set(counts) if counts else {ruleset.min_players, ruleset.max_players}):
        diagnostics = Diagnostics()
        _compile(ruleset, players, diagnostics)
        for d in diagnostics.items:
            found.setdefault(str(d), d)
    return sorted(found.values(), key=lambda d: (d.position.path, d.position.line, d.position.col))


@lru_cache(maxsize=64)
def load_program(ruleset_name: str, variant: str | None, players: int, options: tuple = (),
                 explicit_chance: bool = False) -> Program:
    """Load, check and compile a ruleset (cached: a simulation compiles once). `options` is a
    tuple of (name, value) pairs setting the manifest's game parameters."""
    return compile_ruleset(load_ruleset(ruleset_name, variant, dict(options)), players, explicit_chance)


class _Compiler:
    def __init__(self, ruleset: Ruleset, players: int, diagnostics: Diagnostics, explicit_chance: bool = False,
                 kind_hints: dict[tuple, str] | None = None):
        self.ruleset = ruleset
        self.explicit_chance = explicit_chance
        self.players = players
        self.diag = diagnostics
        seats = players * ruleset.seats_per_player
        names = seat_names(ruleset, seats)
        if automa_takes_part(ruleset, seats, names, diagnostics):  # the last seat, played by the rules
            self.layout = Layout(seats + 1, [*names, ruleset.automa.name], automa=seats)
        else:
            self.layout = Layout(seats, names)
        self.symbols = Symbols(self.layout, tie_breaks=tie_breaks(ruleset.interface))  # tie_broken() reads them
        self.symbols.kinds.hints = dict(kind_hints or {})
        self.exprs = ExpressionCompiler(self.symbols, diagnostics)
        self.blocks: list[Block] = []
        self.declarations = [d for rules in ruleset.rules for d in rules.declarations]
        self.seen: dict[str, Position] = {name: Position("<built-in>") for name in BUILTIN_VALUES + BOUND_NAMES}
        self.events = Events(self.symbols, self.layout, diagnostics, self.seen)

    # ---- declarations ---------------------------------------------------------------------
    def _declare(self, name: str, position: Position) -> bool:
        """Record a top-level name; a variant's rules file may replace the base's definition."""
        if name in self.seen:
            first = self.seen[name]
            if position.path in self.ruleset.override_files and first.path not in self.ruleset.override_files:
                self.seen[name] = position
                return True
            where = "a built-in name" if first.path == "<built-in>" else f"first defined at {first}"
            self.diag.error(position, f"{name!r} is already defined", where)
            return False
        self.seen[name] = position
        return True

    def _of(self, kind) -> list:
        return [d for d in self.declarations if isinstance(d, kind)]

    def compile(self) -> Program:
        layout, ruleset = self.layout, self.ruleset
        instantiate_components(ruleset, layout)
        self._field_kinds()
        self.symbols.expression_fields = {f for d in ruleset.components for f in d.expressions}
        for name, (value, position) in ruleset.constants.items():
            if self._declare(name, position):
                self.symbols.constants[name] = (value, position)
        for name, (rows, position) in ruleset.tables.items():
            if self._declare(name, position):
                self.symbols.tables[name] = (rows, position)
                for row in rows:
                    self.symbols.record_fields.update(row)
        # every record literal's fields are fields: `r.x` may be read above the `{x: ...}` it meets
        # every node of the rules, then of the components' effects: walked once, read by several checks
        rules_nodes = [node for decl in self.declarations for node in s.walk(decl)]
        every_node = rules_nodes + [n for d in ruleset.components for body in d.effects.values() for n in s.walk(body)]
        literals = [node for node in rules_nodes if isinstance(node, s.RecordExpr)]
        for node in literals:
            self.symbols.record_fields.update(entry.name for entry in node.fields)
        self.symbols.record_field_kinds = merged(table_field_kinds(
            (rows for rows, _ in ruleset.tables.values()), literals))
        for decl in self._of(s.ConstantDecl):
            if self._declare(decl.name, decl.pos):
                self.symbols.constants[decl.name] = (self.exprs.constant_value(decl.value), decl.pos)
        layout.add_zone(ZoneFamily(BOX, False, None, "secret"))
        for decl in self._of(s.ZoneDecl):
            if decl.grid and decl.visibility != "public":
                self.diag.error(decl.pos, f"zone {decl.name!r}: a grid zone is public (everybody sees the layout)",
                                f"declare it `zone {decl.name} ... public grid`")
            if self._declare(decl.name, decl.pos):
                layout.add_zone(ZoneFamily(decl.name, decl.per_player, self._indexes(decl), decl.visibility,
                                           grid=decl.grid, unordered=decl.unordered, bounded=decl.board is not None))
        # a tile's squares bounded, a board's placed as a tile refused (square_uses.py)
        check_square_uses(ruleset.components, board_names(self._of(s.ZoneDecl)), layout, self.diag)
        if layout.grid_zones:
            self._grid_pieces()
            self._boards()
        layout.add_counter(CounterFamily("turn", False, [], 0, None))
        for decl in self._of(s.CounterDecl):
            if self._declare(decl.name, decl.pos):
                self._counter(decl)
        variables_initial = []
        for decl in self._of(s.VariableDecl):
            if self._declare(decl.name, decl.pos):
                fn, kind = self.exprs.compile(decl.value, Scope(RoutineSlots()))
                value = self.exprs.constant_value(decl.value)
                kind = self.symbols.kinds.start(("variable", decl.name), kind)
                self.symbols.variables[decl.name] = Variable(len(variables_initial), kind, decl.pos)
                variables_initial.append(value)
        for decl in self._of(s.FunctionDecl):
            if self._declare(decl.name, decl.pos) or decl.pos.path in ruleset.override_files:
                self.symbols.functions[decl.name] = decl
        for decl in self._of(s.ProcedureDecl):
            if self._declare(decl.name, decl.pos) or decl.pos.path in ruleset.override_files:
                self.symbols.procedures[decl.name] = decl
        self._name_clashes()

        triggers = self._of(s.TriggerDecl)
        watched = {id(trigger): self._watched(trigger) for trigger in triggers}
        self.events.declare(self.declarations, ruleset.components)
        lowering = Lowering()
        self.outline = outline(lowering, self.declarations, self.symbols.procedures,
                               lambda trigger: watched[id(trigger)][0], ruleset.components)
        self.effects = analysis = Effects(lowering, self.outline, self.events.heard(), self.explicit_chance)
        runtime_triggers: dict[str, list[TriggerRuntime]] = {}
        effects: dict[int, Routine] = {}
        statements = StatementCompiler(self.exprs, self.blocks, analysis, runtime_triggers, effects)
        statements.events = self.events
        statements.remembered = {}  # each decision's `remembered as` (compile/remembered.py)
        statements.effect_fields = frozenset(f for d in ruleset.components for f in d.effects)
        free_decls = self._of(s.FreeActionDecl)
        if free_decls:  # before any decision is compiled: each one offers them
            statements.free_table = FreeActionTable()
        self._field_expressions()
        for trigger in triggers:
            self._trigger(trigger, watched[id(trigger)], statements, analysis, runtime_triggers)
        main = self._main(statements)
        for index, definition in enumerate(ruleset.components):
            for field, body in definition.effects.items():
                routine = self._routine(body, statements, analysis, {"me": t.PLAYER, "this": t.COMPONENT})
                if field == "effect":
                    effects[index] = routine
                else:  # `resolve c.FIELD for p`
                    statements.field_effects.setdefault(field, {})[index] = routine
        self.events.compile_reactions(statements, self.exprs)
        if free_decls:
            FreeActionCompiler(statements, self.diag, self.seen).compile(
                free_decls, statements.free_table, phase_names(every_node))
        # how each free action's option reads, where it says (`as "TEXT"`)
        option_texts = compile_option_texts(self.exprs, free_decls, statements.free_table.actions) if free_decls else {}
        zone_texts = compile_zone_texts(self.exprs, self._of(s.ZoneDecl))  # how zones read, where they say
        counter_texts = compile_counter_texts(self.exprs, self._of(s.CounterDecl), self.diag)  # and counters

        interface = self._interface()
        if not self.diag.items:
            check_action_ids(interface, layout, self.symbols, self.diag, every_node)
        counters_initial = list(layout.counter_initial)
        inline_branches(self.blocks)
        return Program(
            title=ruleset.title, ruleset=ruleset.name, version=ruleset.version, variant=ruleset.variant,
            players=self.players, seats_per_player=ruleset.seats_per_player, layout=layout,
            blocks=self.blocks, main=main, variables_initial=variables_initial,
            variable_names=list(self.symbols.variables), counters_initial=counters_initial, effects=effects,
            turn_counter=layout.counter_index("turn"), interface=interface, explicit_chance=self.explicit_chance,
            options=dict(ruleset.option_values), reactions=self.events.program_table(),
            free_actions=statements.free_table.actions if free_decls else [], display=dict(ruleset.display),
            option_texts=option_texts, zone_texts=zone_texts, counter_texts=counter_texts,
            prompts={str(x.pos): x.prompt for x in self.outline.statements() if isinstance(x, Ask) and x.prompt},
            remembered=statements.remembered)

    def _field_expressions(self) -> None:
        """The expressions written in component fields, compiled before the rules so that each
        evaluate() in the rules is generated with them (an expression that itself calls
        evaluate() reads the table during play)."""
        for index, definition in enumerate(self.ruleset.components):
            for field, expression in definition.expressions.items():
                scope, slots = self._routine_scope({"me": t.PLAYER, "this": t.COMPONENT})
                fn, _ = self.exprs.compile(expression, scope)
                self.symbols.expressions[(index, field)] = (fn, scope.slots, slots["me"], slots["this"])
        self.symbols.expressions_ready = True

    def _boards(self) -> None:
        """Each bounded grid zone's board, its size or shape read for this game (board_shapes.py)."""
        read: set[str] = set()  # (a name declared twice: the first declaration's, the one declared)
        squares_at = {d.name: d.squares_position for d in self.ruleset.components if d.squares_position}
        for decl in self._of(s.ZoneDecl):
            family = self.layout.zone_families.get(decl.name)
            if decl.board is not None and family is not None and family.bounded and decl.name not in read:
                read.add(decl.name)
                self.layout.set_board(decl.name, board_of(decl.board, self.symbols.constants, self.layout, self.diag,
                                                                squares_at))

    def _grid_pieces(self) -> None:
        """Every component's squares, for the grid zones (model/grid_zones.py): problems at the
        component's entry; the records the grid functions give have their fields known."""
        layout = self.layout
        layout.pieces, layout.side_fields, problems = pieces_of(layout)
        reported = set()
        for cid, message in problems:
            definition = self.ruleset.components[layout.component_defs[cid]]
            if layout.component_defs[cid] not in reported:
                reported.add(layout.component_defs[cid])
                self.diag.error(definition.position, message)
        grid_fields = set(RECORD_FIELDS)
        for squares in layout.fields.get(SQUARES, []):
            for square in squares if isinstance(squares, list) else []:
                if isinstance(square, dict):
                    grid_fields.update(k for k in square if k not in ("dx", "dy"))
        self.symbols.record_fields.update(grid_fields)
        for name in grid_fields:  # the grid functions' records: their fields of any kind, as before
            self.symbols.record_field_kinds[name] = t.ANY

    def _interface(self) -> dict[tuple, tuple]:
        """The manifest's `returns` (of a player `p`) and `action_ids` (of an option `it`),
        compiled; its `constraints`, checked for this game."""
        # A `value` option is a number or a text ("roll"): its id may compare it with either.
        kinds = {"component": t.COMPONENT, "player": t.PLAYER, "value": t.ANY}
        compiled = {}
        for key, node in self.ruleset.interface.items():
            if key[0] == "constraint":
                self._constraint(node, self.ruleset.constraint_messages[key[1]])
                continue
            if key[0] in ("result", "tie"):  # how the result reads (compile/result_exprs.py)
                compiled[key] = self.symbols.result_expressions[key] = compile_result_expression(self, key, node)
                continue
            if key == ("returns", "value"):
                names = {"p": t.PLAYER}
            else:
                names = {"it": kinds[key[1]]} if key[0] in ("choice", "chance") else {}
            scope, slots = self._routine_scope(names)
            if key == ("returns", "utility"):
                fn = self.exprs.expect(node, scope, t.STR, "a utility")
                self._utility(fn, scope.slots.size, node)
            elif key[0] == "returns":  # a return may be a fraction (ratio())
                fn, kind = self.exprs.compile(node, scope)
                if kind not in (t.INT, t.FRACTION, t.ANY):
                    self.diag.error(node.pos, f"a return must be a number, not {t.describe(kind)}")
            else:
                fn = self.exprs.expect(node, scope, t.INT, "an action id or count")
            compiled[key] = (fn, scope.slots.size, next(iter(slots.values()), None), node.pos)
        return compiled

    def _utility(self, fn: Any, size: int, node: s.Node) -> None:
        """The manifest's utility must be one of OpenSpiel's words, and a constant sum needs its
        `sum`: checked for this game's options, so that `validate` reports it at its line."""
        if self.diag.items:
            return
        try:
            utility = fn(State(), [None] * size)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError):
            self.diag.error(node.pos, "a utility may use only constants, options and player_count")
            return
        if utility not in UTILITIES:
            self.diag.error(node.pos, f"the utility is {utility!r}, not one of {', '.join(UTILITIES)}")
        elif utility == "constant-sum" and ("returns", "sum") not in self.ruleset.interface:
            self.diag.error(node.pos, "a constant-sum game needs `sum:` beside `utility:`, the total of the returns")

    def _indexes(self, decl: s.ZoneDecl) -> list[int] | None:
        if decl.index is None:
            return None
        if not isinstance(decl.index, s.Range):
            self.diag.error(decl.index.pos, "a zone's index must be a range, such as [1..7]")
            return None
        low = self.exprs.constant_value(decl.index.start)
        high = self.exprs.constant_value(decl.index.end)
        if not isinstance(low, int) or not isinstance(high, int) or low > high or decl.index.descending:
            self.diag.error(decl.index.pos, "a zone's index must go up from a number to a larger one")
            return None
        if high - low + 1 > MAX_ZONE_FAMILY:  # checked before the zones are made: each is a list in every state
            self.diag.error(decl.index.pos, f"this family has {high - low + 1} zones, more than {MAX_ZONE_FAMILY}",
                            "a zone for each space of a board or track; keep a large count in a counter",
                            code="SR704")
            return None
        return list(range(low, high + 1))

    def _counter(self, decl: s.CounterDecl) -> None:
        bounds = []
        for bound in (decl.lower, decl.upper, decl.start):
            value = None if bound is None else self.exprs.constant_value(bound)
            if bound is not None and not isinstance(value, int):
                what = "start value" if bound is decl.start else "bound"
                self.diag.error(bound.pos, f"a counter's {what} must be a whole number")
                value = None
            bounds.append(value)
        low, high, start = bounds
        if low is not None and high is not None and low > high:
            self.diag.error(decl.pos, f"counter {decl.name!r} goes from {low} to {high}: nothing fits",
                            "the lower bound comes first: `from LOW to HIGH`")
        elif start is not None and not ((low is None or low <= start) and (high is None or start <= high)):
            self.diag.error(decl.start.pos, f"counter {decl.name!r} starts at {start}, outside its bounds "
                            f"{'' if low is None else low}..{'' if high is None else high}")
        if len(set(decl.keys)) != len(decl.keys):
            self.diag.error(decl.pos, f"counter {decl.name!r} repeats a key")
        holders = None if decl.per_component is None else self._counter_holders(decl)
        self.layout.add_counter(CounterFamily(decl.name, decl.per_player, list(decl.keys), low, high,
                                              start=start, holders=holders,
                                              kinds=() if decl.per_component is None else decl.per_component.kinds))

    def _counter_holders(self, decl: s.CounterDecl) -> list[int]:
        """The components that carry a `per component` counter: all, or those of the named kinds.
        Its name is read as `c.NAME`, so it may not be a field of a component too."""
        layout, wanted = self.layout, decl.per_component.kinds
        if decl.keys:
            self.diag.error(decl.pos, f"counter {decl.name!r}: a counter per component has no keys",
                            "declare one counter per component for each key")
        if decl.name in layout.fields or decl.name in ("name", "zone"):
            definition = next((c for c in self.ruleset.components if decl.name in c.fields), None)
            where = f"a field of {definition.name!r} at {definition.position}" if definition else "a built-in field"
            self.diag.error(decl.pos, f"counter {decl.name!r} per component has the name of {where}",
                            "rename the counter or the field: both would be read as c." + decl.name)
        if not wanted:
            return list(range(len(layout.component_names)))
        kinds = layout.fields.get("kind", [])
        known = sorted({str(k) for k in kinds if k is not None})
        for kind in wanted:
            if kind not in known:
                self.diag.error(decl.per_component.pos, f"counter {decl.name!r}: no component is of kind {kind!r}",
                                suggest(kind, known) or (f"kinds: {', '.join(known)}" if known else
                                                         "no component has a `kind` field"))
        return [c for c, value in enumerate(kinds) if value in wanted]

    def _constraint(self, node: s.Node, message: str) -> None:
        """A manifest constraint on the options and the player count, checked for this game."""
        scope, _ = self._routine_scope({})
        holds = self.exprs.expect(node, scope, t.BOOL, "a constraint")
        if self.diag.items:
            return  # the ruleset has other problems; the constraint may be their consequence
        try:
            ok = holds(State(), [None] * scope.slots.size)
        except PYTHON_ERRORS as error:
            problem = rules_error(error, node.pos, "in this constraint",
                                  "a constraint may use only constants, options and player_count")
            self.diag.extend(problem.diagnostics)
            return
        if not ok:
            values = options_text(self.ruleset.option_values)
            self.diag.error(node.pos, message, f"{self.players} players; {values}" if values else
                            f"{self.players} players")

    def _field_kinds(self) -> None:
        kinds: dict[str, set[str]] = {}
        for definition in self.ruleset.components:
            for name, value in definition.fields.items():
                kinds.setdefault(name, set()).add(value_kind(value))
        self.symbols.field_kinds = merged(kinds)

    def _name_clashes(self) -> None:
        for family in list(self.layout.zone_families.values()) + list(self.layout.counter_families.values()):
            if family.per_player and family.name in self.layout.fields:
                definition = next((c for c in self.ruleset.components if family.name in c.fields), None)
                if definition is None:  # `owner`, the field snowrules sets itself: the declaration is at fault
                    declared = next(d for d in self.declarations if getattr(d, "name", None) == family.name)
                    self.diag.error(declared.pos, f"{family.name!r} is the field snowrules gives every component "
                                    "(its owner); a per-player zone or counter cannot have its name", code="SR405")
                    continue
                self.diag.error(definition.position, f"the field {family.name!r} has the name of a "
                                "per-player zone or counter; rename one of them")

    # ---- routines -------------------------------------------------------------------------
    def _routine_scope(self, names: dict[str, str]) -> tuple[Scope, dict[str, int]]:
        scope = Scope(RoutineSlots())
        return scope, {name: scope.define(name, kind) for name, kind in names.items()}

    def _routine(self, body: s.Block, statements: StatementCompiler, analysis: Effects,
                 names: dict[str, str]) -> Routine:
        scope, slots = self._routine_scope(names)
        block = statements.new_block(ROUTINE, body.pos)
        statements.fill(block, body, scope)
        return Routine(block.id, scope.slots.size, slots)

    def _main(self, statements: StatementCompiler) -> Routine:
        scope = Scope(RoutineSlots())
        main = statements.new_block(ROUTINE, Position(self.ruleset.name))
        setups, turns, finals = self._of(s.SetupDecl), self._of(s.TurnDecl), self._of(s.FinalDecl)
        for kind, found in (("setup", setups), ("each turn / rounds", turns), ("at game end", finals)):
            for extra in found[1:]:
                self.diag.error(extra.pos, f"a second `{kind}` section", f"the first is at {found[0].pos}")
        if not turns:
            position = self.ruleset.rules[0].pos if self.ruleset.rules else self.ruleset.manifest_position
            self.diag.error(position, "the rules have no `each turn:` or `rounds N:` section")
        if setups:
            main.add_step(PushBlock(statements.stepped_body(setups[0].body, scope.child()), "setup"),
                          setups[0].pos)
        if turns:
            turn = turns[0]
            block = statements.new_block(TURNS, turn.pos)
            if turn.rounds is not None:
                block.limit = self.exprs.expect(turn.rounds, scope, t.INT, "the number of rounds")
            statements.fill(block, turn.body, scope.child())
            main.add_step(TurnsStep(block.id), turn.pos)
        if finals:
            statements.final_section = True  # an `end game` here ends the game as planned
            main.add_step(PushBlock(statements.stepped_body(finals[0].body, scope.child()), "game end"),
                          finals[0].pos)
            statements.final_section = False
        position = (finals or turns or [None])[0]
        where = position.pos if position is not None else Position(self.ruleset.name)

        def no_end() -> None:
            raise RuntimeRulesError.at(where, "the rules finished without `end game`",
                                       "end the `at game end:` section with `end game winners ...`")
        name = fresh("_v")
        main.add_native(statement([f"{name}()"], {name: no_end}, 0), where)
        return Routine(main.id, scope.slots.size)

    # ---- triggers -------------------------------------------------------------------------
    def _watched(self, trigger: s.TriggerDecl) -> tuple[set[str], str | None]:
        """The counters a `when` condition reads, and the name it uses for the player concerned."""
        families: set[str] = set()
        player_names: set[str] = set()
        counters = self.layout.counter_families

        for node in s.walk(trigger.cond):
            if isinstance(node, s.Attribute) and node.name in counters and isinstance(node.obj, s.Name):
                if node.obj.name not in self.seen:
                    families.add(node.name)
                    player_names.add(node.obj.name)
            elif isinstance(node, s.Name) and node.name in counters:
                families.add(node.name)
        if not families:
            self.diag.error(trigger.pos, "a `when` rule must watch a counter, as in `when p.score >= 30:`")
        if len(player_names) > 1:
            self.diag.error(trigger.pos, "a `when` rule may name only one player: "
                            + ", ".join(sorted(player_names)))
        on_components = {name for name in families if counters[name].per_component}
        if player_names and on_components and on_components != families:
            self.diag.error(trigger.pos, "a `when` rule watches either a player's counters or a component's, "
                            "not both: " + ", ".join(sorted(families)))
        return families, (min(player_names) if player_names else None)

    def _trigger(self, trigger: s.TriggerDecl, watched, statements: StatementCompiler,
                 analysis: Effects, runtime: dict[str, list[TriggerRuntime]]) -> None:
        families, player = watched
        # the name a rule gives the counter's holder: a player, or a component (`when d.value == 6`)
        subject = t.COMPONENT if any(self.layout.counter_families[f].per_component for f in families) else t.PLAYER
        scope, slots = self._routine_scope({player: subject} if player else {})
        cond = self.exprs.expect(trigger.cond, scope, t.BOOL, "a `when` condition")
        native, routine = None, None
        if analysis.may_pause(trigger.body):
            block = statements.new_block(ROUTINE, trigger.body.pos)
            statements.fill(block, trigger.body, scope.child())
            routine = Routine(block.id, 0, slots)
        else:
            native = statements.native_body(trigger.body, scope.child())
        size = scope.slots.size
        if routine is not None:
            routine.env_size = size
        for name in families:
            family = self.layout.counter_families[name]
            binds = player is not None and (family.per_player or family.per_component)
            if player is not None and not binds:
                continue
            runtime.setdefault(name, []).append(TriggerRuntime(
                cond, native, routine, slots.get(player), size, binds, family.base, family.width,
                family.holders))
