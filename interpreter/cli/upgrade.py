"""`snowrules upgrade RULESET [--write]`: the rewrites that bring a ruleset to the current edition
of the language, printed, or applied with --write.

The rewrites are the edition warnings the reader gives (language/editions.py's table: `count:`
for copies, a name a later edition reserves, a prompt's braces doubled), each at its place; with them the manifest gets
`language: N`, and a schema of the ruleset's own that declared the old key (`count`, as edition 1
schemas did) loses it. Only the words at those places change, so comments and layout are kept.
Each file is written whole to a temporary file beside it and moved over it (never half written).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from snowrules.language import editions
from snowrules.language.diagnostics import Diagnostic, Position, RulesetError
from snowrules.language.prompt_text import escaped_text
from snowrules.load.ruleset import find_ruleset, read_ruleset
from snowrules.load.yaml_files import load_yaml


@dataclass(frozen=True)
class Rewrite:
    """One word replaced: in `path` at 1-based `line`, `col`."""

    path: Path
    line: int
    col: int
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.old} -> {self.new}"


def rewrites(notes: list[Diagnostic], taken: frozenset[str] = frozenset(),
             line_at: Callable[[str, int], str] | None = None) -> list[Rewrite]:
    """The rewrite of each edition warning, by its change's row of the table. A renamed word gets
    a name no word of the ruleset (`taken`) has: `my_dice`, else `my_dice_2`, ... A prompt's
    braces are doubled in its whole quoted text, read at the warning's place (`line_at(path,
    line)`: that line of the file)."""
    by_code = {c.code: c for c in editions.CHANGES}
    found: list[Rewrite] = []
    for note in notes:
        change = by_code.get(note.code)
        if change is None:
            continue
        where = note.position
        if change.kind == "prompt braces":
            quoted = re.match(r'"[^"\n]*"', (line_at or _line_of)(where.path, where.line)[where.col - 1:])
            if quoted:
                found.append(Rewrite(Path(where.path), where.line, where.col, quoted.group(),
                                     escaped_text(quoted.group())))
            continue
        word = re.match(r"`?'?([A-Za-z_]\w*)", note.message)
        old = change.old if change.kind == "component key" else (word.group(1) if word else "")
        new = change.new if change.kind == "component key" else _free(change.new.format(word=old), taken)
        found.append(Rewrite(Path(where.path), where.line, where.col, old, new))
    return sorted(set(found), key=lambda r: (str(r.path), r.line, r.col))


def _line_of(path: str, line: int) -> str:
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _free(name: str, taken: frozenset[str]) -> str:
    number, free = 1, name
    while free in taken:
        number += 1
        free = f"{name}_{number}"
    return free


def apply(text: str, changes: list[Rewrite]) -> tuple[str, list[Rewrite]]:
    """`text` with the rewrites made, and those that could not be (the word is not at its place)."""
    lines = text.split("\n")
    missed = []
    for r in sorted(changes, key=lambda r: (r.line, r.col), reverse=True):  # later columns first
        line = lines[r.line - 1] if 0 < r.line <= len(lines) else ""
        at = r.col - 1
        after = line[at + len(r.old):at + len(r.old) + 1]
        if line[at:at + len(r.old)] != r.old or (re.match(r"\w", r.old[-1:]) and re.match(r"\w", after)):
            missed.append(r)
            continue
        lines[r.line - 1] = line[:at] + r.new + line[at + len(r.old):]
    return "\n".join(lines), missed


def manifest_text(text: str) -> str:
    """The manifest's text declaring the current edition: its `language:` line replaced, or one
    added after `version:` (or at the end)."""
    line = f"{editions.MANIFEST_KEY}: {editions.CURRENT}"
    key = re.compile(rf"^{editions.MANIFEST_KEY}:[^\n#]*", re.M)
    if key.search(text):
        return key.sub(line, text, count=1)
    version = re.search(r"^version:.*$", text, re.M)
    if version:
        return text[:version.end()] + "\n" + line + text[version.end():]
    return text + ("" if text.endswith("\n") else "\n") + line + "\n"


def schema_text(path: Path, keys: set[str]) -> str | None:
    """A schema of the ruleset's own without the old keys among its properties (and `required`),
    or None when it declares none of them."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    properties = schema.get("properties", {})
    if not keys & set(properties):
        return None
    for key in keys:
        properties.pop(key, None)
    if "required" in schema:
        schema["required"] = [k for k in schema["required"] if k not in keys]
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then move it over `path`."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def plan(folder: Path) -> tuple[dict[Path, str], list[str]]:
    """The files to write (path -> new text) and the lines that say what changes."""
    ruleset, _ = read_ruleset(str(folder))
    notes = ruleset.edition_notes
    said: list[str] = []
    texts: dict[Path, str] = {}
    by_file: dict[Path, list[Rewrite]] = {}
    words = frozenset(re.findall(r"[A-Za-z_]\w*", " ".join(
        path.read_text(encoding="utf-8", errors="replace") for path in sorted(folder.rglob("*"))
        if path.suffix in (".sr", ".yaml", ".yml") and path.is_file())))
    for r in rewrites(notes, words):
        by_file.setdefault(r.path, []).append(r)
    old_keys: dict[str, set[str]] = {}  # schema name -> component keys renamed in its entries
    for path, changes in by_file.items():
        text, missed = apply(path.read_text(encoding="utf-8"), changes)
        texts[path] = text
        said += [str(r) for r in changes if r not in missed]
        said += [f"{r.path}:{r.line}:{r.col}: cannot rewrite {r.old!r} here: change it by hand to {r.new!r}"
                 for r in missed]
        keys = {r.old for r in changes if any(c.kind == "component key" and c.old == r.old for c in editions.CHANGES)}
        if keys and path.suffix in (".yaml", ".yml"):
            document, _ = load_yaml(path, str(path))
            name = document.tree.get("schema") if document is not None and isinstance(document.tree, dict) else None
            if isinstance(name, str):
                old_keys.setdefault(name, set()).update(keys)
    for name, keys in sorted(old_keys.items()):
        schema = folder / "schemas" / name
        text = schema_text(schema, keys) if schema.is_file() else None
        if text is not None:
            texts[schema] = text
            said.append(f"{schema}: no longer declares {', '.join(sorted(keys))}")
    manifest = folder / "ruleset.yaml"
    if ruleset.edition != editions.CURRENT:
        texts[manifest] = manifest_text(manifest.read_text(encoding="utf-8"))
        said.append(f"{manifest}: {editions.MANIFEST_KEY}: {editions.CURRENT}")
    return texts, said


def command_upgrade(args) -> int:
    """Print the rewrites to the current edition; with --write, make them."""
    folder = find_ruleset(args.ruleset)
    if folder is None:
        raise RulesetError.at(Position(args.ruleset), "no ruleset here: neither a bundled ruleset "
                              "nor a folder with a ruleset.yaml")
    texts, said = plan(folder)
    if not said:
        print(f"{args.ruleset}: already in edition {editions.CURRENT} of the language: nothing to rewrite")
        return 0
    for line in said:
        print(line)
    if args.write:
        for path, text in texts.items():
            try:
                write_atomically(path, text)
            except OSError as error:  # a read-only folder: said at the file, the others kept as written
                raise RulesetError.at(Position(str(path), 1, 1), f"cannot write this file: {error.strerror}",
                                      "make the folder writable and run upgrade again", code="SR102") from None
        print(f"{len(said)} change(s) written: the ruleset is in edition {editions.CURRENT}")
    else:
        print(f"{len(said)} change(s) to edition {editions.CURRENT}; `snowrules upgrade {args.ruleset} --write` "
              "makes them")
    return 0
