"""The logic language as a user types it: one test per construct, then the mistakes people make."""

from __future__ import annotations

import pytest

from sym.core.errors import ParseError
from sym.core.logic.parser import parse_atom, parse_one, parse_program, parse_query
from sym.core.logic.terms import Atom, Compare, Naf, Query, Rule, Var, clause_text, is_anonymous


def clauses(text: str) -> list:
    return [item.clause for item in parse_program(text)]


def parse_error(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse_program(text)
    err = caught.value
    assert err.hint, f"no hint for {text!r}"
    return err


# -- constructs --------------------------------------------------------------------


def test_a_fact_is_a_ground_atom():
    assert clauses("father_of(joshua, don).") == [Atom("father_of", ("joshua", "don"))]


def test_quoted_atoms_hold_spaces_as_predicate_and_as_argument():
    assert clauses("'bald eagle'(x).\nsees(cow, 'bald eagle').") == [
        Atom("bald eagle", ("x",)),
        Atom("sees", ("cow", "bald eagle")),
    ]


@pytest.mark.parametrize("text, value", [
    (r"says(ann, 'it\'s').", "it's"),
    ("says(ann, 'it''s').", "it's"),
    (r"says(ann, 'back\\slash').", "back\\slash"),
    ('says(ann, "double quoted").', "double quoted"),
    ("says(ann, 'Upper').", "Upper"),
])
def test_quoted_atoms_unescape_quotes_and_backslashes(text, value):
    assert clauses(text) == [Atom("says", ("ann", value))]


def test_quoted_upper_case_atom_is_a_constant_not_a_variable():
    (fact,) = clauses("likes(ann, 'Bob').")
    assert fact.is_ground and fact.args[1] == "Bob"


@pytest.mark.parametrize("text, value", [
    ("age(bob, 42).", 42),
    ("temperature(oslo, -3).", -3),
    ("ratio(gold, 1.618).", 1.618),
    ("ratio(tiny, -0.25).", -0.25),
    ("size(sun, 1.5e3).", 1500),
])
def test_numbers_are_ints_and_floats(text, value):
    (fact,) = clauses(text)
    assert fact.args[1] == value and type(fact.args[1]) is type(value)


def test_zero_arity_atoms_as_facts_and_rules():
    assert clauses("raining.\nwet :- raining.") == [
        Atom("raining"),
        Rule(Atom("wet"), (Atom("raining"),)),
    ]


def test_a_rule_has_a_head_and_a_body_in_order():
    (rule,) = clauses("sister_of(C, A) :- father_of(B, A), daughter_of(C, B).")
    X = {n: Var(n) for n in "ABC"}
    assert rule == Rule(
        Atom("sister_of", (X["C"], X["A"])),
        (Atom("father_of", (X["B"], X["A"])), Atom("daughter_of", (X["C"], X["B"]))),
    )
    assert not rule.is_constraint


def test_strong_negation_as_fact_and_in_a_rule():
    fact, rule = clauses("~green(gary).\n~flies(X) :- penguin(X).")
    assert fact == Atom("green", ("gary",), neg=True)
    assert fact.key == "~green/1"
    assert rule.head == Atom("flies", (Var("X"),), neg=True)


def test_negation_as_failure():
    (rule,) = clauses("quiet(X) :- big(X), not red(X).")
    assert rule.body[1] == Naf(Atom("red", (Var("X"),)))


def test_negation_with_a_local_anonymous_variable():
    (rule,) = clauses("lonely(X) :- person(X), not friend_of(X, _).")
    naf = rule.body[1]
    assert isinstance(naf, Naf)
    assert naf.atom.args[0] == Var("X")
    assert is_anonymous(naf.atom.args[1])
    assert clause_text(rule) == "lonely(X) :- person(X), not friend_of(X, _)."


def test_each_anonymous_variable_is_distinct():
    (rule,) = clauses("p :- q(_, _).")
    first, second = rule.body[0].args
    assert first != second


@pytest.mark.parametrize("op", ["=", "\\=", "<", ">", "=<", ">="])
def test_each_comparison(op):
    (rule,) = clauses(f"rel(X, Y) :- height(X, H1), height(Y, H2), H1 {op} H2.")
    assert rule.body[2] == Compare(op, Var("H1"), Var("H2"))


def test_comparison_with_constants_and_the_binding_form():
    (rule,) = clauses("alias(X, Y) :- person(X), Y = X, X \\= bob, 3 < 4.")
    assert rule.body[1:] == (Compare("=", Var("Y"), Var("X")), Compare("\\=", Var("X"), "bob"), Compare("<", 3, 4))


def test_integrity_constraint_both_spellings():
    plain, with_false = clauses(":- wife_of(X, Y), husband_of(X, Y).\nfalse :- wife_of(X, Y), husband_of(X, Y).")
    assert plain == with_false
    assert plain.is_constraint and plain.head is None
    assert plain.body == (Atom("wife_of", (Var("X"), Var("Y"))), Atom("husband_of", (Var("X"), Var("Y"))))


def test_a_query():
    (query,) = clauses("?- sister_of(X, louis).")
    assert query == Query((Atom("sister_of", (Var("X"), "louis")),))
    assert query.variables() == [Var("X")]


def test_parse_query_accepts_text_without_prefix_or_dot():
    assert parse_query("sister_of(X, louis)") == parse_query("?- sister_of(X, louis).")


def test_parse_atom_refuses_variables_when_asked():
    assert parse_atom("father_of(joshua, X)").args[1] == Var("X")
    with pytest.raises(ParseError) as caught:
        parse_atom("father_of(joshua, X)", allow_variables=False)
    assert caught.value.hint


def test_parse_one_refuses_two_clauses():
    with pytest.raises(ParseError) as caught:
        parse_one("p(a). q(b).")
    assert caught.value.hint


def test_comments_are_ignored():
    text = "% the family\nfather_of(joshua, don). % joshua is don's father\n% end\n"
    assert clauses(text) == [Atom("father_of", ("joshua", "don"))]


def test_a_clause_may_span_lines_and_keeps_its_first_line():
    items = parse_program("p(a).\nsister_of(C, A) :-\n    father_of(B, A),\n    daughter_of(C, B).\nq(b).")
    assert [item.line for item in items] == [1, 2, 5]
    assert isinstance(items[1].clause, Rule) and len(items[1].clause.body) == 2


def test_line_offset_shifts_reported_lines():
    items = parse_program("p(a).\nq(b).", line_offset=10)
    assert [item.line for item in items] == [11, 12]


def test_printed_clauses_read_back():
    rule = parse_one("r(X, 'a b') :- p(X, Y), ~q(Y), not s(X, Z), X \\= 'It''s', Y >= -2.5.")
    assert parse_one(clause_text(rule)) == rule


# -- mistakes ----------------------------------------------------------------------


def test_missing_final_dot_points_at_the_last_character():
    err = parse_error("father_of(joshua, don)")
    assert (err.line, err.column) == (1, 22)
    assert "'.'" in err.hint


def test_missing_dot_between_clauses_names_the_next_line():
    err = parse_error("father_of(joshua, don)\nfather_of(don, ann).")
    assert (err.line, err.column) == (2, 1)
    assert "'.'" in err.hint


def test_two_arguments_side_by_side_say_a_comma_is_missing():
    err = parse_error("parent_of(ann ben).")
    assert (err.line, err.column) == (1, 15)
    assert "missing ','" in err.message and "'.'" not in err.message
    assert "parent_of(ann, ben)." in err.hint and "'ann ben'" in err.hint
    assert "missing ',' between arguments" in parse_error("p(a, b 3).").message


def test_two_goals_side_by_side_on_a_line_say_a_comma_is_missing():
    err = parse_error("p(X) :- q(X) r(X).")
    assert "missing ',' between goals" in err.message and "q(X), r(X)" in err.hint
    # on the next line it is the previous clause's '.' that is missing
    assert "'.'" in parse_error("p(X) :- q(X)\nr(a).").hint


def test_an_unclosed_parenthesis_is_named_at_the_end_of_its_line():
    # the shell adds the '.' a typed clause may leave off: no "unexpected '.'" that is not there
    with pytest.raises(ParseError) as caught:
        parse_one("bad(1")
    err = caught.value
    assert (err.line, err.column) == (1, 6) and "'.'" not in err.message
    assert "still open at the end of the line" in err.message and "bad(1)" in err.hint
    err = parse_error("bad(1\nfoo(2).")
    assert (err.line, err.column) == (1, 6) and "still open" in err.message


def test_the_shell_names_an_unclosed_parenthesis_not_a_dot(sym):
    message = sym("bad(1").message
    assert message.startswith("column 6:") and "still open" in message and "'.'" not in message


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_line_numbers_count_lf_crlf_and_cr_alike(end):
    items = parse_program(end.join(["a(1).", "", "q(X) :-", "  a(X).", ""]))
    assert [item.line for item in items] == [1, 3]
    err = parse_error(end.join(["a(1).", "", "b(2 c).", ""]))
    assert (err.line, err.column) == (3, 5)
    err = parse_error(end.join(["a(1).", "b(2", "c(3)."]))
    assert (err.line, err.column) == (2, 4) and "still open" in err.message
    err = parse_error(end.join(["a(1).", "b(99e999)."]))
    assert (err.line, err.column) == (2, 3)


def test_function_symbols_are_rejected():
    err = parse_error("likes(ann, f(a)).")
    assert (err.line, err.column) == (1, 13)
    assert "function symbols" in err.hint


def test_upper_case_predicate_is_rejected():
    err = parse_error("p(a).\nFather_of(joshua, don).")
    assert (err.line, err.column) == (2, 1)
    assert "lower-case" in err.hint


def test_upper_case_predicate_in_a_body_gets_the_lower_case_hint():
    err = parse_error("q(X) :- P(X).")
    assert (err.line, err.column) == (1, 10)
    assert "lower-case" in err.hint


def test_lists_are_rejected():
    err = parse_error("p(a).\nmembers(team, [a, b]).")
    assert (err.line, err.column) == (2, 15)
    assert "lists" in err.hint


def test_a_fact_with_a_variable_is_rejected():
    err = parse_error("p(a).\nq(b).\nlikes(ann, X).")
    assert err.line == 3
    assert "X" in err.message and "ground" in err.hint


def test_unsafe_head_variable_is_rejected():
    err = parse_error("p(a).\nr(X, Y) :- q(X).")
    assert err.line == 2
    assert "head variable Y" in err.message


def test_unsafe_variable_under_not_is_rejected():
    err = parse_error("r(X, Y) :- q(X), not s(Y).")
    assert err.line == 1
    assert "variable Y" in err.message and "not" in err.hint


def test_unsafe_comparison_variable_is_rejected():
    err = parse_error("r(X) :- q(X), X < Y.")
    assert "variable Y" in err.message and "comparison" in err.message


def test_unsafe_query_variable_is_rejected():
    err = parse_error("?- X > 1.")
    assert "variable X" in err.message


def test_an_error_in_the_last_clause_rejects_the_whole_text():
    with pytest.raises(ParseError) as caught:
        parse_program("p(a).\nq(b).\nr(X) :- q(X).\ns(c)")
    assert caught.value.line == 4


def test_source_is_named_in_the_message():
    with pytest.raises(ParseError) as caught:
        parse_program("p(a).\nq(b)", source="family.pl")
    assert str(caught.value).startswith("family.pl:2:")


# -- large texts (the fast path for plain facts) -----------------------------------


def large_program() -> tuple[str, list]:
    lines, expected = [], []
    for i in range(30):
        lines.append(f"edge(n{i}, n{i + 1}).")
        expected.append(Atom("edge", (f"n{i}", f"n{i + 1}")))
    lines.append("% paths")
    lines.append("path(X, Y) :-")
    lines.append("    edge(X, Y).")
    expected.append(Rule(Atom("path", (Var("X"), Var("Y"))), (Atom("edge", (Var("X"), Var("Y"))),)))
    lines.append("sees(cow, 'bald eagle').")
    expected.append(Atom("sees", ("cow", "bald eagle")))
    for i in range(30):
        lines.append(f"weight(n{i}, {i - 5}).")
        expected.append(Atom("weight", (f"n{i}", i - 5)))
    lines.append("~green(gary).")
    expected.append(Atom("green", ("gary",), neg=True))
    lines.append("heavy(X) :- weight(X, W), W > 10.")
    heavy = (Atom("weight", (Var("X"), Var("W"))), Compare(">", Var("W"), 10))
    expected.append(Rule(Atom("heavy", (Var("X"),)), heavy))
    return "\n".join(lines), expected


def test_a_large_program_parses_the_same_as_small_pieces():
    text, expected = large_program()
    assert len(text.split("\n")) > 64
    items = parse_program(text)
    assert [item.clause for item in items] == expected
    # line numbers survive the split into fast-path facts and parsed chunks
    lines = {str(item.clause): item.line for item in items}
    assert lines["edge(n0, n1)"] == 1
    assert lines["path(X, Y) :- edge(X, Y)."] == 32
    assert lines["sees(cow, 'bald eagle')"] == 34
    assert lines["weight(n29, 24)"] == 64
    assert lines["heavy(X) :- weight(X, W), W > 10."] == 66


def test_an_error_on_line_70_of_a_large_program_is_reported_on_line_70():
    lines = [f"edge(n{i}, n{i + 1})." for i in range(69)]
    lines.append("edge(n69, f(n70)).")
    lines += [f"edge(n{i}, n{i + 1})." for i in range(70, 80)]
    err = parse_error("\n".join(lines))
    assert (err.line, err.column) == (70, 12)


def test_an_unsafe_rule_on_line_70_of_a_large_program_is_reported_on_line_70():
    lines = [f"edge(n{i}, n{i + 1})." for i in range(69)]
    lines.append("path(X, Y) :- edge(X, Z).")
    lines += [f"edge(n{i}, n{i + 1})." for i in range(70, 80)]
    assert parse_error("\n".join(lines)).line == 70


def test_a_large_program_with_a_bad_last_clause_returns_nothing():
    lines = [f"edge(n{i}, n{i + 1})." for i in range(80)] + ["edge(n80, n81)"]
    assert parse_error("\n".join(lines)).line == 81


def filler(n: int = 70) -> str:
    return "\n".join(f"filler(c{i})." for i in range(n)) + "\n"


@pytest.mark.parametrize("clause", [
    "r(X) :- s(X), % a comment that ends with a dot.\n  t(a).",
    "r(a) :-\n\n  t(a).",
])
def test_small_clause_spanning_lines_with_comment_or_blank_line(clause):
    (rule,) = clauses(clause)
    assert rule.body[-1] == Atom("t", ("a",))


@pytest.mark.parametrize("clause", [
    "r(X) :- s(X), % a comment that ends with a dot.\n  t(a).",
    "r(a) :-\n\n  t(a).",
])
def test_large_program_clause_spanning_lines_with_comment_or_blank_line(clause):
    *_, rule = clauses(filler() + clause)
    assert rule.body[-1] == Atom("t", ("a",))


# -- round-trip corner cases -------------------------------------------------------


def test_a_nul_character_in_a_quoted_atom_reads_back():
    fact = Atom("p", ("a\x00b",))
    assert parse_one(clause_text(fact)) == fact


def test_a_variable_named_underscore_digit_keeps_its_join_when_printed():
    rule = parse_one("p(X) :- q(X, _1), r(_1).")
    again = parse_one(clause_text(rule))
    assert again.body[0].args[1] == again.body[1].args[0]


def test_a_number_out_of_range_is_rejected_with_its_line():
    err = parse_error("size(sun, 1).\nsmall(X) :- size(X, S), S < 1e999.")
    assert err.line == 2 and err.column == 29 and "out of range" in err.message and err.hint
