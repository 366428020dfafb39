"""A provenance entry's `where:` naming a file the ruleset lacks is a warning at it (SR101,
load/provenance.py); each row a `where:` and the names reported, worked out by hand. The folder
holds rules.sr, economy.sr and components/cards.yaml."""
from __future__ import annotations

import pytest
from snowrules.load.provenance import stale_provenance

ROWS = [
    ("rules.sr", []),
    ("economy.sr (gain, gain_vp, advance), rules.sr", []),
    ("components/cards.yaml, economy.sr (gain)", []),
    ("rules_x.sr", ["rules_x.sr"]),
    # the planted mistake that passed silently (tests/mutations.py, a 300-case sample): the brackets
    # held commas, and `economy_x.sr (gain` was no path
    ("economy_x.sr (gain, gain_vp, advance), rules.sr", ["economy_x.sr"]),
    ("economy.sr (gain), components/cards_x.yaml (the deck, its backs)", ["components/cards_x.yaml"]),
    ("the rulebook's section on scoring", []),  # words, not a path
]


@pytest.mark.parametrize("where, named", ROWS)
def test_a_where_naming_a_missing_file_is_warned_at(tmp_path, where, named):
    (tmp_path / "components").mkdir()
    for name in ("rules.sr", "economy.sr", "components/cards.yaml"):
        (tmp_path / name).write_text("")
    (tmp_path / "ruleset.yaml").write_text(f'provenance:\n  - what: a gap\n    where: "{where}"\n')
    found = stale_provenance(tmp_path, "game/ruleset.yaml")
    assert [(str(d.position), d.code, d.severity) for d in found] == [("game/ruleset.yaml:3:12", "SR101", "warning")] \
        * len(named)
    assert [d.message for d in found] == [f"this provenance entry names {n!r}, which is not in the ruleset"
                                          for n in named]
