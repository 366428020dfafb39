"""A ruleset folder, read: manifest, variant overlay, parsed rules, validated components.

Reading collects every problem of every file (a broken file does not hide the next one's), then
raises one `RulesetError` that lists them all, each at `path:line:col`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from snowrules.data import bundled_folder
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Diagnostics, Position, RulesetError, RulesSyntaxError
from snowrules.language.limits import MAX_COMPONENTS, MAX_COPIES
from snowrules.language.parser import parse_effect, parse_expression, parse_rules
from snowrules.load.display import GridDisplay, read_display
from snowrules.load.yaml_files import (
    YamlDocument,
    key_position,
    load_schema,
    load_yaml,
    plain,
    read_text,
    schema_errors,
)

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PROJECT_ROOT = PACKAGE_ROOT.parent  # the clone, when running from one (tools use it); not in an installed package
BUNDLED_RULESETS = bundled_folder("rulesets")
GENERIC_SCHEMAS = bundled_folder("schemas")
# The key of a component entry that says how many identical copies it stands for. It belongs to
# snowrules, not to the game: it is taken out before the entry is checked against its schema (so
# no schema declares it), and a schema that declares a field of that name is refused.
COPIES = "copies"
# The one way a schema may declare it (so that an editor checking an entry against the schema accepts it):
# a reference to the generic definition, by a path that ends so (relative to the schema's folder).
COPIES_DEFINITION = "component_list.schema.json#/$defs/copies"
# How a game's returns add up (a manifest's `returns: utility:`), in OpenSpiel's terms.
UTILITIES = ("zero-sum", "constant-sum", "general-sum", "identical")


def _declares_copies_as_snowrules_does(declaration: Any) -> bool:
    """A schema's `copies` property is only a reference to the generic definition (and its description)."""
    return isinstance(declaration, dict) and set(declaration) <= {"$ref", "description"} \
        and isinstance(declaration.get("$ref"), str) and declaration["$ref"].endswith(COPIES_DEFINITION)


# The key of a component entry that lists its reactions (docs/language.md "Events and
# reactions"): like `copies`, it is snowrules' own, taken out before the entry meets its schema.
REACTS = "reacts"
REACTS_FIELDS = ("on", "where", "effect")


@dataclass(frozen=True)
class ReactsEntry:
    """One `reacts:` entry of a component: `on` an event, `where` a condition (or None), the
    `effect` to run; `event_position` is the `on:` value's, for a report about the event."""

    event: str
    event_position: Position
    where: Any
    effect: s.Block
    position: Position


@dataclass
class ComponentDef:
    """One entry of a component list; `count` copies (its `copies:`; times the seats, when per seat)."""

    name: str
    fields: dict[str, Any]
    count: int
    per_seat: bool
    position: Position
    effects: dict[str, s.Block] = field(default_factory=dict)
    expressions: dict[str, Any] = field(default_factory=dict)
    reactions: list[ReactsEntry] = field(default_factory=list)  # its `reacts:` entries, in order


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
    automa: AutomaSeat | None = None  # a seat played by the rules, when the game has one
    display: dict[str, GridDisplay] = field(default_factory=dict)  # grid zone -> how it is drawn (display.py)

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


def options_text(values: dict[str, Any]) -> str:
    """Options as a player types them: `size=6, fast=true`."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in values.items())


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
    reader = _Reader(folder)
    ruleset = reader.read(variant)
    return ruleset, sorted(reader.problems.items, key=lambda d: (d.position.path, d.position.line, d.position.col))


class _Reader:
    def __init__(self, folder: Path):
        self.folder = folder
        self.problems = Diagnostics()
        self._schemas: dict[str, dict] = {}
        self.rejected: set[int] = set()  # entries of the file being read that broke its envelope
        self.rejected_fields: set[str] = set()  # fields of component entries left out for a problem

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
        found = schema_errors(document, load_schema(GENERIC_SCHEMAS / schema_name))
        self.problems.extend(found)
        if entries is not None and found:
            prefix = f"{entries}."
            if all(d.message.startswith(prefix) for d in found):
                self.rejected |= {int(d.message[len(prefix):].split(".")[0].split(":")[0]) for d in found}
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
        rules_files = list(m["rules"])
        component_files = list(m.get("components", []))
        players = m["players"]
        seats_per_player = m.get("seats_per_player", 1)
        seat_names = list(m.get("seat_names", []))
        override_constants: dict[str, tuple[Any, Position]] = {}
        override_files: set[str] = set()
        variants = m.get("variants", {})
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
        if players["min"] > players["max"]:
            self.problems.error(manifest.position(["players"]), "players: min is larger than max")
        self.manifest = manifest
        self.seats = max(1, int(players["max"])) * max(1, int(seats_per_player)) + (1 if "automa" in m else 0)
        self.copies = 0
        self.names: dict[str, Position] = {}  # component name -> its first entry
        rules = [r for r in (self._rules(f, f in override_files) for f in rules_files) if r is not None]
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
        interface = self._interface(manifest, m)
        display = read_display(manifest, rules if len(rules) == len(rules_files) else None, components,
                               self.problems)
        return Ruleset(
            name=m["name"], title=m["title"], version=m["version"], folder=self.folder, variant=variant,
            min_players=players["min"], max_players=players["max"], seats_per_player=seats_per_player,
            seat_names=seat_names, rules=rules, components=components, constants=constants,
            tables=tables, variants=dict(variants), manifest_position=manifest.position(),
            override_files={self.shown(self.folder / f) for f in override_files},
            rules_parsed=len(rules) == len(rules_files), options=options,
            option_values={name: spec["default"] for name, spec in options.items()}, interface=interface,
            constraint_messages=[c["message"] for c in m.get("constraints", [])],
            rejected_fields=self.rejected_fields, automa=self._automa(manifest, m), display=display,
        )

    def _automa(self, manifest: YamlDocument, m: dict) -> AutomaSeat | None:
        """The manifest's `automa`, its `when` parsed where it stands."""
        if "automa" not in m:
            return None
        entry, when = m["automa"], None
        if "when" in entry:
            text = str(entry["when"])
            line, col, block = _snippet_origin(manifest, ["automa", "when"], text)
            try:
                when = parse_expression(text, manifest.path, line, col, block)
            except RulesSyntaxError as error:
                self.problems.extend(error.diagnostics)
        return AutomaSeat(str(entry["name"]), when, manifest.position(["automa"]))

    def _interface(self, manifest: YamlDocument, m: dict) -> dict[tuple, Any]:
        """The manifest's `action_ids`, `returns` and `constraints` expressions, parsed where they
        stand."""
        found: dict[tuple, Any] = {}
        returns = m.get("returns", {})
        places = [(("returns", key), ["returns", key]) for key in ("value", "min", "max", "utility", "sum")
                  if key in returns]
        ids = m.get("action_ids", {})
        places += [((key,), ["action_ids", key]) for key in ("distinct", "chance_outcomes", "max_game_length")
                   if key in ids]
        places += [((group, kind), ["action_ids", group, kind])
                   for group in ("choice", "chance") for kind in ids.get(group, {})]
        places += [(("constraint", i), ["constraints", i, "holds"]) for i in range(len(m.get("constraints", [])))]
        for key, where in places:
            text = str(_at(m, where))
            line, col, block = _snippet_origin(manifest, where, text)
            if key == ("returns", "utility") and text in UTILITIES:  # a plain word: the text itself
                text = json.dumps(text)
            try:
                found[key] = parse_expression(text, manifest.path, line, col, block)
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
        path = self._locate(file, "rules")
        if path is None:
            return None
        text, problem = read_text(path, self.shown(path))
        if problem:
            self.problems.extend([problem])
            return None
        try:
            return parse_rules(text, self.shown(path))
        except RulesSyntaxError as error:
            self.problems.extend(error.diagnostics)
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

    def _components(self, file: str, components: list[ComponentDef], constants: dict, tables: dict) -> None:
        path = self._locate(file, "components")
        if path is None:
            return
        document = self._validated(path, "component_list.schema.json", entries="components")
        if document is None:
            return
        tree = document.tree
        schema = self._schema(str(tree["schema"]), document.position(["schema"]))
        for key in tree.get("constants", {}) or {}:
            value = plain(tree["constants"][key])
            where = key_position(document.path, tree, ["constants"], key)
            if key in constants:
                self.problems.error(where, f"constant {key!r} is defined twice",
                                    f"first at {constants[key][1]}")
            constants[key] = (value, where)
        for key in tree.get("tables", {}) or {}:
            where = key_position(document.path, tree, ["tables"], key)
            if key in tables:
                self.problems.error(where, f"table {key!r} is defined twice", f"first at {tables[key][1]}")
            tables[key] = (plain(tree["tables"][key]), where)
            self._table_columns(document, key, tables[key][0])
        per_seat = bool(tree.get("per_seat", False))
        declared = (schema or {}).get("properties", {})
        if COPIES in declared and not _declares_copies_as_snowrules_does(declared[COPIES]):
            self.problems.error(document.position(["schema"]), f"the schema {tree['schema']} declares a field "
                                f"{COPIES!r}, but `{COPIES}:` is snowrules' number of copies of an entry",
                                "rename the field (every schema accepts `copies:` without declaring it; for "
                                f"editors a schema may declare it as {{\"$ref\": \".../{COPIES_DEFINITION}\"}})")
            return
        rejected, self.rejected = self.rejected, set()
        for i, entry in enumerate(tree.get("components", []) or []):
            if i in rejected:
                self.rejected_fields |= {str(k) for k in entry} if isinstance(entry, dict) else set()
                continue
            copies = self._copies(document, entry, ["components", i])
            if schema is not None:
                own = {key: value for key, value in entry.items() if key not in (COPIES, REACTS)}
                found = schema_errors(document, schema, own, ["components", i])
                if found:
                    self.problems.extend(_copies_hint(d, declared) for d in found)
                    self.rejected_fields |= {str(k) for k in entry} if isinstance(entry, dict) else set()
                    continue
            fields = plain(entry)
            fields.pop(COPIES, None)
            fields.pop(REACTS, None)
            for reserved in ("owner", "id"):
                if reserved in fields:
                    self.problems.error(key_position(document.path, tree, ["components", i], reserved),
                                        f"{reserved!r} is set by snowrules and cannot be a card field")
            if copies > MAX_COPIES:
                self.problems.error(key_position(document.path, tree, ["components", i], COPIES),
                                    f"{COPIES} {copies} is more than {MAX_COPIES} copies of one component",
                                    code="SR703")
                continue
            self.copies += copies * (self.seats if per_seat else 1)
            if self.copies > MAX_COMPONENTS:
                self.problems.error(document.position(["components", i]),
                                    f"the components come to more than {MAX_COMPONENTS} copies here",
                                    code="SR703")
                self.copies = -10 * MAX_COMPONENTS  # reported once
            component = ComponentDef(
                name=str(fields.pop("name")), fields=fields, count=copies,
                per_seat=per_seat, position=document.position(["components", i]))
            first = self.names.setdefault(component.name, component.position)
            if first != component.position:
                self.problems.error(key_position(document.path, tree, ["components", i], "name"),
                                    f"component {component.name!r} is defined twice",
                                    f"first at {first}; give one `copies: 2`, or another name", code="SR205")
                continue
            language = (schema or {}).get("properties", {})
            for key, value in fields.items():
                kind = language.get(key, {}).get("x-language")
                if kind is None and key in ("effect", "condition"):
                    kind = "effect" if key == "effect" else "expression"
                if kind is None:
                    continue
                self._snippet(document, ["components", i, key], str(value), kind, component, key)
            if isinstance(entry, dict) and REACTS in entry:
                self._reactions(document, entry[REACTS], ["components", i, REACTS], component)
            components.append(component)

    def _reactions(self, document: YamlDocument, entries: Any, where: list, component: ComponentDef) -> None:
        """A component's `reacts:` list: each entry a map of `on` (an event's name), `where` (a
        condition, optional) and `effect` (statements), reported at its line when it is not."""
        if not isinstance(entries, list):
            self.problems.error(document.position(where), f"`{REACTS}:` must be a list of "
                                "{on: EVENT, where: CONDITION, effect: STATEMENTS} entries", code="SR203")
            return
        for n, entry in enumerate(entries):
            at = where + [n]
            if not isinstance(entry, dict):
                self.problems.error(document.position(at), f"a `{REACTS}:` entry must be a map with `on:` and "
                                    "`effect:`", code="SR203")
                continue
            unknown = [str(key) for key in entry if key not in REACTS_FIELDS]
            for key in unknown:
                self.problems.error(key_position(document.path, document.tree, at, key),
                                    f"a `{REACTS}:` entry has no field {key!r}",
                                    "its fields are on, where and effect", code="SR201")
            missing = [key for key in ("on", "effect") if key not in entry]
            for key in missing:
                self.problems.error(document.position(at), f"this `{REACTS}:` entry has no `{key}:`",
                                    "write {on: EVENT, effect: STATEMENTS}", code="SR202")
            if unknown or missing:
                continue
            if not isinstance(entry["on"], str):
                self.problems.error(document.position(at + ["on"]), "`on:` names an event (a text)", code="SR203")
                continue
            holder = ComponentDef(component.name, {}, 1, False, component.position)
            self._snippet(document, at + ["effect"], str(entry["effect"]), "effect", holder, "effect")
            if "where" in entry:
                self._snippet(document, at + ["where"], str(entry["where"]), "expression", holder, "where")
            if "effect" in holder.effects and ("where" not in entry or "where" in holder.expressions):
                component.reactions.append(ReactsEntry(
                    str(entry["on"]), document.position(at + ["on"]), holder.expressions.get("where"),
                    holder.effects["effect"], document.position(at)))

    def _copies(self, document: YamlDocument, entry: Any, where: list) -> int:
        """An entry's `copies:` (1 without it); a value that is not a whole number >= 1 is reported."""
        if not isinstance(entry, dict) or COPIES not in entry:
            return 1
        value = entry[COPIES]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.problems.error(document.position(where + [COPIES]), f"{COPIES}: {value!r} is not a whole "
                                "number of copies, 1 or more")
            return 1
        return int(value)

    def _table_columns(self, document: YamlDocument, name: str, rows: list[dict]) -> None:
        """A table's rows share their fields: a field whose value in one row is of another kind
        than in every other row (a text among numbers) is a mistake, reported at that cell."""
        kinds: dict[str, dict[str, list[int]]] = {}  # field -> kind -> rows
        for i, row in enumerate(rows):
            for column, value in row.items():
                kind = "true/false" if isinstance(value, bool) else (
                    "a number" if isinstance(value, (int, float)) else "a text" if isinstance(value, str) else "")
                if kind:
                    kinds.setdefault(column, {}).setdefault(kind, []).append(i)
        for column, seen in kinds.items():
            if len(seen) < 2:
                continue
            usual = max(seen, key=lambda k: len(seen[k]))
            if len(seen[usual]) < 2:
                continue
            for kind, where in seen.items():
                for i in where if kind != usual else []:
                    self.problems.error(document.position(["tables", name, i, column]),
                                        f"tables.{name}.{i}.{column}: {rows[i][column]!r} is {kind}, but "
                                        f"{column} is {usual} in the other rows", code="SR203")

    def _snippet(self, document: YamlDocument, where: list, text: str, kind: str,
                 component: ComponentDef, key: str) -> None:
        """Parse DSL text found inside YAML, with positions in the YAML file."""
        line, col, block = _snippet_origin(document, where, text)
        try:
            if kind == "effect":
                component.effects[key] = parse_effect(text, document.path, line, col, block)
            else:
                component.expressions[key] = parse_expression(text, document.path, line, col, block)
        except RulesSyntaxError as error:
            self.problems.extend(error.diagnostics)


def _copies_hint(diagnostic: Diagnostic, declared: dict) -> Diagnostic:
    """`count:` meant copies before `copies:` did: say so where a schema refuses an unknown `count`."""
    unknown = "'count' was unexpected" in diagnostic.message or "unknown field 'count'" in diagnostic.message
    if unknown and "count" not in declared:
        return Diagnostic(diagnostic.position, diagnostic.message, f"the number of copies is `{COPIES}: N`",
                          code=diagnostic.code)
    return diagnostic


def _at(tree: Any, where: list) -> Any:
    for key in where:
        tree = tree[key]
    return tree


def _snippet_origin(document: YamlDocument, where: list, text: str) -> tuple[int, int, bool]:
    """Line and column where a snippet's first character sits in its YAML file, and whether it is
    a block scalar.

    For a block scalar (`effect: |`) the text starts on the next line, indented (every line by the
    same amount); for a plain or quoted scalar it starts where the value does (one further for a
    quote)."""
    position = document.position(where)
    line, col = position.line, position.col
    raw = _raw_lines(document.path)
    if line - 1 < len(raw):
        rest = raw[line - 1][col - 1:]
        if rest[:1] in ("|", ">"):
            first = text.splitlines()[0] if text.strip() else ""
            for number in range(line, min(len(raw), line + 50)):
                found = raw[number].find(first) if first else -1
                if found >= 0:
                    return number + 1, found + 1, True
        elif rest[:1] in ("'", '"'):
            return line, col + 1, False
    return line, col, False


def _raw_lines(shown_path: str) -> list[str]:
    try:
        return Path(shown_path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []

