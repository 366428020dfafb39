"""The editions of the rules language: which edition a ruleset is written in, and the table of
every change of meaning since the first.

A ruleset's manifest names its edition (`language: 2`); without the key it is of the first
edition, the language before editions were named. Each change below is one row of data: the
edition that made it, its diagnostic code, the old spelling and the new. The readers look a
spelling up here: in a ruleset of an edition before the change, the old spelling keeps its old
meaning and gets a warning with the rewrite; in a ruleset of the change's edition or later, it is
refused at its place with the rewrite as the hint. `snowrules upgrade` applies the rewrites
(cli/upgrade.py), docs/language.md's "Editions" section shows each row with an example, and a
test checks that every keyword the grammar can read where a name could stand is in a row, so a
new construct that takes a name away from designers needs a new edition.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from snowrules.language.diagnostics import Diagnostic, Position

FIRST = 1
CURRENT = 3
MANIFEST_KEY = "language"

# How a reserved word used as a name is renamed (by `upgrade` and in the hint).
RENAMED = "my_{word}"


@dataclass(frozen=True)
class Change:
    """One change of meaning: from `edition` on, `old` is spelt `new`.

    `kind` says where the spelling stands: "component key" (a key of a component list's entry),
    "reserved word" (a word of the rules that can no longer be a name; `words` lists them) or
    "prompt braces" (a brace in a decision's `as "TEXT"`, which encloses a value from then on)."""

    edition: int
    code: str
    kind: str
    old: str
    new: str
    summary: str
    words: frozenset[str] = frozenset()


# The keywords the grammar can read where a name could also stand (so that `let dice = 2` and
# `roll 2 dice` cannot both be read): reserved from edition 2. The other words of the grammar
# (`winners`, `public`, `shared`, `secret`, `hidden`, `grid`, `random`, `optionally`, `by`,
# `with`) are keywords only where the grammar wants them and names everywhere else
# (language/parser.py, `reserved_words`, finds both from the grammar's tables).
RESERVED_IN_2 = frozenset("""
    add all and announce as ask at bottom choose constant counter define dice down during
    each elif else end event exactly false for free from game if in initially let move none
    not offer on or pass pay per phase raise reactions repeat reset resolve roll rounds
    secretly set setup shuffle sides subtract times to together true up using variable
    weighted when where while zone
""".split())

# `remembered as EXPR` after a decision's options (what its chooser remembers of the answer) can
# stand where a name could: reserved from edition 3.
RESERVED_IN_3 = frozenset({"remembered"})

CHANGES: tuple[Change, ...] = (
    Change(2, "SR121", "component key", "count", "copies",
           "an entry's number of copies is `copies: N`; `count` is an ordinary field"),
    Change(2, "SR122", "reserved word", "{word}", RENAMED,
           "a keyword the grammar can read where a name stands is reserved: it cannot be a name",
           RESERVED_IN_2),
    Change(3, "SR124", "prompt braces", "{", "{{",
           "a brace in a decision's prompt (`as \"TEXT\"`) encloses a value to show, `{c.name}`; "
           "a brace itself is written twice, `{{` and `}}`"),
    Change(3, "SR125", "reserved word", "{word}", RENAMED,
           "`remembered` (`ask p to choose c from X remembered as EXPR`) is reserved: it cannot be a name",
           RESERVED_IN_3),
)


@lru_cache(maxsize=8)  # asked for every name the lexer reads
def reserved_in(edition: int) -> frozenset[str]:
    """The words a ruleset of `edition` cannot use as names."""
    return frozenset().union(*(c.words for c in CHANGES if c.kind == "reserved word" and c.edition <= edition))


@lru_cache(maxsize=8)
def reserved_later(edition: int) -> dict[str, Change]:
    """The words free as names in `edition` but reserved by a later one, with their change."""
    return {w: c for c in CHANGES if c.kind == "reserved word" and c.edition > edition for w in c.words}


def edition_of(manifest: dict) -> int:
    """A manifest's edition (its schema has checked the value): the first without the key."""
    value = manifest.get(MANIFEST_KEY, FIRST)
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else FIRST



def missing_note(where: Position) -> Diagnostic:
    """The note at a manifest that names no edition: it is read as the first, and says so, since
    the first edition's spellings (`count:` for copies, keywords as names) keep their old meaning."""
    return Diagnostic(where, f"no `{MANIFEST_KEY}:` here: this ruleset is read as edition {FIRST} of the language "
                      f"(the current edition is {CURRENT})",
                      f"add `{MANIFEST_KEY}: {CURRENT}` once the edition warnings are fixed "
                      "(`snowrules upgrade` does both)", severity="note", code="SR123")
