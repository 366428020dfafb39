"""`validate`'s output formats: text for people, JSON for scripts, GitHub workflow annotations and
SARIF 2.1.0 for code scanning. Each takes the same list of diagnostics and returns the text.

GitHub's annotation syntax is `::error file=F,line=L,col=C,title=T::message`, where the message
escapes `%`, CR and LF, and a property also `:` and `,`
(docs.github.com, "Workflow commands for GitHub Actions"). SARIF follows the OASIS standard's
schema (sarif-schema-2.1.0.json, errata01), which the tests validate the output against.
"""
from __future__ import annotations

import json

from snowrules.language.codes import BY_CODE
from snowrules.language.diagnostics import Diagnostic

FORMATS = ("text", "json", "github", "sarif")
JSON_FORMAT = "snowrules-diagnostics/1"  # name/version in one field, as run, list, simulate and the log
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
PROJECT_URI = "https://github.com/snowrules/snowrules"


def render(diagnostics: list[Diagnostic], form: str, version: str = "0") -> str:
    """The diagnostics in the format `form` (one of FORMATS); an empty text for text and github
    formats when there is nothing to say."""
    return {"text": _text, "json": _json, "github": _github, "sarif": lambda d: _sarif(d, version)}[form](
        diagnostics)


def _text(diagnostics: list[Diagnostic]) -> str:
    return "".join(d.with_code() + "\n" for d in diagnostics)


def _record(d: Diagnostic) -> dict:
    return {"path": d.position.path, "line": d.position.line, "col": d.position.col,
            "severity": d.severity, "code": d.code, "message": d.message, "hint": d.hint}


def _json(diagnostics: list[Diagnostic]) -> str:
    errors = sum(d.severity == "error" for d in diagnostics)
    notes = sum(d.severity == "note" for d in diagnostics)
    return json.dumps({"format": JSON_FORMAT, "errors": errors, "warnings": len(diagnostics) - errors - notes,
                       "notes": notes,
                       "diagnostics": [_record(d) for d in diagnostics]}, indent=2) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(diagnostics: list[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        level = {"error": "error", "note": "notice"}.get(d.severity, "warning")
        message = f"{d.message} (hint: {d.hint})" if d.hint else d.message
        props = (f"file={_escape_property(d.position.path)},line={d.position.line},"
                 f"col={d.position.col},title={_escape_property(d.code)}")
        lines.append(f"::{level} {props}::{_escape_data(message)}\n")
    return "".join(lines)


def _sarif(diagnostics: list[Diagnostic], version: str) -> str:
    used = sorted({d.code for d in diagnostics})
    rules = [{"id": code, "name": BY_CODE[code].name if code in BY_CODE else code,
              "shortDescription": {"text": BY_CODE[code].summary if code in BY_CODE else code},
              "helpUri": f"{PROJECT_URI}/blob/main/docs/diagnostics.md#{code.lower()}"} for code in used]
    results = []
    for d in diagnostics:
        message = f"{d.message} (hint: {d.hint})" if d.hint else d.message
        region = {"startLine": max(d.position.line, 1), "startColumn": max(d.position.col, 1)}
        results.append({
            "ruleId": d.code, "ruleIndex": used.index(d.code),
            "level": d.severity if d.severity in ("error", "note") else "warning",
            "message": {"text": message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": d.position.path.replace("\\", "/"), "uriBaseId": "%SRCROOT%"},
                "region": region}}],
        })
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "snowrules", "version": version,
                                          "informationUri": PROJECT_URI, "rules": rules}},
                     "results": results}]}
    return json.dumps(log, indent=2) + "\n"
