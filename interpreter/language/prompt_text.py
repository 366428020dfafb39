"""A decision's prompt, `as "TEXT"`, read as text with values in braces.

A person deciding needs the values the decision is about, not only its name: "keep the red
die showing 3 (costs 2 coins)" rather than "keep a die or not". From edition 3 of
the language a prompt's text holds expressions in braces, each shown with its value when the
decision is shown:

    ask p to choose answer from ["stays", "checks out"] as "let {c.name} stay (costs {cost(c)})"

`{{` and `}}` are braces themselves. An expression reads what the decision itself can read
where it stands (its player, the loop variables and `let`s around it, the game), never its own
answer, which is not known while the question is shown; the compiler checks the names
(compile/prompt_values.py). In a ruleset of an older edition a brace is plain text, as it was:
a warning says so at the prompt and `snowrules upgrade` doubles the braces (editions.py).
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.language import editions
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Position, RulesSyntaxError

CODE = "SR214"
# A prompt is a line a person reads: this many values at most (each is parsed on its own, so that a
# hostile line of thousands of braces is refused at once rather than parsed for seconds).
MAX_VALUES = 16
# The edition from which braces in a prompt enclose values (the editions' table's row).
VALUES_FROM = next(c.edition for c in editions.CHANGES if c.kind == "prompt braces")
BRACES_HINT = ("write a value in braces, {p.score}, and a brace itself as {{ or }}")


def read_prompt(text: str, at: Position, edition: int, read_expression: Callable[[str, Position], s.Node],
                notes: list) -> s.PromptText:
    """The prompt `text`, whose first character is at `at` (the opening quote is one column
    before it), as literal pieces each followed by an expression (None after the last).
    `read_expression(text, where)` parses one expression written at `where`. In an edition
    before braces meant values, the text is all literal and a warning for its braces goes to
    `notes`; in a later one a lone brace or an empty pair is refused at its column."""
    if edition < VALUES_FROM:
        if "{" in text or "}" in text:
            notes.append(old_braces_note(text, Position(at.path, at.line, at.col - 1), edition))
        return s.PromptText(at, text, ((text, None),))
    parts: list[tuple[str, s.Node | None]] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith(("{{", "}}"), i):
            literal.append(text[i])
            i += 2
            continue
        char = text[i]
        if char == "}":
            raise _refused(at, i, "a lone '}' in a prompt")
        if char != "{":
            literal.append(char)
            i += 1
            continue
        end = text.find("}", i + 1)
        if end < 0 or "{" in text[i + 1:end]:
            raise _refused(at, i, "a '{' that no '}' closes in a prompt")
        if len(parts) == MAX_VALUES:
            raise _refused(at, i, f"more than {MAX_VALUES} values in one text", "show fewer values: a prompt is "
                           "one line a person reads")
        inside = text[i + 1:end]
        if not inside.strip():
            raise _refused(at, i, "empty braces in a prompt", "write the value to show between them, {p.score}, "
                           "or a brace itself as {{ or }}")
        lead = len(inside) - len(inside.lstrip())
        expression = read_expression(inside.strip(), Position(at.path, at.line, at.col + i + 1 + lead))
        parts.append(("".join(literal), expression))
        literal = []
        i = end + 1
    parts.append(("".join(literal), None))
    return s.PromptText(at, text, tuple(parts))


def _refused(at: Position, index: int, message: str, hint: str = BRACES_HINT) -> RulesSyntaxError:
    return RulesSyntaxError(Diagnostic(Position(at.path, at.line, at.col + index), message, hint, code=CODE))


def old_braces_note(text: str, quote: Position, edition: int) -> Diagnostic:
    """The warning at a prompt with braces in an edition where they are plain text (`quote`: the
    opening quote, where `snowrules upgrade` rewrites the whole text)."""
    change = next(c for c in editions.CHANGES if c.kind == "prompt braces")
    return Diagnostic(quote, f"the braces of the prompt {text!r} are plain text in edition {edition}, "
                      f"but enclose a value from edition {change.edition} on",
                      f"write each brace twice, {{{{ and }}}}, and declare `language: {editions.CURRENT}` "
                      "(`snowrules upgrade` does both)", severity="warning", code=change.code)


def escaped_text(text: str) -> str:
    """A prompt's text as the edition that reads values in braces spells the same words."""
    return text.replace("{", "{{").replace("}", "}}")
