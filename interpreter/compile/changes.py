"""Statements that change the game: moves, counters, the account, the end.

Mixed into the statement compiler. Each compiles to generated lines (see fuse.py) or, where the
work is long or rare, to a closure, that works out what changes and hands it to apply.py, which
changes the game and sends the event naming the rule (file, line, column) that caused it.
"""
from __future__ import annotations

from typing import Any

from snowrules.compile import apply, fuse
from snowrules.compile.scope import Scope, suggest
from snowrules.compile.steps import GameEnded
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.language.limits import bound_line, refusal_of_large_number
from snowrules.model import kinds as t
from snowrules.model.events import Said
from snowrules.model.grid_zones import cell_of, is_spot, spot_label
from snowrules.model.values import Termination


class ChangeStatements:
    """The `_move`, `_add`, `_setcounter`, `_reset`, `_endgame` and `_announce` methods of
    StatementCompiler (chance is in chance.py). The changes themselves, with their events, are
    applied by compile/apply.py: what is compiled here works out which change, then calls it."""

    def _rule(self, node: s.Node) -> str:
        return str(node.pos)

    def _move(self, node: s.Move, scope: Scope):
        target = self.x.zone(node.target, scope, "the destination")
        self.refuse_grid_target(node.target)  # a grid zone is entered `at` a spot (grid_statements.py)
        rule, bottom = self._rule(node), node.bottom
        grids = self.grid_moves()
        if node.mode in ("all", "top"):
            source = self.x.zone(node.source, scope, "the zone to empty" if node.mode == "all"
                                 else "the zone to take from")
            source_src, source_ns = fuse.expression(source)
            target_src, target_ns = fuse.expression(target)
            names = {k: fuse.fresh("_v") for k in ("move", "rule", "react")}
            namespace = {**source_ns, **target_ns, names["rule"]: rule, names["react"]: self._move_events()}
            react = f", {names['react']}" if self._move_events() else ""
            if node.mode == "all" and not grids:  # the move's lines in place (apply.move_all_lines)
                a, b, moved, into = (fuse.fresh(prefix) for prefix in ("_a", "_b", "_m", "_t"))
                react_names = {fuse.fresh("_v"): event for event in self._move_events()}
                lines = [f"{a} = {source_src}", f"{b} = {target_src}",
                         *apply.move_all_lines(a, b, moved, into, bottom, names["rule"], tuple(react_names))]
                return fuse.statement(lines, {**namespace, **apply.NAMESPACE, **react_names}, 2)
            if node.mode == "top" and not grids:  # the move's lines in place (apply.move_top_lines)
                count = self.x.expect(node.what, scope, t.INT, "the number of items to move")
                count_src, count_ns = fuse.expression(count)
                a, b, taken, source, moved = (fuse.fresh(prefix) for prefix in ("_a", "_b", "_k", "_s", "_m"))
                react_names = {fuse.fresh("_v"): event for event in self._move_events()}
                lines = [f"{a} = {source_src}", f"{b} = {target_src}",
                         *apply.move_top_lines(a, b, count_src, taken, source, moved, bottom, names["rule"],
                                               tuple(react_names), names["move"])]
                namespace.update(count_ns)
                namespace[names["move"]] = apply.move_top
                return fuse.statement(lines, {**namespace, **apply.NAMESPACE, **react_names}, 2)
            if node.mode == "all":
                namespace[names["move"]] = grids.move_all
                line = f"{names['move']}(st, {source_src}, {target_src}, {bottom!r}, {names['rule']}{react})"
            else:
                count = self.x.expect(node.what, scope, t.INT, "the number of items to move")
                count_src, count_ns = fuse.expression(count)
                namespace.update(count_ns)
                namespace[names["move"]] = grids.move_top if grids else apply.move_top
                line = (f"{names['move']}(st, {source_src}, {target_src}, {count_src}, {bottom!r}, "
                        f"{names['rule']}{react})")
            return fuse.statement([line], namespace, 0)
        what, kind = self.x.compile(node.what, scope)
        position = node.pos
        if kind == t.COMPONENT:
            return self._move_one(what, target, bottom, rule, position)
        if kind == t.ZONE:
            self.diag.error(node.what.pos, "to move a zone's contents write `move all from ZONE to ...`")
        elif kind not in (t.COMPONENT, t.ANY) and not t.compatible(kind, t.list_of(t.COMPONENT)):
            self.diag.error(node.what.pos, f"only components move; this is {t.describe(kind)}")
        return self._move_each(what, target, bottom, rule, position)

    def _move_events(self) -> tuple:
        """The ruleset's events raised by every move that something reacts to (reactions.py)."""
        return tuple(self.events.move_events()) if getattr(self, "events", None) is not None else ()

    def _move_each(self, what, target, bottom: bool, rule: str, position: Position):
        """`move LIST to ZONE` (or a value of any kind) as generated lines: each component in
        turn, by apply.move_lines (which lifts one leaving a grid zone, in a game with grids)."""
        value, c, b, a = fuse.fresh("_w"), fuse.fresh("_c"), fuse.fresh("_b"), fuse.fresh("_a")
        what_src, what_ns = fuse.expression(what)
        target_src, target_ns = fuse.expression(target)
        names = {k: fuse.fresh("_v") for k in ("fail", "rule", "grids")}
        grids = self.grid_moves()

        def nothing_to_move():
            raise RuntimeRulesError.at(position, "nothing to move: the value is none")
        react = {fuse.fresh("_v"): event for event in self._move_events()}
        # a name of list kind may still hold none: that is one value, none, not a list
        lines = [f"{value} = {what_src}",
                 f"{b} = {target_src}",
                 f"for {c} in ({value} if isinstance({value}, list) else [{value}]):",
                 f"    if {c} is None: {names['fail']}()",
                 *fuse.indent(apply.move_lines(c, b, a, bottom, names["rule"], tuple(react),
                                               names["grids"] if grids else None))]
        namespace = {**what_ns, **target_ns, **apply.NAMESPACE, **react, names["fail"]: nothing_to_move,
                     names["rule"]: rule}
        if grids:
            namespace[names["grids"]] = grids
        return fuse.statement(lines, namespace, 2)

    def _move_one(self, what, target, bottom: bool, rule: str, position: Position):
        """`move CARD to ZONE` as generated lines."""
        c = fuse.fresh("_c")
        what_src, what_ns = fuse.expression(what)
        target_src, target_ns = fuse.expression(target)
        names = {k: fuse.fresh("_v") for k in ("fail", "rule")}
        b, a = fuse.fresh("_b"), fuse.fresh("_a")
        grids = self.grid_moves()
        grid_name = fuse.fresh("_v") if grids else None

        def nothing_to_move():
            raise RuntimeRulesError.at(position, "nothing to move: the value is none")
        react = {fuse.fresh("_v"): event for event in self._move_events()}
        # a loop variable over a zone always holds a component (scope.never_none): no check
        checked = [] if getattr(what, "never_none", False) else [f"if {c} is None: {names['fail']}()"]
        lines = [f"{c} = {what_src}", *checked,
                 f"{b} = {target_src}",
                 *apply.move_lines(c, b, a, bottom, names["rule"], tuple(react), grid_name)]
        namespace = {**what_ns, **target_ns, **apply.NAMESPACE, **react, names["fail"]: nothing_to_move,
                     names["rule"]: rule}
        if grids:
            namespace[grid_name] = grids
        return fuse.statement(lines, namespace, 1)

    def _add(self, node: s.Add, scope: Scope):
        return self._counter_change(node, scope, stepped=False)

    def _setcounter(self, node: s.SetCounter, scope: Scope):
        return self._counter_change(node, scope, stepped=False)

    def _counter_change(self, node, scope: Scope, stepped: bool):
        """`add`, `subtract` and `set` on a counter: clamp to its bounds, then (when the value
        changes) apply.counter_lines sets it, tells it and fires the triggers. One generated
        function serves both forms: as a step (`stepped`) its result is the triggered bodies
        that may wait, which the statement runs once it is done."""
        ref, family = self.x.counter_ref(node.target, scope, "the counter")
        if isinstance(node, s.SetCounter):
            amount = self.x.expect(node.value, scope, t.INT, "the new value")
            setting, negate = True, False
        else:
            amount = self.x.expect(node.amount, scope, t.INT, "the amount")
            setting, negate = False, node.negate
        if ref is None:
            return lambda st, env: None
        low, high = family.lower, family.upper
        triggers = self.triggers.setdefault(family.name, [])
        names = {k: fuse.fresh("_v") for k in ("t", "rule", "low", "high")}
        i, o, n = fuse.fresh("_i"), fuse.fresh("_o"), fuse.fresh("_n")
        ref_src, ref_ns = fuse.expression(ref)
        amount_src, amount_ns = fuse.expression(amount)
        new = amount_src if setting else f"{o} {'-' if negate else '+'} {amount_src}"
        lines = [f"{i} = {ref_src}", f"{o} = st.counters[{i}]", f"{n} = {new}"]
        if low is not None:
            lines.append(f"if {n} < {names['low']}: {n} = {names['low']}")
        if high is not None:
            lines.append(f"if {n} > {names['high']}: {n} = {names['high']}")
        refuse = {}
        if low is None or high is None:  # a counter added to itself doubles each round: bounded as it is stored
            refuse = {fuse.fresh("_v"): refusal_of_large_number(node.pos, "the new value of the counter")}
            lines.append(bound_line(n, *refuse))
        events = self.events.counter_events(family.name) if getattr(self, "events", None) is not None else []
        react = {fuse.fresh("_v"): event for event in events}
        lines += apply.counter_lines(i, o, n, names["t"], names["rule"], stepped, tuple(react))
        namespace = {**ref_ns, **amount_ns, **apply.NAMESPACE, **react, names["t"]: triggers,
                     names["rule"]: self._rule(node), names["low"]: low, names["high"]: high, **refuse}
        return fuse.statement(lines, namespace, 2)

    def _reset(self, node: s.Reset, scope: Scope):
        family = self.layout.counter_families.get(node.name)
        if family is None:
            self.diag.error(node.pos, f"unknown counter {node.name!r}",
                            suggest(node.name, list(self.layout.counter_families)))
            return lambda st, env: None
        size = self.layout.family_size(family)
        start, value = family.base, family.initial

        if value.__class__ is int:  # a whole number (as always, unless a bound came from elsewhere)
            return fuse.statement(apply.reset_lines(start, size, value), {}, 0)

        def reset(st, env):
            apply.reset_counters(st, start, size, value)
        return reset

    def _endgame(self, node: s.EndGame, scope: Scope):
        position = node.pos
        reason = Termination.FINAL if self.final_section else Termination.DURING_PLAY
        def ended(value: Any) -> None:
            """The game ends here, with these winners (a player or a list of them)."""
            raise GameEnded(sorted(value) if isinstance(value, list) else [value], position, reason)
        name = fuse.fresh("_v")
        if node.winners is None:  # no winner: an empty list of them
            return fuse.statement([f"{name}([])"], {name: ended}, 0)
        fn, kind = self.x.compile(node.winners, scope)
        if kind not in (t.PLAYER, t.ANY) and not t.compatible(kind, t.list_of(t.PLAYER)):
            self.diag.error(node.winners.pos, f"the winners must be players, not {t.describe(kind)}")
        src, ns = fuse.expression(fn)
        return fuse.statement([f"{name}({src})"], {**ns, name: ended}, 1)

    def _announce(self, node: s.Announce, scope: Scope):
        texts = [fuse.expression(self._text(part, scope)) for part in node.parts]
        said, joined, rule = fuse.fresh("_v"), fuse.fresh("_v"), fuse.fresh("_v")
        namespace = {said: Said, joined: " ".join, rule: self._rule(node)}
        for _, ns in texts:
            namespace.update(ns)
        # an event line (apply.TELLING): a game nobody listens to does not even work out the text
        line = f"st.sink({said}({joined}([{', '.join(src for src, _ in texts)}]), {rule}))"
        return fuse.statement([apply.telling(Said, line)], namespace, 1)

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
            if isinstance(value, dict):  # a grid's cell reads "(1,0)", a spot as its option label
                cell = cell_of(value)
                if cell is not None and len(value) == 2:
                    return str(cell)
                if is_spot(value):
                    return spot_label(value, layout.component_names)
            return str(value)
        return fuse.fused("{v0}({p0}, {v1}, st)", [fn], [one, kind])
