"""Lowering: the checked syntax of the rules to the intermediate form (ir/nodes.py).

Each statement form is lowered in one place, `_LOWERINGS` below: a new statement form that moves
components, raises, changes a counter or asks becomes that node here, and every fact derived from
the nodes (effects.py) follows. A statement form with no entry lowers to `Act` (it neither asks,
draws, raises, changes a counter nor moves).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from snowrules.compile.costs import counters_of, may_ask
from snowrules.compile.ir import nodes as ir
from snowrules.compile.scope import family_name
from snowrules.language import syntax as s


class Lowering:
    """Lowers statements and blocks once each: the compiler, which still walks the syntax, asks
    for the lowered form of the statement it compiles (`statement`), and gets the same node every
    time."""

    def __init__(self) -> None:
        # by the syntax node's id; the node is kept beside its lowered form, so its id stays its own
        self._statements: dict[int, tuple[s.Node, ir.Statement]] = {}
        self._blocks: dict[int, tuple[s.Block, ir.Block]] = {}

    def statement(self, node: s.Node) -> ir.Statement:
        found = self._statements.get(id(node))
        if found is None:
            found = self._statements[id(node)] = (node, _lower(self, node))
        return found[1]

    def block(self, node: s.Block) -> ir.Block:
        found = self._blocks.get(id(node))
        if found is None:
            lowered = ir.Block(node.pos, tuple(self.statement(x) for x in node.statements))
            found = self._blocks[id(node)] = (node, lowered)
        return found[1]

    def optional_block(self, node: s.Block | None) -> ir.Block | None:
        return None if node is None else self.block(node)


def _lower(lowering: Lowering, node: s.Node) -> ir.Statement:
    if isinstance(node, s.Block):  # a block standing as a statement: an `if true:` of one branch
        body = lowering.block(node)
        return ir.Branch(node.pos, node, (body,), None)
    make = _LOWERINGS.get(type(node))
    if make is not None:
        return make(lowering, node)
    return ir.Act(node.pos, node, _ACTS.get(type(node), type(node).__name__.lower()))


def _choose(lowering: Lowering, node: s.Choose) -> ir.Statement:
    return ir.Ask(node.pos, node, ir.Decision.CHOICE, lowering.optional_block(node.body),
                  lowering.optional_block(node.otherwise), node.prompt, _remembered(node))


def _remembered(node: s.Choose) -> ir.Remembered | None:
    """`remembered as EXPR`, with the names EXPR may give the answer and the chooser."""
    if node.remembered is None:
        return None
    chooser = node.chooser_var if node.simultaneous else (node.who.name if isinstance(node.who, s.Name) else None)
    return ir.Remembered(node.remembered.pos, node.remembered, node.var, chooser)


def _pay(lowering: Lowering, node: s.Pay) -> ir.Statement:
    families = tuple(f for f in counters_of(node) if f is not None)
    return ir.Pay(node.pos, node, families, may_ask(node))


def _if(lowering: Lowering, node: s.If) -> ir.Statement:
    return ir.Branch(node.pos, node, tuple(lowering.block(body) for _, body in node.branches),
                     lowering.optional_block(node.otherwise))


def _loop(repetition: ir.Repetition) -> Callable[[Lowering, s.Node], ir.Statement]:
    def lower(lowering: Lowering, node) -> ir.Statement:
        return ir.Loop(node.pos, node, repetition, lowering.block(node.body))
    return lower


def _draw(draw: ir.Draw) -> Callable[[Lowering, s.Node], ir.Statement]:
    def lower(lowering: Lowering, node) -> ir.Statement:
        return ir.Chance(node.pos, node, draw)
    return lower


_LOWERINGS: dict[type, Callable[[Lowering, s.Node], ir.Statement]] = {
    s.Choose: _choose,
    s.Resolve: lambda lowering, node: ir.Ask(node.pos, node, ir.Decision.RESOLUTION),
    s.OfferFreeActions: lambda lowering, node: ir.Ask(node.pos, node, ir.Decision.FREE_ACTIONS, prompt=(
        node.text.text if node.text is not None else None)),
    s.Roll: _draw(ir.Draw.ROLL),
    s.Shuffle: _draw(ir.Draw.SHUFFLE),
    s.MoveRandom: _draw(ir.Draw.RANDOM_MOVE),
    s.RandomPick: _draw(ir.Draw.RANDOM_PICK),
    s.Move: lambda lowering, node: ir.Move(node.pos, node),
    s.MovePlaced: lambda lowering, node: ir.Move(node.pos, node),
    s.Raise: lambda lowering, node: ir.Raise(node.pos, node, node.event),
    s.Add: lambda lowering, node: ir.Change(node.pos, node, family_name(node.target)),
    s.SetCounter: lambda lowering, node: ir.Change(node.pos, node, family_name(node.target)),
    s.Pay: _pay,
    s.CallStatement: lambda lowering, node: ir.Call(node.pos, node, node.name),
    s.If: _if,
    s.ForEach: _loop(ir.Repetition.FOR_EACH),
    s.While: _loop(ir.Repetition.WHILE),
    s.Repeat: _loop(ir.Repetition.REPEAT),
    s.Phase: lambda lowering, node: ir.Phase(node.pos, node, node.name, lowering.block(node.body)),
    s.Together: lambda lowering, node: ir.Together(node.pos, node, lowering.block(node.body)),
}

_ACTS = {  # how the listing names the other statements
    s.Let: "let", s.Assign: "set a variable", s.TurnPiece: "turn a piece", s.Reset: "reset",
    s.EndGame: "end game", s.Announce: "announce", s.Pass: "pass",
}


def outline(lowering: Lowering, declarations: Iterable[s.Node], procedures: Mapping[str, s.ProcedureDecl],
            watched: Callable[[s.TriggerDecl], Iterable[str]], components: Iterable) -> ir.Outline:
    """Every routine of the rules, lowered: the sections, the procedures in force (a variant's
    replace the base's), triggers with the counters they watch, reactions, free actions and the
    components' effects and reactions."""
    routines: list[ir.Routine] = []
    kind = ir.RoutineKind
    sections = {s.SetupDecl: kind.SETUP, s.TurnDecl: kind.TURN, s.FinalDecl: kind.FINAL}
    for decl in declarations:
        if type(decl) in sections:
            section = sections[type(decl)]
            routines.append(ir.Routine(section, section.value, decl.pos, lowering.block(decl.body)))
        elif isinstance(decl, s.TriggerDecl):
            routines.append(ir.Routine(kind.TRIGGER, "when", decl.pos, lowering.block(decl.body),
                                       frozenset(watched(decl))))
        elif isinstance(decl, s.ReactionDecl):
            routines.append(ir.Routine(kind.REACTION, decl.event, decl.pos, lowering.block(decl.body)))
        elif isinstance(decl, s.FreeActionDecl):
            routines.append(ir.Routine(kind.FREE_ACTION, decl.name, decl.pos, lowering.block(decl.body)))
    for name, decl in procedures.items():
        routines.append(ir.Routine(kind.PROCEDURE, name, decl.pos, lowering.block(decl.body)))
    for definition in components:
        for field, body in definition.effects.items():
            routines.append(ir.Routine(kind.EFFECT, f"{definition.name}.{field}", body.pos, lowering.block(body)))
        for entry in definition.reactions:
            routines.append(ir.Routine(kind.REACTION, f"{definition.name} on {entry.event}", entry.position,
                                       lowering.block(entry.effect)))
    return ir.Outline(tuple(routines))
