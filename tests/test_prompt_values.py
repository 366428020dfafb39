"""Values in a decision's prompt (edition 3: `as "... {expression} ..."`, language/prompt_text.py,
compile/prompt_values.py, play/prompts.py).

The game is tests/rulesets/labelled_dice (dice read `{owner}'s {name} showing {value}`, guests
`{name} (pays {fee}) on DAY {day}`) with two prompts with values, worked by hand below: a secret
decision at setup that shows each player their own name and first guest, and the main phase's
decision, which shows its player, the dice in their worker zone, a `let` and a brace itself.
"""
from __future__ import annotations

import io
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import play
from snowrules.play.human import HumanAgent
from snowrules.play.prompts import option_labels, prompt_of, zone_name
from snowrules.runtime.engine import Game

LABELLED = Path(__file__).resolve().parent / "rulesets" / "labelled_dice"
MAIN_DECISION = "                ask p to choose d from [each d in p.workers where d.value < 6]:\n"
MAIN_PROMPT = "{p} raises one of {p.workers} by 2 (best {best}, {{{size(p.rooms)}}} in rooms)"
SETUP_PROMPT = "{p} scores 1 or 2, holding {first(p.rooms)}"


def _folder(tmp_path: Path, main_prompt: str = MAIN_PROMPT, setup_prompt: str = SETUP_PROMPT,
            edition: int = 3) -> Path:
    """labelled_dice in `tmp_path`, of `edition`, with the two decisions' prompts."""
    folder = tmp_path / "game"
    shutil.copytree(LABELLED, folder)
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("language: 2 ", f"language: {edition} "))
    rules = (folder / "rules.sr").read_text()
    assert MAIN_DECISION in rules
    rules = rules.replace(MAIN_DECISION, "                let best = max([d.value for each d in p.workers])\n"
                          + MAIN_DECISION.replace(":\n", f' as "{main_prompt}":\n'))
    rules = rules.replace('    move [each c in box where c.kind == "action"] to actions at bottom\n',
                          '    move [each c in box where c.kind == "action"] to actions at bottom\n'
                          f'    ask each p in players secretly to choose n from [1, 2] as "{setup_prompt}":\n'
                          '        add n to p.score\n')
    (folder / "rules.sr").write_text(rules)
    return folder


def _game(folder: Path) -> Game:
    return Game(compile_ruleset(load_ruleset(str(folder)), 2))


# Worked by hand: Guest A goes to Ann's rooms and Guest B to Bob's at setup (pays 2 and 3, DAY 1);
# each seat's dice show 1 and 3; a turn raises the first die under 6 (option 1) by 2.
EXPECTED = [
    ["Ann scores 1 or 2, holding Guest A (pays 2) on DAY 1", "Bob scores 1 or 2, holding Guest B (pays 3) on DAY 1"],
    ["Ann raises one of Ann's die showing 1, Ann's die showing 3 by 2 (best 3, {1} in rooms)"],
    ["Bob raises one of Bob's die showing 1, Bob's die showing 3 by 2 (best 3, {1} in rooms)"],
    # round 2: each first die went from 1 to 3
    ["Ann raises one of Ann's die showing 3, Ann's die showing 3 by 2 (best 3, {1} in rooms)"],
    ["Bob raises one of Bob's die showing 3, Bob's die showing 3 by 2 (best 3, {1} in rooms)"],
    # round 3: Ann's first die went from 3 to 5
    ["Ann raises one of Ann's die showing 5, Ann's die showing 3 by 2 (best 5, {1} in rooms)"],
]


def test_a_stopped_game_shows_each_seat_its_prompt_with_the_values_now(tmp_path):
    game = _game(_folder(tmp_path))
    st = game.start(1)
    shown = []
    while len(shown) < len(EXPECTED):
        before = st.to_json()
        shown.append([prompt_of(game, st, seat) for seat in st.pending.seats])
        assert st.to_json() == before  # showing a prompt changes nothing of the state
        game.answer(st, [0] * len(st.pending.seats))
    assert shown == EXPECTED


def test_the_person_at_the_terminal_reads_the_values_as_the_rules_reach_the_decision(tmp_path):
    game = _game(_folder(tmp_path))
    lines: list[str] = []
    play(game, [HumanAgent(read=lambda prompt: "1", write=lines.append) for _ in range(2)], 1)
    headers = [line.strip() for line in lines if line.startswith("\n--- ")]
    expected = [f"--- {text.split()[0]} to choose ({text}) ---" for texts in EXPECTED for text in texts]
    assert headers[:len(expected)] == expected


def test_the_values_change_no_event_of_the_game(tmp_path):
    def events(folder: Path) -> list[str]:
        game, out = _game(folder), []
        st = game.start(7, out.append)
        while st.result is None:
            game.answer(st, [len(options) - 1 for options in st.pending.options])
        return [repr(e).replace(str(folder), "G") for e in out]
    with_values = events(_folder(tmp_path / "a"))
    without = events(_folder(tmp_path / "b", "raise a die by 2", "score 1 or 2"))
    assert with_values == without and len(with_values) > 50


def _validate(folder: Path) -> list[str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        main(["validate", str(folder), "--no-play"])
    return [line.replace(str(folder), "G") for line in out.getvalue().splitlines() if "[SR" in line]


# The main decision's line in the test game is 44: its prompt's opening quote is at column 83 (the
# setup decision's, on line 28, at column 63). (main prompt, edition, expected lines)
BAD = [
    ("{p} raises a die }", 3, ["G/rules.sr:44:101: error: a lone '}' in a prompt (hint: write a value in braces, "
                               "{p.score}, and a brace itself as {{ or }}) [SR214]"]),
    ("{p} raises {", 3, ["G/rules.sr:44:95: error: a '{' that no '}' closes in a prompt (hint: write a value in "
                         "braces, {p.score}, and a brace itself as {{ or }}) [SR214]"]),
    ("raise { } by 2", 3, ["G/rules.sr:44:90: error: empty braces in a prompt (hint: write the value to show between "
                           "them, {p.score}, or a brace itself as {{ or }}) [SR214]"]),
    ("raise {bets} by 2", 3, ["G/rules.sr:44:91: error: unknown name 'bets' (hint: did you mean 'best' or 'seats' "
                              "or 'guests'?) [SR401]"]),
    ("raise {d} by 2", 3, ["G/rules.sr:44:91: error: the prompt shows 'd', the answer to its own decision, which is "
                           "not known while the question is asked (hint: show what the player chooses from, or a "
                           "value known before the decision) [SR214]"]),
    ("raise {p +} by 2", 3, ["G/rules.sr:44:94: error: the line ends too early (hint: expected '(', '-', '[', "
                             "'false', 'none', 'true', '{', a name, ...) [SR301]"]),
    # edition 2: braces are text, with a warning at the prompt's opening quote (both prompts)
    ("raise {p}", 2, [
        "G/rules.sr:28:63: warning: the braces of the prompt '{p} scores 1 or 2, holding {first(p.rooms)}' are plain "
        "text in edition 2, but enclose a value from edition 3 on (hint: write each brace twice, {{ and }}, and "
        "declare `language: 3` (`snowrules upgrade` does both)) [SR124]",
        "G/rules.sr:44:83: warning: the braces of the prompt 'raise {p}' are plain text in edition 2, but enclose a "
        "value from edition 3 on (hint: write each brace twice, {{ and }}, and declare `language: 3` (`snowrules "
        "upgrade` does both)) [SR124]"]),
]


@pytest.mark.parametrize("prompt, edition, expected", BAD)
def test_a_bad_prompt_is_reported_at_its_place(tmp_path, prompt, edition, expected):
    assert _validate(_folder(tmp_path, prompt, edition=edition)) == expected


def test_in_edition_2_the_braces_are_shown_as_written(tmp_path):
    game = _game(_folder(tmp_path, "raise {p}", "score {1}", edition=2))
    st = game.start(1)
    assert [prompt_of(game, st, seat) for seat in st.pending.seats] == ["score {1}", "score {1}"]


# ---- a free action's option text (`free action ... as "TEXT"`) --------------------------------
FREE = Path(__file__).resolve().parent / "rulesets" / "free_actions"


def _free_folder(tmp_path: Path, buy: str, ready: str) -> Path:
    """tests/rulesets/free_actions in edition 3, "buy a point" and "ready" with option texts."""
    folder = tmp_path / "free"
    shutil.copytree(FREE, folder)
    manifest = folder / "ruleset.yaml"
    manifest.write_text(manifest.read_text().replace("language: 2 ", "language: 3 "))
    rules = (folder / "rules.sr").read_text()
    for head, text in (('free action "buy a point" for p during main when p.coins >= 2', buy),
                       ('free action "ready" for p, piece in p.bench during main', ready)):
        assert head + ":" in rules
        rules = rules.replace(head + ":", f'{head} as "{text}":')
    (folder / "rules.sr").write_text(rules)
    return folder


def test_a_free_actions_option_reads_its_text_with_its_values_now(tmp_path):
    """Ann starts with 5 coins and pieces b and c on her bench (a is ready): buying a point costs
    2 coins, so after one she holds 3; her options are read for her (p) and each piece."""
    game = _game(_free_folder(tmp_path, "buy a point for 2 of {p.coins} coins",
                              "ready {piece} ({size(p.bench)} on the bench)"))
    st = game.start(1)
    seat = st.pending.seats[0]
    assert option_labels(game, st, st.pending.options[0], seat) == [
        "Ann a", "free: buy a point for 2 of 5 coins", "free: ready Ann b (2 on the bench)",
        "free: ready Ann c (2 on the bench)"]
    assert game.option_labels(st, st.pending.options[0])[1:] == [  # a log and a scenario keep the name
        "free: buy a point", "free: ready (Ann b)", "free: ready (Ann c)"]
    game.answer(st, [1])
    assert option_labels(game, st, st.pending.options[0], seat)[1] == "free: buy a point for 2 of 3 coins"


def test_free_actions_options_that_read_alike_get_their_items_copy_number(tmp_path):
    game = _game(_free_folder(tmp_path, "buy a point", "ready a piece"))
    st = game.start(1)
    assert option_labels(game, st, st.pending.options[0], st.pending.seats[0]) == [
        "Ann a", "free: buy a point", "free: ready a piece (Ann b)", "free: ready a piece (Ann c)"]


def test_an_unknown_name_in_a_free_actions_text_is_reported_at_it(tmp_path):
    found = _validate(_free_folder(tmp_path, "buy a point", "ready {peice}"))
    assert found == ["G/rules.sr:21:68: error: unknown name 'peice' (hint: did you mean 'piece'?) [SR401]"]


def test_copies_that_read_alike_get_their_copy_numbers_too(tmp_path):
    """labelled_dice's dice are copies of one entry ("Ann die"): a free action on them whose text
    names no die reads by the die's name and its copy's number."""
    folder = _folder(tmp_path)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text() + 'free action "nudge" for p, d in p.workers during main when d.value < 5 '
                     'as "nudge a die":\n    add 1 to d.value\n')
    game = _game(folder)
    st = game.start(1)
    game.answer(st, [0, 0])  # the secret decision at setup
    assert option_labels(game, st, st.pending.options[0], st.pending.seats[0])[2:] == [
        "free: nudge a die (Ann die #1)", "free: nudge a die (Ann die #2)"]


# ---- a zone's text (`zone ... as "TEXT"`) ---------------------------------------------------------
def _zones_folder(tmp_path: Path, rooms: str) -> Path:
    folder = _folder(tmp_path)
    rules = folder / "rules.sr"
    text = rules.read_text()
    assert "zone rooms per player public\n" in text
    rules.write_text(text.replace("zone rooms per player public\n", f'zone rooms per player public as "{rooms}"\n'
                                  'zone shelf[1..3] shared public as "shelf {key} of 3"\n'))
    return folder


def test_a_zone_reads_its_text_with_its_owner_index_and_values_now(tmp_path):
    """Ann's rooms hold Guest A from the setup (pays 2, DAY 1); a shelf reads its index; a zone
    without a text reads by its label; before a game has a state, every zone by its label."""
    game = _game(_zones_folder(tmp_path, "{owner}'s rooms ({size(owner.rooms)} held, first {first(owner.rooms)})"))
    st = game.start(1)
    labels = [z.label(game.layout.seat_names) for z in game.layout.zones]
    assert [zone_name(game, st, labels.index(label)) for label in ("Ann.rooms", "shelf[2]", "Bob.workers")] == [
        "Ann's rooms (1 held, first Guest A (pays 2) on DAY 1)", "shelf 2 of 3", "Bob.workers"]
    assert zone_name(game, None, labels.index("Ann.rooms")) == "Ann.rooms"


def test_an_unknown_name_in_a_zones_text_is_reported_at_it(tmp_path):
    found = _validate(_zones_folder(tmp_path, "{ownr}'s rooms"))
    assert found == ["G/rules.sr:10:35: error: unknown name 'ownr' (hint: did you mean 'owner'?) [SR401]"]


def test_a_text_of_too_many_values_is_refused_at_the_first_one_over(tmp_path):
    """16 values at most (language/prompt_text.py MAX_VALUES): the 17th `{p}` of "{p} " * 17 is at
    index 64 of the text, column 84 + 64 on the main decision's line."""
    found = _validate(_folder(tmp_path, "{p} " * 17))
    assert found == ["G/rules.sr:44:148: error: more than 16 values in one text (hint: show fewer values: a prompt is "
                     "one line a person reads) [SR214]"]


# ---- each option's own text (`each as "TEXT"`, compile/option_texts.py) -----------------------
EACH = 'raise a die\" each as \"{d} to {d.value + 2}{scoring(d)} (best {best})'
SCORING = 'define scoring(d) = join([" and", "scores"], " ") if d.value + 2 >= 5 else ""\n'


def _each_folder(tmp_path: Path, text: str = EACH) -> Path:
    """labelled_dice whose main decision's options read `text` (a die raised by 2 to 5 or more
    scores: a die reaching 6 scores 5, rules.sr)."""
    folder = _folder(tmp_path, text)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text() + SCORING)
    return folder


def test_each_option_reads_its_own_text_with_the_answer_standing_for_it(tmp_path):
    """Round 1: Ann's dice show 1 and 3 (best 3): raised by 2 they show 3 and 5, the second with
    the words `scoring` joins. The log's names (Game.option_labels) stay the labels, and showing
    the texts changes nothing of the state."""
    game = _game(_each_folder(tmp_path))
    st = game.start(1)
    game.answer(st, [0, 0])                              # the setup's secret decision
    seat = st.pending.seats[0]
    before = st.to_json()
    assert option_labels(game, st, st.pending.options[0], seat) == [
        "Ann's die showing 1 to 3 (best 3)", "Ann's die showing 3 to 5 and scores (best 3)"]
    assert st.to_json() == before
    assert game.option_labels(st, st.pending.options[0]) == ["Ann's die showing 1", "Ann's die showing 3"]


# (option text, the define appended, what validate reports). The main decision is on line 44:
# `as "raise a die"` opens at column 83, so ` each as "` opens the option text at column 105.
BAD_EACH = [
    ('raise a die\" each as \"{d} to {bets}', SCORING, [
        "G/rules.sr:44:114: error: unknown name 'bets' (hint: did you mean 'best' or 'seats' or 'guests'?) [SR401]"]),
    ('raise a die\" each as \"  ', SCORING, [
        "G/rules.sr:44:105: error: an option's text is empty (hint: say how each option reads, as in "
        "`each as \"{spot}: counts {d.value}\"`) [SR214]"]),
    ("raise a die\" each as \"{d}{scoring(d)}", 'define scoring(d) = join([d.value], " ")\n', [
        "G/rules.sr:64:26: error: the first argument of join() must be a list of texts, not a list of numbers "
        "(hint: in 'scoring' called at G/rules.sr:44:110) [SR402]"]),
]


@pytest.mark.parametrize("text, define, expected", BAD_EACH)
def test_a_bad_option_text_is_reported_at_its_place(tmp_path, text, define, expected):
    folder = _folder(tmp_path, text)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text() + define)
    assert _validate(folder) == expected
