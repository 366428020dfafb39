"""The search bots: agent specs, determinization (no hidden state read), greedy and mcts choices."""
from __future__ import annotations

import json
import random
import sys

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.load.ruleset import load_ruleset, set_options
from snowrules.play import parallel_search
from snowrules.play.agents import AgentSpec, AgentSpecError, Observation, RandomAgent, make_agent, parse_agents, play
from snowrules.play.determinize import unseen_zones
from snowrules.play.greedy import GreedyAgent, state_value
from snowrules.play.mcts import MctsAgent, _Search, summed
from snowrules.play.parallel_search import shares
from snowrules.runtime.engine import Game


def game_of(name: str, players: int, **options) -> Game:
    if not options:
        return Game(load_program(name, None, players))
    ruleset = load_ruleset(name, None)
    set_options(ruleset, {k: str(v) for k, v in options.items()})
    return Game(compile_ruleset(ruleset, players))


def zone_index(game: Game, label: str) -> int:
    labels = [z.label(game.layout.seat_names) for z in game.layout.zones]
    return labels.index(label)


def advance_to(game: Game, seed: int, wanted) -> object:
    """A suspended state at the first decision `wanted(game, state)` accepts, random answers before."""
    agents = [RandomAgent(seed * 10 + p) for p in range(game.program.players)]
    st = game.start(seed)
    while st.result is None:
        decision = game.decision(st)
        if wanted(game, st):
            return st
        game.answer(st, [agents[game.program.controller(s)].choose(Observation(game, st, s, o))
                         for s, o in zip(decision.seats, decision.options)])
    raise AssertionError("the game ended before the wanted decision")


def seat0_chooses(choice: str, after_turn: int = 0):
    def wanted(game, st):
        decision = game.decision(st)
        turn = st.counters[game.program.turn_counter]
        return (0 in decision.seats and decision.variable == choice and turn > after_turn
                and len(decision.options[decision.seats.index(0)]) > 1)
    return wanted


def observe(game: Game, st, seat: int = 0) -> Observation:
    decision = game.decision(st)
    return Observation(game, st, seat, decision.options[decision.seats.index(seat)])


def without_steps(st) -> dict:
    data = st.to_json()
    del data["steps"]
    return data


def swap(st, first: int, second: int) -> None:
    """Swap two components between (or within) zones, as a hidden rearrangement would."""
    zone_a, zone_b = st.where[first], st.where[second]
    a, b = st.zones[zone_a].index(first), st.zones[zone_b].index(second)
    st.zones[zone_a][a], st.zones[zone_b][b] = second, first
    st.where[first], st.where[second] = zone_b, zone_a


# ---- agent specs ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("random", [AgentSpec("random")]),
    ("mcts:iterations=200,seed=3,random", [AgentSpec("mcts", (("iterations", 200), ("seed", 3))),
                                           AgentSpec("random")]),
    ("mcts:iterations=100,workers=2", [AgentSpec("mcts", (("iterations", 100), ("workers", 2)))]),
    ("greedy, mcts:exploration=1.5 ,first", [AgentSpec("greedy"), AgentSpec("mcts", (("exploration", 1.5),)),
                                             AgentSpec("first")]),
    ("random:seed=4,greedy:samples=2,seed=9", [AgentSpec("random", (("seed", 4),)),
                                               AgentSpec("greedy", (("samples", 2), ("seed", 9)))]),
])
def test_agent_specs_parse(text, expected):
    assert parse_agents(text) == expected


@pytest.mark.parametrize("text, message", [
    ("robot", "unknown agent 'robot'; agents: random, first, human, greedy, mcts"),
    ("mcts:iters=3", "mcts has no setting 'iters'; its settings: seed, iterations, exploration, workers, widening"),
    ("seed=3,mcts", "setting 'seed=3' comes before any agent: write NAME:seed=3"),
    ("mcts:iterations=0", "mcts: iterations=0 is below its least value 1"),
    ("mcts:iterations=lots", "mcts: iterations='lots' is not a whole number"),
    ("mcts:exploration=high", "mcts: exploration='high' is not a number"),
    ("mcts:exploration=inf", "mcts: exploration='inf' is not a number"),
    ("mcts:workers=0", "mcts: workers=0 is below its least value 1"),
    ("mcts:workers=65", "mcts: workers=65 is above its greatest value 64"),
    ("mcts:workers=two", "mcts: workers='two' is not a whole number"),
    ("mcts:workers=1.5", "mcts: workers='1.5' is not a whole number"),
    ("mcts:widening=-1", "mcts: widening=-1 is below its least value 0.0"),
    ("mcts:seed=1,iterations=5,seed=2", "mcts: setting 'seed' is given twice"),
    ("first:seed=2", "first has no setting 'seed'; its settings: none"),
    ("mcts:", "mcts: setting '' should be KEY=VALUE "
              "(settings of mcts: seed, iterations, exploration, workers, widening)"),
    ("random,,random", "'random,,random' has an empty agent name (two commas in a row?)"),
])
def test_bad_agent_specs_say_what_is_wrong(text, message):
    with pytest.raises(AgentSpecError) as error:
        parse_agents(text)
    assert str(error.value) == message


@pytest.mark.parametrize("agents", [
    "mcts:iters=3", "mcts:iterations=0,random", "seed=3", "greedy:samples=x", "mcts,random,random",
])
def test_bad_agent_specs_are_usage_errors(capsys, agents):
    code = main(["run", "goofspiel", "--players", "2", "--agents", agents])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("snowrules run: error: --agents")


def test_spec_seed_setting_fixes_the_generator():
    assert make_agent("mcts:seed=3,iterations=7", 99)._rng.random() == random.Random(3).random()
    assert make_agent("mcts:iterations=7", 99)._rng.random() == random.Random(99).random()
    agent = make_agent("mcts:iterations=7,exploration=0.25", 0)
    assert (agent.iterations, agent.exploration) == (7, 0.25)


def test_run_with_configured_bots_reports_their_specs(capsys):
    args = ["run", "goofspiel", "--players", "3", "--option", "num_cards=4", "--seed", "5", "--json",
            "--agents", "mcts:iterations=20,seed=3,greedy,random"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["agents"] == ["mcts:iterations=20,seed=3", "greedy", "random"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first, "same seeds, same game"


# ---- determinization -----------------------------------------------------------------------------

def test_unseen_zones_are_those_the_view_shows_only_as_counts():
    game = game_of("snowy_tricks", 3)
    st = advance_to(game, 1, seat0_chooses("card"))
    view = game.view(st, 0)
    labels = [z.label(game.layout.seat_names) for z in game.layout.zones]
    counted = {label for label, content in view["zones"].items() if isinstance(content, dict)}
    assert {labels[i] for i in unseen_zones(game, 0)} == counted - {"box"}
    # by hand from rules.sr: deck and prize_pool are secret, the others' hand, prediction, pile hidden
    others = {f"{seat}.{zone}" for seat in game.layout.seat_names[1:] for zone in ("hand", "prediction", "pile")}
    assert counted - {"box"} == {"deck", "prize_pool"} | others


def test_a_sampled_world_keeps_what_the_player_sees_and_redeals_the_rest():
    game = game_of("oh_hell", 3)
    st = advance_to(game, 4, seat0_chooses("card"))
    before = st.to_json()
    observation = observe(game, st)
    world = observation.determinize(random.Random(1))
    assert st.to_json() == before, "the real state is not touched"
    unseen = unseen_zones(game, 0)
    for index in range(len(st.zones)):
        if index in unseen:
            assert len(world.zones[index]) == len(st.zones[index])
        else:
            assert world.zones[index] == st.zones[index]
    pooled = sorted(c for i in unseen for c in st.zones[i])
    assert sorted(c for i in unseen for c in world.zones[i]) == pooled
    assert any(world.zones[i] != st.zones[i] for i in unseen), "something was re-dealt"
    for index, zone in enumerate(world.zones):
        assert all(world.where[c] == index for c in zone)
    assert world.rng != st.rng
    # the world waits at the same decision, for the same seat, with the same options
    decision = game.decision(world)
    assert decision.seats == game.decision(st).seats
    assert decision.options[decision.seats.index(0)] == observation.options


def test_a_simultaneous_decision_is_asked_again_from_the_sampled_hands():
    game = game_of("goofspiel", 3, num_cards=6, points_order="descending")
    st = advance_to(game, 2, seat0_chooses("card", after_turn=1))
    world = observe(game, st).determinize(random.Random(5))
    decision = game.decision(world)
    assert decision.seats == [0, 1, 2]
    for seat, options in zip(decision.seats, decision.options):
        assert options == world.zones[zone_index(game, f"p{seat}.hand")]
    # per-seat cards stay with their seat: every p1 bid card in p1's hand is still p1's
    owners = game.layout.fields["owner"]
    assert all(owners[c] == 1 for c in world.zones[zone_index(game, "p1.hand")])


def test_determinization_inside_play_matches_the_suspended_state():
    """An agent called from inside the run (play) and one given a suspended state sample the same
    world: the decision not yet stepped back is taken into account. (The count of statements run,
    a budget against runaway rules, is brought up to date only when a run stops: left out.)"""
    game = game_of("oh_hell", 3)
    seen = []

    class Recorder:
        name = "recorder"
        parameters: dict = {}

        def choose(self, observation):
            seen.append(without_steps(observation.determinize(random.Random(7))))
            return 0
    play(game, [Recorder(), RandomAgent(1), RandomAgent(2)], seed=3)
    suspended = []
    st = game.start(3)
    agents = [Recorder(), RandomAgent(1), RandomAgent(2)]
    while st.result is None:
        decision = game.decision(st)
        answers = []
        for seat, options in zip(decision.seats, decision.options):
            if seat == 0:
                suspended.append(without_steps(Observation(game, st, 0, options).determinize(random.Random(7))))
                answers.append(0)
            else:
                answers.append(agents[seat].choose(Observation(game, st, seat, options)))
        game.answer(st, answers)
    assert seen == suspended and len(seen) >= 2


# ---- no hidden state read: swapping what the player cannot see changes nothing -------------------

SWAPS = [  # (ruleset, players, seed, decision of seat 0, zones whose cards are swapped)
    ("oh_hell", 3, 4, "card", ("p1.hand", "deck")),
    ("oh_hell", 3, 4, "card", ("p1.hand", "p2.hand")),
    ("oh_hell", 4, 9, "tricks", ("p3.hand", "deck")),
    ("snowy_tricks", 3, 1, "card", ("Hugo.hand", "deck")),
    ("snowy_tricks", 3, 1, "card", ("Hugo.hand", "Lea.hand")),
]


@pytest.mark.parametrize("name, players, seed, choice, zones", SWAPS)
def test_swapping_hidden_cards_leaves_mcts_choice_unchanged(name, players, seed, choice, zones):
    game = game_of(name, players)
    seat_names = game.layout.seat_names
    zones = tuple(z.replace("Hugo", seat_names[1]).replace("Lea", seat_names[2]) for z in zones)
    st = advance_to(game, seed, seat0_chooses(choice))
    swapped = st.clone()
    first, second = (zone_index(game, z) for z in zones)
    moved = 0
    for a, b in zip(list(swapped.zones[first]), list(swapped.zones[second])):
        if game.layout.component_names[a] != game.layout.component_names[b]:
            swap(swapped, a, b)
            moved += 1
    assert moved > 0 and swapped.to_json() != st.to_json(), "the hidden cards really differ"
    assert game.view(swapped, 0) == game.view(st, 0), "seat 0 cannot tell the two states apart"
    # the worlds sampled for the same generator are the same, whatever the hidden truth
    worlds = [observe(game, s).determinize(random.Random(11)).to_json() for s in (st, swapped)]
    assert worlds[0] == worlds[1]
    choices = [MctsAgent(seed=3, iterations=60).choose(observe(game, s)) for s in (st, swapped)]
    assert choices[0] == choices[1]
    # and so do searches in other processes: they sample from the same view
    choices = [MctsAgent(seed=3, iterations=60, workers=2).choose(observe(game, s)) for s in (st, swapped)]
    assert choices[0] == choices[1]


def test_the_swap_test_can_fail_for_an_agent_that_reads_hidden_state():
    """Control: copies that keep the real hidden zones (what a cheating agent would search) differ
    after the swap, so the equal sampled worlds above are the re-deal's doing."""
    game = game_of("oh_hell", 3)
    st = advance_to(game, 4, seat0_chooses("card"))
    swapped = st.clone()
    hand, deck = zone_index(game, "p1.hand"), zone_index(game, "deck")
    names = game.layout.component_names
    a, b = next((a, b) for a in st.zones[hand] for b in st.zones[deck] if names[a] != names[b])
    swap(swapped, a, b)
    assert game.view(swapped, 0) == game.view(st, 0)
    assert game.suspended_copy(st).to_json() != game.suspended_copy(swapped).to_json()


# ---- greedy --------------------------------------------------------------------------------------

def test_state_value_is_the_score_lead_without_declared_returns():
    game = game_of("snow_time", 3)
    st = game.start(1)
    base = game.layout.counter_families["score"].base
    st.counters[base:base + 3] = [5, 9, 7]
    assert [state_value(game, st, p) for p in range(3)] == [5 - 9, 9 - 7, 7 - 9]


def test_state_value_uses_declared_returns():
    # Oh Hell's manifest declares `returns: value: p.score`: the score itself, not the lead
    # (with the lead, the values would be 12 - 10, 1 - 12 and 10 - 12).
    game = game_of("oh_hell", 3)
    st = game.start(1)
    for p, score in enumerate([12, 1, 10]):
        st.counters[game.layout.counter_index("score", p)] = score
    assert [state_value(game, st, p) for p in range(3)] == [12.0, 1.0, 10.0]


def test_greedy_bids_the_top_card_for_the_top_prize():
    """Goofspiel, 2 cards, descending: the prize 2 comes first. Bidding 2 wins it unless the other
    bids 2 too (a tie discards it); bidding 1 never wins it. So greedy bids 2, whatever the seed."""
    game = game_of("goofspiel", 2, num_cards=2, points_order="descending")
    st = game.start(0)
    observation = observe(game, st)
    names = [game.layout.component_names[c] for c in observation.options]
    for seed in range(5):
        assert names[GreedyAgent(seed=seed, samples=3).choose(observation)] == "p0 bid 2"


class CountingObservation(Observation):
    """An observation that counts the worlds an agent samples from it."""

    __slots__ = ("sampled",)

    def determinize(self, rng):
        self.sampled = getattr(self, "sampled", 0) + 1
        return super().determinize(rng)


@pytest.mark.parametrize("name, players, choice, worlds", [
    # a solo game's placement: the score is counted at the end, so every spot is worth 0 in every
    # world; the second world repeats the first and sampling stops there
    ("snowfall_over_mountains", 1, "spot", 2),
    # a bid against two random bidders: their bids differ from world to world, and so do the
    # values: all 4 worlds are sampled
    ("goofspiel", 3, "card", 4),
])
def test_greedy_stops_sampling_when_two_worlds_value_the_options_alike(name, players, choice, worlds):
    game = game_of(name, players)
    st = advance_to(game, 1, seat0_chooses(choice))
    decision = game.decision(st)
    observation = CountingObservation(game, st, 0, decision.options[decision.seats.index(0)])
    GreedyAgent(seed=2, samples=4).choose(observation)
    assert observation.sampled == worlds


def test_greedy_breaks_ties_with_its_own_generator():
    # Oh Hell, a bid: nothing changes the returns before the tricks, so every bid ties.
    game = game_of("oh_hell", 3)
    st = advance_to(game, 9, seat0_chooses("tricks"))
    observation = observe(game, st)
    picks = {GreedyAgent(seed=s, samples=1).choose(observation) for s in range(40)}
    assert len(picks) > 1
    assert GreedyAgent(seed=4).choose(observation) == GreedyAgent(seed=4).choose(observation)


# ---- mcts ----------------------------------------------------------------------------------------

def test_mcts_bids_the_top_card_first_in_two_card_goofspiel():
    """By hand: bid 2 against a random 1 wins 2 then loses 1 (a win); against 2 both prizes are
    discarded (a draw, half a win). Bid 1: a draw or a loss. Expected share 0.75 against 0.25."""
    game = game_of("goofspiel", 2, num_cards=2, points_order="descending")
    observation = observe(game, game.start(0))
    names = [game.layout.component_names[c] for c in observation.options]
    assert names[MctsAgent(seed=1, iterations=40).choose(observation)] == "p0 bid 2"


def test_mcts_is_reproducible_for_a_seed():
    game = game_of("snow_time", 3)
    st = advance_to(game, 2, seat0_chooses("card"))
    picks = [MctsAgent(seed=8, iterations=30).choose(observe(game, st)) for _ in range(2)]
    assert picks[0] == picks[1]


@pytest.mark.parametrize("iterations, workers, expected", [
    (10, 4, [3, 3, 2, 2]),   # 10 = 4 * 2 + 2: the first two searches take one more
    (8, 2, [4, 4]),
    (3, 4, [1, 1, 1]),       # fewer iterations than searches: the idle one is left out
    (7, 1, [7]),
])
def test_iterations_are_shared_between_the_searches(iterations, workers, expected):
    assert shares(iterations, workers) == expected


def test_summed_statistics_add_each_option_over_the_searches():
    tables = [{"a": [2, 1.5, 3], "b": [1, 0.0, 3]}, {"a": [1, 0.25, 2], "c": [1, 1.0, 1]}]
    assert summed(tables) == {"a": [3, 1.75, 5], "b": [1, 0.0, 3], "c": [1, 1.0, 1]}
    assert tables[0]["a"] == [2, 1.5, 3], "the searches' own tables are left as they were"


@pytest.mark.parametrize("name, players, seed, other_than_one_search", [
    ("snow_time", 3, 4, True),
    ("oh_hell", 3, 2, False),  # short hands: one search of 12 happens to play the same cards
])
def test_parallel_mcts_plays_the_same_game_in_processes_as_in_one(monkeypatch, name, players, seed,
                                                                  other_than_one_search):
    """workers=2 forks two searching processes; each search depends only on its seed and share, so
    the same searches run one after the other here give the same game, event for event."""
    game = game_of(name, players)

    def logged(workers: int) -> list:
        log: list = []
        agents = [make_agent(f"mcts:iterations=12,workers={workers}", 1)] + \
            [RandomAgent(p) for p in range(1, players)]
        play(game, agents, seed, sink=log.append)
        assert (agents[0]._pool is not None and agents[0]._pool.forked) == parallel_search.can_fork()
        agents[0].close()
        return log
    forked = logged(2)
    monkeypatch.setattr(parallel_search, "can_fork", lambda: False)
    assert logged(2) == forked
    assert (logged(1) != forked) == other_than_one_search, "two searches of 6 are not one of 12"


def test_parallel_mcts_is_reproducible_for_a_seed_and_workers():
    game = game_of("snow_time", 3)
    st = advance_to(game, 2, seat0_chooses("card"))
    for workers in (2, 3):
        agents = [MctsAgent(seed=8, iterations=30, workers=workers) for _ in range(2)]
        picks = [agent.choose(observe(game, st)) for agent in agents for _ in range(2)]
        assert picks[0] == picks[2] and picks[1] == picks[3]
        for agent in agents:
            agent.close()


@pytest.mark.parametrize("widening, iterations, tried", [
    (0.0, 8, 8),   # without widening every option is tried once before any is tried again
    # ceil(sqrt(n + 1)) options take part after n visits: 1 at the first iteration, 2 from the
    # second (n = 1), 3 from the fifth (n = 4), 4 from the tenth (n = 9)
    (1.0, 8, 3),
    (1.0, 10, 4),
    (2.0, 8, 6),   # ceil(2 sqrt(n + 1)): 2, 3, 4, 4, 5, 5, 6, 6 after n = 0..7
])
def test_progressive_widening_tries_options_as_the_visits_grow(widening, iterations, tried):
    game = game_of("goofspiel", 2)  # 13 cards: 13 bids at the first decision
    st = game.start(0)
    observation = observe(game, st)
    assert len(observation.options) == 13
    table = _Search(0.7, widening).root(game, observation.determinize, 0, random.Random(5), iterations)
    assert sum(1 for entry in table.values() if entry[0] > 0) == tried


# ---- the benchmark's interval --------------------------------------------------------------------

def _bench_tool():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "tools" / "bots.py"
    spec = importlib.util.spec_from_file_location("bots_tool", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bots_tool"] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rate, games, low, high", [
    (0.5, 100, 0.4038, 0.5962),    # the textbook Wilson interval of 50 successes in 100
    (0.0, 10, 0.0, 0.2775),        # z^2 / (n + z^2) = 3.8415 / 13.8415
    (1.0, 10, 0.7225, 1.0),
])
def test_benchmark_interval_is_wilsons(rate, games, low, high):
    found = _bench_tool().wilson(rate, games)
    assert found == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_bots_tool_ratings_are_the_tournament_commands(capsys):
    """`tools/bots.py --ratings` reports, agent by agent, the ratings `snowrules tournament` gives
    for the same agents, games and seed (one game per seating of 3 agents round 3 seats)."""
    assert _bench_tool().main(["--ratings", "--ruleset", "goofspiel", "--games", "1", "--iterations", "2",
                               "--samples", "1", "--json"]) == 0
    tool = {row["agent"]: (row["mu"], row["low"], row["high"]) for row in json.loads(capsys.readouterr().out)}
    assert main(["tournament", "goofspiel", "--players", "3", "--games", "1", "--json",
                 "--agents", "random,mcts:iterations=2,greedy:samples=1"]) == 0
    command = {row["agent"]: (round(row["mu"], 2), round(row["low"], 2), round(row["high"], 2))
               for row in json.loads(capsys.readouterr().out)["ratings"]}
    assert tool == command and sorted(tool) == ["greedy:samples=1", "mcts:iterations=2", "random"]


@pytest.mark.parametrize("workers", [1, 2])
def test_bots_tool_speed_counts_the_bots_decisions(workers):
    """Two-player Goofspiel has 13 cards: the bot is asked 12 bids a game (the last card is played
    without asking: one legal option), whatever the number of searching processes."""
    row = _bench_tool().speed("goofspiel", 2, 4, workers, 2)
    assert (row["decisions"], row["workers"]) == (24, workers)
    assert row["per_cpu_second"] == pytest.approx(24 / row["cpu_seconds"], rel=0.05)
    assert row["per_wall_second"] == pytest.approx(24 / row["wall_seconds"], rel=0.05)


SOLO = """game "Solo"
counter score per player from 0 to 9 initially 0
each turn:
    let you = first(players)
    ask you to choose n from [0, 3]:
        add n to you.score
    end game winners players
"""


@pytest.mark.parametrize("returns, chosen", [
    # without returns the win (always) says nothing: every option ties, the first is kept
    ("", 0),
    # with returns the reward is the score scaled by min and max: taking 3 is worth 1, 0 worth 0
    ("returns: {value: p.score, min: \"0\", max: \"3\"}\n", 1),
])
def test_mcts_in_a_solo_game_plays_for_the_declared_return(tmp_path, returns, chosen):
    from conftest import ruleset_folder
    folder = ruleset_folder(tmp_path, SOLO, "schema: token_list.schema.json\ncomponents: []\n", players=(1, 1))
    with (folder / "ruleset.yaml").open("a") as manifest:
        manifest.write('action_ids: {distinct: "4"}\n' + returns)
    game = Game(load_program(str(folder), None, 1))
    assert MctsAgent(seed=1, iterations=40).choose(observe(game, game.start(0))) == chosen
