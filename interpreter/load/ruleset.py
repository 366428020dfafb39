"""A ruleset folder, read: manifest, variant overlay, parsed rules, validated components (their
lists are read by load/component_lists.py).

Reading collects every problem of every file (a broken file does not hide the next one's), then
raises one `RulesetError` that lists them all, each at `path:line:col`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from snowrules.data import bundled_folder
from snowrules.data import cache as build_cache
from snowrules.language import editions
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Diagnostics, Position, RulesetError, RulesSyntaxError
from snowrules.language.limits import MAX_VARIANTS
from snowrules.language.names import NAME_HINT, look_alike, name_problem
from snowrules.language.parser import parse_expression, parse_rules
from snowrules.load.component_lists import ComponentDef, ComponentLists, entry_label, snippet_origin, value_at
from snowrules.load.display import GridDisplay, read_display
from snowrules.load.labels import check_labels
from snowrules.load.result_section import result_places
from snowrules.load.schema_errors import dotted, schema_errors
from snowrules.load.yaml_files import (
    YamlDocument,
    key_position,
    load_schema,
    load_yaml,
    plain,
    read_text,
)

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PROJECT_ROOT = PACKAGE_ROOT.parent  # the clone, when running from one (tools use it); not in an installed package
BUNDLED_RULESETS = bundled_folder("rulesets")
GENERIC_SCHEMAS = bundled_folder("schemas")
# How a game's returns add up (a manifest's `returns: utility:`), in OpenSpiel's terms.
UTILITIES = ("zero-sum", "constant-sum", "general-sum", "identical")


@dataclass(frozen=True)
class AutomaSeat:
    """The manifest's `automa`: a seat the rules play, present when `when` holds (always without)."""

    name: str
    when: Any  # the parsed expression, or None
    position: Position


@dataclass
class Ruleset:
    name: str
    title: str
    version: str
    folder: Path
    variant: str | None
    min_players: int
    max_players: int
    seats_per_player: int
    seat_names: list[str]
    rules: list[s.RulesFile]
    components: list[ComponentDef]
    constants: dict[str, tuple[Any, Position]]
    tables: dict[str, tuple[list[dict], Position]]
    variants: dict[str, str]
    manifest_position: Position
    override_files: set[str] = field(default_factory=set)
    options: dict[str, dict] = field(default_factory=dict)  # name -> its manifest entry (default...)
    option_values: dict[str, Any] = field(default_factory=dict)  # the values this game was loaded with
    interface: dict[tuple, Any] = field(default_factory=dict)  # ("choice", "component") -> parsed expression
    constraint_messages: list[str] = field(default_factory=list)  # ("constraint", i) in `interface`
    rules_parsed: bool = True  # False when a rules file could not be parsed (its names are unknown)
    rejected_fields: set[str] = field(default_factory=set)  # fields of entries left out for a problem
    # entries left out for a problem, without their wrong fields: `validate` checks their texts' names
    partial_components: list[ComponentDef] = field(default_factory=list)
    # True when every rules file parsed, some only without their lines that have syntax errors
    # (`rules` then holds those files so read): `validate` checks the names they use
    rules_recovered: bool = False
    skipped_words: set[str] = field(default_factory=set)  # the words of the lines left out
    automa: AutomaSeat | None = None  # a seat played by the rules, when the game has one
    display: dict[str, GridDisplay] = field(default_factory=dict)  # grid zone -> how it is drawn (display.py)
    named: dict[str, dict[str, Position]] = field(default_factory=dict)  # "seat name" -> name -> where
    edition: int = editions.CURRENT  # the edition of the language its manifest names (language/editions.py)
    # warnings at the spellings a later edition changes, each with its rewrite (`validate` shows them)
    edition_notes: list[Diagnostic] = field(default_factory=list)
    ids_by_position: bool = False  # the manifest's `action_ids: {by_position: true}` (load/fallbacks.py)
    constants_set: tuple = ()  # (name, value) pairs set by --constant (load/set_constants.py)

    def look_alike_warnings(self) -> list[Diagnostic]:
        """A warning at each name that differs from an earlier one of its kind only by confusable
        characters (validate reports them; the table of confusables is loaded only then)."""
        return [Diagnostic(named[later], f"the {what} {ascii(later)} looks like {ascii(first)}",
                           f"{ascii(first)} is at {named[first]}; players cannot tell them apart",
                           severity="warning", code="SR211")
                for what, named in self.named.items() for first, later in look_alike(list(named))]

    def shown(self, path: Path) -> str:
        return display_path(path)


def display_path(path: Path) -> str:
    """A path as users see it in messages: relative to the working folder when it is inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def find_ruleset(name_or_path: str) -> Path | None:
    """A bundled ruleset's folder by name, or the folder at a path; None when neither exists."""
    candidate = Path(name_or_path)
    if (candidate / "ruleset.yaml").is_file():
        return candidate
    if candidate.is_file() and candidate.name == "ruleset.yaml":
        return candidate.parent
    bundled = BUNDLED_RULESETS / name_or_path
    if "/" not in name_or_path and (bundled / "ruleset.yaml").is_file():
        return bundled
    return None


def bundled_names() -> list[str]:
    return sorted(p.parent.name for p in BUNDLED_RULESETS.glob("*/ruleset.yaml"))


def load_ruleset(name_or_path: str, variant: str | None = None, options: dict | None = None) -> Ruleset:
    """Read a ruleset; raise a RulesetError listing every problem of its files. `options` set the
    game parameters the manifest declares (the others keep their defaults)."""
    ruleset, problems = read_ruleset(name_or_path, variant)
    if problems:
        raise RulesetError(problems)
    if options:
        set_options(ruleset, options)
    return ruleset


def set_options(ruleset: Ruleset, values: dict[str, Any]) -> None:
    """Give options their values (checked against the manifest: name, kind, choices, range)."""
    for name, value in values.items():
        spec = ruleset.options.get(name)
        if spec is None:
            known = ", ".join(sorted(ruleset.options)) or "none"
            raise RulesetError.at(ruleset.manifest_position, f"{ruleset.title} has no option {name!r}",
                                  f"its options: {known}")
        where = ruleset.constants[name][1]  # the option's line in the manifest
        ruleset.option_values[name] = _option_value(name, value, spec, where)
        ruleset.constants[name] = (ruleset.option_values[name], where)


def _option_value(name: str, value: Any, spec: dict, where: Position) -> Any:
    default = spec["default"]
    if isinstance(value, str) and not isinstance(default, str):  # from a command line
        text = value.strip().lower()
        if isinstance(default, bool) and text in ("true", "false", "1", "0", "yes", "no"):
            value = text in ("true", "1", "yes")
        elif not isinstance(default, bool):
            try:
                value = int(text)
            except ValueError:
                pass
    if type(value) is not type(default):
        raise RulesetError.at(where, f"option {name} must be {type(default).__name__}, not {value!r}")
    if "choices" in spec and value not in spec["choices"]:
        allowed = ", ".join(str(c) for c in spec["choices"])
        raise RulesetError.at(where, f"option {name} cannot be {value!r}", f"choose one of: {allowed}")
    low, high = spec.get("minimum"), spec.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RulesetError.at(where, f"option {name} must be between {low} and {high}, not {value}")
    return value


def read_ruleset(name_or_path: str, variant: str | None = None) -> tuple[Ruleset, list[Diagnostic]]:
    """Read a ruleset as far as it can be read: the parts without problems, and the problems.

    A component that breaks its schema, or a rules file that does not parse, is left out, so that
    `validate` can still check everything else and report all problems at once. A broken
    manifest or variant file stops the reading (RulesetError)."""
    folder = find_ruleset(name_or_path)
    if folder is None:
        names = ", ".join(bundled_names())
        raise RulesetError.at(Position(name_or_path), "no ruleset here: neither a bundled ruleset "
                              "nor a folder with a ruleset.yaml", f"bundled rulesets: {names}")
    def build() -> tuple[tuple[Ruleset, list[Diagnostic]], bool]:
        reader = _Reader(folder)
        ruleset = reader.read(variant)
        unique = {(d.position, d.message): d for d in reversed(reader.problems.items)}  # the first of each
        problems = sorted(unique.values(), key=lambda d: (d.position.path, d.position.line, d.position.col))
        return (ruleset, problems), not problems  # a ruleset with problems is read afresh each time

    contents = build_cache.folder_contents(folder)
    entry = None if contents is None else build_cache.key(
        "ruleset", contents, str(folder), str(folder.resolve()), display_path(folder), variant)
    return build_cache.cached("rulesets", entry, build)


class _Reader(ComponentLists):
    def __init__(self, folder: Path):
        self.folder = folder
        self.problems = Diagnostics()
        self._schemas: dict[str, dict] = {}
        self.rejected: set[int] = set()  # entries of the file being read that broke its envelope
        self.rejected_fields: set[str] = set()  # fields of component entries left out for a problem
        self.partial: list[ComponentDef] = []  # entries left out for a problem, as far as they could be read
        self.recovered: dict[str, s.RulesFile] = {}  # rules files with syntax errors, without their lines
        self.skipped_words: set[str] = set()  # the words of the lines left out for syntax errors
        self.edition = editions.CURRENT  # the manifest's, once read
        self.edition_declared = True
        self.edition_notes: list[Diagnostic] = []  # warnings at old spellings (language/editions.py)

    def shown(self, path: Path) -> str:
        return display_path(path)

    def _validated(self, path: Path, schema_name: str, entries: str | None = None) -> YamlDocument | None:
        """The document when it passes its schema, else None. With `entries`, a problem inside one
        entry of that list leaves out that entry only (kept in `self.rejected`), so one broken
        card is one error, not one for every rule that uses the fields of the others."""
        document, problems = load_yaml(path, self.shown(path))
        self.problems.extend(problems)
        if document is None:
            return None
        if not isinstance(document.tree, dict):
            self.problems.error(document.position(), "expected a mapping of fields at the top of the file")
            return None
        places: list[list] = []
        label = entry_label(document, entries) if entries is not None else dotted
        found = schema_errors(document, load_schema(GENERIC_SCHEMAS / schema_name), label=label, paths=places)
        self.problems.extend(found)
        if entries is not None and found:
            if all(len(p) >= 2 and p[0] == entries and isinstance(p[1], int) for p in places):
                self.rejected |= {p[1] for p in places}
                return document
        return None if found else document

    def read(self, variant: str | None) -> Ruleset:
        manifest_path = self.folder / "ruleset.yaml"
        try:
            manifest_path.resolve().relative_to(self.folder.resolve())
        except (ValueError, OSError, RuntimeError):
            raise RulesetError.at(Position(self.shown(manifest_path), 1, 1),
                                  "ruleset.yaml is a link to a file outside the ruleset folder",
                                  "a ruleset reads only files inside its own folder", code="SR106") from None
        manifest = self._validated(manifest_path, "manifest.schema.json")
        self.problems.raise_if_any()
        m = plain(manifest.tree)
        self.edition, self.edition_declared = editions.edition_of(m), editions.MANIFEST_KEY in m
        if not self.edition_declared:  # said once, before the warnings at the old spellings
            self.edition_notes.append(editions.missing_note(Position(self.shown(manifest_path), 1, 1)))
        rules_files = list(m["rules"])
        component_files = list(m.get("components", []))
        players = m["players"]
        seats_per_player = m.get("seats_per_player", 1)
        seat_names = list(m.get("seat_names", []))
        override_constants: dict[str, tuple[Any, Position]] = {}
        override_files: set[str] = set()
        variants = m.get("variants", {})
        if len(variants) > MAX_VARIANTS:  # validate reads and checks every variant: bounded first
            past = list(variants)[MAX_VARIANTS]
            raise RulesetError.at(key_position(manifest.path, manifest.tree, ["variants"], past),
                                  f"more than {MAX_VARIANTS} variants", "a variant is a small overlay a designer "
                                  "tries; keep the ones worth comparing", code="SR704")
        self.manifest = manifest
        self._check_names(manifest, "variant name", [(["variants"], key) for key in variants])
        self._check_names(manifest, "option name", [(["options"], key) for key in m.get("options", {})])
        seats_from = manifest
        if variant is not None:
            if variant not in variants:
                known = ", ".join(sorted(variants)) or "none"
                raise RulesetError.at(manifest.position(["variants"]), f"unknown variant {variant!r}",
                                      f"this ruleset's variants: {known}")
            self.manifest = manifest
            located = self._locate(str(variants[variant]), "variants", variant)
            self.problems.raise_if_any()
            overlay = self._validated(located, "variant.schema.json")
            self.problems.raise_if_any()
            v = plain(overlay.tree)
            if v["name"] != variant:
                self.problems.error(overlay.position(["name"]), f"this variant is named {v['name']!r}, but the "
                                    f"manifest lists it as {variant!r}", "make the two the same: the manifest's name "
                                    "is the one `--variant` takes", code="SR208")
            seats_from = overlay if "seat_names" in v else manifest
            players = v.get("players", players)
            seats_per_player = v.get("seats_per_player", seats_per_player)
            seat_names = v.get("seat_names", seat_names)
            rules_files += v.get("rules", [])
            override_files = set(v.get("rules", []))
            for old, new in v.get("components", {}).items():
                if old not in component_files:
                    self.problems.error(overlay.position(["components", old]),
                                        f"the base ruleset has no component file {old!r}")
                    continue
                index = component_files.index(old)
                if new is None:
                    component_files.pop(index)
                else:
                    component_files[index] = new
            for key, value in v.get("constants", {}).items():
                override_constants[key] = (value, overlay.position(["constants", key]))
        self._check_names(seats_from, "seat name", [(["seat_names", i], None) for i in range(len(seat_names))])
        if "automa" in m:
            self._check_names(manifest, "seat name", [(["automa", "name"], None)])
        if players["min"] > players["max"]:
            self.problems.error(manifest.position(["players"]), "players: min is larger than max")
        self.manifest = manifest
        self.seats = max(1, int(players["max"])) * max(1, int(seats_per_player)) + (1 if "automa" in m else 0)
        self.copies = 0
        self.names: dict[str, Position] = {}  # component name -> its first entry
        rules = [self._rules(f, f in override_files) for f in rules_files]
        parsed = all(r is not None for r in rules)
        recovered = not parsed and all(r is not None or f in self.recovered for r, f in zip(rules, rules_files))
        # with syntax errors, the files in their order, each as far as it parsed (for `validate`)
        rules = [self.recovered.get(f) if r is None else r for r, f in zip(rules, rules_files)] if recovered \
            else [r for r in rules if r is not None]
        components: list[ComponentDef] = []
        constants: dict[str, tuple[Any, Position]] = {}
        tables: dict[str, tuple[list[dict], Position]] = {}
        for file in component_files:
            self._components(file, components, constants, tables)
        constants.update(override_constants)
        options = m.get("options", {})
        for name, spec in options.items():
            where = manifest.position(["options", name])
            if name in constants:
                self.problems.error(where, f"option {name!r} has the name of a constant",
                                    f"the constant is at {constants[name][1]}")
            constants[name] = (spec["default"], where)
            default = spec["default"]
            if ("minimum" in spec or "maximum" in spec) and (type(default) is not int):
                self.problems.error(where, f"option {name}: minimum and maximum are for whole numbers",
                                    "give a text or true/false option its `choices`")
                continue
            if any(type(c) is not type(default) for c in spec.get("choices", [])):
                self.problems.error(where, f"option {name}: every choice must be of the default's kind "
                                    f"({type(default).__name__})")
                continue
            try:
                _option_value(name, default, spec, where)
            except RulesetError as error:
                self.problems.extend(error.diagnostics)
        named = {"seat name": {str(name): seats_from.position(["seat_names", i]) for i, name in enumerate(seat_names)},
                 "component name": dict(self.names),
                 "variant name": {k: key_position(manifest.path, manifest.tree, ["variants"], k) for k in variants}}
        interface = self._interface(manifest, m)
        if parsed:  # the labels name the rules' counters on components, as a display names zones
            check_labels(components, rules, self.problems)
        display = read_display(manifest, rules if parsed else None, components,
                               self.problems)
        return Ruleset(
            name=m["name"], title=m["title"], version=m["version"], folder=self.folder, variant=variant,
            min_players=players["min"], max_players=players["max"], seats_per_player=seats_per_player,
            seat_names=seat_names, rules=rules, components=components, constants=constants,
            tables=tables, variants=dict(variants), manifest_position=manifest.position(),
            override_files={self.shown(self.folder / f) for f in override_files},
            rules_parsed=parsed, options=options,
            rules_recovered=recovered, skipped_words=self.skipped_words,
            option_values={name: spec["default"] for name, spec in options.items()}, interface=interface,
            constraint_messages=[c["message"] for c in m.get("constraints", [])],
            rejected_fields=self.rejected_fields, partial_components=self.partial, automa=self._automa(manifest, m),
            display=display,
            named=named,
            edition=self.edition, edition_notes=self.edition_notes,
            ids_by_position=bool(m.get("action_ids", {}).get("by_position", False)),
        )

    def _check_names(self, document: YamlDocument, what: str, places: list[tuple[list, str | None]]) -> None:
        """Refuse invisible and bidirectional characters in names (language/names.py): each place
        is the path to a name's value, or to a map and the key that is the name."""
        for where, key in places:
            name = key if key is not None else value_at(document.tree, where)
            problem = name_problem(str(name), what)
            if problem is not None:
                at = (key_position(document.path, document.tree, where, key) if key is not None
                      else document.position(where))
                self.problems.error(at, problem, NAME_HINT, code="SR210")

    def _automa(self, manifest: YamlDocument, m: dict) -> AutomaSeat | None:
        """The manifest's `automa`, its `when` parsed where it stands."""
        if "automa" not in m:
            return None
        entry, when = m["automa"], None
        if "when" in entry:
            text = str(entry["when"])
            line, col, block = snippet_origin(manifest, ["automa", "when"], text)
            try:
                when = parse_expression(text, manifest.path, line, col, block,
                                         self.edition, self.edition_notes)
            except RulesSyntaxError as error:
                self.problems.extend(error.diagnostics)
        return AutomaSeat(str(entry["name"]), when, manifest.position(["automa"]))

    def _interface(self, manifest: YamlDocument, m: dict) -> dict[tuple, Any]:
        """The manifest's `action_ids`, `returns`, `constraints` and `result` expressions, parsed
        where they stand."""
        found: dict[tuple, Any] = {}
        returns = m.get("returns", {})
        places = [(("returns", key), ["returns", key]) for key in ("value", "min", "max", "utility", "sum")
                  if key in returns]
        ids = m.get("action_ids", {})
        places += [((key,), ["action_ids", key]) for key in ("distinct", "chance_outcomes", "max_game_length", "done")
                   if key in ids]
        places += [((group, kind), ["action_ids", group, kind])
                   for group in ("choice", "chance") for kind in ids.get(group, {})]
        places += [(("constraint", i), ["constraints", i, "holds"]) for i in range(len(m.get("constraints", [])))]
        places += result_places(m)
        for key, where in places:
            text = str(value_at(m, where))
            line, col, block = snippet_origin(manifest, where, text)
            if key == ("returns", "utility") and text in UTILITIES:  # a plain word: the text itself
                text = json.dumps(text)
            try:
                found[key] = parse_expression(text, manifest.path, line, col, block,
                                         self.edition, self.edition_notes)
            except RulesSyntaxError as error:
                self.problems.extend(error.diagnostics)
        return found

    def _locate(self, file: str, section: str, variant: str | None = None) -> Path | None:
        """The path of a file the manifest (or `variant`'s overlay) lists, once it is known to be
        inside the ruleset folder and to exist; otherwise the problem is reported at the line
        naming it, and None. Symlinks are resolved first: a link to a file outside the folder is
        refused like `../x` or `/x`, and the outside file is never read."""
        entries = plain(self.manifest.tree).get(section, [])
        if variant is not None:
            where = ["variants", variant]
        elif isinstance(entries, list) and file in entries:
            where = [section, entries.index(file)]
        elif isinstance(entries, dict) and file in entries.values():
            where = [section, next(k for k, v in entries.items() if v == file)]
        else:
            where = [section]
        position = self.manifest.position(where)
        root = self.folder.resolve()
        path = self.folder / file
        try:
            resolved = path.resolve()
            resolved.relative_to(root)
        except (ValueError, OSError, RuntimeError):
            self.problems.error(position, f"{file} leads outside the ruleset folder",
                                "a ruleset reads only files inside its own folder (no absolute paths, "
                                "no `..`, no symlinks pointing out)", code="SR106")
            return None
        if not path.is_file():
            self.problems.error(position, f"file not found: {file}", f"looked in {self.shown(self.folder)}",
                                code="SR101")
            return None
        return path

    def _missing(self, file: str, section: str) -> bool:
        """Report a file the manifest lists but that is not there (or outside), at the manifest's line."""
        return self._locate(file, section) is None

    def _rules(self, file: str, _override: bool) -> s.RulesFile | None:
        """A rules file parsed; None when it has syntax errors (reported; the file without its
        lines that have them kept in `self.recovered`)."""
        path = self._locate(file, "rules")
        if path is None:
            return None
        text, problem = read_text(path, self.shown(path))
        if problem:
            self.problems.extend([problem])
            return None
        try:
            return parse_rules(text, self.shown(path), self.edition, self.edition_notes)
        except RulesSyntaxError as error:
            self.problems.extend(error.diagnostics)
            if error.recovered is not None:
                self.recovered[file] = error.recovered
                self.skipped_words |= error.skipped
            return None

    def _schema(self, name: str, at: Position) -> dict | None:
        if name in self._schemas:
            return self._schemas[name]
        for folder in (self.folder / "schemas", GENERIC_SCHEMAS):
            path = folder / name
            try:
                path.resolve().relative_to(folder.resolve())
            except (ValueError, OSError, RuntimeError):
                self.problems.error(at, f"schema {name!r} leads outside the schemas folder",
                                    "name a schema file of the ruleset's schemas/ folder", code="SR106")
                return None
            if path.is_file():
                try:
                    self._schemas[name] = load_schema(path)
                except ValueError as error:
                    self.problems.error(Position(self.shown(path), 1, 1), f"schema is not valid JSON: {error}")
                    return None
                return self._schemas[name]
        self.problems.error(at, f"unknown schema {name!r}",
                            "put it in the ruleset's schemas/ folder or use a generic one from schemas/")
        return None
