"""Soufflé's own test programs with numbers (tests/engine/souffle/, translated by
benchmarks/souffle_numbers.py) and the check that an engine derives exactly Soufflé's expected
output tuples: one check for the native engine's test and the DuckDB backend's."""

from __future__ import annotations

import json
from pathlib import Path

from sym.core.logic.parser import parse_query
from sym.core.logic.terms import format_const

FIXTURES = Path(__file__).parent / "souffle"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.pl"))


def program_text(name: str) -> str:
    """The fixture's program, as sym's text."""
    return (FIXTURES / f"{name}.pl").read_text()


def assert_souffles_tuples(engine, name: str) -> None:
    """Each relation Soufflé outputs for the fixture has exactly Soufflé's tuples in `engine`
    (one that has been given the fixture's program)."""
    expected = json.loads((FIXTURES / f"{name}.json").read_text())["relations"]
    for relation, spec in expected.items():
        width = len(spec["columns"])
        names = [f"A{i}" for i in range(width)]
        query = format_const(relation) + (f"({', '.join(names)})" if width else "")
        got = {tuple(a[v] for v in sorted(a, key=lambda v: int(v.name[1:]))) for a in engine.solve(parse_query(query))}
        want = {tuple(t) for t in spec["tuples"]}
        assert got == want, f"{relation}: missing {sorted(want - got, key=repr)[:5]}, extra {sorted(got - want, key=repr)[:5]}"
