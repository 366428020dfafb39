"""Every bundled ruleset's scenarios (rulebook examples with exact expected values) pass, and a
scenario whose expectation is wrong fails, naming the line and both values."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from snowrules.load.ruleset import BUNDLED_RULESETS, bundled_names, load_ruleset
from snowrules.records.scenarios import run_scenario, scenario_files

SCENARIOS = [(name, path) for name in bundled_names() for path in scenario_files(load_ruleset(name))]
READ: dict = {}  # each bundled ruleset read once for all its scenarios, as `snowrules test` does


@pytest.mark.parametrize("name,path", SCENARIOS, ids=[f"{n}/{p.stem}" for n, p in SCENARIOS])
def test_scenario_passes(name, path):
    result = run_scenario(path, name, read=READ)
    assert result.passed, "\n".join(result.failures)


def test_every_bundled_ruleset_has_scenarios():
    for name in bundled_names():
        assert scenario_files(load_ruleset(name)), f"{name} has no scenarios"


def test_a_wrong_expectation_fails_with_its_line(tmp_path):
    folder = tmp_path / "snow_time"
    shutil.copytree(BUNDLED_RULESETS / "snow_time", folder)
    path = folder / "scenarios" / "example_turn_resolution.yaml"
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if "Marie.score: 11" in line)
    lines[number] = lines[number].replace("Marie.score: 11", "Marie.score: 12")
    path.write_text("\n".join(lines) + "\n")
    result = run_scenario(path, str(folder))
    assert not result.passed
    assert len(result.failures) == 1
    assert f":{number + 1}:" in result.failures[0]
    assert "Marie.score is 11, expected 12" in result.failures[0]


def test_an_illegal_forced_choice_is_reported(tmp_path):
    folder = tmp_path / "snow_time"
    shutil.copytree(BUNDLED_RULESETS / "snow_time", folder)
    path = folder / "scenarios" / "watcher.yaml"
    text = path.read_text().replace("{Marie: Marie 6}", "{Marie: Marie Watcher}")
    path.write_text(text)
    from snowrules.language.diagnostics import ScenarioError
    with pytest.raises(ScenarioError) as error:
        run_scenario(path, str(folder))
    assert "'Marie Watcher' is not a legal option for Marie" in str(error.value)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "{Marie: Marie Watcher}" in x)
    assert f"watcher.yaml:{line}:" in str(error.value)


_ = Path


def test_scenarios_that_share_a_read_ruleset_each_set_options_on_their_own_copy():
    """`snowrules test` and `validate` read a ruleset once for all its scenarios; a scenario's
    options (here Fair Forest as the tree card) stay in that scenario."""
    read: dict = {}
    folder = BUNDLED_RULESETS / "snowfall_over_mountains" / "scenarios"
    assert run_scenario(folder / "fair_forest.yaml", "snowfall_over_mountains", read=read).passed
    kept = read[("snowfall_over_mountains", None)]  # the ruleset as read (its compiled programs beside it)
    assert kept.option_values["tree_card"] == "random" and kept.constants["tree_card"][0] == "random"
    assert run_scenario(folder / "shady_grove.yaml", "snowfall_over_mountains", read=read).passed
