"""Positions and the errors a designer sees.

Every mistake in a ruleset, a component list, a scenario, a log or on the command line becomes a
`Diagnostic` that knows its `path:line:col`. Checks collect diagnostics instead of stopping at
the first, so `snowrules validate` can report them all at once.
"""
from __future__ import annotations

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


@dataclass
class CallRecord:
    """One expansion of a definition at a call: which problems (indexes of diagnostics) its body met."""

    name: str
    at: Position
    met: set[int]


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

    def enter_call(self, name: str, at: Position) -> None:
        """A definition's body starts being checked for the call at `at`."""
        record = CallRecord(name, at, set())
        self.call_records.append(record)
        self.calls.append((name, at, record))

    def leave_call(self) -> None:
        self.calls.pop()

    def relocate_call_errors(self) -> None:
        """Errors in a callee's body that only some calls cause are those calls' mistakes (swapped
        or wrong arguments): report one error at each such call, naming the first problem, and
        not the body. A body that fails for every call keeps its own errors (with their calls)."""
        clean = {r.name for r in self.call_records if not r.met}
        moved: dict[int, Diagnostic] = {}
        dropped: set[int] = set()
        # the innermost call first: of nested calls that all meet a problem, the one closest to it
        # is the one whose arguments do not fit (a body compiled once per argument kinds has one
        # record for all its later calls: compile/procedure_calls.py)
        for record in reversed(self.call_records):
            if record.name not in clean or not record.met:
                continue
            inside = [i for i in sorted(record.met)
                      if i not in dropped and self.items[i].position.line != record.at.line]
            if not inside or any(i in moved for i in inside):
                continue
            first = self.items[inside[0]]
            dropped.update(inside)
            moved[inside[0]] = Diagnostic(record.at, f"the arguments of this call do not fit {record.name!r}: "
                                          f"{first.message} (at {first.position})", "are two arguments swapped?",
                                          code="SR402")
        if moved or dropped:
            self.items = [moved.get(i, d) for i, d in enumerate(self.items) if i not in dropped or i in moved]
            self.call_records, self._chains = [], {}

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
