"""The adversarial lists (tests/english/adversarial.py): sentences written before the rules that read
them, as people write them. Each reads to its logic or is refused, and whatever is read passes the
round trip (its canonical form reads back to the same clauses)."""

from __future__ import annotations

import pytest

from sym.core.reason.swm.english import question_goal, translate, why_not
from sym.core.reason.swm.english.statements import misread
from tests.english.adversarial import QUESTIONS, STATEMENTS
from tests.english_lexicon import normal_clauses, normal_query


@pytest.mark.parametrize(("sentence", "expected"), STATEMENTS, ids=[s for s, _ in STATEMENTS])
def test_a_sentence_reads_to_its_logic_or_is_refused_with_a_reason(sentence, expected):
    found = translate(sentence)
    if expected is None:
        assert found is None or not found.clauses, f"{sentence!r} gave {found.clauses}"
        assert why_not(sentence)
        return
    assert found is not None, f"{sentence!r} refused: {why_not(sentence)}"
    assert _normal(found.clauses) == _normal(expected)
    assert found.paraphrase, "every reading has a canonical form"
    if any(c.startswith(":-") for c in expected):       # a count: its canonical form reads back as it
        again = translate(found.paraphrase)
        assert again is not None and again.clauses == found.clauses
    else:
        assert misread(tuple(found.clauses), found.written) is None


def _normal(clauses):
    """Clauses up to variable names and body order (a constraint with a count: as written)."""
    counts = sorted(c for c in clauses if c.startswith(":-"))
    return normal_clauses([c for c in clauses if not c.startswith(":-")]), counts


@pytest.mark.parametrize(("question", "expected"), QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_a_question_asks_its_goal_or_is_refused(question, expected):
    goal = question_goal(question)
    if expected is None:
        assert goal is None, f"{question!r} asked {goal}"
        return
    assert goal is not None, f"{question!r} refused"
    if goal.kind == "every" or goal.query.startswith("aggregate_all("):     # compared as written
        assert (goal.kind, goal.query) == expected
        return
    assert (goal.kind, normal_query(goal.query)) == (expected[0], normal_query(expected[1]))
