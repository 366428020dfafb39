"""Every mistake in one round (issue 25 §2): `snowrules validate` reports a ruleset's schema,
duplicate, parse and name errors together, each once, a card by its name, with hints for the
names and statement forms designers bring from other languages.

Each row plants mistakes in a copy of a small ruleset and gives `validate`'s exact output lines,
their lines and columns worked out by hand from the edited text.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.language.diagnostics import RulesSyntaxError
from snowrules.language.hints import suggest
from snowrules.language.parser import parse_effect

ROOT = Path(__file__).resolve().parent.parent


def validate(capsys, folder: str) -> tuple[int, list[str]]:
    code = main(["validate", folder, "--no-play"])
    return code, capsys.readouterr().out.splitlines()


def planted(tmp_path: Path, source: Path, name: str, file: str, edits: list[tuple[str, str]],
            appended: str = "") -> None:
    """A copy of `source` in `tmp_path/name`, `file` edited (each old text once) and `appended` to."""
    shutil.copytree(source, tmp_path / name)
    path = tmp_path / name / file
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text + appended, encoding="utf-8")


# --- a card with four mistakes -----------------------------------------------------------------

# Appended to Snow Time's cards.yaml (58 lines): the new card starts on line 59. A second
# `Watcher` (a duplicate), its number quoted and not 0 (a special card's number is 0), its effect
# a statement from another language and an unknown function: four mistakes, one round.
FOUR_MISTAKES = """\
  - name: Watcher
    kind: special
    special: watcher
    number: '2'
    effect: |
      me.scroe += 1
      move lenght(me.hand) to me.discard
"""


def test_four_mistakes_in_one_card_come_out_in_one_round(tmp_path, monkeypatch, capsys):
    planted(tmp_path, ROOT / "rulesets" / "snow_time", "game", "components/cards.yaml", [], FOUR_MISTAKES)
    monkeypatch.chdir(tmp_path)
    code, lines = validate(capsys, "game")
    assert code == 1
    assert lines == [
        "game/components/cards.yaml:59:5: error: component 'Watcher' is defined twice (hint: first at "
        "game/components/cards.yaml:36:5; give one `copies: 2`, or another name) [SR205]",
        "game/components/cards.yaml:62:13: error: card 'Watcher': number: '2' is not of type 'integer' (hint: "
        "write 2 without quotes; it must be 0 when kind is 'special'; number: the character's number, 1 to 7; "
        "0 for a special card) [SR203]",
        "game/components/cards.yaml:64:9: error: unexpected '.' (hint: write `add 1 to me.scroe`) [SR301]",
        "game/components/cards.yaml:65:12: error: unknown function 'lenght' (hint: did you mean 'size'?) [SR401]",
    ]


# --- rules text: (edits of Pig's rules.sr, expected lines) --------------------------------------

PIG_ROWS = [
    # an unknown function: the close name from the synonyms (length -> size)
    ([("if first(faces) == 1:", "if lenght(faces) == 1:")],
     ["pig/rules.sr:34:24: error: unknown function 'lenght' (hint: did you mean 'size'?) [SR401]"]),
    ([("if first(faces) == 1:", "if len(faces) == 1:")],
     ["pig/rules.sr:34:24: error: unknown function 'len' (hint: did you mean 'size' or 'flatten'?) [SR401]"]),
    # statement forms of other languages: the statement that says it here
    ([("add 1 to decisions", "decisions += 1")],
     ["pig/rules.sr:18:27: error: unexpected '+' (hint: write `add 1 to decisions`) [SR301]"]),
    ([("add turn_total to p.score", "p.score += turn_total")],
     ["pig/rules.sr:21:22: error: unexpected '.' (hint: write `add turn_total to p.score`) [SR301]"]),
    ([("for each p in players:", "for p in players:")],
     ["pig/rules.sr:11:9: error: unexpected 'p' (hint: write `for each p in players:`) [SR301]"]),
    # a syntax error and an unknown name further down: one round
    ([("add 1 to decisions", "decisions += 1"), ("add first(faces) to turn_total", "add first(faces) to turn_totl")],
     ["pig/rules.sr:18:27: error: unexpected '+' (hint: write `add 1 to decisions`) [SR301]",
      "pig/rules.sr:37:45: error: unknown counter 'turn_totl' (hint: did you mean 'turn_total' or 'turn'?) [SR401]"]),
    # a broken declaration: its uses are not reported (the line is left out), other names are
    ([("counter decisions shared from 0", "counter decisions shard from 0"),
      ("add first(faces) to turn_total", "add first(faces) to turn_totl")],
     ["pig/rules.sr:6:19: error: unexpected 'shard' (hint: expected '[', 'per', 'shared', end of line) [SR301]",
      "pig/rules.sr:37:45: error: unknown counter 'turn_totl' (hint: did you mean 'turn_total' or 'turn'?) [SR401]"]),
    # two syntax errors in two statements: both
    ([("add 1 to decisions", "decisions++"), ("set turn_total to 0", "set turn_total = 0")],
     ["pig/rules.sr:12:24: error: unexpected '=' (hint: write `set turn_total to 0`) [SR301]",
      "pig/rules.sr:18:26: error: unexpected '+' (hint: write `add 1 to decisions`) [SR301]"]),
]


@pytest.mark.parametrize("edits, expected", PIG_ROWS, ids=[str(i) for i in range(len(PIG_ROWS))])
def test_rules_mistakes_in_one_round(tmp_path, monkeypatch, capsys, edits, expected):
    planted(tmp_path, ROOT / "tests" / "rulesets" / "pig", "pig", "rules.sr", edits)
    monkeypatch.chdir(tmp_path)
    code, lines = validate(capsys, "pig")
    assert (code, lines) == (1, expected)


# --- parse errors of a card's effect: (text, expected diagnostics) ---------------------------

EFFECT_ROWS = [
    ("me.scroe += 1\n", ["e.yaml:1:3: error: unexpected '.' (hint: write `add 1 to me.scroe`)"]),
    ("me.score -= 2\n", ["e.yaml:1:3: error: unexpected '.' (hint: write `subtract 2 from me.score`)"]),
    ("this.level = 3\n", ["e.yaml:1:5: error: unexpected '.' (hint: write `set this.level to 3`)"]),
    ("if empty(me.hand):\n    pass\nelse if true:\n    pass\n",
     ["e.yaml:3:6: error: unexpected 'if' (hint: write `elif true:`)"]),
    ("if empty(me.hand) then\n    pass\n",
     ["e.yaml:1:19: error: unexpected 'then' (hint: write `if empty(me.hand):`)"]),
    # three broken statements, one of them a block's header: each reported, at its line
    ("x += 1\nfor c in me.hand:\n    y -= 1\n",
     ["e.yaml:1:3: error: unexpected '+' (hint: write `add 1 to x`)",
      "e.yaml:2:5: error: unexpected 'c' (hint: write `for each c in me.hand:`)",
      "e.yaml:3:7: error: unexpected '-' (hint: write `subtract 1 from y`)"]),
]


@pytest.mark.parametrize("text, expected", EFFECT_ROWS, ids=[str(i) for i in range(len(EFFECT_ROWS))])
def test_effect_syntax_errors_each_with_the_statement_it_means(text, expected):
    with pytest.raises(RulesSyntaxError) as caught:
        parse_effect(text, "e.yaml", 1, 1)
    assert [str(d) for d in caught.value.diagnostics] == expected
    assert caught.value.recovered is not None


SUGGEST_ROWS = [
    ("lenght", ["size", "sum", "first"], "did you mean 'size'?"),
    ("length", ["size", "last"], "did you mean 'size'?"),
    ("count", ["size", "sum"], "did you mean 'size'?"),  # not a synonym here: count is a function
    ("total", ["sum", "total_points"], "did you mean 'sum'?"),
    ("sort", ["sorted", "size"], "did you mean 'sorted'?"),
    ("scroe", ["score", "scored"], "did you mean 'score' or 'scored'?"),
    ("zzz", ["size"], ""),
]


@pytest.mark.parametrize("name, candidates, expected", SUGGEST_ROWS)
def test_suggestions_with_the_names_of_other_languages(name, candidates, expected):
    assert suggest(name, candidates) == expected


def test_four_mistakes_in_one_card_come_out_in_one_round_in_the_editor(tmp_path):
    # what the language server publishes (cli/lsp.py check_texts): the editor's unsaved text, the
    # file on disk unchanged, the same four problems at the same places as validate's
    from snowrules.cli.lsp import check_texts
    shutil.copytree(ROOT / "rulesets" / "snow_time", tmp_path / "game")
    cards = (tmp_path / "game" / "components" / "cards.yaml").resolve()
    found = check_texts(tmp_path / "game", {cards: cards.read_text(encoding="utf-8") + FOUR_MISTAKES})
    assert list(found) == [cards]
    assert [(d.position.line, d.position.col, d.code, d.message) for d in found[cards]] == [
        (59, 5, "SR205", "component 'Watcher' is defined twice"),
        (62, 13, "SR203", "card 'Watcher': number: '2' is not of type 'integer'"),
        (64, 9, "SR301", "unexpected '.'"),
        (65, 12, "SR401", "unknown function 'lenght'"),
    ]
