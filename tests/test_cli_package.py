"""The command line of a real package (issue 10, part 1): --version, python -m snowrules,
`snowrules list`, and --players following --agents."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from dataclasses import asdict
from pathlib import Path

import pytest
from snowrules.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    assert cli(capsys, "--version") == (0, f"snowrules {VERSION}\n", "")


def test_python_dash_m_is_the_command(tmp_path):
    done = subprocess.run([sys.executable, "-m", "snowrules", "run", "goofspiel", "--players", "2",
                           "--option", "num_cards=3", "--json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ruleset"] == "goofspiel"
    done = subprocess.run([sys.executable, "-m", "snowrules", "frob"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "invalid choice: 'frob'" in done.stderr


def test_list_tells_each_ruleset_with_its_variants_and_options(capsys):
    code, out, err = cli(capsys, "list")
    assert code == 0, err
    # From the manifests, read by hand.
    assert out.splitlines() == [
        "crazy_eights  Crazy Eights 1.0.0, 2-5 players",
        "    --option max_draw_cards=5  (1..52)  cards a player may draw in a turn before passing",
        "    --option max_turns=100  (1..10000)  cards played before the game ends",
        "    --option use_special_cards=false  (true|false)  a queen skips the next player, an ace reverses the "
        "direction, a 2 makes the next player draw 2",
        "    --option reshuffle=false  (true|false)  the discards are shuffled back into an empty deck",
        "goofspiel  Goofspiel 1.0.0, 2-10 players",
        "    --option num_cards=13  (1..20)  cards in each hand and in the point deck",
        "    --option points_order=random  (random|ascending|descending)  the order the point cards are dealt",
        "    --option returns_type=win_loss  (win_loss|point_difference|total_points)  what a player gets at the end",
        "oh_hell  Oh Hell! 1.0.0, 3-7 players",
        "    --option num_suits=4  (1..4)  suits in the deck",
        "    --option num_cards_per_suit=13  (2..13)  cards in each suit",
        "    --option num_tricks_fixed=-1  (-1..17)  tricks in the game; -1 for random",
        "    --option off_bid_penalty=false  (true|false)  a missed bid scores minus points_per_trick per trick off",
        "    --option points_per_trick=1  (0..100)  points for each trick won",
        "othello  Othello 1.0.0, 2 players",
        "snow_planner  Snow Planner 0.1.0, 1-4 players",
        "    --variant advanced_draft  (1-4 players)",
        "    --option automa_for_two=false  (true|false)  the automa joins a game of two players as a third seat",
        "snow_time  Snow Time 1.0.0, 2-5 players",
        "    --variant two_colours  (2 players)",
        "    --variant short_track  (2-5 players)",
        "snowfall_over_mountains  Snowfall over Mountains 1.0.0, 1 player",
        "    --variant harder  (1 player)",
        "    --option cabin_side=A  (A|B)  the side of the cabin tile placed face up",
        "    --option tree_card=random  (random|Shady Grove|Fair Forest|Lonely Pines)  the tree scoring card",
        "    --option bear_card=random  (random|Follow the Scent|Honey Hunt|Ursine Tracker)  the bear scoring card",
        "    --option rabbit_card=random  (random|Berry Pursuit|Thirsty Trek|Hopping Home)  the rabbit scoring card",
        "    --option bush_card=random  (random|Shrub Search|Twiggy Expanse|Hopeful Harvest)  the bush scoring card",
        "    --option pond_card=random  (random|Landlocked Lake|Scenic Overlook|Twin Ponds)  the pond scoring card",
        "snowy_tricks  Snowy Tricks 0.1.0, 2-5 players",
        "    --variant two_player  (2 players)",
        "    --variant no_two_player_adjustments  (2 players)",
    ]


@pytest.mark.parametrize("arguments, players", [
    (["--agents", "first,random,random"], 3),
    (["--agents", "random,first,first,first,random"], 5),
    (["--agents", "random"], 2),  # one agent for everybody: the ruleset's minimum
    ([], 2),
    (["--agents", "first", "--players", "4"], 4),
    (["--agents", "first,random,first", "--players", "3"], 3),
], ids=["three-agents", "five-agents", "one-agent", "none", "one-agent-four-players", "both-given"])
def test_players_follow_the_agents(capsys, arguments, players):
    code, out, err = cli(capsys, "run", "snow_time", "--seed", "2", "--json", *arguments)
    assert code == 0, err
    assert json.loads(out)["players"] == players


@pytest.mark.parametrize("arguments, message", [
    (["--agents", "first,random", "--players", "3"], "--agents gives 2 agents for 3 players"),
    (["--agents", "first,first,first,first,first,first"], "--players 6: Snow Time is for 2 to 5 players"),
], ids=["count-differs", "too-many-agents"])
def test_agents_and_players_that_disagree(capsys, arguments, message):
    code, out, err = cli(capsys, "run", "snow_time", *arguments)
    assert code == 2
    assert message in err


def test_simulate_players_follow_the_agents(capsys):
    code, out, err = cli(capsys, "simulate", "snow_time", "--games", "3", "--agents", "first,random,random", "--json")
    assert code == 0, err
    assert json.loads(out)["players"] == 3


def test_list_reads_one_cache_entry_and_says_the_same_as_built_afresh(capsys):
    """`snowrules list` keeps its entries in the build cache under the bundled folders' contents: a
    listing after another reads them without importing the reading of rulesets (0.36 -> 0.11 s of
    CPU), and says exactly what a listing built afresh in this process says."""
    from snowrules.cli import listing
    from snowrules.data import cache
    if cache.folder() is None:
        pytest.skip("the build cache is off")
    afresh = [asdict(entry) for entry in listing._entries(
        sorted(p.parent.name for p in listing.bundled_folder("rulesets").glob("*/ruleset.yaml")))]
    assert cli(capsys, "list")[0] == 0  # the entry is written, if it was not yet
    code = ("import sys; from snowrules.cli.main import main; code = main(['list', '--json']); "
            "print(sorted(m for m in sys.modules if m.startswith('snowrules.load.ruleset')), file=sys.stderr); "
            "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr.strip() == "[]", done.stderr
    assert json.loads(done.stdout)["rulesets"] == afresh
