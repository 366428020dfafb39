"""Editors check a ruleset's YAML files while they are typed (issue 10, part 5).

Every bundled YAML file names its schema on its first line (`# yaml-language-server:
$schema=PATH`, relative to the file, as the YAML language server reads it); that schema, with its
`$ref`s resolved the way an editor resolves them (relative to the schema file), accepts the file
as it is, and refuses a misspelt or mistyped entry. Every schema has an `$id` (its file name), a
title and descriptions, which editors show on hover.
"""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
YAML_FILES = sorted(p for p in (ROOT / "rulesets").rglob("*.y*ml") if p.suffix in (".yaml", ".yml"))
SCHEMAS = sorted([*(ROOT / "schemas").glob("*.json"), *(ROOT / "rulesets").glob("*/schemas/*.json")])
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def _registry() -> Registry:
    """Every schema under its file URI, as an editor that opened the clone would find them."""
    resources = [(path.as_uri(), Resource.from_contents(json.loads(path.read_text(encoding="utf-8"))))
                 for path in SCHEMAS]
    return Registry().with_resources(resources)


def editor_validator(yaml_file: Path) -> Draft202012Validator:
    first = yaml_file.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{yaml_file.relative_to(ROOT)}:1: no `# yaml-language-server: $schema=...` line"
    schema_file = (yaml_file.parent / match.group(1)).resolve()
    assert schema_file.is_file(), f"{yaml_file.relative_to(ROOT)}:1: {match.group(1)} does not exist"
    return Draft202012Validator({"$ref": schema_file.as_uri()}, registry=_registry())


def content(path: Path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_every_yaml_file_names_a_schema_that_accepts_it(path):
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in editor_validator(path).iter_errors(content(path))]
    assert not errors, errors


def test_the_yaml_files_name_the_schema_of_their_kind():
    for path in YAML_FILES:
        target = MODELINE.match(path.read_text(encoding="utf-8").splitlines()[0]).group(1)
        kind = path.parent.name if path.name != "ruleset.yaml" else "manifest"
        expected = {"manifest": "schemas/manifest.schema.json", "variants": "schemas/variant.schema.json",
                    "scenarios": "schemas/scenario.schema.json"}.get(kind)
        if expected:
            assert (path.parent / target).resolve() == ROOT / expected, path
        else:
            entry = content(path)["schema"]
            names = {"component_list.schema.json"} if entry == "table.schema.json" else \
                {entry.replace(".schema.json", "_list.schema.json")}
            assert Path(target).name in names, (path, target)


@pytest.mark.parametrize("path, where, change, words", [
    ("snow_time/components/cards.yaml", 0, {"nubmer": 3}, "'nubmer' was unexpected"),
    ("snow_time/components/cards.yaml", 0, {"number": "three"}, "'three' is not of type 'integer'"),
    ("snowy_tricks/components/prizes.yaml", 0, {"stars": 9}, "9 is greater than the maximum of 5"),
    ("oh_hell/components/cards.yaml", 0, {"suit": 4}, "4 is greater than the maximum of 3"),
    ("snow_time/components/fruit.yaml", 0, {"kind": 5}, "5 is not of type 'string'"),
], ids=["misspelt-field", "wrong-type", "too-many-stars", "suit-out-of-range", "token-kind"])
def test_an_editor_sees_a_broken_card(path, where, change, words):
    path = ROOT / "rulesets" / path
    document = copy.deepcopy(content(path))
    document["components"][where].update(change)
    messages = [e.message for e in editor_validator(path).iter_errors(document)]
    assert any(words in m for m in messages), messages


def test_an_editor_sees_a_broken_manifest_and_scenario():
    manifest = ROOT / "rulesets" / "snow_time" / "ruleset.yaml"
    document = content(manifest)
    document["player"] = document.pop("players")
    messages = [e.message for e in editor_validator(manifest).iter_errors(document)]
    assert any("'players' is a required property" in m for m in messages), messages
    scenario = ROOT / "rulesets" / "snow_time" / "scenarios" / "doubles.yaml"
    document = content(scenario)
    document["until"] = "end of game"
    assert list(editor_validator(scenario).iter_errors(document))


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_schema_has_an_id_a_title_and_descriptions(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema.get("$id") == path.name
    assert schema.get("title") and schema.get("description")
    undescribed = [key for key, value in schema.get("properties", {}).items()
                   if isinstance(value, dict) and "description" not in value]
    assert not undescribed, undescribed
