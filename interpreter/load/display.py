"""How people see a grid zone: the manifest's `display:` declaration, read and checked.

A grid zone is drawn for people twice: as a text grid in the terminal (each feature a letter,
each side field a line) and as an SVG picture (each feature a coloured disc with its letter). A
ruleset says how in its manifest, per grid zone, with plain data:

    display:
      board:                        # a grid zone of the rules
        features: [features]        # fields whose values are drawn as letters (default: every field
                                    #   that does not list sides)
        letters: {tower: T, wall: W}# a value's letter (default: its first character, upper case)
        colours: {tower: "#2e7d32"} # a value's (or a side field's) colour in the picture
        sides: [road]               # side fields drawn as lines (default: every side field)

Every part is optional, and a zone without a declaration is drawn with the defaults. The schema
(schemas/manifest.schema.json) checks the shapes; this module checks what a schema cannot say
clearly: that a letter is one letter or digit and no two values share one, that a colour is
`#rgb` or `#rrggbb` (safe inside an SVG attribute), that the zone is a grid zone of the rules and
that the fields exist in some component's `squares:`. Each problem is reported at its line.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostics, Position
from snowrules.load.yaml_files import YamlDocument, key_position, plain

COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
# Colours for values the ruleset gives none: picked by a stable checksum of the value's text, so a
# feature keeps its colour from game to game and machine to machine.
PALETTE = ("#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457", "#4e342e",
           "#9e9d24", "#37474f")
LINE_COLOUR = "#795548"   # a side field drawn without a declared colour


@dataclass(frozen=True, slots=True)
class GridDisplay:
    """How one grid zone is drawn. `features` and `sides` None: every field of the kind (a
    field is a side field when the piece says so, see model/grid.py)."""

    zone: str = ""
    features: tuple[str, ...] | None = None
    letters: Mapping[str, str] = field(default_factory=dict)
    colours: Mapping[str, str] = field(default_factory=dict)
    sides: tuple[str, ...] | None = None

    def letter(self, value: str) -> str:
        """The letter a value is drawn with: the declared one, else its first character, upper case."""
        return self.letters.get(value) or (value[:1].upper() or "?")

    def colour(self, value: str) -> str:
        """The colour of a feature value or a side field in the picture."""
        declared = self.colours.get(value)
        if declared is not None:
            return declared
        return PALETTE[zlib.crc32(value.encode("utf-8")) % len(PALETTE)]

    def line_colour(self, side_field: str) -> str:
        return self.colours.get(side_field, LINE_COLOUR)

    def shown_values(self, fields: Mapping[str, Any], side_fields: Iterable[str]) -> list[str]:
        """The feature values of a square to draw, in field order then list order, each once. A
        text value is drawn, each text of a list, and a field that is `true` by its own name;
        numbers, `false` and empty lists draw nothing."""
        sides = set(side_fields)
        names = self.features if self.features is not None else [n for n in fields if n not in sides]
        shown: list[str] = []
        for name in names:
            value = fields.get(name)
            values = value if isinstance(value, list | tuple) else [name] if value is True else [value]
            for item in values:
                if isinstance(item, str) and item and item not in shown:
                    shown.append(item)
        return shown

    def drawn_sides(self, fields: Mapping[str, Any], side_fields: Iterable[str]) -> dict[str, list[str]]:
        """Side field -> the sides it lists, for the side fields drawn as lines."""
        names = [n for n in side_fields if self.sides is None or n in self.sides]
        return {name: list(fields.get(name) or ()) for name in sorted(names) if fields.get(name)}


def read_display(manifest: YamlDocument, rules: Iterable[s.RulesFile] | None, components: Iterable[Any],
                 problems: Diagnostics) -> dict[str, GridDisplay]:
    """The manifest's `display:` section (the manifest already checked against its schema) as
    one GridDisplay per zone. Problems go to `problems`, each at its line, and a zone with a
    problem is left out (drawn with the defaults). `rules` None: a rules file did not parse, so
    zone names are not checked (its zones are unknown)."""
    section = plain(manifest.tree).get("display")
    if not isinstance(section, Mapping):
        return {}
    where = manifest.position
    zones = None if rules is None else {d.name: d for f in rules for d in f.declarations
                                        if isinstance(d, s.ZoneDecl)}
    square_fields = _square_fields(components)
    found = {}
    for zone, spec in section.items():
        before = len(problems.items)
        if zones is not None:
            _check_zone(zone, zones, key_position(manifest.path, manifest.tree, ["display"], zone), problems)
        letters = dict(spec.get("letters") or {})
        colours = dict(spec.get("colours") or {})
        for value, letter in letters.items():
            if len(letter) != 1 or not letter.isalnum():
                problems.error(where(["display", zone, "letters", value]),
                               f"display.{zone}.letters.{value}: {letter!r} is not one letter or digit",
                               "a feature is drawn as a single letter or digit (lines use - and |)",
                               code="SR204")
        by_letter: dict[str, str] = {}
        for value, letter in letters.items():
            if letter in by_letter:
                problems.error(where(["display", zone, "letters", value]),
                               f"display.{zone}.letters: {letter!r} is given to both {by_letter[letter]!r} "
                               f"and {value!r}", "give each value its own letter, so a grid reads one way",
                               code="SR204")
            by_letter.setdefault(letter, value)
        for value, colour in colours.items():
            if not COLOUR.match(colour):
                problems.error(where(["display", zone, "colours", value]),
                               f"display.{zone}.colours.{value}: {colour!r} is not a colour",
                               "write #rrggbb or #rgb, e.g. \"#2e7d32\" (quoted: # starts a YAML comment)",
                               code="SR204")
        for part in ("features", "sides"):
            for index, name in enumerate(spec.get(part) or []):
                if square_fields is not None and name not in square_fields:
                    known = ", ".join(sorted(square_fields)) or "none"
                    problems.error(where(["display", zone, part, index]),
                                   f"display.{zone}.{part}: no component's squares have the field {name!r}",
                                   f"fields of squares: {known}", code="SR401")
        if len(problems.items) == before:
            found[zone] = GridDisplay(zone, _names(spec.get("features")), letters, colours, _names(spec.get("sides")))
    return found


def _check_zone(zone: str, zones: Mapping[str, s.ZoneDecl], at: Position, problems: Diagnostics) -> None:
    if zone not in zones:
        known = ", ".join(sorted(n for n, d in zones.items() if d.grid)) or "none"
        problems.error(at, f"display: unknown zone {zone!r}",
                       f"the grid zones of the rules: {known}", code="SR401")
    elif not zones[zone].grid:
        problems.error(at, f"display: zone {zone!r} is not a grid zone",
                       f"only a grid zone is drawn; declare it `zone {zone} ... grid`", code="SR401")


def _names(listed: Any) -> tuple[str, ...] | None:
    return None if listed is None else tuple(str(n) for n in listed)


def _square_fields(components: Iterable[Any]) -> set[str] | None:
    """Every field some component's `squares:` entries have (None when no component has squares,
    so that nothing can be checked)."""
    names: set[str] = set()
    any_squares = False
    for component in components:
        squares = component.fields.get("squares")
        if isinstance(squares, list):
            any_squares = True
            for entry in squares:
                if isinstance(entry, Mapping):
                    names |= {str(k) for k in entry if k not in ("dx", "dy")}
    return names if any_squares else None
