"""The parser's fast path for long files and the Lark grammar read every line alike: the fast
path takes a line only when the grammar takes it, to the same fact; and no text makes the parser
raise anything but a ParseError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.errors import ParseError
from sym.core.logic.parser import _fast_fact, _parse_lark, parse_program

CI = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PAD = "\n".join(f"pad{i}(x)." for i in range(70))      # over 64 lines: the fast path is in play

pieces = st.sampled_from([
    "p", "q_1", "bob", "false", "not", "Xy", "_", "'a b'", "0", "7", "-3", "007", "1.0", "2.5", "1e3", "-0",
    "9" * 19, "9" * 4301, "\u0663", "(", ")", ",", ".", " ", "\t", "\u3000", "\u00a0", "\r", "\f", "~", ":-", "%",
    "p(", "p(a", ", b)", ").", "\ud800",
])
lines = st.one_of(
    st.lists(pieces, max_size=10).map("".join),
    st.builds(lambda pred, args, sp: f"{pred}({(',' + sp).join(args)}){sp}.",
              st.sampled_from(["p", "false", "not", "big", "x9"]),
              st.lists(st.sampled_from(["a", "b", "not", "false", "1", "-2", "1.0", "\u0663", "9" * 4301, "X"]),
                       min_size=1, max_size=4),
              st.sampled_from(["", " ", "\t", "\u3000", "  "])),
    st.text(max_size=30),
)


def grammar(line: str):
    try:
        return [located.clause for located in _parse_lark(line, None, 0)]
    except ParseError:
        return None


@CI
@given(lines)
def test_the_fast_path_takes_only_what_the_grammar_takes_to_the_same_fact(line):
    if "\n" in line:
        return
    fact = _fast_fact(line)
    if fact is not None:
        assert grammar(line) == [fact], line


@CI
@given(lines)
def test_a_long_file_parses_a_line_as_a_short_one_does(line):
    line = line.replace("\n", " ")
    try:
        short = [located.clause for located in parse_program(line)]
    except ParseError:
        short = None
    try:
        long = [located.clause for located in parse_program(PAD + "\n" + line)][70:]
    except ParseError:
        long = None
    assert short == long, line


@CI
@given(st.text(max_size=60))
def test_no_text_makes_the_parser_raise_anything_but_a_parse_error(text):
    for program in (text, PAD + "\n" + text):
        try:
            parse_program(program)
        except ParseError as err:
            assert "\n" not in str(err)
