"""What generated code still calls as Python with the frame's environment (`NAME(st, env)`).

Expressions, the statements that change the game and the library's functions are generated
code: their own work, when more than an expression, is a helper called with values, so that
the expressions around them fuse. What remains called with the environment is the statements
that run other routines or wait (reactions, free actions, payments, offers, a counter's
triggers) and the chance statements whose draws are weighted or imposed by a scenario (the
generic chance loop, `ChanceStep.sampled`). A new closure called that way (an expression or a
statement compiled to a Python function of (st, env)) fails here, named with its rule."""
from __future__ import annotations

import re

import pytest
from snowrules.compile.compiler import load_program
from snowrules.load.ruleset import bundled_names, load_ruleset
from snowrules.model.events import kinds_of
from snowrules.runtime.engine import Game

# the modules whose routines generated code may call with the environment
ROUTINES = {"snowrules.compile.playthrough_events", "snowrules.compile.reactions", "snowrules.compile.chance"}
CALLED = re.compile(r"\b(_v\d+)\(st, env\)")


HEARD = {"all": None, "none": ()}  # every event heard (a log), or none (a simulation)


def _called_with_env(name: str, hears: str) -> dict[str, str]:
    program = load_program(name, None, load_ruleset(name).min_players)
    module = Game(program).played_through(kinds_of(HEARD[hears])).module
    called = {}
    for found in sorted(set(CALLED.findall(module.text))):
        value = module.scope[found]
        called[found] = f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', value)}"
    return called


@pytest.mark.parametrize("hears", ["none", "all"])
@pytest.mark.parametrize("name", bundled_names())
def test_generated_code_calls_only_routines_with_the_environment(name, hears):
    called = _called_with_env(name, hears)
    others = {found: what for found, what in called.items() if not what.startswith(tuple(f"{m}." for m in ROUTINES))}
    assert not others, f"{name}: called with (st, env): {others}"
    chance = {found: what for found, what in called.items() if what.startswith("snowrules.compile.chance.")}
    assert set(chance.values()) <= {"snowrules.compile.chance.ChanceStep.sampled"}, chance
