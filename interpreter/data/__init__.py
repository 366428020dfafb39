"""Where the bundled rulesets and the generic schemas are, installed or in a clone.

A wheel or an sdist carries them as package data of this package: pyproject.toml maps the
repository's top-level `rulesets/` and `schemas/` to `snowrules/data/rulesets` and
`snowrules/data/schemas`, so an installed snowrules finds them through `importlib.resources`.
An editable install of a clone has no copy: there they stay at the top of the clone, beside
`interpreter/`. This package is the one place that knows both, so nothing else looks for files
relative to the source code.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

SOURCE_CHECKOUT = Path(__file__).resolve().parent.parent.parent


def bundled_folder(name: str) -> Path:
    """The folder of bundled data `name` ("rulesets" or "schemas")."""
    packaged = resources.files(__name__) / name
    if packaged.is_dir():
        # An installed package is files on disk (snowrules is not zip-safe: rulesets are folders).
        return Path(str(packaged))
    return SOURCE_CHECKOUT / name
