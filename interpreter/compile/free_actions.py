"""Free actions: actions a player may take besides the normal options of their decisions.

A ruleset declares each one once (`free action "NAME" for p[, item in ITEMS] [during PHASE, ...]
[when COND]:` BODY). While it is allowed (inside one of its phases, or anywhere without
`during`), every decision of one player offers it as extra options, after the normal ones: one
option when it has no items, else one per item whose condition holds, so that an option list
grows with the items, never with their combinations. Taking one runs its body as a routine of
its own (it may ask, pay, change what the decision offers), then the same decision is asked
again with options worked out afresh. `offer free actions to p` is a decision of only the free
actions allowed there and "done", for a point of the rules with no other decision.

An option is plain data, `{"free action": k, "item": x}` (k the free action's number; "done" is
k = -1), so a state at a re-asked decision clones and writes to JSON as any other. The key has a
space, which no record of the rules can have, so no normal option is ever taken for one.

What is not offered, and why: secret decisions of several players (each chooses without seeing
the others: a free action would run in the middle of a choice that is not revealed yet); the
decisions inside a free action's own body (a free action does not interrupt another); a
decision with no normal option (it is skipped as before). A one-option decision is asked
whenever a free action is offered beside it. Bounded: one decision may be answered with free
actions at most MAX_FREE_ACTIONS times; past it the game stops with a rules error at the free
action (its condition must turn false as it is taken: it should consume something).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from snowrules.compile.budget import charge
from snowrules.compile.chance import outcome_kind
from snowrules.compile.fuse import PYTHON_ERRORS, rules_error
from snowrules.compile.scope import RoutineSlots, Scope, suggest
from snowrules.compile.steps import ChooseStep
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position, RuntimeRulesError
from snowrules.language.limits import MAX_FREE_ACTIONS, MAX_FREE_OPTIONS
from snowrules.model import kinds as t
from snowrules.model.program import ROUTINE, Routine

FREE_KEY = "free action"   # an option that is a free action: {FREE_KEY: k} or {FREE_KEY: k, "item": x}
ITEM_KEY = "item"
DONE_INDEX = -1
DONE = {FREE_KEY: DONE_INDEX}  # the "done" option of `offer free actions to p`


def is_free(option: Any) -> bool:
    """Whether an option (or an answer) is a free action or the "done" of an offer."""
    return option.__class__ is dict and FREE_KEY in option


@dataclass(frozen=True)
class FreeAction:
    """One compiled free action: its body is a routine with the player (and the item) bound."""

    index: int
    name: str
    phases: frozenset[str] | None      # None: allowed in every phase
    routine: Routine
    player_slot: int
    item_slot: int | None
    items: Callable | None             # fn(st, env) -> the items, one option each
    cond: Callable | None              # fn(st, env) -> whether it may be taken
    item_kind: str | None              # how an item is told ("component", "player", "value")
    position: Position

    def allowed_in(self, phases: tuple[str, ...]) -> bool:
        return self.phases is None or any(name in self.phases for name in phases)


@dataclass
class FreeActionTable:
    """Every free action of a program, shared by the decisions that offer them."""

    actions: list[FreeAction] = field(default_factory=list)
    blocks: frozenset[int] = frozenset()   # the free actions' bodies

    def allowed(self, st, player: int) -> list[dict]:
        """The free-action options of `player` at a decision reached now, in declaration order
        and, within one, in the order of its items, for a caller that knows it is not inside a
        free action's body (the generated code counts those: compile/playthrough.py)."""
        phases = st.phase
        found: list[dict] = []
        for action in self.actions:
            if not action.allowed_in(phases):
                continue
            env = [None] * action.routine.env_size
            env[action.player_slot] = player
            try:
                if action.items is None:
                    if action.cond is None or action.cond(st, env):
                        found.append({FREE_KEY: action.index})
                    continue
                items = list(action.items(st, env))
                for item in items:
                    env[action.item_slot] = item
                    if action.cond is None or action.cond(st, env):
                        found.append({FREE_KEY: action.index, ITEM_KEY: item})
                        if len(found) > MAX_FREE_OPTIONS:  # an option is a dict and a label: refused first
                            _too_many_options(action, len(items))
            except PYTHON_ERRORS as error:
                raise rules_error(error, action.position, "while the free action's options were worked out") \
                    from None
        return found

    def started(self, st, option: dict, taken_before: int, player: int, rule: str) -> tuple[FreeAction, list]:
        """The chosen free action and the environment its body starts with, once checked that
        this decision has not taken too many (and counted against the game's step budget)."""
        action = self.actions[option[FREE_KEY]]
        if taken_before + 1 > MAX_FREE_ACTIONS:
            raise RuntimeRulesError.at(
                action.position, f"the free action {action.name!r} was taken more than {MAX_FREE_ACTIONS} "
                f"times at one decision ({rule})",
                "its condition must turn false as it is taken: let it consume something", code="SR706")
        charge(st, 1, action.position)
        local = [None] * action.routine.env_size
        local[action.player_slot] = player
        if action.item_slot is not None:
            local[action.item_slot] = option.get(ITEM_KEY)
        return action, local



def free_actions_running(frames: list, blocks: frozenset[int]) -> int:
    """How many free actions' bodies a state's frames are running (the generated code of a game
    resumed from frames starts its count here, compile/playthrough.py)."""
    return sum(1 for frame in frames if frame.block in blocks)


def _too_many_options(action: FreeAction, items: int) -> None:
    raise RuntimeRulesError.at(action.position, f"the free action {action.name!r} offers more than "
                               f"{MAX_FREE_OPTIONS} options at one decision (its items: {items})",
                               "a `when` that keeps only the items a player can use, or items from a zone",
                               code="SR704")


def free_label(actions: list[FreeAction], option: dict, label_item: Callable[[Any, str], str]) -> str:
    """An option as a player reads it: "free: NAME", with its item "free: NAME (ITEM)" (the
    item told by `label_item(item, kind)`); the offer's "done"."""
    index = option[FREE_KEY]
    if index == DONE_INDEX:
        return "done"
    action = actions[index]
    if ITEM_KEY not in option:
        return f"free: {action.name}"
    return f"free: {action.name} ({label_item(option[ITEM_KEY], action.item_kind or 'value')})"


# ---- the decisions -----------------------------------------------------------------------------
class FreeChooseStep(ChooseStep):
    """A decision of one player that offers the free actions allowed where it is reached."""

    free: FreeActionTable
    count_slot: int

    @classmethod
    def around(cls, step: ChooseStep, table: FreeActionTable, count_slot: int) -> FreeChooseStep:
        made = cls.__new__(cls)
        made.__dict__.update(step.__dict__)
        made.free, made.count_slot = table, count_slot
        return made

class OfferStep:
    """`offer free actions to p`: "done" and the free actions allowed here; skipped when none is."""

    def __init__(self, who, table: FreeActionTable, count_slot: int, position: Position,
                 automa: int | None = None):
        self.who, self.free, self.count_slot = who, table, count_slot
        self.rule = str(position)
        self.automa = automa  # its seat: never offered anything (no agent plays it)

# ---- compiling the declarations ----------------------------------------------------------------
def phase_names(nodes: list[s.Node]) -> dict[str, Position]:
    """Every `phase NAME:` of the rules and the cards' effects, with where it is first written."""
    found: dict[str, Position] = {}
    for node in nodes:
        if isinstance(node, s.Phase):
            found.setdefault(node.name, node.pos)
    return found


class FreeActionCompiler:
    """Checks and compiles the `free action` declarations into a program's FreeActionTable."""

    def __init__(self, statements, diag: Diagnostics, taken: Mapping[str, Position] | None = None):
        self.statements = statements
        self.x = statements.x
        self.sym = statements.sym
        self.diag = diag
        self.taken = taken or {}  # the rules' top-level names and the built-in ones

    def _hides_nothing(self, decl: s.FreeActionDecl) -> None:
        """The player's and the item's names may not hide a name of the rules: `for p, hand in
        p.hand` would make `hand` the item inside the block, so that `move c to hand` moves to
        the item (or is refused as not a zone) instead of to the zone the reader sees."""
        names = [decl.player_var] + ([decl.item_var] if decl.item_var is not None else [])
        for name, position in zip(names, decl.var_positions or [decl.pos] * len(names)):
            first = self.taken.get(name)
            if first is None:
                continue
            where = "a built-in name" if first.path == "<built-in>" else f"declared at {first}"
            what = "player's name" if name == decl.player_var else "item's name"
            self.diag.error(position, f"the free action's {what} {name!r} would hide the name {name!r} ({where})",
                            "choose another name for it", code="SR405")

    def compile(self, decls: list[s.FreeActionDecl], table: FreeActionTable, phases: dict[str, Position]) -> None:
        seen: dict[str, Position] = {}
        for decl in decls:
            if not decl.name.strip():  # its label, `free: NAME`, is how a person and a scenario choose it
                self.diag.error(decl.pos, "a free action needs a name", 'write `free action "NAME" for p ...:`')
            if decl.name in seen:
                self.diag.error(decl.pos, f"the free action {decl.name!r} is declared twice",
                                f"the first is at {seen[decl.name]}")
                continue
            seen[decl.name] = decl.pos
            self._hides_nothing(decl)
            table.actions.append(self._one(decl, len(table.actions), phases))
        table.blocks = frozenset(action.routine.block for action in table.actions)

    def _one(self, decl: s.FreeActionDecl, index: int, phases: dict[str, Position]) -> FreeAction:
        for name, position in zip(decl.phases or (), decl.phase_positions):
            if name not in phases:
                known = ", ".join(sorted(phases)) or "none"
                self.diag.error(position, f"no phase is named {name!r}",
                                suggest(name, list(phases)) or f"the rules' phases: {known}")
        self._no_secret_decision(decl.body, set())
        scope = Scope(RoutineSlots())
        player_slot = scope.define(decl.player_var, t.PLAYER)
        items = item_slot = item_kind = None
        if decl.items is not None:
            items, kind = self.x.sequence(decl.items, scope, "the items of a free action")
            item_slot = scope.define(decl.item_var, t.element(kind))
            item_kind = outcome_kind(t.element(kind))
        cond = None if decl.cond is None else self.x.expect(decl.cond, scope, t.BOOL, "a free action's condition")
        block = self.statements.new_block(ROUTINE, decl.body.pos)
        self.statements.fill(block, decl.body, scope.child())
        slots = {decl.player_var: player_slot}
        if decl.item_var is not None:
            slots[decl.item_var] = item_slot
        routine = Routine(block.id, scope.slots.size, slots)
        return FreeAction(index, decl.name, None if decl.phases is None else frozenset(decl.phases), routine,
                          player_slot, item_slot, items, cond, item_kind, decl.pos)

    def _no_secret_decision(self, node: s.Node, called: set[str]) -> None:
        """A free action is one player's: no secret decision of several players inside its body,
        nor inside the procedures it calls; no `offer free actions` (they do not nest)."""
        for item in s.walk(node):
            if isinstance(item, s.Choose) and item.simultaneous:
                self.diag.error(item.pos, "a free action is taken by one player: it cannot ask a secret "
                                "decision of several players (`ask each ... secretly`)",
                                "ask each player in turn, or move the secret decision out of the free action")
            elif isinstance(item, s.OfferFreeActions):
                self.diag.error(item.pos, "free actions are not offered inside a free action",
                                "offer them where the free action is taken from")
            elif isinstance(item, s.CallStatement) and item.name not in called:
                decl = self.sym.procedures.get(item.name)
                if decl is not None:
                    called.add(item.name)
                    self._no_secret_decision(decl.body, called)
