"""How option values read on a command line: `size=6, fast=true`. Its own module, so that what
only prints options (`snowrules list`) need not import the reading of rulesets."""
from __future__ import annotations

from typing import Any


def options_text(values: dict[str, Any]) -> str:
    """Options as a player types them: `size=6, fast=true`."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in values.items())
