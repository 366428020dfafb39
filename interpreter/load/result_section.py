"""A manifest's `result:` section: how a player's result reads once the game is over.

A rulebook often says more at the end than who won: a solo game's score earns a title from a
table ("-17: Lost Traveler"), and when the best score is shared the rulebook's tie-breakers,
in order, decide. The rules decide the winners (`end game winners ...`); this section says how
the result reads to a person, so that the interpreter can tell it at the result (the account's
last line, the result table at the terminal and in the browser) without an `announce`, and
without a change to the log: everything is worked out from the state the game ends in.

```yaml
result:
  title: rank_of(p.score)                 # a text, or none for no title; `p` is the player
  tie_breaks:                             # the rulebook's order, after the score
    - {most: windows(p), as: window tiles}
    - {fewest: p.debt, as: debt}
```

Each expression is parsed where it stands, with the manifest's other expressions (load/ruleset.py
`_interface`), under a key made here; compile/compiler.py compiles it with `p` bound to a player.
"""
from __future__ import annotations

from typing import NamedTuple

TITLE = ("result", "title")


class TieBreak(NamedTuple):
    """The key of one declared tie-breaker among the manifest's expressions: its place in the
    rulebook's order, whether the fewest (not the most) wins, and how it reads ("window tiles")."""

    kind: str        # always "tie": tells a tie-breaker's key from the other keys of the interface
    index: int
    fewest: bool
    text: str

    def keeps(self, players: list[int], values: list) -> list[int]:
        """Of `players` (each with its value, in order), those this tie-breaker keeps: the most,
        or the fewest. The rules' tie_broken() and the result's reading both walk by it."""
        best = (min if self.fewest else max)(values)
        return [p for p, value in zip(players, values) if value == best]


def result_places(manifest: dict) -> list[tuple[tuple, list]]:
    """Each expression of the `result:` section: its key and its path in the manifest (the
    schema has checked the section's shape: a tie-breaker has `most:` or `fewest:`, and `as:`)."""
    section = manifest.get("result", {})
    places: list[tuple[tuple, list]] = []
    if "title" in section:
        places.append((TITLE, ["result", "title"]))
    for i, entry in enumerate(section.get("tie_breaks", [])):
        fewest = "fewest" in entry
        places.append((TieBreak("tie", i, fewest, str(entry["as"])),
                       ["result", "tie_breaks", i, "fewest" if fewest else "most"]))
    return places


def tie_breaks(interface: dict) -> list[TieBreak]:
    """The declared tie-breakers, in the rulebook's order."""
    return sorted((key for key in interface if isinstance(key, TieBreak)), key=lambda k: k.index)
