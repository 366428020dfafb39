"""A person at the terminal: the human agent and the commands it understands.

A person answers a decision by the option's number or by the start of its name (as unambiguous
as needed, case-insensitive), asks for help with `?`, reads an option's component with `? N` or
`? name`, looks at their own view with `hand`, `board` and `score`, and takes an answer back with
`undo` (a terminal run's Table says whether it can be). Everything shown comes from the deciding
player's view (Game.view), so no command shows what the player may not see.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from snowrules.model.grid_zones import is_spot
from snowrules.play.layouts import layouts_text

if TYPE_CHECKING:  # the agent is handed an Observation; importing agents.py here would be circular
    from snowrules.play.agents import Observation
    from snowrules.play.table import Table

COMMANDS = [
    ("N", "choose option N"),
    ("NAME", "choose the option whose name starts with NAME (enough of it to tell it apart)"),
    ("? N, ? NAME", "show option N's component (its text and fields), or a spot's grid with the piece there"),
    ("hand", "what you hold: your own zones and counters"),
    ("board", "what you see of the rest of the table"),
    ("score", "the players' counters (scores included), the table's, those on components grouped"),
    ("undo", "take back your last answer (while nothing hidden was shown and nobody else answered since)"),
    ("?", "this list"),
]
# More distinct names than this in a shared zone are summed up in the short view (`board` lists them).
SHORT_ZONE = 8
NUMBERED = re.compile(r"(.*\D)(\d+)")  # a name ending in a number: "blue token 12"
NUMBER = re.compile(r"-?\d+")           # an option that reads as a whole number
COPY = re.compile(r" #\d+$")             # a copy's number after its name: "blue die #3"


class HumanAgent:
    """Asks at the terminal: shows the player's holdings and numbered options, answers commands,
    re-asks on a bad answer with one line saying why. In a game with grid zones the layout is
    drawn (play/grid_text.py) before the options when they are spots, and before any other
    decision once it has changed since last shown. With a Table (a `snowrules run` at a
    terminal) it also passes the screen between people and takes answers back."""

    name = "human"
    parameters: dict = {}

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], Any] = print,
                 table: Table | None = None):
        self.read, self.write = read, write
        self.table = table
        self._layout_shown = ""   # the grid zones' text grid as last shown (shown again when it changes)
        self._shared_shown: dict[str, list] = {}  # the shared zones' contents as last shown to this person

    @classmethod
    def on_stderr(cls) -> HumanAgent:
        """One that talks on stderr, for a run whose stdout is kept for its JSON result."""
        def write(text: str) -> None:
            print(text, file=sys.stderr, flush=True)

        def read(prompt: str) -> str:
            print(prompt, end="", file=sys.stderr, flush=True)
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line
        return cls(read, write)

    def choose(self, observation: Observation) -> int:
        if self.table is not None:
            self.table.before_decision(observation)
        view = observation.view  # computed here, once
        labels = observation.labels()
        self.write(f"\n--- {observation.seat_name} to choose ({observation.choice}) ---")
        for line in holdings(observation, view, self._shared_shown):
            self.write(line)
        for line in self._layout(observation):
            self.write(line)
        if numbers_only(labels):  # the options are numbers: the person types the number itself
            self.write("  " + ", ".join(labels))
            prompt = "choose one of the numbers above (? for help): "
        else:
            for number, label in enumerate(labels, 1):
                self.write(f"  {number}) {label}")
            prompt = f"choice 1-{len(labels)} (? for help): "
        while True:
            try:
                text = self.read(prompt).strip()
            except EOFError:
                self.write("no more input: the game stops here")
                sys.exit(2)
            index, lines = self.reply(text, observation, view, labels)
            if index is not None:
                return index
            for line in lines:
                self.write(line)

    def _layout(self, observation: Observation) -> list[str]:
        """The grid zones' layout before places on a grid (then the numbered spots), and before any
        other decision once it has changed since it was last shown (no lines when not shown)."""
        if not observation.game.layout.grid_zones:
            return []
        layout = layouts_text(observation.game.program, observation.grids())
        options = observation.options
        if layout == self._layout_shown and not (options and all(is_spot(option) for option in options)):
            return []
        self._layout_shown = layout
        return [f"  {line}" if line else "" for line in layout.splitlines()]

    def reply(self, text: str, observation: Observation, view: dict, labels: list[str]) -> tuple[int | None, list[str]]:
        """What an answer means: (the chosen index, []) or (None, the lines to show)."""
        count = len(labels)
        word, _, rest = text.partition(" ")
        lowered = text.casefold()
        if numbers_only(labels) and NUMBER.fullmatch(text):
            if text in labels:
                return labels.index(text), []
            return None, [f"{text} is not one of the options: {', '.join(labels)}"]
        if not text:
            if numbers_only(labels):
                return None, [f"type one of {', '.join(labels)} (? for help)"]
            return None, [f"type a number from 1 to {count} or the start of an option's name (? for help)"]
        if text.isdecimal():
            if 1 <= int(text) <= count:
                return int(text) - 1, []
            return None, [f"no option {text}: the options are 1 to {count}"]
        if lowered in ("?", "help"):
            return None, [f"  {name:<12} {what}" for name, what in COMMANDS]
        if word.casefold() in ("?", "help") and rest.strip():
            return None, details(rest.strip(), observation, view, labels)
        if lowered == "hand":
            return None, own_zones(observation, view)
        if lowered == "board":
            return None, board(observation, view)
        if lowered == "score":
            return None, score_lines(observation, view)
        if lowered == "undo":
            if self.table is None:
                return None, ["undo is not available here (only in `snowrules run` at a terminal)"]
            return None, [self.table.undo(observation)]  # returns only when it cannot: it says why
        return find_option(text, labels, observation.seat_name)


def numbers_only(labels: list[str]) -> bool:
    """Whether every option reads as a whole number (a bid, a count): then the person answers with
    the number itself, not with its place in a list ("1) 0" would invite the wrong answer)."""
    return all(NUMBER.fullmatch(label) for label in labels)


def find_option(text: str, labels: list[str], seat_name: str) -> tuple[int | None, list[str]]:
    """The option a name or the start of one picks (case-insensitive): a label read whole wins
    over the labels it begins ("red 1" over "red 10"); a component of the deciding seat may be
    named without the seat's name in front ("red 3" for "north red 3")."""
    wanted = text.casefold()
    own = seat_name.casefold() + " "
    names = [[label.casefold()] + ([label.casefold()[len(own):]] if label.casefold().startswith(own) else [])
             for label in labels]
    exact = [i for i, readings in enumerate(names) if wanted in readings]
    found = exact or [i for i, readings in enumerate(names) if any(r.startswith(wanted) for r in readings)]
    if len(found) == 1:
        return found[0], []
    if not found:
        return None, [f"no option matches {text!r}: type a number from 1 to {len(labels)} or the start of "
                      "an option's name (? for help)"]
    listed = ", ".join(f"{i + 1}) {labels[i]}" for i in found)
    return None, [f"{text!r} matches {len(found)} options: {listed}; type more of the name or its number"]


def _zones(observation: Observation) -> list[tuple[str, str]]:
    """Each zone's label and whose it is: "own" (a seat of the deciding player), "shared" or
    "other" (another player's), in layout order; the box is left out."""
    layout = observation.game.layout
    seats = set(observation.game.program.seats_of(observation.player))
    return [(zone.label(layout.seat_names),
             "shared" if zone.owner is None else "own" if zone.owner in seats else "other")
            for zone in layout.zones[1:]]


def _folded(names: list[str], runs: bool = True) -> str:
    """Component names with repeats counted ("3 x blue token, red 2"); with `runs`, a long list
    also folds runs of numbered names ("blue token 1-15"), so that a stock of numbered copies
    reads in a line (a player's own zones are listed name by name)."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    parts = [name if n == 1 else f"{n} x {name}" for name, n in counts.items()]
    if any("," in name for name in counts):  # labels with commas ("grass, stone | water"): kept apart
        return "; ".join(parts)
    if not runs or len(counts) <= SHORT_ZONE:
        return ", ".join(parts)
    folded: list[list] = []   # [stem, first number, last number] or [text]
    for part in parts:
        match = NUMBERED.fullmatch(part)
        if match and folded and len(folded[-1]) == 3 and folded[-1][0] == match[1] \
                and folded[-1][2] + 1 == int(match[2]):
            folded[-1][2] += 1
        elif match:
            folded.append([match[1], int(match[2]), int(match[2])])
        else:
            folded.append([part])
    return ", ".join(item[0] if len(item) == 1 else f"{item[0]}{item[1]}" if item[1] == item[2]
                     else f"{item[0]}{item[1]}-{item[2]}" for item in folded)


def _counters(observation: Observation, view: dict) -> list[str]:
    """The player's own counters, 0 included ("you hold: coins 3, VP 0"), then those of the
    components in their own zones ("on your components: blue die #3 value 4"), each group on one
    line, every counter as a person reads it (its declaration's text, else its key or name)."""
    prefixes = tuple(f"{seat}." for seat in view["seats"])
    held = {name for label, whose in _zones(observation) if whose == "own"
            for name in view["zones"].get(label) or () if isinstance(view["zones"].get(label), list)}
    mine = {k: v for k, v in view["counters"].items() if k.startswith(prefixes)}
    on_held = {k: v for k, v in view["counters"].items()
               if not k.startswith(prefixes) and COPY.sub("", k.rpartition(".")[0]) in held}
    lines = [f"  you hold: {_read(observation, mine)}"] if mine else []  # told to the person deciding
    return lines + ([f"  on your components: {_read(observation, on_held)}"] if on_held else [])


def _read(observation: Observation, counters: dict[str, Any]) -> str:
    """Counters by their plain labels, as a person reads them: "coins 3, VP 0"; a counter on a
    component after its component's name, "blue die #3 value 4"."""
    names = observation.counter_names()
    return ", ".join(f"{label.rpartition('.')[0]} {label.rpartition('.')[2]} {value}" if names.get(label) == label
                     else f"{names.get(label, label)} {value}" for label, value in counters.items())


def score_lines(observation: Observation, view: dict) -> list[str]:
    """`score`: the players' counters, a seat's on a line of its own and the reader's first
    ("red: coins 3, VP 0"; 0 shown: a score of 0 is a score), then the table's own counters
    ("round 3"), then the counters on components grouped by counter and value ("wear 1: hammer,
    saw; wear 3: anvil"), those at 0 only counted: a board of many spots would list every one
    of them (a screen of "spot 0")."""
    game = observation.game
    seats = game.layout.seat_names
    players: dict[str, dict[str, Any]] = {observation.seat_name: {}}
    shared: dict[str, Any] = {}
    on_components: dict[str, dict[int, list[str]]] = {}   # counter -> value -> components
    at_zero = 0
    for label, value in view["counters"].items():
        owner, dot, name = label.rpartition(".")
        if dot and owner in seats:
            players.setdefault(owner, {})[label] = value
        elif not dot:
            if label != "turn" or value > 0:  # no "round 0" in the setup
                shared[label] = value
        elif value == 0:
            at_zero += 1
        else:
            on_components.setdefault(name, {}).setdefault(value, []).append(owner)
    lines = [f"  {owner}: {_read(observation, group)}" for owner, group in players.items() if group]
    if shared:  # the built-in `turn` as the rules count passes: "round 3" where they play `rounds N:`
        names = observation.counter_names()
        lines.append("  " + ", ".join(f"{game.program.turn_word if label == 'turn' else names.get(label, label)} "
                                      f"{value}" for label, value in shared.items()))
    for name, by_value in on_components.items():
        lines.append("  " + "; ".join(f"{name.replace('_', ' ')} {value}: {', '.join(held)}"
                                      for value, held in sorted(by_value.items())))
    if at_zero:
        lines.append(f"  ({at_zero} more counter{'' if at_zero == 1 else 's'} on components at 0)")
    return lines or ["  no counters"]


def _zone_indexes(observation: Observation) -> dict[str, int]:
    """Each zone's label -> its index in the layout."""
    layout = observation.game.layout
    return {zone.label(layout.seat_names): index for index, zone in enumerate(layout.zones)}


def own_zones(observation: Observation, view: dict) -> list[str]:
    """`hand`: the player's own zones that hold something (each component as its list's `label:`
    reads it now), and their counters."""
    indexes = _zone_indexes(observation)
    lines = [f"  {observation.zone_name(indexes[label])}: "
             f"{_folded(observation.zone_labels(indexes[label]), runs=False)}"
             for label, whose in _zones(observation)
             if whose == "own" and isinstance(view["zones"].get(label), list) and view["zones"][label]]
    return (lines or ["  your zones are empty"]) + _counters(observation, view)


def holdings(observation: Observation, view: dict, shown: dict[str, list]) -> list[str]:
    """The short view before a decision: what the player holds, the shared zones whose contents
    changed since this player's last decision (`shown` keeps what was shown; at first every one
    holding something), and the player's counters (0 too). Long zones are summed up: `board`
    lists them."""
    lines = []
    zones = _zones(observation)
    indexes = _zone_indexes(observation)
    for label, whose in [z for z in zones if z[1] == "own"] + [z for z in zones if z[1] == "shared"]:
        content = view["zones"].get(label)
        if not isinstance(content, list):
            continue
        if whose == "shared":
            if shown.get(label, []) == content:
                continue
            shown[label] = list(content)
        name = observation.zone_name(indexes[label])  # as the rules say it reads, else its label
        if not content:
            if whose == "shared":
                lines.append(f"  {name}: empty")
            continue
        # each component as its list's `label:` reads it now (a die with its value); a zone seen
        text = _folded(observation.zone_labels(indexes[label]), runs=whose == "shared")
        if whose == "shared" and text.count(", ") >= SHORT_ZONE:
            text = f"{len(content)} components (board lists them)"
        lines.append(f"  {name}: {text}")
    return lines + _counters(observation, view)


def board(observation: Observation, view: dict) -> list[str]:
    """`board`: every zone of the others and of the table that holds something: the contents of
    those in sight, the size of the others; and the layout of the grid zones."""
    lines = []
    indexes = _zone_indexes(observation)
    for label, whose in _zones(observation):
        content = view["zones"].get(label)
        if whose == "own":
            continue
        if isinstance(content, list) and content:
            lines.append(f"  {observation.zone_name(indexes[label])}: {_folded(content)}")
        elif isinstance(content, dict) and content.get("count"):
            lines.append(f"  {observation.zone_name(indexes[label])}: {content['count']} unseen")
    if observation.game.layout.grid_zones:
        text = layouts_text(observation.game.program, observation.grids())
        lines += [f"  {line}" if line else "" for line in text.splitlines()]
    return lines or ["  nothing else on the table"]


def details(target: str, observation: Observation, view: dict, labels: list[str]) -> list[str]:
    """`? N` / `? name`: the option's component(s) as the component list gives them (every field,
    in the ruleset's names), or a component in sight by name when no option matches."""
    if numbers_only(labels) and NUMBER.fullmatch(target):
        if target not in labels:
            return [f"{target} is not one of the options: {', '.join(labels)}"]
        index: int | None = labels.index(target)
    elif target.isdecimal():
        if not 1 <= int(target) <= len(labels):
            return [f"no option {target}: the options are 1 to {len(labels)}"]
        index = int(target) - 1
    else:
        index, lines = find_option(target, labels, observation.seat_name)
        if index is None:
            component = _in_sight(target, view, observation)
            if component is None:
                return lines
            return _component_lines(component, observation)
    value = observation.options[index]
    lines = [f"  {labels[index]}" if numbers_only(labels) else f"  {index + 1}) {labels[index]}"]
    components = _components_of(value, observation)
    for c in components:  # one: its fields under the option; several: each by name, then its fields
        shown = _component_lines(c, observation, "     " if len(components) == 1 else "       ")
        lines += shown[1:] if len(components) == 1 else ["     " + shown[0].strip()] + shown[1:]
    named = observation.plain_labels()[index]  # as the view's counters name the component
    counters = [f"{k.rpartition('.')[2]}={v}" for k, v in view["counters"].items()
                if k.rpartition(".")[0] == named]  # a component's own counters ("value=3"), when seen
    if counters:
        lines.append("     now: " + ", ".join(counters))
    if not components:
        if is_spot(value):  # the grid as it would be with the piece there (play/spot_preview.py)
            lines += observation.spot_preview(value, view)
        elif isinstance(value, dict):
            lines += [f"     {key}: {_shown(v)}" for key, v in value.items()]
        else:
            lines.append("     (not a component: nothing more to show)")
    return lines


def _components_of(value: Any, observation: Observation) -> list[int]:
    """The components an option stands for: itself, or the items of a list of them."""
    game = observation.game
    count = len(game.layout.component_names)

    def one(v: Any) -> bool:  # a whole number read as a component by this decision (not a player or a number)
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < count \
            and observation.label(v) == game.label(v, "component")
    if one(value):
        return [value]
    if isinstance(value, list) and value and all(one(v) for v in value):
        return list(value)
    return []


def _in_sight(target: str, view: dict, observation: Observation) -> int | None:
    """A component the player sees, named whole or by an unambiguous start of its name."""
    wanted = target.casefold()
    seen = {name for content in view["zones"].values() if isinstance(content, list) for name in content}
    matches = [n for n in seen if n.casefold() == wanted] or [n for n in seen if n.casefold().startswith(wanted)]
    if len(set(matches)) != 1:
        return None
    return observation.game.layout.component_names.index(matches[0])


def _component_lines(c: int, observation: Observation, indent: str = "  ") -> list[str]:
    layout = observation.game.layout
    lines = [f"{indent}{layout.component_names[c]}"]
    for name, values in layout.fields.items():
        value = values[c]
        if value is None:
            continue
        shown = layout.seat_names[value] if name == "owner" else _shown(value)
        first, *more = shown.strip().splitlines() or [""]  # rules text in a field: kept as written, indented
        lines += [f"{indent}{name}: {first}"] + [f"{indent}  {line}" for line in more]
    lines.append(f"{indent}(from {layout.component_files[c]})")
    return lines


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    return str(value)
