"""`snowrules replay LOG --html FILE` (issue 26 point 3): one self-contained page of a saved game.

The page carries every step from every reader's view and runs only the script it carries (its
Content-Security-Policy names that script and style sheet by hash, and allows no connection);
ruleset text inside it cannot end its JSON's <script> element. Stepping through it in a real
browser: test_web_browser.py.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.play.agents import parse_agents
from snowrules.records.logfile import read_log
from snowrules.runtime.engine import Game
from snowrules.web.saved_page import saved_page, saved_steps, script_safe
from snowrules.web.table import Table
from snowrules.web.watch import Watch

SAVED = re.compile(r'<script type="application/json" id="saved">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def goofspiel_log(tmp_path_factory):
    """A Goofspiel game where both play their lowest card each turn (12 decisions, all ties)."""
    log = tmp_path_factory.mktemp("saved") / "game.jsonl"
    room = Table(Game(load_program("goofspiel", None, 2)), 3, parse_agents("human,first"), "goofspiel", log)
    while room.st.result is None:
        room.answer(0, 0)
    return log


def test_the_page_holds_every_step_from_every_view_and_runs_only_its_own_script(goofspiel_log):
    watch = Watch(Game(load_program("goofspiel", None, 2)), read_log(goofspiel_log), "Goofspiel")
    page = saved_page(watch)
    data = json.loads(SAVED.search(page).group(1))
    assert (len(data["steps"]), sorted(data["steps"][0])) == (13, ["0", "1", "all"])
    assert data["steps"][1]["all"]["chosen"] == ["p0: p0 bid 1", "p1: p1 bid 1"]
    assert data["steps"][1]["0"]["view"]["zones"]["p1.hand"] == {"count": 12}     # p0 does not see p1's hand
    assert data["steps"][12]["all"]["told"] == len(data["accounts"]["all"])
    assert data == json.loads(json.dumps(saved_steps(watch)))
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
    assert policy == (f"default-src 'none'; script-src {digest(scripts[0])}; style-src {digest(styles[0])}; "
                      "img-src data:; base-uri 'none'; form-action 'none'")
    assert (len(scripts), len(styles), "/static/" in page, "http" in policy) == (1, 1, False, False)


@pytest.mark.parametrize("text,written", [
    ("</script><script>alert(1)</script>", '"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"'),
    ("<!--", '"\\u003c!--"'),
    ("a & b", '"a \\u0026 b"'),
    ("é", '"é"'),
])
def test_ruleset_text_cannot_end_the_pages_json(text, written):
    assert script_safe(text) == written and json.loads(written) == text


def test_replay_html_writes_the_page_and_says_what_it_holds(goofspiel_log, tmp_path, capsys):
    page = tmp_path / "game.html"
    assert main(["replay", str(goofspiel_log), "--html", str(page)]) == 0
    said = capsys.readouterr().out
    size = len(page.read_bytes()) // 1024
    assert said == (f"{page}: Goofspiel, 12 decisions, to step through from any seat's view "
                    f"({size} KB, no network needed)\n")
    assert len(json.loads(SAVED.search(page.read_text()).group(1))["steps"]) == 13


@pytest.mark.parametrize("arguments,message", [
    (["--html", "{tmp}"], "--html {tmp}: is a folder; a page is written only to a regular file or a new one"),
    (["--html", "{tmp}/no/page.html"], "--html {tmp}/no/page.html: its folder {tmp}/no does not exist"),
    (["--html", "{tmp}/page.html", "--show"], "give --show (the terminal) or --html FILE (a page), not both"),
], ids=["folder", "no-folder", "with-show"])
def test_replay_html_refuses_a_wrong_file_before_playing(goofspiel_log, tmp_path, capsys, arguments, message):
    arguments = [a.format(tmp=tmp_path) for a in arguments]
    assert main(["replay", str(goofspiel_log), *arguments]) == 2
    assert message.format(tmp=tmp_path) in capsys.readouterr().err


def test_a_game_saved_midway_is_shown_as_far_as_it_went(tmp_path, capsys):
    log, page = tmp_path / "game.jsonl", tmp_path / "game.html"
    room = Table(Game(load_program("goofspiel", None, 2)), 3, parse_agents("human,first"), "goofspiel", log)
    for _ in range(3):
        room.answer(0, 0)
    assert main(["replay", str(log), "--html", str(page)]) == 0
    data = json.loads(SAVED.search(page.read_text()).group(1))
    assert (len(data["steps"]), data["steps"][3]["all"]["result"]) == (4, None)
    assert capsys.readouterr().out.startswith(f"{page}: Goofspiel, 3 decisions,")
