"""Declared events and the reactions they run (docs/language.md, "Events and reactions").

A ruleset declares events (`event gained(p, resource, n)`); a `raise` statement raises one, and
an event declared `from counter C` or `from moves` is raised by the change point itself
(compile/apply.py queues it in `State.raised` at every change of counter C, or every move). Rules
(`on gained(p, k, n) where ...:`) and components (a `reacts:` entry in their YAML, active while
the component lies in a zone that `reactions from ...` names) react to it.

A statement that raises an event runs as a step (`Reacting`): once the statement is done, the
reactions that fire are decided at once (each rule reaction in file order, then each active
component's entries by zone, position and entry order; a `where` that does not hold leaves its
reaction out) and pushed as routines on the frame stack, so a reaction may change anything, ask
decisions and raise further events, and the state stays plain data in the middle of one. The
depth of a chain is the number of reactions running when an event is raised; one raised deeper
than MAX_REACTION_DEPTH stops the game at the raising statement.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from snowrules.compile import fuse
from snowrules.compile.ir import nodes as ir
from snowrules.compile.scope import RoutineSlots, Scope, Symbols, refined, suggest
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position, RuntimeRulesError
from snowrules.language.limits import MAX_REACTION_DEPTH
from snowrules.load.component_lists import ComponentDef, ReactsEntry
from snowrules.model import kinds as t
from snowrules.model.events import Reacted
from snowrules.model.layout import Layout
from snowrules.model.program import ROUTINE

MOVES = "moves"


@dataclass
class Reaction:
    """A compiled reaction: its routine's block, where each argument goes, its condition."""

    rule: str                       # path:line:col of the `on` rule or the `reacts:` entry
    event: EventRuntime
    block: int = -1
    env_size: int = 0
    param_slots: tuple[int, ...] = ()
    where: Callable | None = None
    this_slot: int | None = None    # component reactions: the component and its owner
    me_slot: int | None = None

    def env(self, args: list) -> list:
        local = [None] * self.env_size
        for slot, value in zip(self.param_slots, args):
            local[slot] = value
        return local


@dataclass
class EventRuntime:
    """A declared event: its parameters, who raises it, and the reactions to it."""

    name: str
    params: tuple[str, ...]
    position: Position
    kinds: list[t.Kind]
    source: tuple[str, str | None] | None = None
    rules: list[Reaction] = field(default_factory=list)
    cards: dict[int, list[Reaction]] = field(default_factory=dict)   # component definition -> reactions
    # a counter's event: how a counter index becomes (owner, key): base, width, per player, keys
    counter: tuple[int, int, bool, list[str]] | None = None
    holders: list[int] | None = None  # a counter on components: counter slot -> its component
    words: tuple[str, ...] = ()     # each argument's kind as the log names it
    player_param: int | None = None  # the first player argument: `me` of a card in a shared zone

    @property
    def live(self) -> bool:
        """Whether anything reacts to it (an event nothing reacts to is never queued)."""
        return bool(self.rules or self.cards)

    def arguments(self, raw) -> list:
        """The event's arguments from what was queued: a `raise`'s and a move's are already its
        arguments; a counter's change is (counter index, change), told as (owner, key, change),
        or (component, change) for a counter on components."""
        if self.counter is None:
            return raw
        i, by = raw
        base, width, per_player, keys = self.counter
        if self.holders is not None:
            return [self.holders[i - base], by]
        args = []
        if per_player:
            args.append((i - base) // width)
        if keys:
            args.append(keys[(i - base) % width])
        args.append(by)
        return args


@dataclass
class ReactionTable:
    """Every event of a program, and where its components' reactions are active."""

    events: dict[str, EventRuntime]
    zones: list[int]                  # zone instances whose components react, in reacting order
    zone_owners: list[int | None]     # zone instance -> owner seat (None when shared)
    component_defs: list[int]         # component id -> its definition
    blocks: frozenset[int] = frozenset()  # the reactions' routine blocks (to measure a chain's depth)


def fired_reactions(st, table: ReactionTable) -> tuple[list, list[tuple[Reaction, list]]]:
    """The events the statement just done raised (emptying `State.raised`) and the reactions
    that fire, each with its environment, in the order they run (their `where` evaluated now)."""
    queue, st.raised = st.raised, []
    fired: list[tuple[Reaction, list]] = []
    zones, defs = st.zones, table.component_defs
    for event, raw in queue:
        args = event.arguments(raw)
        for reaction in event.rules:
            local = reaction.env(args)
            if reaction.where is None or reaction.where(st, local):
                fired.append((reaction, local))
        if not event.cards:
            continue
        shared_me = args[event.player_param] if event.player_param is not None else None
        for z in table.zones:
            owner = table.zone_owners[z]
            for c in zones[z]:
                for reaction in event.cards.get(defs[c], ()):
                    local = reaction.env(args)
                    local[reaction.this_slot] = c
                    local[reaction.me_slot] = owner if owner is not None else shared_me
                    if reaction.where is None or reaction.where(st, local):
                        fired.append((reaction, local))
    return queue, fired


def check_depth(depth: int, queue: list, at: Position) -> None:
    """A reaction chain is bounded: an event raised while MAX_REACTION_DEPTH reactions run stops
    the game at the raising statement."""
    if depth >= MAX_REACTION_DEPTH:
        raise RuntimeRulesError.at(at, f"a chain of reactions deeper than {MAX_REACTION_DEPTH}: this raises "
                                   f"{queue[0][0].name} inside {depth} reactions that each raised the next",
                                   "make the chain stop: a `where` or an `if` that ends it", code="SR707")


def reactions_started(frames: list, blocks: frozenset[int]) -> int:
    """How many reactions are running, read from a state's frames: a reaction's frame past its
    start (the depth of a chain; the generated code of a game resumed from frames starts its count
    here, compile/playthrough.py)."""
    return sum(1 for frame in frames if frame.block in blocks and frame.pc > 0)


class Reacting:
    """A statement that raises events (`raise`, a change of a counter or a move that an event
    is declared from, a `together` block holding them): run it, then push its reactions; the
    `when` rules a counter change hands back run before them, as they would inside it."""

    def __init__(self, change, table: ReactionTable, position: Position):
        self.change, self.table, self.position = change, table, position


def _told(reaction: Reaction):
    """The first statement of a reaction's routine: the `Reacted` event, for whoever listens."""
    event, rule, slots, this_slot = reaction.event, reaction.rule, reaction.param_slots, reaction.this_slot

    def reacted(st, env):
        if st.sink is not None:
            st.sink(Reacted(rule, None if this_slot is None else env[this_slot], event.name,
                            tuple(env[slot] for slot in slots), event.words))
    return reacted


def _known(kinds: list[t.Kind]) -> list[t.Kind]:
    """A parameter no `raise` gave a kind to (an event raised nowhere) is of any kind."""
    return [t.ANY if kind == t.NONE else kind for kind in kinds]


def _word(kind: t.Kind) -> str:
    return kind.name if kind in (t.PLAYER, t.COMPONENT, t.ZONE) else "value"


class Events:
    """The compiler's part for events: declarations checked, `raise` arguments checked (and the
    kinds of an event's parameters learnt from them), reactions compiled into routines."""

    def __init__(self, symbols: Symbols, layout: Layout, diag: Diagnostics, taken: dict[str, Position]):
        self.sym, self.layout, self.diag = symbols, layout, diag
        self.taken = taken        # every top-level name, with where it is declared
        self.events: dict[str, EventRuntime] = {}
        self.reaction_decls: list[tuple[s.ReactionDecl, Reaction]] = []
        self.card_entries: list[tuple[int, ReactsEntry, EventRuntime]] = []
        self.zone_instances: list[int] = []
        self.stale = False        # a reaction was compiled with a kind that a later `raise` changed
        self.table: ReactionTable | None = None

    # ---- declarations ---------------------------------------------------------------------
    def declare(self, declarations: list, components: list[ComponentDef]) -> None:
        for decl in declarations:
            if isinstance(decl, s.EventDecl):
                self._event(decl)
        for decl in declarations:
            if isinstance(decl, s.ReactionDecl):
                self._reaction(decl)
            elif isinstance(decl, s.ReactionZonesDecl):
                self._zones(decl)
        first_entry = None
        for index, definition in enumerate(components):
            for entry in definition.reactions:
                event = self.events.get(entry.event)
                if event is None:
                    self.diag.error(entry.event_position, f"unknown event {entry.event!r}",
                                    suggest(entry.event, list(self.events)) or "declare it with `event NAME(...)`",
                                    code="SR401")
                    continue
                first_entry = first_entry or entry
                self.card_entries.append((index, entry, event))
                event.cards.setdefault(index, [])
        if first_entry is not None and not self.zone_instances and not any(
                isinstance(d, s.ReactionZonesDecl) for d in declarations):
            self.diag.error(first_entry.position, "a component reacts, but no zone is named where components react",
                            "add `reactions from ZONE, ...` to the rules: the zones whose components' "
                            "`reacts:` are active")
        self.table = ReactionTable(self.events, self.zone_instances, [z.owner for z in self.layout.zones],
                                   self.layout.component_defs)

    def _free(self, name: str, position: Position, what: str) -> bool:
        """A parameter's name may not hide a name of the rules (a zone, a counter, `me`, ...)."""
        if name in self.taken:
            first = self.taken[name]
            where = "a built-in name" if first.path == "<built-in>" else f"declared at {first}"
            self.diag.error(position, f"the {what} {name!r} would hide the name {name!r} ({where})",
                            "choose another name for it", code="SR405")
            return False
        return True

    def _event(self, decl: s.EventDecl) -> None:
        if decl.name in self.events:
            self.diag.error(decl.pos, f"event {decl.name!r} is declared twice",
                            f"first at {self.events[decl.name].position}", code="SR405")
            return
        if decl.name in self.taken:  # one name, one thing: `ping(1)` and `raise ping(1)` must not mean two
            first = self.taken[decl.name]
            where = "a built-in name" if first.path == "<built-in>" else f"first defined at {first}"
            self.diag.error(decl.pos, f"{decl.name!r} is already defined",
                            f"{where}; an event needs a name of its own", code="SR405")
        if len(set(decl.params)) != len(decl.params):
            self.diag.error(decl.pos, f"event {decl.name!r} names a parameter twice", code="SR405")
        for param in decl.params:
            self._free(param, decl.pos, "parameter")
        kinds = [self.sym.kinds.start(("event", decl.name, n), t.NONE) for n in range(len(decl.params))]
        event = EventRuntime(decl.name, decl.params, decl.pos, kinds, decl.source)
        if decl.source is not None and decl.source[0] == "counter":
            self._counter_event(decl, event)
        elif decl.source is not None:
            if len(decl.params) != 3:
                self.diag.error(decl.pos, f"an event from moves has 3 parameters (the component, the zone it "
                                f"left, the zone it entered), not {len(decl.params)}", code="SR403")
            event.kinds = [t.COMPONENT, t.ZONE, t.ZONE][:len(decl.params)]
        self.events[decl.name] = event

    def _counter_event(self, decl: s.EventDecl, event: EventRuntime) -> None:
        family = self.layout.counter_families.get(decl.source[1])
        if family is None:
            self.diag.error(decl.pos, f"unknown counter {decl.source[1]!r}",
                            suggest(decl.source[1], list(self.layout.counter_families)), code="SR401")
            return
        wanted = (["the player whose counter it is"] if family.per_player else []) + (
            ["the component whose counter it is"] if family.per_component else []) + (
            ["its key"] if family.keys else []) + ["the change"]
        if len(decl.params) != len(wanted):
            self.diag.error(decl.pos, f"an event from counter {family.name!r} has {len(wanted)} parameters "
                            f"({', '.join(wanted)}), not {len(decl.params)}", code="SR403")
            return
        event.kinds = ([t.PLAYER] if family.per_player else []) + ([t.COMPONENT] if family.per_component else []) + (
            [t.STR] if family.keys else []) + [t.INT]
        event.counter = (family.base, family.width, family.per_player, list(family.keys))
        event.holders = family.holders

    def _reaction(self, decl: s.ReactionDecl) -> None:
        event = self.events.get(decl.event)
        if event is None:
            self.diag.error(decl.pos, f"unknown event {decl.event!r}",
                            suggest(decl.event, list(self.events)) or "declare it with `event NAME(...)`",
                            code="SR401")
            return
        if len(decl.params) != len(event.params):
            self.diag.error(decl.pos, f"event {event.name!r} has {len(event.params)} parameters "
                            f"({', '.join(event.params)}), this reaction names {len(decl.params)}", code="SR403")
            return
        if len(set(decl.params)) != len(decl.params):
            self.diag.error(decl.pos, "this reaction names a parameter twice", code="SR405")
            return
        if all([self._free(p, decl.pos, "reaction's parameter") for p in decl.params]):
            reaction = Reaction(str(decl.pos), event)
            self.reaction_decls.append((decl, reaction))
            event.rules.append(reaction)

    def _zones(self, decl: s.ReactionZonesDecl) -> None:
        for name, position in zip(decl.zones, decl.positions or (decl.pos,) * len(decl.zones)):
            family = self.layout.zone_families.get(name)
            if family is None:
                self.diag.error(position, f"unknown zone {name!r}", suggest(name, list(self.layout.zone_families)),
                                code="SR401")
                continue
            instances = range(family.base, family.base + family.width * (self.layout.seats if family.per_player
                                                                          else 1))
            if family.base in self.zone_instances:
                self.diag.error(position, f"zone {name!r} is named twice where components react", code="SR405")
                continue
            self.zone_instances.extend(instances)

    # ---- what the statement compiler asks ------------------------------------------------
    def heard(self) -> frozenset[ir.Raised]:
        """What a statement may raise that something reacts to: the named events, the changes of
        counter families and the moves that a live event stands for."""
        heard: set[ir.Raised] = {ir.NamedEvent(name) for name in self.live_events()}
        heard.update(ir.CounterChanged(family) for family in self.live_counters())
        if self.move_events():
            heard.add(ir.ComponentsMoved())
        return frozenset(heard)

    def live_events(self) -> set[str]:
        """The events something reacts to."""
        return {name for name, event in self.events.items() if event.live}

    def live_counters(self) -> set[str]:
        """The counters whose changes raise an event something reacts to."""
        return {self._family_of(e) for e in self.events.values() if e.counter is not None and e.live}

    @staticmethod
    def _family_of(event: EventRuntime) -> str:
        return event.source[1]

    def counter_events(self, family: str) -> list[EventRuntime]:
        return [e for e in self.events.values() if e.counter is not None and e.live and self._family_of(e) == family]

    def move_events(self) -> list[EventRuntime]:
        return [e for e in self.events.values() if e.source is not None and e.source[0] == MOVES and e.live]

    def raise_native(self, node: s.Raise, scope: Scope, exprs) -> Callable:
        """`raise EVENT(args)`: its arguments checked against the event's parameters (a parameter
        whose kind is not known yet takes the argument's), queued when something reacts."""
        event = self.events.get(node.event)
        if event is None:
            self.diag.error(node.pos, f"unknown event {node.event!r}",
                            suggest(node.event, list(self.events)) or "declare it with `event NAME(...)`",
                            code="SR401")
            return lambda st, env: None
        if event.source is not None:
            self.diag.error(node.pos, f"event {event.name!r} is raised by every "
                            f"{'move' if event.source[0] == MOVES else 'change of counter ' + repr(event.source[1])}",
                            "`raise` only events declared without `from`", code="SR499")
            return lambda st, env: None
        if len(node.args) != len(event.params):
            self.diag.error(node.pos, f"event {event.name!r} takes {len(event.params)} arguments "
                            f"({', '.join(event.params)}), not {len(node.args)}", code="SR403")
            return lambda st, env: None
        args = []
        for n, (arg, param) in enumerate(zip(node.args, event.params)):
            fn, kind = exprs.compile(arg, scope)
            known = event.kinds[n]
            if known == t.NONE or t.vague(known):
                event.kinds[n] = refined(known, kind)
                self.sym.kinds.learn(("event", event.name, n), event.kinds[n])
            elif not t.compatible(kind, known):
                self.diag.error(arg.pos, f"argument {param!r} of {event.name} must be {t.describe(known)}, "
                                f"not {t.describe(kind)}", "as in its other `raise` statements", code="SR402")
            args.append(fn)
        if not event.live:
            return lambda st, env: None
        names = [fuse.expression(fn) for fn in args]
        event_name = fuse.fresh("_v")
        namespace = {event_name: event}
        for _, ns in names:
            namespace.update(ns)
        line = f"st.raised.append(({event_name}, [{', '.join(src for src, _ in names)}]))"
        return fuse.statement([line], namespace, 0)

    # ---- reactions ------------------------------------------------------------------------
    def compile_reactions(self, statements, exprs) -> None:
        """Every reaction into a routine (after the rest of the rules, so that the kinds of the
        events' parameters are learnt from the `raise` statements first)."""
        used: list[tuple[EventRuntime, list[t.Kind]]] = []   # the kinds each reaction was compiled with
        blocks = []
        for decl, reaction in self.reaction_decls:
            used.append((reaction.event, self._compile(reaction, decl.params, decl.where, decl.body, statements,
                                                       exprs, None)))
            blocks.append(reaction.block)
        for index, entry, event in self.card_entries:
            reaction = Reaction(str(entry.position), event)
            used.append((event, self._compile(reaction, event.params, entry.where, entry.effect, statements, exprs,
                                              index)))
            event.cards[index].append(reaction)
            blocks.append(reaction.block)
        # a `raise` compiled after a reaction (inside a later one) may have told its kinds: compile again
        self.stale = any(kinds != _known(event.kinds) for event, kinds in used)
        for event in self.events.values():
            event.words = tuple(_word(k) for k in event.kinds)
            event.player_param = next((n for n, k in enumerate(event.kinds) if k == t.PLAYER), None)
        self.table.blocks = frozenset(blocks)

    def _compile(self, reaction: Reaction, params: tuple[str, ...], where, body: s.Block, statements, exprs,
                 card: int | None) -> list[t.Kind]:
        """Compile one reaction; the kinds its parameters were given."""
        scope = Scope(RoutineSlots())
        kinds = _known(reaction.event.kinds)
        reaction.param_slots = tuple(scope.define(p, k) for p, k in zip(params, kinds))
        if card is not None:
            reaction.me_slot = scope.define("me", t.PLAYER)
            reaction.this_slot = scope.define("this", t.COMPONENT)
        if where is not None:
            reaction.where = exprs.expect(where, scope, t.BOOL, "a `where` condition")
        block = statements.new_block(ROUTINE, body.pos)
        block.add_native(_told(reaction), body.pos)
        statements.fill(block, body, scope.child())
        reaction.block = block.id
        reaction.env_size = scope.slots.size
        return kinds

    def program_table(self) -> ReactionTable | None:
        """The table a program keeps, or None when nothing reacts."""
        if self.table is None or not any(e.live for e in self.events.values()):
            return None
        return self.table


__all__ = ["Events", "Reacting", "ReactionTable", "check_depth", "fired_reactions"]
