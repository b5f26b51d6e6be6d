"""Z3 formulas are size-checked before they are built: a nested Sum that would expand to a
million terms is one clear line at once, not minutes of building before any deadline."""

from __future__ import annotations

import time

import pytest

from sym.core.reason.pot.build import MAX_SUM_TERMS, BuildError, build
from sym.core.reason.pot.schema import load_program


def program(members: int, depth: int) -> dict:
    expr = " + ".join(f"w(v{i})" for i in range(depth))
    for i in reversed(range(depth)):
        expr = f"Sum([v{i}], {expr})"
    return {"sorts": [{"name": "Person", "type": "DeclareSort"}],
            "functions": [{"name": "w", "domain": ["Person"], "range": "IntSort"}],
            # a group holds at most 2,000 members (the schema's bound): more come in several groups
            "constants": {f"people{g}": {"sort": "Person", "members": [f"p{i}" for i in range(g, min(g + 2000, members))]}
                          for g in range(0, members, 2000)},
            "variables": [{"name": f"v{i}", "sort": "Person"} for i in range(depth)],
            "knowledge_base": [expr + " > 0"]}


def test_a_nested_sum_of_a_thousand_terms_is_refused_before_building():
    started = time.monotonic()
    with pytest.raises(BuildError, match=r"Sum would expand to 1,000,000 terms") as caught:
        build(load_program(program(1000, 2)))
    assert time.monotonic() - started < 5      # refused up front (building took 135 s)
    assert caught.value.hint and "knowledge_base[0]" in caught.value.message


def test_sums_across_a_program_share_one_cap():
    members = MAX_SUM_TERMS // 2 + 1
    prog = program(members, 1)
    prog["knowledge_base"] *= 2                # two Sums of 5,001 terms each
    with pytest.raises(BuildError, match="at most 10,000"):
        build(load_program(prog))


def test_a_sum_within_the_cap_builds():
    built = build(load_program(program(1000, 1)))
    assert len(built.background) == 1
    built = build(load_program(program(10, 3)))   # 10 * 10 * 10 nested
    assert len(built.background) == 1
