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
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics
from snowrules.model import kinds as t

if TYPE_CHECKING:
    from snowrules.compile.expressions import ExpressionCompiler
    from snowrules.compile.scope import Scope

PROMPT_VALUES = "prompt_values"  # the attribute of a decision's step that holds its PromptValues
CODE = "SR214"


@dataclass(frozen=True)
class PromptValues:
    """A prompt ready to show: its literal pieces, each followed by a value (None after the
    last) as (closure of the state and the decision's environment, how a whole number in it
    reads: "player", "component" or "value", whether it is a list). `player_slot`: where a
    secret decision of several players keeps the player asked (each seat reads its own)."""

    parts: tuple[tuple[str, Fn | None, str, bool], ...]
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
    return PromptValues(tuple(parts), player_slot, template.text)


def with_prompt(step, shown: PromptValues | None):
    """The decision's `step` keeping its compiled prompt, when it has one with values (a step of
    any kind: the prompt rides on it as an attribute, read by play/prompts.py)."""
    if shown is not None:
        setattr(step, PROMPT_VALUES, shown)
    return step
