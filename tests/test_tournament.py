"""`snowrules tournament` and the game metrics of simulate and compare (issue 28, items 1 and 2),
on tiny rulesets written here whose every figure is worked by hand."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import ruleset_folder
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from snowrules.cli.main import main
from snowrules.play.metrics import lead_changes, sole_leader, winner_known
from snowrules.play.statistics import Z95
from snowrules.play.tournament import seatings

TOKENS = "schema: token.schema.json\ncomponents:\n  - {name: t, kind: token}\n"

# The first seat wins whatever anybody does.
SEAT_ONE = """game "Seat One"
counter score per player from 0

each turn:
    ask first(players) to choose n from [1, 2]:
        add n to first(players).score
    end game winners [first(players)]
"""

# Each player takes 1 or 5 points once; the most points win. `first` takes 1, `greedy` 5.
TAKE = """game "Take"
counter score per player from 0

each turn:
    for each p in players:
        ask p to choose n from [1, 5]:
            add n to p.score
    end game winners [each p in players where p.score == max([q.score for each q in players])]
"""

# With `first` agents: a takes 3, b 5, a 4, b `bonus`; the standings are known decision by decision.
LEAD = """game "Lead"
counter score per player from 0

each turn:
    let a = first(players)
    let b = last(players)
    ask a to choose n from [3, 0]:
        add n to a.score
    ask b to choose n from [5, 0]:
        add n to b.score
    ask a to choose n from [4, 0]:
        add n to a.score
    ask b to choose n from [bonus, 0]:
        add n to b.score
    end game winners [each p in players where p.score == max([q.score for each q in players])]
"""


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def as_json(capsys, *args) -> dict:
    """The --json object of a command, checked against its schema in schemas/."""
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    result = json.loads(out)
    name = {"snowrules-tournament/1": "tournament", "snowrules-simulate/1": "simulate",
            "snowrules-compare/1": "compare", "snowrules-run/1": "run_result"}[result["format"]]
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    registry = Registry().with_resources([(p.name, Resource.from_contents(json.loads(p.read_text())))
                                          for p in SCHEMAS.glob("*.json")])
    errors = [e.message for e in Draft202012Validator(schema, registry=registry).iter_errors(result)]
    assert not errors, errors
    return result


def wilson_ends(k: int, n: int) -> tuple[float, float]:
    """The Wilson interval of k successes out of n, for k = 0 or n (its closed forms)."""
    share = Z95 * Z95 / n
    if k == n:
        return 1 / (1 + share), 1.0
    return 0.0, share / (1 + share)


def folder(tmp_path, name: str, rules: str, players: tuple[int, int]):
    (tmp_path / name).mkdir()
    return ruleset_folder(tmp_path / name, rules, TOKENS, name=name, players=players)


@pytest.fixture
def seat_one(tmp_path):
    return folder(tmp_path, "seat_one", SEAT_ONE, (2, 3))


@pytest.fixture
def take(tmp_path):
    return folder(tmp_path, "take", TAKE, (1, 3))


@pytest.fixture
def lead(tmp_path):
    found = folder(tmp_path, "lead", LEAD, (2, 2))
    with (found / "ruleset.yaml").open("a") as manifest:
        manifest.write("options:\n  bonus: {default: 1, minimum: 0, maximum: 10, about: b's last gain}\n")
    return found


# --- seatings -----------------------------------------------------------------------------------

SEATINGS = [
    # agents, seats, every seating in order
    ("a,b", 2, ["ab", "ba"]),
    ("a,b,c", 3, ["abc", "bca", "cab"]),
    ("a,b,c", 2, ["ab", "ba", "ac", "ca", "bc", "cb"]),
    ("a,b", 3, ["aab", "aba", "baa", "abb", "bba", "bab"]),
    ("a,b", 4, ["aaab", "aaba", "abaa", "baaa", "aabb", "abba", "bbaa", "baab", "abbb", "bbba", "bbab", "babb"]),
]


@pytest.mark.parametrize("agents, seats, expected", SEATINGS)
def test_every_seating_rotations_and_combinations(agents, seats, expected):
    assert ["".join(s) for s in seatings(agents.split(","), seats)] == expected


# --- the tournament's figures, worked by hand -----------------------------------------------------


def test_the_first_seat_always_wins(capsys, seat_one):
    t = as_json(capsys, "tournament", seat_one, "--agents", "first,random", "--games", "4", "--seed", "5",
                "--players", "2")
    assert [s["agents"] for s in t["seatings"]] == [["first", "random"], ["random", "first"]]
    assert [s["wins"] for s in t["seatings"]] == [[4.0, 0.0], [4.0, 0.0]]
    assert t["games"] == 8 and t["games_per_seating"] == 4 and len(t["seeds"]) == 4
    # each agent is 4/4 in the first seat, 0/4 elsewhere: +1, with Newcombe's interval
    low_first, _ = wilson_ends(4, 4)
    _, high_other = wilson_ends(0, 4)
    low = 1 - math.hypot(1 - low_first, high_other)
    for effect in t["first_seat"]:
        assert (effect["first"]["value"], effect["others"]["value"]) == (1.0, 0.0)
        assert (effect["difference"], effect["high"]) == (1.0, 1.0)
        assert effect["low"] == pytest.approx(low, abs=1e-6) and round(low, 3) == 0.307
    assert t["win_matrix"] == {"agents": ["first", "random"], "score": [[None, 0.5], [0.5, None]],
                               "pairs": [[0, 8], [8, 0]]}
    assert [r["win_rate"]["value"] for r in t["ratings"]] == [0.5, 0.5]


def test_two_losers_of_one_game_tie_in_the_win_matrix(capsys, seat_one):
    t = as_json(capsys, "tournament", seat_one, "--agents", "first,random,greedy", "--games", "2")
    assert [s["agents"] for s in t["seatings"]] == [["first", "random", "greedy"], ["random", "greedy", "first"],
                                                    ["greedy", "first", "random"]]
    # first against random: 1 when first sits first, 0 when random does, 1/2 when greedy does (both lose)
    assert t["win_matrix"]["score"] == [[None, 0.5, 0.5], [0.5, None, 0.5], [0.5, 0.5, None]]
    assert t["win_matrix"]["pairs"] == [[0, 6, 6], [6, 0, 6], [6, 6, 0]]
    assert [r["win_rate"]["value"] for r in t["ratings"]] == [pytest.approx(1 / 3)] * 3


def test_the_stronger_agent_is_rated_first(capsys, take):
    t = as_json(capsys, "tournament", take, "--agents", "first,greedy", "--games", "3")
    assert t["players"] == 2  # one seat per agent
    # greedy takes 5, first takes 1: greedy wins every game, in either seat
    assert [s["wins"] for s in t["seatings"]] == [[0.0, 3.0], [3.0, 0.0]]
    assert [r["agent"] for r in t["ratings"]] == ["greedy", "first"]
    greedy, first = t["ratings"]
    # two teams of equal sigma move by the same amount in opposite directions, game after game
    assert greedy["mu"] + first["mu"] == pytest.approx(50, abs=1e-3) and greedy["mu"] > 25
    assert greedy["sigma"] == first["sigma"] < 25 / 3
    assert (greedy["win_rate"]["value"], first["win_rate"]["value"]) == (1.0, 0.0)
    assert t["win_matrix"]["score"] == [[None, 0.0], [1.0, None]]


def test_fewer_agents_than_seats(capsys, take):
    t = as_json(capsys, "tournament", take, "--agents", "first,greedy", "--games", "1", "--players", "3")
    assert ["".join(a[0] for a in s["agents"]) for s in t["seatings"]] == ["ffg", "fgf", "gff", "fgg", "ggf", "gfg"]
    # first-first-greedy: greedy wins alone; first-greedy-greedy: the two greedy seats share the win
    assert [s["wins"] for s in t["seatings"]] == [[0, 0, 1], [0, 1, 0], [1, 0, 0],
                                                  [0, 0.5, 0.5], [0.5, 0.5, 0], [0.5, 0, 0.5]]
    greedy = next(r for r in t["ratings"] if r["agent"] == "greedy")
    assert (greedy["seats"], greedy["win_rate"]["count"]) == (9, 6.0)
    # greedy in the first seat: 1 + 1/2 + 1/2 of 3; in the others: 1 + 1 + 4 * 1/2 of 6; no effect
    effect = next(f for f in t["first_seat"] if f["agent"] == "greedy")
    assert (effect["first"]["count"], effect["first"]["total"], effect["others"]["count"],
            effect["others"]["total"], effect["difference"]) == (2.0, 3, 4.0, 6, 0.0)
    assert t["win_matrix"]["score"] == [[None, 0.0], [1.0, None]]
    assert t["win_matrix"]["pairs"] == [[0, 12], [12, 0]]


def test_a_tournament_game_replays_with_run(capsys, take):
    t = as_json(capsys, "tournament", take, "--agents", "random,first", "--games", "3", "--players", "3",
                "--seed", "9")
    seating = t["seatings"][3]
    assert seating["agents"] == ["random", "first", "first"]
    replay = seating["replay"].split()
    assert replay[:2] == ["snowrules", "run"] and replay[-2] == "--seed" and int(replay[-1]) == t["seeds"][0]
    game = as_json(capsys, *replay[1:])
    # the same game: what `run` says of it is what the tournament counted (win shares of game 0)
    rerun = as_json(capsys, "tournament", take, "--agents", "random,first", "--games", "1", "--players", "3",
                    "--seed", "9")
    wins = rerun["seatings"][3]["wins"]
    won = game["winners"]
    assert [1 / len(won) if p in won else 0 for p in range(3)] == pytest.approx(wins)


def test_the_table_and_the_report(capsys, take, tmp_path):
    code, out, err = cli(capsys, "tournament", take, "--agents", "first,greedy", "--games", "2",
                         "--report", tmp_path / "report")
    assert code == 0, err
    assert "Take: 2 seatings x 2 games = 4 games with 2 players" in out
    assert "report written to" in out and "seatings: first,greedy; greedy,first" in out
    figures = json.loads((tmp_path / "report" / "figures.json").read_text())
    assert figures["agents"] == ["first", "greedy"] and figures["win_matrix"] == [[None, 0.0], [1.0, None]]
    assert [r["agent"] for r in figures["ratings"]] == ["greedy", "first"]
    for name in ("index.html", "ratings.svg", "win_matrix.svg"):
        assert (tmp_path / "report" / name).stat().st_size > 0


# --- bad arguments --------------------------------------------------------------------------------

BAD = [
    # arguments after `tournament TAKE`, the message after "snowrules tournament: error: "
    (["--agents", "random", "--games", "2"],
     "--agents: a tournament needs at least two agents, e.g. --agents random,greedy"),
    (["--agents", "random,random", "--games", "2"], "--agents: random is listed twice (each agent is one entrant)"),
    (["--agents", "random,human", "--games", "2"], "--agents random,human: tournament plays its games without "
     "people; give random, first, greedy or mcts (a person plays with `snowrules run`)"),
    (["--agents", "random,nobody", "--games", "2"],
     "--agents: unknown agent 'nobody'; agents: random, first, human, greedy, mcts"),
    (["--agents", "random,mcts:depth=3", "--games", "2"],
     "--agents: mcts has no setting 'depth'; its settings: seed, iterations, exploration, workers, widening"),
    (["--agents", "random,first", "--games", "0"], "--games must be at least 1"),
    (["--agents", "random,first", "--games", "2", "--workers", "0"], "--workers must be at least 1"),
    (["--agents", "random,first", "--games", "2", "--players", "4"], "--players 4: Take is for 1 to 3 players"),
    (["--agents", "random,first", "--games", "2", "--players", "1"],
     "--players 1: a tournament needs at least two players at the table"),
    (["--agents", "random,first", "--games", "2", "--option", "size=3"], None),  # the ruleset's own message
    (["--agents", "random,first", "--games", "2", "--report", "{file}"], "--report {file}: is a file, not a folder"),
]


@pytest.mark.parametrize("arguments, message", BAD)
def test_bad_arguments(capsys, take, tmp_path, arguments, message):
    file = tmp_path / "a_file"
    file.write_text("")
    code, out, err = cli(capsys, "tournament", take, *(a.format(file=file) for a in arguments))
    assert code == 2 and out == ""
    if message is None:
        assert err.startswith("snowrules tournament: error: --option: ") and "size" in err
    else:
        assert err == f"snowrules tournament: error: {message.format(file=file)}\n"


def test_agents_are_required(capsys, take):
    code, _, err = cli(capsys, "tournament", take, "--games", "2")
    assert code == 2 and err.endswith("snowrules: error: the following arguments are required: --agents\n")


# --- game metrics -----------------------------------------------------------------------------------

LEADS = [
    # sole leader at each checkpoint (None: a tie), winners -> lead changes, winner known
    ([0, 1, 0, 0], [0], 2, 3 / 4),
    ([0, None, 0, 1], [1], 1, 4 / 4),
    ([1, 1, 1], [1], 0, 1 / 3),
    ([0, None, 1, None, 1], [1], 1, 5 / 5),
    ([0, None, 1, None], [1], 1, None),      # tied at the end: the winner does not lead on score
    ([0, 1], [0, 1], 1, None),               # a shared win
    ([None, None], [], 0, None),
    ([], [0], 0, None),                      # no decisions
]


@pytest.mark.parametrize("leaders, winners, changes, known", LEADS)
def test_lead_changes_and_when_the_winner_is_known(leaders, winners, changes, known):
    assert (lead_changes(leaders), winner_known(leaders, winners)) == (changes, known)


@pytest.mark.parametrize("scores, leader", [([3, 1], 0), ([1, 3, 2], 1), ([3, 3, 1], None), ([5], None)])
def test_the_sole_leader(scores, leader):
    assert sole_leader(scores) == leader  # a solo game has no lead


def test_simulate_measures_the_lead_worked_by_hand(capsys, lead):
    # a 3, b 5, a 4, b 1: checkpoints (3,0) (3,5) (7,5) and the end (7,6): leaders a b a a
    metrics = as_json(capsys, "simulate", lead, "--agents", "first", "--games", "2")["metrics"]
    assert metrics["decisions"]["mean"] == 4 and metrics["decisions_per_player"] == [2, 2]
    assert metrics["options_counts"] == [[2, 8]] and metrics["options"]["mean"] == 2
    assert metrics["lead_changes"]["mean"] == 2
    assert (metrics["winner_known"]["mean"], metrics["winner_known_games"]) == (0.75, 2)
    assert metrics["margin"]["mean"] == 1
    low, _ = wilson_ends(2, 2)
    assert metrics["first_player_edge"] == {"value": 0.5, "low": round(low - 0.5, 6), "high": 0.5}
    code, out, _ = cli(capsys, "simulate", lead, "--agents", "first", "--games", "2")
    assert "lead changes per game: mean 2, median 2, max 2\n" in out
    assert "winner leads for good after: 75% of the game on average (median 75%; 2 games)\n" in out
    without = as_json(capsys, "simulate", lead, "--agents", "first", "--games", "2", "--no-components")["metrics"]
    assert (without["decisions"], without["lead_changes"], without["margin"]["mean"]) == (None, None, 1)


def test_compare_tests_the_metrics(capsys, lead):
    # bonus 3: b ends on 8 against 7, so the leaders are a b a b: 3 changes, known only at the end
    result = as_json(capsys, "compare", lead, "--agents", "first", "--games", "3", "--other-option", "bonus=3")
    rows = {f["figure"]: (f["base"], f["other"], f["difference"]) for f in result["figures"]
            if f["section"] == "metrics"}
    assert rows == {"decisions per game": (4, 4, 0), "options per decision (game mean)": (2, 2, 0),
                    "lead changes per game": (2, 3, 1), "winner known (share of the game)": (0.75, 1, 0.25),
                    "winning margin": (1, 1, 0), "first-player edge": (0.5, -0.5, -1)}


def test_the_same_tournament_on_two_workers(capsys, take):
    args = ("tournament", take, "--agents", "random,first", "--games", "6", "--seed", "2")
    one, two = as_json(capsys, *args), as_json(capsys, *args, "--workers", "2")
    assert two["where"] == "2 workers"
    timing = ("seconds", "where")
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}
