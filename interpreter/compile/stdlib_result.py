"""`tie_broken(players)`: the rules apply the tie-breakers the manifest declares for the result.

A rulebook's tie-breakers ("in case of a tie, the player with the most window tiles wins; if still
tied, ...") are said once, in the manifest's `result: tie_breaks:` (load/result_section.py), where
the result's reading takes them to say what decided a tie (play/results.py). The rules that name
the winners take them from there too, so the order is written in one place:

    end game winners tie_broken([each p in players where p.score == max(...)])

Each function is one registry entry (library.py), as in stdlib.py, which imports this module.
"""
from __future__ import annotations

from snowrules.compile.fuse import fused
from snowrules.compile.library import Call, function
from snowrules.model import kinds as t
from snowrules.model.state import State


@function("tie_broken", "of these players, those the manifest's declared tie-breakers keep (`result: tie_breaks:`, "
          "in order, while more than one is left)", "tie_broken(most_vp(players))",
          (t.list_of(t.PLAYER),), t.list_of(t.PLAYER))
def _tie_broken(call: Call):
    """Each tie-breaker in the declared order keeps the players with the most (or the fewest) of
    its value, until one player is left or the tie-breakers run out (the players still tied share)."""
    players = call.args[0]
    symbols = call.compiler.sym
    keys = symbols.tie_breaks
    if not keys:
        call.compiler.diag.error(call.position, "tie_broken() applies the tie-breakers the manifest declares, and "
                                 "this ruleset declares none", "declare them in ruleset.yaml: `result: tie_breaks: "
                                 "[{most: size(p.hand), as: cards in hand}]`", code="SR751")
        return players
    compiled = symbols.result_expressions  # filled once the rules are compiled: read as the game runs

    def tie_broken(st: State, tied: list[int]) -> list[int]:
        left = list(tied)
        for key in keys:
            if len(left) < 2:
                break
            fn, size, slot, _ = compiled[key]
            values = []
            for p in left:
                local = [None] * size
                local[slot] = p
                values.append(fn(st, local))
            left = key.keeps(left, values)
        return left
    return fused("{v0}(st, {p0})", [players], [tie_broken])
