"""Semantic highlighting for the language server (`textDocument/semanticTokens/full`): the kind
of every word of a rules file, as the grammar sees it, so that an editor colours `rules.sr`
without a grammar of its own.

The kinds come from the Pygments lexer (language/highlight.py), whose keywords are read from
grammar.lark: a new keyword is coloured as one the day it enters the grammar. Each token is
sent as LSP encodes them, five numbers relative to the token before (line, start, length, type,
modifiers), with columns in UTF-16 code units as the protocol counts them.
"""
from __future__ import annotations

from pygments.token import Comment, Keyword, Name, Number, Operator, String, _TokenType

# The legend the server announces: a token's type is its index here.
TOKEN_TYPES = ("keyword", "comment", "string", "number", "operator", "function", "property", "variable")
TOKEN_MODIFIERS = ("declaration", "documentation")

# Pygments' token types, most specific first, to (type, modifier bits).
_KINDS: tuple[tuple[_TokenType, str, int], ...] = (
    (Comment.Special, "comment", 2),  # a rulebook citation, `# [Setup]`
    (Comment, "comment", 0),
    (Keyword, "keyword", 0),
    (Operator.Word, "keyword", 0),  # and, or, not, in
    (Operator, "operator", 0),
    (String, "string", 0),
    (Number, "number", 0),
    (Name.Function, "function", 0),
    (Name.Attribute, "property", 0),
    (Name.Variable, "variable", 1),  # the name a declaration declares
    (Name, "variable", 0),
)


def _kind(token: _TokenType) -> tuple[int, int] | None:
    for family, name, modifiers in _KINDS:
        if token in family:
            return TOKEN_TYPES.index(name), modifiers
    return None


def _units(text: str) -> int:
    """The length of `text` in UTF-16 code units (LSP's columns)."""
    return len(text.encode("utf-16-le")) // 2


def tokens(text: str) -> list[tuple[int, int, int, str, int]]:
    """Every coloured token of a rules text: (line, column, length, type name, modifier bits),
    0-based, in order."""
    from snowrules.language.highlight import SnowrulesLexer
    found = []
    line, line_start = 0, 0
    for index, token, value in SnowrulesLexer().get_tokens_unprocessed(text):
        kind = _kind(token)
        if kind is not None and value.strip():
            column = _units(text[line_start:index])
            found.append((line, column, _units(value.rstrip("\n")), TOKEN_TYPES[kind[0]], kind[1]))
        newlines = value.count("\n")
        if newlines:
            line += newlines
            line_start = index + value.rindex("\n") + 1
    return found


def encoded(text: str) -> list[int]:
    """The tokens of `text` as LSP's relative five numbers each."""
    data: list[int] = []
    previous_line = previous_column = 0
    for line, column, length, name, modifiers in tokens(text):
        delta_line = line - previous_line
        delta_column = column - previous_column if delta_line == 0 else column
        data += [delta_line, delta_column, length, TOKEN_TYPES.index(name), modifiers]
        previous_line, previous_column = line, column
    return data
