"""A ruleset's component lists, read: each entry checked against its schema, its `copies:`
counted, its effect and condition texts parsed where they sit in the YAML, its `reacts:` entries
read, its tables' columns checked.

`ComponentLists` is the component half of the ruleset reader (load/ruleset.py's `_Reader`, which
gives it `problems`, `shown`, `_validated`, `_schema` and `_locate`, and keeps the counts and the
entries left out that both halves report on).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from snowrules.data import cache as build_cache
from snowrules.language import editions
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic, Diagnostics, Position, RulesSyntaxError
from snowrules.language.limits import MAX_COMPONENTS, MAX_COPIES
from snowrules.language.names import NAME_HINT, name_problem
from snowrules.language.parser import parse_effect, parse_expression, parsed_at, remember
from snowrules.language.square_bounds import SQUARES_PAST_ANY_USE, squares_past_any_use
from snowrules.load.generated import expand, generated_document, is_generator
from snowrules.load.labels import LABEL, LabelTemplate, read_label
from snowrules.load.schema_errors import dotted, schema_errors
from snowrules.load.yaml_files import YamlDocument, key_position, plain

# The key of a component entry that says how many identical copies it stands for. It belongs to
# snowrules, not to the game: it is taken out before the entry is checked against its schema (so
# no schema declares it), and a schema that declares a field of that name is refused.
SQUARES = "squares"  # a component's squares on a grid (model/grid_zones.py reads them)
COPIES = "copies"
# The one way a schema may declare it (so that an editor checking an entry against the schema accepts it):
# a reference to the generic definition, by a path that ends so (relative to the schema's folder).
COPIES_DEFINITION = "component_list.schema.json#/$defs/copies"


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
    last_line: int = 0  # an entry left out for a problem (see `partial`): the last line of its entry
    label: LabelTemplate | None = None  # its list's `label:` (load/labels.py), shared by the list's entries
    # where its `squares:` is written: the bound of a board's or a tile's squares, known once the
    # rules say which it is (compile/square_uses.py), is reported there
    squares_position: Position | None = None


@dataclass(frozen=True)
class _EntryReading:
    """What reading each entry of one component list needs: the entries' schema, the fields it
    declares, whether the list is per seat, how messages name an entry, the entries the list's
    envelope refused."""

    schema: dict | None
    declared: dict
    per_seat: bool
    label: Callable[[list], str]
    rejected: set[int]


class ComponentLists:
    """Reads the component lists of a ruleset (see the module's docstring)."""

    def _components(self, file: str, components: list[ComponentDef], constants: dict, tables: dict) -> None:
        path = self._locate(file, "components")
        if path is None:
            return
        document = self._validated(path, "component_list.schema.json", entries="components")
        if document is None:
            return
        # The cards' rules texts of a list read before, parsed then: kept in the build cache under
        # the list's text, so that a ruleset in which another file changed parses none of them.
        parsed_key = None if document.text_key is None else build_cache.key("effects", document.text_key,
                                                                              self.edition)
        parsed = build_cache.stored("effects", parsed_key)
        if parsed is not None:
            remember(parsed)
        problems_before = len(self.problems.items)
        self._component_entries(document, components, constants, tables)
        if parsed is None and len(self.problems.items) == problems_before:
            build_cache.store("effects", parsed_key, parsed_at(document.path))

    def _component_entries(self, document: YamlDocument, components: list[ComponentDef], constants: dict,
                           tables: dict) -> None:
        """The constants, tables and entries of one component list (see `_components`)."""
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
        entries = _EntryReading(schema, declared, per_seat, entry_label(document, "components"), rejected)
        template = None
        if LABEL in tree:
            written = tree.get(LABEL)
            line, col, _ = snippet_origin(document, [LABEL], str(written))
            template = read_label(plain(written), Position(document.path, line, col), self.problems)
        first = len(components)
        for i, entry in enumerate(tree.get("components", []) or []):
            if not isinstance(entry, dict):
                continue  # reported by the envelope's schema
            if is_generator(entry):
                if i not in rejected:  # else its shape is reported by the envelope's schema
                    self._generated(document, i, entries, components)
                continue
            self._entry(document, i, entry, entries, components)
        for component in components[first:]:
            component.label = template

    def _generated(self, document: YamlDocument, i: int, reading: _EntryReading,
                   components: list[ComponentDef]) -> None:
        """The entries a `generate:` item makes (load/generated.py), each read as a written entry
        standing in its place: a mistake in a field all of them share is reported once."""
        made, problems = expand(document, ["components", i])
        self.problems.extend(problems)
        view, items = generated_document(document, i)
        reading = replace(reading, label=entry_label(view, "components"))
        problems_before, notes_before = self.problems, self.edition_notes
        self.problems, self.edition_notes = Diagnostics(), []
        try:
            for generated in made:
                items[i] = generated.entry
                self._entry(view, i, generated.entry, reading, components)
        finally:
            problems_before.extend(_once_each(self.problems.items))
            notes_before.extend(_once_each(self.edition_notes))
            self.problems, self.edition_notes = problems_before, notes_before

    def _entry(self, document: YamlDocument, i: int, entry: dict, reading: _EntryReading,
               components: list[ComponentDef]) -> None:
        """Read entry `i` of a component list into `components`, or report why it cannot be."""
        schema, declared, per_seat = reading.schema, reading.declared, reading.per_seat
        language = declared
        copies = self._copies(document, entry, ["components", i])
        renamed = self._renamed_keys(document, i, entry, declared)  # new spelling -> old
        if COPIES in renamed:  # `count:` read as copies
            copies = self._copies(document, {COPIES: entry[renamed[COPIES]]}, ["components", i, renamed[COPIES]])
        squares = entry.get(SQUARES) if isinstance(entry, dict) else None
        if isinstance(squares, list) and len(squares) > SQUARES_PAST_ANY_USE:  # before the schema: one error
            self.problems.error(document.position(["components", i, SQUARES]), *squares_past_any_use(len(squares)))
            self.rejected_fields |= {str(k) for k in entry}
            return
        found, places = [], []
        if schema is not None:  # an entry the envelope refused is checked too: every mistake at once
            # an edition 1 schema declares `count`: then it is checked as a field
            dropped = {old for old in renamed.values() if old not in declared}
            own = {key: value for key, value in entry.items() if key not in (COPIES, REACTS, *dropped)}
            found = schema_errors(document, schema, own, ["components", i], label=reading.label, paths=places)
            self.problems.extend(_copies_hint(d, declared) for d in found)
        if found or i in reading.rejected:
            self._partial(document, i, entry, language, {p[2] for p in places if len(p) > 2})
            return
        fields = plain(entry)
        fields.pop(COPIES, None)
        for old in renamed.values():
            fields.pop(old, None)
        fields.pop(REACTS, None)
        for reserved in ("owner", "id"):
            if reserved in fields:
                self.problems.error(key_position(document.path, document.tree, ["components", i], reserved),
                                    f"{reserved!r} is set by snowrules and cannot be a card field")
        if copies > MAX_COPIES:
            self.problems.error(key_position(document.path, document.tree, ["components", i], COPIES),
                                f"{COPIES} {copies} is more than {MAX_COPIES} copies of one component",
                                code="SR703")
            return
        self.copies += copies * (self.seats if per_seat else 1)
        if self.copies > MAX_COMPONENTS:
            self.problems.error(document.position(["components", i]),
                                f"the components come to more than {MAX_COMPONENTS} copies here",
                                code="SR703")
            self.copies = -10 * MAX_COMPONENTS  # reported once
        component = ComponentDef(
            name=str(fields.pop("name")), fields=fields, count=copies,
            per_seat=per_seat, position=document.position(["components", i]),
            squares_position=document.position(["components", i, SQUARES]) if squares is not None else None)
        problem = name_problem(component.name, "component name")
        if problem is not None:
            self.problems.error(document.position(["components", i, "name"]), problem, NAME_HINT, code="SR210")
            return
        duplicate = self._named_twice(document, i, component)
        self._parse_snippets(document, i, fields, language, component)
        if duplicate:  # its texts are still checked, under a name of its own
            component.name = f"{component.name} #{i + 1}"
            self._keep_partial(document, i, component)
            return
        if isinstance(entry, dict) and REACTS in entry:
            self._reactions(document, entry[REACTS], ["components", i, REACTS], component)
        components.append(component)

    def _named_twice(self, document: YamlDocument, i: int, component: ComponentDef) -> bool:
        """Report a component named like an earlier one (at its name), and say so."""
        first = self.names.setdefault(component.name, component.position)
        if first == component.position:
            return False
        self.problems.error(key_position(document.path, document.tree, ["components", i], "name"),
                            f"component {component.name!r} is defined twice",
                            f"first at {first}; give one `{COPIES}: 2`, or another name", code="SR205")
        return True

    def _parse_snippets(self, document: YamlDocument, i: int, fields: dict, language: dict,
                        component: ComponentDef) -> None:
        """Parse an entry's rules texts (its `effect:`, `condition:` and the fields its schema marks
        with `x-language`) where they stand in the YAML file."""
        for key, value in fields.items():
            kind = language.get(key, {}).get("x-language")
            if kind is None and key in ("effect", "condition"):
                kind = "effect" if key == "effect" else "expression"
            if kind is None:
                continue
            self._snippet(document, ["components", i, key], str(value), kind, component, key)

    def _partial(self, document: YamlDocument, i: int, entry: Any, language: dict, bad: set) -> None:
        """An entry left out for a problem of its fields is still read as far as it can be, so that
        all its mistakes come out in one round: its name is checked against the others', its rules
        texts are parsed, and (without the fields in `bad`) it is kept in `self.partial`, for
        `validate` to check the names its texts use."""
        if not isinstance(entry, dict):
            return
        self.rejected_fields |= {str(k) for k in entry}
        fields = {k: v for k, v in plain(entry).items() if k not in bad and k not in (COPIES, REACTS)}
        name = fields.pop("name", None)
        component = ComponentDef(str(name) if isinstance(name, str) else f"#{i + 1}", fields, 1, False,
                                 document.position(["components", i]))
        if isinstance(name, str) and self._named_twice(document, i, component):
            component.name = f"{name} #{i + 1}"
        self._parse_snippets(document, i, fields, language, component)
        self._keep_partial(document, i, component)

    def _keep_partial(self, document: YamlDocument, i: int, component: ComponentDef) -> None:
        """Keep an entry left out for a problem, with the span of its lines, when it has rules texts."""
        if not (component.effects or component.expressions):
            return
        following = document.position(["components", i + 1])
        component.last_line = following.line - 1 if following.line > component.position.line else 10**9
        self.partial.append(component)

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

    def _renamed_keys(self, document: YamlDocument, i: int, entry: dict, declared: dict) -> dict[str, str]:
        """The keys of entry `i` spelt as an earlier edition spelt them (language/editions.py), by
        their new spelling: in a ruleset of that edition they keep their meaning, with a warning;
        in a later one, where the schema does not declare the key as a field of its own, they are
        refused at the key, with the rewrite (their value is still read, to report nothing twice)."""
        found: dict[str, str] = {}
        for change in editions.CHANGES:
            if change.kind != "component key" or change.old not in entry:
                continue
            old_meaning = self.edition < change.edition
            if not old_meaning and change.old in declared:
                continue  # an ordinary field of this schema
            where = key_position(document.path, document.tree, ["components", i], change.old)
            value = entry[change.old]
            said = f"`{change.old}: {value}` here made {value} copies in edition {change.edition - 1}"
            if old_meaning:
                self.edition_notes.append(Diagnostic(
                    where, f"{said}; edition {change.edition} writes `{change.new}: {value}`",
                    f"write `{change.new}: {value}` and declare `{editions.MANIFEST_KEY}: {editions.CURRENT}` "
                    "(`snowrules upgrade` does both)", severity="warning", code=change.code))
            else:
                self.problems.error(where, f"{said}; write `{change.new}: {value}`",
                                    f"write `{change.new}: {value}`: in edition {self.edition} `{change.old}` is an "
                                    "ordinary field, which this schema does not declare", code=change.code)
            found[change.new] = change.old
        return found

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
        line, col, block = snippet_origin(document, where, text)
        try:
            if kind == "effect":
                component.effects[key] = parse_effect(text, document.path, line, col, block,
                                                      self.edition, self.edition_notes)
            else:
                component.expressions[key] = parse_expression(text, document.path, line, col, block,
                                                              self.edition, self.edition_notes)
        except RulesSyntaxError as error:
            self.problems.extend(error.diagnostics)
            if error.recovered is not None:  # its names are still checked by `validate`
                (component.effects if kind == "effect" else component.expressions)[key] = error.recovered
                self.skipped_words |= error.skipped


def entry_label(document: YamlDocument, entries: str) -> Callable[[list], str]:
    """How messages name a place inside an entry of a component list: by the entry's name and the
    word its schema's file gives (`card 'Frost Giant': number`), not by its index
    (`components.6.number`); an entry without a name by its 1-based number (`card #7`)."""
    tree = document.tree
    word = str(tree.get("schema", "component")).split("/")[-1].split(".")[0] if isinstance(tree, dict) else ""
    word = word.removesuffix("_list") or "component"
    items = tree.get(entries) if isinstance(tree, dict) else None

    def label(path: list) -> str:
        if len(path) < 2 or path[0] != entries or not isinstance(path[1], int) or not isinstance(items, list):
            return dotted(path)
        entry = items[path[1]] if path[1] < len(items) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        said = f"{word} {str(name)!r}" if isinstance(name, (str, int)) and not isinstance(name, bool) \
            else f"{word} #{path[1] + 1}"
        rest = ".".join(str(p) for p in path[2:])
        return f"{said}: {rest}" if rest else said

    return label


def _once_each(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics less those at the place and of the code of an earlier one: generated entries
    share the text of their common fields, and a mistake there is one mistake."""
    seen: set[tuple] = set()
    kept = []
    for diagnostic in diagnostics:
        key = (diagnostic.position, diagnostic.code, diagnostic.severity)
        if key not in seen:
            seen.add(key)
            kept.append(diagnostic)
    return kept


def _copies_hint(diagnostic: Diagnostic, declared: dict) -> Diagnostic:
    """`count:` meant copies before `copies:` did: say so where a schema refuses an unknown `count`."""
    unknown = "'count' was unexpected" in diagnostic.message or "unknown field 'count'" in diagnostic.message
    if unknown and "count" not in declared:
        return Diagnostic(diagnostic.position, diagnostic.message, f"the number of copies is `{COPIES}: N`",
                          code=diagnostic.code)
    return diagnostic


def value_at(tree: Any, where: list) -> Any:
    for key in where:
        tree = tree[key]
    return tree


def snippet_origin(document: YamlDocument, where: list, text: str) -> tuple[int, int, bool]:
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
