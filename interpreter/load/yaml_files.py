"""YAML files with positions (their JSON Schema violations, each at its line: load/schema_errors.py).

ruamel.yaml's round-trip constructor keeps the line and column of every mapping key, value and
list item (`.lc`), and builds only plain maps, lists and scalars: no tag can construct a Python
object. `position_of` maps a path of keys and indexes back to the file. Its tokens come from
ruamel's plain scanner and parser, not the round-trip ones: nothing here reads comments, and
gathering them was a fifth of the time of reading a file (the trees are the same, positions and
all, for every YAML file of the bundled and test rulesets).

A file's tree is kept in the build cache (data/cache.py) under its text: a command that reads a
ruleset in which one file changed parses that file only.
"""
from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import MappingStartEvent, ScalarEvent, SequenceStartEvent
from ruamel.yaml.parser import Parser
from ruamel.yaml.scanner import Scanner
from snowrules.data import cache as build_cache
from snowrules.language.diagnostics import Diagnostic, Position
from snowrules.language.limits import (
    MAX_FILE_BYTES,
    MAX_NUMBER,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
    MAX_YAML_TEXT_NODES,
    excerpt,
    number_too_large,
)


class YamlDocument:
    """A loaded YAML file: its round-trip tree (with positions) and its path as shown to users."""

    def __init__(self, path: str, tree: Any, text_key: str | None = None):
        self.path = path
        self.tree = tree
        self.text_key = text_key  # the build cache's key of the file's text (what is kept of it), if read from one

    def position(self, where: Iterable[str | int] = ()) -> Position:
        return position_of(self.path, self.tree, list(where))


def read_text(path: Path, shown: str) -> tuple[str | None, Diagnostic | None]:
    """Read a text file, or say why it cannot be read."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None, Diagnostic(Position(shown, 1, 1), f"file is larger than {MAX_FILE_BYTES} bytes",
                                    code="SR701")
        return path.read_text(encoding="utf-8"), None
    except FileNotFoundError:
        return None, Diagnostic(Position(shown), "file not found")
    except IsADirectoryError:
        return None, Diagnostic(Position(shown), "is a folder, not a file")
    except UnicodeDecodeError as error:
        return None, Diagnostic(Position(shown, 1, 1), f"not UTF-8 text ({error.reason})")
    except OSError as error:
        return None, Diagnostic(Position(shown), f"cannot read: {error.strerror}")


def load_yaml(path: Path, shown: str) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Load one YAML file. Returns the document, or None and the reasons it could not be read."""
    text, problem = read_text(path, shown)
    if problem:
        return None, [problem]
    return yaml_from_text(text, shown)


def yaml_from_text(text: str, shown: str) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """A YAML text (a file's, or an editor's unsaved buffer), read as `load_yaml` reads a file."""
    known = _READ.get((shown, text))
    if known is not None:
        _READ.move_to_end((shown, text))
        return YamlDocument(shown, *known), []
    text_key = build_cache.key("yaml", shown, text)

    def build() -> tuple[tuple[Any, list[Diagnostic]], bool]:
        tree, problems = _parsed(text, shown)
        return (tree, problems), not problems  # a file with problems is read afresh each time
    tree, problems = build_cache.cached("yaml", text_key, build)
    if problems:
        return None, problems
    _keep(shown, text, tree, text_key)
    return YamlDocument(shown, tree, text_key), []


def _parsed(text: str, shown: str) -> tuple[Any, list[Diagnostic]]:
    """The tree of a YAML text, or the reasons it cannot be read."""
    yaml = YAML(typ="rt", pure=True)
    yaml.Scanner, yaml.Parser = _BoundedScanner, Parser
    yaml.Composer, yaml.Constructor = _BoundedComposer, _PlainKeysConstructor
    try:
        tree = yaml.load(text)
    except _NestedTooDeep as deep:
        return None, [Diagnostic(Position(shown, deep.mark.line + 1, deep.mark.column + 1),
                                 f"YAML nested more than {MAX_YAML_DEPTH} levels deep", code="SR705")]
    except _TooManyNodes as many:
        return None, [Diagnostic(Position(shown, many.mark.line + 1, many.mark.column + 1),
                                 f"this YAML file has more than {MAX_YAML_TEXT_NODES} values, keys, maps and "
                                 "lists", "the largest bundled file has under 2,000; split the file?", code="SR704")]
    except _NumberTooLarge as large:
        return None, [Diagnostic(Position(shown, large.mark.line + 1, large.mark.column + 1),
                                 f"the number {excerpt(large.value)} is larger than {MAX_NUMBER:,}",
                                 "no count or score of a game comes near it", code="SR711")]
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = (error.problem or error.context or "malformed YAML").strip()
        context, start = error.context or "", error.context_mark
        if (start is not None and context.startswith(("while parsing a flow", "while scanning a quoted"))
                and start.line + 1 != line):
            # an unclosed '[', '{' or quote: the mistake is where it opens, not where YAML gives up
            what = context.removeprefix("while parsing ").removeprefix("while scanning ")
            message = f"{what} starts here and is not closed properly: {message} at line {line}, column {col}"
            line, col = start.line + 1, start.column + 1
        hint = ""
        source_line = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
        if "{" in source_line and "[" in source_line.split("{", 1)[1]:
            hint = ('inside { }, a key with brackets must be quoted ("tiles[5]": 1) '
                    "or the map written one key per line")
        return None, [Diagnostic(Position(shown, line, col), f"YAML syntax: {message}", hint)]
    except YAMLError as error:
        return None, [Diagnostic(Position(shown, 1, 1), f"YAML syntax: {error}")]
    except RecursionError:
        return None, [Diagnostic(Position(shown, 1, 1), "YAML nests too deeply", code="SR705")]
    problem = _oversized(tree, shown)
    if problem is not None:
        return None, [problem]
    return tree, []


class _NestedTooDeep(Exception):
    def __init__(self, mark: Any):
        self.mark = mark


class _BoundedScanner(Scanner):
    """Refuses a `[` or `{` opening more than MAX_YAML_DEPTH flow collections, where it stands:
    the scanner reads a run of opening brackets to its end before it gives the first one, in time
    that grows with the square of the run (10,000 brackets took 13 s and ended in a RecursionError)."""

    def fetch_flow_collection_start(self, TokenClass: Any, to_push: str) -> None:
        if len(self.flow_context) >= MAX_YAML_DEPTH:
            raise _NestedTooDeep(self.reader.get_mark())
        super().fetch_flow_collection_start(TokenClass, to_push)


class _TooManyNodes(Exception):
    def __init__(self, mark: Any):
        self.mark = mark


class _NumberTooLarge(Exception):
    def __init__(self, mark: Any, value: str):
        self.mark, self.value = mark, value


# A plain scalar YAML reads as a whole number (1.2's decimal, octal and hex; 1.1's underscores).
_WHOLE_NUMBER = re.compile(r"[-+]?(?:0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)")


def _number_too_large(text: str) -> bool:
    if text.lstrip("+-")[:2] in ("0o", "0x"):  # converted in linear time, but bounded by length first
        return len(text) > 80 or abs(int(text.replace("_", ""), 0)) > MAX_NUMBER
    return number_too_large(text.replace("_", ""))


class _PlainKeysConstructor(RoundTripConstructor):
    """A map's key must be a plain value: a key that is a list or a map (`{[a]: 1}`, or a flow map
    whose key lost its text) is refused at the key, as a syntax error of the file (ruamel makes a
    list key a tuple, a field named "('a',)", and fails on a map inside it with a TypeError,
    unhashable, and no place)."""

    def check_mapping_key(self, node: Any, key_node: Any, mapping: Any, key: Any, value: Any) -> bool:
        if isinstance(key, (tuple, list, dict, set)):  # ruamel's list keys are tuples; its maps are dicts
            raise MarkedYAMLError("while reading a map", node.start_mark,
                                  "a key must be a plain value (a name, a number or a text), not a list or "
                                  "a map", key_node.start_mark) from None
        return super().check_mapping_key(node, key_node, mapping, key, value)


class _BoundedComposer(Composer):
    """Refuses a map or list nested more than MAX_YAML_DEPTH deep in the text (block style), at
    its first line, before the recursive composer runs out of stack; and a file of more than
    MAX_YAML_TEXT_NODES nodes, at the first node past it, before the rest is scanned: ruamel
    reads some 10,000 nodes a second (`deep: [1,1,1,...]` of 2 MB, a million nodes, ran for
    minutes); and a whole number beyond MAX_NUMBER, before it is converted."""

    nesting = 0
    nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        collection = isinstance(event, (MappingStartEvent, SequenceStartEvent))
        self.nodes += 1
        if self.nodes > MAX_YAML_TEXT_NODES:
            raise _TooManyNodes(event.start_mark)
        if (isinstance(event, ScalarEvent) and not event.style and _WHOLE_NUMBER.fullmatch(event.value)
                and _number_too_large(event.value)):  # before ruamel converts it (Python refuses 4,301 digits)
            raise _NumberTooLarge(event.start_mark, event.value)
        self.nesting += collection
        try:
            if self.nesting > MAX_YAML_DEPTH + 1:  # the top map is depth 0, as `_oversized` counts
                raise _NestedTooDeep(event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self.nesting -= collection


# The trees of the files read last, by path as shown and whole text: a command that reads one
# ruleset several times (validate: once per variant and per scenario's variant; the test suite)
# parses each file once. Parsing was most of the time of reading a large ruleset, and keying by
# the text itself means a changed file is always read anew. Nothing writes into a loaded tree
# (readers take `plain` copies), so the documents may share it.
# Bounded by the texts' length (a tree takes about 30 bytes of memory per character of its text).
READ_TEXT_KEPT = 2_000_000
_READ: OrderedDict[tuple[str, str], tuple[Any, str]] = OrderedDict()  # (file, text) -> (tree, key)


def _keep(shown: str, text: str, tree: Any, text_key: str) -> None:
    if len(text) > READ_TEXT_KEPT // 4:
        return
    _READ[(shown, text)] = (tree, text_key)
    kept = sum(len(key[1]) for key in _READ)
    while kept > READ_TEXT_KEPT:
        (_, oldest), _ = _READ.popitem(last=False)
        kept -= len(oldest)


def _oversized(tree: Any, shown: str) -> Diagnostic | None:
    """A refusal when the tree, with every alias expanded, has more than MAX_YAML_NODES nodes or
    nests deeper than MAX_YAML_DEPTH: an alias bomb is a few hundred bytes of text whose expansion
    (by `plain`, by schema validation) would take minutes and gigabytes. Sizes are computed once
    per shared node, so the check itself costs the size of the text. The refusal is at the
    innermost node whose own expansion is too large: where the bomb is assembled."""
    sizes: dict[int, int] = {}
    worst: list = []

    def size(node: Any, depth: int) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        if depth > MAX_YAML_DEPTH:
            raise _TooDeep(node)
        known = sizes.get(id(node))
        if known is not None:
            return known
        sizes[id(node)] = MAX_YAML_NODES + 1  # a node inside itself (a recursive alias) is too large
        children = node.values() if isinstance(node, dict) else node
        total = 1
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_YAML_NODES:
                break
        sizes[id(node)] = total
        if total > MAX_YAML_NODES and not worst:
            worst.append(node)
        return total

    try:
        size(tree, 0)
    except _TooDeep as deep:
        return Diagnostic(_node_position(shown, deep.node), f"YAML nested more than {MAX_YAML_DEPTH} levels deep",
                          code="SR705")
    if worst:
        return Diagnostic(_node_position(shown, worst[0]), f"YAML aliases here expand to more than {MAX_YAML_NODES} "
                          "nodes", "write the values out, or use fewer nested aliases (&name / *name)",
                          code="SR702")
    return None


class _TooDeep(Exception):
    def __init__(self, node: Any):
        self.node = node


def _node_position(shown: str, node: Any) -> Position:
    lc = getattr(node, "lc", None)
    return Position(shown, lc.line + 1, lc.col + 1) if lc is not None else Position(shown, 1, 1)


def position_of(path: str, tree: Any, where: list[str | int]) -> Position:
    """The position of the node reached by `where` (keys and indexes) from `tree`.

    For a missing key the position of the nearest existing parent is given."""
    node, line, col = tree, 1, 1
    if hasattr(tree, "lc"):
        line, col = tree.lc.line + 1, tree.lc.col + 1
    for step in where:
        try:
            if isinstance(node, CommentedMap) and step in node:
                line, col = node.lc.value(step)
                line, col = line + 1, col + 1
                node = node[step]
            elif isinstance(node, CommentedSeq) and isinstance(step, int) and step < len(node):
                line, col = node.lc.item(step)
                line, col = line + 1, col + 1
                node = node[step]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    return Position(path, line, col)


def key_position(path: str, tree: Any, where: list[str | int], key: str) -> Position:
    """The position of `key` itself inside the map reached by `where`."""
    node = tree
    for step in where:
        node = node[step]
    if isinstance(node, CommentedMap) and key in node:
        line, col = node.lc.key(key)
        return Position(path, line + 1, col + 1)
    return position_of(path, tree, where)


def plain(node: Any) -> Any:
    """A round-trip tree as plain dicts, lists and scalars (what the engine keeps)."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return str(node)


def load_schema(path: Path) -> dict:
    """A JSON Schema file (ValueError when it is too large or not JSON)."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ValueError(f"the file is larger than {MAX_FILE_BYTES} bytes")
    return json.loads(path.read_text(encoding="utf-8"))

