"""No silent fallbacks (issue 25 point 3): an information state does not depend on the path a
ruleset was loaded from; ids numbered by position while action_ids are declared are a warning at
the decision. Tables: input -> exact output."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from snowrules.adapters.recall import rule_in_folder

ROOT = Path(__file__).resolve().parent
RECALL = ROOT / "rulesets" / "recall"

# (a rule's position as loaded, shown relative to the working folder ROOT or absolute; the
# ruleset's folder; the position as information states show it). ROOT stands for a temporary folder.
RULE_PLACES = [
    ("recall/rules.sr:13:9", "ROOT/recall", "rules.sr:13:9"),
    ("ROOT/recall/rules.sr:13:9", "ROOT/recall", "rules.sr:13:9"),
    ("ROOT/x/../recall/rules.sr:8:5", "ROOT/recall", "rules.sr:8:5"),
    ("x/../recall/more/turns.sr:2:1", "ROOT/recall", "more/turns.sr:2:1"),
    ("/elsewhere/rules.sr:2:1", "ROOT/recall", "rules.sr:2:1"),  # outside the folder: its name only
    ("recall/rules.sr:2:1", "", "recall/rules.sr:2:1"),  # no folder known: as it was
]


@pytest.mark.parametrize("rule, folder, expected", RULE_PLACES)
def test_a_rule_is_named_inside_its_folder(rule, folder, expected, tmp_path, monkeypatch):
    root = str(tmp_path.resolve())
    monkeypatch.chdir(root)
    assert rule_in_folder(rule.replace("ROOT", root), folder.replace("ROOT", root)) == expected


def test_the_same_game_from_two_paths_has_the_same_information_states(tmp_path, monkeypatch):
    pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    monkeypatch.chdir(ROOT)
    roundabout = os.path.relpath(RECALL, ROOT / "golden")  # ../rulesets/recall, from tests/golden
    texts = []
    for path in (str(RECALL), f"golden/{roundabout}"):
        state = load_game(path).new_initial_state()
        state.apply_action(1)
        state.apply_action(0)
        texts.append((state.information_state_string(0), state.information_state_string(1)))
    assert texts[0] == texts[1]
    assert texts[0][1].splitlines()[-1] == 'asked at rules.sr:13:9: ["1", "2"]'


POSITION_RULES = """game "Probe"
zone deck shared public
zone hand per player public
each turn:
    let p = first(players)
    ask p to choose c from p.hand:
        move c to deck
    ask p to choose n from [1, 2]:
        announce n
    ask p to choose k from [each x in [1, 2, 3] where x > turn]:
        announce k
    ask p to choose up to 2 cards from p.hand:
        announce size(cards)
    choose d at random from deck
    end game
"""
SAID = ("the options of this decision are numbered by their place among its options: the manifest's "
        "action_ids declares no `choice:` ids")
SAID_CHANCE = SAID.replace("decision", "random pick").replace("`choice:`", "`chance:`")
# (the manifest's action_ids, expected warnings (line, col, message)): decisions over fixed
# constants (line 8) and combinations (line 12) are never warned about.
POSITION_IDS = [
    ("", []),
    ('action_ids: {distinct: "10"}', [(6, 5, SAID), (10, 5, SAID), (14, 5, SAID_CHANCE)]),
    ('action_ids: {distinct: "10", choice: {value: it}}', [(14, 5, SAID_CHANCE)]),
    ('action_ids: {distinct: "10", chance: {component: "0"}}', [(6, 5, SAID), (10, 5, SAID)]),
    ('action_ids: {distinct: "10", by_position: true}', []),
]


@pytest.mark.parametrize("ids, expected", POSITION_IDS)
def test_ids_by_position_are_a_warning_at_the_decision(tmp_path, ids, expected):
    from conftest import ruleset_folder
    from snowrules.load.fallbacks import position_id_warnings
    from snowrules.load.ruleset import read_ruleset
    folder = ruleset_folder(tmp_path, POSITION_RULES, "schema: token_list.schema.json\ncomponents: []\n")
    (folder / "ruleset.yaml").write_text((folder / "ruleset.yaml").read_text() + ids + "\n")
    ruleset, problems = read_ruleset(str(folder))
    assert problems == []
    found = position_id_warnings(ruleset.interface, ruleset.ids_by_position, ruleset.rules)
    assert [(d.position.line, d.position.col, d.message) for d in found] == expected
    assert {(d.severity, d.code) for d in found} <= {("warning", "SR408")}


def test_validate_shows_the_warning_and_still_passes(tmp_path, capsys):
    from conftest import ruleset_folder
    from snowrules.cli.main import main
    folder = ruleset_folder(tmp_path, POSITION_RULES, "schema: token_list.schema.json\ncomponents: []\n")
    (folder / "ruleset.yaml").write_text((folder / "ruleset.yaml").read_text() + 'action_ids: {distinct: "10"}\n')
    assert main(["validate", str(folder), "--no-play"]) == 0
    out = capsys.readouterr().out
    assert [line.split(": warning: ")[0].rsplit("/", 1)[1] for line in out.splitlines() if "SR408" in line] == [
        "rules.sr:6:5", "rules.sr:10:5", "rules.sr:14:5"]


# (the options of a decision, the kind its options are told apart by: "value" options take the
# manifest's `choice: value:` ids; before, `[]` beside texts made them "component", ids lost)
OPTION_KINDS = [
    ('["a"] if turn > 5 else ["b", "c"]', "value"),
    ('flatten([["a"] if turn > 5 else [], ["b", "c"]])', "value"),
    ('[] if turn > 5 else ["b", "c"]', "value"),
    ('flatten([["b"], [], ["c"]])', "value"),
    ('flatten([[1] if turn > 5 else [], [2, 3]])', "value"),
    ('[each x in ["b", "c"] where turn < 5]', "value"),  # a filter
    ('unique(["b", "c", "b"])', "value"),
    ('[each x in flatten([[], ["b", "c"]]) where turn < 5]', "value"),  # concatenation is flatten
]


@pytest.mark.parametrize("options, kind", OPTION_KINDS)
def test_declared_text_ids_survive_an_empty_list_beside_them(tmp_path, options, kind):
    from conftest import ruleset_folder
    from snowrules.compile.compiler import compile_ruleset
    from snowrules.load.ruleset import load_ruleset
    from snowrules.runtime.engine import Game
    rules = (f'game "P"\neach turn:\n    ask first(players) to choose x from {options}:\n'
             '        announce x\n    end game\n')
    folder = ruleset_folder(tmp_path, rules, "schema: token_list.schema.json\ncomponents: []\n")
    (folder / "ruleset.yaml").write_text((folder / "ruleset.yaml").read_text()
                                         + 'action_ids: {distinct: "10", choice: {value: \'1 if it == "b" else 2\'}}\n')
    state = Game(compile_ruleset(load_ruleset(str(folder)), 2)).start(1)
    assert (state.pending.kind, len(state.pending.options[0])) == (kind, 2)


# An id is needed only for what is offered: a first player token without the `value` the ids read
# is not offered (validate: valid); when a rule offers it, the game says so at its decision.
TOKEN_IN_HAND = '''    move [each c in box where c.name == "first player token"] to first(players).hand
'''


@pytest.mark.parametrize("offered", [False, True])
def test_an_id_is_needed_only_for_what_is_offered(tmp_path, capsys, offered):
    from snowrules.cli.main import main
    folder = tmp_path / "high_card"
    assert main(["new", str(folder)]) == 0
    manifest, schema, cards, rules = (folder / "ruleset.yaml", folder / "schemas" / "card.schema.json",
                                      folder / "components" / "cards.yaml", folder / "rules.sr")
    manifest.write_text(manifest.read_text() + 'action_ids:\n  distinct: "6"\n  choice: {component: it.value - 1}\n')
    schema.write_text(schema.read_text().replace('"required": ["name", "value"]', '"required": ["name"]'))
    cards.write_text(cards.read_text() + "  - {name: first player token}\n")
    deal = "    move all from box to deck\n"
    rules.write_text(rules.read_text().replace(deal, (TOKEN_IN_HAND if offered else "")
                                               + '    move [each c in box where c.name != "first player token"] '
                                               "to deck\n"))
    capsys.readouterr()
    assert main(["validate", "--no-play", "--no-scenarios", str(folder)]) == 0  # was: exit 1 at the manifest
    if not offered:
        return
    pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    from snowrules.language.diagnostics import RuntimeRulesError
    state = load_game(str(folder)).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(RuntimeRulesError) as raised:
        state.legal_actions()
    assert str(raised.value.diagnostics[0]).replace(f"{folder}/", "") == (
        "ruleset.yaml:13:23: error: 'first player token' is offered but has no id: a value is none where this "
        "rule needs one (find() or first() found nothing?), in this manifest expression (hint: the decision is "
        "at rules.sr:25:9; give 'first player token' what its id reads, or do not offer it there)")
