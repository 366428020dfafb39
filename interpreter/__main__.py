"""`python -m snowrules ...` is the `snowrules` command (for environments without its console script)."""
from snowrules.cli.main import entry

entry()
