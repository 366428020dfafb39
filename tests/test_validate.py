"""`snowrules validate` as a CI gate: codes, formats, exit codes, files given one by one, unlisted
files, scenarios, duplicates and smoke games (issue 10 §3).

Each test copies a bundled ruleset, plants one mistake, runs the CLI in-process and checks the
exact line, column and code, computed from the edited text (never from the program's output).
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft4Validator
from snowrules.cli.main import main
from snowrules.language.codes import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
SARIF_SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A copy of Goofspiel in `game/`, the working folder its parent."""
    shutil.copytree(ROOT / "rulesets" / "goofspiel", tmp_path / "game")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "game"


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def edit(path: Path, old: str, new: str) -> tuple[int, int]:
    """Replace `old` (once) by `new`; the line and column where `new` starts."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    start = text.index(old)
    path.write_text(text[:start] + new + text[start + len(old):], encoding="utf-8")
    return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)


def misspell_card_field(game: Path) -> tuple[int, int]:
    """`value` misspelt `vaule` in the first point card: (line, column of the key)."""
    line, col = edit(game / "components" / "point_cards.yaml", "{name: prize 1, kind: point, value: 1}",
                     "{name: prize 1, kind: point, vaule: 1}")
    return line, col + len("{name: prize 1, kind: point, ")


# --- codes and their documentation -----------------------------------------------------------


def test_every_code_is_documented_with_an_example():
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    for code in CATALOGUE:
        section = re.search(rf"^#### {code.code}\n\*\*{code.name}\*\*(.*?)(?=^#### |\Z)", page, re.S | re.M)
        assert section, f"{code.code} ({code.name}) is not documented in docs/diagnostics.md"
        assert "```" in section.group(1) or code.code == "SR901", f"{code.code} has no example"
    documented = set(re.findall(r"^#### (SR\d{3})$", page, re.M))
    assert documented == {c.code for c in CATALOGUE}


def test_codes_are_unique_and_well_formed():
    codes = [c.code for c in CATALOGUE]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"SR\d{3}", c) for c in codes)
    assert len({c.name for c in CATALOGUE}) == len(CATALOGUE)


# --- exit codes and formats --------------------------------------------------------------------


def test_clean_ruleset_exits_0_in_every_format(game, capsys):
    for form in ("text", "json", "github", "sarif"):
        code, out, _ = cli(capsys, "validate", "game", "--format", form, "--no-play")
        assert code == 0, (form, out)
    code, out, _ = cli(capsys, "validate", "game", "--format", "json", "--no-play")
    assert json.loads(out)["diagnostics"] == []


@pytest.mark.parametrize(("args", "status"), [
    (["validate", "game", "--format", "xml"], 2),
    (["validate"], 2),
    (["validate", "game", "--no-play"], 1),
    (["validate", "game", "--no-play", "--strict"], 1),
])
def test_exit_codes(game, capsys, args, status):
    misspell_card_field(game)
    assert cli(capsys, *args)[0] == status


def test_text_format_has_the_position_and_the_code(game, capsys):
    line, col = misspell_card_field(game)
    code, out, err = cli(capsys, "validate", "game", "--no-play")
    assert code == 1
    assert out == (f"game/components/point_cards.yaml:{line}:{col}: error: card 'prize 1': unknown field 'vaule' "
                   "(hint: did you mean 'value'?) [SR201]\n")
    assert "1 problem(s) found: 1 error(s), 0 warning(s)" in err


def test_json_format(game, capsys):
    line, col = misspell_card_field(game)
    _, out, _ = cli(capsys, "validate", "game", "--no-play", "--format", "json")
    report = json.loads(out)
    assert (report["format"], report["errors"], report["warnings"]) == ("snowrules-diagnostics/1", 1, 0)
    assert "version" not in report  # the version is in `format`, as in every other JSON object
    assert report["diagnostics"] == [{"path": "game/components/point_cards.yaml", "line": line, "col": col,
                                      "severity": "error", "code": "SR201",
                                      "message": "card 'prize 1': unknown field 'vaule'",
                                      "hint": "did you mean 'value'?"}]


def test_github_format_is_one_escaped_annotation_per_problem(game, capsys):
    line, col = misspell_card_field(game)
    _, out, _ = cli(capsys, "validate", "game", "--no-play", "--format", "github")
    # `:` and `,` are escaped in properties (the file), not in the message
    assert out == (f"::error file=game/components/point_cards.yaml,line={line},col={col},title=SR201::"
                   "card 'prize 1': unknown field 'vaule' (hint: did you mean 'value'?)\n")


def test_github_escapes_percent_and_newlines():
    from snowrules.cli.formats import render
    from snowrules.language.diagnostics import Diagnostic, Position
    text = render([Diagnostic(Position("a,b:c.yaml", 2, 3), "50% of\nit", code="SR204")], "github")
    assert text == "::error file=a%2Cb%3Ac.yaml,line=2,col=3,title=SR204::50%25 of%0Ait\n"


def test_sarif_format_follows_the_2_1_0_schema(game, capsys):
    line, col = misspell_card_field(game)
    edit(game / "rules.sr", "move card to p.bid", "move card to p.bdi")
    _, out, _ = cli(capsys, "validate", "game", "--no-play", "--format", "sarif")
    log = json.loads(out)
    errors = sorted(Draft4Validator(SARIF_SCHEMA).iter_errors(log), key=str)
    assert not errors, errors[0].message
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["SR201", "SR401"]
    first = run["results"][0]
    assert first["ruleId"] == "SR201" and first["level"] == "error"
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "game/components/point_cards.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": line, "startColumn": col}}


# --- files one by one, unlisted files ---------------------------------------------------------


def test_files_of_one_ruleset_given_one_by_one_print_each_problem_once(game, capsys):
    misspell_card_field(game)
    code, out, _ = cli(capsys, "validate", "game/rules.sr", "game/components/point_cards.yaml",
                       "game/ruleset.yaml", "--no-play")
    assert code == 1
    assert len(out.splitlines()) == 1, out


def test_an_unlisted_malformed_yaml_file_is_reported(game, capsys):
    (game / "components" / "extra_cards.yaml").write_text(
        "schema: card.schema.json\nper_seat: [true\ncomponents: []\n", encoding="utf-8")
    code, out, _ = cli(capsys, "validate", "game", "--no-play")
    assert code == 1
    assert "game/components/extra_cards.yaml:1:1: warning: this YAML file is not listed" in out
    assert "[SR105]" in out
    # its own mistake too, where the unclosed `[` opens
    assert "game/components/extra_cards.yaml:2:11: error: YAML syntax: a flow sequence starts here" in out


def test_an_unlisted_wellformed_yaml_file_is_a_warning_that_fails_only_with_strict(game, capsys):
    (game / "components" / "notes.yaml").write_text("schema: card.schema.json\ncomponents: []\n", encoding="utf-8")
    code, out, err = cli(capsys, "validate", "game", "--no-play")
    assert code == 0
    assert out.startswith("game/components/notes.yaml:1:1: warning: this YAML file is not listed"), out
    assert "[SR105]" in out and "0 error(s), 1 warning(s)" in err
    assert cli(capsys, "validate", "game", "--no-play", "--strict")[0] == 1
    _, out, _ = cli(capsys, "validate", "game", "--no-play", "--format", "github")
    assert out.startswith("::warning file=game/components/notes.yaml,line=1,col=1,title=SR105::")


# --- scenarios, duplicates, variants ----------------------------------------------------------

SCENARIO = "scenarios/highest_bid_takes_the_card.yaml"
SCENARIO_MISTAKES = [
    # (what, old text, new text, code, column offset of the mistake inside `new`)
    ("seat", "- {p0: p0 bid 13, p1: p1 bid 12}", "- {p0: p0 bid 13, p7: p1 bid 12}", "SR501", 0),
    ("zone", "zones: {prize: [prize 13]}", "zones: {prise: [prize 13]}", "SR501", 0),
    ("card", "zones: {prize: [prize 13]}", "zones: {prize: [prize 31]}", "SR501", 0),
    ("counter", "counters: {p0.score: 13, p1.score: 0}", "counters: {p0.scor: 13, p1.score: 0}", "SR501", 0),
    ("variant", "players: 2", "players: 2\nvariant: nope", "SR501", 1),
]


@pytest.mark.parametrize(("what", "old", "new", "code", "lines_down"), SCENARIO_MISTAKES,
                         ids=[m[0] for m in SCENARIO_MISTAKES])
def test_scenario_mistakes_are_reported_at_the_scenario_line(game, capsys, what, old, new, code, lines_down):
    line, _ = edit(game / SCENARIO, old, new)
    status, out, _ = cli(capsys, "validate", "game", "--no-play")
    assert status == 1
    found = [x for x in out.splitlines() if x.startswith(f"game/{SCENARIO}:{line + lines_down}:")]
    assert found and found[0].endswith(f"[{code}]"), out


def test_a_duplicate_component_is_reported_at_the_second_entry(game, capsys):
    entry = "  - {name: prize 2, kind: point, value: 2}"
    line, _ = edit(game / "components" / "point_cards.yaml", entry, entry + "\n" + entry)
    _, out, _ = cli(capsys, "validate", "game", "--no-play")
    assert out.startswith(f"game/components/point_cards.yaml:{line + 1}:6: error: component 'prize 2' is "
                          "defined twice"), out
    assert "[SR205]" in out and len(out.splitlines()) == 1


def test_one_card_without_its_name_is_one_error(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "rulesets" / "snow_time", tmp_path / "game")
    monkeypatch.chdir(tmp_path)
    line, col = edit(tmp_path / "game" / "components" / "cards.yaml", '{name: "4", kind: character, number: 4}',
                     "{kind: character, number: 4}")
    _, out, _ = cli(capsys, "validate", "game", "--no-play")
    assert out == f"game/components/cards.yaml:{line}:5: error: card #4: 'name' is a required property [SR202]\n"


def test_a_missing_variant_file_is_reported_at_the_manifest_line(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "rulesets" / "snow_time", tmp_path / "game")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game" / "variants" / "two_colours.yaml").unlink()
    text = (tmp_path / "game" / "ruleset.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, x in enumerate(text, 1) if "variants/two_colours.yaml" in x)
    col = text[line - 1].index("variants/") + 1
    _, out, _ = cli(capsys, "validate", "game", "--no-play")
    assert out.startswith(f"game/ruleset.yaml:{line}:{col}: error: file not found: variants/two_colours.yaml"), out


def test_indentation_is_reported_at_the_indented_line(game, capsys):
    line, _ = edit(game / "rules.sr", "zone prize shared public", "  zone prize shared public")
    _, out, _ = cli(capsys, "validate", "game", "--no-play")
    assert out.startswith(f"game/rules.sr:{line}:3: error: unexpected indentation"), out
    assert "[SR302]" in out


# --- smoke play --------------------------------------------------------------------------------


def test_deleting_setup_is_caught_by_smoke_play_at_its_rule(tmp_path, monkeypatch, capsys):
    """Without `setup:` Snow Time's hands stay empty and no turn ever ends the game: validate
    says so (within its step budget) instead of passing."""
    shutil.copytree(ROOT / "rulesets" / "snow_time", tmp_path / "game")
    monkeypatch.chdir(tmp_path)
    edit(tmp_path / "game" / "rules.sr", "setup:\n", "")
    status, out, _ = cli(capsys, "validate", "game")
    assert status == 1
    assert re.search(r"^game/rules\.sr:\d+:\d+: error: .*smoke game.*\[SR70[46]\]$", out, re.M), out


def test_a_runtime_failure_in_a_smoke_game_is_reported_at_its_rule(game, capsys):
    line, col = edit(game / "rules.sr", "add first(prize).value to first(highest).score",
                     "add first(prize).value / (top - top) to first(highest).score")
    status, out, _ = cli(capsys, "validate", "game")
    assert status == 1
    assert out.startswith(f"game/rules.sr:{line}:"), out
    assert "smoke game" in out and "[SR601]" in out


def test_a_table_cell_of_another_kind_than_its_column_is_reported(tmp_path, monkeypatch, capsys):
    """A table has no schema per row; a text among numbers in one column is still a mistake."""
    shutil.copytree(ROOT / "rulesets" / "snow_time", tmp_path / "game")
    monkeypatch.chdir(tmp_path)
    line, col = edit(tmp_path / "game" / "components" / "score_track.yaml", "{space: 9, type: fight, amount: 2}",
                     "{space: 9, type: fight, amount: seven}")
    _, out, _ = cli(capsys, "validate", "game", "--no-play")
    column = col + len("{space: 9, type: fight, amount: ")
    assert out == (f"game/components/score_track.yaml:{line}:{column}: error: tables.bonus_spaces.1.amount: "
                   "'seven' is a text, but amount is a number in the other rows [SR203]\n")


def test_validate_plays_games_and_scenarios_in_workers_with_the_same_report(tmp_path, capsys):
    """`--workers 2` plays the smoke games and scenarios in worker processes: the same problems,
    in the same order, as one process (two scenarios naming a counter that does not exist)."""
    folder = tmp_path / "costs"
    shutil.copytree(Path(__file__).resolve().parent / "rulesets" / "costs", folder)
    for name in ("example_1.yaml", "example_2.yaml"):
        path = folder / "scenarios" / name
        path.write_text(path.read_text(encoding="utf-8").replace("    green.counted:", "    green.countd:"),
                        encoding="utf-8")
    reports = []
    for workers in ("1", "2"):
        code, out, err = cli(capsys, "validate", str(folder), "--workers", workers, "--format", "json")
        reports.append((code, out))
    assert reports[0] == reports[1]
    code, out = reports[0]
    problems = [(p["path"].split("/")[-1], p["line"], p["message"]) for p in json.loads(out)["diagnostics"]]
    assert code == 1
    assert problems == [("example_1.yaml", 18, "unknown counter 'green.countd'"),
                        ("example_2.yaml", 19, "unknown counter 'green.countd'")]
