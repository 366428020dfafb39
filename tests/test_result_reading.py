"""How the result reads (issue 24, part 3): the manifest's `result:` section gives each player a
title (a solo game ends "you score -17: Lost Traveler", not "you wins") and the rulebook's
tie-breakers, from which the result says what decided a shared best score ("tied on VP 0;
decided by window tiles: red 3, green 2"). Both are read from the state the game ends in
(play/results.py): the account's last line, `run`'s table and `--json`, and the browser's result
say the same, and no event changes.

The game, worked by hand: three players, north, south and east, start with the scores, coins and
debts each row gives and the game ends at once; the rules decide the winners as the rulebook
would (the most score, then the most coins, then the fewest debt) unless a row says otherwise.
"""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, RandomAgent, play
from snowrules.play.narrate import account_listeners, account_observer, narrator_for, tee
from snowrules.play.results import result_reading
from snowrules.records.scenarios import run_scenario
from snowrules.runtime.engine import Game
from snowrules.web.views import result as web_result

RULES = """game "Race"

counter score per player from 0
counter coins per player from 0
counter debt per player from 0

define most_score(ps) = [each p in ps where p.score == max([q.score for each q in ps])]
define most_coins(ps) = [each p in ps where p.coins == max([q.coins for each q in ps])]
define fewest_debt(ps) = [each p in ps where p.debt == min([q.debt for each q in ps])]

setup:
    for each p in players:
        add item({score}, seat_number(p)) to p.score
        add item({coins}, seat_number(p)) to p.coins
        add item({debt}, seat_number(p)) to p.debt

rounds 1:
    phase nothing:
        pass

at game end:
    end game winners {winners}
"""
RULEBOOK = "fewest_debt(most_coins(most_score(players)))"
DECLARED = "tie_broken(most_score(players))"  # the manifest's tie-breakers, applied by the rules
MANIFEST = """name: race
title: Race
version: 0.1.0
rulebook: README.md
players: {{min: 3, max: 3}}
seat_names: [north, south, east]
rules: [rules.sr]
components: []
language: 3
result:
  title: '{title}'
  tie_breaks:
    - {{most: '{coins}', as: coins}}
    - {{fewest: p.debt, as: debt}}
"""


def _folder(tmp_path: Path, score, coins, debt, winners=RULEBOOK, title='"leader" if p.score >= 3 else none',
            coins_value="p.coins") -> Path:
    folder = tmp_path / "race"
    folder.mkdir(exist_ok=True)
    (folder / "README.md").write_text("# Race\n")
    (folder / "rules.sr").write_text(RULES.format(score=score, coins=coins, debt=debt, winners=winners))
    (folder / "ruleset.yaml").write_text(MANIFEST.format(title=title, coins=coins_value))
    return folder


# (scores, coins, debts, the rules' winners, what the result says of the tie), each worked by hand
TIES = [
    # north and south tie on 3; south has more coins
    ([3, 3, 1], [2, 5, 9], [0, 0, 0], RULEBOOK, "tied on score 3; decided by coins: south 5, north 2"),
    # all three on 3; east falls behind on coins, north and south share 4; south owes less
    ([3, 3, 3], [4, 4, 1], [2, 1, 0], RULEBOOK, "tied on score 3, coins 4; decided by debt: south 1, north 2"),
    # nobody shares the best score: nothing to say
    ([5, 3, 1], [0, 9, 9], [0, 0, 0], RULEBOOK, None),
    # still tied after every tie-breaker: the two share the victory, and the line says on what
    ([3, 3, 1], [2, 2, 0], [1, 1, 0], RULEBOOK, "tied on score 3, coins 2, debt 1"),
    # the rules name both tied players though the coins tell them apart: no reason is given
    ([3, 3, 1], [2, 5, 0], [0, 0, 0], "most_score(players)", "tied on score 3"),
    # the rules take the declared tie-breakers themselves (tie_broken): the same winners, the same words
    ([3, 3, 1], [2, 5, 9], [0, 0, 0], DECLARED, "tied on score 3; decided by coins: south 5, north 2"),
    ([3, 3, 3], [4, 4, 1], [2, 1, 0], DECLARED, "tied on score 3, coins 4; decided by debt: south 1, north 2"),
    ([3, 3, 1], [2, 2, 0], [1, 1, 0], DECLARED, "tied on score 3, coins 2, debt 1"),
]


@pytest.mark.parametrize("score, coins, debt, winners, said", TIES,
                         ids=["coins decide", "debt decides", "no tie", "shared", "rules disagree",
                              "declared: coins decide", "declared: debt decides", "declared: shared"])
def test_what_decided_a_tie_is_said_in_the_declared_order(tmp_path, score, coins, debt, winners, said):
    game = Game(compile_ruleset(load_ruleset(str(_folder(tmp_path, score, coins, debt, winners))), 3))
    st = play(game, [FirstAgent()] * 3, 1)
    assert result_reading(game, st).get("tie") == said
    assert web_result(game, st).get("tie") == said


def test_the_account_the_table_and_json_say_the_titles_and_the_tie(tmp_path):
    folder = _folder(tmp_path, [3, 3, 1], [2, 5, 9], [0, 0, 0])
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["run", str(folder), "--agents", "first,first,first", "--seed", "1"]) == 0
    text = out.getvalue()
    assert ("The game ends: south wins (tied on score 3; decided by coins: south 5, north 2); "
            "north score 3: leader; south score 3: leader\n") in text
    table = text[text.index("Race: result"):]
    assert "│ north  │ first │     3 │        │ leader │" in table
    assert "│ south  │ first │     3 │ winner │ leader │" in table
    assert "│ east   │ first │     1 │        │        │" in table
    assert table.rstrip().endswith("\ntied on score 3; decided by coins: south 5, north 2")
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["run", str(folder), "--agents", "first,first,first", "--seed", "1", "--json"]) == 0
    result = json.loads(out.getvalue())
    assert (result["titles"], result["tie"]) == (["leader", "leader", None],
                                                 "tied on score 3; decided by coins: south 5, north 2")


def test_nobody_titled_leaves_the_title_out(tmp_path):
    game = Game(compile_ruleset(load_ruleset(str(_folder(tmp_path, [2, 1, 0], [0, 0, 0], [0, 0, 0]))), 3))
    assert result_reading(game, play(game, [FirstAgent()] * 3, 1)) == {}


def _validate(folder: Path) -> list[str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        main(["validate", "--no-scenarios", str(folder)])
    return [line for line in out.getvalue().splitlines() if "[SR" in line]


# (the manifest's title, the tie-breaker's value, the line reported: its place, its message, its code)
BAD = [
    ("p.score", "p.coins", "ruleset.yaml:11:11: error: a player's title must be a text (or none), not a number",
     "SR750"),
    ('"leader"', "most_score(players)", "ruleset.yaml:13:15: error: a tie-breaker must be a number, not a list of "
     "players", "SR750"),
    ('"leader"', "p.gold", "ruleset.yaml:13:15: error: a player has no zone or counter 'gold'", "SR401"),
    ("ranking(p)", "p.coins", "ruleset.yaml:11:11: error: unknown function 'ranking'", ""),
]


@pytest.mark.parametrize("title, coins, expected, code", BAD, ids=["title a number", "tie-breaker a list",
                                                                    "unknown counter", "unknown function"])
def test_a_bad_result_reading_is_reported_at_its_place(tmp_path, title, coins, expected, code):
    lines = _validate(_folder(tmp_path, [3, 3, 1], [2, 5, 9], [0, 0, 0], title=title, coins_value=coins))
    assert len(lines) == 1 and expected in lines[0] and f"[{code}" in lines[0], lines


def test_tie_broken_gives_the_rulebook_s_winners(tmp_path):
    # the same ties as the rules written criterion by criterion: the same winners (worked by hand)
    cases = (([3, 3, 1], [2, 5, 9], [0, 0, 0], [1]), ([3, 3, 3], [4, 4, 1], [2, 1, 0], [1]),
             ([3, 3, 1], [2, 2, 0], [1, 1, 0], [0, 1]), ([5, 3, 1], [0, 9, 9], [0, 0, 0], [0]))
    for score, coins, debt, winners in cases:
        for rules in (RULEBOOK, DECLARED):
            game = Game(compile_ruleset(load_ruleset(str(_folder(tmp_path, score, coins, debt, rules))), 3))
            assert game.outcome(play(game, [FirstAgent()] * 3, 1)).winners == winners, (rules, score)


def test_tie_broken_without_declared_tie_breakers_is_reported_at_the_call(tmp_path):
    folder = _folder(tmp_path, [3, 3, 1], [2, 5, 9], [0, 0, 0], DECLARED)
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text()
    manifest.write_text(text[:text.index("  tie_breaks:")])
    (line,) = _validate(folder)
    assert "rules.sr:22:22: error: tie_broken() applies the tie-breakers the manifest declares" in line, line
    assert "[SR751" in line


def test_a_tie_breaker_without_its_words_is_refused_by_the_schema(tmp_path):
    folder = _folder(tmp_path, [3, 3, 1], [2, 5, 9], [0, 0, 0])
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace(", as: coins}", "}"))
    (line,) = _validate(folder)
    assert "ruleset.yaml:13:7" in line and "'as' is a required property" in line, line


# [Wanderlust Table] <46 Lost Traveler, 46-55 Wayward Hiker, ...: a seeded solo game, by its score
def test_a_solo_game_ends_with_its_score_and_its_title():
    game = Game(load_program("snowfall_over_mountains", None, 1))
    lines: list[str] = []
    narrator = narrator_for(game, lines.append, None)
    st = play(game, [RandomAgent(3)], 3, sink=narrator.feed, listen=tee(account_listeners(narrator)),
              observe=account_observer(narrator))
    narrator.flush()
    score = game.outcome(st).scores[0]
    assert score == -22 and lines[-1] == "\nThe game ends: you score -22: Lost Traveler"
    assert result_reading(game, st) == {"titles": ["Lost Traveler"]}
    assert not any("rank" in line for line in lines[:-1])  # said once, at the result


# Snow Planner's own tie-breakers ([Game End]; the manifest's `result: tie_breaks:`), on its three
# worked scenarios: each ends with both players on 2 VP (their head comments have the arithmetic)
SNOW_PLANNER = Path(__file__).resolve().parent.parent / "rulesets" / "snow_planner" / "scenarios"
TIE_BREAKS = [
    # green 2 window tiles, red 1
    ("tie_break_1_windows.yaml", "tied on VP 2; decided by window tiles: green 2, red 1"),
    # 1 window tile each; green keeps 2 guest cards, red 1
    ("tie_break_2_guests.yaml", "tied on VP 2, window tiles 1; decided by guest cards and VIPs kept: green 2, red 1"),
    # 1 window tile and 2 cards kept each; red's opening guest is number 2, green's 1
    ("tie_break_3_opening_guest.yaml", "tied on VP 2, window tiles 1, guest cards and VIPs kept 2; decided by "
     "opening guest number: red 2, green 1"),
]


@pytest.mark.parametrize("scenario, said", TIE_BREAKS, ids=["windows", "guests", "opening guest"])
def test_snow_planner_says_which_tie_breaker_decided(scenario, said):
    result = run_scenario(SNOW_PLANNER / scenario, "snow_planner")
    assert result.passed, result.failures
    game = Game(load_program("snow_planner", None, 2))
    assert result_reading(game, result.state) == {"tie": said}
