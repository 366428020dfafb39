"""Determinization: one possible world consistent with what a player may see.

A search agent must not read what its player cannot see, yet the engine can only run complete
states. So, at each decision, the agent samples complete states that agree with the player's
view: the zones the view shows stay as they are; the components of every zone it does not show
(the other players' hands, face-down decks) are pooled and dealt back at random, each zone keeping
its size. The random generator inside the state is replaced too, since it decides the future
draws, which nobody may know.

The pool is taken in component order, never in the order the real zones hold it, so two real
states that the player cannot tell apart give the same sampled worlds for the same generator.

What is kept apart:
- components of different lists (component files) or owners are dealt only among themselves: a
  player knows the back of a component and whose it is (a component of one seat's set never lands
  in another seat's zone), so each zone keeps, position by position, the kind of component it held;
- a counter on a component (`counter ... per component`) is seen with its component: in the
  sample, the counter of every component dealt into an unseen zone is at its start value, since
  the player does not know it (the real values would tell what the hidden components are);
- the box (components the game has not brought in or has put away) is left alone: setup puts
  there what the rules do not use at this player count, which every player knows;
- what a player could remember or infer (a component seen face up earlier and hidden since, an
  option someone did not take when they could) is not modelled: the sample agrees with the view,
  not with the whole history.
"""
from __future__ import annotations

import random

from snowrules.model.layout import BOX
from snowrules.model.state import State
from snowrules.runtime.engine import Game

MASK64 = (1 << 64) - 1


def unseen_zones(game: Game, player: int) -> list[int]:
    """The zone instances whose content `player` does not see: the same rule as `Game.view`
    (public zones, and hidden zones of the player's own seats, are seen), the box excepted."""
    seats = set(game.program.seats_of(player))
    return [index for index, zone in enumerate(game.layout.zones)
            if zone.family != BOX
            and not (zone.visibility == "public" or (zone.visibility == "hidden" and zone.owner in seats))]


def determinize(game: Game, st: State, player: int, rng: random.Random) -> State:
    """A copy of `st` (waiting at its decision, ready for `game.answer`) whose unseen zones are
    re-dealt at random from `rng`, whose future chance comes from `rng`, and whose pending
    decision is asked again so that every seat's options come from the sampled zones."""
    world = game.suspended_copy(st)
    layout = game.layout
    files, owners = layout.component_files, layout.fields["owner"]
    zones = unseen_zones(game, player)
    pools: dict[tuple, list[int]] = {}
    for index in zones:
        for component in world.zones[index]:
            pools.setdefault((files[component], owners[component]), []).append(component)
    for pool in pools.values():
        pool.sort()  # forget the real arrangement before shuffling
        rng.shuffle(pool)
    where = world.where
    for index in zones:
        dealt = [pools[(files[c], owners[c])].pop() for c in world.zones[index]]
        world.zones[index] = dealt
        for component in dealt:
            where[component] = index
    unseen = set(zones)
    for family in layout.counter_families.values():
        if family.per_component:
            for slot, component in enumerate(family.holders):
                if where[component] in unseen:
                    world.counters[family.base + slot] = family.initial
    world.rng = rng.getrandbits(64) & MASK64
    if game.decision(world) is not None and not game.is_chance(world):
        game.ask_again(world)
    return world
