"""What `snowrules lsp` knows of a ruleset's names, without pygls (cli/lsp.py serves it): the
completions at a place, every place a name is used, and a rules file's outline.

All of it reads the texts line by line (as cli/lsp.py finds declarations), so that it keeps
working while a file is being typed and does not parse: a name is a word outside comments and
quoted texts. In YAML files only the values of the keys that hold rules texts are read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from snowrules.cli.lsp import DECLARATION, Declaration, declarations
from snowrules.compile import stdlib, stdlib_grid  # noqa: F401 - they fill the registry
from snowrules.compile.library import REGISTRY, Function, Marker
from snowrules.compile.scope import BUILTIN_VALUES
from snowrules.language.parser import keywords

# The YAML keys whose values are rules texts (a component's effect and condition, the manifest's
# interface expressions, reactions): where a name is looked for in YAML files.
RULES_KEYS = ("effect", "condition", "when", "where", "value", "choice", "chance", "component", "unlock")
_RULES_LINE = re.compile(r"^(?P<indent>\s*(?:-\s+)?)(?P<key>[A-Za-z_]\w*):\s*(?P<value>.*)$")
_CODE = re.compile(r'"(?:[^"\\]|\\.)*"|#.*$')  # a quoted text or a comment: no names in them
_WORD = re.compile(r"[A-Za-z_]\w*")
# A top-level part of a rules file shown in the outline: its kind and name come from the line.
_OUTLINE = re.compile(r"^(?:(?P<setup>setup)\s*:|each\s+(?P<each>\w+)\s*:|rounds\s+(?P<rounds>.+?):|"
                      r"(?P<end>at\s+game\s+end)\s*:|when\s+(?P<when>.+?):|on\s+(?P<on>\w+)\s*\(|"
                      r"free\s+(?P<free>\w+)\s|define\s+(?P<define>\w+)\s*\()")
_PHASE = re.compile(r"^(?P<indent>\s+)phase\s+(?P<name>\w+)\s*:")


@dataclass(frozen=True)
class Place:
    """A word in a file: 0-based line and columns."""

    path: Path
    line: int
    start: int
    end: int


@dataclass
class Symbol:
    """An entry of a file's outline: a top-level part (setup, a turn, a definition, a reaction)
    with the phases inside it; lines 0-based, `end` the part's last line."""

    name: str
    kind: str
    line: int
    end: int
    width: int
    children: list[Symbol] = field(default_factory=list)


# How a signature names a result worked out from the arguments' kinds (compile/library.py).
RESULTS = {"element_of_first": "an item of the first argument", "same_as_first": "the first argument's kind"}


def signature(function: Function) -> str:
    """A standard function's calls as a line: `size(list or zone) -> int`, one per overload."""
    def kind(p: object) -> str:
        return p.name if isinstance(p, Marker) else str(p)
    lines = []
    for overload in function.overloads:
        params = [kind(p) for p in overload.params] + (["..."] if overload.variadic else [])
        result = str(overload.result) if not callable(overload.result) else RESULTS.get(
            getattr(overload.result, "__name__", ""), "depends on the arguments")
        lines.append(f"{function.name}({', '.join(params)}) -> {result}")
    return "; ".join(lines)


def code_of(line: str) -> str:
    """A rules line with its comments and quoted texts blanked (same columns)."""
    return _CODE.sub(lambda m: " " * len(m.group()), line)


def rules_spans(text: str, yaml: bool) -> list[tuple[int, int, str]]:
    """The parts of a file that are rules: (line, first column, code). A rules file is all rules;
    in a YAML file, the values of the RULES_KEYS, inline or as an indented block."""
    spans = []
    block_indent: int | None = None
    for number, line in enumerate(text.splitlines()):
        if not yaml:
            spans.append((number, 0, code_of(line)))
            continue
        width = len(line) - len(line.lstrip())
        if block_indent is not None and (not line.strip() or width > block_indent):
            spans.append((number, 0, code_of(line)))
            continue
        block_indent = None
        match = _RULES_LINE.match(line)
        if match is None or match.group("key") not in RULES_KEYS:
            continue
        value = match.group("value")
        if value[:1] in ("|", ">"):
            block_indent = len(match.group("indent"))
        elif value:
            start = match.start("value") + (1 if value[0] in "'\"" else 0)
            inner = value[1:-1] if value[0] in "'\"" and value[-1:] == value[0] else value
            spans.append((number, start, code_of(inner)))
    return spans


def references(name: str, files: dict[Path, str]) -> list[Place]:
    """Every place `name` stands as a word in the rules of `files` (path -> text), declarations
    included, in file and line order."""
    found = []
    for path in sorted(files):
        yaml = path.suffix in (".yaml", ".yml")
        for line, start, code in rules_spans(files[path], yaml):
            for match in _WORD.finditer(code):
                if match.group() == name and not code[:match.start()].endswith("."):
                    found.append(Place(path, line, start + match.start(), start + match.end()))
    return found


def field_names(folder: Path) -> list[str]:
    """The fields of the ruleset's components (from its files on disk), for completion after `.`."""
    from snowrules.language.diagnostics import SnowrulesError
    from snowrules.load.ruleset import read_ruleset
    try:
        ruleset, _ = read_ruleset(str(folder))
    except SnowrulesError:
        return []
    names = {key for c in ruleset.components + ruleset.partial_components for key in c.fields}
    return sorted(names | {"name", "owner"})


def completions(text: str, line: int, character: int, declared: dict[str, Declaration],
                fields: list[str]) -> list[tuple[str, str, str]]:
    """What may be written at a cursor: (label, kind, detail), the kind one of "keyword",
    "function", "field" or a declaration's kind. After `.`, the components' fields and the
    counters; elsewhere the keywords, the ruleset's names, the built-in values and the standard
    functions with their signatures. Only those starting with the word being typed."""
    lines = text.splitlines()
    before = lines[line][:character] if 0 <= line < len(lines) else ""
    typed = re.search(r"\w*$", before).group()
    after_dot = before[:len(before) - len(typed)].endswith(".")
    items: list[tuple[str, str, str]] = []
    if after_dot:
        items += [(f, "field", "a component's field") for f in fields]
        items += [(d.name, d.kind, d.text) for d in declared.values() if d.kind == "counter"]
    else:
        items += [(d.name, d.kind, d.text) for d in declared.values()]
        items += [(name, "variable", "built in") for name in BUILTIN_VALUES]
        items += [(name, "function", signature(f)) for name, f in sorted(REGISTRY.items())]
        items += [(word, "keyword", "keyword") for word in sorted(keywords())]
    seen: set[str] = set()
    chosen = []
    for label, kind, detail in items:
        if label.startswith(typed) and label not in seen:
            seen.add(label)
            chosen.append((label, kind, detail))
    return chosen


def outline(text: str) -> list[Symbol]:
    """A rules file's outline: its top-level parts (setup, each turn, rounds, at game end, when,
    reactions, free actions, definitions), each with the phases inside it."""
    symbols: list[Symbol] = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        code = code_of(line).rstrip()
        if not code:
            continue
        if not line[:1].isspace():
            match = _OUTLINE.match(code)
            if symbols:
                symbols[-1].end = _last_code_line(lines, symbols[-1].line, number - 1)
            if match is None:
                declared = DECLARATION.match(code)
                if declared is None:
                    continue
                symbols.append(Symbol(declared.group("name"), declared.group("keyword"), number, number, len(line)))
                continue
            kind, name = next((k, v) for k, v in match.groupdict().items() if v is not None)
            name = {"setup": "setup", "end": "at game end"}.get(kind, name.strip())
            if kind in ("each", "rounds", "when"):
                name = code.strip().rstrip(":").strip()
            kind = {"each": "turn", "rounds": "turn", "end": "final", "on": "reaction", "free": "free action",
                    "when": "trigger"}.get(kind, kind)
            symbols.append(Symbol(name, kind, number, number, len(line)))
        elif symbols:
            phase = _PHASE.match(code)
            if phase:
                symbols[-1].children.append(Symbol(phase.group("name"), "phase", number, number, len(line)))
    if symbols:
        symbols[-1].end = _last_code_line(lines, symbols[-1].line, len(lines) - 1)
    return symbols


def _last_code_line(lines: list[str], first: int, last: int) -> int:
    while last > first and not code_of(lines[last]).strip():
        last -= 1
    return last


def rules_files(folder: Path, texts: dict[Path, str]) -> dict[Path, str]:
    """The texts of a ruleset's rules and YAML files (the editor's first), by resolved path."""
    found = {}
    for path in sorted([*folder.rglob("*.sr"), *folder.rglob("*.yaml"), *folder.rglob("*.yml")]):
        path = path.resolve()
        text = texts.get(path)
        if text is None:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        found[path] = text
    return found


__all__ = ["Place", "Symbol", "completions", "declarations", "field_names", "outline", "references",
           "rules_files", "signature"]
