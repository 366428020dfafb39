"""Statements that change the game: moves, counters, the account, the end.

Mixed into the statement compiler. Each compiles to generated lines (see fuse.py) or, where the
work is long or rare, to a closure; each move and counter change tells the log which rule (file,
line, column) caused it.
"""
from __future__ import annotations

from snowrules.compile import fuse
from snowrules.compile.scope import Scope, suggest
from snowrules.compile.steps import GameEnded
from snowrules.compile.triggers import fire
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.model import kinds as t


def move_event(layout, moved: list[int], source: int, dest: int, rule: str) -> dict:
    """The log's account of components moved from one zone to another by a rule."""
    return {"e": "move", "what": [layout.component_names[c] for c in moved],
            "from": layout.zones[source].label(layout.seat_names),
            "to": layout.zones[dest].label(layout.seat_names), "rule": rule}


class ChangeStatements:
    """The `_move`, `_add`, `_setcounter`, `_reset`, `_endgame` and `_announce` methods of
    StatementCompiler (chance is in chance.py)."""

    def _rule(self, node: s.Node) -> str:
        return str(node.pos)

    def _move(self, node: s.Move, scope: Scope):
        target = self.x.zone(node.target, scope, "the destination")
        layout, rule, bottom = self.layout, self._rule(node), node.bottom

        def emit(st, moved, source, dest):
            st.sink(move_event(layout, moved, source, dest, rule))

        if node.mode == "all":
            source = self.x.zone(node.source, scope, "the zone to empty")
            a, b, moved = fuse.fresh("_a"), fuse.fresh("_b"), fuse.fresh("_m")
            source_src, source_ns = fuse.expression(source)
            target_src, target_ns = fuse.expression(target)
            emit_name, item = fuse.fresh("_v"), fuse.fresh("_x")
            put = f"st.zones[{b}][:0] = {moved}" if bottom else f"st.zones[{b}].extend({moved})"
            lines = [f"{a} = {source_src}",
                     f"{b} = {target_src}",
                     f"{moved} = st.zones[{a}]",
                     f"if {moved} and {a} != {b}:",
                     f"    st.zones[{a}] = []",
                     f"    for {item} in {moved}:",
                     f"        st.where[{item}] = {b}",
                     f"    {put}",
                     f"    if st.sink is not None: {emit_name}(st, {moved}, {a}, {b})"]
            return fuse.statement(lines, {**source_ns, **target_ns, emit_name: emit}, 2)
        if node.mode == "top":
            count = self.x.expect(node.what, scope, t.INT, "the number of items to move")
            source = self.x.zone(node.source, scope, "the zone to take from")
            a, b, moved, c = fuse.fresh("_a"), fuse.fresh("_b"), fuse.fresh("_m"), fuse.fresh("_c")
            count_src, count_ns = fuse.expression(count)
            source_src, source_ns = fuse.expression(source)
            target_src, target_ns = fuse.expression(target)
            emit_name = fuse.fresh("_v")
            put = f"st.zones[{b}].insert(0, {c})" if bottom else f"st.zones[{b}].append({c})"
            lines = [f"{a} = {source_src}",
                     f"{b} = {target_src}",
                     f"{moved} = []",
                     f"for {fuse.fresh()} in range(min({count_src}, len(st.zones[{a}]))):",
                     f"    {c} = st.zones[{a}].pop()",
                     f"    st.where[{c}] = {b}",
                     f"    {moved}.append({c})",
                     f"    {put}",
                     f"if {moved} and st.sink is not None: {emit_name}(st, {moved}, {a}, {b})"]
            return fuse.statement(lines, {**count_ns, **source_ns, **target_ns, emit_name: emit}, 1)
        what, kind = self.x.compile(node.what, scope)
        position = node.pos
        if kind == t.COMPONENT:
            return self._move_one(what, target, bottom, emit, position)
        if kind == t.ZONE:
            self.diag.error(node.what.pos, "to move a zone's contents write `move all from ZONE to ...`")
        elif kind not in (t.COMPONENT, t.ANY) and not t.compatible(kind, t.list_of(t.COMPONENT)):
            self.diag.error(node.what.pos, f"only components move; this is {t.describe(kind)}")
        many = t.is_list(kind)

        def move_items(st, env):
            value, b = what(st, env), target(st, env)
            items = value if many or isinstance(value, list) else [value]
            zones, where = st.zones, st.where
            for c in items:
                if c is None:
                    raise RuntimeRulesError.at(position, "nothing to move: the value is none")
                a = where[c]
                zones[a].remove(c)
                if bottom:
                    zones[b].insert(0, c)
                else:
                    zones[b].append(c)
                where[c] = b
                if st.sink is not None:
                    emit(st, [c], a, b)
        return move_items

    def _move_one(self, what, target, bottom: bool, emit, position: Position):
        """`move CARD to ZONE` as generated lines."""
        c, a, b = fuse.fresh("_c"), fuse.fresh("_a"), fuse.fresh("_b")
        what_src, what_ns = fuse.expression(what)
        target_src, target_ns = fuse.expression(target)
        emit_name, fail_name = fuse.fresh("_v"), fuse.fresh("_v")

        def nothing_to_move():
            raise RuntimeRulesError.at(position, "nothing to move: the value is none")
        put = f"st.zones[{b}].insert(0, {c})" if bottom else f"st.zones[{b}].append({c})"
        lines = [f"{c} = {what_src}",
                 f"if {c} is None: {fail_name}()",
                 f"{a} = st.where[{c}]",
                 f"st.zones[{a}].remove({c})",
                 f"{b} = {target_src}",
                 put,
                 f"st.where[{c}] = {b}",
                 f"if st.sink is not None: {emit_name}(st, [{c}], {a}, {b})"]
        return fuse.statement(lines, {**what_ns, **target_ns, emit_name: emit, fail_name: nothing_to_move}, 1)

    def _add(self, node: s.Add, scope: Scope):
        return self._counter_change(node, scope, stepped=False)

    def _setcounter(self, node: s.SetCounter, scope: Scope):
        return self._counter_change(node, scope, stepped=False)

    def _counter_change(self, node, scope: Scope, stepped: bool):
        """`add`, `subtract` and `set` on a counter: clamp to its bounds, log, fire triggers."""
        ref, family = self.x.counter_ref(node.target, scope, "the counter")
        if isinstance(node, s.SetCounter):
            value = self.x.expect(node.value, scope, t.INT, "the new value")
            setting, amount, negate = True, value, False
        else:
            amount = self.x.expect(node.amount, scope, t.INT, "the amount")
            setting, negate = False, node.negate
        if ref is None:
            return lambda st, env: None
        low, high = family.lower, family.upper
        triggers = self.triggers.setdefault(family.name, [])
        labels, rule = self.layout.counter_labels, self._rule(node)

        def change(st, env):
            i = ref(st, env)
            counters = st.counters
            old = counters[i]
            n = amount(st, env)
            new = n if setting else (old - n if negate else old + n)
            if low is not None and new < low:
                new = low
            if high is not None and new > high:
                new = high
            if new == old:
                return None
            if not triggers:
                counters[i] = new
                if st.sink is not None:
                    st.sink({"e": "count", "counter": labels[i], "by": new - old, "now": new, "rule": rule})
                return None
            return fire(st, triggers, i, old, new, labels, rule)
        if stepped:
            return change
        # The same, as generated lines (no call per change).
        names = {k: fuse.fresh("_v") for k in ("t", "labels", "rule", "fire", "low", "high")}
        i, o, n = fuse.fresh("_i"), fuse.fresh("_o"), fuse.fresh("_n")
        ref_src, ref_ns = fuse.expression(ref)
        amount_src, amount_ns = fuse.expression(amount)
        new = amount_src if setting else f"{o} {'-' if negate else '+'} {amount_src}"
        lines = [f"{i} = {ref_src}", f"{o} = st.counters[{i}]", f"{n} = {new}"]
        if low is not None:
            lines.append(f"if {n} < {names['low']}: {n} = {names['low']}")
        if high is not None:
            lines.append(f"if {n} > {names['high']}: {n} = {names['high']}")
        lines += [f"if {n} != {o}:",
                  f"    if {names['t']}: {names['fire']}(st, {names['t']}, {i}, {o}, {n}, {names['labels']}, "
                  f"{names['rule']})",
                  "    else:",
                  f"        st.counters[{i}] = {n}",
                  "        if st.sink is not None:",
                  f"            st.sink({{'e': 'count', 'counter': {names['labels']}[{i}], 'by': {n} - {o}, "
                  f"'now': {n}, 'rule': {names['rule']}}})"]
        namespace = {**ref_ns, **amount_ns, names["t"]: triggers, names["labels"]: labels,
                     names["rule"]: rule, names["fire"]: fire, names["low"]: low, names["high"]: high}
        return fuse.statement(lines, namespace, 2)

    def _reset(self, node: s.Reset, scope: Scope):
        family = self.layout.counter_families.get(node.name)
        if family is None:
            self.diag.error(node.pos, f"unknown counter {node.name!r}",
                            suggest(node.name, list(self.layout.counter_families)))
            return lambda st, env: None
        size = family.width * (self.layout.seats if family.per_player else 1)
        start, value = family.base, family.initial

        def reset(st, env):
            st.counters[start:start + size] = [value] * size
        return reset

    def _endgame(self, node: s.EndGame, scope: Scope):
        position = node.pos
        if node.winners is None:
            def end_without_winner(st, env):
                raise GameEnded([], position)
            return end_without_winner
        fn, kind = self.x.compile(node.winners, scope)
        if kind not in (t.PLAYER, t.ANY) and not t.compatible(kind, t.list_of(t.PLAYER)):
            self.diag.error(node.winners.pos, f"the winners must be players, not {t.describe(kind)}")

        def end_game(st, env):
            value = fn(st, env)
            raise GameEnded(sorted(value) if isinstance(value, list) else [value], position)
        return end_game

    def _announce(self, node: s.Announce, scope: Scope):
        parts = [self._text(part, scope) for part in node.parts]

        def announce(st, env):
            if st.sink is not None:
                st.sink({"e": "say", "text": " ".join(p(st, env) for p in parts), "rule": str(node.pos)})
        return announce

    def _text(self, node: s.Node, scope: Scope):
        fn, kind = self.x.compile(node, scope)
        layout = self.layout

        def one(value, kind, st):
            if value is None:
                return "none"
            if isinstance(value, bool):
                return "true" if value else "false"
            if kind == t.PLAYER:
                return layout.seat_names[value]
            if kind == t.COMPONENT:
                return layout.component_names[value]
            if kind == t.ZONE:  # a zone is told by what it holds
                return ", ".join(layout.component_names[c] for c in st.zones[value]) or "nothing"
            if isinstance(value, list):
                return ", ".join(one(v, t.element(kind), st) for v in value) or "nothing"
            return str(value)
        return lambda st, env: one(fn(st, env), kind, st)
