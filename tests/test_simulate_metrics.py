"""A simulation's game metrics are read from the state at each decision (play/metrics.py), not
from events. Their definition (docs/metrics.md) is in terms of what a log says: a `choice` line
is one seat's decision with its number of options, the score lines keep the standings. Here
every bundled game is played again with every event listened to, the metrics worked out from
those events by that definition, and the simulation's records must be equal, game for game:
a score that changed without its event, a decision counted twice or missed, a standing read
after an answer's effects instead of before, each makes a game differ."""
from __future__ import annotations

from collections import Counter

import pytest
from snowrules.model.events import Chosen, CounterChanged
from snowrules.play.agents import RandomAgent, agent_seed, make_agent, play
from snowrules.play.batch import GameSpec, _game_for, game_seed, play_batch
from snowrules.play.metrics import MetricsTracker, lead_changes, sole_leader, winner_known

CONFIGURATIONS = [("goofspiel", 2), ("goofspiel", 4), ("oh_hell", 3), ("oh_hell", 5), ("snow_time", 2),
                  ("snow_time", 4), ("snowy_tricks", 3), ("snowfall_over_mountains", 1), ("snow_planner", 2)]


def _from_events(spec: GameSpec, seed: int) -> tuple:
    """One game's (decisions per player, options counts, lead changes, winner known), worked out
    from its Chosen and CounterChanged events."""
    game = _game_for(spec)
    program, layout = game.program, game.layout
    family = layout.counter_families["score"]
    scores = [family.initial] * layout.seats
    decisions, options, leaders = [0] * program.players, Counter(), []

    def player_scores() -> list:
        return [max(scores[s] for s in program.seats_of(p)) for p in range(program.players)]

    def listen(event) -> None:
        if type(event) is CounterChanged and 0 <= event.counter - family.base < layout.seats:
            scores[event.counter - family.base] = event.new
        elif type(event) is Chosen:
            if sum(decisions):
                leaders.append(sole_leader(player_scores()))
            decisions[program.controller(event.seat)] += 1
            options[event.options] += 1

    agents = [make_agent(name, agent_seed(seed, i)) for i, name in enumerate(spec.agents)]
    st = play(game, agents, seed, listen=listen)
    outcome = game.outcome(st)
    if sum(decisions):
        leaders.append(sole_leader(outcome.scores))
    return (tuple(decisions), tuple(sorted(options.items())), lead_changes(leaders),
            winner_known(leaders, outcome.winners))


@pytest.mark.parametrize("name, players", CONFIGURATIONS)
def test_metrics_read_from_the_state_are_those_of_the_events(name, players):
    spec = GameSpec(name, None, players, ("random",) * players)
    games = 3 if name == "snow_planner" else 12
    records = play_batch(spec, 11, list(range(games)))
    for index, record in enumerate(records):
        expected = _from_events(spec, game_seed(11, index))
        m = record.metrics
        assert (m.decisions, m.options, m.lead_changes, m.winner_known) == expected, f"game {index}"
    assert sum(sum(r.metrics.decisions) for r in records) > games  # games that ask


class _AskedAgent(RandomAgent):
    """A random agent that play() asks at each stop (not answered inline): the tracker then
    hears each decision through `asked`, not through its drawers."""


@pytest.mark.parametrize("name, players", [("goofspiel", 3), ("oh_hell", 4), ("snow_time", 3)])
def test_metrics_asked_at_stops_are_those_of_the_events(name, players):
    spec = GameSpec(name, None, players, ("random",) * players)
    game = _game_for(spec)
    tracker = MetricsTracker(game.program)
    for index in range(4):
        seed = game_seed(5, index)
        agents = [_AskedAgent(agent_seed(seed, i)) for i in range(players)]
        st = play(game, agents, seed, observe=tracker)
        outcome = game.outcome(st)
        m = tracker.take(outcome.scores, outcome.winners)
        assert (m.decisions, m.options, m.lead_changes, m.winner_known) == _from_events(spec, seed), f"game {index}"
