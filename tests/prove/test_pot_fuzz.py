"""Fuzzing the DSL loader, the expression parser and /math: only clean UserErrors, never
another exception, never code execution."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.reason.math import parse_math
from sym.core.reason.pot.build import build
from sym.core.reason.pot.expr import parse_expr
from sym.core.reason.pot.interpret import run
from sym.core.reason.pot.schema import load_program
from sym.core.stop import Stop

NASTY = [
    "__import__('os').system('touch /tmp/pwned')", "os.system('x')", "a.b.c.d", "().__class__.__bases__[0]",
    "lambda x: x", "(lambda: 1)()", "eval('1')", "exec('x')", "getattr(x, 'y')", "x[0]", "{1: 2}",
    "f(*args)", "f(**kw)", "x if y else z", "not x", "x and y", "[x for x in y]", "'str'", "1e400",
    "And(", ")", "ForAll([], x)", "Sum([x", "((((((((((x))))))))))", "(" * 500 + "x" + ")" * 500,
    "ForAll([{'name': '__class__', 'sort': 'Int'}], True)", "f(x)(y)", "x == y == z", "--x", "1 +* 2",
]
TOKENS = ["And", "Or", "Not", "Implies", "If", "ForAll", "Exists", "Sum", "Distinct", "(", ")", "[", "]", ",",
          "x", "p", "f", "g", "ann", "True", "1", "2.5", "+", "-", "*", "/", "%", "==", "!=", "<", ">=", " ",
          ".", "__", "'", "{", "}", ":", "lambda", "import", "os"]

PROGRAM = {
    "sorts": [{"name": "P", "type": "DeclareSort"}],
    "functions": [{"name": "f", "domain": ["P"], "range": "BoolSort"},
                  {"name": "g", "domain": ["P", "P"], "range": "IntSort"}],
    "constants": {"ps": {"sort": "P", "members": ["ann", "bob"]}},
    "variables": [{"name": "p", "sort": "P"}, {"name": "x", "sort": "P"}],
}

expressions = st.one_of(st.sampled_from(NASTY), st.text(max_size=80),
                        st.lists(st.sampled_from(TOKENS), max_size=30).map("".join))


def only_user_errors(fn, *args):
    try:
        fn(*args)
    except UserError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_the_expression_parser_raises_only_user_errors(text):
    only_user_errors(parse_expr, text, "knowledge_base[0]")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_building_and_running_any_expression_raises_only_user_errors(text):
    def go():
        program = load_program({**PROGRAM, "knowledge_base": [text], "verifications": [{"constraint": text}]})
        run(program, stop=Stop(proof_timeout=0.5), built=build(program))
    only_user_errors(go)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(NASTY) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["sorts", "functions", "constants", "variables", "knowledge_base", "rules",
                         "verifications", "optimization", "actions", "name", "type", "values", "domain",
                         "range", "sort", "members", "assertion", "value", "forall", "exists", "implies",
                         "antecedent", "consequent", "constraint", "objectives", "expression"]) | st.text(max_size=8),
        children, max_size=5),
    max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_the_loader_raises_only_user_errors(data):
    def go():
        program = load_program(json.dumps(data))
        build(program)
    only_user_errors(go)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.sampled_from(NASTY), st.text(max_size=60)))
def test_the_loader_and_math_take_raw_text(text):
    only_user_errors(load_program, text)
    only_user_errors(parse_math, text)


def build_and_run(text: str) -> None:
    program = load_program({**PROGRAM, "knowledge_base": [text], "verifications": [{"constraint": text}]})
    run(program, stop=Stop(proof_timeout=0.5), built=build(program))


def live_payloads(marker) -> list[str]:
    """Expressions that, read as Python, write MARKER."""
    m = str(marker)
    return [f"__import__('os').system('touch {m}')", f"__import__('pathlib').Path('{m}').touch()",
            f"open('{m}', 'w')", f"exec(\"open('{m}', 'w')\")", f"eval(\"open('{m}', 'w')\")",
            f"[open('{m}', 'w') for _ in [1]]", f"(lambda: open('{m}', 'w'))()"]


def test_an_expression_that_would_write_a_file_as_python_writes_nothing(tmp_path):
    marker = tmp_path / "pwned"
    payloads = live_payloads(marker)
    eval(payloads[1])               # the payloads are live: Python itself does write the marker
    assert marker.exists()
    marker.unlink()
    for text in payloads:
        only_user_errors(parse_expr, text, "knowledge_base[0]")
        only_user_errors(parse_math, text)
        only_user_errors(build_and_run, text)
        assert not marker.exists(), text
