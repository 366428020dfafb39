"""`ask p to choose x from X as "TEXT"`: a decision says what it is in the rulebook's words
(issue 24, part 2, built on the intermediate form: the prompt is a field of the lowered `Ask`,
and the program's table of prompts is read from the lowered routines). The person deciding reads
it at the terminal table, in the browser and through `explain --ir`; a decision without one is
still named by its answer's name. Logs are unchanged: they keep the rule's position."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RulesetError
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, play
from snowrules.play.human import HumanAgent
from snowrules.runtime.engine import Game
from snowrules.web.views import decisions

TILES = Path(__file__).resolve().parent / "rulesets" / "tiles"

RULES = """zone table shared public grid
zone hand shared public
zone pile shared public
counter score per player from 0 to 999
setup:
    move [each c in box where c.kind == "tile"] to hand
each turn:
    {statement}
    ask first(players) to choose d from hand:
        move d to pile
    end game winners players
"""


def _game(tmp_path, statement: str) -> Game:
    folder = tmp_path / "tiles"
    if not folder.exists():
        shutil.copytree(TILES, folder)
    (folder / "rules.sr").write_text(RULES.format(statement=statement), encoding="utf-8")
    return Game(compile_ruleset(load_ruleset(str(folder)), 1))


class _Recording(FirstAgent):
    def __init__(self):
        self.seen: list[str] = []

    def choose(self, observation) -> int:
        self.seen.append(observation.choice)
        return 0


def test_a_decision_reads_as_its_prompt_and_one_without_as_its_answers_name(tmp_path):
    game = _game(tmp_path, 'ask first(players) to choose c from hand as "keep a tile for later":\n'
                           '        move c to pile')
    agent = _Recording()
    play(game, [agent], 1)
    assert agent.seen == ["keep a tile for later", "d"]
    ((rule, prompt),) = game.program.prompts.items()
    assert rule.endswith("tiles/rules.sr:8:5") and prompt == "keep a tile for later"


def test_the_terminal_and_the_browser_show_the_prompt(tmp_path):
    game = _game(tmp_path, 'ask first(players) to choose c from hand as "keep a tile for later":\n'
                           '        move c to pile')
    written: list[str] = []
    human = HumanAgent(read=lambda prompt: "1", write=written.append)
    play(game, [human], 1)
    headers = [line for line in written if line.startswith("\n---")]
    assert headers == ["\n--- builder to choose (keep a tile for later) ---", "\n--- builder to choose (d) ---"]
    st = game.start(1)
    (shown,) = decisions(game, st, 0)
    assert shown["choice"] == "keep a tile for later"


def test_a_prompt_changes_no_log(tmp_path):
    """The log names a decision by its rule's position: a prompt added is not a different game."""
    logs = []
    for statement in ("ask first(players) to choose c from hand:\n        move c to pile",
                      'ask first(players) to choose c from hand as "keep a tile":\n        move c to pile'):
        game = _game(tmp_path, statement)  # the same folder: the same positions in the log
        events: list = []
        play(game, [FirstAgent()], 4, sink=events.append)
        logs.append([e.to_json() if hasattr(e, "to_json") else e for e in events])
    assert logs[0] and logs[0] == logs[1]


# (the prompt as written, the message, its column)
BAD = [
    ('""', "a decision's prompt is empty", 49),
    ('"   "', "a decision's prompt is empty", 49),
    ('"keep\u202ea tile"', "the prompt 'keep\\u202ea tile' holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format "
                           "character (character 5)", 49),
    ('"keep\u200ba tile"', "the prompt 'keep\\u200ba tile' holds U+200B ZERO WIDTH SPACE, an invisible format "
                           "character (character 5)", 49),
]


@pytest.mark.parametrize("written, message, column", BAD, ids=["empty", "blank", "bidi", "zero width"])
def test_a_bad_prompt_is_refused_at_its_text(tmp_path, written, message, column):
    with pytest.raises(RulesetError) as refused:
        _game(tmp_path, f"ask first(players) to choose c from hand as {written}:\n        move c to pile")
    (diagnostic,) = refused.value.diagnostics
    assert (diagnostic.position.line, diagnostic.position.col) == (8, column)
    assert diagnostic.message == message
