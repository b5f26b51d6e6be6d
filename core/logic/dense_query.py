"""Queries and integrity constraints answered over a dense model without turning its tables
back into tuples: a body is planned and run set-at-a-time, and only the answers are decoded.
Returns None for what it does not run, and the caller uses the tuple runner instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sym.core.logic.columnar import MAX_KEY, decode_key, encode_key, first_occurrences
from sym.core.logic.dense import DenseModel, Evaluator, compile_rule, rule_constants, supported
from sym.core.logic.pause import Budget
from sym.core.logic.terms import Atom, Compare, Rule, Var

ORDERED = frozenset({"<", ">", "=<", ">="})


def rows(model: DenseModel, body: tuple[Any, ...], wanted: list[Var], budget: Budget) -> list[tuple[Any, ...]] | None:
    """The distinct values of `wanted` over every binding of `body`, in model order."""
    symbols = model.symbols
    rule = Rule(Atom("?", tuple(wanted)), body)
    if not supported(rule):
        return None
    if any(c not in symbols.ids for c in rule_constants([Rule(None, body)])):
        return None  # a constant the model never saw: keys would need a wider radix
    radix = max(1, len(symbols))
    if radix ** len(wanted) >= MAX_KEY:
        return None
    needs_order = any(isinstance(lit, Compare) and lit.op in ORDERED for lit in body)
    ev = Evaluator(model, budget, needs_order)
    plan = compile_rule(rule, symbols, lambda k: model.tables[k].n if k in model.tables else 0, None)
    found_keys, found_cols = [], []
    for piece in ev.chunks(plan, None):
        cols = [piece.column(v) if kind == "s" else np.full(piece.n, v, dtype=np.int64) for kind, v in plan.head]
        keys = encode_key(cols, radix, piece.n)
        first = first_occurrences(keys, radix ** len(wanted))
        found_keys.append(keys[first])
        found_cols.append([c[first] for c in cols])
    if not found_keys:
        return []
    keys = np.concatenate(found_keys)
    cols = [np.concatenate(c) for c in zip(*found_cols)] if wanted else []
    if len(found_keys) > 1:
        first = first_occurrences(keys, radix ** len(wanted))
        keys, cols = keys[first], [c[first] for c in cols]
    values = symbols.values
    if not wanted:
        return [()]
    table = np.fromiter(values, dtype=object, count=len(values))   # decoded a column at a time, by numpy's take
    return list(zip(*(table[c].tolist() for c in cols)))


def contradictions(model: DenseModel, key: str) -> list[tuple[Any, ...]]:
    """Argument tuples held both in relation `key` ('~p/n') and in its positive twin."""
    neg, pos = model.tables.get(key), model.tables.get(key[1:])
    if neg is None or pos is None or not neg.n or not pos.n:
        return []
    both = neg.keys[pos.contains(neg.keys)]
    values = model.symbols.values
    cols = [c.tolist() for c in decode_key(both, neg.radix, neg.arity)]
    return [tuple(values[i] for i in ids) for ids in zip(*cols)] if cols else [()] * len(both)

