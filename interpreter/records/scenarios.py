"""Scenarios: rulebook examples as executable tests with exact expected values.

A scenario starts a game (its setup runs), imposes a situation at the first decision (counter
values, zone contents), answers decisions with the options it names, runs to a stopping point
(`end of turn N`, `game end`, `next decision`) and compares counters, zones, winners and the
pending decision with what the rulebook says.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from snowrules.compile.apply import place, set_layouts
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import Diagnostic, ScenarioError, SnowrulesError
from snowrules.load.ruleset import GENERIC_SCHEMAS, Ruleset, display_path, load_ruleset, set_options
from snowrules.load.schema_errors import schema_errors
from snowrules.load.yaml_files import YamlDocument, key_position, load_schema, load_yaml, plain
from snowrules.model.events import Rolled
from snowrules.model.program import Program
from snowrules.model.state import State
from snowrules.records.scenario_grids import compare_layout, is_grid_listing, lay_out, placement_names
from snowrules.runtime.engine import Game
from snowrules.runtime.returns import declares_returns, seat_returns


@dataclass
class ScenarioResult:
    name: str
    path: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    state: State | None = None   # where the scenario's game stopped (what a result reads: play/results.py)


def scenario_files(ruleset: Ruleset) -> list[Path]:
    """The scenario files of a ruleset; a symlink to a file outside its folder is never read
    (`validate` reports it, SR106)."""
    return [p for p in sorted((ruleset.folder / "scenarios").glob("*.yaml")) if inside(p, ruleset.folder)]


def outside_scenario_files(ruleset: Ruleset) -> list[Path]:
    return [p for p in sorted((ruleset.folder / "scenarios").glob("*.yaml")) if not inside(p, ruleset.folder)]


def inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def load_scenario(path: Path) -> YamlDocument:
    document, problems = load_yaml(path, display_path(path))
    if document is None:
        raise ScenarioError(problems)
    found = schema_errors(document, load_schema(GENERIC_SCHEMAS / "scenario.schema.json"))
    if found:
        raise ScenarioError(found)
    return document


class _Names:
    """Maps the labels a scenario writes (seat, zone, counter, component names) to indexes."""

    def __init__(self, game: Game, document: YamlDocument):
        layout = game.layout
        self.game, self.document = game, document
        self.seats = {name: i for i, name in enumerate(layout.seat_names)}
        self.zones = {zone.label(layout.seat_names): i for i, zone in enumerate(layout.zones)}
        self.counters = {label: i for i, label in enumerate(layout.counter_labels)}
        self.events: list[dict] = []
        self.family = lambda c: layout.component_files[c]
        self.components: dict[str, list[int]] = {}
        for cid, name in enumerate(layout.component_names):
            self.components.setdefault(name, []).append(cid)

    def error(self, where: list, message: str, hint: str = "", at_key: bool = False) -> ScenarioError:
        """An error at the node `where` leads to, or (`at_key`) at the key that names it."""
        if at_key:
            position = key_position(self.document.path, self.document.tree, where[:-1], where[-1])
        else:
            position = self.document.position(where)
        return ScenarioError(Diagnostic(position, message, hint))

    def lookup(self, table: dict, name: str, where: list, what: str) -> int:
        if name not in table:
            raise self.error(where, f"unknown {what} {name!r}", _close(name, list(table)),
                             at_key=where[-1:] == [name])
        return table[name]


def _impose(st: State, names: _Names, situation: dict, base: list) -> None:
    """Set counters, and make each listed zone hold exactly the named components, in the listed
    order. A component is taken from wherever it is; one pushed out of a listed zone goes where a
    component of its own list (file) came from, else to a zone holding a copy of it (a supply), else
    to the box."""
    layout = names.game.layout
    for label, value in (situation.get("counters") or {}).items():
        where = base + ["counters", label]
        counter = names.lookup(names.counters, label, where, "counter")
        # A rule never takes a counter outside its bounds (changes clamp), so a situation that does
        # would start the example from a state the game cannot reach.
        low, high = layout.counter_lower[counter], layout.counter_upper[counter]
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{'' if low is None else low}..{'' if high is None else high}"
            raise names.error(where, f"{label} is kept within {bounds}: it cannot be {value}")
        st.counters[counter] = value
    zones = situation.get("zones") or {}
    targets = {label: names.lookup(names.zones, label, base + ["zones", label], "zone") for label in zones}
    listed = set(targets.values())
    picked: dict[int, int] = {}  # component -> target zone
    for label, content in zones.items():
        z = targets[label]
        if not isinstance(content, list):
            raise names.error(base + ["zones", label], "a situation lists the components of a zone by name")
        # a grid zone lists placements {component, at, turned} (records/scenario_grids.py)
        listing = placement_names(content, z in st.grids, label, base + ["zones", label], names.error)
        for number, name in enumerate(listing):
            # a grid zone's problem is told at its entry; another zone's at the zone
            where = base + ["zones", label] + ([number] if z in st.grids else [])
            copies = names.components.get(name)
            if copies is None:
                raise names.error(where, f"unknown component {name!r}", _close(name, list(names.components)))
            free = [c for c in copies if c not in picked]
            free.sort(key=lambda c: (st.where[c] != z, st.where[c] in listed, c))
            if not free:
                raise names.error(where, f"there are not that many {name!r}")
            picked[free[0]] = z
    # Where the listed components come from: a component pushed out of a listed zone goes there
    # (a swap keeps every other zone's size: a deck still deals the same number of cards); only
    # components of the same list (file) are swapped: a card for a card, a token for a token.
    family = names.family
    sources = [(st.where[c], family(c)) for c, z in picked.items() if st.where[c] != z and st.where[c] not in listed]
    for z in listed:
        for c in [c for c in st.zones[z] if c not in picked]:
            match = next((i for i, (_, f) in enumerate(sources) if f == family(c)), None)
            home = sources.pop(match)[0] if match is not None else _home_for(st, names, c, listed, picked)
            place(st, c, home)
    for c, z in picked.items():
        if st.where[c] != z:
            place(st, c, z)
    for z in listed:  # in the order the situation lists them (the same components: no move)
        st.zones[z][:] = [c for c, target in picked.items() if target == z]
    if st.grids:  # a grid zone's layout as listed; the others keep the layers of what they hold
        layouts = {targets[label]: lay_out(names.game.layout, st.zones[targets[label]], content,
                                           base + ["zones", label], names.error,
                                           names.game.layout.boards.get(targets[label]))
                   for label, content in zones.items() if targets[label] in st.grids}
        set_layouts(st, layouts, names.game.layout.pieces)


def _close(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3)
    return f"did you mean {' or '.join(close)}?" if close else ""


def _home_for(st: State, names: _Names, component: int, listed: set[int], picked: dict) -> int:
    name = names.game.layout.component_names[component]
    for other in names.components[name]:
        if other != component and other not in picked and st.where[other] not in listed:
            return st.where[other]
    return 0  # the box


def _answer(game: Game, st: State, names: _Names, choice: dict, where: list) -> None:
    pending = st.pending
    seats = pending.seats
    labels = {}
    for seat_name, option in choice.items():
        seat = names.lookup(names.seats, seat_name, where + [seat_name], "seat")
        labels[seat] = option
    missing = [game.layout.seat_names[s] for s in seats if s not in labels]
    extra = [game.layout.seat_names[s] for s in labels if s not in seats]
    if missing or extra:
        deciders = ", ".join(game.layout.seat_names[s] for s in seats)
        raise names.error(where, f"this decision ({pending.rule}) is for {deciders}",
                          f"missing: {', '.join(missing) or '-'}; not deciding: {', '.join(extra) or '-'}")
    indexes = []
    for seat, options in zip(seats, pending.options):
        wanted = labels[seat]
        shown = game.option_labels(st, options)
        plain_labels = [game.option_label(st, o) for o in options]  # a copy's plain name: the first such
        numbered = game.plain_option_labels(st, options)  # "card #2", as a scenario names a copy
        if wanted not in shown and wanted in numbered:
            shown = numbered
        if wanted not in shown and wanted not in plain_labels:
            raise names.error(where + [game.layout.seat_names[seat]],
                              f"{wanted!r} is not a legal option for {game.layout.seat_names[seat]} here "
                              f"({pending.rule})", "legal: " + "; ".join(shown))
        indexes.append(shown.index(wanted) if wanted in shown else plain_labels.index(wanted))
    game.answer(st, indexes)


def run_scenario(path: Path, ruleset_ref: str, max_steps: int | None = None,
                 read: dict | None = None,
                 clock: Callable[[], AbstractContextManager] = nullcontext) -> ScenarioResult:
    """Run one scenario; `max_steps` lowers the step budget (validate checks scenarios cheaply).
    `read` is where a caller running several scenarios of one ruleset keeps it once read (see
    `_ruleset_of`). `clock()` bounds the game (runtime/clock.py's game_clock), not the reading and
    compiling before it: those are bounded by the limits on sizes, as validate's check is, and for
    a large ruleset they took most of the time limit of the first scenario of a configuration
    (the largest bundled one: 0.6 s to read, 0.2-0.5 s to compile, a few times that on a loaded
    machine)."""
    document = load_scenario(path)
    data = plain(document.tree)
    variant = data.get("variant")
    try:
        ruleset = _ruleset_of(ruleset_ref, variant, read)
    except SnowrulesError as error:
        unknown = next((d for d in error.diagnostics if d.code == "SR208"), None)
        if variant is None or unknown is None:
            raise
        raise ScenarioError(Diagnostic(document.position(["variant"]), unknown.message, unknown.hint,
                                       code="SR501")) from None
    if data.get("options"):
        try:
            set_options(ruleset, data["options"])
        except SnowrulesError as error:
            raise ScenarioError([Diagnostic(document.position(["options"]), "these options cannot be set")]
                                + error.diagnostics) from None
    players_field = data["players"]
    if isinstance(players_field, list):
        seats_wanted = len(players_field)
        if seats_wanted % ruleset.seats_per_player:
            raise ScenarioError(Diagnostic(document.position(["players"]),
                                           f"{seats_wanted} seats do not split into players of "
                                           f"{ruleset.seats_per_player} seats"))
        if list(players_field) != list(ruleset.seat_names[:seats_wanted]):
            # names of its own; the ruleset's first seats (the common case) are the same game as
            # without them, and keep its program shared with the other commands' (validate's check)
            ruleset = dataclasses.replace(ruleset, seat_names=list(players_field))
        players = seats_wanted // ruleset.seats_per_player
    else:
        players = players_field
    try:
        program = _program_of(ruleset, players, (ruleset_ref, variant, repr(data.get("options"))), read)
    except SnowrulesError as error:
        raise ScenarioError([Diagnostic(document.position(["players"]), "this scenario cannot run")]
                            + error.diagnostics) from None
    if max_steps is not None:
        program = dataclasses.replace(program, max_steps=min(program.max_steps, max_steps))
    with clock():
        return _played(Game(program), path, document, data)


def _played(game: Game, path: Path, document: YamlDocument, data: dict) -> ScenarioResult:
    """The scenario's game, from its seed, situation and choices to its expectations checked."""
    names = _Names(game, document)
    events: list[dict] = names.events
    rolls: list[Rolled] = []
    st = game.start(int(data.get("seed", 0)), events.append, data.get("dice"),
                    listen=lambda event: rolls.append(event) if isinstance(event, Rolled) else None)
    if data.get("situation"):
        if st.result is not None:
            raise names.error(["situation"], "the game ended before its first decision")
        _impose(st, names, data["situation"], ["situation"])
        game.ask_again(st)  # the decision waiting there was worked out before the situation
    until = data.get("until", "next decision")
    match = re.fullmatch(r"end of turn (\d+)", until)
    if match:
        st.pause_after_turn = int(match.group(1))
    for number, choice in enumerate(data.get("choices") or []):
        if st.result is not None or st.paused:
            raise names.error(["choices", number], "the game has stopped before this choice")
        _answer(game, st, names, choice, ["choices", number])
    while st.result is None and not st.paused:
        if until == "next decision":
            break
        pending = st.pending
        deciders = ", ".join(game.layout.seat_names[s] for s in pending.seats)
        options = "; ".join(game.plain_option_labels(st, pending.options[0]))
        # reported at the last choice given (the game asks one more), else at `until`
        given = data.get("choices") or []
        where = ["choices", len(given) - 1] if given else ["until"]
        raise names.error(where, f"the game waits for a choice the scenario does not give: "
                          f"{deciders} at {pending.rule}", f"options: {options}")
    if st.paused and until == "game end":
        game.go_on(st)
    failures = _compare(game, st, names, data["expect"], rolls)
    return ScenarioResult(data["name"], display_path(path), not failures, failures, events, st)


def _ruleset_of(ruleset_ref: str, variant: str | None, read: dict | None) -> Ruleset:
    """The ruleset, read once per variant for all the scenarios of one command (`test`,
    `validate`): reading its YAML files costs far more than its scenarios. Each scenario gets its
    own copy of what it may set (its options' values and its seat names: `set_options` and
    `run_scenario` write nothing else; the rest, read only, is shared: a deep copy of a large
    ruleset cost more than its scenario); a ruleset that fails to read is read again (and fails
    again) for each scenario, so each reports the problems."""
    if read is None:
        return load_ruleset(ruleset_ref, variant)
    if (ruleset_ref, variant) not in read:
        read[(ruleset_ref, variant)] = load_ruleset(ruleset_ref, variant)
    ruleset = read[(ruleset_ref, variant)]
    return dataclasses.replace(ruleset, constants=dict(ruleset.constants), option_values=dict(ruleset.option_values),
                               seat_names=list(ruleset.seat_names))


def _program_of(ruleset: Ruleset, players: int, config: tuple, read: dict | None) -> Program:
    """The compiled program of a scenario, compiled once for all the scenarios of one command that
    play the same variant, options, seats and player count (`read`, as in `_ruleset_of`): a large
    ruleset takes seconds to compile, and most of its scenarios share a configuration."""
    if read is None:
        return compile_ruleset(ruleset, players)
    key = ("program", *config, tuple(ruleset.seat_names), players)
    if key not in read:
        read[key] = compile_ruleset(ruleset, players)
    return read[key]


def _compare(game: Game, st: State, names: _Names, expect: dict, rolls: list[Rolled]) -> list[str]:
    failures = []
    layout = game.layout
    for label, wanted in (expect.get("counters") or {}).items():
        got = st.counters[names.lookup(names.counters, label, ["expect", "counters", label], "counter")]
        if got != wanted:
            failures.append(f"{names.document.position(['expect', 'counters', label])}: {label} is {got}, "
                            f"expected {wanted}")
    for label, wanted in (expect.get("zones") or {}).items():
        z = names.lookup(names.zones, label, ["expect", "zones", label], "zone")
        content = sorted(layout.component_names[c] for c in st.zones[z])
        if z in st.grids and is_grid_listing(wanted):
            failures += compare_layout(st.grids[z], layout, st.zones[z], wanted, label,
                                       str(names.document.position(['expect', 'zones', label])))
            continue
        if isinstance(wanted, int):
            ok, shown, expected = len(content) == wanted, f"{len(content)} component(s)", str(wanted)
        else:
            ok, shown, expected = content == sorted(wanted), _listed(content), _listed(sorted(wanted))
        if not ok:
            failures.append(f"{names.document.position(['expect', 'zones', label])}: {label} holds {shown}, "
                            f"expected {expected}")
    if "winners" in expect:
        wanted = expect["winners"]
        outcome = game.outcome(st)
        got = None if outcome is None else [layout.seat_names[s] for s in st.result.winners]
        if (wanted is None) != (got is None) or (got is not None and sorted(got) != sorted(wanted)):
            failures.append(f"{names.document.position(['expect', 'winners'])}: winners are "
                            f"{_winners(got)}, expected {_winners(wanted)}")
    if "returns" in expect:
        failures += _compare_returns(game, st, names, expect["returns"])
    if "rolls" in expect:
        got = [roll.dice for roll in rolls]
        if got != expect["rolls"]:
            failures.append(f"{names.document.position(['expect', 'rolls'])}: the dice rolled were {got}, "
                            f"expected {expect['rolls']}")
    if "decision" in expect:
        failures += _compare_decision(game, st, names, expect["decision"])
    return failures


def _listed(names: list[str]) -> str:
    """Names as a scenario writes them: [Marie 5, Vincent 5]."""
    return "[" + ", ".join(str(n) for n in names) + "]"


def _winners(names: list[str] | None) -> str:
    return "none (the game goes on)" if names is None else _listed(names)


def _compare_decision(game: Game, st: State, names: _Names, wanted: dict | None) -> list[str]:
    """The decision waiting at the stopping point: who decides, and what the first of them may
    choose (`decision: null` expects none: the game has ended or stopped at a turn's end)."""
    layout = game.layout
    at = names.document.position(["expect", "decision"])
    pending = None if st.result is not None else st.pending
    if pending is None:
        if wanted is None:
            return []
        why = "the game has ended" if st.result is not None else "the game has stopped"
        return [f"{at}: no decision is pending ({why}), expected one for {_listed(wanted.get('seats', ['anyone']))}"]
    seats = [layout.seat_names[s] for s in pending.seats]
    options = game.plain_option_labels(st, pending.options[0])
    if wanted is None:
        return [f"{at}: a decision is pending for {_listed(seats)} ({pending.rule}), expected none"]
    failures = []
    if "seats" in wanted and seats != wanted["seats"]:
        failures.append(f"{names.document.position(['expect', 'decision', 'seats'])}: the pending decision "
                        f"is for {_listed(seats)}, expected {_listed(wanted['seats'])}")
    if "options" in wanted and options != wanted["options"]:
        failures.append(f"{names.document.position(['expect', 'decision', 'options'])}: the pending decision "
                        f"offers {_listed(options)}, expected {_listed(wanted['options'])}")
    return failures


def _compare_returns(game: Game, st: State, names: _Names, wanted: dict) -> list[str]:
    """Each listed seat's return (the manifest's `returns`), to within rounding of fractions."""
    where = names.document.position(["expect", "returns"])
    if not declares_returns(game.program):
        return [f"{where}: the ruleset's manifest declares no `returns` (expect winners or counters instead)"]
    got = seat_returns(game.program, st)
    if got is None:
        return [f"{where}: the game goes on: there are no returns yet"]
    failures = []
    for label, value in wanted.items():
        seat = names.lookup(names.seats, label, ["expect", "returns", label], "seat")
        if abs(got[seat] - value) > 1e-9:
            failures.append(f"{names.document.position(['expect', 'returns', label])}: {label}'s return is "
                            f"{got[seat]:.6g}, expected {value}")
    return failures


def run_all(ruleset_ref: str) -> list[ScenarioResult]:
    ruleset = load_ruleset(ruleset_ref)
    read: dict = {}
    return [run_scenario(path, ruleset_ref, read=read) for path in scenario_files(ruleset)]


__all__ = ["ScenarioResult", "run_all", "run_scenario", "scenario_files"]
