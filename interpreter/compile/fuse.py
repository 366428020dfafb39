"""Fusing expression closures into one Python function per expression.

Each expression node is first a closure; composing closures costs one Python call per node. Here
a node also gets a *source form* built from snowrules' own fixed templates, so that a whole
expression becomes one generated function. What a ruleset wrote never becomes source text: its
values (constants, field tables, texts) are passed in the function's namespace under generated
names, and only integers that snowrules computed itself (slots, zone and counter indexes) are
written as literals. Anything without a source form is called as a closure from the fused code.
"""
from __future__ import annotations

import re
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from snowrules.compile.generated_names import next_number
from snowrules.language.diagnostics import Position, RuntimeRulesError

Fn = Callable[[Any, list], Any]
GENERATED_PREFIX = "<snowrules"  # every file name of generated code starts so (see is_generated)
GENERATED = "<snowrules-fused>"  # the file name of generated code compiled alone
MAX_DEPTH = 24  # fused code nests no deeper than this; deeper parts are called instead
def code(fn: Fn) -> tuple[str, dict, int]:
    """The source form of a closure: (source, namespace, depth)."""
    src = getattr(fn, "src", None)
    if src is not None:
        return src, fn.ns, fn.depth
    slot = getattr(fn, "slot", None)
    if slot is not None:
        return f"env[{int(slot)}]", {}, 1
    constant = getattr(fn, "constant", None)
    if constant is not None and literal(constant[0]) is not None:
        return literal(constant[0]), {}, 1
    name = f"_v{next_number()}"
    if constant is not None:
        return name, {name: constant[0]}, 1
    return f"{name}(st, env)", {name: fn}, 1


def literal(value: Any) -> str | None:
    """The source text of a number, true/false or none (nothing else is ever written as text)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(int(value))
    return None


def simple(fn: Fn) -> bool:
    """Cheap and pure to evaluate twice (a local slot or a constant)."""
    return getattr(fn, "slot", None) is not None or getattr(fn, "constant", None) is not None


def fused(template: str, parts: list[Fn] = (), values: list[Any] = (), ints: list[int] = ()) -> Fn:
    """A generated function for `template`, where {p0}.. are the parts' source forms, {v0}.. names
    bound to `values`, and {i0}.. integers computed by snowrules."""
    names: dict[str, str] = {}
    namespace: dict[str, Any] = {}
    depth = 0
    for i, part in enumerate(parts):
        src, ns, part_depth = code(part)
        if part_depth >= MAX_DEPTH:  # keep the generated code shallow: call this part instead
            name = f"_v{next_number()}"
            src, ns, part_depth = f"{name}(st, env)", {name: part}, 1
        names[f"p{i}"] = src
        namespace.update(ns)
        depth = max(depth, part_depth)
    for i, value in enumerate(values):
        name = f"_v{next_number()}"
        names[f"v{i}"] = name
        namespace[name] = value
    for i, number in enumerate(ints):
        names[f"i{i}"] = str(int(number))
    return from_source(template.format(**names), namespace, depth + 1)


def from_source(src: str, namespace: dict, depth: int) -> Fn:
    """The generated function of an expression source assembled by this module's callers from
    their templates (never from ruleset text), compiled when first called (see `_on_first_call`)."""
    src = "(" + src + ")"
    fn = _on_first_call("lambda st, env: " + src, "eval", f"_e{next_number()}", dict(namespace))
    fn.src, fn.ns, fn.depth = src, namespace, depth
    return fn


# Most generated functions are never called: an expression's parts are fused into the expression
# that holds them, and only the outermost runs (a big ruleset builds some 40,000 and calls a few
# thousand; compiling them all was half of its compile time). So a generated function starts as a
# stub that compiles its source on its first call and takes the compiled code as its own: later
# calls run the generated code directly, at no cost.
_SELF, _COMPILE = "__snowrules_self__", "__snowrules_compile__"
_STUB = compile(f"def stub(st, env): return {_COMPILE}({_SELF})(st, env)", GENERATED, "exec")
_STUB_CODE = next(c for c in _STUB.co_consts if isinstance(c, types.CodeType))


def _on_first_call(source: str, mode: str, name: str, scope: dict) -> Fn:
    """A function of (st, env) whose code is `source` (a lambda to eval, or the def of `name` to
    exec), compiled in `scope` when it is first called."""
    fn = types.FunctionType(_STUB_CODE, scope, name)
    scope[_SELF], scope[_COMPILE], fn.__source__ = fn, _compile_now, (source, mode, name)
    return fn


def _compile_now(fn: Fn) -> Fn:
    source, mode, name = fn.__source__
    scope = fn.__globals__
    if mode == "eval":
        compiled = eval(compile(source, GENERATED, "eval"), scope)  # noqa: S307
    else:
        exec(compile(source, GENERATED, "exec"), scope)  # noqa: S102
        compiled = scope.pop(name)
    fn.__code__ = compiled.__code__
    return fn


def comprehension(source: Fn, slot: int, element: Fn | None, cond: Fn | None,
                  calls: list[str] = ()) -> Fn | None:
    """`[element for x in source if cond]` with the loop variable read in place of env[slot];
    None when a part calls a closure that might read env[slot] itself. `calls` are the source
    forms of the define calls inlined in element and cond: one whose value cannot change inside
    the loop is computed once, at its first use (see `_remembered`). A list over a plain filter
    (`[each p in in_trick() where ...]`, in_trick() a filter) goes through the filter's own
    list with both conditions, the filter's first: one comprehension, not two."""
    inner = _FILTERS.get(source) if source.__class__ is types.FunctionType else None
    if inner is not None and source.depth < MAX_DEPTH:
        parts = [(inner[1], source.ns, source.depth)]
    else:
        inner = None
        parts = [code(source)]
    # Python forbids an assignment expression in a comprehension's iterable: such a list is
    # passed in as a lambda's argument, `(lambda _it: [... for x in _it ...])(SOURCE)`
    passed = fresh("_it") if ":=" in parts[0][0] else None
    item = f"_x{next_number()}"
    texts = []
    for part in (element, cond):
        if part is None:
            texts.append(None)
            continue
        src, ns, depth = code(part)
        if "(st, env)" in src or depth >= MAX_DEPTH:
            return None
        parts.append((src, ns, depth))
        texts.append(src.replace(f"env[{int(slot)}]", item))
    if inner is not None:  # the filter's condition, on this loop's name, comes first
        first_test = re.sub(rf"\b{inner[0]}\b", item, inner[2])
        texts[1] = first_test if texts[1] is None else f"({first_test}) and ({texts[1]})"
    namespace: dict = {}
    for _, ns, _ in parts:
        namespace.update(ns)
    depth = max(d for _, _, d in parts) + 1
    remembered, cached = _remembered(texts, slot, calls, namespace)
    if cached:
        text = _listing(item, parts[0][0], passed, remembered, cached)
        try:  # Python refuses `:=` in a nested comprehension's iterable: then nothing is remembered
            compile(f"lambda st, env: ({text})", GENERATED, "eval")  # from_source compiles only when called
        except SyntaxError:
            pass
        else:
            listing = from_source(text, {**namespace, UNKNOWN_NAME: UNKNOWN}, depth)
            _note_exists(listing, item, parts[0][0], passed, remembered, cached)
            return listing
    listing = from_source(_listing(item, parts[0][0], passed, texts, []), namespace, depth)
    _note_exists(listing, item, parts[0][0], passed, texts, [])
    return _folded(listing, source, texts) or listing


_READS_GAME = re.compile(r"\b(st|env)\b")  # generated text that reads the state or a name


def _folded(fn: Fn, source: Fn, texts: list[str | None]) -> Fn | None:
    """A comprehension over a constant list whose element and condition read neither the state
    nor another name (`[zone[i] for each i in 1..7]`: the zones' numbers) is the same list
    every time: worked out once, here, and copied when it runs (a list value is the reader's).
    None when it is not such a list, or when working it out fails (it then fails when it
    runs, at its rule, as before)."""
    if getattr(source, "constant", None) is None:
        return None
    if any(text is not None and _READS_GAME.search(text) for text in texts):
        return None
    try:
        value = fn(None, None)
    except Exception:  # noqa: BLE001 - a bound check that fails: left to fail when the rule runs
        return None
    if not all(item is None or item.__class__ in (int, str, bool) for item in value):
        return None
    name = f"_v{next_number()}"
    return from_source(f"{name}[:]", {name: value}, 1)


# A filter whose condition holds a list of its own (`[each n in L where empty([each k in ...])]`)
# -> how to ask only whether any item passes, stopping at the first (see `exists`).
_EXISTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# A filter whose condition only compares a field of the item with a value that does not change
# inside the loop (`[each c in L where c.kind == k]`) -> the field's table and the value's text
# (see `member`).
_MEMBER: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# (a variable, `(st.vars[N])`, is such a value too: an expression only reads the game)
_FIELD_EQUALS = re.compile(r"\(\((_v\d+)\[(_x\d+)\]\) == (_v\d+|env\[\d+\]|-?\d+|True|False|\(st\.vars\[\d+\]\))\)")


def _note_exists(listing: Fn, item: str, source: str, passed: str | None, texts: list, cached: list[str]) -> None:
    element_text, cond_text = texts
    _LISTINGS[listing] = Listing(item, source, element_text, cond_text, tuple(cached))
    if element_text is None and cond_text is not None and " for " in cond_text:
        _EXISTS[listing] = (item, source, passed, cond_text, cached)
    if element_text is None and cond_text is not None and not cached and passed is None:
        _FILTERS[listing] = (item, source, cond_text)
    if element_text is None and cond_text is not None and not cached:
        found = _FIELD_EQUALS.fullmatch(cond_text)
        if found is not None and found.group(2) == item \
                and type(listing.ns.get(found.group(1))) in (list, tuple, dict):
            _MEMBER[listing] = (found.group(1), found.group(3), source)


@dataclass(frozen=True)
class Listing:
    """A comprehension's parts as generated text: its loop name, its list (may hold `:=`, which
    only a comprehension's iterable refuses), its element (None: the item itself) and condition
    (None: every item), and the names of its remembered calls (each starts as UNKNOWN_NAME)."""
    item: str
    source: str
    element: str | None
    cond: str | None
    cached: tuple[str, ...]

    def reading(self, old: str, new: str) -> Listing:
        """The same parts with the text `old` (a parameter's env[slot]) read as `new`."""
        def swap(text: str | None) -> str | None:
            return None if text is None else text.replace(old, new)
        return Listing(self.item, swap(self.source), swap(self.element), swap(self.cond), self.cached)


# Every list made by `comprehension` -> its Listing (see compile/found_by_loop.py).
_LISTINGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def listing_of(listing: Fn) -> Listing | None:
    """The parts of a list made by `comprehension`, or None for any other expression."""
    return _LISTINGS.get(listing)


# A plain filter (`[x for x in L if COND]`, nothing remembered) -> its loop name, list and condition
# (see `filter_lines`).
_FILTERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def filter_lines(listing: Fn, target: str) -> tuple[list[str], dict] | None:
    """A plain filter as statement lines that build it into `target`, and their namespace: a
    loop that appends, where the comprehension is a call in Python 3.11 (for a loop's list,
    built whole before its first round, as the comprehension was). None for any other list."""
    noted = _FILTERS.get(listing)
    if noted is None or listing.depth >= MAX_DEPTH:
        return None
    item, source, cond_text = noted
    return [f"{target} = []", f"for {item} in {source}:", f"    if {cond_text}: {target}.append({item})"], \
        dict(listing.ns)


def member(listing: Fn) -> Fn | None:
    """For a filter noted by `_note_exists` as comparing one field with a value, an expression
    true when any item's field equals it, `VALUE in map(TABLE.__getitem__, L)`: the test runs in
    C, stopping at the first match, without the comprehension's call and list (a list or an
    empty() of a few items costs mostly that call). The values compared are the rules' numbers,
    texts, true/false and none, for which `in` (identity, then ==) answers as == does. None for
    any other list."""
    noted = _MEMBER.get(listing)
    if noted is None:
        return None
    table, value, source = noted
    getter = f"_v{next_number()}"
    namespace = {**listing.ns, getter: listing.ns[table].__getitem__}
    test = f"{value} in map({getter}, ({source}))"
    if _zone_read(source):  # an empty zone answers at once, without making the map
        test = f"({source}) and {test}"
    return from_source(test, namespace, listing.depth)


_ZONE_READ = re.compile(r"st\.zones\[(?:[^\[\]]|(?:env|_v\d+)\[[^\[\]]*\])*\]")


def _zone_read(source: str) -> bool:
    """Whether generated text only reads one zone's list (`st.zones[INDEX]`, the index plain
    arithmetic on locals, slots and bound tables: no call, no assignment), so that reading it
    twice costs little and gives the same list."""
    body = source
    while body.startswith("(") and body.endswith(")") and _closes_at_end(body):
        body = body[1:-1]
    return _ZONE_READ.fullmatch(body) is not None and "(st, env)" not in body and ":=" not in body


def _closes_at_end(text: str) -> bool:
    """Whether the bracket opening `text` closes at its last character."""
    depth = 0
    for at, char in enumerate(text):
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0:
            return at == len(text) - 1
    return False


def exists(listing: Fn) -> Fn | None:
    """For a filter noted by `_note_exists`, an expression true when any item passes its
    condition, stopping at the first one (`any(True for x in L if COND)`): where the condition
    builds lists of its own, stopping early saves them; a plain condition is faster as the list
    itself. None for any other list."""
    noted = _EXISTS.get(listing)
    if noted is None:
        return None
    item, source, passed, cond_text, cached = noted
    return from_source(_listing(item, source, passed, [None, cond_text], cached, exists=True),
                       listing.ns if not cached else {**listing.ns, UNKNOWN_NAME: UNKNOWN}, listing.depth)


def _listing(item: str, source: str, passed: str | None, texts: list[str | None], cached: list[str],
             exists: bool = False) -> str:
    element_text, cond_text = texts
    if exists:
        src = f"any(True for {item} in {passed or source} if {cond_text})"
    else:
        src = f"[{element_text or item} for {item} in {passed or source}"
        src += f" if {cond_text}]" if cond_text else "]"
    if cached:  # each remembered value starts unknown at every evaluation of the list
        starts = " is ".join(f"({name} := {UNKNOWN_NAME})" for name in cached)
        src = f"({src} if {starts} is {UNKNOWN_NAME} else None)"
    if passed:
        src = f"(lambda {passed}: {src})({source})"
    return src


UNKNOWN = object()  # a remembered call's value before its first use
UNKNOWN_NAME = "_unknown"
_NAME = re.compile(r"\b_[a-z]+\d+\b")
_BOUND = re.compile(r"\(\s*(_[a-z]+\d+) :=|\bfor (_[a-z]+\d+) in\b")


def _remembered(texts: list[str | None], slot: int, calls: list[str], namespace: dict):
    """The element and condition texts with each define call that does not depend on the loop
    computed once per evaluation of the list, lazily: `(_h if _h is not UNKNOWN else (_h :=
    CALL))`, so that a call the rules would never have reached (an empty list, a condition cut
    short) is still never made. Expressions only read the game, so a call whose text reads
    neither the loop variable (env[slot]) nor a name bound inside the loop gives one value for
    the whole loop. Returns the texts and the names of the remembered values."""
    loop_text = " ".join(text for text in texts if text)
    varying = {m.group(1) or m.group(2) for m in _BOUND.finditer(loop_text)} | {f"env[{int(slot)}]"}
    cached: list[str] = []
    done: list[str] = []
    for call in sorted(set(calls), key=len, reverse=True):
        if call not in loop_text or f"env[{int(slot)}]" in call or any(call in outer for outer in done):
            continue
        own = {m.group(1) or m.group(2) for m in _BOUND.finditer(call)}
        free = {name for name in _NAME.findall(call) if name not in own and namespace.get(name, None) is None}
        if free & varying:
            continue
        name = fresh("_h")
        lazy = f"({name} if {name} is not {UNKNOWN_NAME} else ({name} := {call}))"
        texts = [text.replace(call, lazy) if text else text for text in texts]
        loop_text = " ".join(text for text in texts if text)
        cached.append(name)
        done.append(call)
    return texts, cached


def read_only(fn: Fn) -> Fn:
    """`fn` for a comprehension that only goes through its list: a folded constant list without
    the copy that guards it against a caller changing it (the comprehension makes its own)."""
    src, namespace, depth = code(fn)
    found = re.fullmatch(r"\((_v\d+)\[:\]\)", src)
    if found is None or found.group(1) not in namespace:
        return fn
    return from_source(found.group(1), {found.group(1): namespace[found.group(1)]}, depth)


def read_only_list(fn: Fn) -> tuple[Fn, int | None]:
    """`fn` for a loop that only goes through its list (the loop variable gets its items, nobody
    gets the list): `read_only`'s folded constant list without its copy, and that list's length
    (known while compiling: no len() each time the loop starts), or `fn` and None."""
    plain = read_only(fn)
    if plain is fn:
        return fn, None
    _, namespace, _ = code(plain)
    (value,) = namespace.values()
    return plain, len(value)


def substituted(body: Fn, bindings: list[tuple[int, Fn]]) -> Fn | None:
    """A define's body with each parameter read from a Python local that its argument is
    assigned to, as one generated expression: `(BODY if (_a := ARG) is _a else None)` (the test
    is always true; it only orders the assignment before the body). None when the body calls a
    closure (which would read the parameter from the environment) or nests too deeply."""
    src, namespace, depth = code(body)
    if depth >= MAX_DEPTH or "(st, env)" in src:
        return None
    namespace = dict(namespace)
    assignments, locals_ = [], []
    for slot, arg in bindings:
        arg_src, arg_ns, arg_depth = code(arg)
        if arg_depth >= MAX_DEPTH:
            return None
        name = f"_a{next_number()}"
        src = src.replace(f"env[{int(slot)}]", name)
        assignments.append(f"({name} := {arg_src}) is {name}")
        locals_.append((slot, name, arg_src))
        namespace.update(arg_ns)
        depth = max(depth, arg_depth)
    inlined = from_source(f"{src} if {' and '.join(assignments)} else None", namespace, depth + 1)
    _ARGUMENT_LOCALS[inlined] = tuple(locals_)
    return inlined


# A define's body inlined by `substituted` -> (parameter slot, local, argument's text) of each
# parameter, in the order they are assigned (see compile/found_by_loop.py).
_ARGUMENT_LOCALS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def argument_locals(inlined: Fn) -> tuple[tuple[int, str, str], ...] | None:
    return _ARGUMENT_LOCALS.get(inlined)


def with_parameters(body: Fn, slots: list[int]) -> Callable | None:
    """`body` as a generated function `(st, a0, a1, ...)` reading env[slots[i]] from its i-th
    parameter: an expression that needs no environment of its own (a component's field
    expression, whose only locals are `me` and `this`). None when it reads any other slot or
    calls a closure (which would read the environment)."""
    src, namespace, depth = code(body)
    if depth >= MAX_DEPTH or "(st, env)" in src:
        return None
    names = [f"_a{next_number()}" for _ in slots]
    for slot, name in zip(slots, names):
        src = src.replace(f"env[{int(slot)}]", name)
    if "env[" in src:
        return None
    return eval(compile(f"lambda st, {', '.join(names)}: {src}", GENERATED, "eval"), dict(namespace))  # noqa: S307


# ---- statements: one generated function per block of native statements --------------------
MAX_NESTING = 10  # Python allows 20 nested blocks; deeper statements are called instead


def block_code(fn: Fn) -> tuple[list[str], dict, int]:
    """A native statement as lines of source: (lines, namespace, nesting)."""
    lines = getattr(fn, "lines", None)
    if lines is not None and fn.nesting < MAX_NESTING:
        return lines, fn.ns, fn.nesting
    name = f"_v{next_number()}"
    return [f"{name}(st, env)"], {name: fn}, 0


def expression(fn: Fn) -> tuple[str, dict]:
    """An expression's source form for use inside a statement."""
    src, ns, depth = code(fn)
    if depth >= MAX_DEPTH:
        name = f"_v{next_number()}"
        return f"{name}(st, env)", {name: fn}
    return src, ns


def indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines] or ["    pass"]


def statement(lines: list[str], namespace: dict, nesting: int) -> Fn:
    """A generated function running `lines` (snowrules' templates only; see the module text)."""
    name = f"_s{next_number()}"
    source = f"def {name}(st, env):\n" + "\n".join(indent(lines))
    scope = dict(namespace)
    scope[SOURCE] = source.splitlines()  # read back by position_of_error
    fn = _on_first_call(source, "exec", name, scope)
    fn.lines, fn.ns, fn.nesting = lines, namespace, nesting
    return fn


def definition(source: str, name: str, namespace: dict) -> Fn:
    """The function `name` that `source` defines (snowrules' templates only; see the module
    text), compiled now: for functions whose arguments are not (st, env), such as an effect's
    entry (compile/generated_module.py)."""
    exec(compile(source, GENERATED, "exec"), namespace)  # noqa: S102
    return namespace.pop(name)


# Where each generated line came from: a statement's lines begin with a `# @NAME` comment, NAME
# bound in the function's namespace to the rule's position; a runtime error is reported at the
# nearest such mark above the failing line. Everything lives in the generated functions' own
# namespaces, so it goes away with the program that holds them.
SOURCE = "__snowrules_source__"


def mark(position, namespace: dict) -> str:
    """A comment line naming `position`, which is bound in `namespace` (that of the lines), and
    saying it (`# @_p12 rules.sr:40:9`) for a person reading the generated code. The text is
    a file name, so anything but printable characters is replaced: it never ends the comment."""
    name = fresh("_p")
    namespace[name] = position
    return f"# @{name} {printable(str(position))}"


def printable(text: str) -> str:
    """`text` (a file name, an option's value) with every character that is not printable
    replaced by `?`, so that it never ends a comment or a line of generated code."""
    if text.isprintable():  # nearly always: a file name and a position
        return text
    return "".join(character if character.isprintable() else "?" for character in text)


def is_generated(filename: str) -> bool:
    """Whether code of this file name is generated by snowrules (fused, or a generated module)."""
    return filename.startswith(GENERATED_PREFIX)


def marked_position(scope: dict, line_number: int | None):
    """The rule position named by the nearest `# @` mark at or above `line_number` (1-based) of
    the generated code whose namespace is `scope`, within the same function (a generated module
    holds many: the search stops at the `def` that starts it), or None."""
    lines = scope.get(SOURCE)
    if lines is None or line_number is None:
        return None
    for line in reversed(lines[:line_number]):
        if line.startswith("def "):
            return None
        text = line.strip()
        if text.startswith("# @"):
            found = scope.get(text[3:].split(" ", 1)[0])
            return found if isinstance(found, Position) else None
    return None


def line_running(frame) -> int | None:
    """The line a frame is at: `f_lineno`, or, where Python has none for the instruction it was
    stopped at (a signal between two lines), the line of the last instruction that has one."""
    if frame.f_lineno is not None:
        return frame.f_lineno
    found = None
    for start, _, number in frame.f_code.co_lines():
        if start > frame.f_lasti:
            break
        if number is not None:
            found = number
    return found


def position_of_error(traceback):
    """The rule position of the innermost generated line in a traceback, or None."""
    found = None
    while traceback is not None:
        frame = traceback.tb_frame
        if is_generated(frame.f_code.co_filename):
            found = marked_position(frame.f_globals, traceback.tb_lineno) or found
        traceback = traceback.tb_next
    return found


# The Python errors that a rule's mistake (a none value, a wrong kind, a division by zero) shows
# up as; any other exception is a bug of snowrules itself and keeps its traceback.
PYTHON_ERRORS = (TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError, RecursionError)


def rules_error(error: BaseException, fallback: Position, when: str, hint: str = "") -> RuntimeRulesError:
    """A Python error raised by compiled rules, as the designer's error at the rule that failed
    (the innermost generated line in its traceback, else `fallback`): the one place that maps
    Python's errors to rules (the generated game, the OpenSpiel adapter and the compiler's checks
    use it).
    `when` says what was running ("while the game ran")."""
    where = position_of_error(error.__traceback__) or fallback
    if isinstance(error, ZeroDivisionError):
        message = "a division by zero"
    elif isinstance(error, RecursionError):
        message = "the rules nest too deeply"
    elif "NoneType" in str(error):
        message = "a value is none where this rule needs one (find() or first() found nothing?)"
    else:
        message = "a value is not of the kind this rule expects"
    return RuntimeRulesError.at(where, f"{message}, {when}", hint or f"Python said: {error}")


def fresh(prefix: str = "_x") -> str:
    return f"{prefix}{next_number()}"  # numbered per program: generated_names.py
