"""Text to syntax tree: the Lark LALR parser, its indentation handling and friendly errors (from
the parse tree to syntax values: language/transform.py).

One grammar (grammar.lark, shipped as package data) with three start rules, so that a card's
`effect:` or `condition:` text in YAML is parsed by the same language as the rules file. A
snippet's positions are shifted by the line and column where it sits inside its YAML file.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import replace
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter
from snowrules.data import cache as build_cache
from snowrules.language import editions
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Position, RulesSyntaxError
from snowrules.language.hints import statement_hint
from snowrules.language.limits import (
    MAX_BLOCK_DEPTH,
    MAX_EXPRESSION_DEPTH,
    MAX_FILE_BYTES,
    MAX_NUMBER,
    MAX_STATEMENT_TOKENS,
    MAX_TREE_DEPTH,
    excerpt,
    number_too_large,
)
from snowrules.language.names import NAME_HINT, refused_character
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
            elif token.type == "INT" and number_too_large(token.value):
                raise _TooLarge(token, f"the number {excerpt(token.value)} is larger than {MAX_NUMBER:,}",
                                "no count or score of a game comes near it", "SR711")
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


# The text being parsed: its ruleset's edition, and the names it uses that a later edition
# reserves (their tokens, for the warnings). Set by `_parse` for the lexer's callback.
_READING: ContextVar[tuple[int, list[Token | Diagnostic]]] = ContextVar("_READING", default=(editions.CURRENT, []))


def _refuse_keyword(token: Token) -> Token:
    """A reserved word is never a name. LALR's contextual lexer reads `dice` as a name wherever
    the keyword cannot come next (`let dice = 2`) and then fails elsewhere (`roll dice dice ...`):
    a word the grammar can read both as a keyword and as a name at one place is reserved (the
    editions' table lists them, `reserved_words` checks the table) and refused everywhere as a
    name. Every other keyword is a keyword only where the grammar wants it (`end game winners`)
    and a name everywhere else. A ruleset of an older edition may still use a word a later
    edition reserved: it is noted for a warning with its rewrite."""
    edition, later = _READING.get()
    if token.value in editions.reserved_in(edition):
        raise _ReservedWord(token)
    if token.value in editions.reserved_later(edition):
        later.append(token)
    return token


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        cache=build_cache.grammar_cache_file(grammar) or False,  # the LALR tables, analysed once
        parser="lalr",
        postlex=_RulesIndenter(),
        start=["ruleset", "effect", "expression"],
        propagate_positions=True,
        maybe_placeholders=True,
        lexer_callbacks={"NAME": _refuse_keyword},
    )


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every word the grammar spells out (`"roll"`, `"dice"`...). `player` and `turn` are not
    among them: the grammar reads them as names where it needs them."""
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in grammar.splitlines())
    return frozenset(re.findall(r'"([a-z_][a-z0-9_]*)"', code))


@lru_cache(maxsize=1)
def reserved_words() -> frozenset[str]:
    """The keywords that must be reserved: those the parser can meet at a place where a name is
    also acceptable (a state of the LALR table that accepts both), where the lexer could not tell
    which is meant. Found from the grammar's tables; the editions' table must list each."""
    parser = _parser()
    words = {t.name: t.pattern.value for t in parser.terminals
             if t.pattern.type == "str" and t.pattern.value in keywords()}
    found: set[str] = set()
    for actions in parser.parser.parser._parse_table.states.values():
        if "NAME" in actions:
            found.update(words[name] for name in actions if name in words)
    return frozenset(found)


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


def _syntax_error(error: UnexpectedInput, text: str, shift: Shift) -> tuple[Diagnostic, int | None]:
    """The diagnostic of a parse error, and the line (of `text`) to leave out to look for the
    next one (None when the text cannot be mended by leaving out a line: it ends too early)."""
    line, col = getattr(error, "line", 0) or 0, getattr(error, "column", 0) or 0
    bad_line: int | None = line
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
        invisible = refused_character(char)
        if invisible is not None:  # a bidirectional control or an invisible character: named, as in a YAML name
            return Diagnostic(shift(max(line, 1), max(col, 1)), f"unexpected character {invisible[1]}", NAME_HINT,
                              code="SR210"), bad_line
    elif isinstance(error, UnexpectedEOF):
        line = text.count("\n") + 1
        message = "the text ends too early"
        bad_line = None
    elif isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            line = text.count("\n") + 1
            message = "the text ends too early"
            bad_line = None
        elif token.type in ("_INDENT", "_DEDENT"):
            # the indenter makes this token at the end of the line before: the mistake is the
            # indented line itself, at its first character
            message = "unexpected indentation"
            line, col = _next_code_line(text, line)
            hint = "indent a line only under a line that ends with ':'"
            return Diagnostic(shift(line, col), message, hint, code="SR302"), line
        elif token.type == "_NL":
            message = "the line ends too early"
        else:
            message = f"unexpected {token.value!r}"
    else:  # pragma: no cover - lark's other errors are subclasses of the above
        message = str(error).splitlines()[0]
    expected = getattr(error, "expected", None) or getattr(error, "allowed", None) or set()
    hint = f"expected {_describe_expected(set(expected))}" if expected else ""
    return Diagnostic(shift(max(line, 1), max(col, 1)), message, hint, code="SR301"), bad_line


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


# How many syntax errors of one text are looked for (each found by leaving out the lines of the
# ones before): enough for a designer's round of edits, few enough to stay fast on a broken file.
MAX_SYNTAX_ERRORS = 20
# A text larger than this (far larger than any bundled rules file) is not parsed again to find
# more than its first syntax error: each look costs a parse.
MAX_RECOVERED_BYTES = 500_000


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


# The syntax of the texts parsed last, by text, start rule, place and edition (or the syntax
# error they raise): a command that reads a ruleset several times (validate: once per variant)
# and the language server (a check per edit, most files unchanged) parse each text once. Syntax
# trees are frozen, so they may be shared; bounded by the texts' length, as yaml_files' trees.
PARSED_TEXT_KEPT = 2_000_000
_PARSED: OrderedDict[tuple, tuple] = OrderedDict()
_parsed_kept = 0  # the length of the texts in _PARSED


def _keep_parsed(key: tuple, known: tuple) -> None:
    global _parsed_kept
    if len(key[0]) > PARSED_TEXT_KEPT // 4:
        return
    _PARSED[key] = known
    _parsed_kept += len(key[0])
    while _parsed_kept > PARSED_TEXT_KEPT:
        oldest, _ = _PARSED.popitem(last=False)
        _parsed_kept -= len(oldest[0])


def parsed_at(path: str) -> dict[tuple, tuple]:
    """The texts parsed without error at places of the file `path` (the cards' effects of one
    component list), as `remember` takes them: what the build cache keeps of that file."""
    return {key: known for key, known in _PARSED.items() if key[2] == path and known[1] is None}


def remember(parsed: dict[tuple, tuple]) -> None:
    """Take texts parsed before (`parsed_at`, read back from the build cache) as parsed."""
    for key, known in parsed.items():
        if key not in _PARSED:
            _keep_parsed(key, known)


def _parse(text: str, start: str, shift: Shift, edition: int = editions.CURRENT,
           notes: list[Diagnostic] | None = None):
    """The syntax of `text`, written in the language's `edition`; else a RulesSyntaxError with
    every syntax error found. `notes` (when given) gets a warning for each name that a later
    edition reserves."""
    key = (text, start, shift.path, shift.line_offset, shift.col_offset, shift.every_line, edition)
    known = _PARSED.get(key)
    if known is None:
        def build() -> tuple[tuple, bool]:
            later: list[Token] = []
            reading = _READING.set((edition, later))
            try:
                return (_parse_text(text, start, shift), None, later), True
            except RulesSyntaxError as error:
                return (None, error, later), False  # a text with errors is parsed afresh each time
            finally:
                _READING.reset(reading)
        # A whole rules file's syntax is kept in the build cache too, under its text: a command
        # that reads a ruleset in which one file changed parses that file only. (A card's effect
        # is a line or two, parsed in less time than an entry takes to read.)
        entry = build_cache.key("syntax", *key) if start == "ruleset" else None
        known = build_cache.cached("syntax", entry, build)
        _keep_parsed(key, known)
    else:
        _PARSED.move_to_end(key)
    tree, error, later = known
    try:
        if error is not None:
            raise error.with_traceback(None)  # a stored error, raised again: no traceback piles up
        return tree
    finally:
        for token in later if notes is not None else []:
            # a name a later edition reserves, or a warning the transformer made (a prompt's braces)
            note = token if isinstance(token, Diagnostic) else _reserved_later(token, edition, shift)
            if note not in notes:
                notes.append(note)


def _value_reader(edition: int):
    """How the transformer reads a value written in a prompt's braces (language/prompt_text.py):
    an expression of the same edition, at its place in the file."""
    def read(text: str, at: Position):
        return parse_expression(text, at.path, at.line, at.col, edition=edition)
    return read


def _reserved_later(token: Token, edition: int, shift: Shift) -> Diagnostic:
    """The warning for a name that a later edition reserves, with its rewrite."""
    change = editions.reserved_later(edition)[token.value]
    return Diagnostic(shift(token.line, token.column), f"{token.value!r} is a name in edition {edition}, "
                      f"but a keyword from edition {change.edition} on",
                      f"rename it {editions.RENAMED.format(word=token.value)} and declare `language: "
                      f"{editions.CURRENT}` (`snowrules upgrade` does both)", severity="warning", code=change.code)


def _parse_text(text: str, start: str, shift: Shift):
    """The syntax of `text`; else a RulesSyntaxError with every syntax error found, each found by
    leaving out the statements of the ones before (`_leave_out`), and the text so mended, parsed."""
    if len(text.encode("utf-8")) > MAX_SOURCE_BYTES:
        raise RulesSyntaxError(Diagnostic(shift(1, 1), f"the text is larger than {MAX_SOURCE_BYTES} bytes",
                                                code="SR701"))
    deep = _too_deep(text)
    if deep is not None:
        raise RulesSyntaxError(Diagnostic(shift(*deep), f"blocks nested more than {MAX_BLOCK_DEPTH} deep",
                                          "move the inner part into a procedure (`define`)", code="SR705"))
    if not text.endswith("\n"):
        text += "\n"
    found: list[Diagnostic] = []
    skipped: set[str] = set()
    tried: dict[int, int] = {}  # a line left out -> how many times (1: a statement; 2: its whole block)
    while True:
        try:
            parsed = _parser().parse(text, start=start)
            _check_depth(parsed, shift)
            edition, later = _READING.get()
            tree = ToSyntax(shift, edition, later, _value_reader(edition)).transform(parsed)
            if not found:
                return tree
            raise RulesSyntaxError(found, tree, frozenset(skipped))
        except RulesSyntaxError:
            raise
        except VisitError as error:  # pragma: no cover - a bug in the transformer, not in the input
            raise error.orig_exc from None
        except _TooLarge as large:  # no mending: a statement too long or too deep is the last error looked for
            token = large.token
            found.append(Diagnostic(shift(token.line, token.column), large.message, large.hint, code=large.code))
            raise RulesSyntaxError(found) from None
        except RecursionError:
            found.append(Diagnostic(shift(1, 1), "the text nests too deeply", code="SR705"))
            raise RulesSyntaxError(found) from None
        except (UnexpectedInput, _ReservedWord, DedentError) as error:
            diagnostic, line = _diagnose(error, text, shift)
            if diagnostic not in found:
                found.append(diagnostic)
            mended = None
            attempts = sum(tried.values())
            if line is not None and len(found) < MAX_SYNTAX_ERRORS and attempts < 2 * MAX_SYNTAX_ERRORS \
                    and tried.get(line, 0) < 2 and len(text) <= MAX_RECOVERED_BYTES:
                tried[line] = tried.get(line, 0) + 1
                misplaced = diagnostic.code == "SR302"  # a block indented by mistake: all of it
                mended = _leave_out(text, line, start, tried[line] == 2 or misplaced, skipped, misplaced)
            if mended is None:
                raise RulesSyntaxError(found) from None
            text = mended


def _diagnose(error: Exception, text: str, shift: Shift) -> tuple[Diagnostic, int | None]:
    """A parse error's diagnostic, and the line to leave out to look for the next error."""
    if isinstance(error, _ReservedWord):
        token = error.token
        change = next(c for c in editions.CHANGES if token.value in c.words)
        return Diagnostic(shift(token.line, token.column), f"{token.value!r} is a keyword and cannot be a name",
                          f"choose another name, such as {editions.RENAMED.format(word=token.value)}",
                          code=change.code), token.line
    if isinstance(error, DedentError):
        line, col = _bad_dedent(text)
        return Diagnostic(shift(line, col), "this line's indentation matches no enclosing block",
                          "indent it like the block it belongs to"), line
    diagnostic, line = _syntax_error(error, text, shift)
    if line is not None and diagnostic.code == "SR301":
        lines = text.split("\n")
        first, last = _statement_lines(lines, line - 1)
        spelling = statement_hint(" ".join(lines[i].strip() for i in range(first, last + 1)))
        if spelling:
            diagnostic = replace(diagnostic, hint=spelling)
    return diagnostic, line


def _leave_out(text: str, line: int, start: str, whole_block: bool, words: set[str],
               misplaced: bool = False) -> str | None:
    """`text` with the statement on `line` (all its lines, when brackets carry it over several)
    made harmless, its words added to `words`. A statement becomes `pass`, a block's header
    `if true:` (its block is still read); with `whole_block` the header and its whole block
    become one `pass`. A declaration at the top of a rules file is blanked with its block. Line
    numbers do not change. A `misplaced` (wrongly indented) line is blanked with the lines
    indented like it or deeper. None when there is nothing to leave out (or an expression)."""
    lines = text.split("\n")
    if start == "expression" or not 1 <= line <= len(lines):
        return None
    first, last = _statement_lines(lines, line - 1)
    code = " ".join(lines[i].split("#", 1)[0].strip() for i in range(first, last + 1))
    if not code:
        return None
    indent = len(lines[first]) - len(lines[first].lstrip(" \t"))
    following = next((lines[i] for i in range(last + 1, len(lines)) if lines[i].split("#", 1)[0].strip()), "")
    header = code.endswith(":") or _width(following) > indent  # a header that lost its ':' too
    declaration = start == "ruleset" and indent == 0
    if whole_block or (header and declaration):
        while last + 1 < len(lines) and (not lines[last + 1].strip() or _width(lines[last + 1]) > indent
                                         or (misplaced and _width(lines[last + 1]) >= indent)):
            last += 1
    for i in range(first, last + 1):
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", lines[i].split("#", 1)[0]))
        lines[i] = ""
    if not declaration and not misplaced:
        lines[first] = " " * indent + ("if true:" if header and not whole_block else "pass")
    return "\n".join(lines)


def _width(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _statement_lines(lines: list[str], index: int) -> tuple[int, int]:
    """The first and last line (0-based) of the statement that holds line `index`: brackets left
    open carry a statement over the next lines."""
    depth_before = []
    depth = 0
    for text in lines:
        depth_before.append(depth)
        code = text.split("#", 1)[0]
        depth = max(0, depth + code.count("(") + code.count("[") + code.count("{")
                    - code.count(")") - code.count("]") - code.count("}"))
    first = index
    while first > 0 and depth_before[first] > 0:
        first -= 1
    last = index
    while last + 1 < len(lines) and depth_before[last + 1] > 0:
        last += 1
    return first, last


def parse_rules(text: str, path: str, edition: int = editions.CURRENT,
                notes: list[Diagnostic] | None = None) -> s.RulesFile:
    """Parse a whole rules file, written in the language's `edition` (warnings to `notes`)."""
    return _parse(text, "ruleset", Shift(path), edition, notes)


def parse_effect(text: str, path: str, line: int, col: int, block: bool = False,
                 edition: int = editions.CURRENT, notes: list[Diagnostic] | None = None) -> s.Block:
    """Parse a card's effect text found at `line`, `col` (1-based) of a YAML file; `block` when it
    is a block scalar, whose every line is indented by `col - 1` in the file."""
    return _parse(text, "effect", Shift(path, line - 1, col - 1, block), edition, notes)


def parse_expression(text: str, path: str, line: int, col: int, block: bool = False,
                     edition: int = editions.CURRENT, notes: list[Diagnostic] | None = None):
    """Parse one expression (a card's condition or value) found at `line`, `col` of a YAML file."""
    return _parse(text.strip(), "expression", Shift(path, line - 1, col - 1, block), edition, notes)
