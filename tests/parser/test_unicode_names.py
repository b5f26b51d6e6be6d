"""Atoms and variables in any script, as SWI-Prolog reads them: a letter that is not upper case
starts an atom, an upper-case letter or _ a variable; they print back as they were typed."""

from __future__ import annotations

import pytest

from sym.core.logic.parser import parse_one
from sym.core.logic.terms import Var, format_const


@pytest.mark.parametrize("text", ["vé(ñandú, 東京).", "città(torino).", "père(jean, zoë).", "город(москва)."])
def test_unicode_atoms_parse_and_print_back_unquoted(text):
    assert str(parse_one(text)) + "." == text


def test_an_upper_case_letter_of_another_script_starts_a_variable():
    rule = parse_one("parent(Émile, Жан) :- x(Émile, Жан).")
    assert rule.head.args == (Var("Émile"), Var("Жан"))


@pytest.mark.parametrize("atom, shown", [("ñandú", "ñandú"), ("Émile", "'Émile'"), ("o'brien", "'o\\'brien'"),
                                         ("東京", "東京"), ("1x", "'1x'")])
def test_atoms_are_quoted_only_where_a_reader_needs_it(atom, shown):
    assert format_const(atom) == shown


def test_a_unicode_fact_answers_a_query(sym):
    from sym.repl.render import to_text

    assert sym("vé(ñandú, 東京).").ok
    assert to_text(sym("?- vé(X, Y).")).splitlines()[0] == "X = ñandú, Y = 東京"
