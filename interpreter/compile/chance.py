"""Chance: dice, shuffles, random draws and random picks, as explicit chance decisions.

Every statement that draws at random is made of one or more *draws*; each draw is over outcomes
the state lists (the faces of a die, the cards left in a zone...), equally likely unless the rules
give weights (`weighted by`): then an outcome's probability is its weight over the total, and an
outcome of weight 0 is not an outcome at all (a chance node lists only what can happen). A program compiled
without explicit chance runs such a statement as a native one, every draw taken at once from the
state's generator. Compiled with explicit chance (how OpenSpiel sees a game) it is a step: in an
explicit state (`State.explicit`) each draw waits as a chance decision whose options are the
outcomes, each equally likely, and whoever drives the game answers with the outcome that
happened; in any other state the step draws from the generator, exactly as the native one.

A step keeps its progress (dice rolled so far, the shuffle's position...) in the pending `Decision`,
so a state waiting in the middle of a shuffle is still plain data.

A shuffle, a draw and a pick without weights are written in place as generated lines, both as a
native statement and as a step (`shuffle_statement`, `explicit_shuffle_lines`, ...), from the
generator's step (`rng.below_lines`), a shuffle's (`rng.shuffle_lines`, `rng.swap_line`) and a
draw's move (`apply.draw_lines`); so is a roll without weights as a native statement
(`roll_statement`). The rest (a roll as a step, with weights or with dice a scenario imposes, a
pick with weights) goes through the chance loop (`ChanceStep`).
"""
from __future__ import annotations

from typing import Any

from snowrules.compile import fuse
from snowrules.compile.apply import NAMESPACE, REFUSE, draw_lines, telling
from snowrules.compile.budget import charge, charge_lines, over_budget, too_many
from snowrules.compile.scope import Scope
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.language.limits import MAX_LIST
from snowrules.model import kinds as t
from snowrules.model.events import Rolled, Shuffled
from snowrules.model.rng import below, below_lines, shuffle_lines, swap_line
from snowrules.model.state import State
from snowrules.model.values import Decision


class ChanceStep:
    """The chance loop: draw after draw, sampled at once or waiting as chance decisions (a roll, a
    pick with weights); the other kinds keep here only what their lines are made of."""

    kind = "value"   # how the outcomes are told to players (see Game.label)

    def __init__(self, position: Position, what: str):
        self.rule = str(position)
        self.position = position
        self.what = what

    # Each kind of draw says how it starts, what its outcomes are, and what an outcome does.
    def begin(self, st: State, env: list) -> Any:
        """The progress before the first draw, or None when there is nothing to draw."""
        raise NotImplementedError

    def outcomes(self, st: State, env: list, progress: Any) -> list:
        raise NotImplementedError

    def apply(self, st: State, env: list, progress: Any, outcome: Any) -> Any:
        """Take one outcome; the progress for the next draw, or None when done."""
        raise NotImplementedError

    def weights(self, st: State, env: list, progress: Any) -> list[int] | None:
        """The outcomes' whole-number weights, in their order; None when all are equally likely."""
        return None

    def sample(self, st: State, outcomes: list, weights: list[int] | None = None) -> Any:
        if weights is None:
            st.rng, index = below(st.rng, len(outcomes))
            return outcomes[index]
        st.rng, lot = below(st.rng, sum(weights))
        for outcome, weight in zip(outcomes, weights):
            if lot < weight:
                return outcome
            lot -= weight
        raise AssertionError("a lot beyond the total weight")  # pragma: no cover

    def sampled(self, st: State, env: list) -> None:
        """The whole statement at once, every draw from the generator: how a program compiled
        without explicit chance runs it, as a native statement."""
        progress = self.begin(st, env)
        while progress is not None:
            outcomes = self.outcomes(st, env, progress)
            chosen = self.sample(st, outcomes, self.weights(st, env, progress))
            progress = self.apply(st, env, progress, chosen)

    def advance(self, st: State, env: list) -> bool:
        """Draw on (the outcome of a waiting draw, in st.answer, taken first) until the statement
        is done (False) or, in an explicit state, a draw waits as a chance decision in
        `st.pending` (True): the generated code's chance statement (compile/playthrough.py)
        goes on from here."""
        pending = st.pending
        if pending is not None:  # the outcome of a waiting draw is in st.answer
            outcome = st.answer
            st.answer = st.pending = None
            progress = self.apply(st, env, pending.progress, outcome)
        else:
            progress = self.begin(st, env)
        while progress is not None:
            outcomes = self.outcomes(st, env, progress)
            weights = self.weights(st, env, progress)
            if not st.explicit:
                progress = self.apply(st, env, progress, self.sample(st, outcomes, weights))
                continue
            st.pending = Decision([], [outcomes], False, self.rule, self.what, self.kind, True, None, False, False,
                                  progress, weights)
            return True
        return False


class RollStep(ChanceStep):
    """`roll N dice with S sides as name`: one draw per die; a scenario may impose the dice."""

    def __init__(self, count, sides, slot: int, position: Position, face_weights=None,
                 weights_position: Position | None = None):
        super().__init__(position, "die")
        self.count, self.sides, self.slot = count, sides, slot
        self.face_weights = face_weights  # a closure giving one weight per side, or None
        self.weights_position = weights_position or position

    def begin(self, st: State, env: list) -> dict | None:
        n, k = self.count(st, env), self.sides(st, env)
        self._bounded(st, n)
        if n <= 0:
            env[self.slot] = []
            return None
        progress = {"left": n, "sides": k, "dice": []}
        if self.face_weights is not None:
            weights = self.face_weights(st, env)
            if len(weights) != k:
                raise RuntimeRulesError.at(self.weights_position, f"{len(weights)} weights for dice "
                                           f"with {k} sides", "give one weight per side, in order from 1")
            check_weights(weights, self.weights_position)
            progress["weights"] = weights
        return progress

    def outcomes(self, st: State, env: list, progress: dict) -> list:
        weights = progress.get("weights")
        if weights is None:
            return list(range(1, progress["sides"] + 1))
        return [face for face, weight in enumerate(weights, 1) if weight > 0]

    def weights(self, st: State, env: list, progress: dict) -> list[int] | None:
        weights = progress.get("weights")
        return None if weights is None else [w for w in weights if w > 0]

    def sample(self, st: State, outcomes: Any, weights: list[int] | None = None) -> Any:
        if not st.forced:
            return super().sample(st, outcomes, weights)
        value = st.forced.pop(0)
        if not isinstance(value, int) or value not in outcomes:
            if weights is None:
                raise RuntimeRulesError.at(self.position, f"a forced die shows {value!r}, "
                                           f"but the dice have {len(outcomes)} sides")
            raise RuntimeRulesError.at(self.position, f"a forced die shows {value!r}, but these dice "
                                       f"show only {', '.join(map(str, outcomes))}")
        return value

    def apply(self, st: State, env: list, progress: dict, outcome: Any) -> dict | None:
        progress["dice"].append(outcome)
        progress["left"] -= 1
        if progress["left"] > 0:
            return progress
        env[self.slot] = progress["dice"]
        self._told(st, progress["dice"], progress["sides"])
        return None

    def _bounded(self, st: State, n: int) -> None:
        """Each die is a step of the budget; a roll of more than MAX_LIST dice is refused."""
        if n > MAX_LIST:
            too_many(self.position, n, "this roll")
        if n > 0:
            charge(st, n, self.position)

    def _told(self, st: State, dice: list[int], sides: int) -> None:
        if st.sink is not None:
            st.sink(Rolled(dice, sides, self.rule))

    def told(self, st: State, dice: list[int], sides: int) -> None:
        """The roll's event, when any die was rolled (the generated roll, `roll_statement`)."""
        if dice:
            self._told(st, dice, sides)


class ShuffleStep(ChanceStep):
    """`shuffle ZONE`, Fisher-Yates from the top down: each draw names the item that goes to the
    next position among those not yet placed. Its lines are written in place, both ways
    (`shuffle_statement`, and `explicit_shuffle_lines` where a place may wait as a chance node):
    this holds what they are made of."""

    kind = "component"

    def __init__(self, zone, layout, position: Position):
        super().__init__(position, "shuffle")
        self.zone, self.layout = zone, layout


class DrawStep(ChanceStep):
    """`move N at random from ZONE to ZONE`: N draws, each any item left in the source. Its lines
    are written in place, both ways (`draw_statement`, and `explicit_draw_lines` where a draw may
    wait as a chance node): this holds what they are made of."""

    kind = "component"

    def __init__(self, count, source, target, bottom: bool, layout, position: Position):
        super().__init__(position, "draw")
        self.count, self.source, self.target, self.bottom = count, source, target, bottom
        self.layout = layout


class PickStep(ChanceStep):
    """`choose name at random from LIST`: one draw among the list's elements. Without weights its
    lines are written in place, both ways (`pick_statement`, `explicit_pick_lines`); with weights
    it is the chance loop's (`begin` weighs each element)."""

    def __init__(self, source, slot: int, kind: str, name: str, position: Position, weight=None,
                 weight_position: Position | None = None):
        super().__init__(position, name)
        self.source, self.slot, self.kind = source, slot, kind
        self.weight = weight  # a closure giving the weight of the element in env[slot], or None
        self.weight_position = weight_position or position

    def begin(self, st: State, env: list) -> dict | None:
        items = list(self.source(st, env))
        if not items:
            env[self.slot] = None
            return None
        weights = []
        for item in items:
            env[self.slot] = item
            weights.append(self.weight(st, env))
        check_weights(weights, self.weight_position)
        return {"items": [i for i, w in zip(items, weights) if w > 0], "weights": [w for w in weights if w > 0]}

    def outcomes(self, st: State, env: list, progress: dict) -> list:
        return progress["items"]

    def weights(self, st: State, env: list, progress: dict) -> list[int] | None:
        return progress.get("weights")

    def apply(self, st: State, env: list, progress: dict, outcome: Any) -> dict | None:
        env[self.slot] = outcome
        return None


def roll_statement(step: RollStep):
    """`roll N dice with S sides` without weights as generated lines (fuse.py): each die drawn
    in place with `below`'s steps (model/rng.py), the generator state kept in a local for the
    roll, instead of the chance step's loop (`ChanceStep.sampled`: begin, then sample and apply
    die by die) and a call of `below` per die. The same draws, budget charge, bound and event as
    that loop, which still runs a roll whose dice a scenario imposes (`st.forced`), and a roll
    with weights."""
    count_src, count_ns = fuse.expression(step.count)
    sides_src, sides_ns = fuse.expression(step.sides)
    n, k, dice, state, drawn, z = (fuse.fresh(prefix) for prefix in ("_n", "_k", "_d", "_r", "_x", "_z"))
    names = {key: fuse.fresh("_v") for key in ("sampled", "too_many", "over", "where", "told")}
    lines = [f"if st.forced: {names['sampled']}(st, env)",
             "else:",
             f"    {n} = {count_src}",
             f"    {k} = {sides_src}",
             f"    if {n} > {int(MAX_LIST)}: {names['too_many']}({names['where']}, {n}, 'this roll')",
             f"    if {n} > 0:",
             *fuse.indent(fuse.indent(charge_lines(n, names["where"], names["over"]))),
             f"    {dice} = []",
             f"    {state} = st.rng",
             f"    for {fuse.fresh()} in range({n}):",
             *fuse.indent(fuse.indent(below_lines(state, k, drawn, z))),
             f"        {dice}.append({drawn} + 1)",
             f"    st.rng = {state}",
             f"    env[{int(step.slot)}] = {dice}",
             "    " + telling(Rolled, f"{names['told']}(st, {dice}, {k})")]
    namespace = {**count_ns, **sides_ns, names["sampled"]: step.sampled, names["too_many"]: too_many,
                 names["over"]: over_budget, names["where"]: step.position, names["told"]: step.told}
    return fuse.statement(lines, namespace, 3)


def shuffle_statement(step: ShuffleStep):
    """`shuffle ZONE` as generated lines: Fisher-Yates from the top as `shuffle_lines` gives it
    (model/rng.py: the one description of a shuffle), the generator state in a local for the
    shuffle, then the event. The same swaps and draws as the chance step's
    (`explicit_shuffle_lines`, one place at a time, in an explicit state)."""
    zone_src, namespace = fuse.expression(step.zone)
    z, items, rule = fuse.fresh("_a"), fuse.fresh("_i"), fuse.fresh("_v")
    namespace = {**namespace, rule: step.rule}
    lines = [f"{z} = {zone_src}", f"{items} = st.zones[{z}]",
             *_shuffled_lines(items, z, f"len({items}) - 1", rule, namespace)]
    return fuse.statement(lines, namespace, 2)


def _shuffled_lines(items: str, z: str, start: str, rule: str, namespace: dict) -> list[str]:
    """The places of zone `z` (its list `items`) from `start` down shuffled from the generator
    (`shuffle_lines`), the generator state in a local, then the shuffle's event."""
    state, place, j, scratch, shuffled = (fuse.fresh(p) for p in ("_q", "_x", "_j", "_z", "_v"))
    namespace[shuffled] = Shuffled
    return [f"{state} = st.rng",
            *shuffle_lines(state, items, place, j, scratch, start=start),
            f"st.rng = {state}",
            telling(Shuffled, f"st.sink({shuffled}({z}, {rule}))")]


def _picked_lines(items: str, slot: str) -> list[str]:
    """One of `items` (a local holding a list that is not empty) drawn from the generator
    (`below_lines`) into `slot`."""
    state, index, scratch = fuse.fresh("_q"), fuse.fresh("_x"), fuse.fresh("_z")
    return [f"{state} = st.rng",
            *below_lines(state, f"len({items})", index, scratch),
            f"st.rng = {state}",
            f"{slot} = {items}[{index}]"]


def _waiting_line(step: ChanceStep, outcomes: str, progress: str, rule: str, namespace: dict) -> str:
    """The line that makes a draw wait as a chance decision over `outcomes` (an expression of a
    list), equally likely, its `progress` kept in it: the decision ChanceStep.advance makes."""
    decision, what, kind = fuse.fresh("_v"), fuse.fresh("_v"), fuse.fresh("_v")
    namespace.update({decision: Decision, what: step.what, kind: step.kind})
    return (f"st.pending = {decision}([], [{outcomes}], False, {rule}, {what}, {kind}, True, None, False, False, "
            f"{progress})")


def _drawn_lines(step: DrawStep, a: str, b: str, pile: str, times: str, rule: str) -> list[str]:
    """`times` draws from zone `a` (its list `pile`) to `b`, from the generator: each one step of
    the generator (`below_lines`, model/rng.py) over the components left, then the move as
    `draw_lines` gives it (compile/apply.py: the one description of a draw's move), the
    generator state in a local for the loop."""
    state, index, scratch, c = (fuse.fresh(p) for p in ("_q", "_x", "_z", "_c"))
    return [f"{state} = st.rng",
            f"for {fuse.fresh()} in range({times}):",
            *fuse.indent(below_lines(state, f"len({pile})", index, scratch)),
            *fuse.indent(draw_lines(a, pile, index, b, c, step.bottom, rule)),
            f"st.rng = {state}"]


def _begun_lines(step: DrawStep, a: str, b: str, pile: str, n: str, rule: str) -> tuple[list[str], dict]:
    """The zones and the count worked out, in that order, `n` the draws to make (0: none, the
    zones the same); a grid zone refused before anything is drawn."""
    source_src, source_ns = fuse.expression(step.source)
    target_src, target_ns = fuse.expression(step.target)
    count_src, count_ns = fuse.expression(step.count)
    return ([f"{a} = {source_src}",
             f"{b} = {target_src}",
             f"{pile} = st.zones[{a}]",
             f"{n} = min({count_src}, len({pile}))",
             f"if {a} == {b}: {n} = 0",
             f"if {n} > 0 and st.grids: {REFUSE}(st, {a}, {b}, {rule})"],
            {**source_ns, **target_ns, **count_ns, **NAMESPACE, rule: step.rule})


def draw_statement(step: DrawStep):
    """`move N at random from A to B` as generated lines, every draw from the generator (a
    program without explicit chance)."""
    a, b, pile, n, rule = fuse.fresh("_a"), fuse.fresh("_b"), fuse.fresh("_s"), fuse.fresh("_n"), fuse.fresh("_v")
    begun, namespace = _begun_lines(step, a, b, pile, n, rule)
    lines = [*begun, f"if {n} > 0:", *fuse.indent(_drawn_lines(step, a, b, pile, n, rule))]
    return fuse.statement(lines, namespace, 3)


def explicit_draw_lines(step: DrawStep, stop: list[str]) -> tuple[list[str], dict]:
    """`move N at random from A to B` where a draw may wait (a program with explicit chance, in a
    stoppable build): in an explicit state each draw waits as a chance decision whose outcomes
    are the components left, its progress ({"from", "to", "left"}) kept in the decision, and
    `stop` (the lines that return the stop through the statement's frames) runs; come back to
    with the outcome in `st.answer`, the statement takes it (`draw_lines`) and goes on. In any
    other state the draws left are made from the generator, as `draw_statement` makes them."""
    a, b, pile, n, rule = fuse.fresh("_a"), fuse.fresh("_b"), fuse.fresh("_s"), fuse.fresh("_n"), fuse.fresh("_v")
    pending, outcome, progress, c = fuse.fresh("_p"), fuse.fresh("_o"), fuse.fresh("_g"), fuse.fresh("_c")
    begun, namespace = _begun_lines(step, a, b, pile, n, rule)
    lines = [f"{pending} = st.pending",
             f"if {pending} is not None:  # the outcome of this draw, which waited, is in st.answer",
             f"    {outcome} = st.answer",
             "    st.answer = st.pending = None",
             f"    {progress} = {pending}.progress",
             f"    {a} = {progress}['from']",
             f"    {b} = {progress}['to']",
             f"    {pile} = st.zones[{a}]",
             *fuse.indent(draw_lines(a, pile, f"{pile}.index({outcome})", b, c, step.bottom, rule)),
             f"    {progress}['left'] -= 1",
             f"    {n} = {progress}['left'] if {pile} else 0",
             "else:",
             *fuse.indent(begun),
             f"    {progress} = {{'from': {a}, 'to': {b}, 'left': {n}}}",
             f"if {n} > 0:",
             "    if st.explicit:",
             "        " + _waiting_line(step, f"{pile}[:]", progress, rule, namespace),
             *fuse.indent(fuse.indent(stop)),
             *fuse.indent(_drawn_lines(step, a, b, pile, n, rule))]
    return lines, namespace


def pick_statement(step: PickStep):
    """`choose name at random from LIST` without weights as generated lines: one step of the
    generator (`below_lines`) over the list's items, as `explicit_pick_lines` draws it in a state
    that is not explicit; with weights, the chance loop runs."""
    source_src, source_ns = fuse.expression(step.source)
    items, slot = fuse.fresh("_i"), f"env[{int(step.slot)}]"
    lines = [f"{items} = list({source_src})",
             f"if not {items}: {slot} = None",
             "else:",
             *fuse.indent(_picked_lines(items, slot))]
    return fuse.statement(lines, source_ns, 2)


def explicit_shuffle_lines(step: ShuffleStep, stop: list[str]) -> tuple[list[str], dict]:
    """`shuffle ZONE` where a place may wait (a program with explicit chance, in a stoppable
    build): in an explicit state each place from the top down waits as a chance decision whose
    outcomes are the items not yet placed, its progress ({"zone", "place"}) kept in the decision,
    and `stop` runs; come back to with the outcome in `st.answer`, the statement swaps it into its
    place (`swap_line`) and goes on. In any other state the places left are shuffled from the
    generator (`shuffle_lines` from that place down)."""
    zone_src, zone_ns = fuse.expression(step.zone)
    z, items, place, pending, outcome, progress, j = (fuse.fresh(p) for p in ("_a", "_i", "_k", "_p", "_o", "_g", "_j"))
    rule = fuse.fresh("_v")
    namespace = {**zone_ns, rule: step.rule}
    lines = [f"{pending} = st.pending",
             f"if {pending} is not None:  # the outcome of this place, which waited, is in st.answer",
             f"    {outcome} = st.answer",
             "    st.answer = st.pending = None",
             f"    {progress} = {pending}.progress",
             f"    {z} = {progress}['zone']",
             f"    {items} = st.zones[{z}]",
             f"    {place} = {progress}['place']",
             f"    {j} = {items}.index({outcome}, 0, {place} + 1)",
             "    " + swap_line(items, place, j),
             f"    {place} -= 1",
             "else:",
             f"    {z} = {zone_src}",
             f"    {items} = st.zones[{z}]",
             f"    {place} = len({items}) - 1",
             f"    {progress} = None",
             f"if {place} >= 1 and st.explicit:",
             f"    if {progress} is None: {progress} = {{'zone': {z}, 'place': {place}}}",
             f"    else: {progress}['place'] = {place}",
             "    " + _waiting_line(step, f"{items}[:{place} + 1]", progress, rule, namespace),
             *fuse.indent(stop),
             *_shuffled_lines(items, z, place, rule, namespace)]
    return lines, namespace


def explicit_pick_lines(step: PickStep, stop: list[str]) -> tuple[list[str], dict]:
    """`choose name at random from LIST` without weights where the draw may wait (a program with
    explicit chance, in a stoppable build): in an explicit state it waits as a chance decision
    whose outcomes are the list's items (its progress {"items"}), and `stop` runs; come back to
    with the outcome in `st.answer`, the name takes it. In any other state the item is drawn from
    the generator, as `pick_statement` draws it."""
    source_src, source_ns = fuse.expression(step.source)
    items, pending, rule = fuse.fresh("_i"), fuse.fresh("_p"), fuse.fresh("_v")
    slot = f"env[{int(step.slot)}]"
    namespace = {**source_ns, rule: step.rule}
    lines = [f"{pending} = st.pending",
             f"if {pending} is not None:  # the outcome of this draw, which waited, is in st.answer",
             f"    {slot} = st.answer",
             "    st.answer = st.pending = None",
             "else:",
             f"    {items} = list({source_src})",
             f"    if not {items}: {slot} = None",
             "    elif st.explicit:",
             "        " + _waiting_line(step, items, f"{{'items': {items}}}", rule, namespace),
             *fuse.indent(fuse.indent(stop)),
             "    else:",
             *fuse.indent(fuse.indent(_picked_lines(items, slot)))]
    return lines, namespace


CHANCE = (s.Roll, s.Shuffle, s.MoveRandom, s.RandomPick)


def check_weights(weights: list, position: Position) -> None:
    """Weights are whole numbers, none below 0, and not all 0 (something must happen)."""
    for weight in weights:
        if weight.__class__ is not int or weight < 0:
            raise RuntimeRulesError.at(position, f"a weight must be a whole number, 0 or more, not {weight!r}")
    if not any(weights):
        raise RuntimeRulesError.at(position, "every weight is 0: nothing can be drawn")


def outcome_kind(kind: t.Kind) -> str:
    """How an outcome of this kind is told to players (see Game.label)."""
    return kind.option_label


class ChanceStatements:
    """The `_roll`, `_shuffle`, `_moverandom` and `_randompick` methods of StatementCompiler: as
    native statements (a program without explicit chance) they draw at once; as steps
    (`chance_step`) they wait as chance decisions in an explicit state."""

    def _roll(self, node: s.Roll, scope: Scope):
        step = self.chance_step(node, scope)
        if isinstance(step, RollStep) and step.face_weights is None:
            return roll_statement(step)
        return step.sampled

    def _shuffle(self, node: s.Shuffle, scope: Scope):
        return shuffle_statement(self.chance_step(node, scope))

    def _moverandom(self, node: s.MoveRandom, scope: Scope):
        return draw_statement(self.chance_step(node, scope))

    def _randompick(self, node: s.RandomPick, scope: Scope):
        step = self.chance_step(node, scope)
        return step.sampled if step.weight is not None else pick_statement(step)

    def chance_step(self, node: s.Node, scope: Scope) -> ChanceStep:
        if isinstance(node, s.Roll):
            count = self.x.expect(node.count, scope, t.INT, "the number of dice")
            sides = self.x.expect(node.sides, scope, t.INT, "the number of sides")
            weights = None
            if node.weights is not None:
                weights = self.x.expect(node.weights, scope, t.list_of(t.INT), "a die's weights")
                if isinstance(node.weights, s.ListExpr) and isinstance(node.sides, s.Literal) \
                        and len(node.weights.items) != node.sides.value:
                    self.diag.error(node.weights.pos, f"{len(node.weights.items)} weights for dice with "
                                    f"{node.sides.value} sides", "give one weight per side, in order from 1")
            return RollStep(count, sides, scope.define(node.name, t.list_of(t.INT)), node.pos, weights,
                            node.weights.pos if node.weights is not None else None)
        if isinstance(node, s.Shuffle):
            return ShuffleStep(self.x.zone(node.zone, scope, "the zone to shuffle"), self.layout, node.pos)
        if isinstance(node, s.MoveRandom):
            count = self.x.expect(node.count, scope, t.INT, "the number of items to draw")
            source = self.x.zone(node.source, scope, "the zone to draw from")
            target = self.x.zone(node.target, scope, "the destination")
            return DrawStep(count, source, target, node.bottom, self.layout, node.pos)
        source, kind = self.x.sequence(node.source, scope, "the list to pick from")
        element = t.element(kind)
        slot = scope.define(node.name, element)
        weight = None
        if node.weights is not None:
            weight = self.x.expect(node.weights, scope, t.INT, "a weight")
        return PickStep(source, slot, outcome_kind(element), node.name, node.pos, weight,
                        node.weights.pos if node.weights is not None else None)
