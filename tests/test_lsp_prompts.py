"""The language server flags a prompt's unreadable braces as the designer types (issue 24): the
quick check of `snowrules lsp` (cli/lsp.py `syntax_problems`, published at each change before the
whole check) reports a lone `{` or `}` and empty braces with SR214 at the brace, as `validate`
does (language/prompt_text.py finds them while the file is parsed). The ranges are LSP's (0-based
lines and columns), worked out by hand: the prompt's text starts at column 65 of line 4 (1-based),
after `    ask first(players) to choose c from first(players).hand as "` (64 characters)."""
from __future__ import annotations

from pathlib import Path

import pytest
from snowrules.cli.lsp import lsp_range, syntax_problems

RULES = """game "G"
zone hand per player hidden
setup:
    ask first(players) to choose c from first(players).hand as "{prompt}"
"""

# (the prompt as written, the edition, what the quick check flags: (range, code, message), or nothing)
CASES = [
    ("keep } a card", 3, ((3, 69, 3, 70), "SR214", "a lone '}' in a prompt")),
    ("keep {c.name", 3, ((3, 69, 3, 70), "SR214", "a '{' that no '}' closes in a prompt")),
    ("keep {} a card", 3, ((3, 69, 3, 70), "SR214", "empty braces in a prompt")),
    ("keep a card {", 3, ((3, 76, 3, 77), "SR214", "a '{' that no '}' closes in a prompt")),
    ("keep {{ and }} a card", 3, None),                      # braces themselves
    ("keep {first(players).score} points", 3, None),         # a value: its names are checked by the whole check
    ("keep } a card", 2, None),                              # edition 2: plain text (a warning, not as you type)
]


@pytest.mark.parametrize("prompt, edition, expected", CASES,
                         ids=["lone close", "unclosed", "empty", "unclosed at the end", "doubled", "a value",
                              "edition 2"])
def test_a_prompts_braces_are_flagged_as_you_type(tmp_path: Path, prompt, edition, expected):
    (tmp_path / "ruleset.yaml").write_text(f"name: g\nlanguage: {edition}\n", encoding="utf-8")
    path = tmp_path / "rules.sr"
    text = RULES.format(prompt=prompt)
    found = syntax_problems(text, path, tmp_path)
    assert [(lsp_range(d, text), d.code, d.message) for d in found] == ([expected] if expected else [])

