#!/usr/bin/env python3
"""Write the golden transcripts: one seeded random game per bundled ruleset, variant and player
count, as JSON Lines without rule positions (tests/golden/). tests/test_golden.py replays them
and shows the first difference; run this script when a change of behaviour is intended, and
review the diff."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import config_id, configurations, game_for  # noqa: E402
from snowrules.play.agents import RandomAgent, agent_seed, play  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
SEED = 2024


def transcript(config) -> list[str]:
    game = game_for(config)
    events: list[dict] = []
    play(game, [RandomAgent(agent_seed(SEED, i)) for i in range(config[2])], SEED, sink=events.append)
    return [json.dumps({k: v for k, v in e.items() if k != "rule"}, sort_keys=True) for e in events]


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for config in configurations():
        path = GOLDEN / f"{config_id(config)}.jsonl"
        path.write_text("\n".join(transcript(config)) + "\n")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
