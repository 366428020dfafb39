"""The intermediate form (compile/ir): each statement form lowers to the node that says what it
does, and whether a statement may wait for a decision or set off reactions is derived from the
lowered nodes (compile/ir/effects.py) — the facts that decide whether it runs as a step.

Each row is one statement of a turn in a tiny ruleset, with its facts worked out by hand from the
rules around it: `arrived` is heard on every move and `cheered` by name, a trigger on `coins`
asks, the procedure `asks` asks and `quiet` does not.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import intermediate_form
from snowrules.compile.ir import nodes as ir
from snowrules.compile.ir.listing import listing
from snowrules.language.diagnostics import RulesetError
from snowrules.load.ruleset import find_ruleset, load_ruleset

TILES = Path(__file__).resolve().parent / "rulesets" / "tiles"

RULES = """zone table shared public grid
zone hand shared public
zone pile shared public
counter score per player from 0 to 999
counter coins per player from 0 to 99
counter gems per player from 0 to 99
event arrived(c, source, dest) from moves
event cheered(p)
on arrived(c, source, dest):
    add 1 to first(players).score
on cheered(p):
    add 1 to p.score
when p.coins >= 50:
    ask p to choose c from hand:
        move c to pile
define asks(p):
    ask p to choose c from hand:
        move c to pile
define quiet(p):
    add 1 to p.gems
setup:
    move [each c in box where c.kind == "tile"] to hand
each turn:
    {statement}
    end game winners players
"""

# (the statement, the node it lowers to, may it wait for a decision (leaving aside what it raises),
#  does it set off reactions itself)
ROWS = [
    ("move first(hand) to pile", ir.Move, False, True),
    ("move 1 at random from hand to pile", ir.Chance, False, False),  # a draw, not a move event
    ("roll 1 dice with 2 sides as r", ir.Chance, False, False),  # chance is not explicit here
    ("add 1 to first(players).gems", ir.Change, False, False),
    ("add 60 to first(players).coins", ir.Change, True, False),  # sets off the trigger that asks
    ("raise cheered(first(players))", ir.Raise, False, True),
    ("quiet(first(players))", ir.Call, False, False),
    ("asks(first(players))", ir.Call, True, False),
    ("pay 2 from first(players).gems", ir.Pay, False, False),  # one counter, exact: nothing to choose
    ("pay 2 using first(players).coins at 1, first(players).gems at 1", ir.Pay, True, False),
    ("pay 2 from first(players).coins", ir.Pay, True, False),  # the trigger on coins asks
    ("ask first(players) to choose c from hand:\n        quiet(first(players))", ir.Ask, True, False),
    ("together:\n        move first(hand) to pile", ir.Together, False, False),  # heard once it is done
    ("together:\n        add 60 to first(players).gems", ir.Together, False, False),
    ("for each p in players:\n        add 1 to p.gems", ir.Loop, False, False),
    ("for each p in players:\n        raise cheered(p)", ir.Loop, False, False),  # the loop raises nothing itself
    ("if player_count > 1:\n        quiet(first(players))\n    else:\n        asks(first(players))", ir.Branch, True,
     False),
    ("phase counting:\n        move first(hand) to pile", ir.Phase, False, False),
]


def _lowered(tmp_path, statement):
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    (folder / "rules.sr").write_text(RULES.format(statement=statement), encoding="utf-8")
    outline, effects = intermediate_form(load_ruleset(str(folder)), 1)
    (turn,) = outline.of(ir.RoutineKind.TURN)
    return turn.body.statements[0], effects, outline


@pytest.mark.parametrize("statement, node, waits, sets_off", ROWS, ids=[row[0].split("\n")[0] for row in ROWS])
def test_each_statement_lowers_to_what_it_does_and_its_facts_follow(tmp_path, statement, node, waits, sets_off):
    lowered, effects, _ = _lowered(tmp_path, statement)
    assert type(lowered) is node
    assert effects.waits(lowered, heard_too=False) is waits
    assert effects.heard_at(lowered) is sets_off
    # it runs as a step when it may wait or any part of it sets off reactions
    pauses = waits or sets_off or "move first(hand)" in statement or "raise" in statement
    assert effects.waits(lowered, heard_too=True) is pauses
    assert effects.may_pause(lowered.syntax) is pauses and effects.may_wait(lowered.syntax) is waits


def test_a_together_block_that_may_wait_is_refused_at_its_place(tmp_path):
    """The derived fact at work: `asks` waits, so the block around its call cannot be simultaneous."""
    with pytest.raises(RulesetError) as refused:
        _lowered(tmp_path, "together:\n        asks(first(players))")
    assert str(refused.value).endswith(
        "tiles/rules.sr:24:5: error: a `together` block cannot wait for a decision "
        "(hint: move the decision before or after the block)")


def test_the_outline_holds_every_routine_with_what_it_watches(tmp_path):
    _, _, outline = _lowered(tmp_path, "pass")
    named = [(r.kind, r.name, r.pos.line) for r in outline.routines]
    assert named == [
        (ir.RoutineKind.REACTION, "arrived", 9), (ir.RoutineKind.REACTION, "cheered", 11),
        (ir.RoutineKind.TRIGGER, "when", 13), (ir.RoutineKind.SETUP, "setup", 21),
        (ir.RoutineKind.TURN, "each turn", 23),
        (ir.RoutineKind.PROCEDURE, "asks", 16), (ir.RoutineKind.PROCEDURE, "quiet", 19)]
    assert outline.of(ir.RoutineKind.TRIGGER)[0].watches == frozenset({"coins"})


def test_the_listing_says_what_each_statement_does_where_it_is_written(tmp_path):
    _, effects, outline = _lowered(tmp_path, "together:\n        move first(hand) to pile\n    asks(first(players))")
    path = str(tmp_path / "tiles" / "rules.sr")
    text = listing(outline, effects).replace(path, "rules.sr")
    turn = text[text.index("each turn"):text.index("procedure asks")]
    assert turn == (
        "each turn  @ rules.sr:23:1  [may wait]\n"
        "  together  @ rules.sr:24:5\n"
        "    move components  @ rules.sr:25:9  [sets off reactions: move]\n"
        "  call asks  @ rules.sr:26:5  [may wait]\n"
        "  end game  @ rules.sr:27:5\n"
        "\n")
    assert "when (watches coins)  @ rules.sr:13:1  [may wait]\n  ask for a choice  @ rules.sr:14:5  [may wait]" in text


@pytest.mark.parametrize("name", ["crazy_eights", "goofspiel", "oh_hell", "othello", "snow_time", "snowy_tricks",
                                  "snowfall_over_mountains", "snow_planner"])
def test_explain_ir_lists_every_bundled_game_at_real_rules(capsys, name):
    """Every listed statement's position is a line of a rules file whose text starts there."""
    assert main(["explain", name, "--ir"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("# The intermediate form of ")
    folder = find_ruleset(name)
    checked = 0
    for line in out.splitlines()[1:]:
        if "  @ " not in line or not line.startswith(" "):
            continue
        where = line.split("  @ ")[1].split("  [")[0]
        path, number, column = where.rsplit(":", 2)
        source = (folder.parent.parent / path if not Path(path).is_absolute() else Path(path))
        if not source.exists():
            source = Path.cwd() / path
        text = source.read_text(encoding="utf-8").splitlines()[int(number) - 1]
        assert text[int(column) - 1:].strip(), line
        if "ask for a choice" in line:
            assert "choose" in text, line
        if line.strip().startswith("move components"):
            assert text[int(column) - 1:].startswith("move"), line
        checked += 1
    assert checked >= 17  # the smallest bundled game, Othello, lists 17 statements
