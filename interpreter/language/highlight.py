"""A Pygments lexer for the rules language (`pygmentize -l snowrules rules.sr`).

Registered as the entry point `pygments.lexers: snowrules`, so Pygments, and what uses it (docs
builders, `pygmentize`, editors' previews), finds it once snowrules is installed with Pygments
(the `highlight` extra). The keywords are read from grammar.lark itself, so the lexer never
falls behind the language: a word the grammar quotes is a keyword.

Beyond keywords it tells apart comments (and the rulebook citations they open with, `# [B.
Fight]`), strings, numbers, the names being declared (`zone hand`, `define score(p)`), calls,
fields after a dot and operators. Two phrases are one keyword each, `free action` (a
declaration) and `offer free actions` (a statement): the grammar reads their second word as a
name, which stays a name anywhere else. A backslash that ends a line continues it.
"""
from __future__ import annotations

import re
from importlib import resources

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

_DECLARING = ("zone", "counter", "variable", "constant", "define", "phase", "grid", "event")
# declarations whose next word names something declared elsewhere (`on gained(...)`: an event)
_DECLARING_OTHER = ("on", "reactions")
_CONSTANTS = ("true", "false", "none")
_OPERATORS = ("and", "or", "not", "in")


def grammar_keywords() -> list[str]:
    """Every word the grammar quotes ("move", "ask", ...), longest first."""
    grammar = resources.files("snowrules.language").joinpath("grammar.lark").read_text(encoding="utf-8")
    found = set(re.findall(r'"([a-z_]+)"', grammar))
    return sorted(found, key=lambda word: (-len(word), word))


class SnowrulesLexer(RegexLexer):
    """The snowrules rules language (`*.sr`)."""

    name = "snowrules"
    aliases = ["snowrules", "sr"]
    filenames = ["*.sr"]
    mimetypes = ["text/x-snowrules"]
    url = "https://github.com/snowrules/snowrules"

    _keywords = [w for w in grammar_keywords() if w not in _CONSTANTS + _OPERATORS + _DECLARING + _DECLARING_OTHER]

    tokens = {
        "root": [
            (r"[ \t]+", Whitespace),
            (r"\r?\n", Whitespace),
            (r"(#[ \t]*)(\[[^\]\n]*\])([^\n]*)", bygroups(Comment.Single, Comment.Special, Comment.Single)),
            (r"#[^\n]*", Comment.Single),
            (r'"[^"\n]*"', String.Double),
            (r"\d+", Number.Integer),
            (r"\\(?=[ \t]*\r?\n)", Punctuation),  # the line goes on: "A line may continue after a `\`"
            (r"free[ \t]+action\b", Keyword.Declaration),
            (r"offer[ \t]+free[ \t]+actions\b", Keyword),
            (words(_DECLARING, suffix=r"\b"), Keyword.Declaration, "declared"),
            (words(_DECLARING_OTHER, suffix=r"\b"), Keyword.Declaration),
            (words(_CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(_OPERATORS, suffix=r"\b"), Operator.Word),
            (words(_keywords, suffix=r"\b"), Keyword),
            (r"(\.)([a-zA-Z_][a-zA-Z0-9_]*)", bygroups(Punctuation, Name.Attribute)),
            (r"[a-zA-Z_][a-zA-Z0-9_]*(?=\()", Name.Function),
            (r"[a-zA-Z_][a-zA-Z0-9_]*", Name),
            (r"==|!=|<=|>=|[-+*/%<>=]", Operator),
            (r"[()\[\]{}:,.]", Punctuation),
            (r".", Error),  # nothing of the language: the docs test finds none in any example
        ],
        "declared": [
            (r"[ \t]+", Whitespace),
            (r"[a-zA-Z_][a-zA-Z0-9_]*", Name.Variable, "#pop"),
            (r"", Text, "#pop"),
        ],
    }
