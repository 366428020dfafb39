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


def test_a_scenario_naming_the_rulesets_first_seats_shares_the_program_of_a_count(tmp_path):
    """`players: [p0, p1]` names the ruleset's own first two seats: the same game as `players: 2`,
    so one program serves both (validate compiled Snow Planner's configurations twice for want of
    this: 9.7 -> 7.2-7.8 s). Seats of their own still get a program of their own."""
    source = (BUNDLED_RULESETS / "goofspiel" / "scenarios" / "equal_points_share_the_win.yaml").read_text(
        encoding="utf-8")
    assert "\nplayers: 2\n" in source
    files = {}
    for name, players in (("counted", "2"), ("named", "[p0, p1]"), ("own", "[west, east]")):
        text = source.replace("\nplayers: 2\n", f"\nplayers: {players}\n")
        if name == "own":
            text = text.replace("p0", "west").replace("p1", "east")
        files[name] = tmp_path / f"{name}.yaml"
        files[name].write_text(text, encoding="utf-8")
    read: dict = {}
    results = {name: run_scenario(path, "goofspiel", read=read) for name, path in files.items()}
    assert all(result.passed for result in results.values()), {n: r.failures for n, r in results.items()}
    programs = {key[-2]: value for key, value in read.items() if key[0] == "program"}
    assert len(read) == 1 + 2 and set(programs) == {("p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"),
                                                    ("west", "east")}


def test_the_clock_bounds_the_scenarios_game_not_the_reading_and_compiling(monkeypatch):
    """validate and test give a scenario `--time-limit` seconds (5 by default) for its game; reading
    the ruleset and compiling the configuration, bounded by the limits on sizes as validate's check
    is, came inside that clock, and took most of it for Snow Planner's first scenario of a
    configuration on a loaded machine (issue 29)."""
    from contextlib import contextmanager

    import snowrules.records.scenarios as scenarios
    from snowrules.runtime.engine import Game
    inside: list[bool] = []
    seen: list[tuple[str, bool]] = []

    @contextmanager
    def clock():
        inside.append(True)
        yield
        inside.pop()

    def noted(name, original):
        def call(*args, **kwargs):
            seen.append((name, bool(inside)))
            return original(*args, **kwargs)
        return call
    monkeypatch.setattr(scenarios, "load_ruleset", noted("read", scenarios.load_ruleset))
    monkeypatch.setattr(scenarios, "compile_ruleset", noted("compile", scenarios.compile_ruleset))
    monkeypatch.setattr(Game, "start", noted("start", Game.start))
    result = run_scenario(BUNDLED_RULESETS / "snow_time" / "scenarios" / "doubles.yaml", "snow_time", read={},
                          clock=clock)
    assert result.passed
    assert seen == [("read", False), ("compile", False), ("start", True)]
