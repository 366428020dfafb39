"""A game in progress: start a state, show decisions, take answers, tell the result.

`Game` wraps a compiled program. Its states are plain data (see state.py); a `Game` holds no
per-game data, so one `Game` serves any number of states (simulations, searches, replays).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from snowrules.compile.apply import TALLY
from snowrules.compile.costs import PayStep
from snowrules.compile.free_actions import FREE_KEY, FreeChooseStep, OfferStep, free_label
from snowrules.compile.playthrough import playthrough
from snowrules.compile.steps import ChooseStep, InlinedBranch
from snowrules.language.diagnostics import IllegalChoiceError, Position
from snowrules.model.events import Chosen, Event, kinds_of
from snowrules.model.grid import Grid
from snowrules.model.grid_zones import is_spot, spot_label
from snowrules.model.move_tally import MoveTally
from snowrules.model.program import TURNS, Program
from snowrules.model.rng import seed_state
from snowrules.model.state import Sink, State
from snowrules.model.values import Decision, Frame, Termination


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning players (shared victory when several), every score, the
    turns played, the `end game` rule that ended it and why (`reason`)."""

    winners: list[int]
    scores: list[int]
    seat_scores: list[int]
    turns: int
    rule: str
    reason: Termination = Termination.DURING_PLAY
    # The automa (a seat the rules play, never a player): its score and whether it is among the
    # winners of `end game`; `winners` and `scores` are the players' only.
    automa_score: int | None = None
    automa_won: bool = False


# The decisions a stopped state can wait at and be played on from as generated code (see
# Game._resumable_at): each asks nothing before its question and keeps nothing but its count of
# free actions taken, so asking it again from the state asks the same.
_ASKED_AGAIN = (ChooseStep, FreeChooseStep, OfferStep, PayStep)


_EVERY_EVENT = kinds_of(None)


_TALLIED = frozenset((TALLY,))


def _heard(st: State) -> frozenset[str]:
    """The event kinds a stopped state's generated code must tell: every one when it has a
    listener, none otherwise; and its moves counted when it has a move tally."""
    heard = frozenset() if st.sink is None else _EVERY_EVENT
    return heard if st.tally is None else heard | _TALLIED


class Game:
    def __init__(self, program: Program):
        self.program = program
        layout = program.layout
        self.layout = layout
        score = layout.counter_families.get("score")
        # each build of the program, made on first use for the kinds of events heard (Program.built)
        self._playthroughs: dict[tuple[frozenset[str], str], Any] = program.built  # (heard, mode) -> built
        self._quiet_stopping = None  # the stoppable build for a state nobody listens to (see _stopping)
        self._component_counters = [f for f in layout.counter_families.values() if f.per_component]
        self._score_base = score.base if score is not None and score.per_player and not score.keys else None

    # ---- running --------------------------------------------------------------------------
    def start(self, seed: int, sink: Sink | None = None, forced: list | None = None,
              decide=None, explicit: bool = False, listen: Sink | None = None,
              tally: MoveTally | None = None) -> State:
        """A new game, advanced to its first decision. Its events (model/events.py) go to
        `listen` as values and to `sink` in their JSON form (a log's lines). With `decide`,
        decisions are answered as the rules reach them, and the game runs to its end in this call
        (`play_through`; a caller whose agents may copy the state answers from outside instead, at
        each stop: `play`). An `explicit` game waits at every chance draw (see chance.py) and asks
        even decisions that have a single legal option: the view of a game tree that OpenSpiel
        needs. `tally` counts the game's moves (model/move_tally.py) without telling them."""
        if decide is not None:
            if explicit:
                raise ValueError("an explicit game is answered from outside, at each of its nodes")
            return self.play_through(seed, decide, forced, sink=sink, listen=listen, tally=tally)
        if explicit and not self.program.explicit_chance:
            raise ValueError("an explicit game needs a program compiled with explicit_chance=True")
        st = self._new_state(seed, sink, forced, None, explicit, listen)
        st.tally = tally
        self._stopping(st).start(st)
        return st

    def play_through(self, seed: int, decide, forced: list | None = None, draws: list | None = None,
                     sink: Sink | None = None, listen: Sink | None = None, hears=None,
                     tally: MoveTally | None = None) -> State:
        """A new game played to its end, each decision answered by `decide` as the rules reach it,
        run as generated functions that keep no frames (compile/playthrough.py). `decide` must not
        copy or inspect the state beyond its pending decision (the frames are not kept up to
        date): random agents, for instance.

        What listens is known before the game starts, so the program is built for it: with
        nobody listening, without event lines; `listen` needs the event classes in `hears` (None:
        all) and `sink` every event with a JSON form, and only those kinds' lines are kept (a
        listener may still be told other events, sent from outside the generated lines: turns,
        the end); `tally` counts the moves between the pairs of zones it marks, in the generated lines
        themselves (model/move_tally.py).
        `draws` (each seat's `random()`, for random agents) lets a plain decision draw its answer
        as `decide` would, without building the Decision."""
        if sink is not None or (listen is not None and hears is None):
            heard = kinds_of(None)
        else:
            heard = kinds_of(hears) if listen is not None else frozenset()
        if tally is not None:
            heard |= _TALLIED
        built = self.played_through(heard)
        st = self._new_state(seed, sink, forced, decide, False, listen)
        st.draws, st.tally = draws, tally
        built(st)
        return st

    def play_rest_through(self, st: State, decide, draws: list | None = None) -> bool:
        """Play on to its end, as `play_through` plays a game, a state stopped at a decision (or
        paused at the end of a turn): the rest of the game runs as generated functions from the
        state's frames (compile/playthrough.py, `resume_entry`), each decision
        answered by `decide` (and `draws`) in place, the stopped one asked again; a state with a
        listener goes on with every event's line. False, and the state untouched, when the
        state cannot go on so (explicit chance, a scenario waiting for a turn's end, a stop at
        another kind of step): go on with `answer` then."""
        if st.explicit or st.result is not None or not self._resumable_at(st):
            return False
        built = self.played_through(_heard(st), "stoppable")
        st.pending = st.answer = None
        st.paused = False
        st.decide, st.draws = decide, draws
        try:
            built.rest(st)
        finally:
            st.decide = st.draws = None
        return True

    def _resumable_at(self, st: State) -> bool:
        """Whether generated functions can go on from the state's frames to the game's end: the
        top one waits at a decision that its generated code asks again the same (_ASKED_AGAIN:
        its question is worked out afresh from the state, the free actions taken there read from
        the environment) or is a turn paused at its end, and no scenario waits for a turn's end.
        (Frames inside a reaction or a free action are fine: the generated code reads from the
        frames how many of those are running.)"""
        frames = st.frames
        if not frames or st.pause_after_turn is not None or st.deferring:
            return False
        program = self.program
        top = frames[-1]
        block = program.blocks[top.block]
        if st.pending is None:
            return st.paused and block.kind == TURNS and top.pc == block.size
        if st.pending.chance or top.pc >= len(block.steps):
            return False
        step = block.steps[top.pc]
        if type(step) is InlinedBranch:
            step = step.step
        return type(step) in _ASKED_AGAIN

    def played_through(self, heard: frozenset[str], mode: str = "plain"):
        """The program built to play a game through for listeners of these event kinds (see
        `play_through`; its `module` is the generated code), built once per mode. Modes: "plain"
        plays a game from its start, every decision answered in place; "stoppable" also stops
        where nobody answers and goes on from a stopped state (its `start` and `rest`:
        compile/playthrough.py)."""
        built = self._playthroughs.get((heard, mode))
        if built is None:
            built = self._playthroughs[heard, mode] = playthrough(
                self.program, heard, stoppable=mode == "stoppable")
        return built

    def unstarted(self, seed: int = 0) -> State:
        """The state a game starts from, before any rule ran: everything in the box, the counters
        and variables at their initial values. Texts that read the state (a zone's or a counter's,
        play/prompts.py) read this one before a game's first stop, while its setup is told."""
        return self._new_state(seed, None, None, None, False, None)

    def _new_state(self, seed: int, sink, forced, decide, explicit: bool, listen) -> State:
        program = self.program
        st = State()
        count = len(self.layout.component_names)
        st.zones = [[] for _ in self.layout.zones]
        st.zones[0] = list(range(count))  # everything starts in the box
        st.where = [0] * count
        st.grids = {zone: Grid() for zone in self.layout.grid_zones}
        st.counters = list(program.counters_initial)
        st.vars = [v if not isinstance(v, list) else list(v) for v in program.variables_initial]
        st.frames = [Frame(program.main.block, 0, 0)]
        st.envs = [[None] * program.main.env_size]
        st.rng = seed_state(seed)
        st.forced = list(forced or [])
        st.max_steps = program.max_steps
        st.sink = self.listener(sink, listen)
        st.decide = decide
        st.explicit = explicit
        return st

    def listener(self, sink: Sink | None, listen: Sink | None = None) -> Sink | None:
        """What `State.sink` calls with each event: `listen` gets the event, `sink` its JSON form
        (events without one, such as a variable's new value, are not written)."""
        if sink is None:
            return listen
        layout = self.layout

        def to_sink(event: Event) -> None:
            if listen is not None:
                listen(event)
            data = event.to_json(layout)
            if data is not None:
                sink(data)
        return to_sink

    @staticmethod
    def is_chance(st: State) -> bool:
        """Whether the game waits for a chance draw (explicit games only)."""
        return st.pending is not None and st.pending.chance

    @staticmethod
    def chance_outcomes(st: State) -> list[tuple[Any, float]]:
        """The pending draw's outcomes, each with its probability (its weight over the total, when
        the rules give weights; otherwise every outcome equally likely)."""
        outcomes = st.pending.options[0]
        weights = st.pending.weights
        if weights is not None:
            total = sum(weights)
            return [(outcome, weight / total) for outcome, weight in zip(outcomes, weights)]
        return [(outcome, 1.0 / len(outcomes)) for outcome in outcomes]

    @staticmethod
    def decision(st: State) -> Decision | None:
        """What the rules wait for (None once the game is over)."""
        return st.pending

    def answer(self, st: State, choices: list[int]) -> None:
        """Answer the pending decision with one option index per deciding seat, then continue."""
        st.answer = self.take(st, choices)
        self.go_on(st)

    def go_on(self, st: State) -> None:
        """Run on from where the state stopped, as generated code from its frames
        (compile/playthrough.py, `stoppable`): at the end of a turn (`State.paused`), or at a
        decision or a draw whose answer is in `st.answer` (put there by `answer`, or by a caller
        that checked it itself: the OpenSpiel adapter, which checks its own ids, comes here at
        every node)."""
        st.paused = False
        quiet = self._quiet_stopping
        # the commonest: nobody listens (an explicit game at each node)
        if st.sink is None and st.tally is None and quiet is not None:
            quiet.rest(st)
        else:
            self._stopping(st).rest(st)

    def _stopping(self, st: State):
        """The program built to run `st` as generated code that stops at each decision nobody
        answers in place (or at the end of the turn a scenario looks at; in an explicit game, the
        OpenSpiel adapter's, at each chance draw too): with every event's line when the state has
        a listener (and its tally's lines when it has a move tally)."""
        if st.sink is None and st.tally is None:  # the common case, at every decision: one build, kept
            quiet = self._quiet_stopping
            if quiet is None:
                quiet = self._quiet_stopping = self.played_through(frozenset(), "stoppable")
            return quiet
        return self.played_through(_heard(st), "stoppable")

    def suspended_copy(self, st: State) -> State:
        """A copy of `st` that waits at its pending decision and that `answer` continues: a search
        agent takes one of the stopped state it is shown (`play` asks it at each stop)."""
        return st.clone()

    def ask_again(self, st: State) -> None:
        """Work out the pending decision of a suspended state afresh, after the state was changed
        from outside the rules: a scenario imposing a situation, or an agent re-dealing the zones a
        player cannot see (play/determinize.py): the options must come from the new contents."""
        st.pending = st.answer = None
        self.go_on(st)

    def take(self, st: State, choices: list[int]):
        """Check the answers to the pending decision and log them; the chosen value(s)."""
        pending = st.pending
        if pending is None:
            raise IllegalChoiceError.at(Position("<answer>"), "the game is not waiting for a decision")
        seats, options = pending.seats, pending.options
        if pending.chance:
            index = choices[0] if len(choices) == 1 else None
            if index.__class__ is not int or not 0 <= index < len(options[0]):
                raise IllegalChoiceError.at(Position.parse(pending.rule), f"chance outcome {index!r} is not "
                                            f"one of 0..{len(options[0]) - 1}")
            return options[0][index]
        if st.sink is None and len(choices) == 1 and not pending.simultaneous:  # the common case
            index, legal = choices[0], options[0]
            if index.__class__ is int and 0 <= index < len(legal):
                return legal[index]
        if len(choices) != len(seats):
            raise IllegalChoiceError.at(Position.parse(pending.rule), f"{len(seats)} answer(s) expected, "
                                        f"{len(choices)} given")
        try:
            values = [legal[index] for index, legal in zip(choices, options)
                      if index.__class__ is int and index >= 0]
        except IndexError:
            values = []
        if len(values) != len(seats):
            seat, index, legal = next((s, i, o) for s, i, o in zip(seats, choices, options)
                                      if i.__class__ is not int or not 0 <= i < len(o))
            raise IllegalChoiceError.at(Position.parse(pending.rule),
                                        f"option {index!r} is not legal for {self.layout.seat_names[seat]}: "
                                        f"choose 0..{len(legal) - 1}")
        if st.sink is not None:
            for seat, index, value, legal in zip(seats, choices, values, options):
                st.sink(Chosen(seat, index, value, self.label(value, pending.kind), pending.rule, len(legal)))
        return values if pending.simultaneous else values[0]

    # ---- reading a state ------------------------------------------------------------------
    def outcome(self, st: State) -> Outcome | None:
        if st.result is None:
            return None
        program = self.program
        seat_scores = self.seat_scores(st)
        scores = [max(seat_scores[s] for s in program.seats_of(p)) for p in range(program.players)]
        ending = st.result
        automa = self.layout.automa
        winners = sorted({program.controller(s) for s in ending.winners if s != automa})
        return Outcome(winners, scores, seat_scores, st.counters[program.turn_counter], ending.rule, ending.reason,
                       None if automa is None else seat_scores[automa], automa in ending.winners)

    def seat_scores(self, st: State) -> list[int]:
        if self._score_base is None:
            return [0] * self.layout.seats
        base = self._score_base
        return st.counters[base:base + self.layout.seats]

    def label(self, value: Any, kind: str = "component") -> str:
        """An option or value as a player reads it; `kind` says what a whole number stands for
        (a component, a player, or a number), as the decision that offers it knows."""
        if value is None:
            return "nothing"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return "[" + ", ".join(self.label(v, kind) for v in value) + "]" if value else "none of them"
        if isinstance(value, int):
            if kind == "player" and 0 <= value < len(self.layout.seat_names):
                return self.layout.seat_names[value]
            if kind == "component" and 0 <= value < len(self.layout.component_names):
                return self.layout.component_names[value]
            return str(value)
        if isinstance(value, dict):
            if FREE_KEY in value:
                return free_label(self.program.free_actions, value, self.label)
            if "name" in value:
                return str(value["name"])
            if value.keys() == {"x", "y"}:  # a cell record (a board's, a grid's): as spots read it
                return f"({value['x']},{value['y']})"
        if is_spot(value):  # a place on a grid zone: "(2,-1) turned east, covers nothing"
            return spot_label(value, self.layout.component_names)
        return str(value)

    def option_label(self, st: State, value: Any) -> str:
        """An option of the pending decision, as its player reads it."""
        return self.label(value, st.pending.kind if st.pending else "component")

    def prompt(self, decision: Decision) -> str:
        """What a decision is, as the person deciding reads it: the rules' words for it (`as
        "place a die"`), or else the name the rules give its answer."""
        return self.program.prompts.get(decision.rule, decision.variable)

    def option_labels(self, st: State, options: list) -> list[str]:
        """The options of one seat, as a person reads them: a component by its list's `label:`
        template with the values it has now ("green die showing 3", load/labels.py), else as
        `plain_option_labels`. Options that would still read the same get the copy's number after
        them, "green die showing 3 (#2)". A log keeps the plain name and the option's index."""
        plain_labels = self.plain_option_labels(st, options)
        if (st.pending.kind if st.pending else "component") != "component" or not any(self.layout.labels):
            return plain_labels
        labels = [self._labelled(st, o, p) for o, p in zip(options, plain_labels)]
        repeated = {label for label in labels if labels.count(label) > 1}
        return [f"{label} (#{self.layout.component_copy[o]})"
                if label in repeated and isinstance(o, int) and not isinstance(o, bool) else label
                for o, label in zip(options, labels)]

    def shown_label(self, st: State, value: Any) -> str:
        """One option of the pending decision as a person reads it (see `option_labels`), without
        telling copies apart."""
        plain_label = self.option_label(st, value)
        if (st.pending.kind if st.pending else "component") != "component":
            return plain_label
        return self._labelled(st, value, plain_label)

    def _labelled(self, st: State, value: Any, plain_label: str) -> str:
        """An option as its component's label reads now (a list of components, each so; a free
        action's component item so); any other option keeps its plain label."""
        if isinstance(value, dict) and FREE_KEY in value:
            def item_label(item: Any, kind: str) -> str:
                plain = self.label(item, kind)
                return self._labelled(st, item, plain) if kind == "component" else plain
            return free_label(self.program.free_actions, value, item_label)
        if isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return "[" + ", ".join(self.component_label(st, v) for v in value) + "]"
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(self.layout.labels) \
                and self.layout.labels[value] is not None:
            return self.component_label(st, value)
        return plain_label

    def zone_labels(self, st: State, zone: int) -> list[str]:
        """The components of zone `zone` (an index of the layout's zones) as a person reads them
        now (`component_label`): in the zone's order, or sorted when the zone is `unordered`, as
        `view` shows its names (the order of arrival is shown nowhere)."""
        labels = [self.component_label(st, c) for c in st.zones[zone]]
        return sorted(labels) if self.layout.zones[zone].unordered else labels

    def component_label(self, st: State, c: int) -> str:
        """Component `c` as a person reads it now: its list's `label:` with its fields' values and
        its counters' current values, or its plain name when its list has no label."""
        layout = self.layout
        template = layout.labels[c] if 0 <= c < len(layout.labels) else None
        if template is None:
            return layout.component_names[c] if 0 <= c < len(layout.component_names) else str(c)
        owner = layout.fields["owner"][c]

        def value_of(name: str) -> Any:
            if name == "owner":
                return layout.seat_names[owner] if owner is not None else None
            if name == "name":
                named = layout.component_names[c]
                return named[len(layout.seat_names[owner]) + 1:] if owner is not None else named
            if name in layout.fields:
                found = layout.fields[name][c]
                if found is not None:
                    return found
            family = layout.counter_families.get(name)
            if family is not None and family.index_of is not None and family.index_of[c] >= 0:
                return st.counters[family.index_of[c]]
            return None
        return template.render(value_of)

    def plain_option_labels(self, st: State, options: list) -> list[str]:
        """The options of one seat by their plain names, each different from the others: options
        that would read the same (copies of one component, `copies: 3`) get the copy's number,
        "card #1", "card #3" (the same copy keeps its number wherever it is). What a log and a
        scenario name an option by."""
        labels = [self.option_label(st, o) for o in options]
        repeated = {label for label in labels if labels.count(label) > 1}
        kind = st.pending.kind if st.pending else "component"
        if not repeated or kind != "component":
            return labels
        return [self._numbered(o) if label in repeated else label for o, label in zip(options, labels)]

    def _numbered(self, value: Any) -> str:
        if isinstance(value, dict) and FREE_KEY in value:  # a free action's item, numbered
            def item_label(item: Any, kind: str) -> str:
                return self._numbered(item) if kind == "component" else self.label(item, kind)
            return free_label(self.program.free_actions, value, item_label)
        if isinstance(value, list):
            return "[" + ", ".join(self._numbered(v) for v in value) + "]" if value else "none of them"
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(self.layout.component_names):
            return f"{self.layout.component_names[value]} #{self.layout.component_copy[value]}"
        return self.label(value)

    def view(self, st: State, player: int) -> dict:
        """What `player` may see: public zones, their own hidden zones, sizes of the rest."""
        layout = self.layout
        seats = set(self.program.seats_of(player))
        names = layout.component_names
        zones = {}
        seen = []
        for index, zone in enumerate(layout.zones):
            content = st.zones[index]
            label = zone.label(layout.seat_names)
            seen.append(zone.visibility == "public" or (zone.visibility == "hidden" and zone.owner in seats))
            if seen[-1]:  # an `unordered` zone as a sorted multiset: the order of arrival is in no view
                zones[label] = sorted([names[c] for c in content]) if zone.unordered else [names[c] for c in content]
            else:
                zones[label] = {"count": len(content)}
        counters = {label: st.counters[i] for i, label in enumerate(layout.counter_labels)}
        for family in self._component_counters:  # a component's counter is seen with the component
            for slot, c in enumerate(family.holders):
                if not seen[st.where[c]]:
                    del counters[layout.counter_labels[family.base + slot]]
        # Variables are public: whose turn it is, what was led... (secrets live in hidden zones).
        variables = {name: self._shown(value) for name, value in zip(self.program.variable_names, st.vars)}
        seen = {"player": player, "seats": [layout.seat_names[s] for s in sorted(seats)],
                "zones": zones, "counters": counters, "variables": variables}
        if st.grids:  # grid zones are public: every piece's cell, rotation and what covers what
            seen["grids"] = {layout.zones[index].label(layout.seat_names): self._grid_shown(grid)
                             for index, grid in sorted(st.grids.items())}
        return seen

    def _grid_shown(self, grid: Grid) -> list:
        """A grid as a view shows it: each occupied cell with its stack, bottom first, each layer
        the piece's name, which of its squares and the piece's rotation."""
        names = self.layout.component_names
        return [[cell.x, cell.y, [[names[layer.piece], layer.square, layer.rotation] for layer in grid.stacks[cell]]]
                for cell in sorted(grid.stacks)]

    def _shown(self, value: Any) -> Any:
        """A variable's value as plain data: none, a number, a text, or a list of those."""
        if isinstance(value, list):
            return [self._shown(v) for v in value]
        return value if value is None or isinstance(value, (int, str, bool, float)) else str(value)
