"""The build cache (interpreter/data/cache.py): a hit is what a fresh build gives, and nothing a
build depends on can change without a miss; broken, foreign and racing entries are rebuilt, never
trusted, never a crash."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from snowrules.data import cache
from snowrules.load import ruleset as ruleset_module
from snowrules.load.ruleset import load_ruleset, read_ruleset

PIG = Path(__file__).parent / "rulesets" / "pig"


@pytest.fixture
def cache_folder(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENVIRONMENT, str(folder))
    return folder


@pytest.fixture
def pig(tmp_path) -> Path:
    copy = tmp_path / "pig"
    shutil.copytree(PIG, copy)
    return copy


@pytest.fixture
def reads(monkeypatch) -> list:
    """Each time a ruleset is really read (not taken from the cache), its folder is appended here."""
    seen: list = []
    original = ruleset_module._Reader.read

    def counted(self, variant):
        seen.append(self.folder)
        return original(self, variant)
    monkeypatch.setattr(ruleset_module._Reader, "read", counted)
    return seen


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("rulesets/*/*.pickle"))


def test_a_second_read_is_a_hit_equal_to_a_fresh_read(cache_folder, pig, reads):
    first = load_ruleset(str(pig))
    second = load_ruleset(str(pig))
    assert len(reads) == 1 and len(entries(cache_folder)) == 1
    assert second is not first  # a fresh copy: options set on one never reach the other
    assert (second.name, second.constants, second.rules, second.options) == \
        (first.name, first.constants, first.rules, first.options)


def test_options_set_on_a_cached_ruleset_do_not_stay_in_the_cache(cache_folder, pig):
    assert load_ruleset(str(pig), options={"winscore": 20}).constants["winscore"][0] == 20
    assert load_ruleset(str(pig)).constants["winscore"][0] == 100


@pytest.mark.parametrize("edit", ["rules.sr", "ruleset.yaml", "new file"])
def test_a_changed_file_is_a_miss(cache_folder, pig, reads, edit):
    load_ruleset(str(pig))
    if edit == "new file":  # a schema dropped in may shadow a generic one: it counts too
        (pig / "schemas").mkdir()
        (pig / "schemas" / "card.schema.json").write_text("{}")
    else:
        path = pig / edit
        path.write_text(path.read_text() + "\n# edited\n")
    load_ruleset(str(pig))
    assert len(reads) == 2 and len(entries(cache_folder)) == 2


def test_a_changed_default_is_seen_at_once(cache_folder, pig):
    assert load_ruleset(str(pig)).constants["winscore"][0] == 100
    manifest = pig / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("winscore: {default: 100", "winscore: {default: 50"))
    assert load_ruleset(str(pig)).constants["winscore"][0] == 50


def test_scenarios_are_not_part_of_the_key(cache_folder, pig, reads):
    load_ruleset(str(pig))
    (pig / "scenarios").mkdir()
    (pig / "scenarios" / "new.yaml").write_text("name: x\n")
    load_ruleset(str(pig))
    assert len(reads) == 1


def test_another_working_folder_shows_its_own_paths(cache_folder, pig, reads, monkeypatch):
    monkeypatch.chdir(pig.parent)
    here = load_ruleset("pig")
    monkeypatch.chdir(pig)
    there = load_ruleset(".")
    assert len(reads) == 2
    assert here.manifest_position.path == "pig/ruleset.yaml"
    assert there.manifest_position.path == "ruleset.yaml"


def test_a_ruleset_with_problems_is_never_kept(cache_folder, pig):
    (pig / "rules.sr").write_text((pig / "rules.sr").read_text() + "\nthis is not a rule\n")
    ruleset, problems = read_ruleset(str(pig))
    assert problems and entries(cache_folder) == []


@pytest.mark.parametrize("damage", [
    b"",                                                  # an empty file (a writer killed before writing)
    b"snowrules-cache/1\n",                               # torn after the first line
    b"garbage that is no entry at all",
    b"snowrules-cache/0\n{key}\n",                        # another format
    b"snowrules-cache/1\n0000\n",                         # another key (a hash collision of file names)
    b"snowrules-cache/1\n{key}\n\x80\x05not a pickle",    # torn inside the pickle
], ids=["empty", "torn-header", "garbage", "old-format", "other-key", "torn-pickle"])
def test_a_broken_or_foreign_entry_is_rebuilt_and_replaced(cache_folder, pig, reads, damage):
    load_ruleset(str(pig))
    [entry] = entries(cache_folder)
    entry.write_bytes(damage.replace(b"{key}", entry.stem.encode()))
    again = load_ruleset(str(pig))
    assert again.name == "pig" and len(reads) == 2
    load_ruleset(str(pig))  # the rebuilt entry was written back: a hit now
    assert len(reads) == 2


@pytest.mark.parametrize("setting", ["off", "OFF", "0", ""])
def test_the_cache_can_be_turned_off(tmp_path, monkeypatch, pig, reads, setting):
    monkeypatch.setenv(cache.ENVIRONMENT, setting)
    load_ruleset(str(pig))
    load_ruleset(str(pig))
    assert len(reads) == 2 and cache.folder() is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway")
def test_a_folder_that_cannot_be_written_is_not_used(cache_folder, pig):
    cache_folder.mkdir()
    cache_folder.chmod(0o500)
    try:
        assert load_ruleset(str(pig)).name == "pig"
    finally:
        cache_folder.chmod(0o700)


def test_a_cache_path_that_is_a_file_is_not_used(tmp_path, monkeypatch, pig):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENVIRONMENT, str(blocker / "cache"))
    assert load_ruleset(str(pig)).name == "pig"
    assert load_ruleset(str(pig)).name == "pig"


def test_no_cache_on_the_command_line_writes_nothing(tmp_path, pig):
    folder = tmp_path / "cache"
    environment = {**os.environ, cache.ENVIRONMENT: str(folder)}
    for arguments in (["--no-cache", "validate", str(pig), "--no-play"], ["validate", str(pig), "--no-play",
                                                                          "--no-cache"]):
        done = subprocess.run([sys.executable, "-m", "snowrules.cli.main", *arguments], capture_output=True,
                              text=True, env=environment, check=False)
        assert done.returncode == 0, done.stderr
    assert not folder.exists()
    done = subprocess.run([sys.executable, "-m", "snowrules.cli.main", "validate", str(pig), "--no-play"],
                          capture_output=True, text=True, env=environment, check=False)
    assert done.returncode == 0 and len(entries(folder)) == 1


_READ = "import sys; from snowrules.load.ruleset import load_ruleset; print(load_ruleset(sys.argv[1]).title)"


def test_concurrent_writers_all_read_the_ruleset_and_leave_one_whole_entry(tmp_path, pig):
    folder = tmp_path / "cache"
    environment = {**os.environ, cache.ENVIRONMENT: str(folder)}
    started = [subprocess.Popen([sys.executable, "-c", _READ, str(pig)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=environment) for _ in range(6)]
    outputs = [process.communicate(timeout=120) for process in started]
    assert [out for out, _ in outputs] == ["Pig\n"] * 6, [err for _, err in outputs]
    assert len(entries(folder)) == 1
    assert not list(folder.rglob("*.partial"))
    done = subprocess.run([sys.executable, "-c", _READ, str(pig)], capture_output=True, text=True,
                          env=environment, check=False)
    assert done.stdout == "Pig\n"


def test_the_code_fingerprint_is_part_of_every_key(monkeypatch):
    before = cache.key("ruleset", "x")
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "another version of snowrules")
    assert cache.key("ruleset", "x") != before


def test_old_entries_go_past_the_limit(cache_folder, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    keys = [key for key in (cache.key("thing", i) for i in range(200)) if key.endswith("0")][:5]
    for i, entry in enumerate(keys):  # keys whose writes look over the entries (one in sixteen)
        cache.cached("things", entry, lambda i=i: (i, True))
        written = cache_folder / "things" / entry[:2] / f"{entry}.pickle"
        if written.exists():
            os.utime(written, (1000 + i, 1000 + i))  # written in this order, whatever the clock's grain
    kept = sorted(cache_folder.glob("things/*/*.pickle"))
    assert len(kept) == 3
    assert sorted(cache.cached("things", keys[i], lambda: (None, False)) for i in (2, 3, 4)) == [2, 3, 4]


def test_an_entry_read_again_stays_past_the_limit(cache_folder, monkeypatch):
    """The least recently used go: an entry written long ago but read again (a bundled ruleset)
    outlives entries written after it and never read (a suite's planted mistakes)."""
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    keys = [key for key in (cache.key("thing", i) for i in range(400)) if key.endswith("0")][:6]
    paths = [cache_folder / "things" / k[:2] / f"{k}.pickle" for k in keys]
    cache.cached("things", keys[0], lambda: ("often", True))
    for i, entry in enumerate(keys[1:], 1):
        os.utime(paths[0], (500, 500))  # written long ago...
        assert cache.cached("things", keys[0], lambda: (None, False)) == "often"  # ...and read now
        cache.cached("things", entry, lambda i=i: (i, True))
        for j in range(1, i + 1):
            if paths[j].exists():
                os.utime(paths[j], (1000 + j, 1000 + j))  # written in this order, after the first
    assert paths[0].exists() and len(list(cache_folder.glob("things/*/*.pickle"))) == 3


# --- each file's syntax is kept under its own text ------------------------------------------------

SNOW_TIME = Path(__file__).parent.parent / "rulesets" / "snow_time"


@pytest.fixture
def parses(monkeypatch) -> dict:
    """The texts really parsed (not taken from a cache), as a new process would parse them: the
    in-process memos are emptied first. `yaml`: the YAML files' shown paths; `rules`: the paths of
    the rules texts (whole files and cards' effects, each once per text; not the expressions in a
    prompt's braces, read as part of the file that holds them)."""
    from snowrules.language import parser
    from snowrules.load import yaml_files
    monkeypatch.setattr(yaml_files, "_READ", type(yaml_files._READ)())
    monkeypatch.setattr(parser, "_PARSED", type(parser._PARSED)())
    seen: dict = {"yaml": [], "rules": []}
    parsed_yaml, parsed_rules = yaml_files._parsed, parser._parse_text

    def yaml_counted(text, shown):
        seen["yaml"].append(Path(shown).name)
        return parsed_yaml(text, shown)

    def rules_counted(text, start, shift):
        if start != "expression":
            seen["rules"].append(Path(shift.path).name)
        return parsed_rules(text, start, shift)
    monkeypatch.setattr(yaml_files, "_parsed", yaml_counted)
    monkeypatch.setattr(parser, "_parse_text", rules_counted)
    return seen


def _fresh_process(seen: dict) -> None:
    """What a new process has: no memo of this one's reads."""
    from snowrules.language import parser
    from snowrules.load import yaml_files
    yaml_files._READ.clear()
    parser._PARSED.clear()
    seen["yaml"].clear()
    seen["rules"].clear()


def test_a_ruleset_in_which_one_file_changed_parses_that_file_only(cache_folder, tmp_path, parses):
    copy = tmp_path / "snow_time"
    shutil.copytree(SNOW_TIME, copy)
    first = load_ruleset(str(copy))
    assert "cards.yaml" in parses["yaml"] and parses["rules"].count("cards.yaml") == 3  # three effects
    _fresh_process(parses)
    cards = copy / "components" / "cards.yaml"
    cards.write_text(cards.read_text() + "\n# edited\n")
    again = load_ruleset(str(copy))
    # the changed list is read again with its cards' effects; no other file, no rules file
    assert parses["yaml"] == ["cards.yaml"]
    assert parses["rules"] == ["cards.yaml"] * 3
    assert (again.rules, again.components, again.constants) == (first.rules, first.components, first.constants)
    _fresh_process(parses)
    rules = copy / "rules.sr"
    rules.write_text(rules.read_text() + "\n# edited\n")
    load_ruleset(str(copy))
    assert parses == {"yaml": [], "rules": ["rules.sr"]}


def test_a_file_read_from_the_cache_gives_its_problems_at_the_same_places(cache_folder, tmp_path, parses):
    copy = tmp_path / "snow_time"
    shutil.copytree(SNOW_TIME, copy)
    cards = copy / "components" / "cards.yaml"
    text = cards.read_text()
    cards.write_text(text.replace("number: 3}", "number: three}", 1))  # an entry that breaks its schema
    _, fresh = read_ruleset(str(copy))
    _fresh_process(parses)
    _, cached = read_ruleset(str(copy))
    assert parses["yaml"] == [] and fresh  # the YAML is sound: its tree came from the cache
    assert [(d.position, d.message) for d in cached] == [(d.position, d.message) for d in fresh]
    assert any(d.position.path.endswith("cards.yaml") and d.position.line == 9 for d in fresh)
