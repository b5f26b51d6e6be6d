"""Plain facts and one-atom queries are read without the grammar as the grammar reads them; anything
else is left to it (and a one-line script never builds it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sym.core.logic.parser import parse_program, parse_query
from sym.repl.plain_input import plain_facts, plain_query

FACTS = ["p(a).", "parent_of(p5, p1).", "age(bob, 42).", "age(bob, -7).", "p(a,b).", "p( a , b ) .",
         "p(a, 007).", "q(x1, y_2, zZ).\n\nr(c).\n", "p(a).\nq(b).\n", "p(a).   "]
NOT_PLAIN = ["p(X).", "p('a').", "not(a).", "p(not).", "p(a). % said", " p(a).", "p(a) :- q(a).", "~p(a).",
             "p(a", "p(a).q(b).", "p(1.5).", "café(x).", "p(a).\n  q(b).", "false(x)."]
QUERIES = ["?- p(X).", "?- parent_of(p1, X).", "parent_of(p1, X)", "?- p(a, b).", "?-p(X,Y,X).", "?- age(bob, 42).",
           "  ?- p( X , a ) .  ", "?- p(Abc_1, 12)."]
NOT_PLAIN_QUERIES = ["?- p(_).", "?- p(_X).", "?- p(X), q(X).", "?- not p(a).", "?- p(-1).", "?- true.",
                     "?- aggregate_all(count, p, N).", "?- is(X, a).", "?- mod(X, a).", "?- p('a').", "?- X = a.",
                     "?- ~p(X).", "?- p(X) ; q(X).", "?- fail(x).", "?- p(X).."]


@pytest.mark.parametrize("text", FACTS)
def test_plain_facts_read_as_the_grammar_reads_them(text):
    assert plain_facts(text) == parse_program(text)
    assert plain_facts(text, 10) == parse_program(text, line_offset=10)


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_anything_else_is_left_to_the_grammar(text):
    assert plain_facts(text) is None


@pytest.mark.parametrize("text", QUERIES)
def test_a_one_atom_query_reads_as_the_grammar_reads_it(text):
    assert plain_query(text) == parse_query(text)


@pytest.mark.parametrize("text", NOT_PLAIN_QUERIES)
def test_other_queries_are_left_to_the_grammar(text):
    assert plain_query(text) is None


def test_a_one_line_script_and_its_query_never_build_the_grammar(tmp_path):
    script = tmp_path / "one.sym"
    script.write_text("p(a).\nq(b, 3).\n?- p(X).\n")
    probe = ("import sys, lark\n"
             "def refuse(*a, **k):\n    raise SystemExit('the grammar was built')\n"
             "lark.Lark.__init__ = refuse\n"
             "from sym.repl.cli import main\n"
             f"sys.argv = ['sym', '--batch', {str(script)!r}]\nmain()\n")
    env = {"SYM_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    for _ in range(2):      # a new workspace, then the same one reopened with its facts
        run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        assert "X = a" in run.stdout
