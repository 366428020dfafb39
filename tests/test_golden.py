"""Golden transcripts: a seeded game of every configuration plays exactly as recorded.

A change of behaviour shows here as the first differing event; if it is intended, run
`python tools/regen_golden.py` and review the diff of tests/golden/."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import config_id, configurations

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from regen_golden import GOLDEN, transcript  # noqa: E402


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_game_matches_its_golden_transcript(config):
    path = GOLDEN / f"{config_id(config)}.jsonl"
    assert path.is_file(), f"no golden transcript for {config_id(config)}: run tools/regen_golden.py"
    expected = path.read_text().splitlines()
    got = transcript(config)
    for number, (a, b) in enumerate(zip(expected, got), 1):
        assert a == b, f"{path.name}:{number}: recorded {a}\n  now {b}"
    assert len(expected) == len(got)
