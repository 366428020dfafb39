"""Logs mean the same everywhere (issue 10, part 2).

A log names rules by their path inside the ruleset folder, so the same ruleset, seed and agents
give the same bytes in any working directory; its header carries a hash of the ruleset's files;
replay refuses incomplete logs and wrong header fields at their place; `--log` writes only to a
regular or new file, and neither a failure nor SIGTERM loses the previous log.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from snowrules.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SNOW_TIME = ROOT / "rulesets" / "snow_time"
GAME = ["run", "snow_time", "--players", "3", "--seed", "5", "--json"]
PRECIOUS = b'{"e":"header","note":"a log written earlier, which must survive"}\n'


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write_log(capsys, monkeypatch, folder: Path, *game: str, log: Path | None = None) -> bytes:
    """Run a game from working folder `folder`, logging it to `log` (game.jsonl there); the log's bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(folder)
    log = log or folder / "game.jsonl"
    code, out, err = cli(capsys, *(game or GAME), "--log", log)
    assert code == 0, err
    return log.read_bytes()


def setup_deal_position() -> str:
    """Where Snow Time's setup deals each player's cards: `move [each c in box ...` in rules.sr
    (line and column found in the file, so that an edit elsewhere in rules.sr moves them)."""
    for number, line in enumerate((SNOW_TIME / "rules.sr").read_text(encoding="utf-8").splitlines(), 1):
        if line.strip().startswith("move [each c in box where c.owner == p]"):
            return f"rules.sr:{number}:{line.index('move') + 1}"
    pytest.fail("rules.sr has no setup deal")


# --- the same bytes in any directory ------------------------------------------------------------


def test_a_log_names_rules_inside_the_ruleset_folder(capsys, monkeypatch, tmp_path):
    lines = write_log(capsys, monkeypatch, tmp_path).decode().splitlines()
    first_move = next(json.loads(line) for line in lines if json.loads(line)["e"] == "move")
    assert first_move["rule"] == setup_deal_position()
    files = set()
    for line in lines:
        rule = json.loads(line).get("rule")
        if rule is not None:
            files.add(rule.rsplit(":", 2)[0])
    assert files == {"rules.sr", "components/cards.yaml"}, "effects written in YAML are named by their file too"
    assert str(tmp_path) not in "".join(lines) and str(ROOT) not in "".join(lines)


def test_the_same_game_gives_the_same_bytes_in_any_directory(capsys, monkeypatch, tmp_path):
    from_clone = write_log(capsys, monkeypatch, ROOT, log=tmp_path / "from_clone.jsonl")
    elsewhere = write_log(capsys, monkeypatch, tmp_path / "deep" / "er")
    assert from_clone == elsewhere


def test_a_folder_ruleset_logs_the_same_bytes_as_the_bundled_one(capsys, monkeypatch, tmp_path):
    """A copy of a ruleset is the same ruleset: the header names it and hashes its files, and
    says nothing about where it was found."""
    shutil.copytree(SNOW_TIME, tmp_path / "copy" / "snow_time")
    bundled = write_log(capsys, monkeypatch, tmp_path / "a")
    copied = write_log(capsys, monkeypatch, tmp_path / "b", "run", "../copy/snow_time", *GAME[2:])
    assert bundled == copied


def test_a_log_written_in_one_directory_replays_in_another(capsys, monkeypatch, tmp_path):
    write_log(capsys, monkeypatch, tmp_path / "here")
    monkeypatch.chdir(tmp_path)
    shutil.move(tmp_path / "here" / "game.jsonl", tmp_path / "moved.jsonl")
    code, out, err = cli(capsys, "replay", "moved.jsonl")
    assert code == 0, out + err
    assert out.startswith("moved.jsonl: identical (")


def test_a_log_of_a_ruleset_that_is_not_bundled_replays_with_its_folder(capsys, monkeypatch, tmp_path):
    shutil.copytree(SNOW_TIME, tmp_path / "mine")
    (tmp_path / "mine" / "ruleset.yaml").write_text(
        (SNOW_TIME / "ruleset.yaml").read_text(encoding="utf-8").replace("name: snow_time", "name: my_snow", 1),
        encoding="utf-8")
    write_log(capsys, monkeypatch, tmp_path, "run", "mine", *GAME[2:])
    code, out, err = cli(capsys, "replay", "game.jsonl")
    assert code == 1
    assert "game.jsonl:1:1: error: the log's ruleset 'my_snow' is not found: give its folder with --ruleset" in err
    code, out, err = cli(capsys, "replay", "game.jsonl", "--ruleset", "mine")
    assert code == 0, out + err


# --- the hash of the ruleset's files -------------------------------------------------------------


def header_hash(folder: Path) -> str:
    from snowrules.records.logwriter import ruleset_hash
    return ruleset_hash(folder)


def test_the_hash_covers_every_file_and_nothing_else(tmp_path):
    copy = tmp_path / "snow_time"
    shutil.copytree(SNOW_TIME, copy)
    original = header_hash(SNOW_TIME)
    assert original.startswith("sha256:") and len(original) == len("sha256:") + 64
    assert header_hash(copy) == original, "the folder's place is not part of the hash"
    (copy / ".rules.sr.swp").write_bytes(b"editor litter")
    (copy / "__pycache__").mkdir()
    (copy / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert header_hash(copy) == original, "hidden files and caches are not the ruleset"
    rules = copy / "rules.sr"
    rules.write_bytes(rules.read_bytes().replace(b"\n", b"\r\n"))
    assert header_hash(copy) == original, "a checkout with Windows line endings is the same ruleset"
    rules.write_bytes(rules.read_bytes() + b"# one more comment\r\n")
    assert header_hash(copy) != original
    rules.write_bytes((SNOW_TIME / "rules.sr").read_bytes())
    (copy / "scenarios" / "healer_options.yaml").rename(copy / "scenarios" / "renamed.yaml")
    assert header_hash(copy) != original, "a renamed file changes the hash"


def test_replay_against_a_changed_ruleset_says_so_first(capsys, monkeypatch, tmp_path):
    copy = tmp_path / "snow_time"
    shutil.copytree(SNOW_TIME, copy)
    write_log(capsys, monkeypatch, tmp_path, "run", "snow_time", *GAME[2:])
    track = copy / "components" / "score_track.yaml"
    text = track.read_text(encoding="utf-8")
    track.write_text(text + "# a comment only: the same game\n", encoding="utf-8")
    code, out, err = cli(capsys, "replay", "game.jsonl", "--ruleset", "snow_time")
    assert code == 0, out + err
    first, second = out.splitlines()[:2]
    assert first.startswith("game.jsonl:1:1: note: the ruleset's files at snow_time differ from those the log "
                            "was written with"), out
    assert second.startswith("game.jsonl: identical")
    # one more line at the top: the same rules, each one line further down, as the replay shows
    (copy / "rules.sr").write_text("# a new first line\n" + (SNOW_TIME / "rules.sr").read_text(encoding="utf-8"),
                                   encoding="utf-8")
    code, out, err = cli(capsys, "replay", "game.jsonl", "--ruleset", "snow_time")
    assert code == 1, out + err
    assert "note: the ruleset's files at snow_time differ" in out.splitlines()[0]
    assert "error: the replay differs from the log after 1 identical events" in out.splitlines()[1]
    deal = setup_deal_position().split(":")
    assert f'"rule": "rules.sr:{int(deal[1]) + 1}:{deal[2]}"' in out, "the replay's event, one line further down"


# --- logs that replay refuses ------------------------------------------------------------------


@pytest.fixture
def log_lines(capsys, monkeypatch, tmp_path) -> list[str]:
    return write_log(capsys, monkeypatch, tmp_path).decode().splitlines()


def replay_lines(capsys, lines: list[str]) -> tuple[int, str]:
    Path("edited.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "replay", "edited.jsonl")
    assert "Traceback" not in out + err
    return code, out + err


def with_header_field(lines: list[str], key: str, text: str) -> list[str]:
    """The log with its header's field `key` set to the JSON `text` (the other fields kept in place)."""
    head = json.loads(lines[0])
    head[key] = "\0"
    edited = json.dumps(head, separators=(",", ":"), sort_keys=True).replace('"\\u0000"', text)
    return [edited] + lines[1:]


@pytest.mark.parametrize("key, text, message", [
    ("seed", '"abc"', "the header's 'seed' must be a whole number, not \"abc\""),
    ("seed", "true", "the header's 'seed' must be a whole number, not true"),
    ("seed", "1.5", "the header's 'seed' must be a whole number, not 1.5"),
    ("players", '"abc"', "the header's 'players' must be a whole number, at least 1, not \"abc\""),
    ("players", "0", "the header's 'players' must be a whole number, at least 1, not 0"),
    ("options", "[1,2]", "the header's 'options' must be an object of option names and values, not [1, 2]"),
    ("variant", "5", "the header's 'variant' must be a variant's name or null, not 5"),
    ("ruleset", "null", "the header's 'ruleset' must be a ruleset's name, not null"),
    ("agents", '"random"', "the header's 'agents' must be a list of names, not \"random\""),
], ids=["seed-text", "seed-bool", "seed-fraction", "players-text", "players-0", "options-list", "variant-number",
        "ruleset-null", "agents-text"])
def test_a_wrong_header_field_is_reported_at_its_place(capsys, log_lines, key, text, message):
    lines = with_header_field(log_lines, key, text)
    column = lines[0].index(f'"{key}"') + 1
    code, output = replay_lines(capsys, lines)
    assert code == 1
    assert f"edited.jsonl:1:{column}: error: {message}" in output


def test_a_header_without_its_seed_is_refused(capsys, log_lines):
    head = json.loads(log_lines[0])
    del head["seed"]
    code, output = replay_lines(capsys, [json.dumps(head)] + log_lines[1:])
    assert code == 1
    assert "edited.jsonl:1:1: error: the header has no 'seed'" in output


def test_a_log_of_the_older_format_is_refused_with_its_name(capsys, log_lines):
    code, output = replay_lines(capsys, [log_lines[0].replace("snowrules-log/2", "snowrules-log/1")] + log_lines[1:])
    assert code == 1
    column = log_lines[0].index('"format"') + 1
    assert (f"edited.jsonl:1:{column}: error: this log is snowrules-log/1; this snowrules reads snowrules-log/2"
            in output)


def test_a_log_without_its_result_line_is_refused(capsys, log_lines):
    assert json.loads(log_lines[-1])["e"] == "result"
    code, output = replay_lines(capsys, log_lines[:-1])
    assert code == 1
    assert f"edited.jsonl:{len(log_lines)}:1: error: the log ends without its result line" in output


def test_an_event_after_the_result_line_is_refused(capsys, log_lines):
    code, output = replay_lines(capsys, log_lines + [log_lines[1]])
    assert code == 1
    assert (f"edited.jsonl:{len(log_lines) + 1}:1: error: an event after the result line "
            f"(line {len(log_lines)})") in output


def test_a_log_missing_its_last_events_but_not_its_result(capsys, log_lines):
    kept = log_lines[:len(log_lines) // 2] + log_lines[-1:]
    code, output = replay_lines(capsys, kept)
    assert code == 1
    assert f"edited.jsonl:{len(kept)}:1: error: the replay goes on after the log ends" in output


# --- where --log may write ------------------------------------------------------------------------


def _folder(place: Path) -> Path:
    place.mkdir()
    (place / "inside.txt").write_text("kept")
    return place


def _fifo(place: Path) -> Path:
    os.mkfifo(place)
    return place


def _link_to(make):
    def made(place: Path) -> Path:
        target = make(place.with_name(place.name + "-target"))
        place.symlink_to(target)
        return place
    return made


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
@pytest.mark.parametrize("make, what", [
    (_folder, "is a folder; a log is written only to a regular file or a new one"),
    (_fifo, "is a FIFO (named pipe); a log is written only to a regular file or a new one"),
    (_link_to(_folder), "is a folder (through the symlink"),
    (_link_to(_fifo), "is a FIFO (named pipe) (through the symlink"),
], ids=["folder", "fifo", "symlink-to-folder", "symlink-to-fifo"])
def test_log_refuses_what_is_not_a_regular_file_before_the_game_starts(capsys, monkeypatch, tmp_path, make, what):
    monkeypatch.chdir(tmp_path)
    target = make(tmp_path / "target")
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = cli(capsys, *GAME[:-1], "--log", target)  # not --json: the game would be told
    assert code == 2, out + err
    assert f"snowrules run: error: --log {target}: {what}" in err
    assert out == "", "refused before the game starts"
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "nothing created or replaced"
    if (tmp_path / "target").is_dir():
        assert (tmp_path / "target" / "inside.txt").read_text() == "kept"


def test_log_through_a_symlink_writes_its_file_and_keeps_the_link(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real.jsonl").write_bytes(PRECIOUS)
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    (tmp_path / "dangling.jsonl").symlink_to("new.jsonl")
    assert cli(capsys, *GAME, "--log", "link.jsonl")[0] == 0
    assert cli(capsys, *GAME, "--log", "dangling.jsonl")[0] == 0
    assert (tmp_path / "link.jsonl").is_symlink() and (tmp_path / "dangling.jsonl").is_symlink()
    written = (tmp_path / "real.jsonl").read_bytes()
    assert written.startswith(b'{"agents":') and written == (tmp_path / "new.jsonl").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.jsonl", "link.jsonl", "new.jsonl", "real.jsonl"]


def test_log_into_a_folder_that_does_not_exist(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, *GAME, "--log", "nowhere/game.jsonl")
    assert code == 2
    assert f"--log nowhere/game.jsonl: its folder {tmp_path / 'nowhere'} does not exist" in err


def test_a_new_log_gets_the_usual_permissions_and_a_replaced_one_keeps_its_own(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    umask = os.umask(0o022)
    try:
        assert cli(capsys, *GAME, "--log", "new.jsonl")[0] == 0
        (tmp_path / "old.jsonl").write_bytes(PRECIOUS)
        os.chmod(tmp_path / "old.jsonl", 0o640)
        assert cli(capsys, *GAME, "--log", "old.jsonl")[0] == 0
    finally:
        os.umask(umask)
    assert (tmp_path / "new.jsonl").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "old.jsonl").stat().st_mode & 0o777 == 0o640


def _console_script() -> str:
    beside = Path(sys.executable).parent / "snowrules"
    return str(beside) if beside.is_file() else shutil.which("snowrules")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_sigterm_removes_the_partial_log_and_keeps_the_previous_one(tmp_path):
    """A game waits for a person at the keyboard; SIGTERM ends it: exit 143, no partial file, the
    log that was there before unchanged."""
    log = tmp_path / "game.jsonl"
    log.write_bytes(PRECIOUS)
    game = subprocess.Popen([_console_script(), "run", "snow_time", "--agents", "human,random", "--log", str(log)],
                            cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("game.jsonl.*.partial")):
            assert game.poll() is None, game.communicate()
            assert time.monotonic() < deadline, "the game never started its log"
            time.sleep(0.05)
        game.send_signal(signal.SIGTERM)
        out, err = game.communicate(timeout=60)
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err
    assert log.read_bytes() == PRECIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


class _SignalledTooEarly(Exception):
    """What this test's own SIGTERM handler raises: seen only if the log's handler was not in place."""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_sigterm_just_after_the_partial_file_is_made_still_removes_it(monkeypatch, tmp_path):
    """SIGTERM in the moment between the partial file's creation and the rest of the opening (CI once
    caught exactly that moment): the log's own handler is already in place, so the run ends as
    Terminated (exit 143), no partial file stays, the earlier log is unchanged, the handler that was
    there before is back."""
    from snowrules.records import logwriter

    def too_early(_signal_number, _frame):
        raise _SignalledTooEarly()

    chmod = os.chmod

    def chmod_then_signal(descriptor, mode):
        chmod(descriptor, mode)
        os.kill(os.getpid(), signal.SIGTERM)

    log = tmp_path / "game.jsonl"
    log.write_bytes(PRECIOUS)
    before = signal.signal(signal.SIGTERM, too_early)
    try:
        monkeypatch.setattr(logwriter.os, "chmod", chmod_then_signal)
        with pytest.raises(logwriter.Terminated) as ended:
            with logwriter.LogWriter(log):
                pass
        monkeypatch.undo()
        assert ended.value.code == 128 + signal.SIGTERM
        assert signal.getsignal(signal.SIGTERM) is too_early
    finally:
        signal.signal(signal.SIGTERM, before)
    assert log.read_bytes() == PRECIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]
