"""Goofspiel and Oh Hell, written as rulesets, against OpenSpiel's own implementations; and every
bundled ruleset handed to OpenSpiel's tests through the adapter."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402
from openspiel_crosscheck import crosscheck, crosscheck_tree, games  # noqa: E402
from snowrules.adapters.openspiel import load_game  # noqa: E402
from snowrules.language.diagnostics import SnowrulesError  # noqa: E402
from snowrules.load.ruleset import bundled_names, load_ruleset  # noqa: E402

# (OpenSpiel game, parameters, seeds): every parameter OpenSpiel has for the game is varied.
PARAMETER_SETS = [
    ("goofspiel", {}, 1000),
    ("goofspiel", {"players": 3, "num_cards": 5, "returns_type": "point_difference"}, 1000),
    ("goofspiel", {"players": 4, "num_cards": 6, "points_order": "ascending", "returns_type": "total_points"}, 1000),
    ("goofspiel", {"players": 2, "num_cards": 8, "points_order": "descending"}, 1000),
    ("goofspiel", {"players": 5, "num_cards": 4}, 1000),
    ("goofspiel", {"players": 2, "num_cards": 1}, 10),
    ("oh_hell", {}, 1000),
    ("oh_hell", {"players": 4, "num_suits": 2, "num_cards_per_suit": 4}, 1000),
    ("oh_hell", {"players": 5, "num_tricks_fixed": 3, "off_bid_penalty": True, "points_per_trick": 2}, 1000),
    ("oh_hell", {"players": 7, "num_suits": 3, "num_cards_per_suit": 5}, 1000),
    ("oh_hell", {"players": 6, "num_suits": 4, "num_cards_per_suit": 7, "num_tricks_fixed": 1}, 1000),
    ("oh_hell", {"players": 3, "num_suits": 1, "num_cards_per_suit": 13, "off_bid_penalty": True}, 1000),
]


def _id(case) -> str:
    name, params, seeds = case
    return name + "".join(f"-{k}={v}" for k, v in params.items()) + f"-x{seeds}"


@pytest.mark.parametrize("case", PARAMETER_SETS, ids=_id)
def test_same_game_as_openspiel_move_by_move(case):
    """OpenSpiel plays at random; each action goes to both games; at every node the player to
    move, the legal actions and the chance outcomes must agree, and at the end the returns."""
    name, params, seeds = case
    theirs, ours = games(name, name, params)
    nodes = sum(crosscheck(theirs, ours, seed) for seed in range(seeds))
    assert nodes >= seeds  # every game had at least one node compared


# Small enough to walk every node of the game tree (every chance outcome, every joint action).
WHOLE_TREES = [
    ("goofspiel", {"players": 2, "num_cards": 3}),
    ("goofspiel", {"players": 3, "num_cards": 3, "points_order": "ascending", "returns_type": "point_difference"}),
    ("goofspiel", {"players": 2, "num_cards": 4, "returns_type": "total_points"}),
    ("oh_hell", {"players": 3, "num_suits": 2, "num_cards_per_suit": 2}),
    ("oh_hell", {"players": 3, "num_suits": 2, "num_cards_per_suit": 3, "off_bid_penalty": True}),
    ("oh_hell", {"players": 3, "num_suits": 1, "num_cards_per_suit": 5, "num_tricks_fixed": 1}),
]


@pytest.mark.parametrize("case", [(n, p, 1) for n, p in WHOLE_TREES], ids=_id)
def test_same_whole_game_tree_as_openspiel(case):
    name, params, _ = case
    assert crosscheck_tree(*games(name, name, params)) > 200


class Skewed(policy.Policy):
    """Favours high action ids, the more so the later the seat, whatever it sees: every seat
    plays differently, so equal values cannot come from symmetry."""

    def __init__(self, game):
        super().__init__(game, list(range(game.num_players())))

    def action_probabilities(self, state, player_id=None):
        player = state.current_player() if player_id is None else player_id
        legal = state.legal_actions(player)
        weights = [(a + 1) ** (player + 1) for a in legal]
        return {a: w / sum(weights) for a, w in zip(legal, weights)}


@pytest.mark.parametrize("name, params", [("goofspiel", {"players": 3, "num_cards": 3}),
                                          ("oh_hell", {"players": 3, "num_suits": 2, "num_cards_per_suit": 2})])
def test_openspiel_computes_the_same_expected_returns_on_both(name, params):
    """OpenSpiel's expected_game_score walks the whole tree under a policy: the same values."""
    values = []
    for game in games(name, name, params):
        skewed = Skewed(game)
        simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        values.append(expected_game_score.policy_value(game.new_initial_state(),
                                                       skewed if simultaneous else [skewed] * game.num_players()))
    assert values[0] == pytest.approx(values[1], abs=1e-12)
    assert len(set(round(v, 9) for v in values[0])) == len(values[0])  # the seats' values differ


def test_openspiel_cfr_sees_the_same_information_sets_and_values():
    """A CFR iteration on a small Oh Hell: as many information sets as OpenSpiel's own game (our
    information state strings split the states as OpenSpiel's do), and the same NashConv."""
    found = []
    for game in games("oh_hell", "oh_hell", {"players": 3, "num_suits": 2, "num_cards_per_suit": 2}):
        solver = cfr.CFRSolver(game)
        solver.evaluate_and_update_policy()
        average = solver.average_policy()
        found.append((len(average.state_lookup), exploitability.nash_conv(game, average)))
    assert found[0][0] == found[1][0]
    assert found[0][1] == pytest.approx(found[1][1], abs=1e-9)


@pytest.mark.parametrize("case", PARAMETER_SETS, ids=_id)
def test_same_game_facts_as_openspiel(case):
    name, params, _ = case
    theirs, ours = games(name, name, params)
    for fact in ("num_distinct_actions", "max_chance_outcomes", "num_players", "max_game_length",
                 "min_utility", "max_utility"):
        assert getattr(ours, fact)() == getattr(theirs, fact)(), fact
    assert ours.get_type().dynamics == theirs.get_type().dynamics
    assert ours.get_type().utility == theirs.get_type().utility
    if theirs.get_type().utility in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        assert ours.utility_sum() == theirs.utility_sum()


def test_oh_hell_cards_are_named_and_numbered_as_openspiel_does():
    theirs, ours = games("oh_hell", "oh_hell", {})
    a, b = theirs.new_initial_state(), ours.new_initial_state()
    for action in (5, 1):  # five tricks, player 1 deals
        a.apply_action(action)
        b.apply_action(action)
    assert [a.action_to_string(x) for x in a.legal_actions()] == [b.action_to_string(x) for x in b.legal_actions()]


def test_a_hand_checked_oh_hell_game_scores_as_in_openspiel():
    """The deal of the follow_suit_and_trump scenario, by OpenSpiel ids (card = rank x 4 + suit;
    suits C D S H): p0 gets CA D3, p1 C2 H2, p2 D4 CK; H5 trump; bids 1 0 0 (52 + bid); plays."""
    actions = [2, 2, 48, 0, 9, 5, 3, 44, 15, 53, 52, 52, 48, 0, 44, 5, 3, 9]
    for params, expected in (({}, [11, 1, 10]), ({"off_bid_penalty": True, "points_per_trick": 2}, [12, -2, 10])):
        for game in games("oh_hell", "oh_hell", {"num_tricks_fixed": 2, **params}):
            state = game.new_initial_state()
            for action in actions:
                state.apply_action(action)
            assert state.is_terminal()
            assert state.returns() == expected


def test_goofspiel_returns_by_hand():
    """Ascending, 3 cards, 3 players. Turn 1 (1 point): 3, 2, 1 - p0 +1. Turn 2 (2 points): 1, 3, 3
    - a tie, discarded. Turn 3, played without asking: 2, 1, 2 - a tie, discarded. Points 1 0 0."""
    expected = {"win_loss": [1.0, -0.5, -0.5], "point_difference": [2 / 3, -1 / 3, -1 / 3],
                "total_points": [1.0, 0.0, 0.0]}
    for returns_type, values in expected.items():
        game = load_game("goofspiel", players=3, num_cards=3, points_order="ascending", returns_type=returns_type)
        state = game.new_initial_state()
        state.apply_actions([2, 1, 0])
        state.apply_actions([0, 2, 2])
        assert state.is_terminal()
        assert state.returns() == pytest.approx(values)


def _bundled_configurations():
    found = []
    for name in bundled_names():
        ruleset = load_ruleset(name)
        found.append((name, {}))  # its fewest players, the adapter's default
        if ruleset.max_players != ruleset.min_players:  # else the same game as the default's
            found.append((name, {"players": ruleset.max_players}))
        for variant in ruleset.variants:
            found.append((name, {"variant": variant, "players": load_ruleset(name, variant).min_players}))
    return found


def _config_id(config) -> str:
    return config[0] + "".join(f"-{v}" for v in config[1].values())


@pytest.mark.parametrize("config", _bundled_configurations(), ids=_config_id)
def test_openspiel_random_sim_test_passes_on_every_bundled_ruleset(config):
    name, params = config
    pyspiel.random_sim_test(load_game(name, **params), num_sims=2, serialize=True, verbose=False)


def test_a_bundled_ruleset_loads_by_its_openspiel_name():
    load_game("snow_time")  # registers it
    game = pyspiel.load_game("snowrules_snow_time", {"players": 3})
    assert game.num_players() == 3
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_an_unknown_parameter_is_refused_with_the_known_ones():
    with pytest.raises(SnowrulesError, match="no parameter 'num_card'.*num_cards"):
        load_game("goofspiel", num_card=5)


def test_an_illegal_action_is_refused():
    state = load_game("goofspiel", num_cards=4, points_order="ascending").new_initial_state()
    with pytest.raises(Exception, match="not legal"):
        state.apply_actions([0, 7])


def test_parameters_openspiel_refuses_are_refused():
    params = {"players": 3, "num_suits": 1, "num_cards_per_suit": 3}  # 3 cards: none left for trump
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("oh_hell", params)
    with pytest.raises(SnowrulesError, match="a card for each player and one to turn up as trump"):
        load_game("oh_hell", **params)


def test_too_many_fixed_tricks_are_refused_where_openspiel_gets_stuck():
    """OpenSpiel documents num_tricks_fixed as at most (cards - 1) / players, but its check
    compares the number with itself: with 7 players and 8 tricks it deals 52 cards and then
    waits at a chance node with no outcome. The ruleset's constraint refuses the parameters."""
    state = pyspiel.load_game("oh_hell", {"players": 7, "num_tricks_fixed": 8}).new_initial_state()
    while state.is_chance_node() and state.chance_outcomes():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node() and state.chance_outcomes() == []
    with pytest.raises(SnowrulesError, match="must leave a card to turn up as trump"):
        load_game("oh_hell", players=7, num_tricks_fixed=8)


# --- a manifest's ids and returns that cannot work are reported at their line ---------------------

GOOFSPIEL = Path(__file__).resolve().parent.parent / "rulesets" / "goofspiel"


def _goofspiel_copy(tmp_path, old: str, new: str) -> tuple[str, int, int]:
    """A copy of goofspiel with one manifest line changed: (folder, line, column of `new`)."""
    return _ruleset_copy(tmp_path, GOOFSPIEL, old, new)


def _ruleset_copy(tmp_path, original: Path, old: str, new: str) -> tuple[str, int, int]:
    """A copy of a ruleset with one manifest line changed: (folder, line, column of `new`'s value)."""
    folder = tmp_path / "copy"
    shutil.copytree(original, folder)
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text()
    assert text.count(old) == 1
    manifest.write_text(text.replace(old, new))
    line = next(i for i, x in enumerate(manifest.read_text().splitlines(), 1) if new.strip() in x)
    return str(folder), line, manifest.read_text().splitlines()[line - 1].index(new.strip().split(": ", 1)[-1]) + 1


@pytest.mark.parametrize("new, message, at_the_decision", [
    ("choice: {component: it.value + 99}", "the id of 'p0 bid 1' is 100, not one of 0..12", False),
    ("choice: {component: 0 * it.value}", "the same action id", True),
])
def test_an_id_that_cannot_work(tmp_path, new, message, at_the_decision):
    """Components offered in play: reported at the manifest's id, or (two options with one id) at
    the decision in rules.sr. (An id reading the state is refused before: see the validate table.)"""
    folder, line, _ = _goofspiel_copy(tmp_path, "choice: {component: it.value - 1}", new)
    state = load_game(folder, points_order="ascending").new_initial_state()
    with pytest.raises(SnowrulesError) as error:
        state.legal_actions(0)
    assert message in str(error.value)
    where = "rules.sr:" if at_the_decision else f"ruleset.yaml:{line}:"
    assert str(error.value).startswith(f"{folder}/{where}")


def test_a_return_dividing_by_zero(tmp_path):
    folder, line, col = _goofspiel_copy(tmp_path, "  value: payoff(p)", "  value: ratio(1, player_count - 2)")
    state = load_game(folder, num_cards=1).new_initial_state()
    state.apply_action(0)
    state.apply_actions([0, 0])
    with pytest.raises(SnowrulesError, match=f"ruleset.yaml:{line}:{col}: error: a division by zero"):
        state.returns()


def test_a_count_that_is_not_a_whole_number(tmp_path):
    folder, line, col = _goofspiel_copy(tmp_path, "  distinct: num_cards", "  distinct: num_cards - 20")
    with pytest.raises(SnowrulesError, match=f"ruleset.yaml:{line}:{col}: error: a count must be a whole number"):
        load_game(folder)


# --- perfect recall: a seat remembers what it saw, even once it is overwritten -------------------

RULESETS = Path(__file__).resolve().parent / "rulesets"


def test_cfr_finds_the_information_sets_of_a_player_who_remembers():
    """The shower sets the public `shown` to 1 or 2 (one information set), then resets it to 0
    (two: it knows what it chose), then the guesser names the number (two: it saw `shown` change
    to 1 or to 2). A guesser that only sees the present would have one: 4 sets instead of 5."""
    game = load_game(str(RULESETS / "recall"))
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    assert len(solver.average_policy().state_lookup) == 5


def test_an_information_state_is_the_seats_observations_in_order():
    game = load_game(str(RULESETS / "recall"))
    state = game.new_initial_state()
    state.apply_action(1)  # shows 2
    state.apply_action(0)  # resets to 0
    rules = "rules.sr"  # as the ruleset's folder is shown, which depends on where the tests run

    def notes(player: int) -> list[str]:
        lines = state.information_state_string(player).splitlines()
        return [re.sub(r"\S*/rules\.sr", "rules.sr", line) for line in lines]

    assert notes(1) == [
        'saw zones.box={"count": 0}; counters.turn=1; variables.shown=0',
        "saw variables.shown=2",
        "saw variables.shown=0",
        f'asked at {rules}:13:9: ["1", "2"]']
    assert notes(0)[1:] == [
        f'asked at {rules}:8:5: ["1", "2"]', "chose 2", "saw variables.shown=2",
        f'asked at {rules}:10:9: ["0"]', "chose 0", "saw variables.shown=0"]
    # Without recall, the guesser sees only the present: `shown` is 0 whatever was shown.
    other = game.new_initial_state()
    other.apply_action(0)
    other.apply_action(0)
    assert other.observation_string(1) == state.observation_string(1)
    assert other.information_state_string(1) != state.information_state_string(1)


# --- text options with declared ids: Pig, from OpenSpiel's pig.cc -----------------------------------

PIG = str(RULESETS / "pig")
PIG_PARAMETERS = [({}, 100), ({"players": 3, "winscore": 20, "diceoutcomes": 4, "horizon": 30}, 300),
                  ({"horizon": 7, "winscore": 10}, 300), ({"players": 10, "winscore": 12}, 100)]


@pytest.mark.parametrize("params, seeds", PIG_PARAMETERS, ids=[str(p) for p, _ in PIG_PARAMETERS])
def test_pig_is_openspiels_pig_move_by_move(params, seeds):
    theirs, ours = games("pig", PIG, params)
    assert sum(crosscheck(theirs, ours, seed) for seed in range(seeds)) >= seeds


def test_a_text_option_gets_its_declared_id_even_alone():
    """`value: '0 if it == "roll" else 1'`: roll is 0 and stop is 1, also when stop is the only
    legal option (a turn total at the winning score), where its position would be 0."""
    state = load_game(PIG, winscore=3).new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["roll", "stop"]
    assert state.legal_actions() == [0, 1]
    state.apply_action(0)  # roll
    assert state.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    state.apply_action(2)  # a 3: the turn total reaches the winning score
    assert state.legal_actions() == [1]
    assert state.action_to_string(1) == "stop"
    state.apply_action(1)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


# --- a declared utility: Kuhn poker, from OpenSpiel's kuhn_poker.py --------------------------------

KUHN = str(RULESETS / "kuhn_poker")


@pytest.mark.parametrize("openspiel_name", ["kuhn_poker", "python_kuhn_poker"])
def test_kuhn_poker_is_openspiels_move_by_move(openspiel_name):
    import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
    theirs, ours = games(openspiel_name, KUHN, {})
    assert crosscheck_tree(theirs, ours) == 58  # 1 + 3 deals + 6 deals + 6 x 8 betting nodes
    assert sum(crosscheck(theirs, ours, seed) for seed in range(100)) >= 100


def test_exploitability_runs_on_a_zero_sum_ruleset():
    """Uniform play in Kuhn poker is exploitable by 11/24 (NashConv 11/12: a best response
    wins 1/2 as the first player and 4/3 as the second, against -1/12 and 1/12 at uniform play);
    ten CFR iterations give both games the same 12 information sets and the same exploitability."""
    theirs, ours = games("kuhn_poker", KUHN, {})
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and ours.utility_sum() == 0.0
    assert exploitability.exploitability(ours, policy.UniformRandomPolicy(ours)) == pytest.approx(11 / 24)
    found = []
    for game in (theirs, ours):
        solver = cfr.CFRSolver(game)
        for _ in range(10):
            solver.evaluate_and_update_policy()
        found.append((len(solver.average_policy().state_lookup),
                      exploitability.exploitability(game, solver.average_policy())))
    assert found[1][0] == found[0][0] == 12
    assert found[1][1] == pytest.approx(found[0][1], abs=1e-12)


def _returns_hold_their_utility(game, seeds: int) -> int:
    """Random playouts: every terminal's returns within the bounds and adding up as the declared
    utility says. The number of games checked."""
    utility = game.get_type().utility
    kinds = pyspiel.GameType.Utility
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=weights)))
            elif state.is_simultaneous_node():
                state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())])
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert all(game.min_utility() - 1e-9 <= r <= game.max_utility() + 1e-9 for r in returns), returns
        if utility in (kinds.ZERO_SUM, kinds.CONSTANT_SUM):
            assert sum(returns) == pytest.approx(game.utility_sum(), abs=1e-9), returns
        if utility == kinds.IDENTICAL:
            assert len(set(returns)) == 1, returns
    return seeds


UTILITY_CASES = [
    (KUHN, {}, "ZERO_SUM"), (PIG, {"winscore": 15}, "ZERO_SUM"), (str(RULESETS / "recall"), {}, "ZERO_SUM"),
    ("goofspiel", {"num_cards": 4, "players": 3}, "ZERO_SUM"),
    ("goofspiel", {"num_cards": 4, "returns_type": "point_difference"}, "ZERO_SUM"),
    ("goofspiel", {"num_cards": 4, "returns_type": "total_points"}, "GENERAL_SUM"),
    ("oh_hell", {"num_suits": 2, "num_cards_per_suit": 4}, "GENERAL_SUM"),
    ("snow_time", {"players": 3}, "ZERO_SUM"), ("snowy_tricks", {"players": 4}, "ZERO_SUM"),
]


@pytest.mark.parametrize("name, params, utility", UTILITY_CASES,
                         ids=[f"{n.split('/')[-1]}{p}" for n, p, _ in UTILITY_CASES])
def test_returns_add_up_as_the_declared_utility_says(name, params, utility):
    """Without `returns` the winners share +1 and the others -1: zero-sum. Goofspiel declares
    zero-sum except with total points, as OpenSpiel's GoofspielGame does."""
    game = load_game(name, **params)
    assert game.get_type().utility == getattr(pyspiel.GameType.Utility, utility)
    assert _returns_hold_their_utility(game, 20 if name in ("snow_time", "snowy_tricks") else 200)


# --- validate reports ids and utilities that cannot work, at their manifest line -----------------

PIG_VALUE = """choice: {value: '0 if it == "roll" else 1'}"""
# (ruleset, old manifest text, new, message, where: the text the message points at in the
# manifest, or None when it points at the decision in rules.sr)
ID_MISTAKES = [
    ("pig", PIG_VALUE, "choice: {value: '0 + 0'}",
     "two options of the decision at {rules}:16:13 have the id 0: 'roll' and 'stop'", "0 + 0"),
    ("pig", 'distinct: "2"', 'distinct: "1"', "the id of 'stop' is 1, not one of 0..0", '0 if it == "roll"'),
    ("pig", "chance: {value: it - 1}", "chance: {value: it}", "the id of '6' is 6, not one of 0..5", "it}"),
    ("pig", "chance: {value: it - 1}", "chance: {value: it - 1 + decisions}",
     "this expression cannot be worked out without the game's state", "it - 1 + decisions"),
    ("pig", PIG_VALUE, """choice: {value: '"roll"'}""", "an action id or count must be a number, not a text",
     '"roll"\'}'),
    ("pig", "max_game_length: horizon", "max_game_length: 0 - horizon", "a count must be a whole number, not -1000",
     "0 - horizon"),
    ("goofspiel", "choice: {component: it.value - 1}", "choice: {component: size(point_deck)}",
     "this expression cannot be worked out without the game's state", "size(point_deck)"),
    ("goofspiel", "distinct: num_cards", "distinct: num_cards - 20", "a count must be a whole number, not -7",
     "num_cards - 20"),
    ("oh_hell", "player: seat_number(it)", "player: 0 * seat_number(it)", "two seats have the id 0: 'p0' and 'p1'",
     "0 * seat_number(it)"),
    ("recall", 'distinct: "2"', 'chance_outcomes: "2"', "2 options here, more than the 1 ids the game has", None),
    ("recall", 'distinct: "2"', 'choice: {value: "it - 1"}', "the id of '0' is -1, not one of 0..0", "it - 1"),
    ("pig", "utility: zero-sum", "utility: '\"zero_sum\"'",
     "the utility is 'zero_sum', not one of zero-sum, constant-sum, general-sum, identical", '"zero_sum"'),
    ("pig", "utility: zero-sum", "utility: constant-sum", "a constant-sum game needs `sum:`", "constant-sum"),
    ("pig", "utility: zero-sum", "utility: 'size(players)'", "a utility must be a text, not a number", "size(players)"),
    ("pig", "utility: zero-sum", """utility: '"zero-sum" if decisions > 0 else "identical"'""",
     "a utility may use only constants, options and player_count", '"zero-sum" if'),
]


def _mistake_id(case) -> str:
    return f"{case[0]}:{case[2]}"


@pytest.mark.parametrize("name, old, new, message, where", ID_MISTAKES, ids=[_mistake_id(c) for c in ID_MISTAKES])
def test_validate_reports_an_id_or_utility_that_cannot_work(tmp_path, monkeypatch, capsys, name, old, new, message,
                                                           where):
    from snowrules.cli.main import main
    original = GOOFSPIEL.parent / name if name in ("goofspiel", "oh_hell") else RULESETS / name
    folder, _, _ = _ruleset_copy(tmp_path, original, old, new)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "copy"]) == 1
    message = message.format(rules="copy/rules.sr")
    reported = [x for x in capsys.readouterr().out.splitlines() if message in x]
    if where is None:  # at each decision that has too many options
        assert [x.split(": error")[0] for x in reported] == ["copy/rules.sr:8:5", "copy/rules.sr:13:9"]
        return
    assert len(reported) == 1, reported
    lines = (tmp_path / "copy" / "ruleset.yaml").read_text().splitlines()
    line = next(i for i, x in enumerate(lines, 1) if where in x)
    assert reported[0].startswith(f"copy/ruleset.yaml:{line}:{lines[line - 1].index(where) + 1}: error: ")


def test_a_constant_sum_game_reports_its_sum(tmp_path):
    """Kuhn poker with 2 added to every return: the returns add up to 4, and a best response
    gains as much as in the zero-sum game (11/24 against uniform play)."""
    folder = tmp_path / "kuhn"
    shutil.copytree(RULESETS / "kuhn_poker", folder)
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text()
    for old, new in (("'stake() if p == winner() else 0 - stake()'", "'2 + stake() if p == winner() else 2 - stake()'"),
                     ('min: "-2"', 'min: "0"'), ('max: "2"', 'max: "4"'),
                     ("utility: zero-sum", 'utility: constant-sum\n  sum: "4"')):
        assert text.count(old) == 1
        text = text.replace(old, new)
    manifest.write_text(text)
    game = load_game(str(folder))
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 4.0
    assert _returns_hold_their_utility(game, 100)
    assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) == pytest.approx(11 / 24)
