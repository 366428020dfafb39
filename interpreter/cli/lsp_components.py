"""Components for the language server: where each component of a ruleset is written, so that a
card named in a rule (`"Night Owl"`) or in a scenario (`north.hand: [six, one]`) goes to its
entry in its component list, and a hover shows the entry's fields.

As the rest of the server's names (cli/lsp_names.py), entries are found by their lines, so that
this keeps working while a file is being typed: an entry of a component list starts with
`- name: X` or `- {name: X, ...}`; a block entry's fields are the lines indented under it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ENTRY = re.compile(r"""^(?P<indent>\s*)-\s+(?:\{\s*)?name:\s*(?P<quote>['"]?)(?P<name>[^,}'"#\n]*?)(?P=quote)"""
                    r"""\s*(?:[,}]|#|$)""")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_FLOW_ITEM = re.compile(r"""[^\[\]{},:#\n]+""")
MAX_ENTRY_LINES = 30  # a hover shows at most this many lines of an entry


@dataclass(frozen=True)
class Component:
    """A component's entry: its name, where the name is written (0-based) and the entry's text."""

    name: str
    path: Path
    line: int
    start: int
    end: int
    text: str


def components(files: dict[Path, str]) -> dict[str, Component]:
    """The components written in these YAML texts (component lists), by name, the first of each."""
    found: dict[str, Component] = {}
    for path, text in files.items():
        if path.suffix not in (".yaml", ".yml") or not re.search(r"^components:", text, re.M):
            continue
        lines = text.splitlines()
        for number, line in enumerate(lines):
            match = _ENTRY.match(line)
            if match is None or not match.group("name").strip():
                continue
            name = match.group("name").strip()
            found.setdefault(name, Component(name, path, number, match.start("name"),
                                             match.start("name") + len(name), "\n".join(_item_lines(lines, number))))
        if re.search(r"^\s*-?\s*\{?\s*generate:", text, re.M):
            for component in _generated(path, text, lines):
                found.setdefault(component.name, component)
    return found


def _generated(path: Path, text: str, lines: list[str]) -> list[Component]:
    """The components a list's `generate:` items make (load/generated.py expands them as the
    ruleset reader does), each placed at its item's name template, its hover the item's text
    and the entry's generated values. A text that does not read as YAML (being typed) gives none."""
    from snowrules.load.generated import names_in
    from snowrules.load.yaml_files import yaml_from_text
    document, _ = yaml_from_text(text, str(path))
    if document is None:
        return []
    found = []
    for name, at, fields in names_in(document):
        number = at.line - 1
        source = lines[number] if 0 <= number < len(lines) else ""
        template = re.match(r"""(['"]?)(.*?)\1\s*(?:[,}#]|$)""", source[at.col - 1:])
        end = at.col - 1 + (len(template.group(0).rstrip(",}# ")) if template else 0)
        item = _item_lines(lines, number)
        entry = ", ".join(f"{key}: {value}" for key, value in fields.items())
        found.append(Component(name, path, number, at.col - 1, end, "\n".join([*item, f"# generated: {{{entry}}}"])))
    return found


def _item_lines(lines: list[str], number: int) -> list[str]:
    """The lines of the list item around line `number`: from its `-` up, to the next line as indented or less."""
    start = number
    while start > 0 and not re.match(r"\s*-\s", lines[start]):
        start -= 1
    dash = len(lines[start]) - len(lines[start].lstrip())
    body = [lines[start].rstrip()]
    for following in lines[start + 1:start + MAX_ENTRY_LINES]:
        if not following.strip() or len(following) - len(following.lstrip()) <= dash:
            break
        body.append(following.rstrip())
    return body


def text_at(text: str, line: int, character: int, yaml: bool) -> str | None:
    """What may name a component under a cursor (0-based): in rules, the quoted text around it;
    in YAML, the item of a flow list or map around it (`six` in `[six, one]`), unquoted."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    source = lines[line]
    for match in _QUOTED.finditer(source):
        if match.start() <= character < match.end():
            return match.group(1)
    if not yaml:
        return None
    for match in _FLOW_ITEM.finditer(source):
        if match.start() <= character <= match.end():
            item = match.group().strip().strip("'\"").strip()
            return item.removeprefix("- ").strip() or None
    return None


def references(name: str, files: dict[Path, str]) -> list[tuple[Path, int, int, int]]:
    """Every place a component is named (0-based line, first and end column): the quoted texts
    of the rules that are its name, and in YAML its entry's name and the items of flow lists and
    maps (or block list items) that are its name, as scenarios name cards."""
    found = []
    for path, text in files.items():
        yaml = path.suffix in (".yaml", ".yml")
        for number, line in enumerate(text.splitlines()):
            for match in _QUOTED.finditer(line):
                if match.group(1) == name:
                    found.append((path, number, match.start(1), match.end(1)))
            if not yaml:
                continue
            code = line.split(" #", 1)[0]
            for match in _FLOW_ITEM.finditer(code):
                item = match.group()
                bare = item.strip().removeprefix("- ").strip()
                if bare.strip("'\"") == name and not bare.startswith('"'):
                    start = match.start() + item.index(bare) + (1 if bare[0] == "'" else 0)
                    found.append((path, number, start, start + len(name)))
    return sorted(set(found), key=lambda f: (str(f[0]), f[1], f[2]))


def hover_of(component: Component, folder: Path) -> str:
    """A hover's Markdown: the component's entry as written, and where."""
    try:
        where = component.path.relative_to(folder.resolve())
    except ValueError:
        where = component.path
    return (f"**component** `{component.name}`\n\n```yaml\n{component.text}\n```\n\n"
            f"written at {where.as_posix()}:{component.line + 1}")
