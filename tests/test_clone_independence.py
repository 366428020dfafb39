"""A cloned state is independent of its original (State.clone shares what is never changed in
place: the values in variables and locals, a grid's stacks, a decision's options). Whatever one
copy goes through, the other's data stays as it was, on every bundled ruleset."""
from __future__ import annotations

import json
import random

import pytest
from conftest import game_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from snowrules.load.ruleset import bundled_names, load_ruleset
from snowrules.model.state import State
from snowrules.runtime.engine import Game

MOST_DECISIONS = 400  # a bound on the game played on, so that an example stays short


def _configs() -> list[tuple[str, None, int]]:
    """Each bundled ruleset at its fewest and its most players."""
    found = []
    for name in bundled_names():
        ruleset = load_ruleset(name)
        for players in sorted({ruleset.min_players, ruleset.max_players}):
            found.append((name, None, players))
    return found


def _answer_at_random(game: Game, st: State, rng: random.Random) -> None:
    pending = game.decision(st)
    game.answer(st, [rng.randrange(len(options)) for options in pending.options])


def _play_on(game: Game, st: State, rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        if st.result is not None:
            return
        _answer_at_random(game, st, rng)


def _snapshot(st: State) -> str:
    return json.dumps([st.to_json(), st.where], sort_keys=True)


@pytest.mark.parametrize("config", _configs(), ids=lambda c: f"{c[0]}-{c[2]}p")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**32 - 1), before=st_.integers(0, 40), clone_plays=st_.booleans())
def test_playing_one_copy_on_leaves_the_other_as_it_was(config, seed, before, clone_plays):
    game = game_for(config)
    rng = random.Random(seed)
    st = game.start(seed)
    _play_on(game, st, rng, before)
    copy = st.clone()
    played, kept = (copy, st) if clone_plays else (st, copy)
    was = _snapshot(kept)
    _play_on(game, played, rng, MOST_DECISIONS)
    assert _snapshot(kept) == was
    # and the copy kept still plays as the original would have: the same answers, the same game
    again = State.from_json(json.loads(was)[0])
    answers = random.Random(seed + 1)
    _play_on(game, kept, answers, MOST_DECISIONS)
    _play_on(game, again, random.Random(seed + 1), MOST_DECISIONS)
    assert _snapshot(kept) == _snapshot(again)
