"""How a counter reads to a person (`counter res[coin, gem] per player from 0 as "{key}s"`),
compiled.

A counter's plain label (`red.res[coin]`) is what logs, scenarios and views name it by; a person
reads it by the words the rulebook uses ("coins"), in the account ("red: coins +2 (now 5)"), in
the holdings shown before a decision ("coins 5") and in a payment's prompt ("you hold coins 5").
The text is compiled like a zone's (compile/prompt_values.py): in a scope of its own with `key`
(the counter's key, a text; none for a family without keys) and `owner` (a per-player counter's
player; none for a shared one). play/counter_names.py reads it. A counter on components
(`per component`) reads by its component's label, which shows its value already, so it takes no
text (SR731).
"""
from __future__ import annotations

from snowrules.compile.prompt_values import NameText, name_text
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics
from snowrules.model import kinds as t

CODE = "SR731"


def compile_counter_texts(x, decls: list[s.CounterDecl], diag: Diagnostics) -> dict[str, NameText]:
    """The texts of the counters declared with one (`as "TEXT"`), by the counter's name (`x`: the
    program's ExpressionCompiler)."""
    texts = {}
    for decl in decls:
        if decl.text is None:
            continue
        if decl.per_component is not None:
            diag.error(decl.text.pos, f"the counter {decl.name!r} is on components: it reads as part of its "
                       "component, whose list's `label:` shows its value", "leave out `as \"...\"`, and name the "
                       f"value in the component list's label (`label: \"... {{{decl.name}}}\"`)", code=CODE)
            continue
        texts[decl.name] = name_text(x, decl.text, t.STR)
    return texts
