"""Playing a batch of seeded games: what every simulation runner (one process, local workers, a
Dask cluster) calls, so that a game's result depends only on its index and the master seed.

Each process compiles a game once (`_game_for` caches it) and then plays any number of batches.
Game i's seed is the i-th output of SplitMix64 started from the master seed, so the results do
not depend on how many workers there are or how the games were split between them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from snowrules.model.events import Chosen, CounterChanged, Event, Moved
from snowrules.model.layout import Layout
from snowrules.model.program import Program
from snowrules.model.rng import GOLDEN, MASK, next_u64, seed_state
from snowrules.play.metrics import MetricsTracker, counting
from snowrules.records.game_table import GameRecord
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


def game_seed(master_seed: int, index: int) -> int:
    """Seed of game `index`: the index-th number of SplitMix64 from a mix of the master seed, cut to
    32 bits so a designer can type it after `snowrules run --seed`."""
    _, start = next_u64(seed_state(master_seed))
    _, bits = next_u64((start + index * GOLDEN) & MASK)
    return bits >> 32


class PlayTracker:
    """Counts, from a game's move events, which components each player played.

    A component counts as *played* by a player when a rule moves it out of a zone that only one of
    that player's seats sees (a hand) into a zone everybody sees, or into a face-down zone of that
    same seat (a secret bid). Moves into another hidden zone of the same seat (a hand to a hidden
    holding area) and into a shared face-down zone (cards gathered back into a deck) are not plays.
    A component counts as *held* when it enters such a hand zone. Components are named by their
    definition (copies and each seat's own set count as one name)."""

    def __init__(self, program: Program):
        layout: Layout = program.layout
        self._zones = layout.zones
        self._names = []  # each component's name, without its owner's seat name
        owners = layout.fields.get("owner", [None] * len(layout.component_names))
        for name, owner in zip(layout.component_names, owners):
            prefix = f"{layout.seat_names[owner]} " if owner is not None else ""
            self._names.append(name[len(prefix):] if prefix and name.startswith(prefix) else name)
        self._controller = program.controller
        self._automa = layout.automa
        self.plays: Counter = Counter()
        self.held: set[str] = set()
        self._shared: dict = {}

    def feed(self, event: Event) -> None:
        """Listen to one event of the game (a value: no JSON is made for it)."""
        if event.__class__ is not Moved:
            return
        source, dest = self._zones[event.source], self._zones[event.dest]
        names = self._names
        if dest.visibility == "hidden" and dest.owner is not None:
            self.held.update(names[c] for c in event.components)
        if source.visibility != "hidden" or source.owner is None or source.owner == self._automa:
            return  # the automa is no player: what it plays is not counted
        if dest.visibility == "public" or (dest.visibility == "secret" and dest.owner == source.owner):
            player = self._controller(source.owner)
            for c in event.components:
                self.plays[names[c], player] += 1

    def take(self) -> tuple[tuple[tuple[str, int, int], ...], tuple[str, ...]]:
        """This game's plays and held names; the tracker is then ready for the next game.

        The same (name, player, times) entries and held lists recur from game to game: each is
        kept once and shared, so a record costs about a pointer per entry (a tenth of the memory,
        and pickling a batch keeps the sharing)."""
        shared = self._shared
        plays = tuple(shared.setdefault(entry, entry)
                      for entry in sorted((name, player, times) for (name, player), times in self.plays.items()))
        held = tuple(sorted(self.held))
        held = shared.setdefault(held, held)
        self.plays, self.held = Counter(), set()
        return plays, held


_GAMES: dict[GameSpec, Game] = {}


def _game_for(spec: GameSpec) -> Game:
    """The compiled game of a spec, compiled once per process."""
    game = _GAMES.get(spec)
    if game is None:
        from snowrules.compile.compiler import load_program
        game = _GAMES[spec] = Game(load_program(spec.ruleset, spec.variant, spec.players, spec.options))
    return game


def play_batch(spec: GameSpec, master_seed: int, indexes: list[int]) -> list[GameRecord]:
    """Play the games of these indexes, in order; a pure function of its arguments."""
    from snowrules.play.agents import agent_seed, make_agent, play
    game = _game_for(spec)
    tracker = PlayTracker(game.program) if spec.track_components else None
    # the game metrics follow the same events (play/metrics.py): both or neither, one listener
    metrics = MetricsTracker(game.program) if spec.track_components else None
    listen = _listener(tracker, metrics) if tracker is not None and metrics is not None else None
    records = []
    for index in indexes:
        seed = game_seed(master_seed, index)
        agents = [make_agent(name, agent_seed(seed, i)) for i, name in enumerate(spec.agents)]
        st = play(game, agents if metrics is None else counting(agents, metrics), seed, listen=listen)
        outcome = game.outcome(st)
        plays, held = tracker.take() if tracker is not None else ((), ())
        measured = metrics.take(outcome.scores, outcome.winners) if metrics is not None else None
        returns = player_returns(game.program, st)
        records.append(GameRecord(index, seed, tuple(outcome.scores), tuple(outcome.winners), outcome.turns,
                                  plays, held, tuple(returns) if returns is not None else None, measured))
    return records


def _listener(tracker: PlayTracker, metrics: MetricsTracker):
    """One listener for both trackers: each event goes to the one that reads its kind (a dictionary
    look-up per event, the others ignored: the game's events are many)."""
    handlers = {Moved: tracker.feed, CounterChanged: metrics.counter_changed, Chosen: metrics.chosen}
    get = handlers.get

    def listen(event: Event) -> None:
        handler = get(event.__class__)
        if handler is not None:
            handler(event)
    return listen


def player_names(spec: GameSpec) -> list[str]:
    """Each player by their seats' names (a player with several seats: "red & blue")."""
    program = _game_for(spec).program
    names = program.layout.seat_names
    return [" & ".join(names[s] for s in program.seats_of(p)) for p in range(program.players)]
