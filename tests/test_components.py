"""Counters on components and the automa seat, on tests/rulesets/dice_workers.

The test ruleset is after Snow Planner: two worker dice per seat showing 1 and 3, raised by 2 a
round and never above 6 (a die reaching 6 scores 5), an opening guest going DAY 1, 2, 3 and
checking out for 2 points, and in a solo game (or with the option at two players) an automa that
draws one card a round from an unshuffled deck: Action 1 (+2), Action 2 (its first die +1),
Action 3 (takes a guest), Action 4 (+3). Every expected value below is worked out by hand from
those rules; with `first` agents a player always raises the first die still below 6:

    round  Ann's dice (#1, #2)   Ann's guest A       Ann  | automa's card      automa
    1      3, 3                  DAY 2                0   | Action 1           2
    2      5, 3                  DAY 3                0   | Action 2: die 1->2 2
    3      6 (+5), 3             checks out (+2)      7   | Action 3: guest B  2 (B: DAY 2)
    4      6, 5                  -                    7   | Action 4           5 (B: DAY 3)
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import round_trip
from jsonschema import Draft202012Validator
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import GENERIC_SCHEMAS, load_ruleset
from snowrules.load.yaml_files import plain
from snowrules.model.events import CounterChanged
from snowrules.play.agents import FirstAgent, RandomAgent, play
from snowrules.play.narrate import Narrator, UnseenCounters, secrets_for
from snowrules.runtime.engine import Game

RULESET = Path(__file__).resolve().parent / "rulesets" / "dice_workers"


def game_of(players: int, **options) -> Game:
    return Game(compile_ruleset(load_ruleset(str(RULESET), None, options), players))


def changes_of(game: Game, events: list, family: str) -> list[tuple[str, int]]:
    """The (counter label, new value) of every change of one counter family, in order."""
    return [(game.layout.counter_labels[e.counter], e.new) for e in events
            if isinstance(e, CounterChanged) and e.family(game.layout) == family]


# ---- counters on components ---------------------------------------------------------------
def test_a_solo_game_played_by_first_agents_is_the_hand_worked_game():
    game = game_of(1)
    events: list = []
    st = play(game, [FirstAgent()], seed=5, listen=events.append)
    assert changes_of(game, events, "value") == [
        ("Ann die #2.value", 3), ("Automa die #2.value", 3),       # setup: the second die shows 3
        ("Ann die #1.value", 3), ("Ann die #1.value", 5),          # rounds 1 and 2
        ("Automa die #1.value", 2),                                # round 2: Action 2
        ("Ann die #1.value", 6),                                   # round 3: 5 + 2 stops at 6
        ("Ann die #2.value", 5)]                                   # round 4: die 1 is no option
    assert changes_of(game, events, "day") == [
        ("Guest A.day", 2), ("Guest A.day", 3),                    # Ann's opening guest
        ("Guest B.day", 2), ("Guest B.day", 3)]                    # the automa's, from round 3
    outcome = game.outcome(st)
    assert (outcome.winners, outcome.scores, outcome.seat_scores) == ([0], [7], [7, 5])
    assert (outcome.automa_score, outcome.automa_won) == (5, False)
    assert [game.layout.component_names[c] for c in st.zones[game.layout.zone_families["revealed"].base]] == \
        ["Action 1", "Action 2", "Action 3", "Action 4"]


def test_the_when_rule_on_a_component_counter_fires_once_for_its_component():
    game = game_of(1)
    events: list = []
    play(game, [FirstAgent()], seed=5, listen=events.append)
    lines = (RULESET / "rules.sr").read_text().splitlines()
    trigger = next(i for i, line in enumerate(lines, 1) if "add 5 to d.owner.score" in line)
    check_out = next(i for i, line in enumerate(lines, 1) if "add 2 to p.score" in line)
    assert [(e.new, int(e.rule.split(":")[-2])) for e in events if isinstance(e, CounterChanged)
            and e.family(game.layout) == "score" and e.owner(game.layout) == 0] == [(5, trigger), (7, check_out)]
    six = next(e for e in events if isinstance(e, CounterChanged) and e.new == 6)
    assert game.layout.component_names[six.component(game.layout)] == "Ann die"
    assert six.owner(game.layout) is None and six.by == 1


@pytest.mark.parametrize("seed", range(40))
def test_random_games_never_raise_a_die_above_six_nor_a_guest_past_day_three(seed):
    game = game_of(2, with_automa=True)
    events: list = []
    st = play(game, [RandomAgent(seed), RandomAgent(seed + 100)], seed=seed, listen=events.append)
    values = [new for _, new in changes_of(game, events, "value")]
    days = [new for _, new in changes_of(game, events, "day")]
    assert values and max(values) == 6 and min(values) >= 2
    assert days and max(days) == 3 and min(days) >= 2
    layout = game.layout
    value, day = layout.counter_families["value"], layout.counter_families["day"]
    assert len(value.holders) == 6 and len(day.holders) == 3         # dice and guests only
    assert all(1 <= v <= 6 for v in st.counters[value.base:value.base + 6])


def test_reset_puts_every_components_counter_back_to_its_start(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("at game end:\n", "at game end:\n    reset value\n", 1))
    game = Game(compile_ruleset(load_ruleset(str(folder)), 1))
    st = play(game, [FirstAgent()], seed=5)
    value, day = game.layout.counter_families["value"], game.layout.counter_families["day"]
    assert st.counters[value.base:value.base + 4] == [1, 1, 1, 1]          # from 1: its start
    assert st.counters[day.base:day.base + 3] == [3, 3, 1]                 # A and B at DAY 3, C unused
    assert game.outcome(st).seat_scores == [7, 5]


def test_a_counter_may_be_on_components_of_several_kinds(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("counter day per component of kind guest",
                                               "counter day per component of kind guest, action"))
    layout = Game(compile_ruleset(load_ruleset(str(folder)), 1)).layout
    day = layout.counter_families["day"]
    assert [layout.component_names[c] for c in day.holders] == \
        ["Guest A", "Guest B", "Guest C", "Action 1", "Action 2", "Action 3", "Action 4"]
    assert [layout.counter_labels[day.base + i] for i in (0, 6)] == ["Guest A.day", "Action 4.day"]


def test_a_counter_is_seen_where_its_component_is():
    game = game_of(2)
    st = game.start(3)
    view = game.view(st, 0)["counters"]
    # Guest C is still in the face-down guest deck: its day is not in anybody's view
    assert view["Guest A.day"] == 1 and view["Guest B.day"] == 1 and "Guest C.day" not in view
    assert view["Ann die #2.value"] == 3 and view["Bob die #1.value"] == 1


def test_an_account_told_to_a_player_keeps_a_hidden_components_counter_hidden(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    rules = folder / "rules.sr"        # Guest C, face down in the guest deck, moves a day on
    rules.write_text(rules.read_text().replace("    for each p in players:\n        move 1 from guests",
                                               "    add 1 to first(guests).day\n"
                                               "    for each p in players:\n        move 1 from guests", 1))
    game = Game(compile_ruleset(load_ruleset(str(folder)), 2))
    told, hidden = {}, {}
    for name, seats in (("everything", None), ("Ann", {0})):
        lines: list[str] = []
        unseen = None if seats is None else UnseenCounters(game.layout, seats)
        narrator = Narrator(False, lines.append, None if seats is None else secrets_for(game.layout, seats), unseen)
        play(game, [FirstAgent(), FirstAgent()], seed=1, sink=narrator.feed,
             listen=None if unseen is None else unseen.listen)
        narrator.flush()
        told[name] = [line.strip() for line in lines if "day" in line]
        hidden[name] = [line for line in told[name] if line.startswith("Guest C")]
    assert hidden == {"everything": ["Guest C: day +1 (now 2)"], "Ann": []}
    assert told["Ann"][0] == "Guest A: day +1 (now 2)"      # Ann's own guest, in a public room


def test_state_clone_and_json_round_trip_at_a_decision_after_counter_changes():
    game = game_of(1)
    st = game.start(9)
    game.answer(st, [0])                              # round 1: die #1 to 3
    game.answer(st, [0])                              # round 2: die #1 to 5
    value = game.layout.counter_families["value"]
    assert st.pending is not None and st.counters[value.base:value.base + 2] == [5, 3]
    copy, thawed = st.clone(), round_trip(st)
    assert copy == st and thawed == st
    for state in (st, copy, thawed):
        game.answer(state, [0])                       # round 3: die #1 stops at 6, +5
    assert copy == st and thawed == st
    assert [game.outcome(s).seat_scores for s in (st, copy, thawed)] == [[7, 5]] * 3


# ---- the automa ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, options, seats, player_count", [
    (1, {}, ["Ann", "Automa"], 1),                                # solo: always
    (2, {}, ["Ann", "Bob"], 2),                                   # two players: only with the option
    (2, {"with_automa": True}, ["Ann", "Bob", "Automa"], 2),
])
def test_the_automa_sits_after_the_players_when_its_condition_holds(players, options, seats, player_count):
    game = game_of(players, **options)
    assert game.layout.seat_names == seats
    assert game.layout.player_seats == player_count and game.program.players == players
    assert game.layout.automa == (None if len(seats) == players else players)


def test_a_variant_turns_the_automa_on_through_a_constant_its_when_reads(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    (folder / "variants").mkdir()
    (folder / "variants" / "robot.yaml").write_text("name: robot\nconstants: {robot: true}\n")
    with (folder / "components" / "guests.yaml").open("a") as out:
        out.write("constants: {robot: false}\n")
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("or with_automa}", "or with_automa or robot}")
                        + "variants: {robot: variants/robot.yaml}\n")
    base = Game(compile_ruleset(load_ruleset(str(folder)), 2))
    robot = Game(compile_ruleset(load_ruleset(str(folder), "robot"), 2))
    assert base.layout.seat_names == ["Ann", "Bob"] and robot.layout.seat_names == ["Ann", "Bob", "Automa"]


def test_players_counts_people_and_seats_counts_the_table(tmp_path):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace(
        "    phase main:", "    announce player_count, size(players), size(seats), automa, players, seats\n"
        "    phase main:", 1))
    game = Game(compile_ruleset(load_ruleset(str(folder), None, {"with_automa": True}), 2))
    said: list = []
    play(game, [FirstAgent(), FirstAgent()], seed=1, listen=said.append)
    assert [e.text for e in said if type(e).__name__ == "Said"][0] == "2 2 3 Automa Ann, Bob Ann, Bob, Automa"


def test_two_players_and_the_automa_share_nothing_with_it():
    game = game_of(2, with_automa=True)
    st = play(game, [FirstAgent(), FirstAgent()], seed=2)
    outcome = game.outcome(st)
    # Bob, second in seat order, gets guest B and the automa guest C; each player scores 7
    assert (outcome.winners, outcome.scores, outcome.seat_scores) == ([0, 1], [7, 7], [7, 7, 5])


def test_run_counts_people_with_players_and_shows_the_automa_beside_them(capsys):
    assert main(["run", str(RULESET), "--players", "1", "--agents", "first", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["players"], result["player_names"], result["scores"], result["winners"]) == (1, ["Ann"], [7], [0])
    assert result["automa"] == {"name": "Automa", "score": 5, "winner": False}
    schema = json.loads((GENERIC_SCHEMAS / "run_result.schema.json").read_text())
    assert [e.message for e in Draft202012Validator(schema).iter_errors(result)] == []
    assert main(["run", str(RULESET), "--players", "1", "--agents", "first,first"]) == 2   # one agent per person
    assert "2 agents for 1 players" in capsys.readouterr().err


def test_simulate_reports_the_players_only(capsys):
    assert main(["simulate", str(RULESET), "--games", "20", "--players", "2", "--option", "with_automa=true",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [p["player"] for p in result["per_player"]] == [1, 2]
    assert result["win_rates"] == [0.5, 0.5]      # 7 and 7 every game: a shared win; the automa has 5


def test_the_scenarios_name_per_component_counters_and_the_automa(capsys):
    assert main(["test", str(RULESET)]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out


def test_openspiel_players_are_the_people_and_only_they_have_returns():
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    solo, pair = load_game(str(RULESET), players=1), load_game(str(RULESET), players=2, with_automa=True)
    assert (solo.num_players(), pair.num_players()) == (1, 2)
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    for game in (solo, pair):
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = pair.new_initial_state()
    players_to_move = set()
    while not state.is_terminal():
        if not state.is_chance_node():
            players_to_move.add(state.current_player())
        state.apply_action(state.legal_actions()[0])
    # Ann and Bob (7 each) share the win, +1/2 each; the automa lost, but has no return
    assert players_to_move == {0, 1} and state.returns() == [0.5, 0.5]
    # Guest C, in the face-down guest deck, has its day seen by nobody
    assert "Guest C.day" not in pair.new_initial_state().information_state_string(0)
    assert "Guest A.day=1" in pair.new_initial_state().information_state_string(0)


# ---- bad input: every row a mistake, its message and where ---------------------------------
BAD = [
    # (file, text, replaced by, command, expected "file:line:col: error: message")
    ("rules.sr", "add 2 to d.value", "add 2 to d.valeu", "validate",
     r"rules.sr:42:30: error: unknown counter 'valeu' \(hint: did you mean 'value'\?\)"),
    ("rules.sr", "if g.day == 3:", "if g.dya == 3:", "validate",
     r"rules.sr:47:20: error: no component has a field 'dya' \(hint: did you mean 'day'\?\)"),
    ("rules.sr", "counter day per component of kind guest", "counter kind per component of kind guest",
     "validate", r"rules.sr:7:1: error: counter 'kind' per component has the name of a field of 'die' at "
                 r"\S*components/dice.yaml:6:5"),
    ("rules.sr", "of kind guest", "of kind gest", "validate",
     r"rules.sr:7:13: error: counter 'day': no component is of kind 'gest' \(hint: did you mean 'guest'\?\)"),
    ("rules.sr", "counter day per", "counter day[a, b] per", "validate",
     r"rules.sr:7:1: error: counter 'day': a counter per component has no keys"),
    ("rules.sr", "zone revealed shared public", "zone revealed per component public", "validate",
     r"rules.sr:14:15: error: a zone is `per player` or `shared`, not per component"),
    ("rules.sr", "of kind guest", "of type guest", "validate",
     r"rules.sr:7:30: error: unexpected 'type' \(hint: expected `per component of kind KIND`\)"),
    ("rules.sr", "when d.value == 6:", "when d.value == 6 and d.score > 0:", "validate",
     r"rules.sr:30:1: error: a `when` rule watches either a player's counters or a component's, not both"),
    ("components/actions.yaml", 'effect: "add 2 to me.score"', 'effect: "add first(revealed).day to me.score"',
     "run", r"components/actions.yaml:6:49: error: Action 1 has no counter 'day': "
            r"only components of kind guest have one"),
    ("rules.sr", "    move 1 from actions to revealed", "    ask automa to choose c from actions", "validate",
     r"rules.sr:55:5: error: a decision cannot be asked of the automa \(Automa\): no agent plays it"),
    ("rules.sr", "    move 1 from actions to revealed", "    ask a to choose c from actions", "run",
     r"rules.sr:55:5: error: Automa is asked to choose, but no agent plays the automa"),
    ("rules.sr", "    move 1 from actions to revealed",
     "    ask each q in seats secretly to choose c from actions:\n            pass", "run",
     r"rules.sr:55:5: error: Automa is asked to choose, but no agent plays the automa"),
    ("ruleset.yaml", "when: player_count == 1 or with_automa", "when: player_count + 1", "validate",
     r"ruleset.yaml:15:30: error: the automa's `when` must be true or false, not a number"),
    ("ruleset.yaml", "when: player_count == 1 or with_automa", "when: player_count == 1 or colour", "validate",
     r"ruleset.yaml:15:51: error: unknown name 'colour'"),
    ("ruleset.yaml", "name: Automa,", "name: Bob,", "validate",
     r"ruleset.yaml:15:9: error: the automa's name 'Bob' is a player's seat name too"),
]


@pytest.mark.parametrize("file, old, new, command, expected", BAD, ids=[row[4][:60] for row in BAD])
def test_bad_input_is_reported_at_its_place(tmp_path, monkeypatch, capsys, file, old, new, command, expected):
    folder = tmp_path / "g"
    shutil.copytree(RULESET, folder)
    path = folder / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    monkeypatch.chdir(tmp_path)
    arguments = ["validate", "g"] if command == "validate" else ["run", "g", "--players", "1", "--seed", "1"]
    code = main(arguments)
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err and "internal error" not in out + err
    assert re.search(r"(^|\s)g/" + expected, out + err, re.MULTILINE), out + err


def test_a_yaml_file_read_again_is_parsed_once_and_a_changed_one_anew(tmp_path):
    from snowrules.load import yaml_files
    path = tmp_path / "cards.yaml"
    path.write_text("components:\n  - name: a\n")
    first, _ = yaml_files.load_yaml(path, "cards.yaml")
    again, _ = yaml_files.load_yaml(path, "cards.yaml")
    assert again.tree is first.tree and again.position(["components", 0, "name"]).line == 2
    path.write_text("components:\n  - name: b\n")  # same length, new text: read anew
    changed, _ = yaml_files.load_yaml(path, "cards.yaml")
    assert changed.tree is not first.tree and plain(changed.tree) == {"components": [{"name": "b"}]}
    elsewhere, _ = yaml_files.load_yaml(path, "other/cards.yaml")  # shown elsewhere: its own positions
    assert elsewhere.position(["components", 0]).path == "other/cards.yaml"


def test_the_yaml_trees_kept_are_bounded_by_their_texts_length(tmp_path, monkeypatch):
    from snowrules.load import yaml_files
    monkeypatch.setattr(yaml_files, "READ_TEXT_KEPT", 400)
    monkeypatch.setattr(yaml_files, "_READ", yaml_files.OrderedDict())
    for i in range(10):
        path = tmp_path / f"f{i}.yaml"
        path.write_text(f"n: {i}\npad: {'x' * 80}\n")
        yaml_files.load_yaml(path, path.name)
    assert sum(len(text) for _, text in yaml_files._READ) <= 400
    assert [shown for shown, _ in yaml_files._READ][-1] == "f9.yaml"
