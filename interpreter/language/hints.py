"""Hints for the mistakes designers make most: the words they bring from other languages.

Two data tables, each entry one line: the names of functions other languages use for what a
standard function of ours does (`length` -> `size`), and the statement forms of other languages
(`x += 1`) with the statement that says it here (`add 1 to x`). `suggest` adds the first to the
close names difflib finds; the parser gives the second as the hint of a syntax error.
"""
from __future__ import annotations

import difflib
import re

# A name other languages give a function -> the standard function that does it here. A name is
# looked up here when it is unknown, and its misspellings too (`lenght` is close to `length`).
SYNONYMS: dict[str, str] = {
    "length": "size",
    "len": "size",
    "count": "size",
    "size_of": "size",
    "number_of": "size",
    "total": "sum",
    "minimum": "min",
    "maximum": "max",
    "sort": "sorted",
    "distinct": "unique",
    "is_empty": "empty",
    "concat": "flatten",
    "absolute": "abs",
}

_TARGET = r"(?P<target>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\[[^\]]*\])*)"
_DOTTED = r"(?P<target>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[[^\]]*\])+)"  # a field or an index, not a plain name

# A statement of another language (a regular expression over the whole statement, stripped) ->
# the statement that says it in the rules language, filled with the expression's groups.
STATEMENT_FORMS: tuple[tuple[str, str], ...] = (
    (rf"^{_TARGET}\s*\+=\s*(?P<value>.+)$", "add {value} to {target}"),
    (rf"^{_TARGET}\s*-=\s*(?P<value>.+)$", "subtract {value} from {target}"),
    (rf"^{_TARGET}\s*\+\+$", "add 1 to {target}"),
    (rf"^{_TARGET}\s*--$", "subtract 1 from {target}"),
    (rf"^\+\+\s*{_TARGET}$", "add 1 to {target}"),
    (rf"^{_DOTTED}\s*=\s*(?P<value>[^=].*)$", "set {target} to {value}"),
    (rf"^set\s+{_TARGET}\s*=\s*(?P<value>[^=].*)$", "set {target} to {value}"),
    (r"^else\s+if\s+(?P<condition>.+):$", "elif {condition}:"),
    (r"^for\s+(?!each\b)(?P<name>[A-Za-z_]\w*)\s+in\s+(?P<rest>.+):$", "for each {name} in {rest}:"),
    (r"^if\s+(?P<condition>.+?)\s+then:?$", "if {condition}:"),
)


def statement_hint(statement: str) -> str:
    """The statement of the rules language that says what `statement` (written as another
    language would) means; "" when none of the forms fits."""
    text = statement.split("#", 1)[0].strip()
    for pattern, spelling in STATEMENT_FORMS:
        match = re.match(pattern, text)
        if match:
            return f"write `{spelling.format(**match.groupdict())}`"
    return ""


def suggest(name: str, candidates: list[str]) -> str:
    """`did you mean 'x'?`: the candidates closest to `name`, the function other languages'
    name stands for first (`length`, `lenght` -> `size`); "" when none is close."""
    close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    meant = SYNONYMS.get(name) or next(iter(SYNONYMS[k] for k in difflib.get_close_matches(
        name, list(SYNONYMS), n=1, cutoff=0.75)), None)
    if meant is not None and meant in candidates and meant != name:
        close = [meant] + [c for c in close if c != meant][:2]
    return f"did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
