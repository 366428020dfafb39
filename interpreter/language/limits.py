"""The bounds that make a ruleset nobody here wrote safe to validate and run.

Each limit is far above what the bundled games use (the largest: a few hundred components, a
few thousand YAML nodes per file, blocks nested six deep, some tens of thousands of steps per
game) and far below what exhausts a machine. `docs/language.md` ("Limits") lists them with the
code each refusal carries; a test plants each hostile input and checks it is refused in 5 s and
500 MB.
"""
from __future__ import annotations

from collections.abc import Callable

from snowrules.language.diagnostics import Position, RuntimeRulesError

MAX_FILE_BYTES = 2_000_000     # SR701: any file the ruleset reads (YAML, rules, schema)
MAX_YAML_NODES = 200_000       # SR702: nodes of one YAML file, every alias expanded
MAX_YAML_TEXT_NODES = 20_000   # SR704: nodes written in one YAML file (the bundled: 1,593 at most), as read
MAX_YAML_DEPTH = 64            # SR705: maps and lists nested in one YAML file
MAX_COPIES = 10_000            # SR703: `count` of one component entry
MAX_COMPONENTS = 100_000       # SR703: every copy of every component, for the most players
MAX_GENERATED = 10_000         # SR703: entries one `generate:` entry of a component list makes (a 52-card deck: 52)
MAX_LIST = 1_000_000           # SR704: items of one list or range, dice of one roll
MAX_BLOCK_DEPTH = 64           # SR705: blocks nested in the rules (if inside for inside ...)
MAX_STEPS = 5_000_000          # SR706: statements, loop rounds and draws of one game
MAX_REACTION_DEPTH = 16        # SR707: reactions that raise events whose reactions raise ... (a chain)
MAX_FREE_ACTIONS = 1_000       # SR706: free actions taken at one decision before it is answered
MAX_FREE_OPTIONS = 10_000      # SR704: free-action options offered at one decision (the bundled: tens)
MAX_GRID_REACH = 1_000         # SR708: a grid cell's x and y, and a square's dx and dy, within +-this
MAX_BOARD_CELLS = 10_000       # SR708: cells of one bounded grid zone (`grid W by H`, or the rectangle that
                               # holds `grid of NAME`'s squares; Othello's: 64): also the squares of one
                               # component, checked as it is read (its use, board or tile, is not known yet)
MAX_EXPRESSION_DEPTH = 64      # SR705: brackets ( [ { nested in the rules (the bundled: 4 at most)
MAX_STATEMENT_TOKENS = 1_000   # SR705: tokens of one statement or declaration line (the bundled: under 200)
MAX_TREE_DEPTH = 200           # SR705: levels of a rules file's parse tree (64 nested blocks: 132; the bundled: 20)
MAX_ZONE_FAMILY = 10_000       # SR704: zones of one family (`zone row[1..N]`; the bundled: 23 at most)
MAX_SQUARES = 100              # SR740: squares of one tile, a component placed on a grid (the bundled: 3 at most)
MAX_VARIANTS = 100             # SR704: variants of one ruleset (validate checks each; the bundled: 2 at most)
MAX_LOG_LINE_BYTES = 1_000_000  # SR802: one line of a game log (the bundled games' longest: a few hundred)
MAX_LOG_BYTES = 20_000_000     # SR802: a whole game log (the bundled games': under 100 KB)
MAX_NUMBER = 10**18             # SR711: a whole number written (rules, YAML, a log) or made by `*`, within +-this
MAX_JSON_DEPTH = 64            # SR705: lists and objects nested in one log line (a log's events: 2)


def number_too_large(digits: str) -> bool:
    """Whether a whole number written as decimal `digits` (a sign allowed) lies beyond
    MAX_NUMBER, decided without converting a long text: Python refuses to convert more than
    4,300 digits, and converting a million takes seconds."""
    digits = digits.lstrip("+-").lstrip("0")
    return len(digits) > len(str(MAX_NUMBER)) or int(digits or "0") > MAX_NUMBER


def excerpt(text: str, keep: int = 24) -> str:
    """`text`, or its first `keep` characters and how long it is: a message quotes no more."""
    return text if len(text) <= keep else f"{text[:keep]}... ({len(text):,} characters)"


def refusal_of_large_number(position: Position, what: str, grows: str = "x = x + x") -> Callable[[], None]:
    """What a generated statement calls when the whole number it stores (`what`: "this sum",
    "the new value of the counter") lies beyond MAX_NUMBER; `grows` is the rule the hint shows
    as the likely cause (a product's: `x = x * x`). The bound is checked where a number
    is stored (a variable set, a counter changed) by an inline comparison, not at each `+`: the
    hottest generated code pays one comparison per store, and a number that doubles each round
    of a loop (`x = x + x`) is refused at its 61st round, at its own place."""
    def refuse() -> None:
        raise RuntimeRulesError.at(position, f"{what} is larger than {MAX_NUMBER:,}",
                                   f"a number that grows each round of a loop ({grows})?", code="SR711")
    return refuse


def stored_number(value: object) -> str:
    """What a refusal calls the number a rule stores: the syntax node `value`'s sum or difference
    (`x = x + x` in a loop doubles it), else "this number"."""
    return {"+": "this sum", "-": "this difference"}.get(getattr(value, "op", ""), "this number")


def bound_line(value: str, refuse: str) -> str:
    """The generated line refusing `value` (a local of generated text holding a whole number)
    beyond MAX_NUMBER by calling `refuse` (the name bound to a `refusal_of_large_number`)."""
    return f"if not {-MAX_NUMBER} <= {value} <= {MAX_NUMBER}: {refuse}()"
