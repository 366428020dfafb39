"""Names a person can trust: the characters refused in a name, and names that look alike.

A name (a seat, a component, a variant, an option; the rules' own names are plain ASCII by the
grammar) is printed to players, into logs and JSON. A bidirectional control can make it display
reversed (`"a\\u202edcba"` shows as `aabcd`), and a zero-width or other invisible character can
make two different names look the same. Such characters are refused with the code point named
(SR210); names that differ only by characters that look alike (Latin `a` and Cyrillic `а`)
are warned about (SR211), with Unicode's table of confusables from `confusable-homoglyphs`.
"""
from __future__ import annotations

import unicodedata

# Default-ignorable code points (Unicode's DerivedCoreProperties) that are not of a category
# refused anyway (Cf, Cn): invisible, they change no glyph a reader sees.
_INVISIBLE_LETTERS_AND_MARKS = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180D), (0x180F, 0x180F),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE01EF),
)
# Categories refused: controls, format characters (bidirectional controls, zero-width joiners,
# soft hyphen, ...), surrogates, private use, unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible format character",
                       "Cs": "a surrogate", "Co": "a private-use character", "Cn": "an unassigned code point",
                       "Zl": "a line separator", "Zp": "a paragraph separator"}


def describe(char: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`: a code point as the Unicode standard names it."""
    code = ord(char)
    return f"U+{code:04X} {unicodedata.name(char, '(no name)')}"


def refused_character(name: str) -> tuple[int, str] | None:
    """The first character of `name` no name may hold, as (its index, why), or None."""
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        code = ord(char)
        if category in _REFUSED_CATEGORIES:
            return index, f"{describe(char)}, {_REFUSED_CATEGORIES[category]}"
        if category == "Zs" and char != " ":
            return index, f"{describe(char)}, a space other than the plain space"
        if any(low <= code <= high for low, high in _INVISIBLE_LETTERS_AND_MARKS):
            return index, f"{describe(char)}, an invisible character"
    return None


NAME_HINT = ("names are shown to players: a bidirectional control, a zero-width or another invisible "
             "character can make a name display reversed or two names look the same")


def name_problem(name: str, what: str) -> str | None:
    """The message refusing `name` (a `what`: "seat name", "component name", ...), or None."""
    found = refused_character(name)
    if found is None:
        return None
    index, why = found
    return f"the {what} {ascii(name)} holds {why} (character {index + 1})"


def skeleton(name: str) -> str:
    """`name` with every character replaced by one standing for all the characters it may be
    confused with (Unicode's confusables, through the `confusable-homoglyphs` library): two names
    with the same skeleton look alike."""
    from confusable_homoglyphs import confusables  # loaded when names are first compared
    shown = []
    for char in unicodedata.normalize("NFKC", name):
        if char not in _SKELETON:
            found = confusables.is_confusable(char, greedy=True, preferred_aliases=[])
            alike = [h["c"] for h in found[0]["homoglyphs"] if len(h["c"]) == 1] if found else []
            _SKELETON[char] = min([char, *alike])  # one character stands for all that look like it
        shown.append(_SKELETON[char])
    return "".join(shown)


_SKELETON: dict[str, str] = {}


def look_alike(names: list[str]) -> list[tuple[str, str]]:
    """Pairs (earlier, later) of distinct names that differ only by confusable characters."""
    first: dict[str, str] = {}
    pairs = []
    for name in names:
        key = skeleton(name)
        if key in first and first[key] != name:
            pairs.append((first[key], name))
        first.setdefault(key, name)
    return pairs
