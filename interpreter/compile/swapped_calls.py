"""A call tried with two arguments the other way round: is the caller's order the mistake?

Problems inside a definition's body are moved to the call that causes them when another call of
the same definition checks clean (language/diagnostics.py, `relocate_call_errors`). A definition
called at one place only has no such call: `put(s, p)` swapped at the only call of
`define put(p, s)` fails inside `put` (and inside the definitions it calls), and nothing in
the records tells whether the body or the call is wrong. This trial answers it the direct way:
the rules are compiled again with the call's arguments `i` and `j` exchanged in the syntax tree,
and when that compile meets none of the problems met by the outermost call around it that met
any (itself, at the top) and no problem the rules did not have, the call is to blame (SR402 at the
call, with a hint naming the pair). The outermost call's problems, not the call's own: a call
inside a define called with swapped values may check clean swapped too (`inner(q, n)` inside
`outer(q, n)` called as `outer(1, q)`), leaving the problems of the define around it.

A trial costs one compile of the rules, so it is made only for a ruleset that already has
errors, for calls of two or more arguments that are their definition's only call and met a
problem nothing else explains or only calls blamed inside it explain (then those calls are tried
too, and one that checks clean swapped keeps the blame: the swap is written in the body), at
most MAX_TRIAL_COMPILES times a compile (every pair of a call's arguments is one), and what a
trial found is kept for the next compile of the same rules (`_FOUND`).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import fields, replace
from itertools import combinations

from snowrules.language import syntax as s
from snowrules.language.diagnostics import CallRecord, Diagnostic, Diagnostics, SnowrulesError, SwapTrial

MAX_TRIAL_COMPILES = 4  # compiles of the rules tried for one compile that found problems
# What each trial compile found, by the content of the ruleset it compiled, its player count and the
# name of its variant left out: validate compiles a ruleset with a mistake for several player counts
# and variants, each with the same trials (a bundled ruleset of eight configurations, a swap in a
# procedure's only call: 32 trial compiles, 19 s of CPU, before they were kept). A trial's problems
# for one player count stand for the others' (at worst a swap is placed as at that count); any other
# change of the content (a component, an option) is another key, so a ruleset edited and checked
# again in one process is tried again.
_FOUND: OrderedDict[bytes, frozenset] = OrderedDict()
MAX_FOUND = 64
UNDECLARED = "unknown name "  # how the expression compiler says a name is declared nowhere
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

# Compiles rules files (the ruleset's own, one call changed) and returns what the compile found.
Recompile = Callable[[list[s.RulesFile]], list[Diagnostic]]
# The content key of the ruleset with those rules files (None: not kept).
ContentKey = Callable[[list[s.RulesFile]], "bytes | None"]


def swap_trial(rules: list[s.RulesFile], found: Diagnostics, recompile: Recompile,
               content: ContentKey = lambda rules: None) -> SwapTrial:
    """The trial `relocate_call_errors` asks about a call (its record): a hint when the call with
    two arguments exchanged checks without what the call met, else None."""
    before = {_key(d) for d in found.items}
    compiles = [0]

    def found_with(changed: list[s.RulesFile]) -> frozenset | None:
        """What the rules with the call changed meet: kept from an earlier trial of the same
        rules, else compiled (None past MAX_TRIAL_COMPILES, or when the rules are refused)."""
        if compiles[0] >= MAX_TRIAL_COMPILES:  # a trial kept counts too: each compile tries the same
            return None
        compiles[0] += 1
        key = content(changed)
        if key is not None and key in _FOUND:
            _FOUND.move_to_end(key)
            return _FOUND[key]
        try:
            after = frozenset(_key(d) for d in recompile(changed))
        except SnowrulesError:
            return None
        if key is not None:
            _FOUND[key] = after
            while len(_FOUND) > MAX_FOUND:
                _FOUND.popitem(last=False)
        return after

    def fits_swapped(record: CallRecord) -> str | None:
        call = _call_at(rules, record)
        if call is None or len(call.args) < 2:
            return None
        top = record  # the outermost call around it that met a problem: the swap must explain all it met
        while top.outer is not None and top.outer.met:
            top = top.outer
        if any(found.items[i].message.startswith(UNDECLARED) for i in top.met):
            return None  # a name declared nowhere stays so in any order of arguments: no compile can tell
        met = {_key(found.items[i]) for i in top.met}
        for i, j in combinations(range(len(call.args)), 2):
            if call.args[i] == call.args[j]:
                continue  # the same text both ways: the same call
            args = list(call.args)
            args[i], args[j] = args[j], args[i]
            after = found_with(_replaced(rules, call, replace(call, args=tuple(args))))
            if after is not None and not after & met and after <= before:
                return (f"with its {_ordinal(i)} and {_ordinal(j)} arguments the other way round the rules "
                        f"check without these problems: are they swapped?")
        return None
    return fits_swapped


def _key(diagnostic: Diagnostic) -> tuple:
    """A problem without the calls it was met in (its hint lists them): a trial's calls differ."""
    return diagnostic.position, diagnostic.message, diagnostic.severity


def _ordinal(index: int) -> str:
    return _ORDINALS[index] if index < len(_ORDINALS) else f"{index + 1}th"


def _call_at(rules: list[s.RulesFile], record: CallRecord) -> s.Call | s.CallStatement | None:
    """The call written at the record's place (in the rules files; a call in a component's text
    is not tried)."""
    for rules_file in rules:
        if rules_file.pos.path != record.at.path:
            continue
        for node in s.walk(rules_file):
            if isinstance(node, (s.Call, s.CallStatement)) and node.name == record.name and node.pos == record.at:
                return node
    return None


def _replaced(value, old: s.Node, new: s.Node):
    """`value` (a syntax tree, a tuple or list of them) with the node `old` (that very object)
    replaced by `new`; what does not hold it is returned as it is, not copied."""
    if value is old:
        return new
    if isinstance(value, s.Node):
        changed = {}
        for field in fields(value):
            inside = getattr(value, field.name)
            if isinstance(inside, (s.Node, tuple, list)):
                now = _replaced(inside, old, new)
                if now is not inside:
                    changed[field.name] = now
        return replace(value, **changed) if changed else value
    if isinstance(value, (tuple, list)):
        items = [_replaced(item, old, new) for item in value]
        if any(a is not b for a, b in zip(items, value)):
            return type(value)(items)
    return value
