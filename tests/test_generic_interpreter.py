"""The interpreter knows no game: no game's name, card or rule appears in its code."""
from __future__ import annotations

import re
from pathlib import Path

INTERPRETER = Path(__file__).resolve().parent.parent / "interpreter"
WORDS = re.compile(r"snow.?time|snowfall|snowy|snow.?planner|healer|watcher|snowstorm|fruit|mana\b|croissant|"
                   r"wanderlust|instructor|rabbit|bear\b|pond|cabin|summit|guest|vip\b|talent|prediction prize|"
                   r"\bsnow\b|ticket|hotel|\btrail\b|woods|\bbush|\btree\[(?:\d|l)|.tree. in|window #",
                   re.IGNORECASE)


def test_no_game_words_in_the_interpreter():
    hits = []
    for path in sorted(INTERPRETER.rglob("*")):
        if path.suffix not in (".py", ".lark"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if WORDS.search(line):
                hits.append(f"{path.name}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)
