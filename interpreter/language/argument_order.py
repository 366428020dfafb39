"""Arguments given in the wrong order: a call whose arguments are named like the parameters of
what it calls, two of them swapped (`define margin(winner, loser)` called as
`margin(loser, winner)`).

The kind check cannot see such a swap when both parameters take the same kind (two players, two
numbers), and a game runs on with the wrong result: issue 29 found it among the planted mistakes
that passed validate, run and test silently. A swap of arguments named otherwise (`margin(p, q)`)
stays silent: only a scenario that expects the result catches it. This is the narrow case where
the text itself says the order: the warning costs a walk of the syntax tree, and a call whose
arguments carry other names never gets it (pylint's arguments-out-of-order is the same rule).
"""
from __future__ import annotations

from snowrules.language import syntax as s
from snowrules.language.diagnostics import Diagnostic

_CALLS = (s.Call, s.CallStatement)


def _declared(files: list[s.RulesFile]) -> dict[str, tuple[str, ...]]:
    """Each define, procedure and event with its parameters' names."""
    found: dict[str, tuple[str, ...]] = {}
    for rules in files:
        for declaration in rules.declarations:
            if isinstance(declaration, (s.FunctionDecl, s.ProcedureDecl, s.EventDecl)):
                found.setdefault(declaration.name, declaration.params)
    return found


def swapped_arguments(files: list[s.RulesFile]) -> list[Diagnostic]:
    """A warning (SR409) at each argument that is named like another parameter of the callee
    while that parameter's own argument is named like this one's: the pair swapped."""
    declared = _declared(files)
    found = []
    for rules in files:
        for node in s.walk(rules):
            if isinstance(node, _CALLS):
                callee, args = node.name, node.args
            elif isinstance(node, s.Raise):
                callee, args = node.event, node.args
            else:
                continue
            params = declared.get(callee)
            if params is None or len(params) != len(args):
                continue
            names = [arg.name if isinstance(arg, s.Name) else None for arg in args]
            for i, name in enumerate(names):
                j = params.index(name) if name in params else i
                if j > i and names[j] == params[i]:
                    found.append(Diagnostic(args[i].pos, f"`{callee}` is given `{name}` for its parameter "
                                            f"`{params[i]}` and `{params[i]}` for `{name}`: swapped?",
                                            f"`{callee}` is declared as {callee}({', '.join(params)})",
                                            severity="warning", code="SR409"))
    return found
