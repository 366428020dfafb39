"""A game's events as a readable account, for `snowrules run`.

Events are generic (moves, counter changes, dice, choices, phases), so the account is too; a
ruleset adds prose with `announce`. Setup moves are summed up rather than listed.

A person reads components as their list's `label:` says, with the values they have when the
event happens ("green die showing 3: green.workers -> space[7]"; load/labels.py): the account is
fed the events' JSON forms, which keep the plain names a log keeps, and an `AccountLabels`
listener, told each event's value just before its JSON form, works out the labels from the live
state. A counter's line keeps the plain name of the component it is on: the line itself says
the value. A counter itself reads as its declaration says (`counter res[coin] per player as
"{key}s"`), else by its key or its name in words ("red: coin +2 (now 5)", play/prompts.py).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from snowrules.model.events import Chosen, CounterChanged, Moved, Reacted
from snowrules.model.grid import Cell
from snowrules.model.grid_board import column_name, row_name
from snowrules.model.grid_spots import describe_placement
from snowrules.play.prompts import counter_name, option_text, zone_name
from snowrules.play.results import declares_result, seat_titles, tie_line

if TYPE_CHECKING:
    from snowrules.model.state import State
    from snowrules.runtime.engine import Game


class AccountLabels:
    """The labels of the components the next event names, worked out when its value is heard
    (`listen`, before its JSON form reaches the Narrator), from the state of the game being
    played, which `observe` is given at each decision (play(observe=...)) or `follow` directly.
    Until a state is known (the moves before a game's first decision) events keep plain names,
    and so does every event of a ruleset without labels."""

    def __init__(self, game: Game):
        self.game = game
        self.state: State | None = None
        program = game.program
        self.active = any(label is not None for label in game.layout.labels) or bool(program.option_texts) \
            or bool(program.counter_texts) or declares_result(program)
        self._counters = {label: i for i, label in enumerate(game.layout.counter_labels)}
        self._blank: State | None = None  # the state a game starts from, for counters' texts at setup
        # a zone label -> its index, for the zones whose declaration says how they read
        self._zones = {z.label(game.layout.seat_names): i for i, z in enumerate(game.layout.zones)
                       if z.family in program.zone_texts}
        self.moved: list[str] | None = None   # the components of the next move event, as read
        self.chosen: str | None = None         # the option of the next choice event
        self.card: str | None = None           # the reacting component of the next reaction event

    def follow(self, st: State) -> None:
        """Read labels from `st` from now on (the state a web table or a watched game holds)."""
        self.state = st

    def observe(self, st: State, seat: int, count: int) -> None:
        """play()'s `observe`: the state of the game, at each decision."""
        self.state = st

    def listen(self, event) -> None:
        st = self.state
        if st is None or not self.active:
            return
        game = self.game
        if event.__class__ is Moved:
            self.moved = [game.component_label(st, c) for c in event.components]
        elif event.__class__ is Chosen:
            self.chosen = option_text(game, st, event.value, event.seat) or game.shown_label(st, event.value)
        elif event.__class__ is Reacted and event.card is not None:
            self.card = game.component_label(st, event.card)

    def zone(self, label: str) -> str:
        """A zone of an event (by its label) as a person reads it now (play/prompts.py zone_name)."""
        index = self._zones.get(label)
        return label if index is None else zone_name(self.game, self._readable(), index)

    def ending(self) -> tuple[dict[str, str], str | None]:
        """Once the state followed is over: each seat's title and what decided a tie (the
        manifest's `result:`, play/results.py); nothing before."""
        st = self.state
        if st is None or st.result is None:
            return {}, None
        return seat_titles(self.game, st), tie_line(self.game, st)

    def _readable(self) -> State:
        """The state texts are read from: the game's now, or before its first decision (the
        setup) the state a game starts from, everything in the box (a zone's or a counter's
        text reads its key and owner)."""
        if self.state is not None:
            return self.state
        if self._blank is None:
            self._blank = self.game.unstarted()
        return self._blank

    def counter(self, label: str) -> str | None:
        """A counter of an event (by its plain label) as a person reads it now, without its owner
        (play/prompts.py counter_name); None for a counter on a component (told by its plain name
        after the component's)."""
        index = self._counters.get(label)
        if index is None:
            return None
        name = counter_name(self.game, self._readable(), index)
        return None if name == label else name

    def take_moved(self, count: int) -> list[str] | None:
        moved, self.moved = self.moved, None
        return moved if moved is not None and len(moved) == count else None

    def take_chosen(self) -> str | None:
        chosen, self.chosen = self.chosen, None
        return chosen

    def take_card(self) -> str | None:
        card, self.card = self.card, None
        return card


class Narrator:
    """Turns a stream of events into lines; call `feed` per event (lines go to `write`)."""

    def __init__(self, show_rules: bool = False, write=None, secrets: dict[str, bool] | None = None,
                 unseen: UnseenCounters | None = None, solo: bool = False,
                 labels: AccountLabels | None = None, boards: dict[str, int] | None = None,
                 turn_word: str = "turn"):
        """`secrets` (zone label -> hidden from the reader) makes an account for a player at the
        table: components moving between zones they may not see are counted, not named, and other
        seats' choices are not told (their effects, when public, are); with `unseen`, a change of
        a counter on a component the reader cannot see is not told either. A `solo` game (one
        player, no automa) ends with the player's score, not with a winner. With `labels`, moved,
        chosen and reacting components read as their list's `label:` says, with values. `boards`
        (a bounded grid zone's label -> its columns) names a cell of a board as its players do
        (`c4`). `turn_word` heads each pass of the main section: "Round 3" where the rules play
        `rounds N:` (Program.turn_word)."""
        self.turn_word = turn_word.capitalize()
        self.labels = labels
        self.boards = boards or {}
        self.secrets = secrets
        self.unseen = unseen
        self.show_rules = show_rules
        self.write = write or (lambda line: None)
        self.phase = ""
        self.header: str | None = None   # a phase's title, written before its first event
        self.setup_moves = 0
        self.revealed: list[str] = []
        self.counts: list[dict] = []     # consecutive counter changes of one seat, told on one line
        self.solo = solo
        self.scores: dict[str, int] = {}  # each seat's score as last told (`SEAT.score`), for a solo ending
        # the setup's lines not yet written, in order: [text, times, foldable]; a foldable line (a
        # shuffle, an announce) that comes again is counted on its first line ("shuffled x", 4)
        self.held: list[list] = []
        self.ended: dict | None = None   # the end event, told at `flush` with the result's reading

    def flush(self) -> None:
        """Write what is still gathered (once the game is over, and before a person is asked).
        The game's end is told here, once the labels follow the state it ends in (a caller with
        that state calls `labels.follow(st)` first), with each title and what decided a tie."""
        self._flush_choices()
        self._flush_counts()
        self._flush_held()
        if self.ended is not None:
            self._tell_end(self.ended)
            self.ended = None

    def finish(self, st: State) -> None:
        """The game is over in `st`: tell what is left, its end with each title and what decided
        a tie read from `st` (the labels may have followed no state: a game with no decision)."""
        if self.labels is not None:
            self.labels.follow(st)
        self.flush()

    def _flush_held(self) -> None:
        """Write the setup's lines gathered so far, each repeated one once with its count."""
        held, self.held = self.held, []
        for text, times, _foldable in held:
            self._written(text if times == 1 else f"{text} \u00d7{times}")

    def _flush_choices(self) -> None:
        if self.revealed:
            self._line("    chosen: " + "; ".join(self.revealed))
            self.revealed = []

    def _flush_counts(self) -> None:
        if self.counts:
            owner = self.counts[0]["counter"].split(".", 1)[0] if "." in self.counts[0]["counter"] else ""
            parts = []
            for event in self.counts:
                name = (self.labels.counter(event["counter"]) if self.labels is not None else None) \
                    or (event["counter"][len(owner) + 1:] if owner else event["counter"])
                parts.append(f"{name} {'+' if event['by'] > 0 else ''}{event['by']} (now {event['now']})")
            rules = self._rule(self.counts[-1])
            self._line(f"    {owner + ': ' if owner else ''}{', '.join(parts)}{rules}")
            self.counts = []

    def _line(self, text: str, fold: bool = False) -> None:
        """Write a line (after the phase's title). The setup's lines are gathered until it ends
        (or a person is asked), so that a line that comes again (`fold`: a shuffle, an announce),
        in a row or not, is written once where it first came, with its count ("shuffled discard
        pile \u00d75"): a setup that shuffles one pile between other steps reads as one line."""
        if self.phase == "setup":
            for held in self.held:
                if fold and held[2] and held[0] == text:
                    held[1] += 1
                    return
            self.held.append([text, 1, fold])
            return
        self._flush_held()
        self._written(text)

    def _written(self, text: str) -> None:
        if self.header is not None:
            self.write(self.header)
            self.header = None
        self.write(text)

    def _placed(self, event: dict) -> str:
        """Where a move put a component on a grid zone: " at (2,-1) turned south", on a board
        " at c4" when it is not turned (else nothing)."""
        if "at" not in event:
            return ""
        x, y = event["at"]
        width = self.boards.get(event["to"])
        if width is not None and event["turned"] == 0:
            return f" at {column_name(x, width)}{row_name(y, width)}"
        return f" at {describe_placement(Cell(x, y), event['turned'])}"

    def _rule(self, event: dict) -> str:
        return f"   ({event['rule']})" if self.show_rules and "rule" in event else ""

    def feed(self, event: dict) -> None:
        kind = event["e"]
        if kind != "choice":
            self._flush_choices()
        if kind != "count" or (self.counts and _owner(self.counts[0]) != _owner(event)):
            self._flush_counts()
        if kind == "phase":
            self._setup_done()
            self.phase = event["phase"]
            if self.phase == "setup":
                self.write("Setup")
            else:
                self.header = f"  - {self.phase.replace('_', ' ')}"
        elif kind == "turn":
            self._setup_done()
            self.phase, self.header = "", None
            self.write(f"\n{self.turn_word} {event['turn']}")
        elif kind == "move":
            named = self.labels.take_moved(len(event["what"])) if self.labels is not None else None
            if self.phase == "setup":
                self.setup_moves += len(event["what"])
                return
            what = _items(named or event["what"])
            if self.secrets is not None and self.secrets.get(event["from"]) and self.secrets.get(event["to"]):
                what = f"{len(event['what'])} component(s)"
            source, dest = (event["from"], event["to"]) if self.labels is None else \
                (self.labels.zone(event["from"]), self.labels.zone(event["to"]))
            self._line(f"    {what}: {source} -> {dest}{self._placed(event)}{self._rule(event)}")
        elif kind == "count":
            if self.unseen is None or not self.unseen.last_hidden:
                self.counts.append(event)
                if event["counter"].endswith(".score"):
                    self.scores[event["counter"][:-len(".score")]] = event["now"]
        elif kind == "roll":
            self._line(f"    rolled {', '.join(str(d) for d in event['dice'])}{self._rule(event)}")
        elif kind == "shuffle":
            zone = event["zone"] if self.labels is None else self.labels.zone(event["zone"])
            self._line(f"    shuffled {zone}", fold=self.phase == "setup")
        elif kind == "choice":
            option = self.labels.take_chosen() if self.labels is not None else None
            if self.secrets is None or event["seat"] in self.secrets.get("", ()):
                self.revealed.append(f"{event['seat']}: {option or event['option']}")
        elif kind == "say":
            self._line(f"    {event['text']}{self._rule(event)}", fold=self.phase == "setup")
        elif kind == "react":
            card = self.labels.take_card() if self.labels is not None else None
            if self.secrets is not None:  # a player's account: a card out of their sight keeps its values
                card = None
            who = card or (event["card"] if event["card"] is not None else f"the rule at {event['rule']}")
            args = ", ".join("none" if a is None else str(a).lower() if isinstance(a, bool) else str(a)
                             for a in event["args"])
            if self.secrets is not None:  # a player's account: the arguments may name hidden cards
                args = "..." if event["args"] else ""
            rule = self._rule(event) if event["card"] is not None else ""
            self._line(f"    {who} reacts to {event['event']}({args}){rule}")
        elif kind == "end":
            self.header = None
            self.ended = event

    def _tell_end(self, event: dict) -> None:
        """The last line: the winners, or a solo game's score; each title; what decided a tie."""
        titles, tie = self.labels.ending() if self.labels is not None else ({}, None)
        if self.solo:  # nobody to beat: the score is the result, with the title it earns
            told = "; ".join(self._scored(seat, titles) for seat in {**self.scores, **titles})
            self.write(f"\nThe game ends{': ' + told if told else ''}{self._rule(event)}")
            return
        winners = " and ".join(event["winners"]) or "nobody"
        told = "".join(f"; {self._scored(seat, titles)}" for seat in titles)
        self.write(f"\nThe game ends: {winners} {'win' if len(event['winners']) > 1 else 'wins'}"
                   f"{' (' + tie + ')' if tie else ''}{told}{self._rule(event)}")

    def _scored(self, seat: str, titles: dict[str, str]) -> str:
        """A seat's result: "you score -17: Lost Traveler" (its score as last told, its title)."""
        score = f"{seat} score {self.scores[seat]}" if seat in self.scores else seat
        return f"{score}: {titles[seat]}" if seat in titles else score

    def _setup_done(self) -> None:
        self._flush_held()
        if self.setup_moves:
            self.write(f"  {self.setup_moves} components set out")
            self.setup_moves = 0


class UnseenCounters:
    """For an account told to a player at the table: whether the counter change just sent is on
    a component in a zone that player may not see (a card face down keeps its counter to itself,
    as in Game.view). It follows each component's zone from the events' values (`listen`), which
    reach it just before their JSON form reaches the Narrator."""

    def __init__(self, layout, seats: set[int]):
        self.where = [0] * len(layout.component_names)   # every component starts in the box
        self.hidden = [zone.visibility == "secret" or (zone.visibility == "hidden" and zone.owner not in seats)
                       for zone in layout.zones]
        self.holder = {family.base + slot: c for family in layout.counter_families.values() if family.per_component
                       for slot, c in enumerate(family.holders)}
        self.last_hidden = False

    def listen(self, event) -> None:
        if isinstance(event, Moved):
            for c in event.components:
                self.where[c] = event.dest
        elif isinstance(event, CounterChanged):
            c = self.holder.get(event.counter)
            self.last_hidden = c is not None and self.hidden[self.where[c]]


def narrator_for(game: Game, write, readers: set[int] | None, show_rules: bool = False) -> Narrator:
    """The account one reader gets, in the terminal, the browser or a replay: `readers` are the
    seats whose hidden zones they see (None: everything is told). A solo game (one player, no
    automa) ends with the player's score. Its `labels` (AccountLabels) and `unseen` listen to the
    game's event values (`account_listeners`); the labels also need the state (`account_observer`
    for play(), or `labels.follow`)."""
    layout = game.layout
    unseen = UnseenCounters(layout, readers) if readers is not None else None
    boards = {layout.zones[z].label(layout.seat_names): size[0] for z, size in layout.grid_bounds.items()}
    return Narrator(show_rules, write, secrets_for(layout, readers) if readers is not None else None, unseen,
                    solo=layout.player_seats == 1 and layout.automa is None, labels=AccountLabels(game),
                    boards=boards, turn_word=game.program.turn_word)


def account_listeners(narrator: Narrator) -> list:
    """What a narrator made by `narrator_for` listens with, each to be told every event value."""
    found = [narrator.unseen.listen] if narrator.unseen is not None else []
    if narrator.labels is not None and narrator.labels.active:
        found.append(narrator.labels.listen)
    return found


def account_observer(narrator: Narrator | None):
    """play()'s `observe` for a narrator's labels (None when it has none to read)."""
    labels = narrator.labels if narrator is not None else None
    return labels.observe if labels is not None and labels.active else None


def secrets_for(layout, seats: set[int]) -> dict:
    """Which zones a reader owning `seats` may not see (and, under "", their seat names)."""
    hidden = {zone.label(layout.seat_names): zone.visibility == "secret"
              or (zone.visibility == "hidden" and zone.owner not in seats) for zone in layout.zones}
    hidden[""] = {layout.seat_names[s] for s in seats}
    return hidden


def _owner(event: dict) -> str:
    return event["counter"].split(".", 1)[0] if "." in event["counter"] else ""


def _items(names: list[str]) -> str:
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{n} x {name}" for name, n in counts.items())


def narrate(events: Iterable[dict], show_rules: bool = False) -> list[str]:
    lines: list[str] = []
    narrator = Narrator(show_rules, lines.append)
    for event in events:
        narrator.feed(event)
    narrator.flush()
    return lines


def tee(listeners: list):
    """One listener (or sink) telling each of `listeners` every event (None for none)."""
    if len(listeners) <= 1:
        return listeners[0] if listeners else None

    def every(event) -> None:
        for listen in listeners:
            listen(event)
    return every
