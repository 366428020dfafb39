"""Free actions (issue 12): declared once, offered beside the normal options of a player's
decisions while allowed, re-asking the decision after each one.

Most tests play tests/rulesets/free_actions (rules.sr there): each seat has pieces a, b, c (a
ready, b and c on the bench) and 5 coins; in the main phase each places one ready piece; "buy a
point" (2 coins, main only), "ready" (one option per benched piece, main only) and "trade" (3
coins and a placed piece, any phase) are its free actions. Expected values are worked out by hand
from those rules in each test's comments.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import play_checked, round_trip, ruleset_folder
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.model.events import Chosen
from snowrules.model.state import State
from snowrules.play.agents import FirstAgent, RandomAgent, play
from snowrules.play.greedy import GreedyAgent
from snowrules.play.mcts import MctsAgent
from snowrules.records.scenarios import run_scenario
from snowrules.runtime.engine import Game

PROBE = Path(__file__).resolve().parent / "rulesets" / "free_actions"


def probe() -> Game:
    return Game(load_program(str(PROBE), None, 2))


def labels(game: Game, st: State) -> list[str]:
    return game.option_labels(st, st.pending.options[0])


def choose(game: Game, st: State, label: str) -> None:
    """Answer the pending decision with the option that reads `label`."""
    game.answer(st, [labels(game, st).index(label)])


def count(game: Game, st: State, label: str) -> int:
    return st.counters[game.layout.counter_labels.index(label)]


def zone(game: Game, st: State, label: str) -> list[str]:
    index = [z.label(game.layout.seat_names) for z in game.layout.zones].index(label)
    return [game.layout.component_names[c] for c in st.zones[index]]


# ---- offering ----------------------------------------------------------------------------------
def test_a_free_action_taken_twice_then_the_placement():
    game = probe()
    st = game.start(1)
    # Ann's placing decision: her one ready piece, then the free actions allowed in `main`.
    assert labels(game, st) == ["Ann a", "free: buy a point", "free: ready (Ann b)", "free: ready (Ann c)"]
    choose(game, st, "free: buy a point")        # 5 - 2 = 3 coins, 1 point
    assert st.pending.rule.endswith("rules.sr:34:13")  # the same decision, asked again
    choose(game, st, "free: buy a point")        # 3 - 2 = 1 coin, 2 points
    # 1 coin: "buy a point" is no longer offered; "ready" still is
    assert labels(game, st) == ["Ann a", "free: ready (Ann b)", "free: ready (Ann c)"]
    choose(game, st, "Ann a")
    assert (count(game, st, "Ann.coins"), count(game, st, "Ann.score")) == (1, 2)
    assert zone(game, st, "Ann.placed") == ["Ann a"]
    assert game.layout.seat_names[st.pending.seats[0]] == "Bob"


def test_a_free_action_changes_the_options_of_the_decision_it_interrupts():
    game = probe()
    st = game.start(1)
    choose(game, st, "free: ready (Ann c)")      # c joins the ready pieces, on top of a
    assert labels(game, st) == ["Ann a", "Ann c", "free: buy a point", "free: ready (Ann b)"]
    choose(game, st, "free: ready (Ann b)")
    assert labels(game, st) == ["Ann a", "Ann c", "Ann b", "free: buy a point"]
    choose(game, st, "Ann b")
    assert zone(game, st, "Ann.placed") == ["Ann b"] and zone(game, st, "Ann.ready") == ["Ann a", "Ann c"]


def test_a_free_action_is_offered_only_in_its_phases_and_a_one_option_decision_is_then_asked():
    game = probe()
    st = game.start(1)
    choose(game, st, "Ann a")
    choose(game, st, "Bob a")
    # Scoring: Ann's bonus has one option ([1]) and she may trade (5 coins, a placed piece): asked.
    # "buy a point" is for the main phase only, though she has 5 coins.
    assert st.phase == ("scoring",)
    assert labels(game, st) == ["1", "free: trade"]
    choose(game, st, "1")
    # `offer free actions to Ann`: "done" and the free actions allowed in scoring
    assert labels(game, st) == ["done", "free: trade"]
    choose(game, st, "done")
    assert game.layout.seat_names[st.pending.seats[0]] == "Bob"


def test_a_one_option_decision_without_free_actions_is_taken_at_once():
    game = probe()
    st = game.start(1)
    choose(game, st, "free: buy a point")
    choose(game, st, "free: buy a point")
    choose(game, st, "Ann a")                    # Ann keeps 1 coin: she can never trade
    choose(game, st, "Bob a")
    # Ann's bonus [1] and her offer are skipped; Bob (5 coins) is asked his bonus beside trade
    assert game.layout.seat_names[st.pending.seats[0]] == "Bob" and labels(game, st) == ["1", "free: trade"]
    assert count(game, st, "Ann.score") == 3     # 2 bought + the bonus of 1 placed piece


def test_a_free_action_that_asks_then_re_asks_the_decision_with_fresh_options():
    game = probe()
    st = game.start(1)
    choose(game, st, "Ann a")
    choose(game, st, "Bob a")
    choose(game, st, "free: trade")              # its own decision has one option (Ann a): taken
    # back on the bench, 2 coins: no trade; the bonus is now size(placed) = 0, the only option
    # with no free action beside it, so it is taken and the offer is skipped: Bob's turn.
    assert zone(game, st, "Ann.bench") == ["Ann b", "Ann c", "Ann a"]
    assert (count(game, st, "Ann.coins"), count(game, st, "Ann.trades"), count(game, st, "Ann.score")) == (2, 1, 0)
    assert game.layout.seat_names[st.pending.seats[0]] == "Bob"


def test_the_probe_scenario_chooses_free_actions_by_their_labels():
    result = run_scenario(PROBE / "scenarios" / "buy_twice_then_place.yaml", str(PROBE))
    assert result.passed, result


# ---- state as data -----------------------------------------------------------------------------
def finish(game: Game, st: State) -> tuple:
    while st.result is None:
        game.answer(st, [len(st.pending.options[0]) - 1])  # the last option: free actions first
    return game.outcome(st), st.to_json()


def test_a_state_at_a_re_asked_decision_clones_and_round_trips_through_json():
    game = probe()
    st = game.start(1)
    choose(game, st, "free: buy a point")
    copy, read = st.clone(), State.from_json(st.to_json())
    assert read == st and labels(game, read) == labels(game, st)
    expected = finish(game, st)
    assert finish(game, copy) == expected and finish(game, read) == expected


INSIDE = """zone hand per player public
zone table per player public
counter coins per player from 0 initially 3
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
free action "swap" for p when p.coins > 0:
    ask p to choose card from p.hand:
        move card to p.table
    subtract 1 from p.coins
each turn:
    ask first(players) to choose card from first(players).hand:
        move card to first(players).table
    end game
"""


CARDS = ("schema: token.schema.json\nper_seat: true\ncomponents:\n  - {name: x, kind: card}\n"
         "  - {name: y, kind: card}\n  - {name: z, kind: card}\n")
VALUED = ("schema: card.schema.json\nper_seat: true\ncomponents:\n  - {name: x, value: 1}\n"
          "  - {name: y, value: 2}\n  - {name: z, value: 6}\n")
CARD_SCHEMA = '{"type": "object", "required": ["name", "value"], "additionalProperties": false, ' \
    '"properties": {"name": {"type": "string"}, "value": {"type": "integer"}}}'


def folder(tmp_path: Path, rules: str, cards: str = CARDS) -> Path:
    """A two-seat ruleset: three cards per seat, x, y, z (`cards` may give them values)."""
    return ruleset_folder(tmp_path, rules, cards, file="cards", schema=CARD_SCHEMA, schema_file="card.schema.json")


def small(tmp_path: Path, rules: str, cards: str = CARDS) -> Game:
    return Game(compile_ruleset(load_ruleset(str(folder(tmp_path, rules, cards))), 2))


def test_a_decision_inside_a_free_action_offers_none_and_round_trips(tmp_path):
    game = small(tmp_path, INSIDE)
    st = game.start(1)
    assert labels(game, st) == ["seat 1 x", "seat 1 y", "seat 1 z", "free: swap"]
    choose(game, st, "free: swap")
    # inside "swap": its own decision offers no free action, though 3 coins would allow one
    assert labels(game, st) == ["seat 1 x", "seat 1 y", "seat 1 z"]
    read = State.from_json(st.to_json())
    copy = st.clone()
    for state in (st, read, copy):
        choose(game, state, "seat 1 y")
        # back at the turn's decision: y is on the table, 2 coins
        assert labels(game, state) == ["seat 1 x", "seat 1 z", "free: swap"]
        choose(game, state, "seat 1 z")
    assert st.to_json() == read.to_json() == copy.to_json()
    assert zone(game, st, "seat 1.table") == ["seat 1 y", "seat 1 z"] and count(game, st, "seat 1.coins") == 2


OPTIONAL = """zone hand per player public
zone table per player public
counter coins per player from 0 initially 1
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
free action "tip" for p when p.coins > 0:
    subtract 1 from p.coins
each turn:
    ask first(players) to optionally choose card from first(players).hand:
        move card to first(players).table
    else:
        announce "declined"
    ask first(players) to choose up to 1 cards from first(players).hand
    end game
"""


def test_optional_and_up_to_decisions_offer_free_actions_after_their_own_options(tmp_path):
    game = small(tmp_path, OPTIONAL)
    st = game.start(1)
    # "nothing" stays the last of the decision's own options; the free action comes after it
    assert labels(game, st) == ["seat 1 x", "seat 1 y", "seat 1 z", "nothing", "free: tip"]
    choose(game, st, "free: tip")                # 1 coin spent: no more tips
    assert labels(game, st) == ["seat 1 x", "seat 1 y", "seat 1 z", "nothing"]
    choose(game, st, "nothing")
    # `up to 1`: every choice of 1 or 0 cards, largest first; no free action is left
    assert labels(game, st) == ["[seat 1 x]", "[seat 1 y]", "[seat 1 z]", "none of them"]
    assert st.pending.how_many == 1 and count(game, st, "seat 1.coins") == 0


# ---- bounded -----------------------------------------------------------------------------------
class LastAgent:
    name = "last"

    def choose(self, observation) -> int:
        return len(observation.options) - 1


def test_a_free_action_that_never_runs_out_stops_with_a_rules_error(tmp_path):
    game = small(tmp_path, """free action "wait" for p:
    pass
each turn:
    ask first(players) to choose card from first(players).hand
    end game
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
zone hand per player public
""")
    with pytest.raises(RuntimeRulesError) as error:
        play(game, [LastAgent(), LastAgent()], 1)
    found = error.value.diagnostics[0]
    assert str(found.position).endswith("rules.sr:1:1") and found.code == "SR706", found.with_code()
    assert found.message.startswith("the free action 'wait' was taken more than 1000 times at one decision (")
    assert found.message.endswith("rules.sr:4:5)"), found.message


def test_random_playouts_end_and_every_free_action_taken_is_paid_for():
    game = probe()
    everything: set[str] = set()
    for seed in range(40):
        chosen: list[tuple[str, str]] = []

        def listen(event, chosen=chosen):
            if isinstance(event, Chosen):
                chosen.append((game.layout.seat_names[event.seat], event.label))
        st = play(game, [RandomAgent(seed), RandomAgent(seed + 1)], seed, listen=listen)
        assert st.result is not None
        for seat in ("Ann", "Bob"):  # 5 coins, less 2 a point bought and 3 a trade
            buys, trades = chosen.count((seat, "free: buy a point")), chosen.count((seat, "free: trade"))
            assert count(game, st, f"{seat}.coins") == 5 - 2 * buys - 3 * trades
        everything |= {label for _, label in chosen}
    assert {"free: buy a point", "free: ready (Ann b)", "free: trade", "done"} <= everything


def test_the_generic_invariants_hold_at_every_decision_of_the_probe():
    # conservation, counter bounds, clone and JSON round trip (through json text) at each decision,
    # re-asked decisions and decisions inside free actions included; then the same game resumed
    # from a JSON copy at every tenth decision ends the same way
    game = probe()
    for seed in range(30):
        st, choices = play_checked(game, seed)
        for cut in range(0, len(choices), 10):
            again = game.start(seed)
            for answer in choices[:cut]:
                game.answer(again, answer)
            resumed = round_trip(again)
            for answer in choices[cut:]:
                game.answer(resumed, answer)
            assert resumed.to_json() == st.to_json()


def test_played_through_games_are_the_games_stopped_at_each_decision():
    # A program with free actions played through and stopped: same outcomes.
    game = probe()
    for seed in range(5):
        fast = play(game, [RandomAgent(seed), RandomAgent(seed)], seed)
        slow = play(game, [RandomAgent(seed), RandomAgent(seed)], seed, listen=lambda event: None)
        assert game.outcome(fast) == game.outcome(slow)


def test_greedy_buys_points_while_it_can():
    # Greedy looks one step ahead at the score: buying is +1 each time, placing is 0.
    game = probe()
    chosen: list[tuple[str, str]] = []

    def listen(event):
        if isinstance(event, Chosen):
            chosen.append((game.layout.seat_names[event.seat], event.label))
    play(game, [GreedyAgent(seed=1), FirstAgent()], 1, listen=listen)
    assert chosen[:2] == [("Ann", "free: buy a point"), ("Ann", "free: buy a point")]


def test_mcts_sees_the_free_actions():
    game = probe()
    seen: list[list[str]] = []

    class Watching(MctsAgent):
        def choose(self, observation):
            seen.append([game.label(o) for o in observation.options])
            return super().choose(observation)
    play(game, [Watching(seed=1, iterations=40), FirstAgent()], 1)
    assert seen[0] == ["Ann a", "free: buy a point", "free: ready (Ann b)", "free: ready (Ann c)"]


# ---- logs, replay, OpenSpiel -------------------------------------------------------------------
def test_a_logged_game_with_free_actions_replays_identically(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["run", str(PROBE), "--seed", "3", "--log", str(log)]) == 0
    assert '"option":"free: ' in log.read_text()
    capsys.readouterr()
    assert main(["replay", str(log), "--ruleset", str(PROBE)]) == 0
    assert "identical" in capsys.readouterr().out


def test_openspiel_gives_free_actions_stable_ids():
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    game = load_game(str(PROBE), players=2)
    # 6 pieces: normal ids 0..6 (positions); then "buy a point" 7, "ready" 8..13 (one per piece
    # id), "trade" 14, "done" 15.
    assert game.num_distinct_actions() == 16
    state = game.new_initial_state()
    ids = {state.action_to_string(a): a for a in state.legal_actions()}
    assert ids["Ann a"] == 0 and ids["free: buy a point"] == 7
    names = game.program.layout.component_names          # "ready" of a piece: 8 + the piece's id
    ready_c = ids["free: ready (Ann c)"]
    assert ids["free: ready (Ann b)"] == 8 + names.index("Ann b") and ready_c == 8 + names.index("Ann c")
    state.apply_action(ids["free: ready (Ann b)"])
    again = {state.action_to_string(a): a for a in state.legal_actions()}
    assert again["free: ready (Ann c)"] == ready_c and again["free: buy a point"] == 7  # same move, same id
    state = game.new_initial_state()
    for label in ("Ann a", "Bob a", "1"):                # to Ann's offer at scoring
        state.apply_action({state.action_to_string(a): a for a in state.legal_actions()}[label])
    assert {state.action_to_string(a): a for a in state.legal_actions()} == {"done": 15, "free: trade": 14}
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


# ---- bad input ---------------------------------------------------------------------------------
BASE = """zone hand per player public
counter coins per player from 0 initially 3
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
each turn:
    phase main:
        ask first(players) to choose card from first(players).hand
    end game
"""


@pytest.mark.parametrize("rules, error_type, line, col, message", [
    ('free action "a" for p during mian:\n    pass\n', RulesetError, 10, 30,
     "no phase is named 'mian' (hint: did you mean 'main'?)"),
    ('free action "a" for p during scoring:\n    pass\n', RulesetError, 10, 30,
     "no phase is named 'scoring' (hint: the rules' phases: main)"),
    ('free action "a" for p:\n    ask each q in players secretly to choose c from q.hand:\n        pass\n',
     RulesetError, 11, 5, "a free action is taken by one player: it cannot ask a secret decision of several "
     "players (`ask each ... secretly`)"),
    ('define both():\n    ask each q in players secretly to choose c from q.hand:\n        pass\n'
     'free action "a" for p:\n    both()\n', RulesetError, 11, 5, "it cannot ask a secret decision"),
    ('free action "a" for p:\n    offer free actions to p\n', RulesetError, 11, 5,
     "free actions are not offered inside a free action"),
    ('free action "a" for p:\n    pass\nfree action "a" for p:\n    pass\n', RulesetError, 12, 1,
     "the free action 'a' is declared twice (hint: the first is at "),
    ('free action "a" for p when p.coins:\n    pass\n', RulesetError, 10, 28, "a free action's condition"),
    ('free action "a" for p, c in 3:\n    pass\n', RulesetError, 10, 29, "the items of a free action"),
    ('free actoin "a" for p:\n    pass\n', RulesetError, 10, 6, "unexpected 'actoin'"),
    ('free action "a" for p:\n    pass\nsetup:\n    offer free action to first(players)\n', RulesetError,
     13, 16, "unexpected 'action'"),
])
def test_bad_free_actions_are_reported_at_their_column(tmp_path, rules, error_type, line, col, message):
    with pytest.raises(error_type) as error:
        small(tmp_path, BASE + rules)
    text = str(error.value)
    assert f"rules.sr:{line}:{col}: error:" in text and message in text, text


def test_offering_free_actions_when_none_is_declared_is_an_error(tmp_path):
    with pytest.raises(RulesetError) as error:
        small(tmp_path, BASE.replace("    end game\n", "    offer free actions to first(players)\n    end game\n"))
    assert "rules.sr:9:5: error: no free action is declared: there is nothing to offer" in str(error.value)


NESTED = """zone hand per player public
setup:
    for each p in players:
        move [each c in box where c.owner == p] to p.hand
free action "outer" for p during main:
    pass
free action "inner" for p during sub:
    pass
each turn:
    phase main:
        phase sub:
            ask first(players) to choose card from first(players).hand
        ask first(players) to choose card from first(players).hand
    end game
"""


def test_a_decision_in_nested_phases_is_in_each_of_them(tmp_path):
    game = small(tmp_path, NESTED)
    st = game.start(1)
    assert st.phase == ("main", "sub") and labels(game, st)[3:] == ["free: outer", "free: inner"]
    choose(game, st, "seat 1 x")
    assert st.phase == ("main",) and labels(game, st)[3:] == ["free: outer"]   # sub is over


def test_validate_reports_a_misspelt_phase_at_its_column(tmp_path, capsys):
    rules = BASE + 'free action "a" for p during mian:\n    pass\n'
    path = folder(tmp_path, rules)
    code = main(["validate", str(path)])
    out = capsys.readouterr()
    assert code == 1 and "Traceback" not in out.out + out.err
    assert "rules.sr:10:30: error: no phase is named 'mian' (hint: did you mean 'main'?)" in out.out + out.err


# ---- the documented example --------------------------------------------------------------------
DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"
AROUND_THE_EXAMPLE = """zone workers per player public
zone raised per player public
zone tiles shared public
zone board per player public
counter tickets per player from 0 initially 4
counter goods per player from 0 initially 3
setup:
    move [each c in box where c.owner == first(players)] to first(players).workers
    move [each c in box where c.owner != first(players)] to tiles
each turn:
    phase main:
        ask first(players) to choose d from first(players).workers:
            move d to first(players).board
    end game
"""


def test_the_documented_example_runs(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Free actions"):]
    start = section.index("```snowrules\n") + len("```snowrules\n")
    example = section[start:section.index("```\n", start)]
    game = small(tmp_path, AROUND_THE_EXAMPLE + example, VALUED)
    st = game.start(1)
    # seat 1's dice x (1), y (2), z (6) and 4 tickets: x and y can be raised (z is at 6); 3 goods
    # and seat 2's cards as tiles: a tile can be gained.
    assert labels(game, st) == ["seat 1 x", "seat 1 y", "seat 1 z", "free: raise a die (seat 1 x)",
                                "free: raise a die (seat 1 y)", "free: gain a tile"]
    choose(game, st, "free: raise a die (seat 1 x)")   # 4 - 1 = 3 tickets
    assert labels(game, st) == ["seat 1 y", "seat 1 z", "free: raise a die (seat 1 y)", "free: gain a tile"]
    choose(game, st, "free: gain a tile")              # its own decision: no free action offered
    assert labels(game, st) == ["seat 2 x", "seat 2 y", "seat 2 z"]
    choose(game, st, "seat 2 y")
    assert labels(game, st) == ["seat 1 y", "seat 1 z", "free: raise a die (seat 1 y)"]   # 0 goods
    choose(game, st, "seat 1 z")
    assert st.result is not None and zone(game, st, "seat 1.board") == ["seat 2 y", "seat 1 z"]
    assert (count(game, st, "seat 1.tickets"), count(game, st, "seat 1.goods")) == (3, 0)
