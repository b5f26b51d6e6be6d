"""The grammar's SWI-Prolog spellings: `\\+ G` and `\\+(G)` read as `not G`, to the same terms; `true`,
`fail` and `false` in a body read as the built-in goals and print back as they read; and no
program, however mixed, stores `true`, `fail`, `halt` or `listing` as a fact or rule head."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.errors import ParseError
from sym.core.logic.parser import parse_program
from sym.core.logic.terms import FAIL_GOAL, TRUE_GOAL, Naf
from sym.repl.dispatcher import Shell
from sym.repl.results import Exit, Failure, Listing

CI = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])

names = st.sampled_from(["p", "q", "big", "'bald eagle'", "r_2", "nothing", "notable", "truth", "failing"])
terms = st.sampled_from(["X", "Y", "a", "b", "1", "'x y'", "true", "fail"])
atoms = st.builds(lambda n, args: f"{n}({', '.join(args)})" if args else n, names, st.lists(terms, max_size=3))
COMPARISONS = ("=", "\\=", "<", ">=")
NOTS = ("not {}", "\\+ {}", "\\+{}", "\\+({})", "not({})", "\\+ ( {} )")


@st.composite
def bodies(draw):
    """(body with `not`, the same body in a random mix of `\\+` spellings)."""
    plain, swi = [], []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["atom", "naf", "compare", "goal"]))
        if kind == "atom":
            text = draw(atoms)
            plain.append(text)
            swi.append(text)
        elif kind == "naf":
            text = draw(atoms)
            plain.append(f"not {text}")
            swi.append(draw(st.sampled_from(NOTS)).format(text))
        elif kind == "compare":
            text = " ".join([draw(terms), draw(st.sampled_from(COMPARISONS)), draw(terms)])
            plain.append(text)
            swi.append(text)
        else:
            goal = draw(st.sampled_from(["true", "fail", "false"]))
            plain.append(goal)
            swi.append(goal if goal != "false" else "fail")
    return ", ".join(plain), ", ".join(swi)


@st.composite
def clauses(draw):
    plain, swi = draw(bodies())
    shape = draw(st.sampled_from(["{} :- {}.", ":- {}.", "?- {}.", "false :- {}."]))
    head = draw(atoms)
    fill = (lambda b: shape.format(head, b)) if shape.startswith("{} :-") else shape.format
    return fill(plain), fill(swi)


def terms_of(text: str):
    try:
        return [located.clause for located in parse_program(text)]
    except ParseError as err:
        return ("error", err.problem)


@CI
@given(clauses())
def test_backslash_plus_reads_as_not_to_the_same_terms(pair):
    plain, swi = pair
    assert terms_of(plain) == terms_of(swi), pair


@CI
@given(clauses())
def test_a_clause_with_built_in_goals_prints_back_to_itself(pair):
    parsed = terms_of(pair[1])
    if isinstance(parsed, tuple):
        return                                       # an unsafe clause: refused, nothing to print
    (clause,) = parsed
    text = str(clause) if not hasattr(clause, "_fields") else f"{clause}."
    assert terms_of(text) == [clause], text
    body = getattr(clause, "body", ())
    assert all(not isinstance(lit, Naf) or lit.atom.pred not in ("true", "fail") for lit in body)
    for word, goal in (("true", TRUE_GOAL), ("fail", FAIL_GOAL)):
        bare = [lit for lit in body if getattr(lit, "pred", None) == word and not lit.args]
        assert not bare, f"{word} read as an atom, not as {goal}"


SHELL = Shell(plugins=False)
RESERVED = st.sampled_from(["true.", "fail.", "halt.", "listing.", "~true.", "true :- p(a).", "halt :- q(X), p(X).",
                            "listing :- p(a)."])
ordinary = st.sampled_from(["p(a).", "q(b, 1).", "r(X) :- p(X), \\+ q(X, 1).", "s :- true.", "t(X) :- p(X), fail.",
                            "?- p(_).", "u(X) :- p(X), false."])


@CI
@given(st.lists(ordinary, max_size=4), RESERVED, st.lists(ordinary, max_size=4))
def test_built_in_names_are_never_stored(before, reserved, after):
    memory = SHELL.memory
    items = dict(memory.items)
    result = SHELL.execute(" ".join([*before, reserved, *after]))[1]
    if before or after or reserved not in ("halt.", "listing."):
        assert isinstance(result, Failure) and "\n" not in result.message and "internal error" not in result.message
    else:
        assert isinstance(result, (Exit, Listing))    # typed on its own, it is the command
    assert memory.items == items                     # nothing of the line was stored
    for it in memory.items.values():
        assert not it.text.startswith(("true", "fail", "halt", "listing", "~true"))
