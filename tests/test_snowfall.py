"""Snowfall over Mountains as played (rulesets/snowfall_over_mountains, issue 11): what setup
leaves on the table, the options and variant that change it, the result told by card with its
Wanderlust rank, and bad options refused. The rulebook examples themselves are the ruleset's
scenarios (tests/test_scenarios.py runs them); the generic checks (tests/test_properties.py and
friends) play it with both tool rules.

Every expected value below is counted from the rulebook ([Setup], [Final Scoring], [Wanderlust
Table]), never read from a game's output.
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from conftest import round_trip
from snowrules.cli.main import main
from snowrules.compile.compiler import load_program
from snowrules.play.agents import RandomAgent, play
from snowrules.play.results import result_reading
from snowrules.records.scenarios import run_scenario
from snowrules.runtime.engine import Game

NAME = "snowfall_over_mountains"
TYPES = {"tree": ["Shady Grove", "Fair Forest", "Lonely Pines"],
         "bear": ["Follow the Scent", "Honey Hunt", "Ursine Tracker"],
         "rabbit": ["Berry Pursuit", "Thirsty Trek", "Hopping Home"],
         "bush": ["Shrub Search", "Twiggy Expanse", "Hopeful Harvest"],
         "pond": ["Landlocked Lake", "Scenic Overlook", "Twin Ponds"]}
TOOLS = {"Binoculars", "Compass", "Map", "Sled", "Snowshoes", "Snow Shovel", "Tall Boots", "Work Gloves"}


def after_setup(game: Game, seed: int) -> dict[str, list[str]]:
    """The shared zones at the first turn's decision, by name (the tool choice answered first)."""
    st = game.start(seed)
    assert st.pending.variable == "kept"         # [Setup E] the tools to keep: the first way
    game.answer(st, [0])
    assert st.pending.variable == "pick"         # [A Game Turn] the first turn's decision
    layout = game.layout
    return {name: [layout.component_names[c] for c in st.zones[family.base]]
            for name, family in layout.zone_families.items() if not family.per_player} | {
        "kind_of": {n: layout.fields["kind"][c] for c, n in enumerate(layout.component_names)}}


@pytest.mark.parametrize("variant, kept", [(None, 2), ("harder", 1)])
def test_setup_lays_out_the_table_as_printed(variant, kept):
    game = Game(load_program(NAME, variant, 1))
    for seed in range(5):
        zones = after_setup(game, seed)
        kind = zones["kind_of"]
        # [Setup A] one cabin face in the woods; [Setup C] 4 tiles in the box; [Setup F] 2 in hand
        assert [kind[c] for c in zones["woods"]] == ["cabin"]
        assert sum(kind[c] == "tile" for c in zones["box"]) == 4
        assert len(zones["hand"]) == 2 and len(zones["stack"]) == 30 - 4 - 2
        # [Setup D] one scoring card of each type
        assert sorted(next(t for t, names in TYPES.items() if c in names) for c in zones["scoring"]) == sorted(TYPES)
        # [Setup E] 3 tools drawn, 2 kept (harder: 1); the others back in the box
        assert len(zones["tools"]) == kept and set(zones["tools"]) <= TOOLS
        assert zones["offered"] == [] and zones["tool_deck"] == []
        assert sum(kind[c] == "tool" for c in zones["box"]) == 8 - kept


def test_the_scoring_cards_are_drawn_at_random_unless_an_option_fixes_one():
    game = Game(load_program(NAME, None, 1))
    seen = Counter(c for seed in range(60) for c in after_setup(game, seed)["scoring"])
    assert set(seen) == {c for names in TYPES.values() for c in names}    # every card comes up
    fixed = Game(load_program(NAME, None, 1, (("bush_card", "Twiggy Expanse"), ("cabin_side", "B"))))
    for seed in range(10):
        zones = after_setup(fixed, seed)
        assert "Twiggy Expanse" in zones["scoring"] and zones["woods"] == ["Cabin (side B)"]


def test_the_result_tells_each_card_the_tools_the_trails_and_the_rank():
    """[Final Scoring] the 5 cards, +1 per unused tool, -3 per disconnected tile: the parts add up
    to the score, which is the return, and the rank is the Wanderlust row of that score."""
    game = Game(load_program(NAME, None, 1))
    for seed in range(3):
        said: list = []
        st = play(game, [RandomAgent(seed)], seed, listen=lambda e, said=said: said.append(getattr(e, "text", None)))
        texts = [t for t in said if t]
        cards = [re.fullmatch(r"(.+) scores (-?\d+)", t) for t in texts[-7:-2]]
        assert all(cards), texts[-7:-2]
        assert sorted(next(t for t, names in TYPES.items() if m.group(1) in names) for m in cards) == sorted(TYPES)
        tools = int(re.fullmatch(r"unused tools score (\d+)", texts[-2]).group(1))
        trails = int(re.match(r"disconnected trails score (-?\d+)", texts[-1]).group(1))
        total = sum(int(m.group(2)) for m in cards) + tools + trails
        assert result_reading(game, st) == {"titles": [wanderlust(total)]}   # said at the result
        assert game.outcome(st).scores == [total] and trails % 3 == 0 and 0 <= tools <= 2


def wanderlust(score: int) -> str:
    """[Wanderlust Table] as printed: <46, 46-55, 56-65, 66-75, 76+."""
    return ("Lost Traveler" if score < 46 else "Wayward Hiker" if score <= 55 else "Cozy Sightseer"
            if score <= 65 else "Experienced Explorer" if score <= 75 else "Master Trailblazer")


RANKED = """\
name: a score of {total}
players: 1
situation:
  counters: {{you.score: {start}}}
  zones:
    woods: [{{component: Cabin (side A), at: [0, 0]}}]
    offered: [Compass, Sled]
    stack: []
    hand: []
until: game end
expect:
  returns: {{you: {total}}}
"""


# The cabin alone scores 0 on every card (no feature) and loses nothing (no other tile); the 2
# unused tools add 2: a game starting at score `start` ends at start + 2.
@pytest.mark.parametrize("start, rank", [
    (-10, "Lost Traveler"), (43, "Lost Traveler"), (44, "Wayward Hiker"), (53, "Wayward Hiker"),
    (54, "Cozy Sightseer"), (63, "Cozy Sightseer"), (64, "Experienced Explorer"),
    (73, "Experienced Explorer"), (74, "Master Trailblazer"), (120, "Master Trailblazer")])
def test_the_wanderlust_rank_of_each_row_and_its_edges(tmp_path, start, rank):
    path = tmp_path / "ranked.yaml"
    path.write_text(RANKED.format(start=start, total=start + 2))
    result = run_scenario(path, NAME)
    assert result.passed, result.failures
    game = Game(load_program(NAME, None, 1))   # the title the final score earns, at the result
    st = play(game, [RandomAgent(0)], 0)
    st.counters[game.layout.counter_index("score", 0)] = start + 2
    assert result_reading(game, st) == {"titles": [rank]}


@pytest.mark.parametrize("args, code, words", [
    (["--option", "tree_card=Honey Hunt"], 2,
     "option tree_card cannot be 'Honey Hunt' (choose one of: random, Shady Grove, Fair Forest, Lonely Pines)"),
    (["--option", "cabin_side=C"], 2, "option cabin_side cannot be 'C' (choose one of: A, B)"),
    (["--option", "bush_cards=Twiggy Expanse"], 2, "has no option 'bush_cards' (its options: bear_card, bush_card"),
    (["--players", "2"], 2, "--players 2: Snowfall over Mountains is for 1 player"),
    (["--variant", "hard"], 2, "--variant: unknown variant 'hard' (this ruleset's variants: harder)"),
], ids=["card-of-another-type", "no-such-side", "misspelt-option", "two-players", "misspelt-variant"])
def test_bad_options_are_refused_with_what_there_is(capsys, args, code, words):
    got = main(["run", NAME, "--seed", "1", *args])
    out, err = capsys.readouterr()
    assert got == code, out + err
    assert words in out + err and "Traceback" not in out + err


def test_a_game_copied_in_the_middle_of_a_tool_goes_on_as_the_original():
    """A decision inside a tool's effect (components/tools.yaml: which tile, which spot), the
    game's grid half rewritten: a clone and a JSON copy of the state there end the game exactly
    as the original does, given the same answers."""
    game = Game(load_program(NAME, None, 1))
    tools_seen = set()
    for seed in range(40):
        st, rng = game.start(seed), random.Random(seed)
        while st.result is None and "tools.yaml" not in st.pending.rule:
            game.answer(st, [rng.randrange(len(st.pending.options[0]))])
        if st.result is not None:
            continue
        tools_seen.add(st.pending.rule)
        copies = [round_trip(st), st.clone(), st]
        for copy in copies:
            answers = random.Random(1000 + seed)
            while copy.result is None:
                game.answer(copy, [answers.randrange(len(copy.pending.options[0]))])
        assert copies[0] == copies[1] == copies[2], seed
    assert len(tools_seen) >= 4, tools_seen     # decisions of several tools were copied
