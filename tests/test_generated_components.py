"""Generated component entries (docs/language.md, "Generated entries"), on tests/rulesets/generated_deck:
its 52-card deck is one `generate:` item (suits x ranks, overrides for face cards and aces) and a
written joker; its variant `written_out` plays the same deck written out by hand. The two give
the same components (names, fields, ids) and the same game logs byte for byte; every mistake in a
`generate:` item is reported at its text with its code; `validate` and the language server see the
generated names."""
from __future__ import annotations

import io
import itertools
import json
import shutil
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from conftest import play_checked
from hypothesis import given, settings
from hypothesis import strategies as st
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.load.ruleset import load_ruleset
from snowrules.runtime.engine import Game

RULESET = Path(__file__).resolve().parent / "rulesets" / "generated_deck"
WRITTEN = "written_out"


def _cli(*arguments: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = main(list(arguments))
    return code, out.getvalue()


def test_the_generated_deck_is_the_written_deck_entry_by_entry():
    generated, written = load_ruleset(str(RULESET)), load_ruleset(str(RULESET), WRITTEN)
    assert [(c.name, c.fields, c.count, c.per_seat) for c in generated.components] == \
        [(c.name, c.fields, c.count, c.per_seat) for c in written.components]
    names = [c.name for c in generated.components]
    # the first field (suit: S, H, D, C) varies slowest, the range 2..14 counts up; the joker after
    assert (len(names), names[:3], names[11:15], names[-2:]) == (
        53, ["2S", "3S", "4S"], ["13S", "14S", "2H", "3H"], ["14C", "joker"])
    fields = {c.name: c.fields for c in generated.components}
    assert fields["14S"] == {"kind": "card", "suit": "S", "rank": 14, "points": 4}  # the second override
    assert fields["12D"] == {"kind": "card", "suit": "D", "rank": 12, "points": 1}  # the first
    assert fields["10H"] == {"kind": "card", "suit": "H", "rank": 10, "points": 0}  # the shared field
    assert generated.components[0].position.line == 6  # the `- generate:` item


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_ids_are_the_written_decks(players):
    generated = Game(load_program(str(RULESET), None, players)).layout.component_names
    written = Game(load_program(str(RULESET), WRITTEN, players)).layout.component_names
    assert list(generated) == list(written)
    assert (generated[0], generated[13], generated[51], generated[52]) == ("2S", "2H", "14C", "joker")


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 7), (4, 123)])
def test_a_seeded_run_logs_the_same_bytes_with_either_deck(tmp_path, players, seed):
    logs = {}
    for variant in (None, WRITTEN):
        log = tmp_path / f"{variant}.jsonl"
        chosen = ["--variant", variant] if variant else []
        code, out = _cli("run", str(RULESET), "--players", str(players), "--seed", str(seed), *chosen,
                         "--log", str(log), "--json")
        assert code == 0, out
        logs[variant] = log.read_bytes().splitlines(keepends=True)
    headers = {variant: json.loads(lines[0]) for variant, lines in logs.items()}
    # the header names the variant played; everything else, and every event after it, is the same bytes
    assert (headers[None].pop("variant"), headers[WRITTEN].pop("variant")) == (None, WRITTEN)
    assert headers[None] == headers[WRITTEN]
    assert logs[None][1:] == logs[WRITTEN][1:] and len(logs[None]) > 20


_PROGRAMS: dict = {}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 4))
def test_random_games_are_event_for_event_the_same_with_either_deck(seed, players):
    events = {}
    for variant in (None, WRITTEN):
        key = (variant, players)
        if key not in _PROGRAMS:
            _PROGRAMS[key] = load_program(str(RULESET), variant, players)
        game = Game(_PROGRAMS[key])
        said: list = []
        end, _ = play_checked(game, seed, sink=said.append)
        events[variant] = [json.dumps(e, sort_keys=True) for e in said] + [repr(end.result)]
    assert events[None] == events[WRITTEN] and len(events[None]) > 20


# ---- bad input: each row a mistake in components/deck.yaml, its code and place -------------------
# The file, as written (tests/rulesets/generated_deck/components/deck.yaml):
#  6   - generate:
#  7       suit: [S, H, D, C]          S at col 14, H 17, D 20, C 23
#  8       rank: 2..14                 the range at col 13
#  9     name: "{rank}{suit}"          the template at col 11
# 10     kind: card                    card at col 11
# 11     points: 0
# 12     overrides:
# 13       - where: {rank: [11, 12, 13]}
# 14         fields: {points: 1}
# 15       - where: {rank: 14}         `where` at col 9, rank 17, 14 at 23
# 16         fields: {points: 4}       points at col 18, 4 at 26
# 17   - {name: joker, kind: card, suit: S, rank: 2, points: 10}      name at col 6
BAD = [
    # (text, replaced by, "line:col", code, message)
    ("rank: 2..14", "rank: 14..2", "8:13", "SR212", "generate.rank: the range 14..2 is empty: a range counts up"),
    ("rank: 2..14", "rank: 2..x", "8:13", "SR212", "generate.rank: '2..x' is neither a list of values nor a range"),
    ("rank: 2..14", "rank: 7", "8:13", "SR203",
     "card '{rank}{suit}': generate.rank: 7 is not of type 'array', 'string'"),
    ("rank: 2..14", "rank: 1..20000", "8:13", "SR703",
     "generate.rank: the range 1..20000 has 20000 values, more than 10000"),
    ("rank: 2..14", "rank: 1..1000000000000", "8:13", "SR703",
     "generate.rank: the range 1..1000000000000 has 1000000000000 values, more than 10000"),
    ("rank: 2..14", "rank: 1..5000", "6:5", "SR703",
     "this `generate:` makes 20000 entries (4 x 5000), more than 10000"),
    ("rank: 2..14", "rank: 2..15", "8:13", "SR204", "card '15S': rank: 15 is greater than the maximum of 14"),
    ("[S, H, D, C]", "[S, H, D, X]", "7:23", "SR204", "card '2X': suit: 'X' is not one of ['S', 'H', 'D', 'C']"),
    ("[S, H, D, C]", "[S, H, S, C]", "7:20", "SR212", "generate.suit: S is listed twice"),
    ("[S, H, D, C]", "[]", "7:13", "SR204", "card '{rank}{suit}': generate.suit: [] should be non-empty"),
    ("suit: [S, H, D, C]", "copies: [1, 2]", "7:7", "SR212", "'copies' cannot be generated"),
    ('"{rank}{suit}"', '"{rank}{colour}"', "9:11", "SR212",
     "the name template '{rank}{colour}' names 'colour', which is not a generated field"),
    ('"{rank}{suit}"', '"{rank}"', "9:11", "SR205",
     "the name template '{rank}' gives '2' to two entries: suit S, rank 2 and suit H, rank 2"),
    ('"{rank}{suit}"', '"{rank}{suit"', "9:11", "SR212",
     "the name template '{rank}{suit' has a lone '{' (character 7)"),
    ('"{rank}{suit}"', '"card"', "9:11", "SR212",
     "the name template 'card' names no generated field: every entry would have this name"),
    ("kind: card\n    points", "kind: crad\n    points", "10:11", "SR204", "card '2S': kind: 'card' was expected"),
    ("kind: card\n    points", "kind: card\n    rank: 3\n    points", "11:5", "SR205",
     "'rank' is both generated and written as a field of every entry"),
    ("{rank: 14}", "{rnak: 14}", "15:17", "SR212", "`where:` names 'rnak', which is not a generated field"),
    ("{rank: 14}", "{rank: 15}", "15:23", "SR212", "`where: {rank: 15}` matches no generated entry"),
    ("{points: 4}", "{name: ace}", "16:18", "SR212", "an override cannot set 'name'"),
    ("{points: 4}", "{rank: 1}", "16:18", "SR212", "an override cannot set 'rank'"),
    ("{points: 4}", "{points: 40}", "16:26", "SR204", "card '14S': points: 40 is greater than the maximum of 10"),
    ("{points: 4}", "{pionts: 4}", "16:18", "SR201", "card '14S': unknown field 'pionts'"),
    ("      - where: {rank: 14}", "      - when: {rank: 14}", "15:9", "SR201",
     "card '{rank}{suit}': overrides.1: unknown field 'when'"),
    ("{name: joker,", "{name: 14S,", "17:6", "SR205", "component '14S' is defined twice"),
    ('    name: "{rank}{suit}"\n', "", "6:5", "SR202", "card #1: 'name' is a required property"),
    ("      suit: [S, H, D, C]\n      rank: 2..14\n", "      {}\n", "7:7", "SR204",
     "card '{rank}{suit}': generate: {} should be non-empty"),
]


@pytest.mark.parametrize("old, new, place, code, message", BAD, ids=[row[4][:50] for row in BAD])
def test_a_mistake_in_a_generate_item_is_reported_at_its_text(tmp_path, old, new, place, code, message):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    deck = folder / "components" / "deck.yaml"
    text = deck.read_text()
    assert old in text
    deck.write_text(text.replace(old, new, 1))
    started = time.process_time()
    exit_code, out = _cli("validate", str(folder), "--no-play", "--format", "json")
    assert time.process_time() - started < 5  # bounded before the work: no entry of a refused product is made
    found = [(f"{d['line']}:{d['col']}", d["code"], d["message"]) for d in json.loads(out)["diagnostics"]
             if d["path"].endswith("components/deck.yaml")]
    assert (exit_code, found) == (1, [(place, code, message)])


def test_validate_checks_the_generated_deck_and_its_written_twin():
    code, out = _cli("validate", str(RULESET))
    assert code == 0 and out.strip().endswith("valid"), out


def test_the_language_server_finds_hovers_and_goes_to_a_generated_card():
    from snowrules.cli.lsp_components import components, hover_of
    deck = RULESET / "components" / "deck.yaml"
    found = components({deck: deck.read_text()})
    assert len(found) == 53 and list(found)[:2] == ["joker", "2S"]  # written entries first, then generated
    ace = found["14S"]
    # at the name template (0-based line 8, columns 10-24: `"{rank}{suit}"`)
    assert (ace.line, ace.start, ace.end) == (8, 10, 24)
    hover = hover_of(ace, RULESET)
    assert hover.startswith("**component** `14S`\n\n```yaml\n  - generate:\n      suit: [S, H, D, C]\n")
    assert "# generated: {name: 14S, suit: S, rank: 14, kind: card, points: 4}\n```" in hover
    assert hover.endswith("written at components/deck.yaml:9")


def test_the_language_server_completes_the_generated_fields():
    from snowrules.cli.lsp_names import field_names
    assert field_names(RULESET) == ["kind", "name", "owner", "points", "rank", "suit"]


def test_an_item_being_typed_gives_the_language_server_no_generated_cards():
    from snowrules.cli.lsp_components import components
    text = "schema: card.schema.json\ncomponents:\n  - generate: {suit: [S, H\n    name: x\n"
    assert components({Path("/r/components/deck.yaml"): text}) == {}


def test_the_reference_example_is_the_test_rulesets_deck(tmp_path):
    """docs/language.md's example under "Generated entries", as the deck of the test ruleset,
    makes the same components as its own deck file."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = page[page.index("### Generated entries"):]
    example = section[section.index("```yaml\n") + len("```yaml\n"):section.index("```\n", section.index("```yaml"))]
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    (folder / "components" / "deck.yaml").write_text(example)
    documented, tested = load_ruleset(str(folder)), load_ruleset(str(RULESET))
    assert [(c.name, c.fields) for c in documented.components] == [(c.name, c.fields) for c in tested.components]


@pytest.mark.parametrize("file, expected", [
    ("deck.yaml", []),
    ("deck_written.yaml", []),
])
def test_an_editor_checks_generated_and_written_entries_with_the_lists_schema(file, expected):
    """The test ruleset's list schema for editors refers to the envelope's `generated`
    definition for a `generate:` item and to card.schema.json for a written entry."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from ruamel.yaml import YAML
    root = Path(__file__).resolve().parent.parent
    schemas = [*(root / "schemas").glob("*.json"), *(RULESET / "schemas").glob("*.json")]
    registry = Registry().with_resources(
        (path.as_uri(), Resource.from_contents(json.loads(path.read_text(encoding="utf-8")))) for path in schemas)
    validator = Draft202012Validator({"$ref": (RULESET / "schemas" / "card_list.schema.json").as_uri()},
                                     registry=registry)
    text = (RULESET / "components" / file).read_text(encoding="utf-8")
    assert [e.message for e in validator.iter_errors(YAML(typ="safe", pure=True).load(text))] == expected
    bad = YAML(typ="safe", pure=True).load(text.replace("kind: card", "kind: crad", 1))
    # a written entry's field is checked by card.schema.json; a generated item's shared field by snowrules
    assert len(list(validator.iter_errors(bad))) == (1 if file == "deck_written.yaml" else 0)


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 4), min_size=1, max_size=3),
       ranged=st.lists(st.booleans(), min_size=3, max_size=3),
       overrides=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 99)), max_size=4))
def test_generated_entries_are_the_nested_loops_in_order_with_the_last_matching_override(sizes, ranged, overrides):
    """Any product: the entries are those of nested loops over the fields as written (the first
    outermost), each named by the template, and a field an override sets has the value of the
    last override whose `where:` holds for the entry."""
    from snowrules.load.generated import expand
    from snowrules.load.yaml_files import yaml_from_text
    fields = [f"f{n}" for n in range(len(sizes))]
    values = [list(range(10, 10 + size)) if ranged[n] else [f"v{k}" for k in range(size)]
              for n, size in enumerate(sizes)]
    written = [f"{10}..{10 + size - 1}" if ranged[n] else "[" + ", ".join(values[n]) + "]"
               for n, size in enumerate(sizes)]
    usable = [(n % len(sizes), k % sizes[n % len(sizes)], extra) for n, k, extra in overrides]
    text = "components:\n  - generate:\n" + "".join(f"      {f}: {w}\n" for f, w in zip(fields, written))
    text += '    name: "' + "/".join("{" + f + "}" for f in fields) + '"\n    extra: -1\n'
    if usable:
        text += "    overrides:\n" + "".join(
            f"      - {{where: {{{fields[n]}: {values[n][k]}}}, fields: {{extra: {extra}}}}}\n"
            for n, k, extra in usable)
    document, problems = yaml_from_text(text, "probe.yaml")
    assert not problems
    made, problems = expand(document, ["components", 0])
    assert not problems
    expected = []
    for combination in itertools.product(*values):
        extra = -1
        for n, k, value in usable:
            if combination[n] == values[n][k]:
                extra = value
        expected.append({"name": "/".join(str(v) for v in combination), **dict(zip(fields, combination)),
                         "extra": extra})
    assert [dict(generated.entry) for generated in made] == expected


def test_copies_shared_by_every_generated_entry_or_set_by_an_override(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    deck = folder / "components" / "deck.yaml"
    deck.write_text(deck.read_text().replace("    points: 0\n", "    points: 0\n    copies: 2\n").replace(
        "fields: {points: 4}", "fields: {points: 4, copies: 3}"))
    counts = {c.name: c.count for c in load_ruleset(str(folder)).components}
    assert (counts["2S"], counts["13H"], counts["14S"], counts["14C"], counts["joker"]) == (2, 2, 3, 3, 1)
    assert sum(counts.values()) == 48 * 2 + 4 * 3 + 1
