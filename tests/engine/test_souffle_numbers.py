"""Soufflé's own test programs with numbers (tests/engine/souffle/, translated by
benchmarks/souffle_numbers.py) derive exactly Soufflé's expected output tuples in sym's engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program, parse_query
from sym.core.logic.terms import format_const

FIXTURES = Path(__file__).parent / "souffle"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.pl"))


def test_there_are_fixtures_from_soufflé():
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_soufflé_program_derives_soufflés_expected_tuples(name):
    expected = json.loads((FIXTURES / f"{name}.json").read_text())["relations"]
    engine = Engine()
    engine.add_program([item.clause for item in parse_program((FIXTURES / f"{name}.pl").read_text())])
    for relation, spec in expected.items():
        width = len(spec["columns"])
        names = [f"A{i}" for i in range(width)]
        query = format_const(relation) + (f"({', '.join(names)})" if width else "")
        got = {tuple(a[v] for v in sorted(a, key=lambda v: int(v.name[1:]))) for a in engine.solve(parse_query(query))}
        want = {tuple(t) for t in spec["tuples"]}
        assert got == want, f"{relation}: missing {sorted(want - got, key=repr)[:5]}, extra {sorted(got - want, key=repr)[:5]}"
