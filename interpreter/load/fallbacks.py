"""Warnings where the game's meaning would fall back silently (issue 25, "no silent fallbacks").

A manifest that declares `action_ids` says that an id means one move; a decision (or a random
pick) whose group has no declared ids (`choice:`, `chance:`) numbers its options by their place
among the node's options, so an id changes move when an earlier option is missing. Such a node
is a warning at its place, unless its options never change (a fixed list of constants, a range
of constants, a grid's spots, which have ids of their own) or the manifest says positions are
meant (`action_ids: {by_position: true}`). Combinations (`up to N`) and `optionally` always use
positions (docs/language.md) and are left alone.
"""
from __future__ import annotations

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic

# The manifest's action_ids keys (load/ruleset.py `_interface`): any of them declares ids.
ID_KEYS = ("distinct", "chance_outcomes", "max_game_length", "choice", "chance")
# Standard functions whose options have stable ids of their own (grid spots: model/grid_spots.py).
STABLE_SOURCES = ("placements",)
WHAT = {"choice": "decision", "chance": "random pick"}


def _fixed(source: s.Node) -> bool:
    """Options that never change from one node to the next: constants, a range of constants."""
    if isinstance(source, s.Literal):
        return True
    if isinstance(source, s.ListExpr):
        return all(isinstance(item, s.Literal) for item in source.items)
    if isinstance(source, s.Range):
        return isinstance(source.start, s.Literal) and isinstance(source.end, s.Literal)
    return isinstance(source, s.Call) and source.name in STABLE_SOURCES


def _group(node: s.Node) -> str | None:
    if isinstance(node, s.Choose) and not node.optional and node.count_mode is None:
        return "choice"
    if isinstance(node, s.RandomPick):
        return "chance"
    return None


def position_id_warnings(interface: dict[tuple, object], by_position: bool, bodies: list[s.Node]) -> list[Diagnostic]:
    """A warning at each decision or random pick of `bodies` (rules files, effects) whose options
    are numbered by position while the manifest (its parsed `interface`) declares action ids."""
    declared = {key[0] for key in interface}
    if by_position or not declared & set(ID_KEYS):
        return []
    found: dict[tuple, Diagnostic] = {}
    for body in bodies:
        for node in s.walk(body):
            group = _group(node)
            if group is None or group in declared or _fixed(node.source):
                continue
            found.setdefault((node.pos.path, node.pos.line, node.pos.col), Diagnostic(
                node.pos, f"the options of this {WHAT[group]} are numbered by their place among its options: "
                f"the manifest's action_ids declares no `{group}:` ids",
                f"an id then means another option when one before it is missing; declare `{group}: "
                "{component: ..., value: ..., player: ...}` under action_ids (`it` is the option), or "
                "`by_position: true` if positions are meant", severity="warning", code="SR408"))
    return list(found.values())
