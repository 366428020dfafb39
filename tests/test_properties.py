"""Properties every ruleset must have, checked on seeded random games of every player count and
variant, with no ruleset-specific test code: conservation of components, counters within their
bounds, determinism, clone and JSON round trip, resuming from a copy, replay identity, and views
that hide what they must."""
from __future__ import annotations

import json

import pytest
from conftest import (
    check_invariants,
    config_id,
    configurations,
    examples,
    game_for,
    play_checked,
    replay_choices,
    round_trip,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from snowrules.compile.compiler import programs_shared
from snowrules.play.replay import replay
from snowrules.records.logfile import LogWriter, header, result_event

CONFIGS = configurations()
SEEDS = st_.integers(min_value=0, max_value=2**40)
# Seeds per configuration and property: 10 in the suite (was 25: the three properties below were
# about 110 s of CPU, most of it Snow Planner's games), 100 under --hypothesis-profile=thorough.
SETTINGS = settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Seeded games per configuration in test_many_games_run_clean (ten times as many under the thorough
# profile). A ruleset whose random game is slow plays fewer here, to keep the suite short: Snowfall
# (about 100 grid spots offered at each of 27 placements; its thousands of seeds are run and timed
# outside it, its README says how many) and Snow Planner (a game is 20-45 ms, 150-330 ms checked at
# every decision: 300 games of each of its 8 configurations were two minutes of the suite's CPU).
GAMES_RUN_CLEAN = {"snowfall_over_mountains": 50, "snow_planner": 50}
# The card games: 100 (1,000 thorough; 300 before). Seeds 100-299 reached no branch of snowrules'
# own code that seeds 0-99 had not (snow_time-4p, snowy_tricks-4p, measured with coverage).
DEFAULT_GAMES_RUN_CLEAN = 100


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@SETTINGS
@given(seed=SEEDS)
def test_invariants_hold_at_every_decision(config, seed):
    game = game_for(config)
    st, _ = play_checked(game, seed)
    outcome = game.outcome(st)
    assert outcome.winners, "every game ends with at least one winner"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@SETTINGS
@given(seed=SEEDS)
def test_same_seed_same_log(config, seed):
    game = game_for(config)
    first, second = [], []
    play_checked(game, seed, check_every=10**9, sink=first.append)
    play_checked(game, seed, check_every=10**9, sink=second.append)
    assert first == second
    assert any(e["e"] == "end" for e in first)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@SETTINGS
@given(seed=SEEDS, cut=st_.floats(min_value=0, max_value=1))
def test_resume_from_json_copy_gives_the_same_game(config, seed, cut):
    """Write the state to JSON at some decision, read it back, feed it the same answers: the game
    ends exactly as the original did."""
    game = game_for(config)
    original, choices = play_checked(game, seed, check_every=10**9)
    k = int(cut * len(choices))
    st = game.start(seed)
    replay_choices(game, st, choices[:k])
    copy = round_trip(st)
    clone = st.clone()
    for resumed in (copy, clone, st):
        replay_choices(game, resumed, choices[k:])
        assert resumed == original


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_replay_identity(config, tmp_path):
    """Five logged games replayed. `replay` reads the ruleset and compiles it for every log; inside
    programs_shared the five compile it once (the same content: the same program; replay never
    changes it), as `snowrules test` does for its scenarios."""
    game = game_for(config)
    with programs_shared():
        for seed in range(5):
            path = tmp_path / f"game{seed}.jsonl"
            with LogWriter(path) as log:
                name, variant, players = config
                log.write(header(game, seed, ["random"] * players, name))
                st, _ = play_checked(game, seed, check_every=10**9, sink=log.write)
                log.write(result_event(game, st))
            report = replay(path)
            assert report.identical, (report.message, report.line, report.expected, report.got)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_many_games_run_clean(config):
    """Many seeded games per configuration, invariants checked every few decisions; each
    game ends exactly once, with nothing happening after its end, and its result is the one the
    end event announced: one or more winners, every one a seat of the game."""
    game = game_for(config)
    seats = game.layout.seat_names
    for seed in range(examples(GAMES_RUN_CLEAN.get(config[0], DEFAULT_GAMES_RUN_CLEAN))):
        events = []
        st, choices = play_checked(game, seed, check_every=7, sink=events.append)
        ends = [number for number, event in enumerate(events) if event["e"] == "end"]
        assert len(ends) == 1, f"seed {seed}: the game ended {len(ends)} times"
        assert ends[0] == len(events) - 1, f"seed {seed}: {events[ends[0] + 1:]} after the end"
        winners = st.result.winners
        assert winners and set(winners) <= set(range(len(seats))), (seed, winners)
        assert events[-1]["winners"] == [seats[w] for w in winners]
        assert st.pending is None and choices, seed


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_views_hide_other_players_hidden_and_secret_zones(config):
    game = game_for(config)
    layout = game.layout
    st = game.start(3)
    for _ in range(15):
        if st.result is not None:
            break
        check_invariants(game, st)
        for player in range(game.program.players):
            view = game.view(st, player)
            own = set(game.program.seats_of(player))
            for zone in layout.zones:
                shown = view["zones"][zone.label(layout.seat_names)]
                if zone.visibility == "secret" or (zone.visibility == "hidden" and zone.owner not in own):
                    assert shown == {"count": len(st.zones[layout.zones.index(zone)])}
                else:
                    assert isinstance(shown, list)
        pending = st.pending
        game.answer(st, [0] * len(pending.seats))


def test_every_log_line_follows_the_log_schema(tmp_path):
    from jsonschema import Draft202012Validator
    from snowrules.load.ruleset import GENERIC_SCHEMAS
    validator = Draft202012Validator(json.loads((GENERIC_SCHEMAS / "log_event.schema.json").read_text()))
    kinds = set()
    # An event line met before (the same text: a move, a count, a turn, common to many games) was
    # validated then: 6,400 distinct lines of 23,400, and the validator's oneOf over every kind
    # of event was three quarters of this test's time.
    seen: set[str] = set()
    for config in CONFIGS:
        game = game_for(config)
        path = tmp_path / "game.jsonl"
        with LogWriter(path) as log:
            log.write(header(game, 11, ["random"] * config[2], config[0]))
            st, _ = play_checked(game, 11, check_every=10**9, sink=log.write)
            log.write(result_event(game, st))
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line in seen:
                continue
            seen.add(line)
            event = json.loads(line)
            kinds.add(event["e"])
            errors = [e.message for e in validator.iter_errors(event)]
            assert not errors, (number, event, errors)
    assert {"header", "turn", "phase", "roll", "move", "count", "choice", "end", "result"} <= kinds
