"""Snow Time's own invariants, on many random games (the generic ones are in test_properties)."""
from __future__ import annotations

import pytest
from conftest import game_for
from ruamel.yaml import YAML
from snowrules.load.ruleset import BUNDLED_RULESETS
from snowrules.play.agents import Observation, RandomAgent

TRACK = YAML(typ="safe").load((BUNDLED_RULESETS / "snow_time" / "components" / "score_track.yaml").read_text())
LAST_SPACE = TRACK["constants"]["last_space"]


def zone(game, st, label):
    layout = game.layout
    index = next(i for i, z in enumerate(layout.zones) if z.label(layout.seat_names) == label)
    return [layout.component_names[c] for c in st.zones[index]]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fruit_and_cards_follow_the_rulebook_in_random_games(players):
    game = game_for(("snow_time", None, players))
    seats = game.layout.seat_names
    for seed in range(150):
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        st = game.start(seed)
        while st.result is None:
            # [1. Placing the Fruit] no fruit ever appears on level 7; 15 fruit in all.
            assert zone(game, st, "fruit_on[7]") == []
            fruit = sum(len(zone(game, st, f"fruit_on[{level}]")) for level in range(1, 8))
            assert fruit + len(zone(game, st, "supply")) == 15
            turn_start = not any(zone(game, st, f"{seat}.revealed") for seat in seats)
            for seat in seats:
                # only characters in the recoverable discard; only Watcher/Snowstorm used up
                assert all(name.split()[-1].isdigit() for name in zone(game, st, f"{seat}.discard"))
                assert set(zone(game, st, f"{seat}.used_specials")) <= {f"{seat} Watcher", f"{seat} Snowstorm"}
                if turn_start:
                    # [1. Healer] never discarded: back in its owner's hand at every turn's start.
                    assert f"{seat} Healer" in zone(game, st, f"{seat}.hand")
            if turn_start:
                for level in range(1, 8):
                    assert zone(game, st, f"tree[{level}]") == [], "the tree is empty between turns"
            pending = st.pending
            game.answer(st, [agents[s].choose(Observation(game, st, s, o)) for s, o in zip(pending.seats,
                                                                               pending.options)])
        outcome = game.outcome(st)
        # [End of Game & Winner] the winner's pawn is on the last space, the others' are not beyond.
        assert all(outcome.seat_scores[w] == LAST_SPACE for w in st.result.winners)
        assert max(outcome.seat_scores) == LAST_SPACE


def test_two_colours_variant_gives_each_player_two_seats_and_the_win_to_the_owner():
    game = game_for(("snow_time", "two_colours", 2))
    assert game.layout.seats == 4
    assert [game.program.controller(s) for s in range(4)] == [0, 0, 1, 1]
    for seed in range(50):
        st = game.start(seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while st.result is None:
            pending = st.pending
            game.answer(st, [agents[game.program.controller(s)].choose(Observation(game, st, s, o))
                             for s, o in zip(pending.seats, pending.options)])
        outcome = game.outcome(st)
        winning_seats = st.result.winners
        assert outcome.winners == sorted({s // 2 for s in winning_seats})
        assert all(outcome.scores[p] == LAST_SPACE for p in outcome.winners)


def test_bonuses_are_not_chained(tmp_path):
    """[E. Bonus Spaces] "Bonuses are not cumulated, even if a bonus causes a player's pawn to land
    on another bonus space": with bonus spaces on 5 and 6 (a test track, not the assumed one),
    Marie's fruit points take her to 5, its bonus to 6, and she stops there."""
    import shutil

    from snowrules.records.scenarios import run_scenario
    folder = tmp_path / "snow_time"
    shutil.copytree(BUNDLED_RULESETS / "snow_time", folder)
    track = folder / "components" / "score_track.yaml"
    text = track.read_text()
    text = text.replace("- {space: 9, type: fight, amount: 2}", "- {space: 6, type: fruit, amount: 3}")
    track.write_text(text)
    scenario = folder / "scenarios" / "chain.yaml"
    scenario.write_text("""name: no chain
players: [Marie, Hugo]
dice: [6, 6]
situation:
  counters: {Marie.score: 3}
choices:
  - {Marie: Marie 6, Hugo: Hugo 2}
until: end of turn 1
expect:
  counters:
    Marie.score: 6
    Marie.scored[fruit]: 2
""")
    result = run_scenario(scenario, str(folder))
    assert result.passed, result.failures
