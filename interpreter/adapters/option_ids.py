"""The action ids of one options list worked out option by option: what a node falls back to when
its options are not all whole numbers with known declared ids (nodes.declared_ids). Declared ids
are evaluated (and remembered) by the game; free actions, spots on a grid and ways to pay have
stable ids of their own; anything else is numbered by its position among the options.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from snowrules.compile.free_actions import FREE_KEY, is_free
from snowrules.language.diagnostics import Position, RuntimeRulesError
from snowrules.model.costs import payment_id
from snowrules.model.grid_spots import spot_id
from snowrules.model.grid_zones import cell_of, is_spot
from snowrules.model.state import State
from snowrules.model.values import Decision

if TYPE_CHECKING:
    from snowrules.adapters.openspiel import SnowrulesGame


def option_ids(game: SnowrulesGame, pending: Decision, group: str, options: list, st: State | None = None) -> list[int]:
    """The action ids of a node's options, in the options' order. Declared ids depend on the
    option and the game's parameters only (an id always means the same move), so each
    option's id is worked out once per game. "Nothing" (`optionally`) and combinations
    (`up to N`) have no declared ids: such a node numbers its options by position, in the order
    the seat is shown them (`st`: components of an `unordered` zone sorted by name, so that the
    same id means the same card in every state the seat cannot tell apart)."""
    if game.free_ids is not None and options and is_free(options[-1]):
        return _free_ids(game, pending, group, options, st)
    if group == "choice" and options and all(map(is_spot, options)):
        return _spot_ids(game, pending, options)
    if options and payment_id(options[0]) is not None:
        return _payment_ids(game, pending, options)
    known = game.ids.get((group, pending.kind))
    if known is not None and None not in options:
        try:
            ids = list(map(known.__getitem__, options))
        except KeyError:
            ids = [known[o] if o in known else game.id_of(group, pending, o) for o in options]
        except TypeError:  # combinations (lists): positions instead
            ids = None
        if ids is not None:
            if len(set(ids)) != len(ids):
                raise RuntimeRulesError.at(Position.parse(pending.rule), "two options of this decision "
                                           f"have the same action id: {ids}", "see the manifest's action_ids")
            return ids
    limit = game.chance_size if group == "chance" else game.distinct
    if len(options) > limit:
        what = "chance_outcomes" if group == "chance" else "distinct"
        raise RuntimeRulesError.at(Position.parse(pending.rule),
                                   f"{len(options)} options here, more than the {limit} ids the game has",
                                   f"declare `action_ids: {{{what}: ...}}` in the ruleset's manifest")
    if st is not None and group == "choice" and game.sight.unordered:
        shown = game.sight.options_shown(st, options, pending.kind)
        if shown is not options:  # a combination is known by its items, whatever their order
            def key(option):
                return tuple(sorted(option)) if type(option) is list else option
            place = {key(option): at for at, option in enumerate(shown)}
            return [place[key(option)] for option in options]
    return list(range(len(options)))


def _payment_ids(game: SnowrulesGame, pending: Decision, options: list) -> list[int]:
    """A payment's ways: each its own stable id (model/costs.py), which depends on the way
    alone, so "1 coin + 1 gem" has one id whatever else the payer holds."""
    ids = [payment_id(option) for option in options]
    limit = game.distinct
    if max(ids) >= limit:
        way = options[ids.index(max(ids))]["name"]
        raise RuntimeRulesError.at(Position.parse(pending.rule),
                                   f"the way to pay {way!r} has the id {max(ids)}, not one of 0..{limit - 1}",
                                   "declare more ids: `action_ids: {distinct: ...}` in the ruleset's manifest")
    return ids


def _free_ids(game: SnowrulesGame, pending: Decision, group: str, options: list, st: State | None) -> list[int]:
    """A decision that offers free actions: its normal options' ids as without them, then
    each free action's id (see FreeActionIds)."""
    first = next(i for i, option in enumerate(options) if is_free(option))
    ids = option_ids(game, pending, group, options[:first], st) if first else []
    value_id = None
    if ("choice", "value") in game.interface:
        def value_id(item):
            return game.evaluate(("choice", "value"), State(), item)
    places: dict[int, int] = {}
    for option in options[first:]:
        index = option[FREE_KEY]
        place = places[index] = places.get(index, -1) + 1
        found = game.free_ids.of(option, place, value_id)
        if found is None:
            raise RuntimeRulesError.at(Position.parse(pending.rule),
                                       f"the free action option {game.engine.label(option)!r} has no "
                                       "action id", "its item is outside the ids of its kind")
        ids.append(found)
    return ids


def _spot_ids(game: SnowrulesGame, pending: Decision, options: list) -> list[int]:
    """Spots on a grid zone (placements(...)) are numbered by model.grid_spots.spot_id: an anchor
    and a rotation have the same id in every state, whatever else is legal there."""
    ids = [spot_id(cell_of(o["cell"]), o["rotation"]) for o in options]
    rule = Position.parse(pending.rule)
    if max(ids) >= game.distinct:
        raise RuntimeRulesError.at(rule, f"a spot's id is {max(ids)}, not one of 0..{game.distinct - 1}",
                                   "declare `action_ids: {distinct: N}` in the manifest: spots within R cells "
                                   "of the origin need 4 * (2R + 1)^2 ids")
    if len(set(ids)) != len(ids):
        raise RuntimeRulesError.at(rule, "two spots of this decision have the same anchor and rotation",
                                   "offer each spot once")
    return ids
