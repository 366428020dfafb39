"""The terminal table: what the people at one terminal share during a `snowrules run`.

Several `human` seats may sit at one terminal (hot seat): between two different people's
decisions the screen is cleared and "pass to <seat>, press Enter" shown, so that no hidden zone
of one is ever on screen while another is to play; the account is then told for what every
player sees (the public part), and each person's own holdings only at their decisions. A
designer playing every seat openly gives `--reveal`: nothing is cleared, everything is told.

`undo` takes back a person's last answer. A state is data and a game is its seed plus its
answers, so undo is a replay: the game is played again from its start with the same seed and
the answers so far minus the last, silently, up to the decision asked again. It is refused when
something hidden was shown since (a component drawn into sight, dice rolled) or another player answered since:
then the replay would let a person choose again knowing more than they did.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from snowrules.play.agents import Observation, play
from snowrules.runtime.engine import Game

CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen and the scrollback


class Undo(Exception):
    """Raised from inside a run to take answers back: the game is played again with `keep` answers."""

    def __init__(self, keep: int, said: str):
        super().__init__(said)
        self.keep, self.said = keep, said


class Table:
    """The screen and keyboard the human seats share, the answers of this game (every seat's, in
    order) and the events since, which tell whether an answer can still be taken back."""

    def __init__(self, game: Game, humans: set[int], reveal: bool = False,
                 read: Callable[[str], str] = input, write: Callable[[str], Any] = print):
        self.game = game
        self.read, self.write = read, write
        program = game.program
        people = {program.controller(seat) for seat in humans}
        self.hot_seat = len(people) > 1 and not reveal
        self.reveal = reveal
        self.muted = False            # replaying answers after an undo: nothing is shown
        self.at_screen: int | None = None   # the player who has the screen
        self.account: list[str] = []  # account lines since the screen was last passed (public)
        self.answers: list[tuple[int, int, int]] = []  # (seat, option index, events seen then)
        self.labels: list[str] = []   # each answer as its person read it (others' answers: "")
        self.events: list[dict] = []
        self.script: list[tuple[int, int]] = []  # answers to give again, oldest first (after an undo)
        self.undone = ""              # what the last undo took back, said once the screen is live again
        self.flush_account: Callable[[], None] = lambda: None
        layout = game.layout
        self._zones = {zone.label(layout.seat_names): zone for zone in layout.zones}

    def reader_seats(self, humans: set[int]) -> set[int] | None:
        """Whose sight the account is told for: the person's (one at the table), nobody's (hot seat:
        only what is public), or everything (None: `--reveal`)."""
        if self.reveal:
            return None
        return set() if self.hot_seat else humans

    # ---- the screen ----------------------------------------------------------------------
    def say(self, line: str) -> None:
        """A line of the account: shown (unless replaying) and kept until the screen is passed on."""
        if self.muted:
            return
        self.account.append(line)
        self.write(line)

    def before_decision(self, observation: Observation) -> None:
        """Called by a human agent before it shows a decision: the account is brought up to date
        and, in hot seat, the screen is passed to the person who decides."""
        self.flush_account()
        player = observation.player
        if self.hot_seat and player != self.at_screen:
            self.write(CLEAR + f"pass to {observation.seat_name}, press Enter")
            try:
                self.read("")
            except EOFError:
                pass  # the agent's own prompt says the game stops
            self.write(CLEAR.rstrip())
            if self.account:
                self.write(f"since {self._name(self.at_screen)} had the screen:" if self.at_screen is not None
                           else "so far:")
                for line in self.account:
                    self.write(line)
            self.account = []
        self.at_screen = player
        if self.undone:
            self.write(self.undone)
            self.undone = ""

    def _name(self, player: int) -> str:
        names = self.game.layout.seat_names
        return " & ".join(names[s] for s in self.game.program.seats_of(player))

    # ---- answers and undo ----------------------------------------------------------------
    def record(self, event: dict) -> None:
        """An event of this play of the game (a sink): what an undo looks back over."""
        self.events.append(event)

    def undo(self, observation: Observation) -> str:
        """Take back the deciding player's last answer (raises Undo), or say why it cannot be."""
        program = self.game.program
        seats = set(program.seats_of(observation.player))
        mine = [i for i, (seat, _, _) in enumerate(self.answers) if seat in seats]
        if not mine:
            return "nothing to undo: you have not answered yet"
        last = mine[-1]
        names = self.game.layout.seat_names
        for seat, _, _ in self.answers[last + 1:]:
            if seat not in seats:
                return f"cannot undo: {names[seat]} has answered since"
        for event in self.events[self.answers[last][2]:]:
            reason = self._revealing(event, seats)
            if reason:
                return f"cannot undo: {reason} since"
        raise Undo(last, f"undone: {self.labels[last]!r} is taken back; choose again")

    def _revealing(self, event: dict, asking: set[int]) -> str:
        """What an event showed that was hidden before ("" when nothing): a roll, or components
        moved from a zone a player could not see into one they can (named only when the asking
        player sees them)."""
        if event["e"] == "roll":
            return "the dice were rolled"
        if event["e"] != "move":
            return ""
        source, dest = self._zones.get(event["from"]), self._zones.get(event["to"])
        if source is None or dest is None:
            return ""
        program = self.game.program
        for player in range(program.players):
            seats = set(program.seats_of(player))
            if not _sees(source, seats) and _sees(dest, seats):
                if _sees(dest, asking):
                    return f"{', '.join(event['what'])} came into view"
                return f"{len(event['what'])} component(s) came into {self._name(player)}'s view"
        return ""

    def restart(self, undo: Undo) -> None:
        """Before the game is played again: the answers kept become the script, the screen is muted."""
        self.script = [(seat, index) for seat, index, _ in self.answers[:undo.keep]]
        self.answers, self.events, self.labels = [], [], []
        self.muted = True
        self.undone = undo.said

    def answered(self, seat: int, index: int, label: str) -> None:
        self.answers.append((seat, index, len(self.events)))
        self.labels.append(label)


def _sees(zone, seats: set[int]) -> bool:
    return zone.visibility == "public" or (zone.visibility == "hidden" and zone.owner in seats)


class Seated:
    """An agent at the table: after an undo it first gives the answers kept, silently; then the
    screen is live again and the agent itself is asked. Every answer is noted for undo."""

    def __init__(self, agent, table: Table):
        self.agent, self.table = agent, table
        self.name = agent.name

    def choose(self, observation: Observation) -> int:
        table = self.table
        if table.script:
            seat, index = table.script.pop(0)
            if seat != observation.seat:  # the same seed and answers: the same game (a bug otherwise)
                raise RuntimeError(f"undo's replay asked seat {observation.seat}, the game asked {seat} before")
        else:
            if table.muted:  # the first decision after the kept answers: the account goes on from here
                table.flush_account()
                table.muted = False
            index = self.agent.choose(observation)
        # a person's answer is named when it is taken back; nobody else's can be (labels cost time)
        table.answered(observation.seat, index, observation.labels()[index] if self.name == "human" else "")
        return index


def play_at_table(game: Game, agents: list, seed: int, table: Table,
                  attempt: Callable[[], tuple[Callable | None, Callable | None, Callable | None]]):
    """Play a game with people at the terminal, playing it again after each undo. `attempt` is
    called before each play and gives the event sink, listener and observer (play's `observe`)
    of that play (a fresh account and log: the replay writes them again from the start)."""
    seated = [Seated(agent, table) for agent in agents]
    while True:
        sink, listen, observe = attempt()

        def both(event: dict, sink=sink) -> None:
            table.record(event)
            if sink is not None:
                sink(event)
        try:
            return play(game, seated, seed, both, listen=listen, observe=observe)
        except Undo as undo:
            table.restart(undo)
