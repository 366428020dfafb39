"""`event NAME(c, source, dest) from moves` is raised by every move of a component by `move`, in
every form of the statement (docs/language.md, Events and reactions), stopped at each decision and played
through alike; a draw at random is not a move event.

Which statements move components is said once, where each statement form is lowered to the
intermediate form (compile/ir/lower.py: a `Move` raises move events). The grid placement `move c
to ZONE at SPOT` once forgot to raise the events (issue 23): each form is a row here, with the
number of events counted by hand and the node it lowers to.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from snowrules.compile.compiler import compile_ruleset, intermediate_form
from snowrules.compile.ir import nodes as ir
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import RandomAgent, play
from snowrules.runtime.engine import Game

TILES = Path(__file__).resolve().parent / "rulesets" / "tiles"

RULES = """zone table shared public grid
zone hand shared public
zone pile shared public
counter score per player from 0 to 999
event arrived(c, source, dest) from moves
on arrived(c, source, dest):
    add 1 to first(players).score
setup:
    move [each c in box where c.kind == "tile"] to hand
each turn:
    {statement}
    end game winners players
"""

# (the statement of the turn, move events in the game: 3 in the setup, one a tile into the hand)
FORMS = [
    ("move first(hand) to table at first(placements(table, first(hand), 0))", 4),
    ("move first(hand) to pile", 4),
    ("move [each c in hand where c.name != \"tile A\"] to pile", 5),
    ("move all from hand to pile", 6),
    ("move 2 from hand to pile", 5),
    ("move 2 from hand to pile at bottom", 5),
    ("move 1 at random from hand to pile", 3),  # a draw: not a move event (the docs say so)
]


@pytest.mark.parametrize("statement, events", FORMS, ids=[form for form, _ in FORMS])
def test_every_move_raises_its_event_stopped_and_played_through(tmp_path, statement, events):
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    (folder / "rules.sr").write_text(RULES.format(statement=statement), encoding="utf-8")
    game = Game(compile_ruleset(load_ruleset(str(folder)), 1))
    log: list = []
    through = play(game, [RandomAgent(1)], 5, sink=log.append)  # played through, every event heard
    on_vm_log: list = []
    on_vm = game.start(5, on_vm_log.append)
    assert through.result is not None and on_vm.result is not None
    assert game.seat_scores(through) == game.seat_scores(on_vm) == [events]
    assert [json.dumps(e, sort_keys=True) for e in log] == [json.dumps(e, sort_keys=True) for e in on_vm_log]


@pytest.mark.parametrize("statement, events", FORMS, ids=[form for form, _ in FORMS])
def test_each_move_form_lowers_to_a_move_and_a_random_draw_to_chance(tmp_path, statement, events):
    folder = tmp_path / "tiles"
    shutil.copytree(TILES, folder)
    (folder / "rules.sr").write_text(RULES.format(statement=statement), encoding="utf-8")
    outline, effects = intermediate_form(load_ruleset(str(folder)), 1)
    (turn,) = outline.of(ir.RoutineKind.TURN)
    lowered = turn.body.statements[0]
    if "at random" in statement:
        assert isinstance(lowered, ir.Chance) and lowered.draw is ir.Draw.RANDOM_MOVE and lowered.raised == ()
        assert not effects.heard_at(lowered)
    else:
        assert isinstance(lowered, ir.Move) and lowered.raised == (ir.ComponentsMoved(),)
        assert effects.heard_at(lowered)  # `arrived` is heard: the move runs as a step
