"""Playing a batch of seeded games: what every simulation runner (one process, local workers, a
Dask cluster) calls, so that a game's result depends only on its index and the master seed.

Each process compiles a game once (`_game_for` caches it) and then plays any number of batches.
Game i's seed is the i-th output of SplitMix64 started from the master seed, so the results do
not depend on how many workers there are or how the games were split between them.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, repeat
from operator import add, eq, rshift

from snowrules.model.layout import Layout
from snowrules.model.move_tally import MoveTally
from snowrules.model.program import Program
from snowrules.model.rng import GOLDEN, MASK, next_u64, seed_state
from snowrules.play.metrics import MetricsTracker
from snowrules.play.out_of_memory import placed_memory_errors
from snowrules.records.game_table import GameRecord
from snowrules.runtime.clock import game_clock
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import player_returns


@dataclass(frozen=True)
class GameSpec:
    """Everything that picks the game to play, as plain values (it is sent to other processes)."""

    ruleset: str
    variant: str | None
    players: int
    agents: tuple[str, ...]          # one agent name per player
    options: tuple = ()              # (name, value) pairs of the ruleset's game parameters
    track_components: bool = True    # follow move events to count plays (costs speed)
    time_limit: float | None = None  # seconds of one game (runtime/clock.py); None: no limit
    constants: tuple = ()            # (name, value) pairs: constants given other values (load/overrides.py)


def game_seed(master_seed: int, index: int) -> int:
    """Seed of game `index`: the index-th number of SplitMix64 from a mix of the master seed, cut to
    32 bits so a designer can type it after `snowrules run --seed`."""
    _, start = next_u64(seed_state(master_seed))
    _, bits = next_u64((start + index * GOLDEN) & MASK)
    return bits >> 32


class PlayTracker:
    """Counts which components each player played in a game, from its moves.

    A component counts as *played* by a player when a rule moves it out of a zone that only one of
    that player's seats sees (a hand) into a zone everybody sees, or into a face-down zone of that
    same seat (a secret bid). Moves into another hidden zone of the same seat (a hand to a hidden
    holding area) and into a shared face-down zone (cards gathered back into a deck) are not plays.
    A component counts as *held* when it enters such a hand zone. Components are named by their
    definition (copies and each seat's own set count as one name).

    What counts is a matter of the two zones only, so the tracker is a move tally
    (model/move_tally.py): each pair of zones whose moves are plays counts in its player's slot,
    each pair into a hand in the last slot (held), and the game counts them itself, with no event."""

    def __init__(self, program: Program):
        layout: Layout = program.layout
        self._names = []  # each component's name, without its owner's seat name
        owners = layout.fields.get("owner", [None] * len(layout.component_names))
        for name, owner in zip(layout.component_names, owners):
            prefix = f"{layout.seat_names[owner]} " if owner is not None else ""
            self._names.append(name[len(prefix):] if prefix and name.startswith(prefix) else name)
        zones = layout.zones
        self._zones, self._controller, self._automa = zones, program.controller, layout.automa
        self._players = program.players
        hand = [zone.visibility == "hidden" and zone.owner is not None for zone in zones]
        held = self._players  # the slot of moves into a hand
        into_hand = [held if hand[b] else None for b in range(len(zones))]  # the row of a zone that is no hand
        slots = [[held if hand[b] else self._player(a, b) for b in range(len(zones))] if hand[a] else into_hand
                 for a in range(len(zones))]
        self.tally = MoveTally(slots, self._players + 1, len(layout.component_names))
        self._everyone = range(len(layout.component_names))
        # A play as one number, (the name's place in the names' order, the player) above the
        # times it was played (copies of a name share its place), so that a game's plays are
        # sorted as numbers; each entry (name, player, times) and each held list is made once
        # and shared by every game that has it: a record costs about a pointer per entry (a
        # tenth of the memory, and pickling a batch keeps the sharing).
        ordered = sorted(set(self._names))
        place = {name: i for i, name in enumerate(ordered)}
        self._rank = [place[name] for name in self._names]
        players = self._players
        self._keys = [[(place[name] * players + player) << _TIMES for name in self._names] for player in range(players)]
        self._copies = len(ordered) < len(self._names)
        self._entries = _Made(lambda key: (ordered[(key >> _TIMES) // players], (key >> _TIMES) % players,
                                           key & _TIMES_MASK))
        self._held = _Made(lambda ranks: tuple(ordered[r] for r in ranks))

    def _player(self, source: int, dest: int) -> int | None:
        """Who plays a component moved from zone `source` to zone `dest`, or None (no play)."""
        a, b = self._zones[source], self._zones[dest]
        if a.visibility != "hidden" or a.owner is None or a.owner == self._automa:
            return None  # the automa is no player: what it plays is not counted
        if b.visibility == "public" or (b.visibility == "secret" and b.owner == a.owner):
            return self._controller(a.owner)
        return None

    def take(self) -> tuple[tuple[tuple[str, int, int], ...], tuple[str, ...]]:
        """This game's plays (name, player, times), sorted, and the names held; the tracker is
        then ready for the next game."""
        counts = self.tally.take()
        everyone = self._everyone
        found: list[int] = []
        for row, keys in zip(counts, self._keys):
            played = list(compress(everyone, row))  # the components it played (most rows are all 0)
            if played:
                found += map(add, map(keys.__getitem__, played), map(row.__getitem__, played))
        found.sort()
        if self._copies:  # copies of one name played by one player: one entry, their plays summed
            names = list(map(rshift, found, repeat(_TIMES)))
            for i in reversed(list(compress(range(1, len(names)), map(eq, names, names[1:])))):
                found[i - 1] += found.pop(i) & _TIMES_MASK
        plays = tuple(map(self._entries.__getitem__, found))
        rank = self._rank
        held = self._held[tuple(sorted(set(map(rank.__getitem__, compress(everyone, counts[self._players])))))]
        return plays, held


_TIMES = 40  # the bits of a play's number that count its times (MoveTally counts stay far below 2**40)
_TIMES_MASK = (1 << _TIMES) - 1


class _Made(dict):
    """A dict that makes a missing value from its key (`make`) and keeps it."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, key):
        value = self[key] = self._make(key)
        return value


_GAMES: dict[GameSpec, Game] = {}


def _game_for(spec: GameSpec) -> Game:
    """The compiled game of a spec, compiled once per process."""
    game = _GAMES.get(spec)
    if game is None:
        game = _GAMES[spec] = Game(_program(spec))
    return game


def _program(spec: GameSpec) -> Program:
    """The spec's program: its ruleset with its options and, when given, its constants set (a
    sweep's point, or --constant): read afresh, the values set, compiled."""
    from snowrules.compile.compiler import compile_ruleset, load_program
    if not spec.constants:
        return load_program(spec.ruleset, spec.variant, spec.players, spec.options)
    from snowrules.load.overrides import set_constants
    from snowrules.load.ruleset import load_ruleset
    ruleset = load_ruleset(spec.ruleset, spec.variant, dict(spec.options))
    set_constants(ruleset, dict(spec.constants))
    return compile_ruleset(ruleset, spec.players)


def forget(spec: GameSpec) -> None:
    """Drop the compiled game of a spec no longer played (a sweep compiles one per point)."""
    _GAMES.pop(spec, None)


def play_batch(spec: GameSpec, master_seed: int, indexes: list[int]) -> list[GameRecord]:
    """Play the games of these indexes, in order; a pure function of its arguments. Run by worker
    processes: a MemoryError carries its place back (play/out_of_memory.py)."""
    with placed_memory_errors():
        return _played(spec, master_seed, indexes)


def _played(spec: GameSpec, master_seed: int, indexes: list[int]) -> list[GameRecord]:
    from snowrules.play.agents import agent_seed, make_agent, parse_agents, play
    game = _game_for(spec)
    agent_specs = [parse_agents(name)[0] for name in spec.agents]  # read once, built for each game
    tracker = PlayTracker(game.program) if spec.track_components else None
    # the game metrics are read at each decision (play/metrics.py): both or neither
    metrics = MetricsTracker(game.program) if spec.track_components else None
    records = []
    for index in indexes:
        seed = game_seed(master_seed, index)
        agents = [make_agent(agent, agent_seed(seed, i)) for i, agent in enumerate(agent_specs)]
        with game_clock(spec.time_limit, game.program):
            st = play(game, agents, seed, tally=tracker.tally if tracker is not None else None,
                      observe=metrics)
        outcome = game.outcome(st)
        plays, held = tracker.take() if tracker is not None else ((), ())
        measured = metrics.take(outcome.scores, outcome.winners) if metrics is not None else None
        returns = player_returns(game.program, st)
        records.append(GameRecord(index, seed, tuple(outcome.scores), tuple(outcome.winners), outcome.turns,
                                  plays, held, tuple(returns) if returns is not None else None, measured))
    return records


def player_names(spec: GameSpec) -> list[str]:
    """Each player by their seats' names (a player with several seats: "red & blue")."""
    program = _game_for(spec).program
    names = program.layout.seat_names
    return [" & ".join(names[s] for s in program.seats_of(p)) for p in range(program.players)]
