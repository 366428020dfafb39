"""What a decision runs after its answer, read from its syntax before it is compiled.

An `optionally` decision's block and its `else:` become one block (so the decision step needs no
special case), and a secret decision among a zone's components whose answer always holds one
needs no check for none where its block moves it. Kept apart from compile/statements.py, which
compiles the decision with its prompt (compile/prompt_values.py) and what its chooser remembers
(compile/remembered.py).
"""
from __future__ import annotations

from snowrules.language import syntax as s


def declined_or_chosen(node: s.Choose) -> s.Block | None:
    """The block a decision runs after its answer. An `optionally` decision's block runs only
    when something was chosen, its `else:` only on a decline: the block becomes
    `if VAR != none: BLOCK else: ELSE`, so the decision step itself needs no special case."""
    if not node.optional or node.count_mode is not None or node.body is None:
        return node.body
    at = node.body.pos
    chosen = s.Binary(at, "!=", s.Name(at, node.var), s.Literal(at, None))
    return s.Block(at, (s.If(at, ((chosen, node.body),), node.otherwise),))


def answer_never_none(node: s.Choose, from_zone: bool) -> bool:
    """Whether a decision's answer always holds a component in what follows it: each seat's one
    item of a simultaneous decision among a zone's components (a seat without options runs
    nothing; no answer is optional), which the block never assigns. A move of it needs no check
    for none, as a loop variable over a zone (Scope.never_none). A single seat's decision does
    go on with none when it has no options."""
    if not (from_zone and node.simultaneous and node.count_mode is None and not node.optional):
        return False
    body = declined_or_chosen(node)
    return body is not None and not any(isinstance(inner, s.Assign) and inner.name == node.var
                                         for inner in s.walk(body))
