"""Any snowrules ruleset as an OpenSpiel game: `load_game(ruleset, **params)`.

The game runs in explicit mode (see chance.py): every draw at random is a chance node whose
outcomes are equally likely, and every decision is a node, even one with a single legal option.
A decision of one seat is that player's node; a secret decision of several seats is a
simultaneous node, where a seat with nothing to decide has the single legal action 0, ignored.

Action ids. A ruleset may declare OpenSpiel ids in its manifest (`action_ids`): one expression per
kind of option (`component`, `player`, `value`) for choices and for chance outcomes, with `it`
the option, and the id counts. Without them an option's id is its position among the legal
options (the same id may then mean different moves at different nodes); compile/action_ids.py
checks the declared ones before play. Returns come from the manifest's `returns` when declared
(runtime/returns.py), with its `utility` (general-sum unless it says otherwise); otherwise the
winners share +1 and the others share -1, which is zero-sum.

Information states have perfect recall: each seat's whole sequence of observations (what it saw
change, what it was asked, what it chose; see Recall), noted only when asked for (see
SnowrulesState.recall_now), except what a decision declares its chooser remembers of the answer
(`remembered as`, adapters/picks.py). A `choose exactly N` with declared ids (and `up to N`
with an id of done) is asked item by item (picks.py). Observation strings are its view now.
Both are also tensors of a fixed size (adapters/tensors.py), made only when asked for.

OpenSpiel players are seats: a variant giving a player several seats shows one player per seat.
Needs the `open-spiel` package (`pip install 'snowrules[openspiel]'`).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, cached_property
from itertools import repeat
from typing import Any, NamedTuple

import pyspiel
from snowrules.adapters.game_type import game_type_of
from snowrules.adapters.nodes import (
    NO_KEPT,
    NOTHING_TO_DECIDE,
    Node,
    after_decision_left,
    after_draw_left,
    declared_ids,
    declared_node,
)
from snowrules.adapters.observer import SnowrulesObserver
from snowrules.adapters.option_ids import option_ids
from snowrules.adapters.picks import Picks, note_answer, note_asked, note_picks, picks_of
from snowrules.adapters.recall import Recall, Sight
from snowrules.adapters.tensors import TensorLayout
from snowrules.compile.action_ids import FreeActionIds, free_action_ids
from snowrules.compile.compiler import load_program
from snowrules.language.diagnostics import RulesetError, RuntimeRulesError
from snowrules.load.ruleset import Ruleset, load_ruleset
from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.model.values import Decision
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import evaluate_manifest, seat_returns

PREFIX = "snowrules_"
# Whose turn, as pyspiel names it (read at every node: module constants, not enum lookups).
CHANCE_PLAYER, SIMULTANEOUS_PLAYER = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.SIMULTANEOUS
TERMINAL_PLAYER = pyspiel.PlayerId.TERMINAL
_registered: dict[str, type] = {}


def load_game(ruleset: str, **params: Any) -> pyspiel.Game:
    """The ruleset (bundled name or folder) as a pyspiel game. `players`, `variant` and the
    ruleset's options (see its manifest) are parameters; the rest keep their defaults."""
    game_class = register(ruleset)
    return game_class(params)


@cache
def _base_ruleset(ruleset: str) -> Ruleset:
    """The ruleset as its manifest gives it (players, options): read once, never changed."""
    return load_ruleset(ruleset)


def register(ruleset: str) -> type:
    """Register the ruleset with pyspiel (once), so `pyspiel.load_game("snowrules_NAME")` works
    (`game.get_type().short_name` tells the name)."""
    if ruleset in _registered:
        return _registered[ruleset]
    loaded = _base_ruleset(ruleset)
    # A second ruleset of the same name (a designer's copy) gets its own: snowrules_NAME_2...
    short_name, number = PREFIX + loaded.name, 1
    while short_name in _registered:
        number += 1
        short_name = f"{PREFIX}{loaded.name}_{number}"
    game_type = game_type_of(loaded, short_name)
    game_class = type(f"{loaded.name.title().replace('_', '')}Game", (SnowrulesGame,),
                      {"ruleset": ruleset, "game_type": game_type})
    pyspiel.register_game(game_type, game_class)
    _registered[ruleset] = _registered[game_type.short_name] = game_class
    return game_class


class SnowrulesGame(pyspiel.Game):
    """A compiled ruleset with its parameters; states are `SnowrulesState`s."""

    ruleset: str = ""
    game_type: pyspiel.GameType

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        loaded = _base_ruleset(self.ruleset)
        players = params.pop("players", loaded.min_players)
        if type(players) is not int:
            raise RulesetError.at(loaded.manifest_position, f"players must be a whole number, not {players!r}")
        variant = params.pop("variant", "") or None
        unknown = sorted(set(params) - set(loaded.options))
        if unknown:
            known = ", ".join(["players", "variant", *sorted(loaded.options)])
            raise RulesetError.at(loaded.manifest_position, f"{loaded.title} has no parameter {unknown[0]!r}",
                                  f"its parameters: {known}")
        self.program: Program = load_program(self.ruleset, variant, players, tuple(sorted(params.items())),
                                             explicit_chance=True)
        self.engine = Game(self.program)
        self.sight = Sight.of(self.program, loaded.folder)
        self.variant = variant
        self.interface = self.program.interface
        self.ids: dict[tuple, dict] = {key: {} for key in self.interface if key[0] in ("choice", "chance")}
        components = len(self.program.layout.component_names)
        self.distinct = self._count(("distinct",), components + 1)
        self.chance_size = self._count(("chance_outcomes",), components + 1)
        # Free actions' options have ids of their own, after the game's (compile/action_ids.py).
        self.free_ids: FreeActionIds | None = None
        if self.program.free_actions:
            self.free_ids = free_action_ids(self.program.free_actions, self.program.layout, self.distinct)
        declared = ("returns", "value") in self.interface
        low = self.evaluate(("returns", "min"), State()) if declared else -1.0
        high = self.evaluate(("returns", "max"), State()) if declared else 1.0
        self.utility, utility_sum = self._utility(declared)
        seats = self.program.layout.player_seats  # OpenSpiel's players: never the automa
        info = pyspiel.GameInfo(
            num_distinct_actions=self.distinct + (self.free_ids.count if self.free_ids else 0),
            max_chance_outcomes=self.chance_size, num_players=seats,
            min_utility=float(low), max_utility=float(high), utility_sum=utility_sum,
            max_game_length=self._count(("max_game_length",), self.program.max_steps))
        all_params = {"players": players, "variant": variant or "", **self.program.options}
        game_type = self.game_type
        if self.utility != "general-sum":  # the registered type says general-sum: the options may differ
            game_type = game_type_of(loaded, game_type.short_name, self.utility)
        super().__init__(game_type, info, all_params)
        # The initial state, made once: a new one (and each clone, which pyspiel starts from a new
        # one) copies it instead of running the setup again. The setup draws nothing at random
        # that is not a chance node, so every initial state is the same.
        self.first_state: tuple[State, Recall, int, Node | None, bool, Picks | None] | None = None
        # Its states' class: SnowrulesState with what they read at every node (see Shared).
        self.state_class = type(f"{type(self).__name__}State", (SnowrulesState,),
                                {"_shared": Shared(self.ids, self.program, self.engine.go_on)})

    def _utility(self, declared: bool) -> tuple[str, float | None]:
        """How the returns add up, and their sum when it is fixed. The manifest's `utility` may
        depend on the options (the compiler checked its value); without `returns`, the winners
        share +1 and the others -1, which is zero-sum."""
        if ("returns", "utility") in self.interface:
            utility = self.evaluate(("returns", "utility"), State())
        else:  # the automa's share of +1 and -1 is left out: the players' returns need not add to 0
            utility = "general-sum" if declared or self.program.layout.automa is not None else "zero-sum"
        if utility == "zero-sum":
            return utility, 0.0
        if utility == "constant-sum":
            return utility, float(self.evaluate(("returns", "sum"), State()))
        return utility, None

    def evaluate(self, key: tuple, st: State, bound: Any = None) -> Any:
        """A manifest expression's value (see runtime/returns.py), with `p` or `it` bound."""
        return evaluate_manifest(self.program, key, st, bound)

    def _count(self, key: tuple, default: int) -> int:
        if key not in self.interface:
            return default
        value = self.evaluate(key, State())
        if type(value) is not int or value < 0:
            raise RuntimeRulesError.at(self.interface[key][3], f"a count must be a whole number, not {value!r}")
        return value

    def id_of(self, group: str, pending: Decision, option: Any) -> int:
        """An option's declared id (remembered: see option_ids.option_ids), checked to be one of
        the game's ids."""
        key = (group, pending.kind)
        position = self.interface[key][3]
        if key[1] == "value" and type(option) not in (int, str, bool):
            raise RuntimeRulesError.at(position, f"an option {option!r} has no declared id: `value` ids are "
                                       "for numbers, texts and true/false", f"the decision is at {pending.rule}")
        try:
            found = self.evaluate(key, State(), option)
        except RuntimeRulesError as error:  # validate checks only what may be offered: this one is
            label = self.engine.label(option, pending.kind)
            raise RuntimeRulesError.at(position, f"{label!r} is offered but has no id: "
                                       f"{error.diagnostics[0].message}",
                                       f"the decision is at {pending.rule}; give {label!r} what its id reads, "
                                       "or do not offer it there") from None
        limit = self.chance_size if group == "chance" else self.distinct
        if type(found) is not int or not 0 <= found < limit:
            label = self.engine.label(option, pending.kind)
            raise RuntimeRulesError.at(position, f"the id of {label!r} is {found!r}, not one of 0..{limit - 1}",
                                       f"the decision is at {pending.rule}")
        self.ids[key][option] = found
        return found

    @cached_property
    def tensor_layout(self) -> TensorLayout:
        """Where each fact goes in the observation and information-state tensors (tensors.py):
        made at the first tensor asked for, never by a game that asks for none."""
        return TensorLayout.of(self.program, load_ruleset(self.ruleset, self.variant), self.sight)

    def new_initial_state(self) -> SnowrulesState:
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> SnowrulesObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SnowrulesObserver(self, perfect_recall)


class SnowrulesState(pyspiel.State):
    """A snowrules state in explicit mode, with OpenSpiel's ids for its options. Each game makes
    its states from its own subclass (SnowrulesGame.state_class), which holds `_shared`."""

    _shared: Shared

    def __init__(self, game: SnowrulesGame):
        super().__init__(game)
        first = game.first_state
        if first is not None:  # every game starts alike: the first one, copied when it first changes
            self.st, self.recall, self._player, self._node, self._looked, self._picking = first
            self._own = False
            self._kept = NO_KEPT
            return
        self.st = game.engine.start(0, explicit=True)
        self._own = True  # in the state's own attributes, so that pyspiel's clone() copies it
        # What each seat saw change, was asked and chose, kept only while someone asks for it: see
        # `_observe` and `recall_now` (None once a node went by unnoted: then worked out afresh).
        self.recall: Recall | None = Recall(game.program.layout.player_seats)
        # Worked out once per node (pyspiel asks for them several times a move): whose turn it is,
        # and the pending decision's action ids (a Node, made when they are first asked).
        self._player: int = pyspiel.PlayerId.TERMINAL
        self._node: Node | None = None
        self._looked = False  # whether the seats noted this node (what they saw, what they are asked)
        # Each seat's last options with declared ids, for its next node's ids (nodes.Kept).
        self._kept = NO_KEPT
        self._observe()
        game.first_state = (self.st.clone(), self.recall.__deepcopy__({}), self._player, self._node, self._looked,
                            self._picking)

    # A new state shares the game's first state (engine state and notes) until it first changes
    # them (`_owned`): pyspiel's clone() makes a new initial state and then overwrites each of its
    # attributes with a deep copy of the original's, so a copy made there would be thrown away at
    # every clone. Anything that changes `st` or `recall` calls `_owned` first.
    _own = True
    # A `choose exactly N` decision asked item by item (adapters/picks.py), while it is open.
    _picking: Picks | None = None

    def _owned(self) -> None:
        if not self._own:
            self.st = self.st.clone()
            if self.recall is not None:
                self.recall = self.recall.__deepcopy__({})
            self._own = True

    # ---- whose turn -----------------------------------------------------------------------
    def current_player(self) -> int:
        return self._player

    def _node_ids(self) -> list[tuple[list[int], list[int]]]:
        """For each options list of the pending decision: its ids, and the same sorted."""
        node = self._node
        if node is None:
            node = self._node = self._work_out_node()
        return node.ids

    def _work_out_node(self) -> Node:
        pending = self.st.pending
        if self._picking is not None:
            return self._picking.node(pending)
        chance = pending.chance
        group = "chance" if chance else "choice"
        # The common case first (nodes.declared_node): whole-number options whose declared ids
        # are all known and all differ, each list's ids kept from its seat's last list if it can.
        known = self._shared.ids.get((group, pending.kind))
        if known is not None:
            node = declared_node(known, pending, self._kept)
            if node is not None:
                return node
        found = []
        by_option = True  # every id the declared one of its option (not its position)
        for options in pending.options:
            pair = None if known is None else declared_ids(known, options)
            if pair is None:
                ids = option_ids(self.get_game(), pending, group, options, self.st)
                pair = (ids, sorted(ids))
                by_option = False
            found.append(pair)
        if chance:
            return Node(found, {CHANCE_PLAYER: found[0][1]}, [], by_option)
        seats = pending.seats
        if len(seats) == 1:
            return Node(found, {seats[0]: found[0][1]}, [])
        return Node(found, {seat: ids[1] for seat, ids in zip(seats, found)},
                    [NOTHING_TO_DECIDE] if pending.simultaneous else [])

    def _seat_options(self, player: int) -> tuple[list[int], list]:
        pending = self.st.pending
        seats = pending.seats
        if player not in seats:
            return [], []
        index = seats.index(player)
        return self._node_ids()[index][0], pending.options[index] if self._picking is None \
            else self._picking.each[index].offered()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's `State.legal_actions`, answered in Python. Through pyspiel, a Python state's
        legal actions cost five calls from C++ back into Python (is_terminal, current_player
        three times, _legal_actions), about 4.5 us, more than the rest of a node's work; this
        gives the same answers as that path (PyState::LegalActions in OpenSpiel's
        python_games.cc) in a fraction of it: none once the game is over, the chance outcomes'
        ids at a chance node whoever asks, a seat's legal ids at its own or a simultaneous node,
        none for a seat not to move, and an error for another pseudo-player. C++ callers (OpenSpiel's
        algorithms written in C++) still go through PyState, to `_legal_actions`."""
        current = self._player
        if player is None:
            player = current
        if self.st.result is not None:
            return []
        if player == current or (current == SIMULTANEOUS_PLAYER and player >= 0) or current == CHANCE_PLAYER:
            node = self._node
            if node is None:
                node = self._node = self._work_out_node()
            if current == CHANCE_PLAYER:
                return node.legal[CHANCE_PLAYER][:]
            return node.legal.get(player, node.left_out)[:]
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        """The player's legal ids, sorted (pyspiel copies the list it gets: it is not copied here)."""
        if self.st.result is not None:
            return []
        node = self._node
        if node is None:
            node = self._node = self._work_out_node()
        if self.st.pending.chance:
            return node.legal[CHANCE_PLAYER]
        return node.legal.get(player, node.left_out)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        if node is None:
            node = self._node = self._work_out_node()
        ids, sorted_ids = node.ids[0]  # in the outcomes' order, and sorted
        if self.st.pending.weights is None:  # equally likely, as Game.chance_outcomes gives them
            return list(zip(sorted_ids, repeat(1.0 / len(ids))))
        return sorted((i, probability) for i, (_, probability) in zip(ids, Game.chance_outcomes(self.st)))

    # ---- moves ----------------------------------------------------------------------------
    @staticmethod
    def _illegal(ids: list[int], action: int, seat: int | None) -> ValueError:
        who = "chance" if seat is None else f"player {seat}"
        return ValueError(f"action {action} is not legal for {who}: legal are {sorted(ids)}")

    # Leaving a node: the answer checked against the node's ids, noted if the seats still keep
    # notes and noted this node (if nobody noted it, the notes stop being kept: `recall` None),
    # then given to the rules, which run on to the next node (Game.answer would check the option
    # indexes again; with a sink, it also logs them), and the next node arrived at (`_observe`).
    # Written into each of the two entry points rather than shared: one call less at every node.
    def _apply_action(self, action: int) -> None:
        if not self._own:
            self._owned()
        st = self.st
        pending = st.pending
        node = self._node
        if node is None:
            node = self._node = self._work_out_node()
        ids = node.ids[0][0]
        try:
            index = ids.index(action)
        except ValueError:
            raise self._illegal(ids, action, None if pending.chance else pending.seats[0]) from None
        options = pending.options[0]
        picked = self._picking is not None
        if picked:
            answers = self._picked([index])
            if answers is None:  # the same seat picks its next item
                return
            index = answers[0]
        value = options[index]
        if pending.chance:  # a draw: run on, and arrive as _observe does
            if st.sink is not None:
                self.get_game().engine.answer(st, [index])
            else:
                st.answer = value
                self._shared.go_on(st)
            after = st.pending
            if after is None or not after.chance or st.result is not None:
                if node.by_option:  # the next draw, after the decisions between, may keep these ids
                    self._kept = after_draw_left(self._kept, pending, node, index)
                self._observe()
                return
            self._player = CHANCE_PLAYER  # the next draw, with nothing to note
            self._looked = True
            self._node = (node.after_draw(index, options, after.options[0])
                          if node.by_option and after.kind == pending.kind else None)
            return
        if not self._looked:  # nobody noted this node: the notes stop being kept
            self.recall = None
        elif self.recall is not None:
            note_answer(self.recall, self._shared.program, st, pending, pending.seats[0], value, picked)
        if pending.simultaneous:  # a secret decision that only one seat has to make
            value = [value]
        if st.sink is not None:
            self.get_game().engine.answer(st, [index])
        else:
            st.answer = value
            self._shared.go_on(st)
        self._observe()

    def _picked(self, positions: list[int]) -> list[int] | None:
        """Each seat's item at its position among those left picked (adapters/picks.py), and
        noted: once the last are picked, each seat's answer (its index among its options);
        before, None."""
        pending = self.st.pending
        picks = self._picking.picked(self._node, positions)
        if not self._looked:
            self.recall = None
        elif self.recall is not None:
            note_picks(self.recall, self._shared.program, pending, picks)
        answers = picks.answers(pending)
        self._picking, self._node = (picks, None) if answers is None else (None, self._node)
        return answers

    def _apply_actions(self, actions: list[int]) -> None:
        """A simultaneous node's actions, one per seat (see above)."""
        if not self._own:
            self._owned()
        st = self.st
        pending = st.pending
        node = self._node
        if node is None:
            node = self._node = self._work_out_node()
        answers = []
        seats = pending.seats
        for seat, (ids, _) in zip(seats, node.ids):
            action = actions[seat]
            try:
                answers.append(ids.index(action))
            except ValueError:
                raise self._illegal(ids, action, seat) from None
        picked = self._picking is not None
        if picked:
            answers = self._picked(answers)
            if answers is None:  # the seats pick their next items
                return
        elif node.by_option:
            self._kept = after_decision_left(self._kept, pending, node, answers)
        values = list(map(list.__getitem__, pending.options, answers))
        if not self._looked:
            self.recall = None
        elif self.recall is not None:
            for seat, value in zip(seats, values):
                note_answer(self.recall, self._shared.program, st, pending, seat, value, picked)
        if st.sink is not None:
            self.get_game().engine.answer(st, answers)
        else:
            st.answer = values
            self._shared.go_on(st)
        self._observe()

    # ---- what the seats remember ------------------------------------------------------------
    # Each seat notes what it sees change at every node that is not a draw, then what it is asked
    # (Recall): draws in a row with no decision between them (a deal) are seen together, once
    # they are done, so in an `unordered` zone (shown sorted) the order in which a hand was dealt
    # is not remembered (as in OpenSpiel's card games). Noting costs about a third of a playout's
    # time and most playouts never ask for an information state, so a node is noted only when
    # someone asks at it (an information state; the state does not change between arriving at a
    # node and leaving it, so noting late notes the same). Leaving a node that nobody noted drops
    # the notes (`recall` None); asking later works them out afresh by replaying the moves
    # (`_replayed`). Algorithms that ask at every node (CFR, the information-state tests) keep
    # them up to date, one node at a time.
    _eager = False  # a replaying state notes every node as it arrives

    def _observe(self) -> None:
        """Arriving at a node: whose turn it is, as pyspiel names it (a decision of several seats
        is a simultaneous node; a draw is the chance player's, with nothing to note); the seats
        note it now only if eager."""
        st = self.st
        self._node = self._picking = None
        if st.result is not None:
            self._player = TERMINAL_PLAYER
        else:
            pending = st.pending
            if pending.chance:
                self._player = CHANCE_PLAYER
                self._looked = True
                return
            seats = pending.seats
            self._player = SIMULTANEOUS_PLAYER if pending.simultaneous and len(seats) > 1 else seats[0]
            if pending.how_many is not None:
                self._picking = picks_of(self.get_game(), pending)
        self._looked = False
        if self._eager:
            self._note_node()

    def _note_node(self) -> None:
        """The seats note this node: what they see changed, what they are asked."""
        self._owned()
        st = self.st
        recall = self.recall
        sight = self.get_game().sight
        recall.look(st, sight)
        if st.result is None and self._picking is not None:
            note_asked(recall, st.pending, self._picking, st, sight)
        elif st.result is None:
            recall.asked_each(st.pending, st, sight)
        self._looked = True

    def recall_now(self) -> Recall:
        """Every seat's notes up to this node, noted now if need be (see above)."""
        if self.recall is None:
            self.recall = self._replayed()
            self._looked = True
        elif not self._looked:
            self._note_node()
        return self.recall

    def _replayed(self) -> Recall:
        """The notes of this state's moves, made by replaying them from the start on a copy that
        notes every node (pyspiel's history: a simultaneous node's actions are one per seat)."""
        copy = self.get_game().new_initial_state()
        copy._eager = True
        if not copy._looked:
            copy._note_node()
        history, at = self.history(), 0
        seats = self.get_game().num_players()
        while at < len(history):
            if copy._player == SIMULTANEOUS_PLAYER:
                copy._apply_actions(history[at:at + seats])
                at += seats
            else:
                copy._apply_action(history[at])
                at += 1
        return copy.recall

    def _action_to_string(self, player: int, action: int) -> str:
        """The option as a player reads it; identical components are told apart by their id."""
        pending = self.st.pending
        if pending is None:
            return f"action {action}"
        if pending.chance:
            options = pending.options[0]
            ids = self._node_ids()[0][0]
        else:
            ids, options = self._seat_options(player)
        if action not in ids:
            return f"action {action}"
        engine = self.get_game().engine
        # as a person reads them: a component list's `label:` with the values it shows now
        sight = self.get_game().sight  # a combination from an `unordered` zone: its items by name
        labels = [engine.shown_label(self.st, sight.option_shown(self.st, o, pending.kind)) for o in options]
        label = labels[ids.index(action)]
        if labels.count(label) > 1:
            label += f" #{action}"
        return label

    # ---- the end --------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.st.result is not None

    def returns(self) -> list[float]:
        """Each player's return; an automa's seat is at the table (it may be among the winners and
        the losers that share -1) but is no OpenSpiel player, so it has none."""
        layout = self.get_game().program.layout
        seats, players = layout.seats, layout.player_seats
        if self.st.result is None:
            return [0.0] * players
        declared = seat_returns(self.get_game().program, self.st)
        if declared is not None:
            return declared[:players]
        winners = set(self.st.result.winners or [])
        if not winners or len(winners) == seats:
            return [0.0] * players
        return [1.0 / len(winners) if seat in winners else -1.0 / (seats - len(winners)) for seat in range(players)]

    def __str__(self) -> str:
        return json.dumps(self.st.to_json(), sort_keys=True)


class Shared(NamedTuple):
    """What a state reads from its game at every node (the remembered ids, the program): a
    class attribute of the game's own state class (SnowrulesGame.state_class), because pyspiel's
    `get_game()` is a call into C++ that costs more than the reads, and an attribute of each
    state would be copied at every clone (pyspiel clones with copy.deepcopy)."""

    ids: dict[tuple, dict]
    program: Program
    go_on: Callable[[State], None]  # the engine's: runs a state whose answer is set on to its next node
