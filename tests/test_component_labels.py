"""A component list's `label:` template (load/labels.py, docs/language.md "Component labels").

tests/rulesets/labelled_dice is tests/rulesets/dice_workers (the same rules) with labels: dice read
`{owner}'s {name} showing {value}` (value is a counter on the dice), guests `{name} (pays {fee}) on
DAY {day}` (a field and a counter). Its game is worked by hand below: each seat's second die is
raised to 3 at setup, a turn raises the chosen die by 2, and each round's check-out raises a
guest's DAY by 1.
"""
from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import Observation
from snowrules.play.human import HumanAgent
from snowrules.play.prompts import option_labels, prompt_of
from snowrules.runtime.engine import Game

RULESETS = Path(__file__).resolve().parent / "rulesets"
LABELLED = RULESETS / "labelled_dice"


def _game(folder: Path = LABELLED, players: int = 2) -> Game:
    return Game(compile_ruleset(load_ruleset(str(folder)), players))


def _cli(*arguments: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = main(list(arguments))
    return code, out.getvalue()


def test_options_read_with_the_values_they_have_when_shown():
    game = _game()
    st = game.start(1)
    seen = []
    while st.result is None and len(seen) < 4:
        options = st.pending.options[0]
        seen.append((game.layout.seat_names[st.pending.seats[0]], game.option_labels(st, options),
                     game.plain_option_labels(st, options)))
        game.answer(st, [0])
    assert seen == [
        # round 1: die #1 shows 1, die #2 was raised to 3 at setup
        ("Ann", ["Ann's die showing 1", "Ann's die showing 3"], ["Ann die #1", "Ann die #2"]),
        ("Bob", ["Bob's die showing 1", "Bob's die showing 3"], ["Bob die #1", "Bob die #2"]),
        # round 2: each first die was raised by 2, so both show 3: told apart by their copy's number
        ("Ann", ["Ann's die showing 3 (#1)", "Ann's die showing 3 (#2)"], ["Ann die #1", "Ann die #2"]),
        ("Bob", ["Bob's die showing 3 (#1)", "Bob's die showing 3 (#2)"], ["Bob die #1", "Bob die #2"]),
    ]
    # a guest with a field and a counter: Guest A went to Ann's rooms at setup on DAY 1, and two
    # check-outs since raised it to DAY 3
    guest_a = game.layout.component_names.index("Guest A")
    assert game.component_label(st, guest_a) == "Guest A (pays 2) on DAY 3"
    # a component of a list without a label reads by its name
    action = game.layout.component_names.index("Action 1")
    assert game.component_label(st, action) == "Action 1"


def test_the_log_keeps_plain_names_and_the_same_events_as_without_labels():
    def events(folder: Path) -> list[str]:
        game, out = _game(folder), []
        st = game.start(7, out.append)
        while st.result is None:
            game.answer(st, [len(st.pending.options[0]) - 1])
        return [repr(e).replace(folder.name, "FOLDER") for e in out]
    labelled, plain = events(LABELLED), events(RULESETS / "dice_workers")
    assert labelled == plain
    assert any("'Ann die'" in e for e in labelled) and not any("showing" in e for e in labelled)


def test_the_person_at_the_terminal_reads_the_labels():
    game = _game()
    st = game.start(1)
    lines: list[str] = []
    agent = HumanAgent(read=lambda prompt: "2", write=lines.append)
    observation = Observation(game, st, st.pending.seats[0], st.pending.options[0])
    assert agent.choose(observation) == 1
    assert "  1) Ann's die showing 1" in lines and "  2) Ann's die showing 3" in lines
    # the holdings before the options read the same way; the counters line keeps the plain names
    assert "  Ann.workers: Ann's die showing 1, Ann's die showing 3" in lines
    assert "  Ann.rooms: Guest A (pays 2) on DAY 1" in lines


def test_the_adapters_action_strings_read_the_labels():
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    game = load_game(str(LABELLED), players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    strings = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert strings == ["Ann's die showing 1", "Ann's die showing 3"]
    assert pyspiel is not None


def test_a_label_reads_a_path_into_a_field():
    """Snowfall's tiles read their two squares' features: tiles.yaml writes tile 09 as
    `squares: [{..., features: [bush, bear], ...}, {..., features: [tree], ...}]` and tile 14's
    second square with no feature."""
    game = _game(RULESETS.parent.parent / "rulesets" / "snowfall_over_mountains", 1)
    st = game.start(1)
    names = game.layout.component_names
    assert game.component_label(st, names.index("tile 09")) == "tile 09 (bush, bear | tree)"
    assert game.component_label(st, names.index("tile 14")) == "tile 14 (tree, rabbit | none)"


# (file, text, replaced by, "line:col", code, message). The templates, as written:
#  dice.yaml line 5:   label: "{owner}'s {name} showing {value}"   {owner} col 9, {name} 19, {value} 34
#  guests.yaml line 4:  label: "{name} (pays {fee}) on DAY {day}"   {name} col 9, {fee} 22, {day} 35
UNKNOWN = "no entry of this list has it and no counter of the rules is on its components"
BAD = [
    ("dice", "{value}", "{valeu}", "5:34", "SR213", f"label: unknown field 'valeu': {UNKNOWN}"),
    ("dice", "{value}", "{day}", "5:34", "SR213", f"label: unknown field 'day': {UNKNOWN}"),
    ("guests", "{name} (pays", "{owner} (pays", "4:9", "SR213", f"label: unknown field 'owner': {UNKNOWN}"),
    ("guests", ", fee: 5}", "}", "4:22", "SR213",
     "label: 'fee' is not a field or counter of every entry (not of 'Guest C')"),
    ("dice", "{value}", "{kind.0}", "5:34", "SR213", "label: 'kind.0' leads to no value in any entry"),
    ("guests", "{fee}", "{fee:>3}", "4:22", "SR213", "label: {fee:>3} is not a value's name"),
    ("guests", "{fee}", "{fee!r}", "4:22", "SR213", "label: {fee!r} is not a value's name"),
    ("guests", "(pays {fee})", "(pays {fee)", "4:22", "SR213",
     "label: a lone '{' in '{name} (pays {fee) on DAY {day}'"),
    ("guests", "(pays {fee})", "(pays fee})", "4:25", "SR213",
     "label: a lone '}' in '{name} (pays fee}) on DAY {day}'"),
    ("guests", '"{name} (pays {fee}) on DAY {day}"', '"  "', "4:9", "SR213", "label: the template is empty"),
]


@pytest.mark.parametrize("file, old, new, place, code, message", BAD, ids=[row[5][:50] for row in BAD])
def test_a_mistake_in_a_label_is_reported_at_its_text(tmp_path, file, old, new, place, code, message):
    folder = tmp_path / "labelled"
    shutil.copytree(LABELLED, folder)
    path = folder / "components" / f"{file}.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    exit_code, out = _cli("validate", str(folder), "--no-play", "--format", "json")
    found = [(f"{d['line']}:{d['col']}", d["code"], d["message"]) for d in json.loads(out)["diagnostics"]]
    assert (exit_code, found) == (1, [(place, code, message)])


# The account of `snowrules run tests/rulesets/labelled_dice --players 2 --seed 1` (random bots),
# worked by hand from the rules: setup raises each second die to 3; round 1 both pick their die #2
# (showing 3, +2: 5); round 2 Ann's die #2 (5, +2 clamped at 6: 5 VP), Bob's die #1 (1 -> 3); round
# 3 Ann has one die under 6 (taken without asking, no choice told), Bob's die #2 (5 -> 6); each
# check-out raises the guests' DAY, and DAY 3 checks out in round 3 (2 points).
ACCOUNT = """\
Round 1
  - main
    chosen: Ann: Ann's die showing 3
    Ann die #2: value +2 (now 5)
    chosen: Bob: Bob's die showing 3
    Bob die #2: value +2 (now 5)
  - check out
    Guest A: day +1 (now 2)
    Guest B: day +1 (now 2)

Round 2
  - main
    chosen: Ann: Ann's die showing 5
    Ann die #2: value +1 (now 6)
    Ann: score +5 (now 5)
    chosen: Bob: Bob's die showing 1
    Bob die #1: value +2 (now 3)
  - check out
    Guest A: day +1 (now 3)
    Guest B: day +1 (now 3)

Round 3
  - main
    Ann die #1: value +2 (now 3)
    chosen: Bob: Bob's die showing 5
    Bob die #2: value +1 (now 6)
    Bob: score +5 (now 5)
  - check out
    Guest A (pays 2) on DAY 3: Ann.rooms -> Ann.checkout
    Ann: score +2 (now 7)
    Guest B (pays 3) on DAY 3: Bob.rooms -> Bob.checkout
    Bob: score +2 (now 7)
"""


def test_the_account_names_components_by_their_labels_and_the_log_by_their_names(tmp_path):
    """The chosen die reads with the face it showed when chosen, the moved guest with its DAY
    when it moved; a counter's line keeps the plain name (it says the value itself). The log of
    the same game names them plainly."""
    log = tmp_path / "game.jsonl"
    code, out = _cli("run", str(LABELLED), "--players", "2", "--seed", "1", "--log", str(log))
    assert code == 0
    assert ACCOUNT in out
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    chosen = [e["option"] for e in logged if e["e"] == "choice"]
    assert chosen == ["Ann die", "Bob die", "Ann die", "Bob die", "Bob die"]
    checked_out = [e["what"] for e in logged if e["e"] == "move" and e["to"].endswith("checkout")]
    assert checked_out == [["Guest A"], ["Guest B"]]


def test_a_replayed_account_and_a_browsers_read_the_same_labels(tmp_path):
    """`replay --show` (play/show.py) and the browser's accounts (web/views.Accounts) tell the
    same labelled lines as `snowrules run`."""
    from snowrules.play.show import account_steps
    from snowrules.records.logfile import read_log
    from snowrules.web.watch import Watch
    log = tmp_path / "game.jsonl"
    assert _cli("run", str(LABELLED), "--players", "2", "--seed", "1", "--log", str(log))[0] == 0
    logged, game = read_log(log), _game()
    replayed = [line for step in account_steps(logged, game, None) for line in step]
    assert ACCOUNT in "\n".join(replayed) + "\n"
    watched = Watch(game, logged)
    assert ACCOUNT in "\n".join(watched.accounts.lines[None]) + "\n"
    assert [step.chosen for step in watched.steps[1:]] == [
        ["Ann: Ann's die showing 3"], ["Bob: Bob's die showing 3"], ["Ann: Ann's die showing 5"],
        ["Bob: Bob's die showing 1"], ["Bob: Bob's die showing 5"]]


def test_the_browsers_holdings_and_card_details_read_the_labels():
    """A browser table of labelled_dice (seed 1, both seats people): Ann's page at her first
    decision lists her dice and Guest A as the terminal does, with values; pointing at a die, an
    option or a guest shows its fields under the text the page shows; the counters keep plain
    names."""
    from snowrules.play.agents import parse_agents
    from snowrules.web.table import Table
    room = Table(_game(), 1, parse_agents("human,human"), str(LABELLED))
    page = room.snapshot(0)
    zones = page["view"]["zones"]
    assert zones["Ann.workers"] == ["Ann's die showing 1", "Ann's die showing 3"]
    assert zones["Ann.rooms"] == ["Guest A (pays 2) on DAY 1"]
    assert zones["Bob.workers"] == ["Bob's die showing 1", "Bob's die showing 3"]
    assert page["decisions"][0]["options"] == ["Ann's die showing 1", "Ann's die showing 3"]
    assert page["details"]["Ann's die showing 3"] == "kind: die\nowner: Ann"
    assert page["details"]["Guest A (pays 2) on DAY 1"] == "fee: 2\nkind: guest"
    assert page["view"]["counters"]["Ann die #2.value"] == 3
    room.answer(0, 1)   # Ann raises her die #2: 3 -> 5
    assert room.snapshot(0)["view"]["zones"]["Ann.workers"] == ["Ann's die showing 1", "Ann's die showing 5"]
    assert "    chosen: Ann: Ann's die showing 3" in room.snapshot(0)["account"]


def _decisions(ruleset: str, players: int, seed: int, count: int) -> list[tuple[str, str, list[str]]]:
    """The first `count` decisions of a bundled game in which every seat takes its first option:
    (seat, prompt, options as a person reads them)."""
    from snowrules.compile.compiler import load_program
    game = Game(load_program(ruleset, None, players))
    st, seen = game.start(seed), []
    while st.result is None and len(seen) < count:
        pending = st.pending
        seen.append((game.layout.seat_names[pending.seats[0]], prompt_of(game, st, pending.seats[0]),
                     option_labels(game, st, pending.options[0], pending.seats[0])))
        game.answer(st, [0] * len(pending.seats))
    return seen


def test_snow_planner_reads_dice_with_their_values_and_spaces_with_their_cost():
    """Snow Planner, 2 players, seed 3, first options throughout. Setup raises each seat's die #2
    to 3 ([Player Setup 13]); red places its die showing 1 on the snow area's space 1, so green
    is offered the snow area's space 2, whose cost is 2 (action_spaces.yaml: '1-2 snow 2', position
    2, cost 2), and red then the restaurant area first. The raise is a free action: its option
    reads with its die's label and its cost (turn.sr `as "raise the {d} (tickets to return: ...)"`):
    the die showing 1, the only one whose raise red can pay (raise_cost: as many tickets as the
    die's value; red holds 1 ticket)."""
    # each space also reads what the die counts there and the highest tier it reaches (turn.sr
    # `each as`; tiers.yaml): every space 1 of the 1-2 side costs 0
    ones = [("restaurant", "restaurant 1-2", "gain 1 croissant"),
            ("promotion", "promotion 1", "advance the promotion track by 1 space"),
            ("ticket", "ticket 1", "gain 1 ticket"), ("event", "event 1-2", "you may play 1 event or goal card"),
            ("guest", "guest 1-2", "take 1 guest card from positions 1-2")]
    threes = [("restaurant", "restaurant 3", "gain 2 croissants"),
              ("promotion", "promotion 2-3", "advance the promotion track by 2 spaces"),
              ("ticket", "ticket 2-3", "gain 2 tickets"),
              ("event", "event 3-4", "gain 1 ticket, then you may play 1 event or goal card"),
              ("guest", "guest 3", "take 1 guest card from positions 1-4")]
    any_value = [("vip", "vip 1-6", "take 1 VIP card from the display"),
                 ("summit", "summit 1-6", "the icons of the space and its summit tile"),
                 ("job", "job 1-6", "take the part-time job die and draw 1 event card"),
                 ("project", "project 1-6", "return the project card's resources for its VP, then acquire the card")]

    def spaces(value: int, tiers: list) -> list[str]:
        return [f"{area} area, space 1 (cost 0): the die counts {value}, up to {tier} ({gives})"
                for area, tier, gives in tiers + any_value]
    assert _decisions("snow_planner", 2, 3, 6)[1:] == [
        ("red", "place a die on an action space",
         ["red worker die showing 1", "red worker die showing 3",
          "free: raise the red worker die showing 1 (tickets to return: 1)"]),
        # the prompt names the die just chosen, with its value (turn.sr: "for the {d}")
        ("red", "choose an action space for the red worker die showing 1",
         ["snow area, space 1 (cost 0): the die counts 1, up to snow 1-2 (gain 1 snow)", *spaces(1, ones),
          "free: raise the red worker die showing 1 (tickets to return: 1)"]),
        ("green", "place a die on an action space", ["green worker die showing 1", "green worker die showing 3"]),
        # a die showing 1 on a space of cost 2 counts -1; paying the cost down by no more than the
        # die's value (1), it counts 0: no effect either way
        ("green", "choose an action space for the green worker die showing 1",
         ["snow area, space 2 (cost 2): the die counts -1, no effect", *spaces(1, ones)]),
        ("red", "choose an action space for the red worker die showing 3", spaces(3, threes)),
    ]


def test_snow_planner_check_out_names_the_card_with_its_day_and_stay_conditions():
    """[(f) Check-out Phase]: the first check-out of 2 players, seed 3, first options throughout,
    asks green about opening guest 2, on DAY 1, which stays on with 0 windows on DAY 1 and 1 on
    DAY 2 (opening_guests.yaml: stay [0, 1]; hotel.sr `as "check-out: {c} stays ..."`)."""
    from snowrules.compile.compiler import load_program
    game = Game(load_program("snow_planner", None, 2))
    st = game.start(3)
    while "stays" not in st.pending.options[0]:
        game.answer(st, [0] * len(st.pending.seats))
    assert (game.layout.seat_names[st.pending.seats[0]], prompt_of(game, st, st.pending.seats[0])) == (
        "green", "check-out: opening guest 2 (DAY 1; to stay: 0/1 windows on DAY 1/2) stays another day or checks out")


def test_snow_planner_cards_read_with_their_day_and_stay_conditions():
    """The cards a player weighs at check-out and when taking a card: opening guest 2 needs 0
    windows on DAY 1 and 1 on DAY 2 (opening_guests.yaml: stay [0, 1]); blue Student 1 and 2
    (guests.yaml); VIP Film Star 4 windows and 1 ticket, penalty 4 (vips.yaml)."""
    from snowrules.compile.compiler import load_program
    game = Game(load_program("snow_planner", None, 2))
    st, names = game.start(3), game.layout.component_names
    read = [game.component_label(st, names.index(name))
            for name in ("opening guest 2", "blue Student", "VIP Film Star")]
    assert read == ["opening guest 2 (DAY 1; to stay: 0/1 windows on DAY 1/2)",
                    "blue Student (DAY 1; to stay: 1/2 windows on DAY 1/2)",
                    "VIP Film Star (DAY 1; to stay: 4 windows and 1 ticket; penalty 4 VP)"]


def test_snowy_tricks_prizes_read_with_their_stars():
    """A prize's stars are the points each instructor card under it scores ([Prize Points]):
    prizes.yaml gives 'Win 0 tricks' 2 stars and the Prediction Prize 2."""
    from snowrules.compile.compiler import load_program
    game = Game(load_program("snowy_tricks", None, 3))
    st, names = game.start(1), game.layout.component_names
    assert [game.component_label(st, names.index(n)) for n in ("Win 0 tricks", "Prediction Prize")] == \
        ["Win 0 tricks (stars: 2)", "Prediction Prize (stars: 2)"]
