"""`snowrules validate --watch PATH...`: check once, then again each time a ruleset's file is
saved, until Ctrl-C (the designer's loop without going back to the terminal).

watchfiles (the `watch` extra) waits for the file system's own notifications and gathers the
changes of one save (an editor writes a file, renames it, touches its backup) into one batch, so
a save is one check. Only the files a ruleset is made of count: rules, YAML and JSON schemas,
not an editor's swap files nor dot-folders. A round's problems print as validate prints them,
under a line that says which files changed.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path

from snowrules.cli.usage import UsageError

SUFFIXES = (".sr", ".yaml", ".yml", ".json")


def relevant(change: object, path: str) -> bool:
    """Whether a changed path is one of a ruleset's own files (watchfiles' filter)."""
    file = Path(path)
    return file.suffix in SUFFIXES and not any(part.startswith(".") for part in file.parts[-3:])


def watch_and_validate(args, check: Callable[[], int], stop: threading.Event | None = None,
                       out: Callable[[str], None] = print) -> int:
    """Run `check` now and after each batch of changes in the folders `args.paths` name; the last
    round's exit code when `stop` is set (tests), 0 on Ctrl-C."""
    try:
        import watchfiles
    except ImportError:
        raise UsageError("--watch needs watchfiles: pip install 'snowrules[watch]'") from None
    from snowrules.cli.validation import ruleset_folders
    folders, problems = ruleset_folders(args.paths)
    if problems or not folders:
        return check()  # nothing to watch: said as validate says it
    code = check()
    out(f"watching {', '.join(str(f) for f in folders)} (Ctrl-C stops)")
    sys.stdout.flush()
    try:
        for changes in watchfiles.watch(*folders, watch_filter=relevant, stop_event=stop, debounce=200,
                                        step=50, rust_timeout=1000, yield_on_timeout=False):
            changed = sorted({Path(path).name for _, path in changes})
            out(f"-- changed: {', '.join(changed)}; checking again")
            code = check()
            sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    return code
