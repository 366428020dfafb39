"""The standard library's registry: each function of the rules language declared once.

A function is registered with its parameters' kinds, its result kind, a one-line doc and an
example. The expression compiler looks a call up here: the registry checks the number of
arguments and each argument's kind, then the function's `build` turns the compiled arguments
into a closure. docs/language.md's table lists exactly the registered functions (a test checks).

Parameter kinds are a `Kind` (the argument must be of that kind) or one of the markers below,
for arguments the checker treats specially: `SEQUENCE` (a list, or a zone read as its list),
`LIST_OR_ZONE` (kept as a zone when it is one), `FIELD` (a field's name as a quoted text,
read while compiling) and `VALUE` (anything).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from snowrules.compile.closures import Fn, const
from snowrules.language import syntax as s
from snowrules.language.diagnostics import Position
from snowrules.model import kinds as t

if TYPE_CHECKING:
    from snowrules.compile.expressions import ExpressionCompiler
    from snowrules.compile.scope import Scope


@dataclass(frozen=True)
class Marker:
    """A parameter kind that is not a plain kind (see the module text)."""

    name: str


SEQUENCE, LIST_OR_ZONE, FIELD, VALUE = Marker("sequence"), Marker("list or zone"), Marker("field"), Marker("value")
ParamKind = t.Kind | Marker
# A result kind: a fixed kind, or a function of the arguments' kinds.
ResultKind = t.Kind | Callable[[list[t.Kind]], t.Kind]

ORDINALS = ("first", "second", "third", "fourth", "fifth")


def element_of_first(kinds: list[t.Kind]) -> t.Kind:
    """The result is an item of the first argument (a list's element kind)."""
    return t.element(kinds[0])


def same_as_first(kinds: list[t.Kind]) -> t.Kind:
    return kinds[0]


@dataclass
class Call:
    """A call being compiled: what a function's `build` receives."""

    compiler: ExpressionCompiler
    node: s.Call
    scope: Scope
    args: list[Any]          # compiled closures; for FIELD the field's name (or None when not a text)
    kinds: list[t.Kind]      # each argument's kind (for FIELD: STR)

    @property
    def position(self) -> Position:
        return self.node.pos

    def error(self, message: str, hint: str = "", argument: int | None = None) -> None:
        where = self.node.args[argument].pos if argument is not None else self.node.pos
        self.compiler.diag.error(where, message, hint)


@dataclass(frozen=True)
class Overload:
    """One way to call a function: its parameters and result. `variadic`: the last parameter
    repeats (at least once)."""

    params: tuple[ParamKind, ...]
    result: ResultKind
    build: Callable[[Call], Fn | tuple[Fn, t.Kind]]
    variadic: bool = False

    def accepts(self, count: int) -> bool:
        return count >= len(self.params) if self.variadic else count == len(self.params)


@dataclass(frozen=True)
class Function:
    name: str
    doc: str
    example: str
    overloads: tuple[Overload, ...]

    def arity_text(self) -> str:
        low = min(len(o.params) for o in self.overloads)
        if any(o.variadic for o in self.overloads):
            return f"at least {low}"
        high = max(len(o.params) for o in self.overloads)
        return str(low) if low == high else f"{low} to {high}"


REGISTRY: dict[str, Function] = {}


def register(name: str, doc: str, example: str, *overloads: Overload) -> None:
    """Declare a standard function (once: a second registration of a name is a programming error)."""
    if name in REGISTRY:
        raise ValueError(f"standard function {name!r} registered twice")
    REGISTRY[name] = Function(name, doc, example, overloads)


def function(name: str, doc: str, example: str, params: tuple[ParamKind, ...], result: ResultKind,
             variadic: bool = False) -> Callable:
    """Decorator form of `register` for a function with one overload."""
    def wrap(build: Callable[[Call], Fn]) -> Callable[[Call], Fn]:
        register(name, doc, example, Overload(params, result, build, variadic))
        return build
    return wrap


def compile_call(compiler: ExpressionCompiler, function_: Function, node: s.Call, scope: Scope) -> tuple[Fn, t.Kind]:
    """Check a call against the function's declaration and build its closure."""
    overload = next((o for o in function_.overloads if o.accepts(len(node.args))), None)
    if overload is None:
        compiler.diag.error(node.pos, f"{node.name}() takes {function_.arity_text()} argument(s), "
                                      f"given {len(node.args)}", code="SR403")
        return const(None), t.ANY
    args, kinds = [], []
    for index, arg in enumerate(node.args):
        wanted = overload.params[min(index, len(overload.params) - 1)]
        what = _argument_words(node.name, index, len(node.args))
        fn, kind = _argument(compiler, arg, scope, wanted, what)
        args.append(fn)
        kinds.append(kind)
    built = overload.build(Call(compiler, node, scope, args, kinds))
    if isinstance(built, tuple):
        return built
    result = overload.result(kinds) if callable(overload.result) else overload.result
    return built, result


def _argument(compiler: ExpressionCompiler, arg: s.Node, scope: Scope, wanted: ParamKind,
              what: str) -> tuple[Any, t.Kind]:
    if wanted is SEQUENCE:
        return compiler.sequence(arg, scope, what)
    if wanted is LIST_OR_ZONE or wanted is VALUE:
        return compiler.compile(arg, scope)
    if wanted is FIELD:
        if isinstance(arg, s.Literal) and isinstance(arg.value, str):
            return arg.value, t.STR
        compiler.diag.error(arg.pos, f"{what.split(' of ')[-1]} needs the field's name as a quoted text")
        return None, t.STR
    fn, kind = compiler.compile(arg, scope)
    if kind == t.ZONE and t.is_list(wanted):
        return compiler.as_list(fn, kind), t.list_of(t.COMPONENT)
    if not t.compatible(kind, wanted):
        compiler.diag.error(arg.pos, f"{what} must be {t.describe(wanted)}, not {t.describe(kind)}")
    return fn, kind


def _argument_words(name: str, index: int, count: int) -> str:
    if count == 1:
        return f"the argument of {name}()"
    if index < len(ORDINALS):
        return f"the {ORDINALS[index]} argument of {name}()"
    return f"an argument of {name}()"
