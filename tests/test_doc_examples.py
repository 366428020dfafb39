"""Every ```snowrules example of the language reference's construct sections parses: a whole
rules file ("rules") or statements ("statements", as in an `effect:`). The table lists each
section's examples in order, so an example added without a row fails here too; an example that
is only a sketch is marked so in the table and skipped. The sections' first examples are also
run, with their expected outcome, by the construct's own tests (test_reactions, test_costs,
test_free_actions, test_grid_zones, test_constructs_together)."""
from __future__ import annotations

from pathlib import Path

import pytest
from snowrules.language.parser import parse_effect, parse_rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"

EXAMPLES = {   # section heading: how each of its ```snowrules blocks parses, in order
    "## Grids": ["rules", "rules"],
    "## Boards": ["rules", "rules"],
    "## Drawing a grid zone": [],
    "## Events and reactions": ["rules"],
    "## Costs": ["statements"],
    "## Free actions": ["rules"],
    "## Counters on components": ["rules"],
    "## The automa: a seat the rules play": ["rules"],
    "## The constructs together": ["rules"],
}


def blocks(heading: str) -> list[tuple[int, str]]:
    """The section's ```snowrules blocks, each with the line of the doc it starts on."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    found, i = [], start
    while i < end:
        if lines[i] == "```snowrules":
            close = lines.index("```", i + 1)
            found.append((i + 2, "\n".join(lines[i + 1:close]) + "\n"))
            i = close
        i += 1
    return found


@pytest.mark.parametrize("heading", list(EXAMPLES))
def test_the_section_has_the_examples_the_table_lists(heading):
    assert len(blocks(heading)) == len(EXAMPLES[heading])


CASES = [(heading, n, how) for heading, hows in EXAMPLES.items() for n, how in enumerate(hows) if how != "sketch"]


@pytest.mark.parametrize("heading,number,how", CASES, ids=[f"{h[3:]} {n + 1}" for h, n, _ in CASES])
def test_every_example_of_the_construct_sections_parses(heading, number, how):
    line, text = blocks(heading)[number]
    if how == "rules":
        assert parse_rules(text, f"docs/language.md@{line}").declarations
    else:
        assert parse_effect(text, "docs/language.md", line, 1).statements
