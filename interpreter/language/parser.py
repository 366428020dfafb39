"""Text to syntax tree: the Lark LALR parser, its indentation handling and friendly errors (from
the parse tree to syntax values: language/transform.py).

One grammar (grammar.lark, shipped as package data) with three start rules, so that a card's
`effect:` or `condition:` text in YAML is parsed by the same language as the rules file. A
snippet's positions are shifted by the line and column where it sits inside its YAML file.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, RulesSyntaxError
from snowrules.language.limits import (
    MAX_BLOCK_DEPTH,
    MAX_EXPRESSION_DEPTH,
    MAX_FILE_BYTES,
    MAX_STATEMENT_TOKENS,
    MAX_TREE_DEPTH,
)
from snowrules.language.transform import Shift, ToSyntax

MAX_SOURCE_BYTES = MAX_FILE_BYTES  # untrusted rulesets: refuse absurdly large files


class _TooLarge(Exception):
    """A statement too long, or brackets nested too deep, met by the lexer (reported by `_parse`)."""

    def __init__(self, token: Token, message: str, hint: str, code: str):
        super().__init__(message)
        self.token, self.message, self.hint, self.code = token, message, hint, code


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def process(self, stream):
        return super().process(self._bounded(stream))

    def _bounded(self, stream):
        """The tokens, refused as they come (before the parser builds a tree a recursive walk
        could not finish): brackets nested deeper than MAX_EXPRESSION_DEPTH, at the bracket one
        too deep, and a statement of more than MAX_STATEMENT_TOKENS tokens, at the one past it."""
        depth = count = 0
        for token in stream:
            if token.type in self.OPEN_PAREN_types:
                depth += 1
                if depth > MAX_EXPRESSION_DEPTH:
                    raise _TooLarge(token, f"brackets nested more than {MAX_EXPRESSION_DEPTH} deep",
                                    "name a part: `let`, or a function (`define f(x) = ...`)", "SR705")
            elif token.type in self.CLOSE_PAREN_types:
                depth = max(0, depth - 1)
            count += 1
            if token.type == self.NL_type and depth == 0:
                count = 0
            elif count > MAX_STATEMENT_TOKENS:
                raise _TooLarge(token, f"a statement of more than {MAX_STATEMENT_TOKENS} words, numbers and signs",
                                "split it: `let` a part, or a function (`define f(x) = ...`)", "SR705")
            yield token


class _ReservedWord(Exception):
    """A keyword found where the grammar wants a name (raised by the lexer, reported by `_parse`)."""

    def __init__(self, token: Token):
        super().__init__(str(token))
        self.token = token


def _refuse_keyword(token: Token) -> Token:
    """Keywords are never names. LALR's contextual lexer would read `dice` as a name wherever the
    keyword cannot come next (`let dice = 2`) and then fail elsewhere (`roll dice dice ...`):
    every NAME token is checked here, so a keyword used as a name fails at once, everywhere."""
    if token.value in keywords():
        raise _ReservedWord(token)
    return token


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        postlex=_RulesIndenter(),
        start=["ruleset", "effect", "expression"],
        propagate_positions=True,
        maybe_placeholders=True,
        lexer_callbacks={"NAME": _refuse_keyword},
    )


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """The reserved words: every word the grammar spells out (`"roll"`, `"dice"`...). `player`
    and `turn` are not among them: the grammar reads them as names where it needs them."""
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in grammar.splitlines())
    return frozenset(re.findall(r'"([a-z_][a-z0-9_]*)"', code))


# Names of grammar terminals as a designer would say them.
_TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "COLON": "':'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'",
    "COMMA": "','", "DOT": "'.'",
    "EQUAL": "'='", "COMPARE": "a comparison", "$END": "end of text",
}


def _describe_expected(expected: set[str]) -> str:
    words = []
    for name in sorted(expected):
        if name in _TOKEN_WORDS:
            words.append(_TOKEN_WORDS[name])
        elif name.isupper() and not name.startswith("_"):
            pattern = _parser().get_terminal(name).pattern
            words.append(f"'{pattern.value}'" if pattern.type == "str" else name.lower())
    words = sorted(set(words))
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _syntax_error(error: UnexpectedInput, text: str, shift: Shift) -> RulesSyntaxError:
    line, col = getattr(error, "line", 0) or 0, getattr(error, "column", 0) or 0
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
    elif isinstance(error, UnexpectedEOF):
        line = text.count("\n") + 1
        message = "the text ends too early"
    elif isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            line = text.count("\n") + 1
            message = "the text ends too early"
        elif token.type in ("_INDENT", "_DEDENT"):
            # the indenter makes this token at the end of the line before: the mistake is the
            # indented line itself, at its first character
            message = "unexpected indentation"
            line, col = _next_code_line(text, line)
            hint = "indent a line only under a line that ends with ':'"
            return RulesSyntaxError(Diagnostic(shift(line, col), message, hint, code="SR302"))
        elif token.type == "_NL":
            message = "the line ends too early"
        else:
            message = f"unexpected {token.value!r}"
    else:  # pragma: no cover - lark's other errors are subclasses of the above
        message = str(error).splitlines()[0]
    expected = getattr(error, "expected", None) or getattr(error, "allowed", None) or set()
    hint = f"expected {_describe_expected(set(expected))}" if expected else ""
    return RulesSyntaxError(Diagnostic(shift(max(line, 1), max(col, 1)), message, hint, code="SR301"))


def _next_code_line(text: str, line: int) -> tuple[int, int]:
    """The first line after `line` holding code (not blank, not only a comment), and the column
    of its first character; `line` itself when there is none."""
    lines = text.splitlines()
    for number in range(line + 1, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped and not stripped.startswith("#"):
            return number, len(lines[number - 1]) - len(lines[number - 1].lstrip()) + 1
    return line, 1


def _bad_dedent(text: str) -> tuple[int, int]:
    """The first line whose indentation returns to a column no open block started at."""
    return _indentation(text)[0]


def _too_deep(text: str) -> tuple[int, int] | None:
    """The first line nested more than MAX_BLOCK_DEPTH blocks deep, or None."""
    return _indentation(text)[1]


def _indentation(text: str) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """Walk the blocks by indentation: the first bad dedent (or 1, 1) and the first line nested
    deeper than MAX_BLOCK_DEPTH (or None)."""
    stack, depth = [0], 0
    too_deep = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or depth > 0:
            depth = max(0, depth + line.count("(") + line.count("[") - line.count(")") - line.count("]"))
            continue
        width = len(line) - len(line.lstrip(" \t"))
        if width < stack[-1]:
            while width < stack[-1]:
                stack.pop()
            if width != stack[-1]:
                return (number, width + 1), too_deep
        elif width > stack[-1]:
            stack.append(width)
            if too_deep is None and len(stack) > MAX_BLOCK_DEPTH + 1:
                too_deep = (number, width + 1)
        depth = max(0, line.count("(") + line.count("[") - line.count(")") - line.count("]"))
    return (1, 1), too_deep


def _check_depth(tree: Tree, shift: Shift) -> None:
    """Refuse a parse tree deeper than MAX_TREE_DEPTH, at the first node past it, before the
    recursive walks (the transform, the checks, the compiled code) meet it: `1 + 1 + ... + 1`
    with 500 terms nests 500 deep and ran out of Python's stack. Walked without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            meta = node.meta
            line, col = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise RulesSyntaxError(Diagnostic(shift(line, col), f"the rules nest more than {MAX_TREE_DEPTH} levels "
                                              "deep here (operators, calls and blocks inside one another)",
                                              "split it: `let` a part, or a function (`define f(x) = ...`)",
                                              code="SR705"))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _parse(text: str, start: str, shift: Shift):
    if len(text.encode("utf-8")) > MAX_SOURCE_BYTES:
        raise RulesSyntaxError(Diagnostic(shift(1, 1), f"the text is larger than {MAX_SOURCE_BYTES} bytes",
                                                code="SR701"))
    deep = _too_deep(text)
    if deep is not None:
        raise RulesSyntaxError(Diagnostic(shift(*deep), f"blocks nested more than {MAX_BLOCK_DEPTH} deep",
                                          "move the inner part into a procedure (`define`)", code="SR705"))
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text, start=start)
        _check_depth(tree, shift)
        return ToSyntax(shift).transform(tree)
    except UnexpectedInput as error:
        raise _syntax_error(error, text, shift) from None
    except _ReservedWord as reserved:
        token = reserved.token
        raise RulesSyntaxError(Diagnostic(shift(token.line, token.column),
                                          f"{token.value!r} is a keyword and cannot be a name",
                                          f"choose another name, such as my_{token.value}")) from None
    except _TooLarge as large:
        token = large.token
        raise RulesSyntaxError(Diagnostic(shift(token.line, token.column), large.message, large.hint,
                                          code=large.code)) from None
    except DedentError:
        line, col = _bad_dedent(text)
        raise RulesSyntaxError(Diagnostic(shift(line, col), "this line's indentation matches no enclosing block",
                                          "indent it like the block it belongs to")) from None
    except VisitError as error:  # pragma: no cover - a bug in the transformer, not in the input
        raise error.orig_exc from None
    except RecursionError:
        raise RulesSyntaxError(Diagnostic(shift(1, 1), "the text nests too deeply", code="SR705")) from None


def parse_rules(text: str, path: str) -> s.RulesFile:
    """Parse a whole rules file."""
    return _parse(text, "ruleset", Shift(path))


def parse_effect(text: str, path: str, line: int, col: int, block: bool = False) -> s.Block:
    """Parse a card's effect text found at `line`, `col` (1-based) of a YAML file; `block` when it
    is a block scalar, whose every line is indented by `col - 1` in the file."""
    return _parse(text, "effect", Shift(path, line - 1, col - 1, block))


def parse_expression(text: str, path: str, line: int, col: int, block: bool = False):
    """Parse one expression (a card's condition or value) found at `line`, `col` of a YAML file."""
    return _parse(text.strip(), "expression", Shift(path, line - 1, col - 1, block))
