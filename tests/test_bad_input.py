"""Every kind of mistake gets a clear message at `path:line:col` and a non-zero exit, never a traceback.

Each test copies the bundled Snow Time ruleset into a temporary folder, plants one mistake by editing
its text, runs the CLI in-process (`snowrules.cli.main`, which returns the exit code) and checks the
exact position of the line it broke. The expected line and column are computed from the edited text,
so the tests keep working when the bundled files gain or lose lines.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from snowrules.cli.main import main

SNOW_TIME = Path(__file__).resolve().parent.parent / "rulesets" / "snow_time"
GAME = "game"  # the copy's folder name; the CLI shows paths relative to the working folder


# --- helpers ----------------------------------------------------------------------------------------


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A private copy of rulesets/snow_time, with the working folder set to its parent."""
    folder = tmp_path / GAME
    shutil.copytree(SNOW_TIME, folder)
    monkeypatch.chdir(tmp_path)
    return folder


def cli(capsys, *args: str) -> tuple[int, str, str]:
    """Run `snowrules ARGS` in-process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def fails(capsys, workdir: Path, *args: str, codes: tuple[int, ...] = (1,)) -> str:
    """Run a command that must fail: its exit code is in `codes`, no traceback is shown, and no file
    under `workdir` is changed, created or removed. Returns stdout and stderr together."""
    before = snapshot(workdir)
    code, out, err = cli(capsys, *args)
    output = out + err
    assert code in codes, f"exit code {code}, expected {codes}; output:\n{output}"
    assert "Traceback" not in output
    assert "internal error" not in output
    assert snapshot(workdir) == before, "a failed command changed, created or removed a file"
    return output


def edit(path: Path, old: str, new: str) -> tuple[int, str]:
    """Replace the single occurrence of `old` in `path` by `new`; return the 1-based number of the
    line where the replacement starts, and that line's new text."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}, expected once"
    start = text.index(old)
    text = text[:start] + new + text[start + len(old):]
    path.write_text(text, encoding="utf-8")
    number = text.count("\n", 0, start) + 1
    return number, text.splitlines()[number - 1]


def find_line(path: Path, pattern: str) -> tuple[int, str]:
    """The first line of `path` matching the regular expression `pattern`: (1-based number, text)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if re.search(pattern, line):
            return number, line
    pytest.fail(f"no line of {path} matches {pattern!r}")


def edit_line(path: Path, number: int, new_text: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[number - 1] = new_text + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def at(rel: str, line: int, col: int | None = None) -> str:
    """The `path:line:col: error:` prefix (or `path:line:` when the column is not checked)."""
    return f"{GAME}/{rel}:{line}:{col}: error:" if col is not None else f"{GAME}/{rel}:{line}:"


def validate_diagnostics(capsys, folder: Path) -> set[str]:
    """The diagnostics `validate` prints for `folder` (none for the pristine copy of a valid ruleset)."""
    _, out, _ = cli(capsys, "validate", folder.name)
    return set(diagnostic_lines(out, f"{folder.name}/"))


def diagnostic_lines(output: str, prefix: str) -> list[str]:
    """The output's lines that start (after any indentation) with `prefix`."""
    return [line.strip() for line in output.splitlines() if line.strip().startswith(prefix)]


# --- rules.sr -----------------------------------------------------------------------------------


def test_syntax_error_missing_colon_after_phase(game, capsys):
    rules = game / "rules.sr"
    number, line = find_line(rules, r"^\s*phase \w+:\s*$")
    broken = line.rstrip().removesuffix(":")
    edit_line(rules, number, broken)
    output = fails(capsys, game, "validate", GAME)
    # the line ends where the ':' should have been
    found = diagnostic_lines(output, at("rules.sr", number, len(broken) + 1))
    assert found, output
    assert "ends too early" in found[0]
    assert "expected ':'" in found[0]


def test_unknown_zone_name_suggests_the_close_one(game, capsys):
    rules = game / "rules.sr"
    number, line = edit(rules, "move all from box to supply", "move all from box to suply")
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("rules.sr", number, line.index("suply") + 1))
    assert found, output
    assert "unknown name 'suply'" in found[0]
    assert "did you mean 'supply'" in found[0]


def test_type_error_number_compared_with_text(game, capsys):
    rules = game / "rules.sr"
    baseline = validate_diagnostics(capsys, game)
    number, line = edit(rules, "if points > 0:", 'if points > "x":')
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("rules.sr", number, line.index('"x"') + 1))
    assert found, output
    assert "must be a number, not a text" in found[0]
    new = set(diagnostic_lines(output, f"{GAME}/")) - baseline
    assert new == {found[0]}, f"one mistake, one diagnostic:\n{output}"


# --- components/*.yaml -------------------------------------------------------------------------


def test_misspelled_card_field(game, capsys):
    cards = game / "components" / "cards.yaml"
    number, line = edit(cards, '{name: "3", kind: character, number: 3}', '{name: "3", kind: character, nubmer: 3}')
    output = fails(capsys, game, "validate", GAME)
    # at the misspelt key itself, with the field it was meant to be (issue 10, placement)
    found = diagnostic_lines(output, at("components/cards.yaml", number, line.index("nubmer") + 1))
    assert any("unknown field 'nubmer'" in d and "did you mean 'number'?" in d for d in found), output


def test_missing_required_card_field(game, capsys):
    cards = game / "components" / "cards.yaml"
    number, line = edit(cards, '{name: "4", kind: character, number: 4}', '{name: "4", kind: character}')
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("components/cards.yaml", number, line.index("{") + 1))
    assert found, output
    assert "'number' is a required property" in found[0]


def test_wrong_value_type_in_yaml(game, capsys):
    cards = game / "components" / "cards.yaml"
    number, line = edit(cards, '{name: "5", kind: character, number: 5}',
                        '{name: "5", kind: character, number: "seven"}')
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("components/cards.yaml", number, line.index('"seven"') + 1))
    assert found, output
    assert "'seven' is not of type 'integer'" in found[0]


def test_malformed_yaml_unclosed_bracket(game, capsys):
    cards = game / "components" / "cards.yaml"
    number, line = edit(cards, '{name: "5", kind: character, number: 5}', '{name: "5", kind: character, number: 5')
    output = fails(capsys, game, "validate", GAME)
    # reported where the '{' opens, not on the next line where the YAML parser gives up
    found = diagnostic_lines(output, at("components/cards.yaml", number, line.index("{") + 1))
    assert found, output
    assert "YAML syntax" in found[0]
    assert "not closed" in found[0]


def test_a_yaml_key_that_is_a_list_is_refused_at_the_key(game, capsys):
    """`{..., [x]: 5}` makes a list a map's key: ruamel failed with an unhashable TypeError (an
    internal error, found by test_fuzz_input); it is a syntax error at the key."""
    cards = game / "components" / "cards.yaml"
    number, line = edit(cards, '{name: "5", kind: character, number: 5}', '{name: "5", kind: character, [x]: 5}')
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("components/cards.yaml", number, line.index("[x]") + 1))
    assert found, output
    assert "YAML syntax: a key must be a plain value (a name, a number or a text), not a list or a map" in found[0]


def test_malformed_yaml_unclosed_list_in_manifest(game, capsys):
    manifest = game / "ruleset.yaml"
    number, line = find_line(manifest, r"^rules: \[.*\]\s*$")
    edit_line(manifest, number, line.rstrip().removesuffix("]"))
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("[") + 1))
    assert found, output
    assert "not closed" in found[0]


# --- DSL snippets inside YAML ------------------------------------------------------------------


def test_effect_syntax_error_on_a_later_line_of_the_block(game, capsys):
    """A snippet's third line: the position is that line of cards.yaml, and its column counts the
    block's indentation."""
    cards = game / "components" / "cards.yaml"
    number, line = find_line(cards, r"^\s+else:\s*$")
    broken = line.rstrip().removesuffix(":")
    edit_line(cards, number, broken)
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("components/cards.yaml", number, len(broken) + 1))
    assert found, output
    assert "ends too early" in found[0]


def test_effect_syntax_error_on_the_first_line_of_the_block(game, capsys):
    cards = game / "components" / "cards.yaml"
    number, line = find_line(cards, r"^\s+effect: \|")
    first = number + 1
    text = cards.read_text(encoding="utf-8").splitlines()[first - 1]
    edit_line(cards, first, text + ")")
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("components/cards.yaml", first, len(text) + 1))
    assert found, output
    assert "unexpected ')'" in found[0]


def test_unknown_name_inside_an_effect(game, capsys):
    cards = game / "components" / "cards.yaml"
    number, line = edit(cards, "move all from me.discard to me.hand", "move all from me.discard to hnd")
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("components/cards.yaml", number, line.index("hnd") + 1))
    assert found, output
    assert "unknown name 'hnd'" in found[0]
    assert "did you mean 'hand'" in found[0]


# --- manifest and variants ---------------------------------------------------------------------


def test_manifest_lists_a_missing_component_file(game, capsys):
    manifest = game / "ruleset.yaml"
    number, line = edit(manifest, "- components/fruit.yaml", "- components/fruits.yaml")
    output = fails(capsys, game, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("components/") + 1))
    assert found, output
    assert "file not found: components/fruits.yaml" in found[0]


def test_unknown_variant(game, capsys):
    # a wrong argument (exit 2), as an unknown --option: said with the variants there are, not at
    # the manifest's line (which, for a bundled ruleset, is inside the installed package)
    output = fails(capsys, game, "run", GAME, "--variant", "nope", codes=(2,))
    assert output.endswith("snowrules run: error: --variant: unknown variant 'nope' "
                           "(this ruleset's variants: short_track, two_colours)\n")


# --- several problems at once ------------------------------------------------------------------


def test_validate_reports_every_problem_not_only_the_first(game, capsys):
    baseline = validate_diagnostics(capsys, game)
    rules_line, rules_text = edit(game / "rules.sr", "if points > 0:", 'if points > "x":')
    cards_line, cards_text = edit(game / "components" / "cards.yaml", '{name: "5", kind: character, number: 5}',
                                  '{name: "5", kind: character, number: "seven"}')
    manifest_line, manifest_text = edit(game / "ruleset.yaml", "- components/fruit.yaml", "- components/fruits.yaml")
    scenario_line, scenario_text = edit(game / "scenarios" / "doubles.yaml", "players: 2", "players: two")
    output = fails(capsys, game, "validate", GAME)
    expected = [
        at("rules.sr", rules_line, rules_text.index('"x"') + 1),
        at("components/cards.yaml", cards_line, cards_text.index('"seven"') + 1),
        at("ruleset.yaml", manifest_line, manifest_text.index("components/") + 1),
        at("scenarios/doubles.yaml", scenario_line, scenario_text.index("two") + 1),
    ]
    for prefix in expected:
        assert diagnostic_lines(output, prefix), f"{prefix} missing from:\n{output}"
    found = set(diagnostic_lines(output, f"{GAME}/"))
    assert len(found - baseline) == 4, f"four mistakes, four diagnostics:\n{output}"
    assert f"{len(found)} problem(s) found" in output


# --- scenarios ---------------------------------------------------------------------------------


def test_scenario_with_a_wrong_seat_name(game, capsys):
    scenario = game / "scenarios" / "healer_options.yaml"
    number, line = edit(scenario, "- {Marie: Marie Healer,", "- {Maria: Marie Healer,")
    output = fails(capsys, game, "test", GAME)
    found = diagnostic_lines(output, at("scenarios/healer_options.yaml", number, line.index("Maria") + 1))
    assert found, output
    assert "unknown seat 'Maria'" in found[0]
    assert "did you mean Marie" in found[0]
    assert "FAIL healer_options.yaml" in output
    scenarios = len(list((game / "scenarios").glob("*.yaml")))
    assert f"{scenarios - 1} passed, 1 failed" in output


def test_scenario_with_a_wrong_zone_name(game, capsys):
    scenario = game / "scenarios" / "healer_options.yaml"
    number, line = edit(scenario, "Marie.discard:", "Marie.discrad:")
    output = fails(capsys, game, "test", GAME)
    found = diagnostic_lines(output, at("scenarios/healer_options.yaml", number, line.index("Marie.discrad") + 1))
    assert found, output
    assert "unknown zone 'Marie.discrad'" in found[0]
    assert "did you mean Marie.discard" in found[0]


# --- nothing already written is lost -----------------------------------------------------------

PRECIOUS = b'{"e":"header","note":"a log written earlier, which a failed run must not touch"}\n'


@pytest.mark.parametrize("arguments, code", [
    (["--players", "9"], 2),
    (["--players", "x"], 2),
    (["--agents", "robot"], 2),
    (["--players", "3", "--agents", "random,first"], 2),
    (["--variant", "nope"], 2),  # a wrong argument, as an unknown --option
], ids=["players-9", "players-x", "unknown-agent", "agents-count", "unknown-variant"])
def test_failed_run_keeps_an_existing_log(game, capsys, tmp_path, arguments, code):
    log = tmp_path / "existing.jsonl"
    log.write_bytes(PRECIOUS)
    fails(capsys, tmp_path, "run", GAME, "--log", log, *arguments, codes=(code,))
    assert log.read_bytes() == PRECIOUS
    assert not list(tmp_path.glob("*.partial"))


def test_run_of_a_broken_ruleset_keeps_an_existing_log(game, capsys, tmp_path):
    log = tmp_path / "existing.jsonl"
    log.write_bytes(PRECIOUS)
    number, line = edit(game / "rules.sr", "move all from box to supply", "move all from box to suply")
    output = fails(capsys, tmp_path, "run", GAME, "--players", "3", "--log", log)
    assert at("rules.sr", number, line.index("suply") + 1) in output
    assert log.read_bytes() == PRECIOUS
    assert not list(tmp_path.glob("*.partial"))


def test_failed_replay_keeps_its_log(game, capsys, tmp_path):
    log = tmp_path / "broken.jsonl"
    log.write_bytes(PRECIOUS + b"not json\n")
    output = fails(capsys, tmp_path, "replay", log)
    assert f"{log}:1:1: error: the first line must be a snowrules-log/2 header" in output


# --- the real console script -------------------------------------------------------------------


def _console_script() -> list[str]:
    beside = Path(sys.executable).parent / "snowrules"
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("snowrules")
    assert found, "the snowrules console script is not installed"
    return [found]


def test_console_script_never_shows_a_traceback(game, tmp_path):
    number, line = edit(game / "rules.sr", "if points > 0:", 'if points > "x":')
    type_error = at("rules.sr", number, line.index('"x"') + 1)
    not_json = tmp_path / "not_json.jsonl"
    not_json.write_text("{oops\n", encoding="utf-8")
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    cases = [
        (["validate", GAME], 1, type_error),
        (["run", GAME, "--players", "x"], 2, "invalid int value: 'x'"),
        (["run", GAME, "--players", "9"], 2, "--players 9"),
        (["frob"], 2, "invalid choice: 'frob'"),
        (["replay", str(not_json)], 1, f"{not_json}:1:"),
        (["test", GAME], 1, type_error),
        (["run", GAME, "--players", "3"], 1, type_error),
    ]
    for arguments, code, expected in cases:
        before = snapshot(tmp_path)
        done = subprocess.run(_console_script() + arguments, cwd=tmp_path, capture_output=True, text=True,
                              env=environment, timeout=120)
        assert done.returncode == code, (arguments, done.returncode, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, (arguments, done.stderr)
        assert expected in done.stdout + done.stderr, (arguments, done.stdout, done.stderr)
        assert snapshot(tmp_path) == before, arguments


def test_a_runtime_failure_is_reported_at_the_rule_that_failed(tmp_path, capsys):
    """A value of the wrong kind that only shows while a game runs (here: a table lookup that
    finds nothing) is reported at its own line, even inside generated code."""
    import shutil

    from snowrules.cli.main import main
    from snowrules.load.ruleset import BUNDLED_RULESETS
    folder = tmp_path / "snow_time"
    shutil.copytree(BUNDLED_RULESETS / "snow_time", folder)
    rules = folder / "rules.sr"
    text = rules.read_text()
    old = "if space != none and p.scored[space.type] > 0:"
    assert old in text
    rules.write_text(text.replace(old, "if space.amount > 0 and p.scored[space.type] > 0:"))
    line, col = next((i, x.index("if") + 1) for i, x in enumerate(rules.read_text().splitlines(), 1)
                     if "space.amount > 0" in x)
    assert main(["run", str(folder), "--players", "3", "--json"]) == 1
    err = capsys.readouterr().err
    assert f"rules.sr:{line}:{col}: error: a value is none where this rule needs one" in err
    assert "Traceback" not in err


# --- options, action ids and returns in a manifest ----------------------------------------------

OH_HELL = SNOW_TIME.parent / "oh_hell"


@pytest.fixture
def oh_hell(tmp_path, monkeypatch) -> Path:
    """A private copy of rulesets/oh_hell, under the same folder name as `game`."""
    folder = tmp_path / GAME
    shutil.copytree(OH_HELL, folder)
    monkeypatch.chdir(tmp_path)
    return folder


def test_unknown_name_in_an_action_id(oh_hell, capsys):
    manifest = oh_hell / "ruleset.yaml"
    number, line = edit(manifest, "    component: it.rank * num_suits + it.suit\n    value: deck_size() + it",
                        "    component: it.rank * num_suit + it.suit\n    value: deck_size() + it")
    output = fails(capsys, oh_hell, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("num_suit") + 1))
    assert found, output
    assert "unknown name 'num_suit'" in found[0] and "did you mean 'num_suits'" in found[0]


def test_an_action_id_that_is_not_a_number(oh_hell, capsys):
    manifest = oh_hell / "ruleset.yaml"
    number, line = edit(manifest, "    player: seat_number(it)", "    player: it")
    output = fails(capsys, oh_hell, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("it") + 1))
    assert found, output
    assert "must be a number, not a player" in found[0]


def test_a_syntax_error_in_the_returns(oh_hell, capsys):
    manifest = oh_hell / "ruleset.yaml"
    number, line = edit(manifest, "  max: points_per_trick * max_tricks() + made_bid_bonus",
                        "  max: points_per_trick * max_tricks() + + made_bid_bonus")
    output = fails(capsys, oh_hell, "validate", GAME)
    assert diagnostic_lines(output, at("ruleset.yaml", number)), output


def test_an_option_default_outside_its_own_range(oh_hell, capsys):
    manifest = oh_hell / "ruleset.yaml"
    number, line = edit(manifest, "num_suits: {default: 4,", "num_suits: {default: 5,")
    output = fails(capsys, oh_hell, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("{") + 1))
    assert found, output
    assert "num_suits must be between 1 and 4, not 5" in found[0]


def test_an_option_with_the_name_of_a_constant(oh_hell, capsys):
    manifest = oh_hell / "ruleset.yaml"
    edit(manifest, "  points_per_trick: {", "  made_bid_bonus: {default: 3}\n  points_per_trick: {")
    rules = oh_hell / "rules.sr"
    number, _ = find_line(rules, r"^constant made_bid_bonus")
    output = fails(capsys, oh_hell, "validate", GAME)
    found = diagnostic_lines(output, at("rules.sr", number, 1))
    assert found, output
    assert "'made_bid_bonus' is already defined" in found[0] and "ruleset.yaml" in found[0]


def test_a_random_draw_misspelled(oh_hell, capsys):
    rules = oh_hell / "rules.sr"
    number, line = edit(rules, "move 1 at random from deck to trump_card", "move 1 at randm from deck to trump_card")
    output = fails(capsys, oh_hell, "validate", GAME)
    assert diagnostic_lines(output, at("rules.sr", number, line.index("randm") + 1)), output


@pytest.mark.parametrize("option, message", [
    ("num_suit=2", "has no option 'num_suit'"),
    ("num_suits=two", "num_suits must be int"),
    ("num_suits=9", "between 1 and 4"),
    ("off_bid_penalty=maybe", "off_bid_penalty must be bool"),
    ("num_suits", "write NAME=VALUE"),
])
def test_a_wrong_option_on_the_command_line(oh_hell, capsys, option, message):
    output = fails(capsys, oh_hell, "run", GAME, "--option", option, codes=(2,))
    assert message in output


def test_a_scenario_with_a_wrong_option(oh_hell, capsys):
    scenario = oh_hell / "scenarios" / "dealer_bid_restriction.yaml"
    number, line = edit(scenario, "options: {num_tricks_fixed: 2}", "options: {num_trick_fixed: 2}")
    output = fails(capsys, oh_hell, "test", GAME)
    found = diagnostic_lines(output, at("scenarios/dealer_bid_restriction.yaml", number))
    assert found, output
    assert "has no option 'num_trick_fixed'" in output


def test_options_that_break_a_manifest_constraint(oh_hell, capsys):
    """[OhHellGame] OpenSpiel refuses a fixed number of tricks that leaves no card for trump:
    7 players x 8 tricks = 56 cards > 52 - 1."""
    number, line = find_line(oh_hell / "ruleset.yaml", r"holds: num_tricks_fixed <=")
    output = fails(capsys, oh_hell, "run", GAME, "--players", "7", "--option", "num_tricks_fixed=8")
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("num_tricks_fixed") + 1))
    assert found, output
    assert "must leave a card to turn up as trump" in found[0] and "num_tricks_fixed=8" in found[0]


def test_a_constraint_that_reads_the_state(oh_hell, capsys):
    manifest = oh_hell / "ruleset.yaml"
    number, line = edit(manifest, "  - holds: player_count <= num_suits * num_cards_per_suit - 1",
                        "  - holds: size(deck) >= 0")
    output = fails(capsys, oh_hell, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("size") + 1))
    assert found, output
    assert "only constants, options and player_count" in found[0]


def test_an_option_range_on_a_text_option(tmp_path, monkeypatch, capsys):
    folder = tmp_path / GAME
    shutil.copytree(SNOW_TIME.parent / "goofspiel", folder)
    monkeypatch.chdir(tmp_path)
    number, line = edit(folder / "ruleset.yaml", "points_order: {default: random,",
                        "points_order: {default: random, minimum: 1,")
    output = fails(capsys, folder, "validate", GAME)
    found = diagnostic_lines(output, at("ruleset.yaml", number, line.index("{") + 1))
    assert found, output
    assert "minimum and maximum are for whole numbers" in found[0]
    fails(capsys, folder, "run", GAME)  # refused the same way, no internal error
