"""Expression strings are type-checked against the declarations; every error names the
JSON path, the column and the problem."""

from __future__ import annotations

import pytest

from sym.core.errors import UserError
from sym.core.reason.pot.build import build
from sym.core.reason.pot.schema import load_program
from sym.core.stop import Stop

BASE = {
    "sorts": [{"name": "Person", "type": "DeclareSort"}, {"name": "Animal", "type": "DeclareSort"}],
    "functions": [{"name": "height", "domain": ["Animal"], "range": "RealSort"},
                  {"name": "jump", "domain": ["Person"], "range": "RealSort"},
                  {"name": "likes", "domain": ["Person", "Animal"], "range": "BoolSort"}],
    "constants": {"people": {"sort": "Person", "members": ["ann"]},
                  "animals": {"sort": "Animal", "members": ["rex"]}},
    "variables": [{"name": "p", "sort": "Person"}],
}


def kb(*entries):
    return build(load_program({**BASE, "knowledge_base": list(entries)}))


@pytest.mark.parametrize("entry, message", [
    ("likes(ann, bob)", r"knowledge_base\[0\]: column 12: undefined symbol bob"),
    ("smells(ann)", r"knowledge_base\[0\]: column 1: undefined function smells"),
    ("likes(ann)", r"knowledge_base\[0\]: column 1: likes takes 2 argument\(s\), got 1"),
    ("likes(rex, ann)", r"column 7: sort mismatch: argument 1 of likes is Person, got Animal"),
    ("jump(ann) == rex", r"sort mismatch: cannot compare Real with Animal"),
    ("jump(p) > 2", r"column 6: unbound variable p"),
    ("jump(ann) + 1", r"expected a true/false formula"),
    ("And(likes(ann, rex), jump(ann))", r"argument 2 of And must be true/false"),
    ("ForAll([q], q == q)", r"q is not a declared variable"),      # nothing settles its sort
    ("Sum([p], jump(p)) > 1 + ", r"column \d+: unexpected end of expression"),
])
def test_build_errors_name_path_column_and_problem(entry, message):
    with pytest.raises(UserError, match=message):
        kb(entry)


def test_errors_in_later_entries_name_their_index():
    with pytest.raises(UserError, match=r"knowledge_base\[2\]"):
        kb("likes(ann, rex)", "jump(ann) == 2.45", "likes(ann, ann)")


def test_rule_parts_are_named():
    program = {**BASE, "rules": [{"name": "r", "forall": [{"name": "a", "sort": "Animal"}],
                                  "implies": {"antecedent": "likes(ann, a)", "consequent": "height(a)"}}]}
    with pytest.raises(UserError, match=r"rules\[0\]\.implies\.consequent"):
        build(load_program(program))


def test_integers_promote_to_reals_and_binders_accept_inline_sorts():
    built = kb("jump(ann) >= 2", "Exists([{'name': 'x', 'sort': 'Animal'}], likes(ann, x))",
               "ForAll([p], Implies(likes(p, rex), jump(p) > 1.5))")
    assert len(built.background) == 3


def test_a_bound_variable_shadows_a_constant_of_the_same_name():
    program = {**BASE, "knowledge_base": ["ForAll([{'name': 'ann', 'sort': 'Person'}], jump(ann) > 0)",
                                           "jump(ann) == 0 - 1"]}
    from sym.core.reason.pot.interpret import run

    report = run(load_program(program), stop=Stop(proof_timeout=5))
    assert report.consistent is False    # ann is a Person too, so the universal claim covers her


def test_undefined_sorts_are_named():
    with pytest.raises(UserError, match=r"functions\[0\]\.range: undefined sort 'Plant'"):
        build(load_program({"functions": [{"name": "f", "domain": [], "range": "Plant"}]}))


def test_an_undeclared_function_gets_the_declaration_its_arguments_give_as_a_hint():
    with pytest.raises(UserError) as err:
        kb("ForAll([p], Implies(owns(p, rex, 2), likes(p, rex)))")
    assert "undefined function owns" in err.value.message
    assert '{"name": "owns", "domain": ["Person", "Animal", "IntSort"], "range": "BoolSort"}' in str(err.value)
    with pytest.raises(UserError) as err:          # an argument that does not build: the plain advice
        kb("owns(nobody)")
    assert err.value.hint == "declare it under functions"
