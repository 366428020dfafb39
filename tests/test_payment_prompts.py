"""What a payment, an offer of free actions and a counter read to a person (issue 24): `pay ...
as "TEXT"` says what is paid for and the interpreter adds the amount due and what the payer holds
(compile/payment_prompts.py); `offer free actions to p as "TEXT"` says what the offer is before;
`counter ... as "TEXT"` names a counter in the account, the holdings and a payment's prompt
(compile/counter_texts.py, play/prompts.py). Logs keep the plain names: the texts change no event.

The game, worked by hand: two players, north and south, each set up with 1 coin and 3 gems; in
the one round each pays 2 using coins and gems at 1 each. The ways to pay 2 from 1 coin and 3
gems are "1 coin + 1 gem" and "2 gem"; the first agent takes the first. Then each is offered the
free action "polish a gem" (while the player holds a gem and has no VP) beside "done".
"""
from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RulesetError
from snowrules.load.ruleset import load_ruleset
from snowrules.play.agents import FirstAgent, play
from snowrules.play.human import HumanAgent
from snowrules.runtime.engine import Game

RULES = """game "Market"

zone deck shared hidden
zone hand per player hidden
zone played per player secret
zone scored per player public
counter res[coin, gem] per player from 0{counter}
counter score per player from 0{score}
counter wear per component from 0 to 9{on_cards}

free action "polish a gem" for p when p.res["gem"] > 0 and p.score == 0:
    add 1 to p.score

setup:
    move all from box to deck
    for each p in players:
        add 1 to p.res["coin"]
        add 3 to p.res["gem"]

rounds 1:
    phase market:
        for each p in players:
            {pay}{pay_text}
            offer free actions to p{offer}

at game end:
    end game winners players
"""
PAY = 'pay 2 using p.res["coin"] at 1, p.res["gem"] at 1'


def _folder(tmp_path: Path, **texts: str) -> Path:
    """`snowrules new`'s game in `tmp_path` (its manifest and cards) with the market's rules and
    the texts given (each written after its statement, as ` as "..."`)."""
    folder = tmp_path / "market"
    if not folder.exists():
        with redirect_stdout(io.StringIO()):
            assert main(["new", str(folder)]) == 0
    fields = {"counter": "", "score": "", "on_cards": "", "pay": PAY, "pay_text": "", "offer": ""}
    fields.update({name: text if name == "pay" else f' as "{text}"' for name, text in texts.items()})
    (folder / "rules.sr").write_text(RULES.format(**fields), encoding="utf-8")
    return folder


class _Recording(FirstAgent):
    """The first option each time; keeps each prompt as its seat reads it, with the options."""

    def __init__(self):
        self.seen: list[tuple[str, list[str]]] = []

    def choose(self, observation) -> int:
        self.seen.append((observation.choice, observation.labels()))
        return 0


def _prompts(folder: Path) -> list[tuple[str, list[str]]]:
    game = Game(compile_ruleset(load_ruleset(str(folder)), 2))
    agent = _Recording()
    play(game, [agent, agent], 1)
    return agent.seen


def test_a_payment_says_what_it_is_for_what_is_due_and_what_the_payer_holds(tmp_path):
    seen = _prompts(_folder(tmp_path, pay_text="market fee for {p}"))
    assert seen[0] == ("market fee for north: pay 2 (you hold coin 1, gem 3)", ["1 coin + 1 gem", "2 gem"])
    # south pays after north: south's own holdings
    assert seen[2] == ("market fee for south: pay 2 (you hold coin 1, gem 3)", ["1 coin + 1 gem", "2 gem"])


def test_a_payment_without_a_text_shows_what_is_due_and_held(tmp_path):
    seen = _prompts(_folder(tmp_path))
    assert seen[0][0] == "pay 2 (you hold coin 1, gem 3)"


@pytest.mark.parametrize("pay, expected", [
    ('pay at least 2 using p.res["coin"] at 1, p.res["gem"] at 1', "pay at least 2 (you hold coin 1, gem 3)"),
    ('pay up to 2 using p.res["coin"] at 1, p.res["gem"] at 1 as cut', "pay up to 2 (you hold coin 1, gem 3)"),
], ids=["at least", "up to"])
def test_a_payments_mode_is_said(tmp_path, pay, expected):
    assert _prompts(_folder(tmp_path, pay=pay))[0][0] == expected


def test_a_counters_text_names_it_in_the_payment(tmp_path):
    seen = _prompts(_folder(tmp_path, counter="{key}s", pay_text="market fee"))
    assert seen[0][0] == "market fee: pay 2 (you hold coins 1, gems 3)"


def test_an_offer_says_what_it_is_with_its_values(tmp_path):
    seen = _prompts(_folder(tmp_path, offer="before the market closes: {p} has {p.score} VP"))
    # north paid 1 coin + 1 gem: 2 gems left, 0 VP, so "polish a gem" is offered beside "done"
    assert seen[1] == ("before the market closes: north has 0 VP", ["done", "free: polish a gem"])


def test_an_offer_without_a_text_says_it_offers_free_actions(tmp_path):
    assert _prompts(_folder(tmp_path))[1] == ("take a free action, or done", ["done", "free: polish a gem"])


def test_the_texts_change_no_event_of_the_game(tmp_path):
    """A log names counters by their plain labels and decisions by their rules' positions."""
    logs = []
    for texts in ({}, {"counter": "{key}s", "score": "VP", "pay_text": "market fee", "offer": "before the close"}):
        game = Game(compile_ruleset(load_ruleset(str(_folder(tmp_path, **texts))), 2))
        events: list = []
        play(game, [FirstAgent(), FirstAgent()], 4, sink=events.append)
        logs.append([e.to_json() if hasattr(e, "to_json") else e for e in events])
    assert logs[0] and logs[0] == logs[1]


def test_the_account_and_the_holdings_name_counters_by_their_texts(tmp_path):
    folder = _folder(tmp_path, counter="{key}s", score="VP")
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["run", str(folder), "--seed", "1", "--agents", "first,first"]) == 0
    # setup: each player gains 1 coin and 3 gems, told on one line per player
    assert "    north: coins +1 (now 1), gems +3 (now 3)\n" in out.getvalue()
    assert "res[" not in out.getvalue()
    game = Game(compile_ruleset(load_ruleset(str(folder)), 2))
    written: list[str] = []
    play(game, [HumanAgent(read=lambda prompt: "1", write=written.append), FirstAgent()], 1)
    # north's first decision (the payment): what north holds, by the counters' texts
    assert "  you hold: coins 1, gems 3, VP 0" in written


def test_a_counter_without_a_text_reads_as_its_key_or_its_name(tmp_path):
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["run", str(_folder(tmp_path)), "--seed", "1", "--agents", "first,first"]) == 0
    assert "    north: coin +1 (now 1), gem +3 (now 3)\n" in out.getvalue()


def _problems(folder: Path) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        main(["validate", "--no-scenarios", str(folder)])
    return [line for line in (out.getvalue() + err.getvalue()).splitlines() if "[SR" in line]


# (the texts, the one line reported: its place in rules.sr, its severity, its message's start, its code)
BAD = [
    ({"pay": 'pay 1 from p.res["coin"]', "pay_text": "fee"}, "rules.sr:23:42: warning: this payment never asks its "
     "payer (one counter, a fixed amount), so its text is never shown", "SR730"),
    ({"on_cards": "{key}"}, "rules.sr:9:44: error: the counter 'wear' is on components: it reads as part of its "
     "component", "SR731"),
    ({"counter": "{key} }"}, "rules.sr:7:52: error: a lone '}' in a prompt", "SR214"),
    ({"pay_text": "fee {price}"}, "rules.sr:23:72: error: unknown name 'price'", "SR401"),
    ({"offer": "before {closing}"}, "rules.sr:24:49: error: unknown name 'closing'", "SR401"),
    ({"counter": "{owner.wealth}"}, "rules.sr:7:47: error: a player has no zone or counter 'wealth'", "SR401"),
]


@pytest.mark.parametrize("texts, expected, code", BAD,
                         ids=["fixed payment", "on components", "lone brace", "payment name", "offer name",
                              "owner's field"])
def test_a_bad_text_is_reported_at_its_place(tmp_path, texts, expected, code):
    (line,) = _problems(_folder(tmp_path, **texts))
    assert expected in line and f"[{code}" in line, line


def test_a_bad_text_refuses_the_game(tmp_path):
    with pytest.raises(RulesetError):
        Game(compile_ruleset(load_ruleset(str(_folder(tmp_path, on_cards="{key}"))), 2))
