"""The manifest's provenance entries, checked against the folder: an entry's `where:` names the
files that hold the gap it fills (`rules.sr`, `components/cards.yaml, economy.sr (gain)`), and a
file renamed or removed since leaves an entry that points nowhere. Provenance is documentation,
so a stale path is a warning (SR101), at the entry's `where:`.

Found by the planted mistakes (tests/mutations.py): a `where: variants/...yaml` changed to a file
that does not exist passed validate silently.
"""
from __future__ import annotations

import re
from pathlib import Path

from snowrules.language.diagnostics import Diagnostic
from snowrules.load.yaml_files import load_yaml, plain, position_of

# A piece of `where:` that is a path: ends with a file kind a ruleset holds; no wildcard.
_PATH = re.compile(r"^[\w./-]+\.(?:sr|yaml|yml|json)$")


def stale_provenance(folder: Path, shown: str) -> list[Diagnostic]:
    """A warning at each provenance entry's `where:` naming a file the ruleset folder lacks."""
    document, _ = load_yaml(folder / "ruleset.yaml", shown)
    if document is None or not isinstance(document.tree, dict):
        return []
    entries = plain(document.tree).get("provenance")
    found = []
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        where = entry.get("where") if isinstance(entry, dict) else None
        if not isinstance(where, str):
            continue
        # `economy.sr (gain, advance), phases.sr`: the files, once the names in brackets are gone
        # (split at commas first, `economy_x.sr (gain` was no path and passed silently)
        for piece in re.sub(r"\([^()]*\)", "", where).split(","):
            path = piece.strip()
            if _PATH.match(path) and ".." not in path and not (folder / path).is_file():
                found.append(Diagnostic(position_of(shown, document.tree, ["provenance", index, "where"]),
                                        f"this provenance entry names {path!r}, which is not in the ruleset",
                                        "a file renamed or removed since? name the file that holds the rule",
                                        code="SR101", severity="warning"))
    return found
