"""A built program's generated functions as one Python module: one text, one `compile()`, one
namespace, registered with `linecache` so that tracebacks, debuggers and `snowrules explain
--code` show the lines that run.

The builders (compile/playthrough.py) hand each function's source and namespace to `define` while
they work, and may bind the function it returns into other functions' namespaces or into Python
closures before the module exists: `define` returns a placeholder function object whose code is
replaced by the real one when the module is loaded (`load`), so every reference taken early
runs the generated code. All functions share the module's namespace; the names the templates bind
are fresh (fuse.fresh) or fixed library names bound to the same object everywhere, so merging
never changes what a name means. A function whose namespace would rebind a name already bound to
another value is compiled alone instead (never the case for snowrules' own templates; `separate`
counts them, and a test requires 0).

Ruleset text still never becomes code: the module holds snowrules' templates, integers snowrules
computed, and generated names bound to the ruleset's values. Each statement's lines start with a
comment naming the rule's `file:line:col` (fuse.mark).

A configuration's module text is the same in every process (its names are numbered per program:
compile/generated_names.py), so its compiled code is kept in the build cache (data/cache.py),
under a key made of the text itself, the file name and the Python version that compiled it: a
module of thousands of lines compiles in 50-200 ms and loads from the cache in 2 ms. The file
name carries a hash of the text, not a count of the modules built: two modules of one name hold
one text.
"""
from __future__ import annotations

import hashlib
import linecache
import marshal
import reprlib
import sys
import types
import weakref
import zlib
from typing import Any

from snowrules.compile import fuse
from snowrules.data import cache as build_cache
from snowrules.language.diagnostics import Position

_PLACEHOLDER = compile("def placeholder(*arguments): raise RuntimeError('a generated module used before loading')",
                       "<snowrules placeholder>", "exec")
_PLACEHOLDER_CODE = next(c for c in _PLACEHOLDER.co_consts if isinstance(c, types.CodeType))


class GeneratedModule:
    """The generated functions of one built program (see the module's docstring)."""

    def __init__(self, title: str):
        self.title = fuse.printable(title)
        self.filename = f"{fuse.GENERATED_PREFIX} module: {self.title}>"  # with its text's hash once loaded
        self.scope: dict[str, Any] = {}
        self.sources: list[str] = []
        self.separate = 0  # functions compiled alone (a name clash; see the docstring)
        self._placeholders: dict[str, types.FunctionType] = {}

    def define(self, name: str, source: str, namespace: dict) -> types.FunctionType:
        """The function `name` that `source` defines (snowrules' templates only), its names
        bound in `namespace`: a placeholder until `load`."""
        scope = self.scope
        if any(key in scope and scope[key] is not value for key, value in namespace.items()):
            self.separate += 1
            return fuse.definition(source, name, {**namespace, fuse.SOURCE: source.splitlines()})
        scope.update(namespace)
        self.sources.append(_without_repeated_marks(source))
        placeholder = types.FunctionType(_PLACEHOLDER_CODE, scope, name)
        self._placeholders[name] = placeholder
        return placeholder

    def name_of(self, function) -> str | None:
        """The name under which the module defines `function`, or None (not one of its own)."""
        name = getattr(function, "__name__", None)
        return name if self._placeholders.get(name) is function else None

    @property
    def text(self) -> str:
        return "\n\n".join(self.sources) + "\n"

    def load(self) -> None:
        """Compile the module once, run its definitions in its namespace, give each placeholder
        its function's code, and register the text with linecache (dropped with the module)."""
        text = self.text
        digest = hashlib.sha256(text.encode()).hexdigest()
        self.filename = f"{fuse.GENERATED_PREFIX} module {digest[:12]}: {self.title}>"
        lines = text.splitlines(keepends=True)
        self.scope[fuse.SOURCE] = [line.rstrip("\n") for line in lines]
        exec(_compiled(text, digest, self.filename), self.scope)  # noqa: S102 - snowrules' own templates
        for name, placeholder in self._placeholders.items():
            made = self.scope[name]
            placeholder.__code__, placeholder.__defaults__ = made.__code__, made.__defaults__
            self.scope[name] = placeholder  # one object per function, whoever took it first
        linecache.cache[self.filename] = (len(text), None, lines, self.filename)
        if self._placeholders:  # forgotten when the last module of this text is
            _registered[self.filename] = _registered.get(self.filename, 0) + 1
            weakref.finalize(next(iter(self._placeholders.values())), _forget, self.filename)

    def listing(self) -> str:
        """The module's text, then what each generated name it reads is bound to (a short
        description of each value), as `snowrules explain --code` prints it."""
        defined = set(self._placeholders)
        marks = {line.strip()[3:].split(" ", 1)[0] for line in self.text.splitlines() if line.strip().startswith("# @")}
        short = reprlib.Repr()
        short.maxstring, short.maxother, short.maxlist, short.maxtuple, short.maxdict = 60, 60, 6, 6, 4
        bound = []
        for name, value in self.scope.items():
            if name.startswith("__") or name in defined or name in marks:
                continue
            bound.append(f"#   {name} = {_described(value, short)}")
        heading = "# Names bound by the builder (the ruleset's values and snowrules' library):"
        return "\n".join([self.text, heading, *sorted(bound, key=_natural)]) + "\n"


# How many loaded modules share each file name (one text: a configuration built again, by another
# Game or test), so that linecache keeps the text until the last of them is gone
_registered: dict[str, int] = {}


def _forget(filename: str) -> None:
    left = _registered.get(filename, 1) - 1
    if left > 0:
        _registered[filename] = left
    else:
        _registered.pop(filename, None)
        linecache.cache.pop(filename, None)


def _compiled(text: str, digest: str, filename: str) -> types.CodeType:
    """The module's code, from the build cache when it holds it (see the module's docstring)."""
    key = build_cache.key("module", sys.implementation.cache_tag, filename, digest)
    data = build_cache.stored("module", key)
    if data is not None:
        try:
            code = marshal.loads(zlib.decompress(data))
        except (EOFError, ValueError, TypeError, zlib.error):  # a foreign or torn entry: compiled afresh
            code = None
        if isinstance(code, types.CodeType) and code.co_filename == filename:
            return code
    code = compile(text, filename, "exec")
    build_cache.store("module", key, zlib.compress(marshal.dumps(code), 1))  # a quarter of the size
    return code


def _without_repeated_marks(source: str) -> str:
    """`source` without a `# @` mark that follows one naming the same position (a statement's
    own mark under its block's: the nearest mark above a line is the same either way)."""
    kept: list[str] = []
    for line in source.split("\n"):
        text = line.strip()
        if text.startswith("# @") and kept and kept[-1].strip().startswith("# @"):
            if text.split(" ", 2)[2:] == kept[-1].strip().split(" ", 2)[2:] and \
                    len(line) - len(text) == len(kept[-1]) - len(kept[-1].lstrip()):
                continue
        kept.append(line)
    return "\n".join(kept)


def _natural(line: str) -> tuple:
    """`#   _v18 = ...` before `#   _v177 = ...`: names by their prefix, then their number."""
    name = line.split(" = ", 1)[0].strip("# ")
    stem = name.rstrip("0123456789")
    return stem, int(name[len(stem):] or -1), line


def _described(value: Any, short: reprlib.Repr) -> str:
    """A value as one line of a comment: printable characters only (a position is a file name)."""
    return fuse.printable(_description(value, short))


def _description(value: Any, short: reprlib.Repr) -> str:
    if isinstance(value, Position):
        return f"the position {value}"
    if type(value) is object:
        return "a marker (a value no rule can hold)"
    if isinstance(value, types.FunctionType | types.BuiltinFunctionType | types.MethodType):
        source = getattr(value, "__source__", None)
        if source is not None:
            return "generated: " + short.repr(source[0])
        return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', value.__name__)}"
    if isinstance(value, type):
        return f"the class {value.__module__}.{value.__qualname__}"
    return short.repr(value)
