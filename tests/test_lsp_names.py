"""The language server's names (cli/lsp_names.py): completion, references and the outline, as
data tables worked by hand from the texts below, then the same features through the server's own
handlers in-process (pygls' feature manager after an initialize: no subprocess, fast)."""
from __future__ import annotations

from pathlib import Path

import pytest
from snowrules.cli import lsp_names as names
from snowrules.cli.lsp import declarations

RULES = '''game "Probe"
zone deck shared hidden
counter score per player from 0
counter stock shared from 0
define best() = [each p in players where p.score > stock]
on scored(p, n):
    add n to stock  # stock grows
setup:
    announce "stock"
each turn:
    phase draw:
        add 1 to stock
    phase score_it:
        for each p in players:
            add 1 to p.score
    end game winners best()
'''
CARDS = '''schema: thing.schema.json
components:
  - name: stock pile
    effect: add 2 to stock
    power: 3
  - name: other
    condition: |
      stock > 1 and p.score > 0
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "ruleset.yaml").write_text("name: probe\n")
    (tmp_path / "rules.sr").write_text(RULES)
    (tmp_path / "components").mkdir()
    (tmp_path / "components" / "cards.yaml").write_text(CARDS)
    return tmp_path


# (text, line, column, fields, expected (label, kind, detail))
COMPLETIONS = [
    ("setup:\n    let x = si\n", 1, 14, [], [("size", "function", "size(list or zone) -> int"),
                                           ("sides", "keyword", "keyword")]),
    ("setup:\n    let x = ma\n", 1, 14, [], [("max", "function", "max(sequence) -> an item of the first argument; "
                                                   "max(int, int, ...) -> int")]),
    ("setup:\n    add 1 to st\n", 1, 15, [], [("stock", "counter", "counter stock shared from 0")]),
    ("setup:\n    let x = p.\n", 1, 14, ["power", "score"], [
        ("power", "field", "a component's field"), ("score", "field", "a component's field"),
        ("stock", "counter", "counter stock shared from 0")]),
    ("setup:\n    let x = p.po\n", 1, 16, ["power"], [("power", "field", "a component's field")]),
    ("setup:\n    let x = pl\n", 1, 14, [], [
        ("players", "variable", "built in"), ("player_count", "variable", "built in"),
        ("placements", "function", "placements(zone, component, int) -> list:record"),
        ("players_from", "function", "players_from(player) -> list:player")]),
    ("setup:\n    let x = zzz\n", 1, 15, [], []),
]


@pytest.mark.parametrize("text, line, column, fields, expected", COMPLETIONS)
def test_completions(folder, text, line, column, fields, expected):
    declared = declarations(folder, {})
    assert names.completions(text, line, column, declared, fields) == expected


# (name, expected (file, line, start, end)): words in comments, quoted texts and `x.name` fields
# are not the name; in YAML, only the rules texts (effect:, a condition's block) are read.
REFERENCES = [
    ("stock", [("cards.yaml", 3, 21, 26), ("cards.yaml", 7, 6, 11),
               ("rules.sr", 3, 8, 13), ("rules.sr", 4, 51, 56), ("rules.sr", 6, 13, 18), ("rules.sr", 11, 17, 22)]),
    ("score", [("rules.sr", 2, 8, 13)]),
    ("best", [("rules.sr", 4, 7, 11), ("rules.sr", 15, 21, 25)]),
    ("nothing", []),
]


@pytest.mark.parametrize("name, expected", REFERENCES)
def test_references(folder, name, expected):
    found = names.references(name, names.rules_files(folder, {}))
    assert [(p.path.name, p.line, p.start, p.end) for p in found] == expected


def test_outline():
    shown = [(s.name, s.kind, s.line, s.end, [(c.name, c.kind, c.line) for c in s.children])
             for s in names.outline(RULES)]
    assert shown == [
        ("deck", "zone", 1, 1, []),
        ("score", "counter", 2, 2, []),
        ("stock", "counter", 3, 3, []),
        ("best", "define", 4, 4, []),
        ("scored", "reaction", 5, 6, []),
        ("setup", "setup", 7, 8, []),
        ("each turn", "turn", 9, 15, [("draw", "phase", 10), ("score_it", "phase", 12)]),
    ]


def test_the_fields_of_the_components(tmp_path):
    from conftest import ruleset_folder
    folder = ruleset_folder(tmp_path, "game \"P\"\neach turn:\n    end game\n",
                            "schema: token.schema.json\ncomponents:\n  - {name: a, kind: x}\n")
    assert names.field_names(folder) == ["kind", "name", "owner"]


def test_the_server_answers_in_process(folder):
    lsp = pytest.importorskip("lsprotocol.types")
    from snowrules.cli.lsp import build_server
    server = build_server()
    started = server.protocol.lsp_initialize(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=folder.as_uri()))
    with pytest.raises(StopIteration) as done:
        while True:
            next(started)
    capabilities = done.value.value.capabilities
    assert (capabilities.completion_provider.trigger_characters, capabilities.references_provider,
            capabilities.document_symbol_provider) == (["."], True, True)
    uri = (folder / "rules.sr").resolve().as_uri()
    server.workspace.put_text_document(lsp.TextDocumentItem(uri=uri, language_id="snowrules", version=1,
                                                            text=RULES + "define more() = bes\n"))
    here = lsp.TextDocumentIdentifier(uri)
    feature = server.protocol.fm.features
    found = feature[lsp.TEXT_DOCUMENT_COMPLETION](lsp.CompletionParams(text_document=here,
                                                                      position=lsp.Position(16, 19)))
    assert [(i.label, i.kind, i.detail) for i in found.items] == [
        ("best", lsp.CompletionItemKind.Function, "define best() = [each p in players where p.score > stock]")]
    places = feature[lsp.TEXT_DOCUMENT_REFERENCES](lsp.ReferenceParams(
        text_document=here, position=lsp.Position(4, 8), context=lsp.ReferenceContext(True)))
    assert [(p.uri.rsplit("/", 1)[1], p.range.start.line, p.range.start.character) for p in places] == [
        ("rules.sr", 4, 7), ("rules.sr", 15, 21)]  # `bes` is not `best`
    outline = feature[lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL](lsp.DocumentSymbolParams(here))
    turn = outline[6]
    assert (turn.name, turn.range.start.line, turn.range.end.line, [c.name for c in turn.children]) == (
        "each turn", 9, 16, ["draw", "score_it"])
    assert [s.name for s in outline] == ["deck", "score", "stock", "best", "scored", "setup", "each turn", "more"]


# (a rules line, its coloured tokens: (column, length, type, modifier bits)); columns in UTF-16
# code units, as LSP counts them: 'é' is one, '😀' two
TOKEN_ROWS = [
    ("# [Setup] deal", [(0, 2, "comment", 0), (2, 7, "comment", 2), (9, 5, "comment", 0)]),
    ("zone hand per player hidden", [(0, 4, "keyword", 0), (5, 4, "variable", 1), (10, 3, "keyword", 0),
                                     (14, 6, "variable", 0), (21, 6, "keyword", 0)]),
    ('announce "😀", p.score + 1', [(0, 8, "keyword", 0), (9, 4, "string", 0), (15, 1, "variable", 0),
                                    (17, 5, "property", 0), (23, 1, "operator", 0), (25, 1, "number", 0)]),
    ('announce "é", best(x)', [(0, 8, "keyword", 0), (9, 3, "string", 0), (14, 4, "function", 0),
                               (19, 1, "variable", 0)]),
]


@pytest.mark.parametrize("line, expected", TOKEN_ROWS)
def test_semantic_tokens(line, expected):
    from snowrules.cli.lsp_tokens import encoded, tokens
    assert [t[1:] for t in tokens(line + "\n")] == expected
    assert [t[0] for t in tokens("\n" + line)] == [1] * len(expected)
    data = encoded(line)
    assert data[:2] == [0, expected[0][0]] and len(data) == 5 * len(expected)


CARD_LIST = """schema: card.schema.json
components:
  - {name: six, value: 6}
  - name: "prize 13"   # a block entry
    value: 13
    effect: |
      add 1 to me.score
  - name: moon
"""

# (a line, the cursor's column, YAML or rules, the component's name it names)
NAMED_AT = [
    ("  zones: {north.hand: [six, one]}", 24, True, "six"),
    ("  zones: {north.hand: [six, prize 13]}", 30, True, "prize 13"),
    ("  - {north: 'prize 13', south: six}", 15, True, "prize 13"),
    ('    move [each c in box where c.name == "prize 13"] to deck', 45, False, "prize 13"),
    ("    move six to deck", 10, False, None),  # a word of the rules is a name, not a component
]


@pytest.mark.parametrize("line, column, yaml, expected", NAMED_AT)
def test_a_component_named_under_the_cursor(line, column, yaml, expected):
    from snowrules.cli.lsp_components import components, text_at
    named = text_at(line, 0, column, yaml)
    found = components({Path("/r/components/cards.yaml"): CARD_LIST}).get(named) if named else None
    assert (found.name if found else None) == expected


def test_components_entries_and_hover():
    from snowrules.cli.lsp_components import Component, components, hover_of
    found = components({Path("/r/components/cards.yaml"): CARD_LIST, Path("/r/ruleset.yaml"): "name: x\n"})
    assert [(c.name, c.line, c.start, c.end) for c in found.values()] == [
        ("six", 2, 11, 14), ("prize 13", 3, 11, 19), ("moon", 7, 10, 14)]
    assert found["prize 13"] == Component("prize 13", Path("/r/components/cards.yaml"), 3, 11, 19,
                                          '  - name: "prize 13"   # a block entry\n    value: 13\n    effect: |\n'
                                          "      add 1 to me.score")
    assert hover_of(found["six"], Path("/r")) == ("**component** `six`\n\n```yaml\n  - {name: six, value: 6}\n```"
                                                 "\n\nwritten at components/cards.yaml:3")


def test_a_components_references_in_rules_and_yaml():
    from snowrules.cli.lsp_components import references
    files = {Path("/r/components/cards.yaml"): CARD_LIST,
             Path("/r/scenarios/s.yaml"): "situation:\n  zones: {north.hand: [six, one]}  # six\n"
                                          "choices:\n  - {north: six, south: 'prize 13'}\n  - six\n",
             Path("/r/rules.sr"): 'move [each c in box where c.name == "six"] to deck  # six\n'}
    assert [(p.name, line, start, end) for p, line, start, end in references("six", files)] == [
        ("cards.yaml", 2, 11, 14), ("rules.sr", 0, 37, 40), ("s.yaml", 1, 23, 26), ("s.yaml", 3, 12, 15),
        ("s.yaml", 4, 4, 7)]
    assert [(p.name, line, start, end) for p, line, start, end in references("prize 13", files)] == [
        ("cards.yaml", 3, 11, 19), ("s.yaml", 3, 25, 33)]
