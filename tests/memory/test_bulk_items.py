"""A bulk add and an open make their items without the general printer and count the schema per run of
facts: the texts, items and counts are the ones the one-by-one path gives."""

from __future__ import annotations

import pytest

from sym.core.logic.parser import parse_program
from sym.core.logic.terms import Atom, Var, clause_atoms, clause_text
from sym.core.memory.items import Item, made, text_of
from sym.core.memory.persist import items_from_rows
from sym.core.memory.schema import Schema

CLAUSES = """
parent_of(p5, p1).
age(bob, 42).
age(ann, -7).
big(x1, y_2, zZ).
t('Bob', a).
t(not, a).
t('false').
t('a, b', c).
t('a b', c).
t(3.5, a).
t('42', a).
~tall(bob).
café(x).
p(é).
q(a) :- p(a), not r(a).
:- p(b), q(b).
w(12345678901234567890).
"""


@pytest.mark.parametrize("located", parse_program(CLAUSES), ids=lambda loc: clause_text(loc.clause))
def test_the_text_of_a_clause_is_the_printers_text(located):
    assert text_of(located.clause) == clause_text(located.clause)


def test_atoms_that_no_parser_makes_are_printed_by_the_printer_too():
    for atom in (Atom("p", (True,)), Atom("p", ("a", Var("X"))), Atom("p", ()), Atom("p", (10 ** 5000,)),
                 Atom("not", ("a",)), Atom("P", ("a",)), Atom("p", ("a\nb",))):
        try:
            expected = clause_text(atom)
        except (TypeError, ValueError) as err:
            with pytest.raises(type(err)):
                text_of(atom)
        else:
            assert text_of(atom) == expected


def test_a_made_item_equals_the_one_the_dataclass_makes():
    clause = Atom("p", ("a",))
    built = Item("f1", "fact", clause, "P is a.", "typed", 12.5)
    fast = made("f1", "fact", clause, "P is a.", "typed", 12.5, "p(a).")
    assert fast == built and hash(fast) == hash(built) and fast.text == built.text == "p(a)."
    assert fast.to_dict() == built.to_dict()
    with pytest.raises(AttributeError):
        fast.id = "other"


def test_counting_runs_of_facts_counts_as_one_by_one():
    clauses = [loc.clause for loc in parse_program(CLAUSES + "parent_of(p1, p2).\nage(bob, 43).\n")]
    one_by_one, runs = Schema(), Schema()
    for clause in clauses:
        for atom in clause_atoms(clause):           # as WorkingMemory observed each clause
            ground = atom.args if isinstance(clause, Atom) else ()
            one_by_one.observe(atom.pred, ground, arity=len(atom.args))
    touched: set[str] = set()
    runs.observe_clauses(clauses, touched)
    assert [(k, p.count) for k, p in runs.predicates.items()] == [(k, p.count) for k, p in one_by_one.predicates.items()]
    assert list(runs.objects.items()) == list(one_by_one.objects.items())
    assert touched == set(one_by_one.predicates)


def test_stored_rows_read_back_as_their_clauses_fast_path_or_not():
    clauses = [loc.clause for loc in parse_program(CLAUSES)]
    rows = [(f"i{n}", "fact", clause_text(c) + "  ", "", "typed", float(n)) for n, c in enumerate(clauses)]
    items = items_from_rows(rows, "workspace test")
    assert [it.clause for it in items] == clauses
    assert [it.text for it in items] == [clause_text(c) for c in clauses]
    assert [it.created_at for it in items] == [float(n) for n in range(len(clauses))]
