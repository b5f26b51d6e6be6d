"""One input assembler for every front-end: comments, blocks, clauses across lines, English lines,
commands, and the end of input (an open clause is an input as it stands)."""

from __future__ import annotations

from sym.repl.assemble import Assembler, Input, assemble


def texts(script: str) -> list[str]:
    return [i.text for i in assemble(script)]


def test_comments_and_blank_lines_are_skipped():
    assert texts("% a comment\n# another\n\n   \np(a).\n") == ["p(a)."]


def test_a_clause_may_span_lines_and_ends_at_a_line_ending_in_a_full_stop():
    assert assemble("q(X) :-\n   p(X),\n   r(X).\n?- q(a).\n") == [
        Input(1, "q(X) :-\n   p(X),\n   r(X)."), Input(4, "?- q(a).")]


def test_a_comment_inside_a_clause_stays_in_it():
    assert texts("q(X) :-\n  % why\n  p(X).\n") == ["q(X) :-\n  % why\n  p(X)."]


def test_a_triple_quoted_block_is_one_input_without_its_quotes():
    assert assemble('p(a).\n"""\nr(a).\nr(b).\n"""\n?- r(b).\n') == [
        Input(1, "p(a)."), Input(2, "r(a).\nr(b)."), Input(6, "?- r(b).")]
    assert texts('"""one(x)."""\n') == ["one(x)."]


def test_a_block_may_carry_a_command_over_several_lines():
    assert texts('"""\n/tell Bob is big.\nBob is kind.\n"""\n') == ["/tell Bob is big.\nBob is kind."]


def test_a_question_in_english_is_one_input_and_does_not_swallow_the_next_line():
    # batch used to glue `Is Bob big?` (and English with an apostrophe) to the next line
    assert texts("Is Bob's dog big?\n?- big(bob).\n") == ["Is Bob's dog big?", "?- big(bob)."]
    assert texts("Bob isn't big.\np(a).\n") == ["Bob isn't big.", "p(a)."]


def test_a_line_that_does_not_start_as_a_clause_is_one_input_whatever_its_punctuation():
    # `Is Rex a dog` (no `?`) used to wait for a clause's end and swallow the next line
    assert texts("Is Rex a dog\ndog(rex).\n") == ["Is Rex a dog", "dog(rex)."]
    assert texts("Bob is big\nand Bob is red.\n") == ["Bob is big", "and Bob is red."]
    assert texts("hello\nTweety (a penguin) is a bird\nrain.\n") == ["hello", "Tweety (a penguin) is a bird", "rain."]
    # what starts as a clause still goes on until a line ends it
    assert texts("'bald eagle'(x) :-\n  big(x).\nfalse :-\n  p(a).\n") == ["'bald eagle'(x) :-\n  big(x).",
                                                                         "false :-\n  p(a)."]


def test_a_command_line_ends_at_its_line_end_whatever_quotes_it_holds():
    script = '/tell He said "hi there.\nfact1(a).\n/tell it\'s big\nfact2(b).\n/tell """\nBob is big.\n"""\n'
    assert texts(script) == ['/tell He said "hi there.', "fact1(a).", "/tell it's big", "fact2(b).",
                             "/tell \nBob is big."]


def test_a_command_is_one_line_and_ends_an_open_clause():
    assert texts("/listing\n/show facts\n") == ["/listing", "/show facts"]
    assert assemble("p(a)\n/listing\n") == [Input(1, "p(a)"), Input(2, "/listing")]


def test_the_end_of_input_flushes_a_final_clause_without_a_full_stop():
    assert texts("p(a).\nq(b)\n") == ["p(a).", "q(b)"]
    assert texts('"""\nr(a).\n') == ["r(a)."]


def test_fed_line_by_line_it_says_what_is_open():
    asm = Assembler()
    assert asm.feed("q(X) :-") == [] and asm.pending and not asm.in_block
    assert asm.feed("  p(X).") == [Input(1, "q(X) :-\n  p(X).")] and not asm.pending
    assert asm.feed('"""') == [] and asm.in_block and asm.open_lines == 1
    asm.reset()
    assert not asm.pending and asm.finish() == []
    assert asm.feed("p(a).") == [Input(4, "p(a).")]
