"""The build cache: what snowrules built once from a ruleset, kept on disk for the next command.

Reading a ruleset (its YAML checked against JSON Schema, every rules file and card effect parsed)
costs from 0.1 s to 2 s of CPU, and compiling a program's generated module 50-200 ms more; every
`snowrules` command, every worker of a simulation and every test used to pay them again (a
module's compiled code is kept under its text: compile/generated_module.py). The cache keeps
each result under a key that says everything the result depends on, so a hit is always the
same as building afresh:

- the **code fingerprint**: a hash of snowrules' own source files, grammar and generic schemas
  (so a new version, or a developer's edit of the interpreter, never reuses an entry);
- the **contents** of every file in the ruleset folder (scenarios and dot-folders aside: they
  are never read to build), so a changed card or rule is a different key;
- where the folder is and how it is shown in messages (positions say `rulesets/x/rules.sr:3:1`
  relative to the working folder), and what is built (a variant, ...).

An entry is written to a temporary file beside it and renamed into place, so concurrent writers
(simulate's workers, parallel CI jobs) never see half an entry; an entry that cannot be read,
belongs to another format or holds another key is rebuilt, never trusted. The folder is the
user's cache folder (platformdirs), `SNOWRULES_CACHE=DIR` to choose another one, and
`SNOWRULES_CACHE=off` or `snowrules --no-cache` to build everything afresh. Entries are pickles:
the cache folder must be one only its user can write, as for any cache of Python objects.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

ENVIRONMENT = "SNOWRULES_CACHE"
OFF = ("off", "0", "no", "false")
FORMAT = b"snowrules-cache/1"
MAX_ENTRIES = 256          # past this many entries, the least recently used go (a cache, not an archive)
MAX_FOLDER_BYTES = 64 << 20  # a ruleset folder bigger than this is read afresh every time, never hashed
_disabled = False


def disable() -> None:
    """Build everything afresh in this process and the processes it starts (`snowrules --no-cache`:
    simulate's workers too)."""
    global _disabled
    _disabled = True
    os.environ[ENVIRONMENT] = "off"


def folder() -> Path | None:
    """Where entries live, or None when the cache is off."""
    if _disabled:
        return None
    chosen = os.environ.get(ENVIRONMENT)
    if chosen is not None:
        return None if chosen.strip().lower() in OFF or not chosen.strip() else Path(chosen)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("snowrules", appauthor=False))


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the interpreter's own files (Python source, grammar) and the generic schemas: any
    change to what builds a program changes every key."""
    from snowrules.data import bundled_folder

    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(FORMAT)
    for root in (package, bundled_folder("schemas")):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark", ".json") and "__pycache__" not in path.parts and path.is_file():
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def folder_contents(ruleset_folder: Path) -> str | None:
    """A hash of every file a build may read in a ruleset folder (all but scenarios/ and hidden
    files), or None when the folder is too big to be worth hashing."""
    root = Path(ruleset_folder)
    digest = hashlib.sha256()
    total = 0
    for directory, subfolders, files in os.walk(root):
        here = Path(directory)
        subfolders[:] = sorted(d for d in subfolders
                               if not d.startswith(".") and not (here == root and d == "scenarios"))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = here / name
            try:
                data = path.read_bytes()
            except OSError:
                return None  # a file that cannot be read is reported by the build itself
            total += len(data)
            if total > MAX_FOLDER_BYTES:
                return None
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def key(*parts: Any) -> str:
    """The key of an entry: the code fingerprint and `parts` (plain values: texts, numbers, None)."""
    return hashlib.sha256(repr((code_fingerprint(), parts)).encode()).hexdigest()


def cached(kind: str, entry_key: str | None, build: Callable[[], tuple[Any, bool]]) -> Any:
    """The value stored under `entry_key`, or `build()`'s value, stored when it says it may be
    (build returns (value, keep)). With the cache off or no key, just build."""
    found = stored(kind, entry_key)
    if found is not None:
        return found
    value, keep = build()
    if keep:
        data = store(kind, entry_key, value)
        if data is not None:
            # what a later hit will give, not the value as built: the same object either way (a
            # set read back may list its items in another order), so that equal builds pickle alike
            return pickle.loads(data)
    return value


def stored(kind: str, entry_key: str | None) -> Any:
    """The value stored under `entry_key`, or None (none, the cache off, or no key). For a value
    that is not built by one call (`cached` is, for the rest)."""
    where = folder()
    if where is None or entry_key is None:
        return None
    path = _entry_path(where, kind, entry_key)
    found = _read(path, entry_key)
    if found is not None:
        _touch(path)
    return found


def store(kind: str, entry_key: str | None, value: Any) -> bytes | None:
    """Store `value` under `entry_key` (nothing with the cache off or no key); its pickle."""
    where = folder()
    if where is None or entry_key is None:
        return None
    return _write(_entry_path(where, kind, entry_key), entry_key, value)


def _entry_path(where: Path, kind: str, entry_key: str) -> Path:
    return where / kind / entry_key[:2] / f"{entry_key}.pickle"


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:  # gone meanwhile (another process pruned it), or a read-only cache: no matter
        pass


def _read(path: Path, entry_key: str) -> Any:
    try:
        with open(path, "rb") as file:
            if file.readline().rstrip(b"\n") != FORMAT or file.readline().rstrip(b"\n") != entry_key.encode():
                return None
            return pickle.load(file)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a torn, corrupt or foreign entry: rebuilt, and replaced
        _remove(path)
        return None


def _write(path: Path, entry_key: str, value: Any) -> bytes | None:
    """Write an entry through a temporary file renamed into place, and give its pickled value; a
    cache that cannot be written (read-only, full disk) is silently not used."""
    temporary = data = None
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".partial")
        with os.fdopen(handle, "wb") as file:
            file.write(FORMAT + b"\n" + entry_key.encode() + b"\n" + data)
        os.replace(temporary, path)
        temporary = None
        if entry_key.endswith("0"):  # one write in sixteen looks over the entries: they may pass the limit a little
            _trim(path.parent.parent)
    except Exception:  # noqa: BLE001 - a value that does not pickle, or a folder we cannot write
        if temporary is not None:
            _remove(Path(temporary))
    return data


def _trim(kind_folder: Path) -> None:
    """Keep at most MAX_ENTRIES entries of one kind: the least recently used go first (a hit
    touches its entry), so that many throwaway entries (a test suite's planted mistakes) do not
    push out the rulesets read every time."""
    entries = list(kind_folder.glob("*/*.pickle"))
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.stat().st_mtime_ns)
    for old in entries[:len(entries) - MAX_ENTRIES]:
        _remove(old)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def grammar_cache_file(grammar_text: str) -> str | None:
    """Where Lark keeps its analysed grammar (its own `cache=` file, checked by Lark against the
    grammar's hash), or None with the cache off."""
    where = folder()
    if where is None:
        return None
    try:
        (where / "grammar").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    digest = hashlib.sha256(grammar_text.encode()).hexdigest()[:32]
    return str(where / "grammar" / f"{digest}.lark")
