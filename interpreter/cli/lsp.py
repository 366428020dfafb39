"""`snowrules lsp`: a language server (the Language Server Protocol over stdio) for the files of a
ruleset folder, so that an editor shows `validate`'s problems while a designer types.

- **Diagnostics**: when a ruleset's `.sr` or YAML file is opened, saved or changed (once typing
  pauses, in a thread), its folder is checked as `validate --no-play` checks it (same
  messages, codes and positions), with the texts the editor holds rather than the files on
  disk; scenarios and smoke games are left to `validate`. Each file of the folder gets its
  problems (an empty list once they are fixed).
- **Hover** on a name of the rules: a standard function's documentation and example (from the
  registry, compile/library.py), or the declaration of a zone, counter, variable, constant,
  definition or event, with its kind.
- **Go to definition** of a name declared in the rules; **find references** of a name in the
  rules files and the rules texts of the YAML files.
- **Completion** of keywords, the ruleset's names, the components' fields (after `.`) and the
  standard functions with their signatures; the **outline** of a rules file (cli/lsp_names.py).

pygls and lsprotocol are an optional extra (`pip install 'snowrules[lsp]'`): the server is
imported only by this command. Declarations are found by their lines (`zone NAME ...`), so that
hover and definition keep working while the text does not parse.
"""
from __future__ import annotations

import asyncio
import hashlib
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snowrules.cli.validation import validate_folder
from snowrules.language.diagnostics import Diagnostic
from snowrules.load.ruleset import display_path

RULES_SUFFIXES = (".sr",)
WATCHED_SUFFIXES = (".sr", ".yaml", ".yml")
# A declaration's line in a rules file: its keyword, then its name (grammar.lark's *_decl rules).
DECLARATION = re.compile(r"^\s*(?P<keyword>zone|counter|variable|constant|define|event|phase)\s+"
                         r"(?P<name>[A-Za-z_]\w*)")
KIND_OF = {"zone": "zone", "counter": "counter", "variable": "variable", "constant": "constant",
           "event": "event", "phase": "phase"}
WORD = re.compile(r"[A-Za-z_]\w*")
# A change is checked once the designer has paused typing this long (seconds): a check of a large
# ruleset takes longer than a keystroke, and only the latest text's problems are worth showing.
TYPING_PAUSE = 0.3


@dataclass(frozen=True)
class Declaration:
    """A name declared in a rules file: where (0-based line and columns of the name) and how."""

    name: str
    kind: str
    path: Path
    line: int
    start: int
    end: int
    text: str  # the declaration's line, as written


def ruleset_of(path: Path) -> Path | None:
    """The ruleset folder holding `path` (the nearest folder upwards with a ruleset.yaml)."""
    for folder in [path.parent, *path.parent.parents]:
        if (folder / "ruleset.yaml").is_file():
            return folder
    return None


_SCRATCH: list[tempfile.TemporaryDirectory] = []  # the server's own scratch folder, made once


def _scratch_for(folder: Path) -> Path:
    """The folder's copy, always at the same place for the same folder while the server runs: the
    files read and parsed last are kept by path and text (yaml_files, parser), so a check after
    an edit reads and parses again only the file that changed."""
    if not _SCRATCH:
        _SCRATCH.append(tempfile.TemporaryDirectory(prefix="snowrules-lsp-"))
    place = Path(_SCRATCH[0].name) / hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]
    return place / folder.name


def check_texts(folder: Path, texts: dict[Path, str]) -> dict[Path, list[Diagnostic]]:
    """`validate --no-play`'s problems of a ruleset folder, as the editor's unsaved `texts` (by
    path inside the folder) make it, by file of the folder. The folder is copied with those texts
    to the server's scratch folder, checked there, and the paths mapped back."""
    copy = _scratch_for(folder)
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".*", "__pycache__"), symlinks=True)
    for path, text in texts.items():
        try:
            inside = path.resolve().relative_to(folder.resolve())
        except ValueError:
            continue
        (copy / inside).parent.mkdir(parents=True, exist_ok=True)
        (copy / inside).write_text(text, encoding="utf-8")
    found = validate_folder(copy.resolve(), play=False, scenarios=False)
    root = copy.resolve()
    names = sorted({str(root), display_path(root)}, key=len, reverse=True)  # as messages may show it
    by_file: dict[Path, list[Diagnostic]] = {}
    for d in found:
        where = Path(d.position.path).resolve()
        if not where.is_relative_to(root):
            continue
        real = folder.resolve() / where.relative_to(root)
        message, hint = d.message, d.hint
        for name in names:
            message, hint = message.replace(name, str(folder)), hint.replace(name, str(folder))
        by_file.setdefault(real, []).append(Diagnostic(d.position, message, hint, d.severity, d.code))
    return by_file


# What a parse of one file finds, flagged as the designer types: the grammar's errors, reserved
# words, and a prompt's braces that cannot be read (a lone `{` or `}`, empty braces: SR214, found
# by language/prompt_text.py as the parse reads the text, as validate finds them). A prompt that
# shows its own answer is SR214 too, found when the rules are compiled: the whole check, after the
# pause, publishes it again.
SYNTAX_CODES = ("SR301", "SR302", "SR122", "SR125", "SR214")


def syntax_problems(text: str, path: Path, folder: Path) -> list[Diagnostic]:
    """The syntax errors of one rules file's text, read in its ruleset's edition."""
    from snowrules.language import editions
    from snowrules.language.diagnostics import RulesSyntaxError, SnowrulesError
    from snowrules.language.parser import parse_rules
    from snowrules.load.yaml_files import load_yaml, plain
    manifest, _ = load_yaml(folder / "ruleset.yaml", display_path(folder / "ruleset.yaml"))
    tree = plain(manifest.tree) if manifest is not None else None
    edition = editions.edition_of(tree) if isinstance(tree, dict) else editions.CURRENT
    try:
        parse_rules(text, display_path(path), edition)
    except RulesSyntaxError as error:
        return [d for d in error.diagnostics if d.code in SYNTAX_CODES]
    except SnowrulesError:  # too large, too deep: the whole check says it
        return []
    return []


def word_at(text: str, line: int, character: int) -> tuple[str, int, int] | None:
    """The name under a cursor (0-based): the word, its first and its end column."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for match in WORD.finditer(lines[line]):
        if match.start() <= character <= match.end():
            return match.group(), match.start(), match.end()
    return None


def declarations(folder: Path, texts: dict[Path, str]) -> dict[str, Declaration]:
    """Every name declared in the ruleset's rules files (the editor's texts first), by name."""
    found: dict[str, Declaration] = {}
    for path in sorted(folder.rglob("*.sr")):
        text = texts.get(path.resolve())
        if text is None:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        for number, line in enumerate(text.splitlines()):
            match = DECLARATION.match(line.split("#", 1)[0])
            if match is None:
                continue
            keyword, name = match.group("keyword"), match.group("name")
            kind = KIND_OF.get(keyword) or ("function" if re.search(r"\)\s*=", line) else "procedure")
            found.setdefault(name, Declaration(name, kind, path.resolve(), number, match.start("name"),
                                               match.end("name"), line.strip()))
    return found


def hover_text(name: str, declared: dict[str, Declaration]) -> str | None:
    """What a hover on `name` shows, in Markdown: its declaration in the rules, else the standard
    library's documentation of the function of that name; None for any other word."""
    if name in declared:
        d = declared[name]
        return f"**{d.kind}** `{name}`\n\n```snowrules\n{d.text}\n```\n\ndeclared at {d.path.name}:{d.line + 1}"
    from snowrules.compile import stdlib, stdlib_grid  # noqa: F401 - they fill the registry
    from snowrules.compile.library import REGISTRY
    function = REGISTRY.get(name)
    if function is None:
        return None
    from snowrules.cli.lsp_names import signature
    return (f"**function** `{name}` ({function.arity_text()} argument(s))\n\n`{signature(function)}`\n\n"
            f"{function.doc}\n\n```snowrules\n{function.example}\n```")


def lsp_range(d: Diagnostic, text: str | None) -> tuple[int, int, int, int]:
    """A diagnostic's 0-based range: from its position to the end of the word that starts there
    (one character when no word does)."""
    line, col = max(d.position.line - 1, 0), max(d.position.col - 1, 0)
    source = (text or "").splitlines()
    end = col + 1
    if line < len(source):
        match = re.compile(r"[A-Za-z_0-9]+").match(source[line], col)
        if match:
            end = match.end()
    return line, col, line, end


def serve() -> None:  # pragma: no cover - run as a process by the tests (tests/test_lsp.py)
    """Start the server on stdin and stdout."""
    build_server().start_io()


def build_server() -> Any:
    """The pygls server with its features (imported here: pygls is an optional extra)."""
    from lsprotocol import types as lsp
    from pygls.lsp.server import LanguageServer

    server = LanguageServer("snowrules", "1")
    published: dict[Path, set[str]] = {}  # ruleset folder -> the files given problems last time

    def texts_of(folder: Path) -> dict[Path, str]:
        found = {}
        for document in server.workspace.text_documents.values():
            path = Path(document.path).resolve()
            if path.suffix in WATCHED_SUFFIXES and folder.resolve() in path.parents:
                found[path] = document.source
        return found

    requests: dict[Path, int] = {}  # ruleset folder -> the number of the latest edit's check
    one_at_a_time = asyncio.Lock()  # checks share the readers' caches: never two at once

    async def check(uri: str, wait: float) -> None:
        """Check the folder of `uri` after `wait` seconds without a newer edit, in a thread (hover
        and definition are answered meanwhile), and publish each file's problems."""
        path = Path(server.workspace.get_text_document(uri).path).resolve()
        folder = ruleset_of(path)
        if folder is None or path.suffix not in WATCHED_SUFFIXES:
            return
        key = folder.resolve()
        number = requests[key] = requests.get(key, 0) + 1
        await asyncio.sleep(wait)
        async with one_at_a_time:
            if requests[key] != number:
                return  # a newer edit will be checked
            texts = texts_of(folder)
            found = await asyncio.to_thread(check_texts, folder, texts)
        before = published.get(key, set())
        for file in sorted(set(found) | {Path(p) for p in before}):
            text = texts.get(file)
            if text is None and file.is_file():
                text = file.read_text(encoding="utf-8", errors="replace")
            items = []
            severities = {"error": lsp.DiagnosticSeverity.Error, "note": lsp.DiagnosticSeverity.Information}
            for d in found.get(file, []):
                l0, c0, l1, c1 = lsp_range(d, text)
                items.append(lsp.Diagnostic(
                    range=lsp.Range(lsp.Position(l0, c0), lsp.Position(l1, c1)),
                    message=f"{d.message} (hint: {d.hint})" if d.hint else d.message,
                    severity=severities.get(d.severity, lsp.DiagnosticSeverity.Warning),
                    code=d.code, source="snowrules"))
            shown[file.as_uri()] = items
            server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=file.as_uri(), diagnostics=items))
        published[key] = {str(f) for f in found}

    shown: dict[str, list] = {}  # uri -> the diagnostics published for it last

    def quick(uri: str) -> None:
        """At once, before the whole check: the syntax errors of the rules file being typed (a
        parse of one file takes tens of milliseconds; the check of a large ruleset, seconds).
        The file's other problems, as last published, stay until the check replaces them."""
        document = server.workspace.get_text_document(uri)
        path = Path(document.path).resolve()
        folder = ruleset_of(path)
        if folder is None or path.suffix not in RULES_SUFFIXES:
            return
        syntax = syntax_problems(document.source, path, folder)
        kept = [d for d in shown.get(uri, []) if d.code not in SYNTAX_CODES]
        items = [lsp.Diagnostic(range=lsp.Range(lsp.Position(l0, c0), lsp.Position(l1, c1)),
                                message=f"{d.message} (hint: {d.hint})" if d.hint else d.message,
                                severity=lsp.DiagnosticSeverity.Error, code=d.code, source="snowrules")
                 for d in syntax for l0, c0, l1, c1 in [lsp_range(d, document.source)]]
        if items or len(kept) != len(shown.get(uri, [])):
            shown[uri] = items + kept
            server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=items + kept))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        await check(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        quick(params.text_document.uri)
        await check(params.text_document.uri, TYPING_PAUSE)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(params: lsp.DidSaveTextDocumentParams) -> None:
        await check(params.text_document.uri, 0)

    def name_under(params: Any) -> tuple[str, dict[str, Declaration]] | None:
        document = server.workspace.get_text_document(params.text_document.uri)
        path = Path(document.path).resolve()
        folder = ruleset_of(path)
        word = word_at(document.source, params.position.line, params.position.character)
        if folder is None or word is None:
            return None
        return word[0], declarations(folder, texts_of(folder))

    def component_under(params: Any) -> tuple[Any, Path] | None:
        """The component named under the cursor (a quoted text of the rules, an item of a YAML
        flow list or map) and its ruleset's folder (cli/lsp_components.py)."""
        from snowrules.cli import lsp_components
        from snowrules.cli.lsp_names import rules_files
        document = server.workspace.get_text_document(params.text_document.uri)
        path = Path(document.path).resolve()
        folder = ruleset_of(path)
        if folder is None:
            return None
        named = lsp_components.text_at(document.source, params.position.line, params.position.character,
                                       path.suffix in (".yaml", ".yml"))
        if named is None:
            return None
        found = lsp_components.components(rules_files(folder, texts_of(folder))).get(named)
        return (found, folder) if found is not None else None

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        found = name_under(params)
        text = hover_text(*found) if found else None
        if text is None and (component := component_under(params)) is not None:
            from snowrules.cli.lsp_components import hover_of
            text = hover_of(*component)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(params: lsp.DefinitionParams) -> lsp.Location | None:
        found = name_under(params)
        if found is None or found[0] not in found[1]:
            component = component_under(params)
            if component is None:
                return None
            c = component[0]
            return lsp.Location(uri=c.path.as_uri(), range=lsp.Range(lsp.Position(c.line, c.start),
                                                                      lsp.Position(c.line, c.end)))
        d = found[1][found[0]]
        return lsp.Location(uri=d.path.as_uri(), range=lsp.Range(lsp.Position(d.line, d.start),
                                                                  lsp.Position(d.line, d.end)))

    from snowrules.cli import lsp_tokens

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensLegend(
        token_types=list(lsp_tokens.TOKEN_TYPES), token_modifiers=list(lsp_tokens.TOKEN_MODIFIERS)))
    def semantic_tokens(params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        """Every word of a rules file coloured by its kind in the grammar (cli/lsp_tokens.py)."""
        document = server.workspace.get_text_document(params.text_document.uri)
        if Path(document.path).suffix not in RULES_SUFFIXES:
            return lsp.SemanticTokens(data=[])
        return lsp.SemanticTokens(data=lsp_tokens.encoded(document.source))

    _names_features(server, lsp, texts_of)
    return server


def _names_features(server: Any, lsp: Any, texts_of: Any) -> None:
    """Completion, references and the outline (cli/lsp_names.py does the work)."""
    from snowrules.cli import lsp_names

    symbol_kinds = {"define": lsp.SymbolKind.Function, "free action": lsp.SymbolKind.Function,
                    "phase": lsp.SymbolKind.Event, "reaction": lsp.SymbolKind.Event, "zone": lsp.SymbolKind.Array,
                    "counter": lsp.SymbolKind.Number, "variable": lsp.SymbolKind.Variable,
                    "constant": lsp.SymbolKind.Constant, "event": lsp.SymbolKind.Event}
    item_kinds = {"keyword": lsp.CompletionItemKind.Keyword, "field": lsp.CompletionItemKind.Field,
                  "function": lsp.CompletionItemKind.Function, "procedure": lsp.CompletionItemKind.Function,
                  "zone": lsp.CompletionItemKind.Variable, "counter": lsp.CompletionItemKind.Variable,
                  "variable": lsp.CompletionItemKind.Variable, "constant": lsp.CompletionItemKind.Constant,
                  "event": lsp.CompletionItemKind.Event, "phase": lsp.CompletionItemKind.Event}

    def span(line: int, start: int, end: int) -> Any:
        return lsp.Range(lsp.Position(line, start), lsp.Position(line, end))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(params: lsp.CompletionParams) -> lsp.CompletionList:
        document = server.workspace.get_text_document(params.text_document.uri)
        folder = ruleset_of(Path(document.path).resolve())
        declared = declarations(folder, texts_of(folder)) if folder else {}
        fields = lsp_names.field_names(folder) if folder else []
        found = lsp_names.completions(document.source, params.position.line, params.position.character,
                                      declared, fields)
        return lsp.CompletionList(is_incomplete=False, items=[
            lsp.CompletionItem(label=label, kind=item_kinds.get(kind, lsp.CompletionItemKind.Text), detail=detail)
            for label, kind, detail in found])

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(params: lsp.ReferenceParams) -> list[lsp.Location]:
        document = server.workspace.get_text_document(params.text_document.uri)
        folder = ruleset_of(Path(document.path).resolve())
        if folder is None:
            return []
        files = lsp_names.rules_files(folder, texts_of(folder))
        from snowrules.cli import lsp_components
        named = lsp_components.text_at(document.source, params.position.line, params.position.character,
                                       Path(document.path).suffix in (".yaml", ".yml"))
        if named is not None and named in lsp_components.components(files):  # a card, named in rules and YAML
            return [lsp.Location(uri=path.as_uri(), range=span(line, start, end))
                    for path, line, start, end in lsp_components.references(named, files)]
        word = word_at(document.source, params.position.line, params.position.character)
        if word is None:
            return []
        found = lsp_names.references(word[0], files)
        return [lsp.Location(uri=p.path.as_uri(), range=span(p.line, p.start, p.end)) for p in found]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def outline(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        document = server.workspace.get_text_document(params.text_document.uri)
        if not document.path.endswith(RULES_SUFFIXES):
            return []

        def symbol(s: Any) -> lsp.DocumentSymbol:
            whole = span(s.line, 0, s.width) if s.line == s.end else lsp.Range(
                lsp.Position(s.line, 0), lsp.Position(s.end + 1, 0))
            kind = symbol_kinds.get(s.kind, lsp.SymbolKind.Namespace)
            return lsp.DocumentSymbol(name=s.name, detail=s.kind, kind=kind,
                                      range=whole, selection_range=span(s.line, 0, s.width),
                                      children=[symbol(c) for c in s.children])
        return [symbol(s) for s in lsp_names.outline(document.source)]
