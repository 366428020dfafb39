"""The standard library of the rules language: named functions every ruleset may call.

Each `_std_NAME` method compiles a call `NAME(...)` into a closure, checking its arguments. It is
mixed into the expression compiler, whose `compile`, `expect` and `sequence` it uses.
"""
from __future__ import annotations

from snowrules.compile.closures import const, fail
from snowrules.compile.fuse import fused
from snowrules.compile.scope import Scope, suggest
from snowrules.language import syntax as s
from snowrules.model import kinds as t

STDLIB = {
    "size": "the number of items in a list or zone",
    "empty": "whether a list or zone holds nothing",
    "first": "the first item of a list (a zone's bottom), or none",
    "last": "the last item of a list (a zone's top), or none",
    "min": "the smallest of a list, or of its arguments",
    "max": "the largest of a list, or of its arguments",
    "sum": "the total of a list of numbers",
    "flatten": "one list from a list of lists or zones",
    "sorted": "a list in increasing order",
    "unique": "a list without repeats, in first-seen order",
    "abs": "a number without its sign",
    "ratio": "a / b as a fraction (`/` rounds down): a return or an average, never a count",
    "left_of": "the next player in seat order (to the left)",
    "right_of": "the previous player in seat order (to the right)",
    "players_from": "every player in seat order, starting with the given one",
    "seat_name": "a player's colour or seat name, as text",
    "seat_number": "a player's seat as a number: 0 for the first seat, then in seat order",
    "name_of": "a component's name, as text",
    "zone_of": "the zone a component is in",
    "find": "the first row (or component) of a list whose field has a value, or none",
    "evaluate": "the value of an expression written in a component's field, for a player (`me`)",
    "longest_run": "the length of the longest run of consecutive whole numbers in a list",
    "count": "how many items of a list equal a value",
}


class StandardLibrary:
    """The `_std_*` methods of ExpressionCompiler (see STDLIB for what each one does)."""

    def _arity(self, node: s.Call, low: int, high: int) -> bool:
        if not low <= len(node.args) <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            self.diag.error(node.pos, f"{node.name}() takes {wanted} argument(s), given {len(node.args)}")
            return False
        return True

    def _one_list(self, node: s.Call, scope: Scope):
        if not self._arity(node, 1, 1):
            return const([]), t.list_of(t.ANY)
        return self.sequence(node.args[0], scope, f"the argument of {node.name}()")

    def _zone_arg(self, node: s.Call, scope: Scope):
        """The argument's zone closure when it is a zone, else None (then it is read as a list)."""
        if len(node.args) == 1:
            fn, kind = self.compile(node.args[0], scope)
            if kind == t.ZONE:
                return fn
        return None

    def _std_size(self, node, scope):
        zone = self._zone_arg(node, scope)
        if zone is not None:
            return fused("len(st.zones[{p0}])", [zone]), t.INT
        fn, _ = self._one_list(node, scope)
        return fused("len({p0})", [fn]), t.INT

    def _std_empty(self, node, scope):
        zone = self._zone_arg(node, scope)
        if zone is not None:
            return fused("not st.zones[{p0}]", [zone]), t.BOOL
        fn, _ = self._one_list(node, scope)
        return fused("not {p0}", [fn]), t.BOOL

    def _std_first(self, node, scope):
        fn, kind = self._one_list(node, scope)
        return fused("{v0}({p0})", [fn], [_first]), t.element(kind)

    def _std_last(self, node, scope):
        fn, kind = self._one_list(node, scope)
        return fused("{v0}({p0})", [fn], [_last]), t.element(kind)

    def _extreme(self, node, scope, pick):
        if len(node.args) == 1:
            fn, kind = self._one_list(node, scope)

            def of_list(st, env):
                items = fn(st, env)
                return pick(items) if items else None
            return of_list, t.element(kind)
        if not self._arity(node, 1, 99):
            return const(None), t.ANY
        fns = [self.expect(a, scope, t.INT, f"an argument of {node.name}()") for a in node.args]
        return (lambda st, env: pick([f(st, env) for f in fns])), t.INT

    def _std_min(self, node, scope):
        return self._extreme(node, scope, min)

    def _std_max(self, node, scope):
        return self._extreme(node, scope, max)

    def _std_sum(self, node, scope):
        fn, _ = self._one_list(node, scope)
        return (lambda st, env: sum(fn(st, env))), t.INT

    def _std_sorted(self, node, scope):
        fn, kind = self._one_list(node, scope)
        return (lambda st, env: sorted(fn(st, env))), kind

    def _std_unique(self, node, scope):
        fn, kind = self._one_list(node, scope)
        return (lambda st, env: list(dict.fromkeys(fn(st, env)))), kind

    def _std_abs(self, node, scope):
        if not self._arity(node, 1, 1):
            return const(0), t.INT
        fn = self.expect(node.args[0], scope, t.INT, "the argument of abs()")
        return (lambda st, env: abs(fn(st, env))), t.INT

    def _std_ratio(self, node, scope):
        if not self._arity(node, 2, 2):
            return const(0), t.INT
        a = self.expect(node.args[0], scope, t.INT, "the first argument of ratio()")
        b = self.expect(node.args[1], scope, t.INT, "the second argument of ratio()")
        return (lambda st, env: a(st, env) / b(st, env)), t.FRACTION

    def _std_flatten(self, node, scope):
        if not self._arity(node, 1, 1):
            return const([]), t.list_of(t.ANY)
        fn, kind = self.compile(node.args[0], scope)
        inner = t.element(kind)
        if inner == t.ZONE:
            return (lambda st, env: [c for z in fn(st, env) for c in st.zones[z]]), t.list_of(t.COMPONENT)
        if not t.is_list(kind) or not (t.is_list(inner) or inner == t.ANY):
            self.diag.error(node.pos, "flatten() takes a list of lists or of zones")
        return (lambda st, env: [x for part in fn(st, env) for x in part]), t.list_of(t.element(inner))

    def _player_arg(self, node, scope):
        if not self._arity(node, 1, 1):
            return const(0)
        return self.expect(node.args[0], scope, t.PLAYER, f"the argument of {node.name}()")

    def _std_left_of(self, node, scope):
        fn, n = self._player_arg(node, scope), self.layout.seats
        return (lambda st, env: (fn(st, env) + 1) % n), t.PLAYER

    def _std_right_of(self, node, scope):
        fn, n = self._player_arg(node, scope), self.layout.seats
        return (lambda st, env: (fn(st, env) - 1) % n), t.PLAYER

    def _std_players_from(self, node, scope):
        fn, n = self._player_arg(node, scope), self.layout.seats
        return (lambda st, env: [(fn(st, env) + i) % n for i in range(n)]), t.list_of(t.PLAYER)

    def _std_seat_name(self, node, scope):
        fn, names = self._player_arg(node, scope), self.layout.seat_names
        return (lambda st, env: names[fn(st, env)]), t.STR

    def _std_seat_number(self, node, scope):
        return self._player_arg(node, scope), t.INT

    def _std_name_of(self, node, scope):
        if not self._arity(node, 1, 1):
            return const(""), t.STR
        fn, names = self.expect(node.args[0], scope, t.COMPONENT, "the argument of name_of()"), \
            self.layout.component_names
        return (lambda st, env: names[fn(st, env)]), t.STR

    def _std_zone_of(self, node, scope):
        if not self._arity(node, 1, 1):
            return const(0), t.ZONE
        fn = self.expect(node.args[0], scope, t.COMPONENT, "the argument of zone_of()")
        return (lambda st, env: st.where[fn(st, env)]), t.ZONE

    def _std_longest_run(self, node, scope):
        fn, kind = self._one_list(node, scope)
        if t.element(kind) not in (t.INT, t.ANY):
            self.diag.error(node.pos, "longest_run() takes a list of numbers")
        return fused("{v0}({p0})", [fn], [_longest_run]), t.INT

    def _std_count(self, node, scope):
        if not self._arity(node, 2, 2):
            return const(0), t.INT
        source, _ = self.sequence(node.args[0], scope, "the first argument of count()")
        value, _ = self.compile(node.args[1], scope)
        return fused("{p0}.count({p1})", [source, value]), t.INT

    def _std_evaluate(self, node, scope):
        """`evaluate(card, "field", player)`: the card's expression with `this` = the card and
        `me` = the player (a prize's condition, a goal's measure)."""
        if not self._arity(node, 3, 3):
            return const(None), t.ANY
        card = self.expect(node.args[0], scope, t.COMPONENT, "the first argument of evaluate()")
        field = node.args[1]
        if not (isinstance(field, s.Literal) and isinstance(field.value, str)):
            self.diag.error(field.pos, "evaluate() needs the field's name as a quoted text")
            return const(None), t.ANY
        if field.value not in self.sym.expression_fields:
            self.diag.error(field.pos, f"no component has an expression in a field {field.value!r}",
                            suggest(field.value, sorted(self.sym.expression_fields))
                            or "a field is an expression when its schema says \"x-language\": \"expression\"")
        player = self.expect(node.args[2], scope, t.PLAYER, "the third argument of evaluate()")
        table, defs, names, name = self.sym.expressions, self.layout.component_defs, \
            self.layout.component_names, field.value
        position = node.pos

        def evaluate(st, env):
            c = card(st, env)
            entry = table.get((defs[c], name))
            if entry is None:
                fail(position, f"{names[c]} has no expression {name!r}")
            fn, slots, me, this = entry
            local = [None] * slots.size
            local[me], local[this] = player(st, env), c
            return fn(st, local)
        return evaluate, t.ANY

    def _std_find(self, node, scope):
        """`find(table, "field", value)`: a table is indexed once, while compiling."""
        if not self._arity(node, 3, 3):
            return const(None), t.ANY
        source, kind = self.sequence(node.args[0], scope, "the first argument of find()")
        field = node.args[1]
        if not (isinstance(field, s.Literal) and isinstance(field.value, str)):
            self.diag.error(field.pos, "find() needs the field's name as a quoted text")
            return const(None), t.ANY
        name = field.value
        value, _ = self.compile(node.args[2], scope)
        element = t.element(kind)
        table = node.args[0]
        if isinstance(table, s.Name) and table.name in self.sym.tables and scope.lookup(table.name) is None:
            rows = self.sym.tables[table.name][0]
            if not any(name in row for row in rows):
                self.diag.error(field.pos, f"no row of {table.name!r} has a field {name!r}",
                                suggest(name, sorted({k for row in rows for k in row})))
            index: dict = {}
            for row in rows:
                index.setdefault(row.get(name), row)
            return (lambda st, env: index.get(value(st, env))), t.RECORD
        if element == t.COMPONENT:
            if name not in self.layout.fields:
                self.diag.error(field.pos, f"no component has a field {name!r}",
                                suggest(name, list(self.layout.fields)))
                return const(None), t.ANY
            values = self.layout.fields[name]

            def find_component(st, env):
                wanted = value(st, env)
                return next((c for c in source(st, env) if values[c] == wanted), None)
            return find_component, t.COMPONENT

        def find_row(st, env):
            wanted = value(st, env)
            return next((r for r in source(st, env) if r.get(name) == wanted), None)
        return find_row, element


def _longest_run(numbers: list) -> int:
    values = sorted(set(numbers))
    best = run = 0
    previous = None
    for value in values:
        run = run + 1 if previous is not None and value == previous + 1 else 1
        best = max(best, run)
        previous = value
    return best


def _first(items: list):
    return items[0] if items else None


def _last(items: list):
    return items[-1] if items else None
