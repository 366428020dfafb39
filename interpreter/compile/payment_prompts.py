"""What a payment that asks its payer shows: what is paid for, how much is due and what the
payer holds, "Repair: pay 2 (you hold coins 1, gems 3)".

A payment asks when its payer chooses among ways to pay (compile/costs.py). The ways are its
options; the prompt says what they are for. `pay ... as "TEXT"` gives what is paid for in the
rules' words, with values in braces as a decision's prompt (language/prompt_text.py); the
interpreter adds the amount due, its mode ("pay", "pay at least", "pay up to") and the counters
that pay, each by its name and value as the payer holds them when asked (play/prompts.py:
counter_reading). A payment without a text shows these alone. The prompt rides on the payment's
step as a decision's does (compile/prompt_values.py), so logs keep the payment's plain name.
"""
from __future__ import annotations

from snowrules.compile.costs import PayStep, may_ask
from snowrules.compile.prompt_values import COUNTERS, Part, PromptValues, compiled_parts, with_prompt
from snowrules.compile.scope import Scope
from snowrules.language import syntax as s
from snowrules.model.costs import Mode

VERBS = {Mode.EXACT: "pay", Mode.AT_LEAST: "pay at least", Mode.UP_TO: "pay up to"}


def payment_step(compiler, node: s.Pay, scope: Scope) -> PayStep:
    """`compiler.pay_step` (a StatementCompiler's) with the prompt its payer reads when asked. The
    text is compiled in the payment's scope before the worth paid (`as NAME`) is named: it is not
    known while the payer is asked."""
    text = compiled_parts(compiler.x, node.text, scope) if node.text is not None else ()
    step = compiler.pay_step(node, scope)
    if not may_ask(node):  # paid without asking (the parser warns of a text there: SR730)
        return step
    return with_prompt(step, PromptValues(payment_parts(step, text), None, node.text.text if node.text else ""))


def payment_parts(step: PayStep, text: tuple[Part, ...]) -> tuple[Part, ...]:
    """The prompt's parts: the text's (if any) and ": ", the amount due after its verb, then the
    counters that pay, as held now."""
    verb = VERBS[step.mode] + " "
    refs = step.refs

    def held(st, env) -> list[int]:
        return [ref(st, env) for ref in refs]
    lead = f"{text[-1][0]}: {verb}" if text else verb
    return (*text[:-1], (lead, step.amount, "value", False), (" (you hold ", held, COUNTERS, True),
            (")", None, "value", False))


OFFER = "take a free action, or done"  # an offer's prompt when the rules give it none


def offer_prompt(compiler, node: s.OfferFreeActions, scope: Scope) -> PromptValues:
    """What `offer free actions to p [as "TEXT"]` shows: its text with its values (read in the
    offer's scope), else that it offers free actions and "done"."""
    if node.text is None:
        return PromptValues(((OFFER, None, "value", False),), None, OFFER)
    return PromptValues(compiled_parts(compiler.x, node.text, scope), None, node.text.text)
