"""Writing a game log safely and portably.

Safely: a log goes only to a regular file or a new one (a folder, a FIFO, a device, or a symlink to
one of those is refused before the game starts); it is written to a temporary file beside the
target and renamed over it only when the game has ended, so a failed, interrupted (Ctrl-C) or
terminated (SIGTERM) run removes its partial file and never loses the log that was there before.
A run killed outright (SIGKILL, a power cut) cannot remove it: the partial file is locked while
its run writes it, so the next run writing the same log removes those whose run is gone.

Portably: the same ruleset, seed and agents give the same bytes in any directory on any machine.
Rule positions name their file by its path inside the ruleset folder (`rules.sr:56:9`), never
relative to the working directory or absolute, and the header carries a hash of the ruleset's
files instead of where they were found.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import stat
import tempfile
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: partial files of killed runs are left
    fcntl = None

from snowrules.language.diagnostics import LogError, Position

HASH_SKIPPED = ("__pycache__",)  # besides hidden files and folders (editor and tool litter)


def ruleset_hash(folder: Path) -> str:
    """`sha256:` and the hex digest of every file of a ruleset folder: each file's path inside the
    folder and its content, in path order, with line endings made `\\n` (a checkout on another
    system is the same ruleset). Hidden files and `__pycache__` are left out."""
    digest = hashlib.sha256()
    for path in sorted(_ruleset_files(folder), key=lambda p: p.relative_to(folder).as_posix()):
        digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0")
        content = path.read_bytes().replace(b"\r\n", b"\n")
        digest.update(str(len(content)).encode("ascii") + b"\0" + content)
    return "sha256:" + digest.hexdigest()


def _ruleset_files(folder: Path) -> list[Path]:
    found = []
    for root, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if not f.startswith(".") and f not in HASH_SKIPPED]
        found += [Path(root) / f for f in files if not f.startswith(".")]
    return found


class PortableRules:
    """Rewrites the `rule` of events (`path:line:col`, the path as messages show it) to the rule
    file's path inside its ruleset folder: the nearest folder above it holding a ruleset.yaml.
    A path in no ruleset folder is kept as it is."""

    def __init__(self):
        self._paths: dict[str, str] = {}

    def path(self, shown: str) -> str:
        if shown not in self._paths:  # once per file: looking touches the file system
            self._paths[shown] = _inside_ruleset(Path(shown)) or shown
        return self._paths[shown]

    def event(self, event: dict) -> dict:
        rule = event.get("rule")
        if not isinstance(rule, str):
            return event
        shown, _, rest = rule.rpartition(":")
        shown, _, line = shown.rpartition(":")
        if not (shown and line.isdigit() and rest.isdigit()):
            return event
        portable = self.path(shown)
        return event if portable == shown else {**event, "rule": f"{portable}:{line}:{rest}"}


def _inside_ruleset(path: Path) -> str | None:
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return None
    for folder in resolved.parents:
        if (folder / "ruleset.yaml").is_file():
            return resolved.relative_to(folder).as_posix()
    return None


def log_target_problem(path: Path, what: str = "a log") -> str | None:
    """Why `what` (a log, a table of games) cannot be written at `path`, or None when it can (a
    regular file, followed through symlinks, or a new file in an existing folder). Asked before any
    game is played, so that a wrong path costs no simulation."""
    try:
        target = path.resolve()  # a symlink is followed to what it points to, dangling or not
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except RuntimeError:  # a symlink loop
        return "is a loop of symlinks"
    except OSError as error:
        return f"cannot be examined: {error.strerror}"
    if mode is not None and not stat.S_ISREG(mode):
        kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        via = f" (through the symlink {path})" if path.is_symlink() else ""
        return f"is {kind}{via}; {what} is written only to a regular file or a new one"
    if not target.parent.is_dir():
        return f"its folder {target.parent} does not exist"
    return None


class Terminated(SystemExit):
    """SIGTERM arrived while a log was being written: the run ends (exit 143), its partial file is
    removed, and the previous log stays."""

    def __init__(self):
        super().__init__(128 + signal.SIGTERM)


def _terminate(_signal_number, _frame) -> None:
    raise Terminated()


class LogWriter:
    """Writes a log (one JSON object a line) to a temporary file beside its target, renamed over the
    target only when the game has ended. Rule paths are written inside their ruleset folder."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.portable = PortableRules()
        self.file = None
        self.temporary: Path | None = None
        self._previous_handler = None

    def __enter__(self) -> LogWriter:
        problem = log_target_problem(self.path)
        if problem is not None:
            raise LogError.at(Position(str(self.path)), f"cannot write the log: {problem}")
        self.target = self.path.resolve()
        # The handler goes in before the partial file exists, so that no SIGTERM can find a partial
        # file without a handler to remove it; one that arrives before __enter__ returns is handled
        # here, as __exit__ is not called then.
        if threading.current_thread() is threading.main_thread():
            self._previous_handler = signal.signal(signal.SIGTERM, _terminate)
        try:
            self._open_partial_file()
        except BaseException:
            self._close_and_remove()
            raise
        return self

    def _open_partial_file(self) -> None:
        remove_abandoned_partials(self.target)
        while True:
            try:
                descriptor, name = tempfile.mkstemp(prefix=self.target.name + ".", suffix=".partial",
                                                    dir=self.target.parent)
            except OSError as error:
                raise LogError.at(Position(str(self.path)), f"cannot write the log: {error.strerror}") from None
            if _lock(descriptor) and os.fstat(descriptor).st_nlink > 0:
                break
            os.close(descriptor)  # another run took it for abandoned before it was locked: a new one
        self.temporary = Path(name)
        os.chmod(descriptor, _mode_for(self.target))
        self.file = os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")

    def restart(self) -> None:
        """Empty the partial file: the game is written again from its start (an undo replays it)."""
        self.file.seek(0)
        self.file.truncate()
        self.portable = PortableRules()

    def write(self, event: dict) -> None:
        self.file.write(json.dumps(self.portable.event(event), separators=(",", ":"), sort_keys=True) + "\n")

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            self._close_and_remove()
            return
        try:
            self.file.close()
            os.replace(self.temporary, self.target)
        finally:
            self._restore_handler()

    def _close_and_remove(self) -> None:
        """The run did not end well: the partial file (if it was made) goes, the previous log stays."""
        try:
            if self.file is not None:
                self.file.close()
            if self.temporary is not None:
                self.temporary.unlink(missing_ok=True)
        finally:
            self._restore_handler()

    def _restore_handler(self) -> None:
        if self._previous_handler is not None:
            signal.signal(signal.SIGTERM, self._previous_handler)
            self._previous_handler = None


def _lock(descriptor: int) -> bool:
    """Lock a partial file for as long as its run lives (the system releases the lock when the
    process ends, however it ends); False when another process holds it."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def remove_abandoned_partials(target: Path) -> list[Path]:
    """Remove the partial files of `target` (`NAME.<8 characters>.partial` beside it) that no
    living run holds: those a killed run left behind. A partial file another run is writing
    right now is locked, and kept. Returns the files removed."""
    if fcntl is None:  # pragma: no cover
        return []
    pattern = re.compile(re.escape(target.name) + r"\.[a-z0-9_]{8}\.partial")
    removed = []
    try:
        names = [name for name in os.listdir(target.parent) if pattern.fullmatch(name)]
    except OSError:
        return []
    for name in names:
        path = target.parent / name
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:  # gone already, a symlink, or not ours to read
            continue
        try:
            if stat.S_ISREG(os.fstat(descriptor).st_mode) and _lock(descriptor):
                path.unlink(missing_ok=True)
                removed.append(path)
        except OSError:
            pass
        finally:
            os.close(descriptor)
    return removed


def _mode_for(target: Path) -> int:
    """The permissions of the log it replaces, or of a new file under the current umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
