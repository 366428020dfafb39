"""Expressions to closures `fn(state, env) -> value`, with their kinds checked on the way.

Each syntax node is compiled once into a small Python closure; during play no tree is walked.
User functions (`define f(x) = ...`) are inlined at each call with their arguments' kinds, so a
function's body is checked against the values it is really given.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

from snowrules.compile import (
    found_by_loop,
    stdlib,  # noqa: F401 - registers the standard functions
)
from snowrules.compile.budget import bounded_range, division, product
from snowrules.compile.closures import Fn, const, constant_in, fail, local, slot_of
from snowrules.compile.counter_refs import CounterReferences
from snowrules.compile.define_calls import DefineCalls
from snowrules.compile.fuse import comprehension, fused, simple, substituted
from snowrules.compile.library import REGISTRY, compile_call
from snowrules.compile.scope import (
    BUILTIN_VALUES,
    RECURSION_HINT,
    Scope,
    Symbols,
    family_name,
    recursion_message,
    suggest,
)
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics
from snowrules.language.limits import MAX_LIST
from snowrules.model import kinds as t


class ExpressionCompiler(CounterReferences):
    def __init__(self, symbols: Symbols, diagnostics: Diagnostics):
        self.sym = symbols
        self.layout = symbols.layout
        self.diag = diagnostics
        self.inlining: list[str] = []
        # source forms of the define calls inlined so far: a comprehension around one that does
        # not depend on its loop computes it once (fuse.comprehension)
        self.inlined_calls: list[str] = []
        self.define_calls = DefineCalls()  # the defines too big to expand at each call

    # ---- entry points ---------------------------------------------------------------------
    def compile(self, node: s.Node, scope: Scope) -> tuple[Fn, t.Kind]:
        handler = _EXPRESSION_HANDLERS.get(type(node))
        if handler is None:
            self.diag.error(node.pos, f"a {type(node).__name__} cannot stand where a value is expected")
            return const(None), t.ANY
        return handler(self, node, scope)

    def expect(self, node: s.Node, scope: Scope, wanted: str, what: str) -> Fn:
        fn, kind = self.compile(node, scope)
        return self.checked(node, fn, kind, wanted, what)

    def checked(self, node: s.Node, fn: Fn, kind: t.Kind, wanted: str, what: str) -> Fn:
        """A compiled value where `wanted` is expected: a zone read as its list, a wrong kind reported."""
        if kind == t.ZONE and t.is_list(wanted):
            return self.as_list(fn, kind)
        if not t.compatible(kind, wanted):
            self.diag.error(node.pos, f"{what} must be {t.describe(wanted)}, not {t.describe(kind)}")
        return fn

    def sequence(self, node: s.Node, scope: Scope, what: str) -> tuple[Fn, str]:
        """A list value: zones become their contents."""
        fn, kind, _ = self.sequence_of(node, scope, what)
        return fn, kind

    def sequence_of(self, node: s.Node, scope: Scope, what: str) -> tuple[Fn, str, bool]:
        """A list value, its kind, and whether it is a zone's own list (which moves change)."""
        fn, kind = self.compile(node, scope)
        if not t.iterable(kind):
            self.diag.error(node.pos, f"{what} must be a list or a zone, not {t.describe(kind)}")
            return const([]), t.list_of(t.ANY), False
        if kind == t.ZONE:
            return self.as_list(fn, kind), t.list_of(t.COMPONENT), True
        return fn, kind, kind == t.ANY

    def as_list(self, fn: Fn, kind: t.Kind) -> Fn:
        if kind != t.ZONE:
            return fn
        return fused("st.zones[{p0}]", [fn])

    def zone(self, node: s.Node, scope: Scope, what: str) -> Fn:
        fn, kind = self.compile(node, scope)
        if kind == t.ZONES:
            self.diag.error(node.pos, f"{what}: this zone has several instances; say which one",
                            "add [index] or .name, as in pile[3] or p.hand")
        elif kind not in (t.ZONE, t.ANY):
            self.diag.error(node.pos, f"{what} must be a zone, not {t.describe(kind)}")
        return fn

    def constant_value(self, node: s.Node) -> Any:
        """Evaluate an expression made of literals and constants only, while compiling."""
        scope = Scope(_NoSlots())
        fn, _ = self.compile(node, scope)
        try:
            return fn(None, [])
        except Exception:  # noqa: BLE001 - any failure means it was not constant
            self.diag.error(node.pos, "this must be a constant: numbers, texts and constants only")
            return None

    # ---- literals and names ---------------------------------------------------------------
    def _literal(self, node: s.Literal, scope: Scope):
        value = node.value
        kind = {bool: t.BOOL, int: t.INT, str: t.STR, type(None): t.NONE}[type(value)]
        return const(value), kind

    def _name(self, node: s.Name, scope: Scope):
        name = node.name
        found = scope.lookup(name)
        if found is not None:
            read = local(found[0])
            known = scope.known_values(name)
            if known is not None:
                read.values = known  # a zone index read from it needs no range check
            if scope.never_none(name):
                read.never_none = True  # a move of it needs no check for none
            return read, found[1]
        aliased = scope.alias(name)
        if aliased is not None:
            return aliased
        layout = self.layout
        if name == "players":  # the seats agents play: an automa is not among them
            return const(list(range(layout.player_seats))), t.list_of(t.PLAYER)
        if name == "player_count":
            return const(layout.player_seats), t.INT
        if name == "seats":  # every seat at the table, the automa's last
            return const(list(range(layout.seats))), t.list_of(t.PLAYER)
        if name == "automa":  # the seat the rules play, or none
            return const(layout.automa), t.PLAYER
        if name == "components":
            return const(list(range(len(layout.component_names)))), t.list_of(t.COMPONENT)
        if name in self.sym.variables:
            variable = self.sym.variables[name]
            return fused("st.vars[{i0}]", ints=[variable.index]), variable.kind
        if name in self.sym.constants:
            value = self.sym.constants[name][0]
            kind = {bool: t.BOOL, int: t.INT, str: t.STR}.get(type(value), t.ANY)
            return const(value), kind
        if name in self.sym.tables:
            rows = self.sym.tables[name][0]
            return const(rows), t.list_of(t.RECORD)
        if name in layout.zone_families:
            family = layout.zone_families[name]
            if family.per_player or family.indexes:
                return const(name), t.ZONES
            return const(family.base), t.ZONE
        if name in layout.counter_families:
            family = layout.counter_families[name]
            if family.per_player or family.keys:
                return const(name), t.COUNTERS
            return fused("st.counters[{i0}]", ints=[family.base]), t.INT
        if name in self.sym.functions or name in self.sym.procedures:
            self.diag.error(node.pos, f"{name!r} is a definition; call it with ( )")
        else:
            self.diag.error(node.pos, f"unknown name {name!r}",
                            suggest(name, scope.visible() + self.sym.all_names() + list(BUILTIN_VALUES)))
        return const(None), t.ANY

    # ---- attribute and index --------------------------------------------------------------
    def _attribute(self, node: s.Attribute, scope: Scope):
        obj, kind = self.compile(node.obj, scope)
        name = node.name
        layout = self.layout
        zone_family = layout.zone_families.get(name)
        counter_family = layout.counter_families.get(name)
        wants_player = (zone_family and zone_family.per_player) or (counter_family and counter_family.per_player)
        if kind == t.PLAYER or (kind == t.ANY and wants_player):
            if zone_family is not None and zone_family.per_player:
                if zone_family.indexes:
                    return PlayerZones(name, obj), t.ZONES
                return fused("{i0} + {p0}", [obj], ints=[zone_family.base]), t.ZONE
            if counter_family is not None and counter_family.per_player:
                if counter_family.keys:
                    return fused("({v0}, {v1}, {p0})", [obj], ["counters", name]), t.COUNTERS
                return fused("st.counters[{i0} + {p0}]", [obj], ints=[counter_family.base]), t.INT
            if name == "name":
                return fused("{v0}[{p0}]", [obj], [layout.seat_names]), t.STR
            if kind == t.PLAYER:
                candidates = [z.name for z in layout.zone_families.values() if z.per_player]
                candidates += [c.name for c in layout.counter_families.values() if c.per_player]
                self.diag.error(node.pos, f"a player has no zone or counter {name!r}",
                                suggest(name, candidates) or "declare it with `per player`")
                return const(None), t.ANY
        if counter_family is not None and counter_family.per_component and kind in (t.COMPONENT, t.ANY):
            return fused("st.counters[{p0}]", [self.component_counter(node, obj, counter_family)]), t.INT
        if kind in (t.COMPONENT, t.ANY) and (name in layout.fields or name in ("name", "zone")):
            if name == "name":
                names = layout.component_names
                return fused("{v0}[{p0}]", [obj], [names]), t.STR
            if name == "zone":
                return fused("st.where[{p0}]", [obj]), t.ZONE
            values = layout.fields[name]
            field_kind = t.PLAYER if name == "owner" else self.sym.field_kinds.get(name, t.ANY)
            if kind == t.COMPONENT:
                return fused("{v0}[{p0}]", [obj], [values]), field_kind
            if kind == t.ANY and name in self.sym.record_fields:
                def either(st, env, obj=obj, values=values, name=name):
                    value = obj(st, env)
                    return value.get(name) if isinstance(value, dict) else values[value]
                row_kind = self.sym.record_field_kinds.get(name, t.ANY)
                return either, (field_kind if row_kind == field_kind else t.ANY)
            return fused("{v0}[{p0}]", [obj], [values]), field_kind
        if kind in (t.RECORD, t.ANY) and name in self.sym.record_fields:
            return fused("{p0}.get({v0})", [obj], [name]), self.sym.record_field_kinds.get(name, t.ANY)
        if kind == t.COMPONENT:
            known = list(layout.fields) + [f.name for f in layout.counter_families.values() if f.per_component]
            self.diag.error(node.pos, f"no component has a field {name!r}",
                            suggest(name, known) or f"fields: {', '.join(sorted(layout.fields))}")
        elif kind == t.RECORD:
            self.diag.error(node.pos, f"no table row has a field {name!r}",
                            suggest(name, sorted(self.sym.record_fields)))
        else:
            self.diag.error(node.pos, f"{t.describe(kind)} has no {name!r}")
        return const(None), t.ANY

    def _index(self, node: s.Index, scope: Scope):
        obj, kind = self.compile(node.obj, scope)
        if kind == t.ZONES:
            return self._zone_index(node, obj, scope)
        if kind == t.COUNTERS:
            return self._counter_value(node, obj, scope)
        self.diag.error(node.pos, f"{t.describe(kind)} cannot be indexed with [ ]",
                        "use first(...), last(...) or a filter for lists")
        return const(None), t.ANY

    def _zone_index(self, node: s.Index, obj: Fn, scope: Scope):
        family = self.layout.zone_families[family_name(node.obj)]
        if not family.indexes:
            self.diag.error(node.pos, f"zone {family.name!r} has no index")
            return const(None), t.ANY
        index = self.expect(node.index, scope, t.INT, "a zone index")
        first, width, base, name = family.indexes[0], family.width, family.base, family.name
        position = node.pos
        if isinstance(node.index, s.Literal) and node.index.value not in family.indexes:
            self.diag.error(node.index.pos, f"{name}[{node.index.value}] does not exist",
                            f"{name} goes from {family.indexes[0]} to {family.indexes[-1]}")

        def offset(st, env):
            i = index(st, env) - first
            if not 0 <= i < width:
                fail(position, f"{name}[{i + first}] does not exist: the index must be "
                      f"{first}..{first + width - 1}")
            return i

        def outside(value):
            fail(position, f"{name}[{value}] does not exist: the index must be {first}..{first + width - 1}")

        if family.per_player and isinstance(obj, PlayerZones):
            # one generated expression: base + player * width + index, the index checked in place
            player, fixed = obj.player, constant_in(index)
            if fixed is not None and isinstance(fixed[0], int) and 0 <= fixed[0] - first < width:
                return fused("{i0} + {p0} * {i1}", [player], ints=[base + fixed[0] - first, width]), t.ZONE
            template = "{i0} + {p1} * {i3} + {p0} if {i1} <= {p0} <= {i2} else {v0}({p0})"
            if not simple(index):
                template = "{i0} + {p1} * {i3} + {v1} if {i1} <= ({v1} := {p0}) <= {i2} else {v0}({v1})"
            return fused(template, [index, player], [outside, None],
                         ints=[base - first, first, first + width - 1, width]), t.ZONE
        if family.per_player:
            return (lambda st, env: base + obj(st, env)[2] * width + offset(st, env)), t.ZONE
        fixed = constant_in(index)
        if fixed is not None and isinstance(fixed[0], int) and 0 <= fixed[0] - first < width:
            return const(base + fixed[0] - first), t.ZONE
        known = getattr(index, "values", None)
        if known is not None and all(0 <= value - first < width for value in known):
            return fused("{i0} + {p0}" if base != first else "{p0}", [index], ints=[base - first]), t.ZONE
        plus = "{i0} + " if base != first else ""  # no `0 +` for a family at the layout's start
        if simple(index):
            return fused(plus + "{p0} if {i1} <= {p0} <= {i2} else {v0}({p0})", [index], [outside],
                         ints=[base - first, first, first + width - 1]), t.ZONE
        return fused(plus + "{v1} if {i1} <= ({v1} := {p0}) <= {i2} else {v0}({v1})", [index],
                     [outside, None], ints=[base - first, first, first + width - 1]), t.ZONE

    # ---- calls ----------------------------------------------------------------------------
    def _call(self, node: s.Call, scope: Scope):
        if node.name in self.sym.functions:
            return self._inline_function(node, scope)
        if node.name in self.sym.procedures:
            self.diag.error(node.pos, f"{node.name!r} is a procedure (a list of steps), not a value",
                            "call it on a line of its own")
            return const(None), t.ANY
        function = REGISTRY.get(node.name)
        if function is None:
            self.diag.error(node.pos, f"unknown function {node.name!r}",
                            suggest(node.name, list(REGISTRY) + list(self.sym.functions)))
            return const(None), t.ANY
        return compile_call(self, function, node, scope)

    def bind_arguments(self, node, params: tuple[str, ...], args: tuple[s.Node, ...], scope: Scope,
                       what: str, assigned: set[str] = frozenset()) -> tuple[Scope, list[tuple[int, Fn]]]:
        """Bind a call's arguments for the callee's body, which is compiled at the call (inlined).

        An argument that is a constant or a local variable is read in place (no copy); any other
        is evaluated into a fresh slot of the caller's routine. Parameters in `assigned` (those
        the body changes) always get their own slot."""
        if len(args) != len(params):
            self.diag.error(node.pos, f"{what} {node.name!r} takes {len(params)} argument(s), "
                            f"given {len(args)}")
        inner = Scope(scope.slots)  # the callee sees only its parameters and the globals
        bindings = []
        for param, arg in zip(params, args):
            fn, kind = self.compile(arg, scope)
            if param not in assigned and (constant_in(fn) is not None or slot_of(fn) is not None):
                inner.aliases[param] = (fn, kind)
            else:
                bindings.append((inner.define(param, kind), fn))
        for param in params[len(args):]:  # missing: reported at the call, not again in the body
            bindings.append((inner.define(param, t.ANY), const(None)))
        return inner, bindings

    def _inline_function(self, node: s.Call, scope: Scope):
        if self.define_calls.called(self, node.name):
            return self.define_calls.call(self, node, scope)
        decl = self.sym.functions[node.name]
        if node.name in self.inlining:
            self.diag.error(node.pos, recursion_message("function", node.name, self.inlining), RECURSION_HINT)
            return const(None), t.ANY
        inner, bindings = self.bind_arguments(node, decl.params, node.args, scope, "function")
        self.inlining.append(node.name)
        self.diag.enter_call(node.name, node.pos)
        try:
            body, kind = self.compile(decl.expr, inner)
        finally:
            self.inlining.pop()
            self.diag.leave_call()
        if not bindings:
            if getattr(body, "src", None) is not None and not simple(body):
                self.inlined_calls.append(body.src)
            return body, kind
        bound = with_bindings(body, bindings)
        if getattr(bound, "src", None) is not None:
            self.inlined_calls.append(bound.src)
        return bound, kind

    def _fraction_arithmetic(self, node: s.Binary, a: Fn, ka: t.Kind, b: Fn, kb: t.Kind) -> tuple[Fn, t.Kind]:
        """`a + b`, `a - b` and comparisons where a side is a fraction (from ratio()): a fraction
        (or true/false), so that returns can be sums and differences of shares. `*`, `/` and `%`
        stay whole-number operators: a fraction there is refused as a wrong kind."""
        for side, kind, what in ((node.left, ka, "left"), (node.right, kb, "right")):
            if kind not in (t.INT, t.FRACTION, t.ANY):
                self.diag.error(side.pos, f"the {what} side of `{node.op}` must be a number or a fraction, "
                                f"not {t.describe(kind)}")
        return fused("{p0} " + node.op + " {p1}", [a, b]), _FRACTION_OPERATORS[node.op]

    def _letin(self, node: s.LetIn, scope: Scope):
        """`let name = value` in a define's body: the name bound as a define binds a parameter
        (a constant or a local read in place, any other value given a slot of its own), then
        the rest of the body compiled where the name is visible."""
        inner = scope.child()
        if scope.lookup(node.name) is not None or scope.alias(node.name) is not None:
            self.diag.error(node.pos, f"{node.name!r} is already defined in this define",
                            "give this value a name of its own", code="SR405")
        elif node.name in BUILTIN_VALUES:
            self.diag.error(node.pos, f"the `let` {node.name!r} would hide the name {node.name!r} of the language",
                            "give this value a name of its own", code="SR405")
        fn, kind = self.compile(node.value, scope)
        if constant_in(fn) is not None or slot_of(fn) is not None:
            inner.aliases[node.name] = (fn, kind)
            return self.compile(node.body, inner)
        bindings = [(inner.define(node.name, kind), fn)]
        body, body_kind = self.compile(node.body, inner)
        return with_bindings(body, bindings), body_kind


    # ---- lists ----------------------------------------------------------------------------
    def _listexpr(self, node: s.ListExpr, scope: Scope):
        parts = [self.compile(item, scope) for item in node.items]
        kind = t.NONE
        # an empty list `[]` among lists takes their kind: `[["a"], []]` is a list of lists of texts
        # (so that the texts keep their declared ids, flattened), not of lists of anything
        kinds = [k for item, (_, k) in zip(node.items, parts) if not _empty_list(item)] or [k for _, k in parts]
        for k in kinds:
            kind = t.unify(kind, k)
        fns = [fn for fn, _ in parts]
        if all(isinstance(item, s.Literal) for item in node.items):
            values = [item.value for item in node.items]
            # a copy each time (a list value may be changed by whoever gets it), fused
            return fused("{v0}[:]", values=[values]), t.list_of(t.ANY if kind == t.NONE else kind)
        items = ", ".join(f"{{p{i}}}" for i in range(len(fns)))
        return fused(f"[{items}]", fns), t.list_of(t.ANY if kind == t.NONE else kind)

    # ---- records --------------------------------------------------------------------------
    def _recordexpr(self, node: s.RecordExpr, scope: Scope):
        """`{x: 1, y: 2}`: a plain dict, built fresh each time (a record is never changed in place,
        but a fresh one costs little and nothing can share it by mistake)."""
        names: list[str] = []
        fns: list[Fn] = []
        for entry in node.fields:
            if entry.name in names:
                self.diag.error(entry.pos, f"field {entry.name!r} is given twice in this record")
                continue
            fn, kind = self.compile(entry.value, scope)
            if kind in (t.ZONES, t.COUNTERS, t.FRACTION):
                self.diag.error(entry.value.pos, f"a record's field cannot hold {t.describe(kind)}",
                                "a record holds numbers, texts, true/false, none, players, components, "
                                "records and lists of them")
                fn = const(None)
            names.append(entry.name)
            fns.append(fn)
        self.sym.record_fields.update(names)
        fixed = [constant_in(fn) for fn in fns]
        if all(value is not None for value in fixed):
            values = {name: value[0] for name, value in zip(names, fixed)}
            return fused("{v0}.copy()", values=[values]), t.RECORD
        # the field names are the ruleset's texts: bound to generated names, never written
        fields = ", ".join(f"{{v{i}}}: {{p{i}}}" for i in range(len(fns)))
        return fused("{{" + fields + "}}", fns, names), t.RECORD  # {{ }}: the dict's own braces

    def _filter(self, node: s.Filter, scope: Scope):
        source, kind = self.sequence(node.source, scope, "the list to filter")
        inner = scope.child()
        slot = inner.define(node.var, t.element(kind))
        first_call = len(self.inlined_calls)
        cond = self.expect(node.cond, inner, t.BOOL, "the `where` condition")
        quick = comprehension(source, slot, None, cond, self.inlined_calls[first_call:])
        if quick is not None:
            return quick, (t.list_of(t.COMPONENT) if kind == t.ZONE else kind)

        def keep(st, env):
            out = []
            for item in source(st, env):
                env[slot] = item
                if cond(st, env):
                    out.append(item)
            return out
        return keep, (t.list_of(t.COMPONENT) if kind == t.ZONE else kind)

    def _map(self, node: s.Map, scope: Scope):
        source, kind = self.sequence(node.source, scope, "the list to go through")
        inner = scope.child()
        slot = inner.define(node.var, t.element(kind))
        first_call = len(self.inlined_calls)
        expr, expr_kind = self.compile(node.expr, inner)
        cond = self.expect(node.cond, inner, t.BOOL, "the `where` condition") if node.cond else None
        quick = comprehension(source, slot, expr, cond, self.inlined_calls[first_call:])
        if quick is not None:
            return quick, t.list_of(expr_kind)

        def each(st, env):
            out = []
            for item in source(st, env):
                env[slot] = item
                if cond is None or cond(st, env):
                    out.append(expr(st, env))
            return out
        return each, t.list_of(expr_kind)

    def _range(self, node: s.Range, scope: Scope):
        start = self.expect(node.start, scope, t.INT, "a range's start")
        end = self.expect(node.end, scope, t.INT, "a range's end")
        position, descending = node.pos, node.descending
        if isinstance(node.start, s.Literal) and isinstance(node.end, s.Literal):
            a, b = node.start.value, node.end.value
            size = a - b + 1 if descending else b - a + 1
            if size > MAX_LIST:
                self.diag.error(position, f"this range has {size} items, more than {MAX_LIST}", code="SR704")
                return const([]), t.list_of(t.INT)
            values = list(range(a, b - 1, -1)) if descending else list(range(a, b + 1))
            return const(values), t.list_of(t.INT)  # lists are never changed in place
        return fused("{v0}({p0}, {p1}, {v1}, {v2})", [start, end], [bounded_range, descending, position]), \
            t.list_of(t.INT)

    # ---- operators ------------------------------------------------------------------------
    def _unary(self, node: s.Unary, scope: Scope):
        if node.op == "not":
            fn = self.expect(node.operand, scope, t.BOOL, "the operand of `not`")
            return fused("not {p0}", [fn]), t.BOOL
        fn, kind = self.compile(node.operand, scope)
        if kind == t.FRACTION:  # a share given away: `0 - ratio(1, 3)` written `-ratio(1, 3)`
            return fused("-{p0}", [fn]), t.FRACTION
        fn = self.expect(node.operand, scope, t.INT, "the operand of `-`")
        return fused("-{p0}", [fn]), t.INT

    def _ternary(self, node: s.Ternary, scope: Scope):
        cond = self.expect(node.cond, scope, t.BOOL, "the condition")
        a, ka = self.compile(node.then, scope)
        b, kb = self.compile(node.otherwise, scope)
        if _empty_list(node.otherwise) and t.is_list(ka):  # `["a"] if c else []`: a list of texts
            kb = ka
        elif _empty_list(node.then) and t.is_list(kb):
            ka = kb
        if t.ZONE in (ka, kb) and ka != kb:  # a zone and a list: the zone's content, as a list
            a, ka = (self.as_list(a, ka), t.list_of(t.COMPONENT)) if ka == t.ZONE else (a, ka)
            b, kb = (self.as_list(b, kb), t.list_of(t.COMPONENT)) if kb == t.ZONE else (b, kb)
        return fused("{p1} if {p0} else {p2}", [cond, a, b]), t.unify(ka, kb)

    def _binary(self, node: s.Binary, scope: Scope):
        op = node.op
        if op in ("and", "or"):
            a = self.expect(node.left, scope, t.BOOL, f"the left side of `{op}`")
            b = self.expect(node.right, scope, t.BOOL, f"the right side of `{op}`")
            return fused("{p0} " + op + " {p1}", [a, b]), t.BOOL
        if op in ("in", "notin"):
            a, _ = self.compile(node.left, scope)
            b, _ = self.sequence(node.right, scope, f"the right side of `{'in' if op == 'in' else 'not in'}`")
            return fused("{p0} " + ("in" if op == "in" else "not in") + " {p1}", [a, b]), t.BOOL
        if op in ("==", "!="):
            a, ka = self.compile(node.left, scope)
            b, kb = self.compile(node.right, scope)
            if t.ANY not in (ka, kb) and t.NONE not in (ka, kb) and not (
                    t.compatible(ka, kb) or t.compatible(kb, ka) or {ka, kb} == _NUMBERS):
                self.diag.error(node.pos, f"comparing {t.describe(ka)} with {t.describe(kb)} is always "
                                f"{'false' if op == '==' else 'true'}")
            if (_is_none(a) or _is_none(b)) and not (_constant(a) and _constant(b)):
                # no value of the language equals none but none itself (numbers, texts, lists,
                # records): the identity test gives the same answer, faster (not between two
                # constants, where Python warns that `3 is not None` is written with a literal)
                return fused("{p0} " + ("is" if op == "==" else "is not") + " {p1}", [a, b]), t.BOOL
            return fused("{p0} " + op + " {p1}", [a, b]), t.BOOL
        a, ka = self.compile(node.left, scope)
        b, kb = self.compile(node.right, scope)
        if t.FRACTION in (ka, kb) and op in _FRACTION_OPERATORS:
            return self._fraction_arithmetic(node, a, ka, b, kb)
        a = self.checked(node.left, a, ka, t.INT, f"the left side of `{op}`")
        b = self.checked(node.right, b, kb, t.INT, f"the right side of `{op}`")
        position = node.pos
        if op == "*":  # the one operator that can make a number of millions of digits at once
            return fused("{v0}({p0}, {p1})", [a, b], [product(position)]), t.INT
        if op in _OPERATORS:
            return fused("{p0} " + op + " {p1}", [a, b]), _OPERATORS[op]
        divided = division(position, operator.floordiv if op == "/" else operator.mod)
        return fused("{v0}({p0}, {p1})", [a, b], [divided]), t.INT


_NUMBERS = {t.INT, t.FRACTION}  # a fraction equals a whole number when it is one: ratio(4, 2) == 2
_FRACTION_OPERATORS = {"+": t.FRACTION, "-": t.FRACTION, "<": t.BOOL, "<=": t.BOOL, ">": t.BOOL, ">=": t.BOOL}


def with_bindings(body: Fn, bindings: list[tuple[int, Fn]]) -> Fn:
    """`body` reading each binding's slot after the binding's value is given to it: one generated
    expression when the body allows (fuse.substituted), else a closure that fills the slots."""
    inlined = substituted(body, bindings)
    if inlined is not None:
        found_by_loop.note_substituted(inlined, body, bindings)
        return inlined
    if len(bindings) == 1:
        (slot, arg), = bindings

        def call1(st, env):
            env[slot] = arg(st, env)
            return body(st, env)
        return call1

    def call(st, env):
        for slot, arg in bindings:
            env[slot] = arg(st, env)
        return body(st, env)
    return call


def _constant(fn: Fn) -> bool:
    return constant_in(fn) is not None

def _is_none(fn: Fn) -> bool:
    fixed = constant_in(fn)
    return fixed is not None and fixed[0] is None


# Operators written as themselves in fused code (a fixed set: never text from a ruleset).
_OPERATORS = {"+": t.INT, "-": t.INT, "<": t.BOOL, "<=": t.BOOL, ">": t.BOOL, ">=": t.BOOL}


_EXPRESSION_HANDLERS = s.handlers(ExpressionCompiler)


@dataclass(frozen=True)
class PlayerZones:
    """`p.placed`, a per-player zone family with indexes, waiting for its index: `_zone_index`
    reads the player's closure to generate `p.placed[i]` as one expression. Called, it gives
    ("zones", family, player), for a consumer that only has the closure."""

    family: str
    player: Fn

    def __call__(self, st, env):
        return ("zones", self.family, self.player(st, env))


class _NoSlots:
    """Slots for constant expressions, which may not use any."""

    size = 0

    def new(self) -> int:
        return 0


def _empty_list(node: s.Node) -> bool:
    """`[]`: a list whose kind is the kind of the lists it stands beside."""
    return isinstance(node, s.ListExpr) and not node.items
