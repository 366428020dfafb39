"""Counters named in expressions and as targets (`p.score`, `res[k]`, `p.res["gem"]`, a component's
`d.value`): each compiled to the index of its value in `State.counters`, its key checked.

`CounterReferences` is a part of the expression compiler (compile/expressions.py), which gives it
`expect`, `diag`, `layout` and `sym`; the statements that change or pay from a counter
(compile/changes.py, compile/costs.py) find it with `counter_ref`.
"""
from __future__ import annotations

from snowrules.compile.closures import Fn, const, constant_in, fail
from snowrules.compile.fuse import fused
from snowrules.compile.scope import Scope, family_name, suggest
from snowrules.language import syntax as s
from snowrules.model import kinds as t


class CounterReferences:
    """Counter references compiled to their indexes (see the module's docstring)."""

    def counter_key(self, node: s.Node, family, scope: Scope) -> Fn:
        keys = {k: i for i, k in enumerate(family.keys)}
        key = self.expect(node, scope, t.STR, "a counter key")
        fixed = constant_in(key)
        if fixed is not None and (fixed[0] in keys or not self._passed_in(node, scope)):
            if fixed[0] not in keys:
                if isinstance(fixed[0], str):  # not a text: reported by `expect` already
                    self.diag.error(node.pos, f"counter {family.name!r} has no key {fixed[0]!r}",
                                    f"its keys: {', '.join(family.keys)}")
                return const(0)
            return const(keys[fixed[0]])
        position, name = node.pos, family.name

        def missing(value):
            fail(position, f"counter {name!r} has no key {value!r}")
        # the key's index, one generated expression (the key checked when the counter is read)
        return fused("{v0}[{v1}] if ({v1} := {p0}) in {v0} else {v2}({v1})", [key], [keys, None, missing])

    @staticmethod
    def _passed_in(node: s.Node, scope: Scope) -> bool:
        """A key that a definition's parameter brings in (`p.res[k]` in `define f(p, k)`), not one
        written at the counter: a call may pass a text the family lacks to a branch that never
        reads the counter (`p.res[k] if k in ["a", "b"] else 0`), so such a key is checked when
        the counter is read, while a written key (`p.res["gme"]`) is refused at once."""
        return isinstance(node, s.Name) and scope.alias(node.name) is not None

    def component_counter(self, node: s.Attribute, component: Fn, family) -> Fn:
        """The index of a component's `per component` counter (`d.value`). A counter of one kind
        only: a component of another kind has none, an error at `node` when it is read."""
        if family.holders is not None and len(family.holders) == len(self.layout.component_names):
            return fused("{i0} + {p0}", [component], ints=[family.base])  # every component has one
        name, position, names = family.name, node.pos, self.layout.component_names
        kinds = " or ".join(family.kinds)

        def not_a_component() -> None:
            fail(position, f"none has no counter {name!r}: the value is not a component")

        def without_one(c: int) -> None:
            fail(position, f"{names[c]} has no counter {name!r}: only components of kind {kinds} have one")
        # the counter's index, one generated expression: the component checked, then its index
        return fused("({v1} if ({v1} := {v0}[{v2}]) >= 0 else {v3}({v2})) if ({v2} := {p0}) is not None "
                     "else {v4}()", [component], [family.index_of, None, None, without_one, not_a_component])

    def counter_ref(self, node: s.Node, scope: Scope, what: str):
        """A counter as a target (`add 2 to p.score`): a closure giving its index, and its family."""
        layout = self.layout
        if isinstance(node, s.Attribute) and node.name in layout.counter_families:
            family = layout.counter_families[node.name]
            if family.per_component:
                component = self.expect(node.obj, scope, t.COMPONENT, "the counter's component")
                return self.component_counter(node, component, family), family
        if isinstance(node, s.Name) and node.name in layout.counter_families:
            family = layout.counter_families[node.name]
            if not family.per_player and not family.keys:
                return const(family.base), family
        if isinstance(node, s.Attribute) and node.name in layout.counter_families:
            family = layout.counter_families[node.name]
            if family.per_player and not family.keys:
                player = self.expect(node.obj, scope, t.PLAYER, "the counter's player")
                return fused("{i0} + {p0}", [player], ints=[family.base]), family
        if isinstance(node, s.Index):
            name = family_name(node.obj)
            family = layout.counter_families.get(name)
            if family is not None and family.keys:
                key = self.counter_key(node.index, family, scope)
                base, width = family.base, family.width
                if family.per_player and isinstance(node.obj, s.Attribute):
                    player = self.expect(node.obj.obj, scope, t.PLAYER, "the counter's player")
                    fixed = constant_in(key)
                    if fixed is not None:
                        return fused("{i0} + {p0} * {i1}", [player], ints=[base + fixed[0], width]), family
                    return fused("{i0} + {p0} * {i1} + {p1}", [player, key], ints=[base, width]), family
                if not family.per_player and isinstance(node.obj, s.Name):
                    return fused("{i0} + {p0}", [key], ints=[base]), family
        name = family_name(node) or ""
        known = set(layout.counter_families) | set(layout.zone_families) | set(layout.fields)
        if (name and name not in known and name not in self.sym.functions and name not in self.sym.variables
                and scope.lookup(name) is None):
            # a name nothing declares (`p.scroe`): an unknown counter, not a value of the wrong kind
            self.diag.error(node.pos, f"unknown counter {name!r}", suggest(name, list(layout.counter_families)))
            return None, None
        self.diag.error(node.pos, f"{what} must be a counter, such as score or p.score",
                        suggest(name, list(layout.counter_families)))
        return None, None

    def _counter_value(self, node: s.Index, obj: Fn, scope: Scope):
        ref, family = self.counter_ref(node, scope, "this")
        if ref is None:
            return const(0), t.INT
        return fused("st.counters[{p0}]", [ref]), t.INT
