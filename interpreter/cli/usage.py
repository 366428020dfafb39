"""The error of a wrong command-line argument, apart from the commands, so that `snowrules list`
and `--help` do not import every command to catch it."""
from __future__ import annotations


class UsageError(Exception):
    """A wrong command-line argument (exit 2)."""
