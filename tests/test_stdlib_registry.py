"""The standard library declares itself: one registry entry per function, read by the checker and
listed in the language reference."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from snowrules.compile import stdlib  # noqa: F401 - fills the registry
from snowrules.compile.compiler import compile_ruleset
from snowrules.compile.library import REGISTRY
from snowrules.language.diagnostics import RulesetError
from snowrules.language.parser import parse_expression

from tests.test_language import ruleset

DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def documented_functions() -> set[str]:
    """The function names in the first column of docs/language.md's standard-library table."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Standard library", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            names.update(re.findall(r"`([a-z_]+)\(", first_cell))
    return names


def test_the_docs_table_lists_exactly_the_registered_functions():
    assert documented_functions() == set(REGISTRY)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_function_has_a_doc_and_an_example_that_parses_and_calls_it(name):
    function = REGISTRY[name]
    assert function.doc and not function.doc.endswith(".")
    parse_expression(function.example, "<example>", 1, 1)
    assert f"{name}(" in function.example


# The checker reads each function's parameter kinds and arity from the registry: a call that breaks
# the declaration is reported at the argument (or the call) with the declared words.
BAD_CALLS = [
    ('abs("x")', "3:18: error: the argument of abs() must be a number, not a text"),
    ("ratio(1)", "3:14: error: ratio() takes 2 argument(s), given 1"),
    ("ratio(1, first(players))", "3:23: error: the second argument of ratio() must be a number, not a player"),
    ("left_of(3)", "3:22: error: the argument of left_of() must be a player, not a number"),
    ("name_of(first(players))", "3:22: error: the argument of name_of() must be a component, not a player"),
    ("size(3)", "3:19: error: the argument of size() must be a list or a zone, not a number"),
    ("first(3)", "3:20: error: the argument of first() must be a list or a zone, not a number"),
    ('find(box, 3, 1)', "3:24: error: find() needs the field's name as a quoted text"),
    ('find(box, "colour", 1)', "3:24: error: no component has a field 'colour'"),
    ("min()", "3:14: error: min() takes at least 1 argument(s), given 0"),
    ("longest_run([true])", "3:14: error: longest_run() takes a list of numbers"),
    ("sizes(box)", "3:14: error: unknown function 'sizes'"),
]


@pytest.mark.parametrize(("call", "message"), BAD_CALLS, ids=[c for c, _ in BAD_CALLS])
def test_a_call_against_its_declaration_is_reported_where_it_is_wrong(tmp_path, call, message):
    rules = f"zone pile shared public\neach turn:\n    announce {call}\n    end game winners players\n"
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, rules), 2)
    assert f"rules.sr:{message}" in str(error.value)


def test_a_grid_zone_that_is_not_public_is_refused(tmp_path):
    # grid zones are in the language now (tests/test_grid_zones.py); their layout is seen by all
    rules = "zone layout shared hidden grid\neach turn:\n    end game winners players\n"
    with pytest.raises(RulesetError) as error:
        compile_ruleset(ruleset(tmp_path, rules), 2)
    assert "rules.sr:1:1: error: zone 'layout': a grid zone is public (everybody sees the layout)" in str(error.value)
