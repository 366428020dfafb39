"""No silent fallbacks (issue 25 point 3): an information state does not depend on the path a
ruleset was loaded from. Tables: input -> exact output."""
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
