"""How each option of a decision reads (`each as "TEXT"`), compiled where the decision stands.

A component list's `label:` says how a component reads anywhere; an option may need more, what
it is worth to the decision at hand: an action space for the die just chosen reads with what
that die reaches there. `ask p to choose spot from open_spaces(p) as "choose an action space
for the {d}" each as "{spot}: counts {d.value - spot.cost}"` gives each option that text, its
values read with the answer's name (`spot`) standing for the option shown, besides everything
the decision's prompt may read (compile/prompt_values.py): its player, the loop variables,
`let`s and parameters around it, the game. Unknown names are reported at their place (SR401).

The compiled text rides on the decision's step (`OPTION_TEXT`), where the play layer finds it
(play/prompts.py option_labels) when it shows the options: the terminal, the browser. Nothing
runs it while a game plays, and logs, scenarios and the adapters keep the options' plain names,
so a text added changes no game and no log.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from snowrules.compile.prompt_values import Part, compiled_parts
from snowrules.compile.scope import Scope
from snowrules.language import syntax as s

if TYPE_CHECKING:
    from snowrules.compile.expressions import ExpressionCompiler

OPTION_TEXT = "option_text"  # the attribute of a decision's step that holds its ChoiceOptionText


@dataclass(frozen=True)
class ChoiceOptionText:
    """How each option of a decision reads: the text's parts, read in the decision's environment
    with the option put in `slot` (the answer's) and, in a secret decision of several players,
    the seat asked in `player_slot`."""

    parts: tuple[Part, ...]
    slot: int
    player_slot: int | None


def compile_option_text(x: ExpressionCompiler, node: s.Choose, scope: Scope, slot: int,
                        player_slot: int | None) -> ChoiceOptionText | None:
    """Decision `node`'s option text compiled in `scope`, where its answer's name is defined (at
    `slot`); None when it has none."""
    if node.option_text is None:
        return None
    return ChoiceOptionText(compiled_parts(x, node.option_text, scope), slot, player_slot)


def with_option_text(step, text: ChoiceOptionText | None):
    """The decision's `step` keeping its options' text, when it has one (read by play/prompts.py)."""
    if text is not None:
        setattr(step, OPTION_TEXT, text)
    return step
