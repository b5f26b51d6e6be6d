"""Soufflé's own test programs with numbers (tests/engine/souffle/, translated by
benchmarks/souffle_numbers.py) derive exactly Soufflé's expected output tuples in sym's engine."""

from __future__ import annotations

import pytest

from sym.core.logic.engine import Engine
from sym.core.logic.parser import parse_program
from tests.engine.souffle_fixtures import NAMES, assert_souffles_tuples, program_text


def test_there_are_fixtures_from_soufflé():
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_soufflé_program_derives_soufflés_expected_tuples(name):
    engine = Engine()
    engine.add_program([item.clause for item in parse_program(program_text(name))])
    assert_souffles_tuples(engine, name)
