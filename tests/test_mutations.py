"""The mutation suite: each kind of planted mistake, in each bundled ruleset, is reported by
`validate` at the line where it was planted, with its code, and never as an internal error.

The full run (`python tests/mutations.py --all`) takes minutes; the test runs one mutation of
each kind in each ruleset. One kind is measured, not required: a deleted line (some deletions
leave valid rules: a line that only announces, an optional rule); it must not be an internal
error.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import mutations  # noqa: E402

CASES = mutations.sample(1)


def test_every_kind_of_mistake_is_planted_in_every_ruleset():
    kinds = {(m.ruleset, m.kind) for m in CASES}
    for ruleset in ("goofspiel", "oh_hell", "snow_time", "snowy_tricks"):
        mine = {kind for name, kind in kinds if name == ruleset}
        assert {"misspelt-name-in-rules", "wrong-yaml-type", "missing-field", "unknown-field", "duplicate-entry",
                "rules-indentation", "deleted-line", "unknown-scenario-variant", "scenario-reference",
                "missing-component-file"} <= mine, (ruleset, sorted(mine))
    assert {kind for _, kind in kinds} >= {"misspelt-name-in-effect", "swapped-arguments", "missing-argument",
                                            "yaml-indentation", "missing-variant-file"}


@pytest.mark.parametrize("mutation", CASES, ids=[m.label for m in CASES])
def test_planted_mistake_is_reported_at_its_line_with_its_code(mutation, tmp_path):
    outcome = mutations.run(mutation, tmp_path)
    assert not outcome.internal, outcome.internal
    if mutation.kind == "deleted-line":
        return  # measured by the report, not required: some deletions leave valid rules
    assert outcome.exact, f"not at line {mutation.report_line}: {outcome.found or 'nothing reported'}"
    assert outcome.code_ok, f"not {mutation.codes}: {outcome.found}"
