"""The generated module a game is played through with: one text per built program, every
statement under a mark naming its rule, registered with linecache, and shown by `snowrules
explain --code`."""
from __future__ import annotations

import ast
import linecache
import re

import pytest
from conftest import game_for
from snowrules.cli.main import main
from snowrules.compile import fuse
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.model.events import kinds_of
from snowrules.runtime.engine import Game
from test_language import ruleset
from test_playthrough import random_decide

MARK = re.compile(r"^\s*# @(_p\d+) (\S+):(\d+):(\d+)$")


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, players", [
    ("goofspiel", 2), ("oh_hell", 4), ("snow_time", 3), ("snowy_tricks", 2), ("snowfall_over_mountains", 1),
    ("snow_planner", 2)])
def test_every_bundled_game_is_one_module_whose_marks_name_real_rules(name, players):
    game = game_for((name, None, players))
    for heard in (frozenset(), kinds_of(None)):
        module = game.played_through(heard).module
        assert module.separate == 0  # no namespace clash: every function is in the one module
        text = module.text
        compile(text, module.filename, "exec")
        marks = [MARK.match(line) for line in text.splitlines() if line.strip().startswith("# @")]
        assert marks and all(marks), "every mark says file:line:col"
        for mark in marks:  # each names a line of the ruleset that has that column
            path, line, col = mark.group(2), int(mark.group(3)), int(mark.group(4))
            assert path.startswith(f"rulesets/{name}/") and path.endswith((".sr", ".yaml"))  # rules, card effects
            with open(path, encoding="utf-8") as rules:
                assert col <= len(rules.read().splitlines()[line - 1]) + 1  # a block begins past its colon
        assert linecache.getline(module.filename, 1) == text.splitlines()[0] + "\n"


def test_a_rules_error_is_reported_at_the_mark_above_its_generated_line(tmp_path):
    """A Python error in the module is mapped back to the rule by the module's own lines: the
    second statement of the turn (line 7), not the turn (line 5) or the first statement."""
    rules = ("zone deck shared public\ncounter score per player from 0\nsetup:\n    move all from box to deck\n"
             "each turn:\n    pass\n    add first([each p in players where p.score > 5]).score to turn\n")
    game = Game(compile_ruleset(ruleset(tmp_path, rules), 2))
    with pytest.raises(RuntimeRulesError) as caught:
        game.play_through(0, random_decide(2, 0))
    assert "rules.sr:7:5: error: a value is none where this rule needs one" in str(caught.value)
    lines = game._playthroughs[frozenset(), "plain"].module.text.splitlines()
    failing = next(number for number, line in enumerate(lines) if "> 5" in line)
    mark = next(MARK.match(line) for line in reversed(lines[:failing]) if line.strip().startswith("# @"))
    assert (mark.group(3), mark.group(4)) == ("7", "5")


def test_a_mark_never_ends_its_comment():
    """A position is a file name: a line break in it must not start a line of code."""
    namespace: dict = {}
    line = fuse.mark(Position("odd\nimport os\r\u2028name.sr", 3, 4), namespace)
    assert "\n" not in line and "\r" not in line and "\u2028" not in line
    assert line.endswith("odd?import os??name.sr:3:4")
    assert fuse.marked_position({**namespace, fuse.SOURCE: [line, "x = 1"]}, 2) == Position(
        "odd\nimport os\r\u2028name.sr", 3, 4)


def test_explain_prints_the_module_of_a_configuration(capsys):
    code, out, err = cli(capsys, "explain", "goofspiel", "--players", "3", "--code")
    assert code == 0 and err == ""
    first = out.splitlines()[0]
    assert first.startswith("# snowrules module") and "goofspiel, 3 players" in first and "hearing every event" in first
    assert "def _block" in out and "# @_p" in out and "rulesets/goofspiel/rules.sr:" in out
    assert "st.sink(_Moved(" in out  # a logged game tells its moves
    assert "#   st.zones[1] = p0.hand\n" in out and "#   st.counters[0] = turn\n" in out  # what the numbers are
    ast.parse(out)  # all of it is Python: the module and comments
    code, quiet, _ = cli(capsys, "explain", "goofspiel", "--players", "3", "--events", "none")
    assert code == 0 and "hearing no event" in quiet.splitlines()[0] and "_Moved(" not in quiet


@pytest.mark.parametrize("arguments, message", [
    (["nope"], "no ruleset 'nope'"),
    (["goofspiel", "--players", "1"], "--players 1: Goofspiel is for 2 to"),
    (["goofspiel", "--events", "some"], "argument --events: invalid choice: 'some'"),
    (["goofspiel", "--variant", "x\u202ey"], "--variant"),
    (["goofspiel", "--option", "num_cards"], "--option 'num_cards': write NAME=VALUE"),
])
def test_explain_refuses_a_wrong_argument(capsys, arguments, message):
    code, out, err = cli(capsys, "explain", *arguments)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_a_mark_is_looked_up_within_its_own_function_of_the_module():
    """A module holds many functions: a line above every mark of its own function (or a line
    Python cannot name) names no rule rather than the previous function's last one."""
    here, there = Position("rules.sr", 3, 5), Position("rules.sr", 9, 1)
    scope = {"_p1": there, "_p2": here, fuse.SOURCE: [
        "def _block1(st, env):", "    # @_p1 rules.sr:9:1", "    x = 1",
        "def _block2(st, env):", "    y = 2", "    # @_p2 rules.sr:3:5", "    z = 3"]}
    assert fuse.marked_position(scope, 3) == there
    assert fuse.marked_position(scope, 5) is None  # above _block2's first mark: not _block1's
    assert fuse.marked_position(scope, 7) == here
    assert fuse.marked_position(scope, None) is None


def test_the_listing_of_bound_names_stays_comments():
    """The names bound by the builder are described in comments: a position's file name, an
    option's text, with a line break in them, stay inside their comment."""
    from snowrules.compile.generated_module import GeneratedModule
    module = GeneratedModule("odd\ntitle")
    module.define("_block1", "def _block1(st, env):\n    return _v1, _v2, _v3",
                  {"_v1": Position('odd\n"x\'\nprint("pwned")#/rules.sr', 3, 4), "_v2": "a\nimport os",
                   "_v3": object()})
    module.load()
    listing = module.listing()
    compile(listing, "listing", "exec")  # every added line is a comment
    assert "\n" not in module.filename and "print(" not in "".join(
        line for line in listing.splitlines() if not line.startswith("#"))
    assert "#   _v3 = a marker (a value no rule can hold)" in listing


def test_the_command_line_is_read_without_building_anything():
    """Every command's arguments are declared at start-up (`snowrules list` among them): none of
    them may import the compiler, the engine or the agents (explain did: `list` took 0.45 s more)."""
    import subprocess
    import sys
    code = ("from snowrules.cli.main import _parser; _parser(); import sys; "
            "print(sorted(m for m in sys.modules if m.startswith(('snowrules.compile', 'snowrules.runtime', "
            "'snowrules.play'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
