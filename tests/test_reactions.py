"""Events and reactions (issue 12, construct 1), on the toy game tests/rulesets/reactions.

The game is one turn (its rules.sr, steps 1-6); every expected value below is worked out by
hand from that text, step by step, in the comments. Anna holds the Crafter among her talents
(a coin each time she gains gems) and the Host in her hand (2 VP for each guest entering her
rooms, once it is among her talents); the Bell on the shared shelf rings for whoever gains coins.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import said_answering, three_copies
from jsonschema import Draft202012Validator
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.language.limits import MAX_REACTION_DEPTH
from snowrules.load.ruleset import load_ruleset
from snowrules.model.events import Reacted, Said
from snowrules.play.agents import FirstAgent, play
from snowrules.runtime.engine import Game

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "rulesets" / "reactions"

# What the turn says, in order, with FirstAgent (it takes a bonus of 1 at the only decision):
TOLD = [
    # [step 1] `add 3 to anna.res["gem"]` is one gain: each reaction once, rules in file order,
    # then the Crafter; its coin is a gain too, to which only the Bell reacts (kind is "coin")
    "first rule: Anna gained 3 gem", "second rule: Anna gained 3 gem",
    "Crafter gives Anna a coin", "Bell rings for Anna",
    # [step 2] three statements of one gem each: three gains (Bert has no Crafter)
    "first rule: Bert gained 1 gem", "second rule: Bert gained 1 gem",
    "first rule: Bert gained 1 gem", "second rule: Bert gained 1 gem",
    "first rule: Bert gained 1 gem", "second rule: Bert gained 1 gem",
    # [step 3] the first guest arrives while the Host is in Anna's hand: nothing; the second
    # arrives once the Host is among her talents
    "Host welcomes Guest",
    # [step 5] the hosted reaction asks, then raises ping(1); ping(1) raises ping(2), ping(2)
    # raises ping(3), whose `where n < 3` does not hold: the chain stops
    "Anna takes 1 for Guest", "ping 1", "ping 2",
    # [step 6] inside `together:` both gains happen first; then Anna's reactions (her Crafter's
    # coin rings the Bell before Bert's gain is reacted to), then Bert's
    "first rule: Anna gained 2 gem", "second rule: Anna gained 2 gem",
    "Crafter gives Anna a coin", "Bell rings for Anna",
    "first rule: Bert gained 2 gem", "second rule: Bert gained 2 gem",
    # Anna: 1 (step 1) + 2 (Host) + 1 (bonus) + 1 (step 6) = 5 VP, 3 + 2 = 5 gems, 2 coins.
    # Bert: 3 (step 2) + 1 (step 6) = 4 VP, 3 + 2 = 5 gems, no coin.
    "Anna 5 VP 5 gems 2 coins", "Bert 4 VP 5 gems 0 coins",
]


def program(folder: Path = TOY):
    return compile_ruleset(load_ruleset(str(folder)), 2)


def played(folder: Path = TOY):
    """The toy game played with FirstAgent: its final state and its typed events."""
    game = Game(program(folder))
    events: list = []
    st = play(game, [FirstAgent(), FirstAgent()], 1, listen=events.append)
    return game, st, events


def texts(events) -> list[str]:
    return [e.text for e in events if isinstance(e, Said)]


def test_the_turn_tells_every_reaction_in_order():
    game, st, events = played()
    assert texts(events) == TOLD
    assert game.outcome(st).winners == [0]


def test_a_gain_of_three_at_once_is_one_gain_and_three_gains_are_three():
    _, _, events = played()
    reacted = [(e.event, e.args, e.card) for e in events if isinstance(e, Reacted)]
    # step 1: rule 1, rule 2 and the Crafter (component 0) each once for Anna's 3 gems
    assert reacted.count(("gained", (0, "gem", 3), None)) == 2
    assert reacted.count(("gained", (0, "gem", 3), 0)) == 1
    # step 2: three gains of 1 for Bert, two rule reactions each
    assert reacted.count(("gained", (1, "gem", 1), None)) == 6


def test_rule_reactions_run_in_file_order_then_components():
    _, _, events = played()
    rules = [e.rule.rsplit("/", 1)[-1] for e in events if isinstance(e, Reacted) and e.args == (0, "gem", 3)]
    assert rules == ["rules.sr:21:1", "rules.sr:25:1", "things.yaml:8:9"]


def test_a_component_reacts_only_while_in_a_zone_the_rules_name():
    _, _, events = played()
    arrivals = [e for e in events if isinstance(e, Reacted) and e.event == "arrived"]
    # components: Crafter 0, Host 1, the two guests 2 and 3, Bell 4; the guests go to arrivals in
    # that order, and `last(arrivals)` takes 3 first, then 2. The Host reacts once: to guest 2
    # (guest 3 came while it was in Anna's hand), moved from arrivals to Anna's rooms
    layout = program().layout
    assert [(layout.component_names[e.card], e.args[0]) for e in arrivals] == [("Host", 2)]
    assert [layout.zones[z].label(layout.seat_names) for z in arrivals[0].args[1:]] == ["arrivals", "Anna.rooms"]


def test_a_chain_of_reactions_stops_at_its_where_and_is_told_in_order():
    _, _, events = played()
    pings = [e.args for e in events if isinstance(e, Reacted) and e.event == "ping"]
    assert pings == [(1,), (2,)]


def test_a_decision_inside_a_reaction_survives_clone_and_json():
    game = Game(program())
    st = game.start(1)
    pending = st.pending
    # the only decision of the game: the hosted reaction's `ask`, in the middle of step 5
    assert pending.rule.endswith("rules.sr:29:5") and pending.options == [[1, 2, 3]]
    assert st.raised == []
    finals = [(said_answering(game, copy, [2]), copy.counters[:]) for copy in three_copies(st)]  # a bonus of 3
    # Anna: 1 + 2 + 3 + 1 = 7 VP; the rest of the turn as in TOLD
    assert finals[0][0][:3] == ["Anna takes 3 for Guest", "ping 1", "ping 2"]
    assert finals[0][0][-2:] == ["Anna 7 VP 5 gems 2 coins", "Bert 4 VP 5 gems 0 coins"]
    assert finals[1] == finals[0] and finals[2] == finals[0]


def chain_folder(tmp_path: Path, last: int) -> Path:
    """The toy game whose pings go on while n < last (and raise again from ping `last - 1`)."""
    folder = tmp_path / "game"
    shutil.copytree(TOY, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("on ping(n) where n < 3:", f"on ping(n) where n < {last}:"))
    return folder


def test_a_chain_as_deep_as_the_limit_runs(tmp_path):
    # the hosted reaction is 1 deep; ping(n) runs n + 1 deep; raising ping(n + 1) from ping(n)
    # is allowed while n + 1 < MAX_REACTION_DEPTH: the last ping told is MAX - 1
    _, _, events = played(chain_folder(tmp_path, MAX_REACTION_DEPTH))
    assert [t for t in texts(events) if t.startswith("ping")][-1] == f"ping {MAX_REACTION_DEPTH - 1}"


def test_a_chain_deeper_than_the_limit_stops_at_the_raise(tmp_path, capsys):
    folder = chain_folder(tmp_path, MAX_REACTION_DEPTH + 1)
    with pytest.raises(RuntimeRulesError) as error:
        played(folder)
    # ping(MAX - 1) runs MAX deep and raises ping(MAX): one too many
    assert str(error.value) == (f"{folder}/rules.sr:36:5: error: a chain of reactions deeper than "
                                f"{MAX_REACTION_DEPTH}: this raises ping inside {MAX_REACTION_DEPTH} reactions "
                                "that each raised the next (hint: make the chain stop: a `where` or an `if` "
                                "that ends it)")
    assert error.value.diagnostics[0].code == "SR707"
    code = main(["run", str(folder), "--agents", "first,first"])
    output = "".join(capsys.readouterr())
    assert code == 1 and "rules.sr:36:5: error: a chain of reactions deeper" in output
    assert "Traceback" not in output


def test_the_log_has_a_react_line_per_reaction_and_replays(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["run", str(TOY), "--agents", "first,first", "--log", str(log)]) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    validator = Draft202012Validator(json.loads((ROOT / "schemas" / "log_event.schema.json").read_text()))
    assert [e for line in lines for e in validator.iter_errors(line)] == []
    reacts = [line for line in lines if line["e"] == "react"]
    assert reacts[0] == {"e": "react", "event": "gained", "args": ["Anna", "gem", 3], "card": None,
                         "rule": "rules.sr:21:1"}
    assert reacts[2] == {"e": "react", "event": "gained", "args": ["Anna", "gem", 3], "card": "Crafter",
                         "rule": "components/things.yaml:8:9"}
    # 4 (step 1) + 6 (step 2) + 1 (Host) + 3 (hosted, ping 1, ping 2) + 6 (step 6)
    assert len(reacts) == 20
    assert main(["replay", str(log), "--ruleset", str(TOY)]) == 0
    capsys.readouterr()


def test_the_account_tells_who_reacts_by_name(capsys):
    assert main(["run", str(TOY), "--agents", "first,first"]) == 0
    out = capsys.readouterr().out
    assert "    Crafter reacts to gained(Anna, gem, 3)" in out
    assert "    Host reacts to arrived(Guest, arrivals, Anna.rooms)" in out
    assert any(line.startswith("    the rule at ") and line.endswith("rules.sr:34:1 reacts to ping(2)")
               for line in out.splitlines())


# ---- bad input: each row plants one mistake in a copy of the toy game ---------------------------
# (file, text to replace, its replacement, the text at whose first character the error is, message)
BAD = [
    ("rules.sr", "on ping(n) where n < 3:", "on pings(n) where n < 3:", "on pings",
     "unknown event 'pings' (hint: did you mean 'ping'?)"),
    ("rules.sr", "on ping(n) where n < 3:", "on ping(n, m) where n < 3:", "on ping(n, m)",
     "event 'ping' has 1 parameters (n), this reaction names 2"),
    ("rules.sr", "    raise ping(n + 1)", "    raise pong(n + 1)", "raise pong",
     "unknown event 'pong' (hint: did you mean 'ping'?)"),
    ("rules.sr", "    raise ping(n + 1)", "    raise ping(n, 1)", "raise ping(n, 1)",
     "event 'ping' takes 1 arguments (n), not 2"),
    ("rules.sr", "    together:", "    raise hosted(anna, 3)\n    together:", "3)",
     "argument 'guest' of hosted must be a component, not a number"),
    ("rules.sr", "    together:", "    raise gained(anna, \"gem\", 1)\n    together:", "raise gained",
     "event 'gained' is raised by every change of counter 'res'"),
    ("rules.sr", "on ping(n) where n < 3:\n    announce \"ping\", n\n    raise ping(n + 1)",
     "on ping(vp) where vp < 3:\n    announce \"ping\", vp\n    raise ping(vp + 1)", "on ping(vp)",
     "the reaction's parameter 'vp' would hide the name 'vp'"),
    ("rules.sr", "on ping(n) where n < 3:", "on ping(n) where n:", "n:",
     "a `where` condition must be true or false, not a number"),
    ("rules.sr", "event gained(p, kind, n) from counter res", "event gained(p, n) from counter res",
     "event gained(p, n)", "an event from counter 'res' has 3 parameters (the player whose counter it is, "
     "its key, the change), not 2"),
    ("rules.sr", "event gained(p, kind, n) from counter res", "event gained(p, kind, n) from counter ress",
     "event gained", "unknown counter 'ress' (hint: did you mean 'res'?)"),
    ("rules.sr", "event arrived(c, source, dest) from moves", "event arrived(c, source) from moves",
     "event arrived", "an event from moves has 3 parameters"),
    ("rules.sr", "reactions from talents, shelf", "reactions from talent, shelf", "talent,",
     "unknown zone 'talent' (hint: did you mean 'talents'?)"),
    ("rules.sr", "event ping(n)", "event ping(n)\nevent ping(m)", "event ping(m)",
     "event 'ping' is declared twice"),
    ("rules.sr", "event ping(n)", "event ping(turn)", "event ping(turn)",
     "the parameter 'turn' would hide the name 'turn' (a built-in name)"),
    ("components/things.yaml", "    reacts:\n      - on: gained\n        where: kind == \"coin\"\n"
     "        effect: announce this, \"rings for\", me", "    reacts: gained", "gained",
     "`reacts:` must be a list of {on: EVENT, where: CONDITION, effect: STATEMENTS} entries"),
    ("components/things.yaml", "- on: gained\n        where: kind == \"coin\"\n        effect: announce this, "
     "\"rings for\", me", "- on: gained\n        where: kind == \"coin\"", "on: gained",
     "this `reacts:` entry has no `effect:`"),
    ("components/things.yaml", "      - on: arrived", "      - on: arive", "arive",
     "unknown event 'arive' (hint: did you mean 'arrived'?)"),
    ("components/things.yaml", "        where: kind == \"coin\"", "        when: kind == \"coin\"", "when:",
     "a `reacts:` entry has no field 'when' (hint: its fields are on, where and effect)"),
    ("components/things.yaml", "        effect: announce this, \"rings for\", me", "        then: 1", "then:",
     "a `reacts:` entry has no field 'then'"),
    ("components/things.yaml", "        where: p == me and kind", "        where: p == me and and kind",
     "and kind", "'and' is a keyword and cannot be a name"),
    ("components/things.yaml", "        where: c.kind == \"guest\" and dest == me.rooms",
     "        where: c.kind == \"guest\" and dest == me.room", "me.room",
     "a player has no zone or counter 'room' (hint: did you mean 'rooms'?)"),
]


@pytest.mark.parametrize("file, old, new, marker, message", BAD, ids=[row[-1][:40] for row in BAD])
def test_a_mistake_in_events_or_reactions_is_reported_at_its_place(tmp_path, capsys, monkeypatch, file, old, new,
                                                                   marker, message):
    folder = tmp_path / "game"
    shutil.copytree(TOY, folder)
    monkeypatch.chdir(tmp_path)
    path = folder / file
    text = path.read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path.write_text(text)
    start = text.index(new) + new.index(marker)
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    code = main(["validate", "game"])
    output = "".join(capsys.readouterr())
    assert code == 1
    assert "Traceback" not in output
    expected = f"game/{file}:{line}:{col}: error: {message}"
    assert any(found.strip().startswith(expected) for found in output.splitlines()), \
        f"expected {expected!r} in:\n{output}"


def test_a_game_played_through_plays_the_same_game():
    game = Game(program())
    through = game.play_through(1, lambda st: game.take(st, [0] * len(st.pending.seats)))
    _, st, _ = played()
    assert through.counters == st.counters and game.outcome(through).winners == [0]
    assert game._playthroughs[frozenset(), "plain"]  # reactions have their template (compile/playthrough.py)


def test_a_reaction_written_above_the_raise_that_gives_its_kinds_reads_them(tmp_path):
    # `met` is raised only inside the hosted reaction, compiled after `on met(q)`: the kinds are
    # learnt by the first pass and the rules compiled again, so `q` is told as a player, by name
    folder = tmp_path / "game"
    shutil.copytree(TOY, folder)
    rules = folder / "rules.sr"
    met = "event met(q)\non met(q):\n    announce q, \"met\"\n"
    text = rules.read_text().replace("event ping(n)\n", "event ping(n)\n" + met)
    rules.write_text(text.replace("    raise ping(1)\n", "    raise met(p)\n    raise ping(1)\n"))
    _, _, events = played(folder)
    assert texts(events)[10:14] == ["Host welcomes Guest", "Anna takes 1 for Guest", "Anna met", "ping 1"]


def test_when_rules_on_a_counter_run_before_its_reactions(tmp_path):
    # `when p.vp >= 1` becomes true at step 1's first VP, inside the first rule reaction: it is
    # told before that reaction's own announcement, and before the second rule reacts
    folder = tmp_path / "game"
    shutil.copytree(TOY, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace("setup:\n", "when p.vp >= 1:\n    announce p, \"has a VP\"\nsetup:\n"))
    _, _, events = played(folder)
    assert texts(events)[:3] == ["Anna has a VP", "first rule: Anna gained 3 gem", "second rule: Anna gained 3 gem"]


def test_the_example_of_the_language_reference_says_what_it_says(tmp_path):
    from test_language import run
    text = (ROOT / "docs" / "language.md").read_text()
    section = text[text.index("## Events and reactions"):]
    example = section[section.index("```snowrules\n") + len("```snowrules\n"):section.index("```\n", 20)]
    # one gain of 3 snow: 1 VP; the token's arrival raises hosted, and FirstAgent takes a bonus of 1
    _, _, said = run(tmp_path, example)
    assert [e["text"] for e in said] == ["seat 1 has 2 VP"]


def test_openspiel_plays_the_toy_game_with_its_reactions_serialized_at_every_node():
    pyspiel = pytest.importorskip("pyspiel")
    from snowrules.adapters.openspiel import load_game
    game = load_game(str(TOY), players=2)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    state = game.new_initial_state()
    while not state.is_terminal():  # the only decision is the hosted reaction's: 3 bonuses
        assert state.legal_actions() == [0, 1, 2]
        state.apply_action(2)
    assert state.returns() == [1.0, -1.0]   # Anna: 7 VP against Bert's 4
