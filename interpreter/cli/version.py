"""The installed distribution's version, for --version and for the formats that name their tool."""
from __future__ import annotations


def installed_version() -> str:
    """From the package metadata: the same for a wheel and an editable install."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("snowrules")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return "unknown (not installed)"
