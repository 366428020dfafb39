"""A procedure too big to expand at every call, or already expanded at a few places, is compiled
once per argument kinds and called (compile/procedure_calls.py): the same game as expanding it at
every call, and less to compile."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from snowrules.compile import procedure_calls
from snowrules.compile.compiler import compile_ruleset
from snowrules.load.ruleset import load_ruleset
from snowrules.model import kinds as t
from snowrules.play.agents import RandomAgent, agent_seed, play
from snowrules.runtime.engine import Game


def _log(ruleset, players: int, seed: int) -> list[str]:
    game = Game(compile_ruleset(ruleset, players))
    log: list = []
    play(game, [RandomAgent(agent_seed(seed, i)) for i in range(players)], seed, sink=log.append)
    return [json.dumps(e, sort_keys=True) for e in log]


def _expand_everything(monkeypatch) -> None:
    monkeypatch.setattr(procedure_calls, "EXPANSION_LIMIT", 10**9)
    monkeypatch.setattr(procedure_calls, "EXPANDED_CALLS", 10**9)


def _call_everything(monkeypatch) -> None:
    monkeypatch.setattr(procedure_calls, "EXPANSION_LIMIT", 0)


def test_every_procedure_called_plays_the_game_every_procedure_expanded_plays(monkeypatch):
    # Snow Planner's card effects call its procedures some eight hundred times, some of which wait
    # (a ROUTINE block of their own) and some not (generated code called on a new environment)
    ruleset = load_ruleset("snow_planner")
    _expand_everything(monkeypatch)
    expanded = _log(ruleset, 2, 3)
    _call_everything(monkeypatch)
    called = _log(ruleset, 2, 3)
    assert any('"e": "choice"' in line for line in called)
    assert called == expanded


PIG = Path(__file__).parent / "rulesets" / "pig"
START = "each turn:\n"
# a procedure that waits (a decision) and one that does not, each called with whole numbers and texts
PROCEDURES = """define bump(p, amount):
    add size(amount) to decisions

define tell(p, what):
    announce p, "-", what

"""


def _pig_with_procedures(tmp_path: Path) -> Path:
    folder = tmp_path / "pig"
    shutil.copytree(PIG, folder)
    rules = folder / "rules.sr"
    text = rules.read_text()
    assert START in text
    calls = "".join(f"        {call}\n" for call in ('tell(p, 1)', 'tell(p, "a")', 'tell(p, 2)', 'bump(p, [1])',
                                                     'bump(p, ["x"])'))
    text = text.replace(START, PROCEDURES + START).replace(
        "        set turn_total to 0\n", "        set turn_total to 0\n" + calls)
    rules.write_text(text)
    return folder


def test_a_called_procedure_is_compiled_once_per_kinds_of_its_arguments(tmp_path, monkeypatch):
    compiled: list = []
    original = procedure_calls.ProcedureCalls._body

    def counted(statements, node, decl, kinds, stepped):
        compiled.append((node.name, kinds, stepped))
        return original(statements, node, decl, kinds, stepped)
    monkeypatch.setattr(procedure_calls.ProcedureCalls, "_body", staticmethod(counted))
    ruleset = load_ruleset(str(_pig_with_procedures(tmp_path)))
    _expand_everything(monkeypatch)
    expanded = _log(ruleset, 2, 1)
    assert compiled == []
    _call_everything(monkeypatch)
    called = _log(ruleset, 2, 1)
    # tell: whole number twice (one build), text once; bump: a list of numbers, a list of texts
    assert sorted(map(str, compiled)) == sorted(map(str, [
        ("tell", (t.PLAYER, t.INT), False), ("tell", (t.PLAYER, t.STR), False),
        ("bump", (t.PLAYER, t.list_of(t.INT)), False), ("bump", (t.PLAYER, t.list_of(t.STR)), False)]))
    assert called == expanded
    assert sum('"e": "say"' in line for line in called) > 0


def test_a_procedure_is_expanded_at_its_first_call_sites_then_called(tmp_path, monkeypatch):
    monkeypatch.setattr(procedure_calls, "EXPANDED_CALLS", 2)
    compiled: list = []
    original = procedure_calls.ProcedureCalls._body

    def counted(statements, node, decl, kinds, stepped):
        compiled.append(node.name)
        return original(statements, node, decl, kinds, stepped)
    monkeypatch.setattr(procedure_calls.ProcedureCalls, "_body", staticmethod(counted))
    compile_ruleset(load_ruleset(str(_pig_with_procedures(tmp_path))), 2)
    # tell's first two call sites are expanded; its third is called; bump has only two
    assert compiled == ["tell"]


@pytest.mark.parametrize("limit", [0, 10**9])
def test_recursion_is_refused_either_way(tmp_path, monkeypatch, limit):
    from snowrules.language.diagnostics import SnowrulesError
    monkeypatch.setattr(procedure_calls, "EXPANSION_LIMIT", limit)
    folder = tmp_path / "pig"
    shutil.copytree(PIG, folder)
    rules = folder / "rules.sr"
    rules.write_text(rules.read_text().replace(START, "define loop(p):\n    loop(p)\n\n" + START).replace(
        "        set turn_total to 0\n", "        set turn_total to 0\n        loop(p)\n"))
    with pytest.raises(SnowrulesError) as error:
        compile_ruleset(load_ruleset(str(folder)), 2)
    assert "procedure 'loop' calls itself" in str(error.value)
