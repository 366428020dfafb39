"""The Pygments lexer for the rules language (issue 10, part 5): found by name through its entry
point, by `pygmentize`, and clean (no error token) on every bundled rules file and every
```snowrules example of the docs."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pygments = pytest.importorskip("pygments", reason="the highlight extra (in the test extra) brings Pygments")
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace  # noqa: E402
from snowrules.language.highlight import SnowrulesLexer, grammar_keywords  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def tokens(text: str) -> list[tuple]:
    return [(kind, value) for kind, value in SnowrulesLexer().get_tokens(text) if kind is not Whitespace]


def test_pygments_finds_the_lexer_through_its_entry_point():
    assert type(get_lexer_by_name("snowrules")) is SnowrulesLexer
    assert type(get_lexer_for_filename("rules.sr")) is SnowrulesLexer


def test_pygmentize_highlights_a_rules_file():
    found = shutil.which("pygmentize", path=str(Path(sys.executable).parent)) or shutil.which("pygmentize")
    assert found, "pygmentize comes with Pygments"
    done = subprocess.run([found, "-l", "snowrules", "-f", "html", "rulesets/snow_time/rules.sr"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert '<span class="k">move</span>' in done.stdout
    assert '<span class="cs">[Setup, cs]</span>' in done.stdout


def test_a_line_in_tokens():
    assert tokens('move card to p.hand  # [B. Fight] at once\n') == [
        (Keyword, "move"), (Name, "card"), (Keyword, "to"), (Name, "p"), (Punctuation, "."),
        (Name.Attribute, "hand"), (Comment.Single, "# "), (Comment.Special, "[B. Fight]"),
        (Comment.Single, " at once"),
    ]
    assert tokens('counter score per player from 0\n') == [
        (Keyword.Declaration, "counter"), (Name.Variable, "score"), (Keyword, "per"), (Name, "player"),
        (Keyword, "from"), (Number.Integer, "0"),
    ]
    assert tokens('if size(x) >= 2 and not y == "a":\n') == [
        (Keyword, "if"), (Name.Function, "size"), (Punctuation, "("), (Name, "x"), (Punctuation, ")"),
        (Operator, ">="), (Number.Integer, "2"), (Operator.Word, "and"), (Operator.Word, "not"), (Name, "y"),
        (Operator, "=="), (String.Double, '"a"'), (Punctuation, ":"),
    ]
    assert tokens("x @ y\n")[1] == (Error, "@")


def test_every_word_of_the_grammar_is_a_keyword():
    grammar = (ROOT / "interpreter" / "language" / "grammar.lark").read_text(encoding="utf-8")
    quoted = set(re.findall(r'"([a-z_]+)"', grammar))
    assert set(grammar_keywords()) == quoted
    for word in quoted:
        kind = tokens(word + "\n")[0][0]
        assert kind in Keyword or kind is Operator.Word, (word, kind)


def _examples() -> list[tuple[str, str]]:
    found = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
             for path in sorted((ROOT / "rulesets").glob("*/*.sr"))]
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"```snowrules\n(.*?)```", text, re.S):
            found.append((f"{doc.relative_to(ROOT)}:{text[:match.start()].count(chr(10)) + 2}", match.group(1)))
    return found


@pytest.mark.parametrize("where, text", _examples(), ids=[w for w, _ in _examples()])
def test_rules_and_doc_examples_have_no_error_token(where, text):
    errors = [value for kind, value in SnowrulesLexer().get_tokens(text) if kind is Error]
    assert not errors, (where, errors)


def test_the_docs_highlight_their_rules_examples():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert text.count("```snowrules\n") >= 10
    assert "```text\n" not in text, "a rules example fenced as plain text is not highlighted"


def test_a_line_continued_after_a_backslash_has_no_error_token():
    # [Files and lines] "A line may continue after a `\` at its end" (spaces before the end too)
    found = tokens('pay 2 using p.res["ticket"] at 1, \\\n    p.res["snow"] at 2\nlet x = 1 + \\  \n    2\n')
    assert Error not in {kind for kind, _ in found}
    assert (Punctuation, "\\") in found
    assert tokens("x \\ y\n")[1] == (Error, "\\")  # not at a line's end: nothing of the language


def test_the_declarations_and_statements_of_events_costs_and_free_actions():
    assert tokens("event gained(p, k, n) from counter res\n")[:2] == [
        (Keyword.Declaration, "event"), (Name.Variable, "gained")]
    assert tokens("on gained(p, k, n) where n > 0:\n")[:2] == [(Keyword.Declaration, "on"), (Name.Function, "gained")]
    assert tokens("reactions from talents, shelf\n")[:3] == [
        (Keyword.Declaration, "reactions"), (Keyword, "from"), (Name, "talents")]
    assert tokens('free action "raise a die" for p, d in p.workers during main when d.value < 6:\n')[:6] == [
        (Keyword.Declaration, "free action"), (String.Double, '"raise a die"'), (Keyword, "for"), (Name, "p"),
        (Punctuation, ","), (Name, "d")]
    assert (Keyword, "during") in tokens("free action \"x\" for p during main:\n")
    assert tokens("offer free actions to p\n") == [(Keyword, "offer free actions"), (Keyword, "to"), (Name, "p")]
    assert tokens("raise hosted(p, c)\n")[:2] == [(Keyword, "raise"), (Name.Function, "hosted")]
    assert [kind for kind, word in tokens('pay 2 using p.res["ticket"] at 1 as cut\n') if word in (
        "pay", "using", "at", "as")] == [Keyword] * 4
    # the words stay names elsewhere: a zone called `actions`, a variable `action`
    assert tokens("move a to p.actions\n")[-1] == (Name.Attribute, "actions")
    assert tokens("let action = 1\n")[1] == (Name, "action")
