"""`snowrules lsp` through a real client (issue 25 §1): pygls' LanguageClient starts the server in
a subprocess and talks LSP over stdio: open, change, hover, definition, semantic tokens,
completion, shutdown.

The ruleset is a copy of tests/rulesets/pig; the expected ranges are worked out by hand from
its rules.sr (0-based lines and columns, as LSP counts).
"""
from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

lsp = pytest.importorskip("lsprotocol.types")
client_module = pytest.importorskip("pygls.lsp.client")

ROOT = Path(__file__).resolve().parent.parent


class Session:
    """A client connected to `snowrules lsp`, collecting the diagnostics it is sent."""

    def __init__(self) -> None:
        self.client = client_module.LanguageClient("test-client", "1")
        self.diagnostics: dict[str, list] = {}
        self.history: list[tuple[str, list]] = []  # every publication, in order
        self.received = asyncio.Event()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params) -> None:
            self.diagnostics[params.uri] = params.diagnostics
            self.history.append((params.uri, params.diagnostics))
            self.received.set()

    async def start(self, root: Path) -> None:
        await self.client.start_io(sys.executable, "-m", "snowrules", "lsp")
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=root.as_uri()))
        self.client.initialized(lsp.InitializedParams())

    async def next_diagnostics(self) -> dict[str, list]:
        await asyncio.wait_for(self.received.wait(), 60)
        await asyncio.sleep(0.2)  # the other files' lists of the same check
        self.received.clear()
        return dict(self.diagnostics)

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def shown(diagnostic) -> tuple:
    r = diagnostic.range
    return (r.start.line, r.start.character, r.end.line, r.end.character, diagnostic.code, diagnostic.message)


def test_diagnostics_hover_and_definition_through_a_client(tmp_path):
    folder = tmp_path / "pig"
    shutil.copytree(ROOT / "tests" / "rulesets" / "pig", folder)
    rules = folder / "rules.sr"
    good = rules.read_text(encoding="utf-8")
    # two mistakes in one round: a statement of another language (line 18) and a misspelt function (line 34)
    bad = good.replace("add 1 to decisions", "decisions += 1").replace("if first(faces) == 1:",
                                                                        "if lenght(faces) == 1:")
    uri = rules.resolve().as_uri()

    async def talk() -> dict:
        session = Session()
        await session.start(tmp_path)
        seen = {}
        try:
            session.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(uri=uri, language_id="snowrules", version=1, text=bad)))
            seen["open"] = (await session.next_diagnostics())[uri]

            async def typed(text: str, version: int) -> list[list[str]]:
                """The codes of each list published for the file after a change: first the
                syntax errors of a parse of the file, at once (with its other problems as last
                published), then the whole check's list once typing pauses."""
                session.history.clear()
                session.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
                while len([u for u, _ in session.history if u == uri]) < 2:
                    await session.next_diagnostics()
                return [[d.code for d in found] for u, found in session.history if u == uri]

            seen["fixing"] = await typed(good, 2)
            seen["fixed"] = session.diagnostics[uri]
            seen["typed"] = await typed(bad, 3)  # a syntax error and an unknown name at once
            session.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=4),
                [lsp.TextDocumentContentChangeWholeDocument(text=good)]))  # the text hover and the rest ask about
            here = lsp.TextDocumentIdentifier(uri=uri)
            # line 34 (0-based 33): `                    if first(faces) == 1:`, `first` at column 23
            seen["hover function"] = await session.client.text_document_hover_async(
                lsp.HoverParams(here, lsp.Position(33, 24)))
            # line 12 (0-based 11): `        set turn_total to 0`, `turn_total` at column 12
            seen["hover counter"] = await session.client.text_document_hover_async(
                lsp.HoverParams(here, lsp.Position(11, 14)))
            # the declaration of turn_total: line 5 (0-based 4), `counter turn_total ...`, the name at column 8
            seen["definition"] = await session.client.text_document_definition_async(
                lsp.DefinitionParams(here, lsp.Position(11, 14)))
            seen["tokens"] = await session.client.text_document_semantic_tokens_full_async(
                lsp.SemanticTokensParams(here))
            # line 12 (0-based 11): `        set turn_total to 0`; completing `turn_t` after `set `
            seen["completion"] = await session.client.text_document_completion_async(
                lsp.CompletionParams(here, lsp.Position(11, 18)))
            seen["nothing"] = await session.client.text_document_hover_async(
                lsp.HoverParams(here, lsp.Position(11, 5)))
        finally:
            await session.stop()
        return seen

    seen = asyncio.run(talk())
    assert [shown(d) for d in seen["open"]] == [
        (17, 26, 17, 27, "SR301", "unexpected '+' (hint: write `add 1 to decisions`)"),
        (33, 23, 33, 29, "SR401", "unknown function 'lenght' (hint: did you mean 'size'?)"),
    ]
    assert list(seen["fixed"]) == []
    assert seen["fixing"] == [["SR401"], []]
    assert seen["typed"] == [["SR301"], ["SR301", "SR401"]]
    from snowrules.compile.library import REGISTRY
    first = REGISTRY["first"]
    assert seen["hover function"].contents.value == (
        f"**function** `first` (1 argument(s))\n\n`first(sequence) -> an item of the first argument`\n\n{first.doc}\n\n"
        f"```snowrules\n{first.example}\n```")
    assert seen["hover counter"].contents.value == (
        "**counter** `turn_total`\n\n```snowrules\ncounter turn_total shared from 0\n```\n\ndeclared at rules.sr:5")
    location = seen["definition"]
    assert location.uri == uri
    assert (location.range.start.line, location.range.start.character,
            location.range.end.line, location.range.end.character) == (4, 8, 4, 18)
    assert seen["nothing"] is None  # `set` is a keyword, not a name
    from snowrules.cli.lsp_tokens import TOKEN_TYPES
    data = seen["tokens"].data
    decoded, line, column = [], 0, 0
    for at in range(0, len(data), 5):
        line, column = line + data[at], (column if data[at] == 0 else 0) + data[at + 1]
        decoded.append((line, column, data[at + 2], TOKEN_TYPES[data[at + 3]], data[at + 4]))
    # line 5 (0-based 4): `counter turn_total shared from 0`
    assert [d for d in decoded if d[0] == 4] == [(4, 0, 7, "keyword", 0), (4, 8, 10, "variable", 1),
                                                  (4, 19, 6, "keyword", 0), (4, 26, 4, "keyword", 0),
                                                  (4, 31, 1, "number", 0)]
    assert [item.label for item in seen["completion"].items] == ["turn_total"]  # the names that begin turn_t
