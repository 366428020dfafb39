"""The terminal table (issue 24, part 3): a person plays through a real pseudo-terminal (pexpect),
chooses by number or name, asks for help, undoes; two people in hot seat never see each other's
hand; bad answers get one exact line each; `replay --show` steps through a log."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.play.agents import HumanAgent, Observation
from snowrules.play.narrate import narrate
from snowrules.play.replay import logged_game, replay
from snowrules.play.show import account_steps, show_steps
from snowrules.play.table import Table
from snowrules.records.logfile import read_log
from snowrules.runtime.engine import Game

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
TILES = ROOT / "tests" / "rulesets" / "tiles"
PROMPT = r"\(\? for help\): "
SHORT = ["--option", "num_cards=4", "--option", "points_order=ascending"]  # Goofspiel, 3 decisions each


def spawn(*arguments: str, cwd: Path = ROOT):
    return pexpect.spawn(sys.executable, ["-c", "from snowrules.cli.main import entry; entry()", *arguments],
                         cwd=str(cwd), encoding="utf-8", timeout=30, dimensions=(60, 120))


def ask(child, answer: str) -> str:
    """Wait for the prompt, answer it; the screen text up to the prompt."""
    child.expect(PROMPT)
    shown = child.before
    child.sendline(answer)
    return shown


def test_a_person_plays_goofspiel_with_help_a_name_and_undo():
    """p0 is the person, p1 random (seed 1: it bids 4, 1, 3, 2 in turn, as the account
    tells). Help, an option's card, a refused undo before any answer, a name prefix, a refused
    undo after p1 answered, then numbers to the end."""
    child = spawn("run", "goofspiel", "--agents", "human,random", "--seed", "1", *SHORT)
    first = ask(child, "?")
    # the decision's prompt, with the point card's value (rules.sr: "worth {first(prize).value}")
    assert first.endswith("--- p0 to choose (bid for the point card worth 1) ---\r\n"
                          "  p0's hand: p0 bid 1, p0 bid 2, p0 bid 3, p0 bid 4\r\n"
                          "  point cards to come: prize 4, prize 3, prize 2\r\n  point card bid for: prize 1\r\n"
                          "  you hold: score 0\r\n"                              # the score, shown at 0
                          "  1) p0 bid 1\r\n  2) p0 bid 2\r\n  3) p0 bid 3\r\n  4) p0 bid 4\r\nchoice 1-4 ")
    assert "  undo         take back your last answer" in ask(child, "? 3")
    assert "  3) p0 bid 3\r\n     kind: bid\r\n     value: 3\r\n     owner: p0\r\n" in ask(child, "undo")
    assert "nothing to undo: you have not answered yet" in ask(child, "BID 2")   # a name, any case
    second = ask(child, "undo")
    assert "chosen: p0: p0 bid 2" in second and "p1 wins prize 1 with p1 bid 4" in second
    assert ("--- p0 to choose (bid for the point card worth 2) ---\r\n"
            "  p0's hand: p0 bid 1, p0 bid 3, p0 bid 4\r\n  p0's bid: p0 bid 2\r\n"
            "  point cards to come: prize 4, prize 3\r\n  point card bid for: prize 2\r\n"
            "  you hold: score 0\r\n") in second  # what changed
    assert "cannot undo: p1 has answered since" in ask(child, "3")              # bid 4 on prize 2
    third = ask(child, "1")                                                      # bid 1 on prize 3
    assert "p0 wins prize 2 with p0 bid 4" in third
    child.expect(pexpect.EOF)
    end = child.before
    # p1 bids 3 on prize 3, then both last cards are played: p0 bid 3 takes prize 4 (p0 2 + 4, p1 1 + 3)
    assert "p1 wins prize 3 with p1 bid 3" in end and "p0 wins prize 4 with p0 bid 3" in end
    assert "p0: score +4 (now 6)" in end and "The game ends: p0 wins" in end
    child.close()
    assert child.exitstatus == 0


def test_undo_takes_back_the_last_answer_by_replaying_the_game(tmp_path):
    """Three tiles (solo): tile B, then at its spot `undo`: tile B is taken back, the tile is asked
    again; tile C is chosen by name. The log holds the game as played after the undo, and replays."""
    log = tmp_path / "game.jsonl"
    child = spawn("run", str(TILES), "--agents", "human", "--log", str(log))
    ask(child, "1")
    ask(child, "undo")
    again = ask(child, "tile c")
    assert "undone: 'tile B' is taken back; choose again" in again
    assert "--- builder to choose (tile) ---" in again
    spot = ask(child, "1")
    assert "chosen: builder: tile C" in spot and "--- builder to choose (spot) ---" in spot
    ask(child, "1")
    child.expect(pexpect.EOF)
    assert "The game ends: builder score " in child.before and "winner" not in child.before  # solo: a score
    child.close()
    assert child.exitstatus == 0
    choices = [json.loads(line) for line in log.read_text().splitlines() if '"e":"choice"' in line]
    assert [c["option"] for c in choices][:2] == ["tile C", "(0,-1) turned east, covers nothing"]
    assert replay(log, str(TILES)).identical


def test_a_person_reads_snowfall_tiles_with_their_features_in_prompt_and_account():
    """Snowfall, seed 3, a person at the terminal. Its hand after the tool draft is tile 21 and
    tile 07, read with their squares' features (tiles.yaml: tile 21 [pond, tree] and [], tile 07
    [bush] and [pond]); the account tells the choice and the placement by the same label."""
    child = spawn("run", "snowfall_over_mountains", "--seed", "3", "--agents", "human")
    ask(child, "1")                                     # keep Compass and Snowshoes
    hand = ask(child, "1")                              # tile 21
    assert "  your hand: tile 21 (pond, tree | none); tile 07 (bush | pond)\r\n" in hand
    assert "  1) tile 21 (pond, tree | none)\r\n  2) tile 07 (bush | pond)\r\nchoice 1-2 " in hand
    spot = ask(child, "1")                              # (0,-1) turned east
    assert "    chosen: you: tile 21 (pond, tree | none)\r\n" in spot
    assert "    tile 21 (pond, tree | none): your hand -> woods at (0,-1) turned east\r\n" in ask(child, "1")
    child.close(force=True)


def test_a_spot_is_previewed_with_the_piece_placed_there():
    """Three tiles, overlap 1: tile A lies at (0,0) turned east (leaf and leaf, a path from the
    east end of the first square bending north on the second: tiles.yaml). Tile B (leaf, then
    stone with a path south) at option 1, (0,0) turned south, lies on A's first square, its
    stone below at (0,-1) with the path turned west; at (0,1) turned north (found by name) it
    stands above A, its stone at (0,2) with the path turned east. Its squares are starred."""
    child = spawn("run", str(TILES), "--agents", "human", "--option", "overlap=1")
    ask(child, "1")                                     # tile B
    ask(child, "? 1")
    first = ask(child, "? (0,1) turned north")
    assert first.endswith("  1) (0,0) turned south, covers 1 square of tile A\r\n"
                          "     table with tile B there (* marks its squares):\r\n"
                          "        * * |\r\n"
                          "      0  L -L\r\n"
                          "        * *\r\n"
                          "        * *\r\n"
                          "     -1 -S\r\n"
                          "        * *\r\n"
                          "         0  1\r\n"
                          "     L leaf, S stone, - | path\r\nchoice 1-44 ")
    named = ask(child, "17")
    assert named.endswith("  17) (0,1) turned north, covers nothing\r\n"
                          "     table with tile B there (* marks its squares):\r\n"
                          "       * *\r\n"
                          "     2  S-\r\n"
                          "       * *\r\n"
                          "       * *\r\n"
                          "     1  L\r\n"
                          "       * *\r\n"
                          "           |\r\n"
                          "     0  L--L\r\n"
                          "\r\n"
                          "        0  1\r\n"
                          "     L leaf, S stone, - | path\r\nchoice 1-44 ")
    child.close(force=True)


def test_a_person_reads_snow_planner_dice_spaces_and_cards_with_their_values():
    """Snow Planner, 2 players, seed 3, green a person, red random. Setup raises each die #2 to
    3 ([Player Setup 13]); red (first) places its die showing 3, told with its value in green's
    account; green's die options and holdings read with their values, the spaces with their cost
    (action_spaces.yaml, the 1-2 side: each area's space 1 costs 0), the opening guest with its
    DAY and stay conditions (opening_guests.yaml: 0 windows on DAY 1, 1 on DAY 2). Zones read as
    setup.sr says: space[7] is the 1-2 side's action space number 7, the ticket area's space 1
    (action_spaces.yaml '1-2 ticket 1'), a worker zone is the player's worker area. The tiers a
    die reaches read with what they give (tiers.yaml `gives:`)."""
    child = spawn("run", "snow_planner", "--players", "2", "--seed", "3", "--agents", "human,random")
    ask(child, "1")                                     # keep the talent ENTREPRENEUR
    dice = ask(child, "1")                              # the die showing 1
    assert "    red worker die showing 3: red's worker area -> ticket area, space 1 (cost 0)\r\n" in dice
    assert ("--- green to choose (place a die on an action space) ---\r\n"
            "  green's worker area: green worker die showing 1, green worker die showing 3\r\n") in dice
    assert "  green's guest rooms: opening guest 2 (DAY 1; to stay: 0/1 windows on DAY 1/2)\r\n" in dice
    assert "  1) green worker die showing 1\r\n  2) green worker die showing 3\r\nchoice 1-2 " in dice
    spaces = ask(child, "snow area, space 1")           # by the start of its text
    assert "    chosen: green: green worker die showing 1\r\n" in spaces
    # each space reads with its cost and what the die showing 1 reaches there (turn.sr `each as`):
    # every space 1 of the 1-2 side costs 0, so the die counts 1: the lowest tier of each area
    # (tiers.yaml), or the one tier of an area that takes any value
    assert spaces.endswith(
        "  1) snow area, space 1 (cost 0): the die counts 1, up to snow 1-2 (gain 1 snow)\r\n"
        "  2) restaurant area, space 1 (cost 0): the die counts 1, up to restaurant 1-2 (gain 1 croissant)\r\n"
        "  3) promotion area, space 1 (cost 0): the die counts 1, up to promotion 1 (advance the promotion track "
        "by 1 space)\r\n"
        "  4) event area, space 1 (cost 0): the die counts 1, up to event 1-2 (you may play 1 event or goal card)\r\n"
        "  5) guest area, space 1 (cost 0): the die counts 1, up to guest 1-2 (take 1 guest card from positions "
        "1-2)\r\n"
        "  6) vip area, space 1 (cost 0): the die counts 1, up to vip 1-6 (take 1 VIP card from the display)\r\n"
        "  7) summit area, space 1 (cost 0): the die counts 1, up to summit 1-6 (the icons of the space and its "
        "summit tile)\r\n"
        "  8) job area, space 1 (cost 0): the die counts 1, up to job 1-6 (take the part-time job die and draw 1 "
        "event card)\r\n"
        "  9) project area, space 1 (cost 0): the die counts 1, up to project 1-6 (return the project card's "
        "resources for its VP, then acquire the card)\r\n"
        "choice 1-9 ")
    second = ask(child, "1")                            # the die showing 3 (the one left): snow area, space 2
    assert "    chosen: green: snow area, space 1 (cost 0)\r\n" in second   # the account keeps the label
    # the die showing 3 on the snow area's space 2 (cost 2) counts 1: snow 1-2; paying the cost
    # down by 2 (no more than the die's value) it counts 3: snow 3. At cost 0 it counts 3: the
    # restaurant's tier 3, promotion 2-3, event 3-4, guest 3
    assert ("  1) snow area, space 2 (cost 2): the die counts 1, up to snow 1-2 (gain 1 snow); paying the cost "
            "down (a ticket: 1, a snow: 2): up to snow 3 (gain 2 snow)\r\n"
            "  2) restaurant area, space 1 (cost 0): the die counts 3, up to restaurant 3 (gain 2 croissants)\r\n"
            "  3) promotion area, space 1 (cost 0): the die counts 3, up to promotion 2-3 (advance the promotion "
            "track by 2 spaces)\r\n"
            "  4) event area, space 1 (cost 0): the die counts 3, up to event 3-4 (gain 1 ticket, then you may play "
            "1 event or goal card)\r\n"
            "  5) guest area, space 1 (cost 0): the die counts 3, up to guest 3 (take 1 guest card from positions "
            "1-4)\r\n") in second
    ask(child, "1")                                     # its cost reduced by 2 with 1 snow
    tiers = ask(child, "1")                             # snow 1-2
    # [Action Space 1] a die of 3 on a -2 space, the cost bought off ([Free Action: Reducing the
    # Cost]: a snow is 2): "1/2" gains 1 snow, "3" gains 2; each tier says what it gives
    assert ("--- green to choose (gain an effect of snow area, space 2 (cost 2) for a die value of 3) ---\r\n"
            in tiers)
    assert "  1) snow 1-2: gain 1 snow\r\n  2) snow 3: gain 2 snow\r\nchoice 1-2 " in tiers
    child.close(force=True)


def test_hot_seat_never_shows_one_hand_to_the_other_person():
    """Two people at one terminal, each bidding their lowest card. Between the "pass to" screens,
    the screen shows the deciding person's hand and none of the cards still in the other's hand."""
    child = spawn("run", "goofspiel", "--agents", "human,human", *SHORT)
    screens = []
    for _ in range(6):   # 3 decisions each; the 4th card is played by the rules
        child.expect("press Enter")
        child.sendline("")
        screens.append(ask(child, "1"))
    child.expect(pexpect.EOF)
    for turn in range(1, 4):
        for seat, other, hidden_from in (("p0", "p1", turn), ("p1", "p0", turn + 1)):
            screen = screens[2 * (turn - 1) + (seat == "p1")]
            assert f"{seat}'s hand: {seat} bid {turn}" in screen             # the person sees their own hand
            unseen = [f"{other} bid {k}" for k in range(hidden_from, 5) if f"{other} bid {k}" in screen]
            assert unseen == [], (seat, turn, screen)
            assert f"{other}'s hand:" not in screen
            # moves out of the other's hand are counted only
            assert f": {other}'s hand -> " not in screen.replace(f"component(s): {other}'s hand -> ", "")


def test_reveal_plays_every_seat_openly(capsys, monkeypatch):
    """--reveal: no passing of the screen, the other's hand is told as it is played (in-process:
    the screen handling is the same as through a terminal, tested above)."""
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 6))
    assert main(["run", "goofspiel", "--agents", "human,human", "--reveal", *SHORT]) == 0
    out = capsys.readouterr().out
    assert "pass to" not in out and "\033[2J" not in out
    assert "p1 bid 3: p1's hand -> p1's bid (face down)" in out  # p1's card is named: nothing is hidden


def test_replay_show_steps_through_a_log_from_one_seat(tmp_path, capsys):
    """p1's view of a logged game: p0's bids are counted, not named, until they are shown; Enter
    steps on, `b` shows the steps up to the one before again, `q` quits."""
    log = tmp_path / "game.jsonl"
    assert main(["run", "goofspiel", "--seed", "3", "--log", str(log), "--json", *SHORT]) == 0
    logged = read_log(log)
    game, _, _ = logged_game(logged)
    steps = account_steps(logged, game, game.layout.seat_names.index("p1"))
    assert steps[:5] == [["Setup"], ["  12 components set out", "\nRound 1"],
                         ["  - deal point card", "    prize 1: point cards to come -> point card bid for"],
                         ["  - bid", "    chosen: p1: p1 bid 2",
                          "    1 component(s): p0's hand -> p0's bid (face down)"],
                         ["    p1 bid 2: p1's hand -> p1's bid (face down)"]]
    assert ["    p0 bid 3: p0's bid (face down) -> p0's bid"] in steps    # shown once played
    keys = iter(["", "", "b", "q"])
    shown: list[str] = []
    show_steps(steps[:5], "a log", lambda prompt: shown.append(prompt) or next(keys), shown.append)
    assert shown[:4] == ["a log (Enter: next, b: back, q: quit)", "Setup", "[1/5] ", "  12 components set out"]
    assert shown[-5:] == ["\033[H\033[2J\033[3Ja log", "Setup", "  12 components set out", "\nRound 1", "[2/5] "]


def _goofspiel_decision():
    game = Game(load_program("goofspiel", None, 2, (("num_cards", 4), ("points_order", "ascending"))))
    st = game.start(0)
    return game, Observation(game, st, 0, st.pending.options[0])


BAD_ANSWERS = [
    ("", "type a number from 1 to 4 or the start of an option's name (? for help)"),
    ("0", "no option 0: the options are 1 to 4"),
    ("5", "no option 5: the options are 1 to 4"),
    ("zz", "no option matches 'zz': type a number from 1 to 4 or the start of an option's name (? for help)"),
    ("p1 bid 2", "no option matches 'p1 bid 2': type a number from 1 to 4 or the start of an option's name "
                 "(? for help)"),
    ("bid", "'bid' matches 4 options: 1) p0 bid 1, 2) p0 bid 2, 3) p0 bid 3, 4) p0 bid 4; type more of the "
            "name or its number"),
    ("p0 b", "'p0 b' matches 4 options: 1) p0 bid 1, 2) p0 bid 2, 3) p0 bid 3, 4) p0 bid 4; type more of the "
             "name or its number"),
    ("? 9", "no option 9: the options are 1 to 4"),
    ("? zz", "no option matches 'zz': type a number from 1 to 4 or the start of an option's name (? for help)"),
    ("undo", "nothing to undo: you have not answered yet"),
]


@pytest.mark.parametrize("answer, message", BAD_ANSWERS)
def test_a_bad_answer_gets_one_exact_line(answer, message):
    game, observation = _goofspiel_decision()
    agent = HumanAgent(table=Table(game, {0}))
    assert agent.reply(answer, observation, observation.view, observation.labels()) == (None, [message])


@pytest.mark.parametrize("answer, index", [("3", 2), ("BID 3", 2), ("p0 bid 4", 3), ("bid 1", 0), ("b", None)])
def test_a_good_answer_picks_its_option(answer, index):
    game, observation = _goofspiel_decision()
    chosen, _ = HumanAgent().reply(answer, observation, observation.view, observation.labels())
    assert chosen == index


@pytest.mark.parametrize("answer, index, message", [
    ("1", 1, None), ("0", 0, None),                        # the number itself, not its place in a list
    ("2", None, "2 is not one of the options: 0, 1"), ("-1", None, "-1 is not one of the options: 0, 1"),
    ("", None, "type one of 0, 1 (? for help)"), ("? 1", None, "  1"),
])
def test_options_that_are_numbers_are_answered_with_the_number(answer, index, message):
    """Oh Hell, seed 2: p0 bids 0 or 1 tricks (one card each)."""
    game = Game(load_program("oh_hell", None, 3))
    st = game.start(2)
    observation = Observation(game, st, 0, st.pending.options[0])
    assert observation.labels() == ["0", "1"]
    chosen, lines = HumanAgent().reply(answer, observation, observation.view, observation.labels())
    assert (chosen, lines[:1]) == (index, [message] if message else [])


def test_repeated_setup_lines_are_folded():
    events = [{"e": "phase", "phase": "setup"}] + [{"e": "shuffle", "zone": "discard"}] * 4 + [
        {"e": "shuffle", "zone": "deck"}, {"e": "turn", "turn": 1}, {"e": "shuffle", "zone": "discard"},
        {"e": "shuffle", "zone": "discard"}]
    assert narrate(events) == ["Setup", "    shuffled discard \u00d74", "    shuffled deck", "\nTurn 1",
                               "    shuffled discard", "    shuffled discard"]  # folded in the setup only


def test_setup_lines_repeated_apart_are_folded_where_they_first_came():
    """Snow Planner's setup shuffles its discard pile three times in a row, then once after the
    dice are set and once after the opening guests: five times, told on the first one's line;
    the other lines keep their order, a counter line is never folded."""
    count = {"e": "count", "counter": "red.coins", "by": 1, "now": 1}
    events = [{"e": "phase", "phase": "setup"}, {"e": "shuffle", "zone": "guests"}] + \
        [{"e": "shuffle", "zone": "discard"}] * 3 + [
        {"e": "shuffle", "zone": "events"}, count, {"e": "shuffle", "zone": "discard"},
        {"e": "say", "text": "opening guests dealt"}, {"e": "shuffle", "zone": "discard"},
        {"e": "say", "text": "opening guests dealt"}, {**count, "now": 2}, {"e": "turn", "turn": 1}]
    assert narrate(events) == [
        "Setup", "    shuffled guests", "    shuffled discard \u00d75", "    shuffled events",
        "    red: coins +1 (now 1)", "    opening guests dealt \u00d72", "    red: coins +1 (now 2)", "\nTurn 1"]


WINDOWS = [f"{colour} window {n}" for colour in ("blue", "green") for n in range(1, 6)]


@pytest.mark.parametrize("names, runs, text", [
    (["bid 2", "token", "token", "bid 1"], True, "bid 2, 2 x token, bid 1"),
    (WINDOWS, True, "blue window 1-5, green window 1-5"),
    (WINDOWS, False, ", ".join(WINDOWS)),                               # a hand is listed name by name
    (WINDOWS[:2] + WINDOWS[3:9] + ["die", "die"], True, "blue window 1-2, blue window 4-5, green window 1-4, 2 x die"),
    (WINDOWS[:8], True, ", ".join(WINDOWS[:8])),                        # short: as it is
])
def test_a_long_zone_folds_numbered_names(names, runs, text):
    from snowrules.play.human import _folded
    assert _folded(names, runs) == text


def test_score_shows_the_players_and_groups_the_components_counters():
    """`score` at Snow Planner's first decision (the talent, in the setup), by hand from [Game
    Setup]: no resource, VP or promotion yet; worker dice set to 1 and 3, the third near the
    board to 1 (steps 13, 15); the part-time job die showing 2; every guest and VIP card laid out
    on DAY 1. The 108 window tiles' spots and the 3 projects' uses are 0, counted, not listed; the
    reader's own line first; no "round 0" before round 1. The opening guests (1 and 2) are dealt
    by the seed, as the account says."""
    child = spawn("run", "snow_planner", "--players", "2", "--agents", "human,random", "--seed", "3")
    ask(child, "score")
    shown = ask(child, "1")
    assert shown.startswith(
        "score\r\n"
        "  green: snow 0, croissant 0, ticket 0, VP 0, promotion track 0, opening guest number 2\r\n"
        "  red: snow 0, croissant 0, ticket 0, VP 0, promotion track 0, opening guest number 1\r\n"
        "  value 1: green die #1, green die #3, red die #1, red die #3; value 2: part-time job die; "
        "value 3: green die #2, red die #2\r\n"
        "  day 1: blue Reporter, blue Editor, blue Author, blue Columnist, green Skier, green Guide, "
        "opening guest 1, opening guest 2, VIP Film Star, VIP Tycoon, VIP Team Captain\r\n"
        "  (111 more counters on components at 0)\r\n"), shown[:800]
    child.close()


# Every bundled ruleset with its fewest players (Snow Planner at two: its tie-breakers)
WHOLE_GAMES = [["crazy_eights", "--players", "2"], ["goofspiel", "--players", "2"], ["oh_hell", "--players", "3"],
               ["othello"], ["snow_planner", "--players", "2"], ["snow_time", "--players", "2"],
               ["snowfall_over_mountains"], ["snowy_tricks", "--players", "2"]]
# a game's end: its winners (and what decided a tie), or a solo game's score and its title
END = re.compile(r"The game ends: (\w+( and \w+)* wins?( \(tied on [^)]+\))?|you score (-?\d+): (.+))")


@pytest.mark.parametrize("game", WHOLE_GAMES, ids=[g[0] for g in WHOLE_GAMES])
def test_a_person_plays_a_whole_game_of_every_bundled_ruleset(game):
    """Through a real pseudo-terminal, the person on the first seat answers every decision with
    its first option (a number, or the first of the numbers offered) until the game ends; the
    account ends with the result in the rulebook's words, a solo game with its title
    ([Wanderlust Table]: <46 Lost Traveler, 46-55 Wayward Hiker, ...)."""
    players = 1 if game[0] == "snowfall_over_mountains" else 2 if len(game) == 1 else int(game[2])
    child = spawn("run", *game, "--agents", ",".join(["human"] + ["random"] * (players - 1)), "--seed", "2")
    answers = 0
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        shown = child.before.rstrip()
        numbers = shown.endswith("choose one of the numbers above")
        child.sendline(shown.splitlines()[-2].split(",")[0].strip() if numbers else "1")
        answers += 1
    told = [line for line in child.before.replace("\r", "").splitlines() if line.startswith("The game ends")]
    assert answers > 0 and len(told) == 1 and END.fullmatch(told[0]), told
    score = END.fullmatch(told[0]).group(4)
    if score is not None:
        assert END.fullmatch(told[0]).group(5) == ("Lost Traveler" if int(score) < 46 else "Wayward Hiker"
                                                   if int(score) <= 55 else "Cozy Sightseer")
    child.close()
    assert child.exitstatus == 0


def test_snow_time_names_its_zones_as_the_rulebook_does():
    """Snow Time at two, seed 2: the dice put fruit on levels 1 and 6 ([A. Placing the Fruit]);
    red holds its 10 cards ([Setup, cs]); the card played goes to its level, the fruit eaten back
    to the supply. Zones read as the rules name them, never `red.hand` or `tree[1]`."""
    child = spawn("run", "snow_time", "--players", "2", "--agents", "human,random", "--seed", "2")
    first = ask(child, "1")
    assert (
        "    fruit: fruit supply -> fruit on level 1\r\n    fruit: fruit supply -> fruit on level 6\r\n\r\n"
        "--- red to choose (play a card face down) ---\r\n"
        "  red's hand: red 1, red 2, red 3, red 4, red 5, red 6, red 7, red Healer, red Watcher, red Snowstorm\r\n"
        "  fruit on level 1: fruit\r\n  fruit on level 6: fruit\r\n  fruit supply: 13 x fruit\r\n"
        "  you hold: score 0, fight scored this turn 0, fruit scored this turn 0, mana scored this turn 0\r\n"
        "  1) red 1\r\n") in first, first[-700:]
    second = ask(child, "1")
    assert "    red 1: red's hand -> level 1\r\n" in second
    assert "    fruit: fruit on level 1 -> fruit supply\r\n" in second and "tree[" not in second
    child.close()
