"""Rules texts generated from the grammar itself (issue 29 §6): a random derivation over the rules
of `grammar.lark`, seeded, rendered with the indentation its `_NL`, `_INDENT` and `_DEDENT`
tokens stand for.

Hypothesis's `from_lark` cannot produce those indentation tokens (the grammar declares them; a
post-lexer makes them), so this walks Lark's own analysed rules: every declaration and statement
of the language is reached as the grammar spells it, and a change of the grammar is followed
without a change here. A derivation deeper than `depth` takes, at each choice, an expansion that
ends soonest (each nonterminal's least height is worked out first); above it, expansions of more
parts are likelier, so that a text holds several declarations and statements. Names are drawn from a small
pool shared by the declarations and the uses, so that many texts get past name resolution into
the kind checks and the code generation, where internal errors hide.

`python tests/rules_generator.py SEED` prints one text.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lark import Lark
from lark.grammar import NonTerminal

GRAMMAR = Path(__file__).resolve().parent.parent / "interpreter" / "language" / "grammar.lark"
# Names the generated declarations declare and their uses use, Goofspiel's (the ruleset they are
# compiled against), the built-in ones and the standard library's.
NAMES = ("a", "b", "p", "q", "c", "x", "n", "hand", "bid", "played", "won", "prize", "point_deck", "score",
         "players", "player", "player_count", "box", "turn", "num_cards", "size", "max", "min", "sum", "first",
         "last", "sorted", "flatten", "ratio", "abs", "count", "next_player", "action", "actions", "kind", "value",
         "owner", "name", "f", "g", "ping")
SLACK = 3  # past the depth, a part may be this much higher than the least height of its whole
TEXTS = ('""', '"win"', '"a b"', '"{x}"', '"ascending"')
COMPARE = ("==", "!=", "<", "<=", ">", ">=")


# Words the grammar reads as names and the parser checks (see grammar.lark's comments), by the
# rule (or its alias) and the place in it: `per player`, `per component of kind K`, `each turn:`,
# `free action`, `offer free actions`, `pay at least`, `from moves`, `turn c by 90`.
CONTEXT_WORDS = {("per_player", 1): "player", ("per_component_of_kind", 1): "component",
                 ("per_component_of_kind", 2): "of", ("per_component_of_kind", 3): "kind", ("each_turn", 1): "turn",
                 ("free_action_decl", 1): "action", ("offer_free_stmt", 2): "actions", ("pay_at_least", 1): "least",
                 ("moves_source", 1): "moves", ("turn_piece_stmt", 0): "turn"}
# The names a call calls: the standard library's functions and the two the texts may define (a
# name from the whole pool would nearly always be unknown, and the compiler would spend its time
# suggesting a spelling).
CALLED = ("call", 0), ("call_stmt", 0)
DEFINED = ("f", "g")


@dataclass(frozen=True)
class _Expansion:
    """One expansion of a nonterminal: its parts as (is a nonterminal, name, the word a checked
    name must be, or None), its height and its weight below the depth."""

    parts: tuple[tuple[bool, str, str | None], ...]
    height: int
    weight: int


@lru_cache(maxsize=1)
def _grammar() -> tuple[dict[str, list[_Expansion]], dict[str, str], dict[str, int]]:
    """(expansions by nonterminal name, terminal texts by name, least height of each nonterminal)."""
    lark = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", start="ruleset", maybe_placeholders=True)
    raw: dict[str, list[tuple[str, list]]] = {}
    for rule in lark.rules:
        raw.setdefault(rule.origin.name, []).append((rule.alias or rule.origin.name, list(rule.expansion)))
    texts = {t.name: t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
    height: dict[str, int] = {}
    changed = True
    while changed:  # a fixed point: a nonterminal's height is 1 + its best expansion's highest part
        changed = False
        for name, expansions in raw.items():
            for _, expansion in expansions:
                parts = [height.get(s.name) if isinstance(s, NonTerminal) else 0 for s in expansion]
                if None not in parts:
                    h = 1 + max(parts, default=0)
                    if h < height.get(name, 1 << 30):
                        height[name], changed = h, True
    rules = {name: [_Expansion(tuple((isinstance(s, NonTerminal), s.name,
                                      "CALLED" if (owner, i) in CALLED else CONTEXT_WORDS.get((owner, i)))
                                     for i, s in enumerate(expansion)),
                               max((height[s.name] for s in expansion if isinstance(s, NonTerminal)), default=0),
                               1 + 2 * sum(isinstance(s, NonTerminal) for s in expansion))
                    for owner, expansion in expansions]
             for name, expansions in raw.items()}
    return rules, texts, height


@lru_cache(maxsize=1)
def _functions() -> tuple[str, ...]:
    import snowrules.compile.stdlib  # noqa: F401 - the standard library registers itself
    import snowrules.compile.stdlib_grid  # noqa: F401
    from snowrules.compile.library import REGISTRY
    return tuple(sorted(REGISTRY)) + DEFINED * 4


def _terminal(name: str, texts: dict, rng: random.Random) -> str:
    if name in texts:
        return texts[name]
    if name == "NAME":
        return rng.choice(NAMES)
    if name == "INT":
        return str(rng.choice((0, 1, 2, 3, 13, rng.randrange(1000), 10**18)) if rng.random() < 0.98 else 10**19)
    if name == "STRING":
        return rng.choice(TEXTS)
    if name == "COMPARE":
        return rng.choice(COMPARE)
    if name == "GRID_SHAPE":  # a board's shape: its sides numbers or names, or a component's squares
        width, height = (rng.choice((str(rng.choice((0, 1, 3, 8, 2000))), rng.choice(NAMES))) for _ in range(2))
        shape = f"of {rng.choice(NAMES)}" if rng.random() < 0.3 else f"{width} by {height}"
        return f"grid {shape}{' hex' if rng.random() < 0.3 else ''}"
    raise KeyError(name)


def tokens(seed: int, depth: int = 6, start: str = "ruleset") -> list[str]:
    """The terminals of one random derivation of `start`, indentation tokens included."""
    rules, texts, height = _grammar()
    called = _functions()
    rng = random.Random(seed)
    out: list[str] = []
    stack: list[tuple[bool, str, str | None, int, int]] = [(True, start, None, 0, 1 << 30)]
    while stack:
        nonterminal, name, word, level, limit = stack.pop()
        if not nonterminal:
            if word == "CALLED":
                word = rng.choice(called)
            out.append(word or (name if name in ("_NL", "_INDENT", "_DEDENT") else _terminal(name, texts, rng)))
            continue
        if level == depth:  # past the depth, every part is lower than its whole: the text ends
            limit = height[name] + SLACK
        expansions = [e for e in rules[name] if e.height < limit]
        # below the depth, richer expansions first: more declarations, statements, arguments
        expansion = rng.choices(expansions, [e.weight for e in expansions] if level < depth else None)[0]
        stack.extend((*part, level + 1, limit - 1) for part in reversed(expansion.parts))
    return out


def render(parts: list[str]) -> str:
    """The text of a token list: `_NL` ends a line, `_INDENT` and `_DEDENT` change the level of
    the lines after it (a line is indented by the level at its first word)."""
    lines: list[str] = []
    line: list[str] = []
    level = indent = 0
    for part in parts:
        if part == "_NL":
            if line:
                lines.append("    " * indent + " ".join(line))
            line = []
        elif part == "_INDENT":
            level += 1
        elif part == "_DEDENT":
            level -= 1
        else:
            if not line:
                indent = level
            line.append(part)
    if line:
        lines.append("    " * indent + " ".join(line))
    return "\n".join(lines) + "\n"


def rules_text(seed: int, depth: int = 6) -> str:
    """One generated rules file."""
    return render(tokens(seed, depth))


if __name__ == "__main__":
    print(rules_text(int(sys.argv[1]) if len(sys.argv) > 1 else 0), end="")
