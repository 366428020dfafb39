"""The values a decision's prompt shows (`as "check out {c.name}"`, language/prompt_text.py),
compiled where the decision stands.

Each value is an expression compiled in the decision's own scope, before its answer is named:
it reads the player who decides (each seat its own, in a secret decision of several), the loop
variables, `let`s and parameters around the decision, and the game; an unknown name is reported
at its place as any expression's is (SR401). Naming the decision's own answer is refused (SR214):
the question is shown before it is answered.

The compiled prompt is kept on the decision's step (`PROMPT_VALUES`), where the play layer finds
it from the state's top frame when it shows the question (play/prompts.py). Nothing runs it
while a game plays, so a game with prompt values runs exactly as one without.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from snowrules.compile.closures import Fn
from snowrules.compile.scope import RoutineSlots, Scope
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics
from snowrules.model import kinds as t

if TYPE_CHECKING:
    from snowrules.compile.expressions import ExpressionCompiler

PROMPT_VALUES = "prompt_values"  # the attribute of a decision's step that holds its PromptValues
COUNTERS = "counter"  # how a value of counter indexes reads: each counter's name and value (a payment's)
CODE = "SR214"
# A piece of literal text, then a value: (closure of (state, environment), how a whole number in it
# reads: "player", "component" or "value", whether it is a list); no value (None) after the last.
Part = tuple[str, Fn | None, str, bool]


@dataclass(frozen=True)
class PromptValues:
    """A prompt ready to show: its literal pieces, each followed by a value (None after the
    last) as (closure of the state and the decision's environment, how a whole number in it
    reads: "player", "component" or "value", whether it is a list). `player_slot`: where a
    secret decision of several players keeps the player asked (each seat reads its own)."""

    parts: tuple[Part, ...]
    player_slot: int | None
    text: str


def compile_prompt(x: ExpressionCompiler, node: s.Choose, scope: Scope, diag: Diagnostics,
                   player_slot: int | None) -> PromptValues | None:
    """The prompt of decision `node` with its values compiled in `scope` (the decision's scope
    before its answer is named); None when it shows no value or a value is refused."""
    template = node.template
    if template is None:
        return None
    answer = [n for e in template.values for n in s.walk(e)
              if isinstance(n, s.Name) and n.name == node.var and scope.lookup(n.name) is None]
    for name in answer:
        diag.error(name.pos, f"the prompt shows {node.var!r}, the answer to its own decision, which is not known "
                   "while the question is asked", "show what the player chooses from, or a value known before "
                   "the decision", code=CODE)
    if answer:
        return None
    return PromptValues(compiled_parts(x, template, scope), player_slot, template.text)


def compiled_parts(x: ExpressionCompiler, template: s.PromptText, scope: Scope) -> tuple[Part, ...]:
    """A text's literal pieces, each with its value compiled in `scope` and how it reads."""
    parts = []
    for literal, expression in template.parts:
        if expression is None:
            parts.append((literal, None, "value", False))
            continue
        fn, kind = x.compile(expression, scope)
        if kind == t.ZONE:  # a zone shows its components
            fn, kind = x.checked(expression, fn, kind, t.list_of(t.COMPONENT), "a prompt's value"), \
                t.list_of(t.COMPONENT)
        listed = t.is_list(kind)
        each = t.element(kind) if listed else kind
        # a value of unknown kind (a field no schema types) reads as itself, never as a component
        parts.append((literal, fn, "value" if each == t.ANY else each.option_label, listed))
    return tuple(parts)


@dataclass(frozen=True)
class OptionText:
    """How a free action's option reads (`free action "raise a die" for p, d in p.workers ... as
    "raise the {d} (coins: {cost(p, d)})"`): its text's parts, read in an environment of
    `size` slots holding the player deciding and the option's item."""

    parts: tuple[Part, ...]
    player_slot: int
    item_slot: int | None
    size: int


ITEM_KINDS = {"component": t.COMPONENT, "player": t.PLAYER}  # a free action's item kind -> its Kind


def compile_option_texts(x: ExpressionCompiler, decls: list[s.FreeActionDecl], actions: list) -> dict[int, OptionText]:
    """The option texts of the free actions that have one (`as "TEXT"`), by the action's index:
    each compiled with the action's player and item names bound, as its condition is."""
    by_name = {action.name: action for action in actions}
    texts = {}
    for decl in decls:
        action = by_name.get(decl.name)
        if decl.text is None or action is None:
            continue
        scope = Scope(RoutineSlots())
        player_slot = scope.define(decl.player_var, t.PLAYER)
        item_slot = None if decl.item_var is None else scope.define(
            decl.item_var, ITEM_KINDS.get(action.item_kind or "", t.ANY))
        parts = compiled_parts(x, decl.text, scope)
        texts[action.index] = OptionText(parts, player_slot, item_slot, scope.slots.size)
    return texts


def with_prompt(step, shown: PromptValues | None):
    """The decision's `step` keeping its compiled prompt, when it has one with values (a step of
    any kind: the prompt rides on it as an attribute, read by play/prompts.py)."""
    if shown is not None:
        setattr(step, PROMPT_VALUES, shown)
    return step


@dataclass(frozen=True)
class NameText:
    """How the zones or counters of one declaration read (`zone space[1..9] shared public as
    "space {key}"`, `counter res[coin, gem] per player as "{key}s"`): the text's parts, read in an
    environment of `size` slots holding the zone's index or the counter's key (`key`) and its
    owner (`owner`, a per-player zone's or counter's player)."""

    parts: tuple[Part, ...]
    key_slot: int
    owner_slot: int
    size: int


def name_text(x: ExpressionCompiler, text: s.PromptText, key: t.Kind) -> NameText:
    """A zone's or counter's text compiled in a scope of its own, where `key` (of kind `key`)
    and `owner` are the names it reads besides the game's."""
    scope = Scope(RoutineSlots())
    key_slot, owner_slot = scope.define("key", key), scope.define("owner", t.PLAYER)
    return NameText(compiled_parts(x, text, scope), key_slot, owner_slot, scope.slots.size)


def compile_zone_texts(x: ExpressionCompiler, decls: list[s.ZoneDecl]) -> dict[str, NameText]:
    """The texts of the zones declared with one (`as "TEXT"`), by the zone's name (`key`: the
    zone's index)."""
    return {decl.name: name_text(x, decl.text, t.INT) for decl in decls if decl.text is not None}
