"""Positions and the errors a designer sees.

Every mistake in a ruleset, a component list, a scenario, a log or on the command line becomes a
`Diagnostic` that knows its `path:line:col`. Checks collect diagnostics instead of stopping at
the first, so `snowrules validate` can report them all at once.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from snowrules.language.codes import classify


@dataclass(frozen=True)
class Position:
    """Where something was written: a file and a 1-based line and column."""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """A position from its text `path:line:col` (as decisions and log events keep it)."""
        path, _, rest = text.rpartition(":")
        path, _, line = path.rpartition(":")
        if path and line.isdigit() and rest.isdigit():
            return cls(path, int(line), int(rest))
        return cls(text)



@dataclass(frozen=True)
class Diagnostic:
    """One problem found in an input, with its position and, where it helps, a hint."""

    position: Position
    message: str
    hint: str = ""
    severity: str = "error"
    code: str = ""  # a stable code (language/codes.py); classified from the message when not given

    def __post_init__(self) -> None:
        if not self.code:
            object.__setattr__(self, "code", classify(self.message, self.position.path))

    def __str__(self) -> str:
        text = f"{self.position}: {self.severity}: {self.message}"
        return f"{text} (hint: {self.hint})" if self.hint else text

    def with_code(self) -> str:
        """The text form with the code, as `validate` prints it (mypy's `[code]` convention keeps
        the `path:line:col: error: ` prefix that editors and scripts match)."""
        text = f"{self.position}: {self.severity}: {self.message}"
        text = f"{text} (hint: {self.hint})" if self.hint else text
        return f"{text} [{self.code}]"


class SnowrulesError(Exception):
    """Base of every error snowrules reports to a user; carries one or more diagnostics."""

    kind = "error"

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        self.diagnostics = diagnostics if isinstance(diagnostics, list) else [diagnostics]
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    @classmethod
    def at(cls, position: Position, message: str, hint: str = "", code: str = "") -> SnowrulesError:
        return cls(Diagnostic(position, message, hint, code=code))


class RulesSyntaxError(SnowrulesError):
    """The rules text does not follow the grammar. `recovered` is the syntax tree of the text
    without its lines that have errors (None when it could not be made), `skipped` the words of
    those lines: a checker can still check the rest, and not report what the lines declared."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic, recovered: object = None,
                 skipped: frozenset[str] = frozenset()):
        super().__init__(diagnostics)
        self.recovered = recovered
        self.skipped = skipped


class RulesetError(SnowrulesError):
    """A ruleset folder is broken: a missing file, a schema violation, an unknown name, a type."""


class ScenarioError(SnowrulesError):
    """A scenario file is malformed or names something the ruleset does not have."""


class LogError(SnowrulesError):
    """A game log cannot be read or replayed."""


class RuntimeRulesError(SnowrulesError):
    """The rules did something impossible while a game ran (a value of the wrong kind, a move of
    a component to a zone that does not exist, too many steps)."""


class IllegalChoiceError(SnowrulesError):
    """An agent, a scenario or a log answered a decision with an option that is not legal."""


@dataclass(eq=False)
class CallRecord:
    """One expansion of a definition at a call: which problems (indexes of diagnostics) its body
    met, and the expansion it was called from (None: from the rules themselves)."""

    name: str
    at: Position
    met: set[int]
    outer: CallRecord | None = None


# A trial of one call with two of its arguments the other way round: the hint to show (which
# arguments) when the rules then check without the problems met around the call, else None.
SwapTrial = Callable[[CallRecord], "str | None"]


class Diagnostics:
    """A collector: checks add to it, and `raise_if_any` turns what it holds into an error."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        # The definitions being expanded at a call, innermost last: (name, where it is called,
        # the record of that call). A definition's body is checked at each call with the
        # arguments' kinds, so a problem inside it also says which calls gave the values: one
        # diagnostic per problem, listing every call that meets it.
        self.calls: list[tuple[str, Position, CallRecord]] = []
        self.call_records: list[CallRecord] = []  # every expansion, for relocate_call_errors
        self._chains: dict[tuple, tuple[int, list[str]]] = {}  # problem -> (its item, its calls)

    def enter_call(self, name: str, at: Position) -> CallRecord:
        """A definition's body starts being checked for the call at `at`."""
        record = CallRecord(name, at, set(), self.calls[-1][2] if self.calls else None)
        self.call_records.append(record)
        self.calls.append((name, at, record))
        return record

    def reuse_call(self, name: str, at: Position, built: CallRecord) -> None:
        """A call of a body built before for the same argument kinds (compiled once, not checked
        again): it meets what that build met, as its own expansion would have. Without this, the
        calls around it read as clean, and a swap inside them was blamed on their callers."""
        self.call_records.append(CallRecord(name, at, set(built.met), self.calls[-1][2] if self.calls else None))
        for _, _, open_record in self.calls:
            open_record.met |= built.met

    def leave_call(self) -> None:
        self.calls.pop()

    def relocate_call_errors(self, fits_swapped: SwapTrial | None = None) -> None:
        """Errors in a callee's body that only some calls cause are those calls' mistakes (swapped
        or wrong arguments): report one error at each such call, naming the first problem, and
        not the body. A body that fails for every call keeps its own errors (with their calls).

        Of nested calls that all meet a problem, the one to blame is found from the innermost
        outwards: a call written where some expansion of it is clean (`next(s, d)` inside a define
        that other calls give a square) fails only for the values its caller passed, so the blame
        goes to the call around it; the first call whose every expansion meets a problem, of a
        definition that some other call uses cleanly, is the one whose arguments do not fit.

        A definition called at one place only has no clean call to show that its caller wrote the
        mistake: `fits_swapped` (compile/swapped_calls.py) tries that call with two arguments the
        other way round, and when the rules then check without the problems it met and without new
        ones, that call is blamed, for every problem met inside it (see `_only_calls_swapped`)."""
        clean = {r.name for r in self.call_records if not r.met}
        clean_sites = {(r.name, r.at) for r in self.call_records if not r.met}
        blamed: list[CallRecord] = []
        for record in reversed(self.call_records):  # inner calls first: each made after its caller
            if record.met and (culprit := _culprit(record, clean, clean_sites)) is not None \
                    and culprit not in blamed:
                blamed.append(culprit)
        hints: dict[int, str] = {}  # id of a record blamed by a trial -> the hint that says which pair
        if fits_swapped is not None:
            blamed = self._only_calls_swapped(blamed, clean, fits_swapped, hints)
        taken: dict[int, CallRecord] = {}  # a problem -> the first call blamed for it
        moved: dict[int, list[Diagnostic]] = {}  # a problem -> the errors that stand for it, at their calls
        blamed_sites: set[tuple[str, Position]] = set()
        for record in blamed:
            inside = [i for i in sorted(record.met) if self.items[i].position.line != record.at.line]
            # a call around one already blamed met its problems through it: not a second mistake (a
            # second call that passes the same wrong values is)
            if not inside or any(_within(taken[i], record) for i in inside if i in taken) \
                    or (record.name, record.at) in blamed_sites:  # the same call, expanded again
                continue
            blamed_sites.add((record.name, record.at))
            first = self.items[inside[0]]
            for i in inside:
                taken.setdefault(i, record)
            moved.setdefault(inside[0], []).append(Diagnostic(
                record.at, f"the arguments of this call do not fit {record.name!r}: {first.message} "
                f"(at {first.position})", hints.get(id(record), "are two arguments swapped?"), code="SR402"))
        if taken:
            self.items = [d for i, d in enumerate(self.items) for d in (moved.get(i, []) if i in taken else [d])]
            self.call_records, self._chains = [], {}

    def _only_calls_swapped(self, blamed: list[CallRecord], clean: set[str], fits_swapped: SwapTrial,
                            hints: dict[int, str]) -> list[CallRecord]:
        """`blamed` with the calls a trial of swapped arguments blames: each the only place its
        definition is called (no clean call, no other place), that met a problem no call already
        blamed explains (`put(s, p)`: the problems inside `square_of(s)` have no culprit) or
        whose problems are explained by calls blamed inside it (`most(what, p)`: its calls
        `count(p, what)`, clean elsewhere, were blamed). Such a call replaces the calls
        blamed inside every expansion of it (they met its wrong values), unless a call inside it
        (blamed, or the only call of its definition) checks clean swapped as well: the swap written
        in a body is blamed there, not on the body's caller (`define x(p, n) = gain(n, p)` called
        as `x(q, 2)`). Outer calls are tried first: the trials are few (each is a compile), and the
        calls inside one that fits are then tried only to keep a swap written in a body in place."""
        sites: dict[tuple[str, Position], list[CallRecord]] = {}
        places: dict[str, set[Position]] = {}
        for record in self.call_records:
            sites.setdefault((record.name, record.at), []).append(record)
            places.setdefault(record.name, set()).add(record.at)
        explained = set().union(*(record.met for record in blamed))
        verdicts: dict[tuple[str, Position], str | None] = {}  # a place -> its trial's hint (each tried once)

        def fits(record: CallRecord) -> str | None:
            site = (record.name, record.at)
            if site not in verdicts:
                verdicts[site] = fits_swapped(record)
            return verdicts[site]

        def only_call(record: CallRecord) -> bool:
            return bool(record.met) and record.name not in clean and len(places[record.name]) == 1

        for record in self.call_records:  # outer calls first: each recorded before the calls inside it
            site = (record.name, record.at)
            if not only_call(record) or site in verdicts:
                continue
            expansions = sites[site]
            inside = [r for r in self.call_records if r.met and (r.name, r.at) != site
                      and (r in blamed or only_call(r)) and any(_within(r, e) for e in expansions)]
            if not record.met - explained and not any(r in blamed for r in inside):
                continue
            hint = fits(record)
            if hint is None or any(fits(r) is not None for r in inside):
                continue
            blamed = [b for b in blamed if not any(_within(b, r) for r in expansions)] + [record]
            hints[id(record)] = hint
            explained = explained.union(*(r.met for r in expansions))
        order = {id(record): n for n, record in enumerate(self.call_records)}
        return sorted(blamed, key=lambda record: -order[id(record)])  # inner calls first, as before

    def error(self, position: Position, message: str, hint: str = "", code: str = "") -> None:
        if not self.calls:
            self.items.append(Diagnostic(position, message, hint, code=code))
            return
        name, at, record = self.calls[-1]
        chain = f"in {name!r} called at {at}" + "".join(
            f" (in {outer!r} called at {where})" for outer, where, _ in reversed(self.calls[:-1]))
        key = (position, message, hint)
        if key not in self._chains:
            self._chains[key] = (len(self.items), [])
            self.items.append(Diagnostic(position, message, hint, code=code))
        index, chains = self._chains[key]
        for _, _, open_record in self.calls:  # every call being expanded meets this problem
            open_record.met.add(index)
        if chain not in chains:
            chains.append(chain)
        where = "; ".join(chains)
        self.items[index] = Diagnostic(position, message, f"{hint}; {where}" if hint else where, code=code)

    def extend(self, diagnostics: list[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self, error_type: type[SnowrulesError] = RulesetError) -> None:
        if self.items:
            ordered = sorted(self.items, key=lambda d: (d.position.path, d.position.line, d.position.col))
            raise error_type(ordered)


def _within(inner: CallRecord, outer: CallRecord) -> bool:
    """Whether the expansion `inner` is `outer` or happened inside it."""
    record: CallRecord | None = inner
    while record is not None and record is not outer:
        record = record.outer
    return record is outer


def _culprit(record: CallRecord, clean: set[str], clean_sites: set[tuple[str, Position]]) -> CallRecord | None:
    """The call to blame for the problems `record` met (see relocate_call_errors): outwards from
    `record` while the call is written where another expansion was clean, the last one passed of
    a definition used cleanly elsewhere; None when there is none (the body's own mistake)."""
    culprit = record if record.name in clean else None
    while (record.name, record.at) in clean_sites and record.outer is not None and record.outer.met:
        record = record.outer
        if record.name in clean:
            culprit = record
    return culprit
