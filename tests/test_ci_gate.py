"""The CI gate (issue 25 point 5): `snowrules new` makes a ruleset that validates, plays and
passes its scenario; validate checks the scenarios' expectations (each scenario played once),
`--no-scenarios` skips them; `test -k`, `--junit-xml`; `validate --watch`; `--constant`; the
note a manifest without `language:` gets. Bad input as tables: input -> exact code and message.

The ruleset is the one `snowrules new` writes (cli/new.py: High card, two cards each, the higher
card scores its value); its scenario sets north's hand to six and one and south's to two and
three, north plays the six against the two: north 6, south 0 after turn 1.
"""
from __future__ import annotations

import json
import threading
import time
import xml.etree.ElementTree as ET
from argparse import Namespace
from pathlib import Path

import pytest
from snowrules.cli.main import main

SCENARIO = "scenarios/higher_card_scores.yaml"


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "high_card"
    assert main(["new", str(folder)]) == 0
    return folder


def copy_of(made: Path, tmp_path: Path, edits: dict[str, tuple[str, str]] = {}) -> Path:  # noqa: B006
    folder = tmp_path / "high_card"
    for path in made.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(made)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text(encoding="utf-8")
            if path.relative_to(made).as_posix() in edits:
                old, new = edits[path.relative_to(made).as_posix()]
                assert old in text
                text = text.replace(old, new)
            target.write_text(text, encoding="utf-8")
    return folder


def test_new_makes_a_ruleset_that_validates_plays_and_passes_its_scenario(made, capsys):
    assert sorted(p.relative_to(made).as_posix() for p in made.rglob("*") if p.is_file()) == [
        "README.md", "components/cards.yaml", "rules.sr", "ruleset.yaml", SCENARIO,
        "schemas/card.schema.json", "schemas/card_list.schema.json"]
    capsys.readouterr()
    assert main(["validate", "--strict", str(made)]) == 0  # smoke games, scenario, no warning
    assert capsys.readouterr().out == f"{made}: valid\n"
    assert main(["test", str(made)]) == 0
    assert capsys.readouterr().out == ("pass higher_card_scores.yaml: The higher card scores its value\n"
                                       "1 passed, 0 failed\n")


# (edit of the scenario, the line validate prints at the unmet expectation)
EXPECTATIONS = [
    (("north.score: 6", "north.score: 7"), f"{SCENARIO}:11:27: error: north.score is 6, expected 7 [SR503]"),
    (("south.score: 0", "south.score: 2"), f"{SCENARIO}:11:43: error: south.score is 0, expected 2 [SR503]"),
    (("north.hand: [one]", "north.hand: [six]"),
     f"{SCENARIO}:12:65: error: north.hand holds [one], expected [six] [SR503]"),
]


@pytest.mark.parametrize("edit, said", EXPECTATIONS)
def test_validate_checks_each_scenario_expectation(made, tmp_path, capsys, edit, said):
    folder = copy_of(made, tmp_path, {SCENARIO: edit})
    capsys.readouterr()
    assert main(["validate", "--no-play", str(folder)]) == 1
    assert capsys.readouterr().out == f"{folder}/{said}\n"
    assert main(["validate", "--no-play", "--no-scenarios", str(folder)]) == 0  # read, not played
    assert capsys.readouterr().out == f"{folder}: valid\n"


def test_junit_xml_of_validate_and_of_test(made, tmp_path, capsys):
    folder = copy_of(made, tmp_path, {SCENARIO: ("north.score: 6", "north.score: 7")})
    (folder / "scenarios" / "second.yaml").write_text(
        (folder / SCENARIO).read_text().replace("north.score: 7", "north.score: 6").replace(
            "The higher card scores its value", "Six beats two"))
    report = tmp_path / "validate.xml"
    assert main(["validate", "--no-play", "--junit-xml", str(report), str(folder)]) == 1
    suite = ET.parse(report).getroot().find("testsuite")
    assert {k: suite.get(k) for k in ("name", "tests", "failures", "errors", "skipped")} == {
        "name": str(folder), "tests": "3", "failures": "1", "errors": "0", "skipped": "0"}
    assert [(c.get("name"), [f.get("message") for f in c.findall("failure")]) for c in suite] == [
        ("check", []),
        ("higher_card_scores.yaml", [f"{folder}/{SCENARIO}:11:27: error: north.score is 6, expected 7 [SR503]"]),
        ("second.yaml", [])]
    report = tmp_path / "test.xml"
    assert main(["test", str(folder), "-k", "SIX", "--junit-xml", str(report)]) == 0  # by its name
    suite = ET.parse(report).getroot().find("testsuite")
    assert [(suite.get("name"), suite.get("tests"), suite.get("failures"))] == [("high_card", "1", "0")]
    assert [c.get("name") for c in suite] == ["second.yaml"]
    assert main(["test", str(folder), "-k", "higher"]) == 1  # by its file name
    assert capsys.readouterr().out.endswith(
        f"FAIL higher_card_scores.yaml: The higher card scores its value\n"
        f"    {folder}/{SCENARIO}:11:27: north.score is 6, expected 7\n0 passed, 1 failed\n")


def test_a_scenario_is_not_played_when_the_ruleset_has_errors(made, tmp_path):
    folder = copy_of(made, tmp_path, {"rules.sr": ("add top to", "add topp to")})
    report = tmp_path / "r.xml"
    assert main(["validate", "--no-play", "--junit-xml", str(report), str(folder)]) == 1
    cases = list(ET.parse(report).getroot().find("testsuite"))
    assert [(c.get("name"), [f.get("message") for f in c.findall("failure")],
             [s.get("message") for s in c.findall("skipped")]) for c in cases] == [
        ("check", [f"{folder}/rules.sr:31:17: error: unknown name 'topp' (hint: did you mean 'top'?) [SR401]"], []),
        ("higher_card_scores.yaml", [], ["not played: the ruleset has errors"])]


# (arguments after the ruleset folder, exit code, what stderr ends with)
USAGE = [
    (["test", "{f}", "-k", "nothing"], 2, "-k 'nothing': no scenario's file name or name holds it; "
                                          "the scenarios: higher_card_scores\n"),
    (["test", "{f}", "--junit-xml", "{f}"], 2, "--junit-xml {f}: is a folder; give a file name, such as "
                                               "{f}/results.xml\n"),
    (["validate", "{f}", "--junit-xml", "{f}/no/r.xml"], 2, "--junit-xml {f}/no/r.xml: no folder {f}/no "
                                                           "to write it in\n"),
    (["new", "{f}"], 2, "{f}: already exists; give a new folder's name\n"),
    (["new", "{f}/High-Card"], 2, "'{f}/High-Card': a ruleset's name is lowercase letters, digits and _ "
                                  "(starting with a letter), such as high_card\n"),
    (["run", "{f}", "--constant", "hand_size=two"], 2,
     "--constant hand_size: 'two' is a text, but hand_size is a whole number (2 in the ruleset)\n"),
    (["run", "{f}", "--constant", "hand_sise=3"], 2,
     "--constant: High Card has no constant 'hand_sise' (did you mean 'hand_size'? its constants: hand_size)\n"),
    (["run", "{f}", "--constant", "hand_size"], 2, "--constant 'hand_size': write NAME=VALUE, e.g. "
                                                   "--constant hand_size=6\n"),
    (["run", "{f}", "--constant", "hand_size=[1, 2]"], 2,
     "--constant hand_size: a constant of the rules is a number, a text or true/false, not a list\n"),
    (["run", "{f}", "--constant", "hand_size=1", "--log", "{f}/../g.jsonl"], 2,
     "--log with --constant: a log replays the ruleset as its files say; put the constant in a variant "
     "file to keep such a game (docs/language.md, Variants)\n"),
    (["run", "{f}", "--variant", "hard"], 2, "--variant: unknown variant 'hard' (this ruleset's variants: none)\n"),
    (["compare", "{f}", "--games", "2", "--other-constant", "hand_sise=3"], 2,
     "--other-constant: High Card has no constant 'hand_sise' (did you mean 'hand_size'? its constants: "
     "hand_size)\n"),
]


@pytest.mark.parametrize("argv, code, said", USAGE)
def test_usage_errors(made, capsys, argv, code, said):
    capsys.readouterr()
    assert main([a.format(f=made) for a in argv]) == code
    assert capsys.readouterr().err.endswith(said.format(f=made))


def test_constant_changes_the_game_on_run_and_on_one_side_of_compare(made, capsys):
    capsys.readouterr()
    assert main(["run", str(made), "--json", "--constant", "hand_size=3"]) == 0
    assert json.loads(capsys.readouterr().out)["turns"] == 3  # three cards dealt, three turns
    assert main(["run", str(made), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["turns"] == 2
    assert main(["simulate", str(made), "--games", "3", "--constant", "hand_size=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean_turns"] == 1


def test_component_file_constants_keep_their_kind():
    from snowrules.load.ruleset import load_ruleset
    from snowrules.load.set_constants import ConstantError, set_constants
    read = load_ruleset("snow_time")
    changed = set_constants(read, ["last_space=20"])
    assert (changed.constants["last_space"][0], read.constants["last_space"][0]) == (20, 30)
    assert changed.constants_set == (("last_space", 20),)
    with pytest.raises(ConstantError, match=r"^--constant last_space: True is true or false, but last_space "
                                            r"is a whole number \(30 in the ruleset\)$"):
        set_constants(read, ["last_space=true"])


# (manifest edit, argv extras, exit code, the note's line as printed)
NOTES = [
    ([], 0, "ruleset.yaml:1:1: note: no `language:` here: this ruleset is read as edition 1 of the language "
            "(the current edition is 3) (hint: add `language: 3` once the edition warnings are fixed "
            "(`snowrules upgrade` does both)) [SR123]"),
    (["--strict"], 0, None),  # a note never fails
    (["--format", "github"], 0, "::notice file={f}/ruleset.yaml,line=1,col=1,title=SR123::no `language:` here"),
]


@pytest.mark.parametrize("extra, code, line", NOTES)
def test_a_manifest_without_language_gets_a_note(made, tmp_path, capsys, extra, code, line):
    folder = copy_of(made, tmp_path, {"ruleset.yaml": ("language: 3", "")})
    capsys.readouterr()
    assert main(["validate", "--no-play", "--no-scenarios", *extra, str(folder)]) == code
    out = capsys.readouterr().out
    if line is None:
        assert out.endswith(f"{folder}: valid\n") and "note:" in out
    elif line.startswith("::"):
        assert out.startswith(line.format(f=folder))
    else:
        assert out == f"{folder}/{line}\n{folder}: valid\n"


def test_watch_checks_again_when_a_file_is_saved(made, tmp_path):
    pytest.importorskip("watchfiles")
    from snowrules.cli.watch import watch_and_validate
    folder = copy_of(made, tmp_path)
    said: list[str] = []
    rounds: list[int] = []
    stop = threading.Event()

    def check() -> int:
        rounds.append(len(rounds))
        return 0

    watcher = threading.Thread(target=watch_and_validate, args=(Namespace(paths=[str(folder)]), check, stop,
                                                                said.append))
    watcher.start()
    try:
        deadline = time.monotonic() + 20
        while not said and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # the watcher's notifications are set up after its first line
        (folder / "notes.txt").write_text("not a ruleset file\n")  # ignored
        (folder / "rules.sr").write_text((folder / "rules.sr").read_text() + "\n")
        while len(rounds) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        stop.set()
        watcher.join(10)
    assert said == [f"watching {folder} (Ctrl-C stops)", "-- changed: rules.sr; checking again"]
    assert rounds == [0, 1]


@pytest.mark.parametrize("strict, code, failures", [
    ([], 0, []),
    (["--strict"], 1, ["{f}/components/forgotten.yaml:1:1: warning: this YAML file is not listed by ruleset.yaml "
                       "nor by a variant, so it is never checked nor used (hint: add it to `components:` in "
                       "ruleset.yaml, or delete it) [SR105]"]),
])
def test_junit_check_case_fails_on_warnings_with_strict(made, tmp_path, strict, code, failures):
    folder = copy_of(made, tmp_path)
    (folder / "components" / "forgotten.yaml").write_text("schema: card.schema.json\ncomponents: []\n")
    report = tmp_path / "r.xml"
    assert main(["validate", "--no-play", "--no-scenarios", *strict, "--junit-xml", str(report), str(folder)]) == code
    check = ET.parse(report).getroot().find("testsuite").find("testcase")
    assert [f.text for f in check.findall("failure")] == [text.format(f=folder) for text in failures]
