"""A define too big to expand at every call is compiled once per argument kinds and called
(compile/define_calls.py): the same game as expanding it, and far less to compile."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from snowrules.compile import define_calls
from snowrules.compile.compiler import compile_ruleset
from snowrules.language import syntax as s
from snowrules.load.ruleset import load_ruleset
from snowrules.model import kinds as t
from snowrules.play.agents import RandomAgent, agent_seed, play
from snowrules.runtime.engine import Game


def _log(name: str, players: int, seed: int) -> list[str]:
    game = Game(compile_ruleset(load_ruleset(name), players))
    log: list = []
    play(game, [RandomAgent(agent_seed(seed, i)) for i in range(players)], seed, sink=log.append)
    return [json.dumps(e, sort_keys=True) for e in log]


@pytest.mark.parametrize("name, players", [("goofspiel", 3), ("oh_hell", 4), ("snowy_tricks", 3),
                                           ("snow_time", 4), ("snowfall_over_mountains", 1)])
def test_every_define_called_plays_the_game_every_define_expanded_plays(name, players, monkeypatch):
    monkeypatch.setattr(define_calls, "EXPANSION_LIMIT", 10**9)
    expanded = [_log(name, players, seed) for seed in (1, 2)]
    monkeypatch.setattr(define_calls, "EXPANSION_LIMIT", 0)
    called = [_log(name, players, seed) for seed in (1, 2)]
    assert called == expanded


PIG = Path(__file__).parent / "rulesets" / "pig"
WINNERS = "define winners_of() = [each q in players where q.score >= winscore]"


def _pig_with(tmp_path: Path, defines: str, winners: str) -> Path:
    """Pig (tests/rulesets/pig) with `defines` added and its winners_of replaced by `winners`."""
    folder = tmp_path / "pig"
    shutil.copytree(PIG, folder)
    rules = folder / "rules.sr"
    assert WINNERS in rules.read_text()
    rules.write_text(rules.read_text().replace(WINNERS, defines + "\n" + winners))
    return folder


def test_a_define_counts_the_defines_it_expands():
    defines = s_parse("define a(x) = x + 1\ndefine b(x) = a(x) * a(x) + a(2)\ndefine c() = b(1) + b(2)\n")
    sizes: dict = {}
    assert define_calls.expanded_size(defines, "a", sizes) == 3            # x + 1: add, x, 1
    # b: +, *, a(x), x, a(x), x, a(2), 2 are its own 8 nodes; each call of a adds a's 3
    assert define_calls.expanded_size(defines, "b", sizes) == 8 + 3 * 3
    # c: +, b(1), 1, b(2), 2 are its own 5; each call of b adds b's 17
    assert define_calls.expanded_size(defines, "c", sizes) == 5 + 2 * 17


def s_parse(text: str) -> dict[str, s.FunctionDecl]:
    from snowrules.language.parser import parse_rules
    return {d.name: d for d in parse_rules(text + "game \"t\"\n", "t.sr").declarations
            if isinstance(d, s.FunctionDecl)}


def test_a_big_define_is_compiled_once_per_kinds_of_its_arguments(tmp_path, monkeypatch):
    compiled: list = []
    original = define_calls.DefineCalls._body

    def counted(compiler, node, decl, kinds):
        compiled.append((node.name, kinds))
        return original(compiler, node, decl, kinds)
    monkeypatch.setattr(define_calls.DefineCalls, "_body", staticmethod(counted))
    # Each define's statement stays under the 1,000 tokens a statement may hold: a big define is
    # big by what it expands, as in real rulesets
    terms = " + ".join(["n"] * 100)  # 199 nodes: expanded where used
    items = ", ".join(["n"] * 150)   # 151 nodes: expanded where used
    folder = _pig_with(tmp_path, f"define terms(n) = {terms}\ndefine padding(n) = terms(n) + terms(n) + terms(n)\n"
                       f"define items(n) = [{items}]\n"
                       "define padding_text(n) = size(items(n)) + size(items(n)) + size(items(n))",
                       "define winners_of() = [each q in players where q.score + 0 * padding(1) + 0 * "
                       "padding(turn_total) + 0 * padding_text(\"x\") >= winscore]")
    compile_ruleset(load_ruleset(str(folder)), 2)
    # padding is called twice with a number, padding_text once with a text; winners_of, counting
    # both, is over the limit too (it is called wherever the rules and the returns use it)
    assert sorted(compiled) == [("padding", (t.INT,)), ("padding_text", (t.STR,)), ("winners_of", ())]


@pytest.mark.parametrize("limit", [0, 10**9], ids=["called", "expanded"])
def test_a_define_that_calls_itself_is_refused_either_way(tmp_path, monkeypatch, limit):
    from snowrules.language.diagnostics import RulesetError
    monkeypatch.setattr(define_calls, "EXPANSION_LIMIT", limit)
    folder = _pig_with(tmp_path, "define a(q) = b(q)\ndefine b(q) = a(q) + 1",
                       "define winners_of() = [each q in players where a(q) >= winscore]")
    with pytest.raises(RulesetError) as error:
        compile_ruleset(load_ruleset(str(folder)), 2)
    assert "function 'a' calls itself through 'b' (a -> b -> a); recursion is not allowed" in str(error.value)
