"""Editions of the language (language/editions.py): an old spelling keeps its meaning with a
warning in a ruleset of the old edition and is refused at its place in a newer one; reserved
words are only those the grammar can read where a name stands; `snowrules upgrade` rewrites.
Bad input as data tables: input -> exact code, severity, place and message."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ruleset_folder
from snowrules.cli.main import main
from snowrules.language import editions
from snowrules.language.diagnostics import RulesSyntaxError
from snowrules.language.parser import parse_rules, reserved_words
from snowrules.load.ruleset import read_ruleset

RULES = """game "Probe"
zone deck shared hidden
counter score per player from 0
each turn:
    end game
"""
SCHEMA_WITH_COUNT = ('{"type": "object", "required": ["name", "count"], "additionalProperties": false, '
                     '"properties": {"name": {"type": "string"}, "count": {"type": "integer"}}}')
SCHEMA_CLOSED = ('{"type": "object", "required": ["name"], "additionalProperties": false, '
                 '"properties": {"name": {"type": "string"}}}')

# (edition, rules text, [(code, severity, line, col, message)])
NAMES = [
    (1, "setup:\n    let dice = 2\n    announce dice\n", [
        ("SR122", "warning", 2, 9, "'dice' is a name in edition 1, but a keyword from edition 2 on"),
        ("SR122", "warning", 3, 14, "'dice' is a name in edition 1, but a keyword from edition 2 on")]),
    (2, "setup:\n    let dice = 2\n    announce dice\n", [
        ("SR122", "error", 2, 9, "'dice' is a keyword and cannot be a name"),
        ("SR122", "error", 3, 14, "'dice' is a keyword and cannot be a name")]),
    (2, "define f(pass) = pass + 1\n", [("SR122", "error", 1, 10, "'pass' is a keyword and cannot be a name")]),
    # keywords only where the grammar wants them: names everywhere else, in both editions
    (1, "define winners() = []\neach turn:\n    end game winners winners()\n", []),
    (2, "define winners() = []\neach turn:\n    end game winners winners()\n", []),
    (2, "variable public = 1\nvariable shared = 2\nvariable random = public + shared\n", []),
    (2, "setup:\n    let x = first(players).secret\n", []),
    # edition 3 reserves `remembered` (a decision's `remembered as EXPR`): a name before, with a warning
    (2, "setup:\n    let remembered = 2\n", [
        ("SR125", "warning", 2, 9, "'remembered' is a name in edition 2, but a keyword from edition 3 on")]),
    (1, "define f(remembered) = remembered\n", [
        ("SR125", "warning", 1, 10, "'remembered' is a name in edition 1, but a keyword from edition 3 on"),
        ("SR125", "warning", 1, 24, "'remembered' is a name in edition 1, but a keyword from edition 3 on")]),
    (3, "setup:\n    let remembered = 2\n", [
        ("SR125", "error", 2, 9, "'remembered' is a keyword and cannot be a name")]),
    (3, "setup:\n    let dice = 2\n", [("SR122", "error", 2, 9, "'dice' is a keyword and cannot be a name")]),
    # the construct itself is read in every edition
    (2, "each turn:\n    ask first(players) to choose c from [1, 2] remembered as c\n", []),
    # edition 3's two changes in one decision: a prompt with a value and what is remembered
    (3, "each turn:\n    ask first(players) to choose c from [1, 2] as \"pick {1 + 1}\" remembered as c\n", []),
    (2, "each turn:\n    ask first(players) to choose c from [1, 2] as \"pick {2}\" remembered as c\n", [
        ("SR124", "warning", 2, 51, "the braces of the prompt 'pick {2}' are plain text in edition 2, but enclose "
                                    "a value from edition 3 on")]),
]


@pytest.mark.parametrize("edition, text, expected", NAMES)
def test_reserved_words_by_edition(edition, text, expected):
    notes: list = []
    try:
        parse_rules(text, "r.sr", edition, notes)
        found = notes
    except RulesSyntaxError as error:
        found = list(error.diagnostics) + notes
    assert [(d.code, d.severity, d.position.line, d.position.col, d.message) for d in found] == expected
    renamed = [d.hint for d in found if d.severity == "warning" and d.code != "SR124"]  # SR124: braces
    word = "my_remembered" if "'remembered'" in "".join(d.message for d in found) else "my_dice"
    assert all(h == f"rename it {word} and declare `language: 3` (`snowrules upgrade` does both)" for h in renamed)


def test_the_editions_table_reserves_exactly_what_the_grammar_cannot_tell_from_a_name():
    # a new construct whose keyword can stand where a name does needs a new edition's row
    assert editions.reserved_in(editions.CURRENT) == reserved_words()
    assert editions.reserved_in(1) == frozenset()
    assert {"winners", "public", "shared"}.isdisjoint(reserved_words())


def folder(tmp_path: Path, edition: int | None, entry: str, schema: str) -> Path:
    found = ruleset_folder(tmp_path, RULES, f"schema: thing.schema.json\ncomponents:\n{entry}\n", schema=schema)
    manifest = tmp_path / "ruleset.yaml"
    language = "" if edition is None else f"language: {edition}\n"
    manifest.write_text(manifest.read_text().replace("language: 2\n", language))
    return found


# (edition in the manifest, entry, schema, copies read, [(code, severity, line, col, message)])
COUNTS = [
    (None, "  - {name: star, count: 5}", SCHEMA_WITH_COUNT, 5, [
        ("SR123", "note", 1, 1, "no `language:` here: this ruleset is read as edition 1 of the language "
                                "(the current edition is 3)"),
        ("SR121", "warning", 3, 18, "`count: 5` here made 5 copies in edition 1; edition 2 writes `copies: 5`")]),
    (1, "  - name: star\n    count: 3", SCHEMA_CLOSED, 3, [
        ("SR121", "warning", 4, 5, "`count: 3` here made 3 copies in edition 1; edition 2 writes `copies: 3`")]),
    (2, "  - {name: star, count: 5}", SCHEMA_CLOSED, 5, [
        ("SR121", "error", 3, 18, "`count: 5` here made 5 copies in edition 1; write `copies: 5`")]),
    # edition 2: a schema that declares `count` has an ordinary field
    (2, "  - {name: star, count: 5}", SCHEMA_WITH_COUNT, 1, []),
    (2, "  - {name: star, copies: 4}", SCHEMA_CLOSED, 4, []),
]


@pytest.mark.parametrize("edition, entry, schema, copies, expected", COUNTS)
def test_count_by_edition(tmp_path, edition, entry, schema, copies, expected):
    ruleset, problems = read_ruleset(str(folder(tmp_path, edition, entry, schema)))
    found = problems + ruleset.edition_notes
    assert [(d.code, d.severity, d.position.line, d.position.col, d.message) for d in found] == expected
    assert ruleset.edition == (edition or 1)
    star = [c for c in ruleset.components if c.name == "star"]
    assert [c.count for c in star] == [copies]  # refused, it is still read: nothing reported twice


EDITION_1 = {
    "ruleset.yaml": "name: old\ntitle: Old\nversion: \"1\"\nplayers: {min: 2, max: 2}\nrules: [rules.sr]\n"
                    "components: [components/cards.yaml]\n",
    "schemas/card.schema.json": SCHEMA_WITH_COUNT + "\n",
    "components/cards.yaml": "schema: card.schema.json\ncomponents:\n  - name: star   # five\n    count: 5\n"
                             "  - {name: moon, count: 2}\n",
    "rules.sr": "game \"Old\"\nzone deck shared hidden\ncounter score per player from 0\n"
                "define winners() = players\neach turn:\n    for each p in players:\n"
                "        let dice = size(deck)  # the deck's size\n        add dice to p.score\n"
                "        ask p to choose remembered from [1, 2] as \"take {1 or 2}\":  # braces: text in edition 1\n"
                "            add remembered to p.score\n"
                "    end game winners winners()\n",
}


def test_upgrade_prints_then_writes_the_rewrites(tmp_path, capsys):
    for name, text in EDITION_1.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert main(["upgrade", str(tmp_path)]) == 0
    said = capsys.readouterr().out.replace(str(tmp_path), "F").splitlines()
    assert said == [
        "F/components/cards.yaml:4:5: count -> copies",
        "F/components/cards.yaml:5:18: count -> copies",
        "F/rules.sr:7:13: dice -> my_dice",
        "F/rules.sr:8:13: dice -> my_dice",
        "F/rules.sr:9:25: remembered -> my_remembered",
        'F/rules.sr:9:51: "take {1 or 2}" -> "take {{1 or 2}}"',
        "F/rules.sr:10:17: remembered -> my_remembered",
        "F/schemas/card.schema.json: no longer declares count",
        "F/ruleset.yaml: language: 3",
        "9 change(s) to edition 3; `snowrules upgrade F --write` makes them",
    ]
    assert all((tmp_path / n).read_text() == t for n, t in EDITION_1.items())  # nothing written
    assert main(["upgrade", str(tmp_path), "--write"]) == 0
    capsys.readouterr()
    assert (tmp_path / "components/cards.yaml").read_text() == (
        "schema: card.schema.json\ncomponents:\n  - name: star   # five\n    copies: 5\n  - {name: moon, copies: 2}\n")
    assert (tmp_path / "rules.sr").read_text() == EDITION_1["rules.sr"].replace(" dice", " my_dice").replace(
        " remembered", " my_remembered").replace("{1 or 2}", "{{1 or 2}}")
    assert "version: \"1\"\nlanguage: 3\nplayers" in (tmp_path / "ruleset.yaml").read_text()
    ruleset, problems = read_ruleset(str(tmp_path))
    assert (problems, ruleset.edition_notes, ruleset.edition) == ([], [], 3)
    assert sorted((c.name, c.count) for c in ruleset.components) == [("moon", 2), ("star", 5)]
    assert main(["upgrade", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"{tmp_path}: already in edition 3 of the language: nothing to rewrite\n"


@pytest.mark.parametrize("args, code, said", [
    (["upgrade", "no/such/folder"], 1, "no/such/folder:1:1: error: no ruleset here: neither a bundled ruleset nor "
     "a folder with a ruleset.yaml [SR901]"),
    (["upgrade"], 2, "the following arguments are required: ruleset"),
])
def test_upgrade_bad_input(capsys, args, code, said):
    assert main(args) == code
    assert said in capsys.readouterr().err


# (the words the ruleset already uses, the name a reserved word `dice` is renamed to)
RENAMES = [
    (frozenset(), "my_dice"),
    (frozenset({"my_dice"}), "my_dice_2"),
    (frozenset({"my_dice", "my_dice_2"}), "my_dice_3"),
]


@pytest.mark.parametrize("taken, new", RENAMES)
def test_a_renamed_word_takes_a_free_name(taken, new):
    from snowrules.cli.upgrade import Rewrite, rewrites
    from snowrules.language.diagnostics import Diagnostic, Position
    note = Diagnostic(Position("r.sr", 2, 9), "'dice' is a name in edition 1, but a keyword from edition 2 on",
                      severity="warning", code="SR122")
    assert rewrites([note], taken) == [Rewrite(Path("r.sr"), 2, 9, "dice", new)]


def test_the_docs_show_every_change_of_every_edition():
    section = (Path(__file__).resolve().parent.parent / "docs" / "changes.md").read_text(encoding="utf-8")
    for change in editions.CHANGES:
        assert f"**Edition {change.edition}**" in section and f"(code {change.code})" in section, change


def test_upgrade_into_a_read_only_folder_says_so(tmp_path, capsys, monkeypatch):
    for name, text in EDITION_1.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    def refused(source, target):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr("snowrules.cli.upgrade.os.replace", refused)  # as a read-only folder does
    assert main(["upgrade", str(tmp_path), "--write"]) == 1
    assert capsys.readouterr().err == (
        f"{tmp_path}/components/cards.yaml:1:1: error: cannot write this file: Permission denied "
        "(hint: make the folder writable and run upgrade again) [SR102]\n")
    assert (tmp_path / "components/cards.yaml").read_text() == EDITION_1["components/cards.yaml"]
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no temporary file left
