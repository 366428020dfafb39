"""Variables that never change: a `variable` that no statement sets (`plays = plays + 1`), in the
rules or in a component's effect, keeps the value it was declared with for the whole game.

Issue 29's planted mistakes found this among the deletions that pass validate, run and test
silently: with the line that counts the plays deleted, `variable plays = 0` stays 0, and a rule
that ends the game after so many plays never fires. Nothing else can see it: the kinds agree,
the game ends some other way, and a scenario sees it only if it counts the plays. A value that is
meant never to change is a `constant`, so a variable that is never set is a warning at its
declaration. A name set anywhere counts as set, even where a `let` of the same name hides the
variable: the warning is never given to a variable that changes.
"""
from __future__ import annotations

from collections.abc import Iterable

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic


def _set_names(bodies: Iterable[s.Node]) -> set[str]:
    """Every name a statement of `bodies` sets: `x = ...`, and a counter statement's name."""
    found: set[str] = set()
    for body in bodies:
        for node in s.walk(body):
            if isinstance(node, (s.Assign, s.Reset)):
                found.add(node.name)
            elif isinstance(node, (s.Add, s.SetCounter)) and isinstance(node.target, s.Name):
                found.add(node.target.name)
    return found


def never_set_variables(files: list[s.RulesFile], effects: Iterable[s.Node] = ()) -> list[Diagnostic]:
    """A warning (SR410) at each `variable` of `files` that no statement of the rules or of the
    components' `effects` sets."""
    set_names = _set_names([*files, *effects])
    return [Diagnostic(declaration.pos, f"the variable `{declaration.name}` is never set: it keeps the value "
                       "it is declared with for the whole game",
                       f"a value that never changes is a `constant {declaration.name} = ...`; "
                       f"else, is a `{declaration.name} = ...` missing?", severity="warning", code="SR410")
            for rules in files for declaration in rules.declarations
            if isinstance(declaration, s.VariableDecl) and declaration.name not in set_names]
