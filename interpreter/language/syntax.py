"""The syntax tree of the rules language: small frozen dataclasses that keep their position.

The parser builds these; the checker reads them; the compiler turns them into closures. Nothing
here runs a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from snowrules.language.diagnostics import Position


@dataclass(frozen=True)
class Node:
    pos: Position = field(compare=False, repr=False)


def walk(node: Node):
    """The node and every node inside it (fields, tuples of nodes, `if` branches)."""
    yield node
    for value in vars(node).values():
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, Node):
                yield from walk(item)
            elif isinstance(item, tuple):
                stack.extend(reversed(item))


def handlers(owner: type, prefix: str = "_") -> dict[type, object]:
    """A dispatch table for a compiler class: each node class that has a method named
    `prefix + its lower-case name` on `owner`. Built once per class, so a node with no handler is
    found by a dictionary miss (reported by the caller), not by a failing attribute lookup."""
    table = {}
    for cls in _node_classes(Node):
        method = getattr(owner, prefix + cls.__name__.lower(), None)
        if method is not None:
            table[cls] = method
    return table


def _node_classes(base: type) -> list[type]:
    found = []
    for sub in base.__subclasses__():
        found.append(sub)
        found.extend(_node_classes(sub))
    return found


# ---- expressions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Literal(Node):
    value: object


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attribute(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class RecordField(Node):
    """`NAME: VALUE` inside a record literal; its position is the name's, for errors about it."""

    name: str
    value: Node


@dataclass(frozen=True)
class RecordExpr(Node):
    """`{x: 1, y: 2}`: a record (a plain dict of plain values, so a state holding it stays JSON)."""

    fields: tuple[RecordField, ...]


@dataclass(frozen=True)
class Filter(Node):
    """`[each VAR in SOURCE where COND]`"""

    var: str
    source: Node
    cond: Node


@dataclass(frozen=True)
class Map(Node):
    """`[EXPR for each VAR in SOURCE where COND]` (the `where` part is optional)."""

    expr: Node
    var: str
    source: Node
    cond: Node | None


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "neg" or "not"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * / % and or == != < <= > >= in notin
    left: Node
    right: Node


@dataclass(frozen=True)
class Range(Node):
    start: Node
    end: Node
    descending: bool


@dataclass(frozen=True)
class Ternary(Node):
    cond: Node
    then: Node
    otherwise: Node


@dataclass(frozen=True)
class LetIn(Node):
    """`let name = value` in a define's body, and what follows it (`body`, which may read `name`):
    a define's lines before its result, each naming a value once."""

    name: str
    value: Node
    body: Node


# ---- statements --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Block(Node):
    statements: tuple[Node, ...]


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Assign(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Move(Node):
    """`move WHAT to TARGET`, `move all from SOURCE to TARGET`, `move N from SOURCE to TARGET`."""

    mode: str  # "items", "all" or "top"
    what: Node | None
    source: Node | None
    target: Node
    bottom: bool


@dataclass(frozen=True)
class MovePlaced(Node):
    """`move WHAT to ZONE at SPOT`: a component put on a grid zone at a spot."""

    what: Node
    target: Node
    spot: Node


@dataclass(frozen=True)
class TurnPiece(Node):
    """`turn NAME by DEGREES`: a component on a grid zone turned clockwise where it lies."""

    what: Node
    degrees: Node


@dataclass(frozen=True)
class Add(Node):
    amount: Node
    target: Node
    negate: bool = False


@dataclass(frozen=True)
class SetCounter(Node):
    target: Node
    value: Node


@dataclass(frozen=True)
class Reset(Node):
    name: str


@dataclass(frozen=True)
class CallStatement(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class EndGame(Node):
    winners: Node | None


@dataclass(frozen=True)
class Roll(Node):
    """`roll N dice with S sides [weighted by LIST] as NAME`: LIST gives each side's weight."""

    count: Node
    sides: Node
    name: str
    weights: Node | None = None


@dataclass(frozen=True)
class Shuffle(Node):
    zone: Node


@dataclass(frozen=True)
class MoveRandom(Node):
    """`move N at random from ZONE to ZONE`: N draws, each one of the source's items, equally likely."""
    count: Node
    source: Node
    target: Node
    bottom: bool = False


@dataclass(frozen=True)
class RandomPick(Node):
    """`choose NAME at random from LIST [weighted by EXPR]`: EXPR is each element's weight,
    with NAME bound to the element."""
    name: str
    source: Node
    weights: Node | None = None


@dataclass(frozen=True)
class Announce(Node):
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class Resolve(Node):
    card: Node
    player: Node


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class If(Node):
    branches: tuple[tuple[Node, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True)
class ForEach(Node):
    var: str
    source: Node
    body: Block


@dataclass(frozen=True)
class While(Node):
    cond: Node
    body: Block


@dataclass(frozen=True)
class Repeat(Node):
    count: Node
    body: Block


@dataclass(frozen=True)
class Phase(Node):
    name: str
    body: Block


@dataclass(frozen=True)
class Together(Node):
    """Changes that count as simultaneous: the triggers they set off run after the block."""

    body: Block


@dataclass(frozen=True)
class Choose(Node):
    """A decision. `simultaneous` asks every player of `who` at once (`chooser_var` names each);
    otherwise `who` is one player. `count_mode` is None (one item), "up_to" or "exactly"."""

    simultaneous: bool
    chooser_var: str | None
    who: Node
    optional: bool
    count_mode: str | None
    count: Node | None
    var: str
    source: Node
    body: Block | None
    otherwise: Block | None = None  # `else:` of an `optionally` decision, run on a decline
    prompt: str | None = None  # `as "TEXT"`: what the decision is, in the rulebook's words, as written
    template: PromptText | None = None  # the prompt with the values it shows (None: it shows none)
    # `remembered as EXPR`: what the chooser remembers of the answer (read by an adapter's
    # information state instead of the answer itself)
    remembered: Node | None = None
    # `each as "TEXT"`: how each option reads to a person, with values that may name the option
    # by the answer's name (compile/option_texts.py); None: by its label
    option_text: PromptText | None = None


@dataclass(frozen=True)
class PromptText(Node):
    """A prompt's text (language/prompt_text.py): `text` as written between the quotes, `parts`
    its literal pieces each followed by the expression whose value is shown there (None after
    the last piece)."""

    text: str
    parts: tuple[tuple[str, Node | None], ...]

    @property
    def values(self) -> tuple[Node, ...]:
        return tuple(e for _, e in self.parts if e is not None)


# ---- costs: `pay` ------------------------------------------------------------------------------
@dataclass(frozen=True)
class PaySource(Node):
    """One counter a payment may take units from, and what a unit is worth (None: 1)."""

    counter: Node
    rate: Node | None


@dataclass(frozen=True)
class Shortfall(Node):
    """`else subtract PENALTY per missing from COUNTER`: what each unit not paid costs instead."""

    penalty: Node
    counter: Node


@dataclass(frozen=True)
class Pay(Node):
    """`pay AMOUNT from C`, `pay [at least | up to] AMOUNT using C1 at R1, ...`, optionally with a
    shortfall and `as NAME` (the worth paid). `mode` is "exact", "at least" or "up to"; `single`
    says the amount was written with `from` (one counter at rate 1)."""

    mode: str
    amount: Node
    sources: tuple[PaySource, ...]
    single: bool
    shortfall: Shortfall | None
    var: str | None
    # `as "TEXT"`: what is paid for, shown when the payer is asked (compile/payment_prompts.py)
    text: PromptText | None = None


# ---- declarations ------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameDecl(Node):
    title: str


@dataclass(frozen=True)
class ZoneDecl(Node):
    name: str
    index: Node | None  # a range such as `1..7`
    per_player: bool
    visibility: str  # public, hidden, secret
    grid: bool
    unordered: bool = False  # `unordered`: the order its components arrived in is never shown
    text: PromptText | None = None  # `as "TEXT"`: how a zone reads to a person (compile/prompt_values.py)
    board: BoardShape | None = None  # `grid W by H`, `grid of NAME`: a bounded board


@dataclass(frozen=True)
class BoardShape(Node):
    """A bounded grid zone's board as written: `grid W by H` (each side a number, or a Name of a
    constant or option, read while compiling), or `grid of NAME` (the cells of the component
    NAME's squares); `hex` after either makes its cells hexes (model/grid_board.py)."""

    width: Literal | Name | None = None
    height: Literal | Name | None = None
    of: Name | None = None
    hexagonal: bool = False


@dataclass(frozen=True)
class PerComponent(Node):
    """`per component` (no kinds: every component) or `per component of kind K1, K2`."""

    kinds: tuple[str, ...]


@dataclass(frozen=True)
class CounterDecl(Node):
    name: str
    keys: tuple[str, ...]
    per_player: bool
    lower: Node | None
    upper: Node | None
    start: Node | None = None  # `initially N`; without it, the lower bound (or 0)
    per_component: PerComponent | None = None  # a counter on components (then not per player)
    text: PromptText | None = None  # `as "TEXT"`: how a counter reads to a person (compile/counter_texts.py)


@dataclass(frozen=True)
class VariableDecl(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class ConstantDecl(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class ProcedureDecl(Node):
    name: str
    params: tuple[str, ...]
    body: Block


@dataclass(frozen=True)
class FunctionDecl(Node):
    name: str
    params: tuple[str, ...]
    expr: Node


@dataclass(frozen=True)
class SetupDecl(Node):
    body: Block


@dataclass(frozen=True)
class TurnDecl(Node):
    """`each turn:` (repeat until the game ends) or `rounds N:` (N rounds, then game end)."""

    rounds: Node | None
    body: Block


@dataclass(frozen=True)
class FinalDecl(Node):
    body: Block


@dataclass(frozen=True)
class TriggerDecl(Node):
    cond: Node
    body: Block


@dataclass(frozen=True)
class FreeActionDecl(Node):
    """`free action "NAME" for p[, item in ITEMS] [during PHASE, ...] [when COND]:` BODY - an
    action a player may take besides the normal options of their decisions (see
    compile/free_actions.py). No `during`: allowed in every phase. `phase_positions` keep where
    each phase name is written, for a misspelt one."""

    name: str
    player_var: str
    item_var: str | None
    items: Node | None
    phases: tuple[str, ...] | None
    phase_positions: tuple[Position, ...]
    cond: Node | None
    body: Block
    var_positions: tuple[Position, ...] = ()  # where the player's (and the item's) name is written
    text: PromptText | None = None  # `as "TEXT"`: how its option reads, with values (compile/prompt_values.py)


@dataclass(frozen=True)
class OfferFreeActions(Node):
    """`offer free actions to p`: a decision of the free actions allowed here, and "done"."""

    player: Node
    text: PromptText | None = None  # `as "TEXT"`: what the offer is, as a player reads it


@dataclass(frozen=True)
class RulesFile(Node):
    declarations: tuple[Node, ...]


# ---- events and reactions (docs/language.md "Events and reactions") ---------------------------
@dataclass(frozen=True)
class EventDecl(Node):
    """`event NAME(a, b, c)`; `source` says who raises it besides `raise`: None (only `raise`),
    ("counter", FAMILY) for every change of a counter, ("moves", None) for every move."""

    name: str
    params: tuple[str, ...]
    source: tuple[str, str | None] | None = None


@dataclass(frozen=True)
class ReactionDecl(Node):
    """`on EVENT(a, b) [where COND]:` BLOCK - runs each time EVENT is raised."""

    event: str
    params: tuple[str, ...]
    where: Node | None
    body: Block


@dataclass(frozen=True)
class ReactionZonesDecl(Node):
    """`reactions from Z1, Z2`: the zones whose components' `reacts:` entries are active."""

    zones: tuple[str, ...]
    positions: tuple[Position, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Raise(Node):
    """`raise EVENT(x, y)`: the event's reactions run once this statement is done."""

    event: str
    args: tuple[Node, ...]
