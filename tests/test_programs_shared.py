"""`programs_shared` (compile/compiler.py): inside it, a ruleset compiled again gives the program
compiled before; a ruleset changed in any way, or compiled outside it, gets a program of its own."""
from __future__ import annotations

import pytest
from snowrules.compile.compiler import check, compile_ruleset, programs_shared
from snowrules.load.ruleset import load_ruleset


def test_an_equal_ruleset_gives_the_same_program_inside_and_its_own_outside():
    with programs_shared():
        first = compile_ruleset(load_ruleset("goofspiel"), 3)
        assert compile_ruleset(load_ruleset("goofspiel"), 3) is first
        assert compile_ruleset(load_ruleset("goofspiel"), 4) is not first
        assert compile_ruleset(load_ruleset("goofspiel"), 3, explicit_chance=True) is not first
        with programs_shared():  # nested: the same programs
            assert compile_ruleset(load_ruleset("goofspiel"), 3) is first
    assert compile_ruleset(load_ruleset("goofspiel"), 3) is not first
    assert compile_ruleset(load_ruleset("goofspiel"), 3) is not compile_ruleset(load_ruleset("goofspiel"), 3)


@pytest.mark.parametrize("change", ["option", "seat names", "constant"])
def test_a_ruleset_changed_after_reading_is_compiled_again(change):
    with programs_shared():
        first = compile_ruleset(load_ruleset("goofspiel"), 2)
        ruleset = load_ruleset("goofspiel")
        if change == "option":
            ruleset = load_ruleset("goofspiel", options={"num_cards": 5})
        elif change == "seat names":
            ruleset.seat_names = ["north", "south", *ruleset.seat_names[2:]]
        else:
            value, where = ruleset.constants["num_cards"]
            ruleset.constants["num_cards"] = (value - 1, where)
        assert compile_ruleset(ruleset, 2) is not first


def test_the_check_shares_its_programs_and_the_smoke_games_theirs():
    """validate checks each player count, then plays smoke games on the same configurations."""
    with programs_shared():
        assert check(load_ruleset("goofspiel")) == []
        program = compile_ruleset(load_ruleset("goofspiel"), 2)  # the check's own 2-player program
        assert compile_ruleset(load_ruleset("goofspiel"), 2) is program
