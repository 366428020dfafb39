"""The stable codes of diagnostics: one code for each kind of mistake, so that CI annotations,
SARIF results and a designer's search all name a problem the same way across releases.

A check may give its diagnostic a code outright; a diagnostic created without one is classified
here by what its message says and where it stands (a rules file, a scenario, a YAML file). The
catalogue is data: `docs/diagnostics.md` documents each code with an example, and a test checks
that the two agree. Codes are never reused for another meaning.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """One kind of mistake: its code, a short name (as SARIF's rule name) and what it means."""

    code: str
    name: str
    summary: str


CATALOGUE: tuple[Code, ...] = (
    Code("SR101", "file-not-found", "a file the manifest or a variant names is not there"),
    Code("SR102", "file-unreadable", "a file cannot be read: a folder, not UTF-8 text, no permission"),
    Code("SR103", "yaml-syntax", "a YAML file does not parse"),
    Code("SR104", "yaml-indentation", "a YAML line is indented where no block is open"),
    Code("SR105", "unlisted-file", "a YAML file inside the ruleset folder that no manifest or variant lists"),
    Code("SR106", "outside-folder", "a path leads outside the ruleset folder (absolute, `..` or a symlink)"),
    Code("SR107", "yaml-duplicate-key", "a YAML map repeats a key"),
    Code("SR121", "edition-copies", "`count: N` for an entry's copies, as edition 1 wrote it (`copies: N` since "
         "edition 2)"),
    Code("SR122", "reserved-word", "a reserved word of the language used as a name (in edition 1: a name that "
         "edition 2 reserves, a warning)"),
    Code("SR123", "edition-missing", "a manifest without `language:`: read as the first edition (a note)"),
    Code("SR124", "edition-prompt-braces", "a brace in a decision's prompt: plain text in editions 1 and 2 (a "
         "warning), a value's braces from edition 3 on (`{{` for a brace itself)"),
    Code("SR125", "reserved-word-3", "`remembered` used as a name (reserved from edition 3; in editions 1 and 2, "
         "a warning)"),
    Code("SR201", "unknown-field", "a YAML map has a field its schema does not know (often a misspelling)"),
    Code("SR202", "missing-field", "a YAML map lacks a field its schema requires"),
    Code("SR203", "wrong-type", "a YAML value is of the wrong type (a text for a number, ...)"),
    Code("SR204", "schema-violation", "a YAML value breaks another rule of its schema (a range, a pattern, ...)"),
    Code("SR205", "duplicate-entry", "a component, constant, table or option is defined twice"),
    Code("SR206", "unknown-schema", "a component file names a schema that does not exist or is not valid"),
    Code("SR207", "bad-option", "an option's default, choices or range do not agree"),
    Code("SR208", "unknown-variant", "a variant that the manifest does not declare"),
    Code("SR209", "reserved-field", "a card sets a field that snowrules sets itself (owner, id)"),
    Code("SR210", "invisible-character", "a name holds a bidirectional control, a zero-width or invisible character"),
    Code("SR211", "look-alike-names", "two names differ only by characters that look alike (a warning)"),
    Code("SR212", "bad-generate", "a `generate:` entry of a component list cannot make its entries: a bad range "
         "or list of values, a name template naming no generated field, an override that matches nothing"),
    Code("SR213", "bad-label", "a component list's `label:` template cannot be read, or names a value that is "
         "not a field or counter of every entry"),
    Code("SR214", "bad-prompt", "a decision's prompt or its options' text cannot be read: a lone brace, empty "
         "braces, an empty text, or a value the decision cannot show (its own answer, in its prompt)"),
    Code("SR301", "rules-syntax", "rules text (a rules file or an effect in YAML) does not follow the grammar"),
    Code("SR302", "rules-indentation", "a rules line's indentation matches no enclosing block"),
    Code("SR401", "unknown-name", "a name (zone, counter, field, variable, procedure, function) is not declared"),
    Code("SR402", "wrong-kind", "a value of the wrong kind for where it is used (a text for a number, ...)"),
    Code("SR403", "argument-count", "a procedure or function called with the wrong number of arguments"),
    Code("SR404", "recursion", "a procedure or function calls itself"),
    Code("SR405", "defined-twice", "a name of the rules is declared twice or clashes with another"),
    Code("SR406", "game-structure", "the rules lack a part every game needs (a turn structure, an end)"),
    Code("SR407", "constant-comparison", "a comparison that is always true or always false"),
    Code("SR408", "position-ids", "a decision's options are numbered by position while the manifest declares "
         "action ids, none for them (a warning)"),
    Code("SR409", "swapped-arguments", "a call's arguments are named like the callee's parameters, two of them "
         "swapped (a warning)"),
    Code("SR410", "never-set-variable", "a variable no statement sets: it keeps its first value for the whole game "
         "(a warning)"),
    Code("SR499", "rules-check", "another mistake found when the rules are checked"),
    Code("SR501", "scenario-unknown-name", "a scenario names a seat, zone, card, counter or variant the ruleset lacks"),
    Code("SR502", "scenario-invalid", "a scenario cannot be set up or run as written"),
    Code("SR503", "scenario-expectation", "a scenario's expectation is not met (a counter, a zone, the winners, ...)"),
    Code("SR601", "runtime-failure", "a seeded smoke game stopped with an error at a rule"),
    Code("SR602", "game-does-not-end", "a smoke game did not end within its step or time bound"),
    Code("SR701", "file-too-large", "a file is larger than the size limit"),
    Code("SR702", "yaml-alias-expansion", "YAML aliases expand to more nodes than the limit"),
    Code("SR703", "too-many-copies", "a component's count, or all copies together, exceed the limit"),
    Code("SR704", "list-too-large", "a list, range, roll, repeat count, zone family, the "
         "variants, a free action's options or a YAML file's nodes exceed their size limit"),
    Code("SR705", "nesting-too-deep", "rules, YAML or a log line nest deeper than the limit"),
    Code("SR706", "step-budget", "a game ran more steps (statements, loop rounds, draws) than its budget"),
    Code("SR707", "reaction-depth", "reactions raised events whose reactions raised more, deeper than the limit"),
    Code("SR708", "grid-too-large", "a square or a placement lies farther from a grid's origin than the limit, "
         "or a board (or a component's squares) has more cells than a board may"),
    Code("SR709", "time-limit", "a game ran longer than its time limit in CPU time (--time-limit), or its setup "
                                "than 5 s"),
    Code("SR710", "out-of-memory", "a command needed more address space than it allows itself (SNOWRULES_MEMORY_MB)"),
    Code("SR711", "number-too-large", "a whole number written in the rules, YAML or a log, made by `*`, or stored "
         "in a variable or counter, lies beyond +-10**18"),
    Code("SR720", "board-size-unknown", "a bounded grid zone's side names no constant or option, or one whose value "
         "is not a whole number"),
    Code("SR721", "board-shape-invalid", "`grid of NAME` names no component, one without `squares:`, or one with a "
         "square west or south of (0,0)"),
    Code("SR730", "unread-payment-text", "a payment that never asks its payer has a text (`as \"...\"`): it is never "
         "shown (a warning)"),
    Code("SR731", "component-counter-text", "a counter on components has a text (`as \"...\"`): it reads as part "
         "of its component's label"),
    Code("SR740", "tile-too-large", "a tile (a component with squares that no `grid of` names), or a board "
         "placed on a grid as a tile, has more squares than a tile may"),
    Code("SR750", "result-reading-kind", "the manifest's `result:` title is not a text (or none), or a "
         "tie-breaker is not a number"),
    Code("SR751", "tie-breaks-undeclared", "`tie_broken(...)` is called in a ruleset whose manifest declares no "
         "`result: tie_breaks:`"),
    Code("SR801", "log-invalid", "a game log cannot be read or replayed"),
    Code("SR802", "log-too-large", "a game log's line, or the whole log, is longer than the limit"),
    Code("SR901", "other", "a problem of no other kind"),
)

BY_CODE = {c.code: c for c in CATALOGUE}

# Diagnostics made without a code: the first pattern its message matches gives the code.
_BY_MESSAGE: tuple[tuple[str, re.Pattern], ...] = tuple((code, re.compile(pattern)) for code, pattern in (
    ("SR106", r"outside the ruleset folder"),
    ("SR701", r"larger than \d+ bytes"),
    ("SR705", r"nests? too deeply|nested more than"),
    ("SR706", r"did not end within|this loop ran more than|more than \d+ steps"),
    ("SR704", r"more than \d+ (items|dice|times|elements)"),
    ("SR708", r"farther than \d+ cells from"),
    ("SR101", r"^file not found"),
    ("SR102", r"^(cannot read|not UTF-8|is a folder)"),
    ("SR107", r"found duplicate key"),
    ("SR104", r"YAML syntax: .*(mapping values are not allowed|could not find expected ':'|"
              r"expected <block end>)"),
    ("SR103", r"^YAML syntax"),
    ("SR201", r"unknown field"),
    ("SR202", r"is a required property"),
    ("SR203", r"is not of type"),
    ("SR208", r"unknown variant"),
    ("SR205", r"is defined twice|is listed twice|has the name of a constant"),
    ("SR206", r"unknown schema|schema is not valid JSON"),
    ("SR209", r"is set by snowrules"),
    ("SR207", r"^option "),
    ("SR302", r"indentation matches no enclosing block"),
    ("SR404", r"calls itself"),
    ("SR403", r"takes \d+ argument"),
    ("SR407", r"is always (true|false)"),
    ("SR405", r"already defined|a second `|repeats a key|has the name of"),
    ("SR406", r"ha(s|ve) no `each turn|finished without `end game`|end the `at game end"),
    ("SR401", r"^unknown |has no |no component has|no table row|does not exist|no zone or counter|"
              r"no row of"),
    ("SR402", r" must be |is a procedure|is a definition|gives a value|cannot be indexed|only components move|"
              r"nothing to move|needs the field's name|takes a list"),
))


def classify(message: str, path: str) -> str:
    """The code of a diagnostic made without one, from its message and its file."""
    in_scenario = "/scenarios/" in f"/{path}"
    for code, pattern in _BY_MESSAGE:
        if pattern.search(message):
            if in_scenario and code in ("SR401", "SR208"):
                return "SR501"
            return code
    if in_scenario:
        return "SR502"
    if path.endswith(".jsonl"):
        return "SR801"
    if path.endswith(".sr"):
        return "SR499"
    if path.endswith((".yaml", ".yml")):
        return "SR204"
    return "SR901"
