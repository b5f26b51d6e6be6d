"""Quantified questions (docs/english.md, "Questions"; issue 48, part 2): `Is every / each / no N …?`,
`Are all Ns …?`, `Does every N V?` ask a universal; `Is any N …?` / `Are any Ns …?` an existential.
In the open world a universal is true only when entailed (a fresh individual that appears nowhere,
assumed an N on a copy of the engine, is derived to be so), false when a known N is known not to be
(strong negation, or a constraint it would break), and otherwise unknown, saying what is known; an
existential is true with a witness and false only when entailed that none is. Words are invented,
and memory never changes."""

from __future__ import annotations

import random

import pytest

from sym.core.reason.swm.english import question_goal
from tests.english.test_trust_answers import no_model
from tests.english_lexicon import Lexicon


def _words(seed: int):
    lx = Lexicon(random.Random(f"universal:{seed}"))
    return lx.noun(), lx.noun(), lx.adj(), lx.adj(), lx.name(plain=True), lx.name(plain=True)


@pytest.mark.parametrize("seed", range(10))
def test_each_form_of_the_universal_asks_forall_of_its_restriction(seed):
    n, m, a, b, _, _ = _words(seed)
    asked = {
        f"Is every {n.sg} {a}?": f"forall({n.sg}(X), {a}(X))",
        f"Is each {n.sg} {a}?": f"forall({n.sg}(X), {a}(X))",
        f"Are all {n.pl} {a}?": f"forall({n.sg}(X), {a}(X))",
        f"Is no {n.sg} {a}?": f"forall({n.sg}(X), ~{a}(X))",
        f"Is every {n.sg} {m.article} {m.sg}?": f"forall({n.sg}(X), {m.sg}(X))",
        f"Is every {b} {n.sg} {a}?": f"forall(({b}(X), {n.sg}(X)), {a}(X))",
    }
    for question, query in asked.items():
        goal = question_goal(question)
        assert goal is not None and (goal.kind, goal.query) == ("every", query), (question, goal)
    goal = question_goal(f"Is any {n.sg} {a}?")
    assert goal is not None and goal.kind == "truth" and set(goal.query.split(", ")) == {f"{a}(X)", f"{n.sg}(X)"}


@pytest.mark.parametrize("question", ["Is every black?", "Is all cat black?", "Is every cat afraid of every dog?",
                                      "Is every farmer who owns a donkey rich?", "Are all cats black or white?"])
def test_a_universal_the_grammar_cannot_read_as_one_rule_of_one_variable_is_refused(question):
    assert question_goal(question) is None


def _ask(sym, question: str, closed: bool = False):
    return sym(f"/ask {'--closed ' if closed else ''}{question}").outcome


@pytest.mark.parametrize("seed", range(4))
def test_a_universal_is_true_only_when_a_fresh_one_is_derived_so(sym, seed):
    no_model(sym)
    n, m, a, b, x, _ = _words(seed)
    assert sym(f"/tell {x.text} is {n.article} {n.sg}. {x.text} is {a}.").ok
    before = set(sym.shell.ctx.memory.items)
    out = _ask(sym, f"Is every {n.sg} {a}?")
    assert set(sym.shell.ctx.memory.items) == before                   # asking never changes memory
    assert (out.answer, out.verified) == ("unknown", True)          # every known one is, but not entailed
    assert "each known" in out.settle and x.text in out.settle and "does not entail" in out.settle
    assert out.goal == f"forall({n.sg}(X), {a}(X))"
    assert sym(f"/tell Every {n.sg} is {m.article} {m.sg}. Every {m.sg} is {b}.").ok
    out = _ask(sym, f"Is every {n.sg} {b}?")
    assert out.answer == "true" and out.verified
    assert any("assumed" in s for s in out.steps) and any(s.startswith(f"{b}(") for s in out.steps)
    assert _ask(sym, f"Is every {n.sg} {m.article} {m.sg}?").answer == "true"
    assert not any("new " in it.text for it in sym.shell.ctx.memory.items.values())   # the fresh one stays in the copy


@pytest.mark.parametrize("seed", range(4))
def test_a_universal_is_false_when_a_known_one_is_known_not_to_be(sym, seed):
    no_model(sym)
    n, _, a, b, x, y = _words(seed)
    assert sym(f"/tell {x.text} is {n.article} {n.sg}. {y.text} is {n.article} {n.sg}. {y.text} is not {a}.").ok
    out = _ask(sym, f"Are all {n.pl} {a}?")
    assert out.answer == "false" and any(s.startswith(f"~{a}({y.const})") for s in out.steps)
    out = _ask(sym, f"Is no {n.sg} {b}?")
    assert out.answer == "unknown" and "nothing in memory settles it" in out.settle
    assert sym(f"/tell {x.text} is {b}.").ok
    assert _ask(sym, f"Is no {n.sg} {b}?").answer == "false"


def test_a_constraint_a_known_one_would_break_is_a_no(sym):
    no_model(sym)
    assert sym(":- glorp(X), frabs(X).").ok and sym("glorp(tom).").ok
    out = _ask(sym, "Does every glorp frab?")
    assert out.answer == "false" and any("would break a constraint" in s for s in out.steps)


def test_negation_as_failure_or_a_comparison_of_the_new_one_entails_nothing(sym):
    no_model(sym)
    assert sym("glorp(tom).").ok and sym("wuzzy(X) :- glorp(X), not frabby(X).").ok
    assert _ask(sym, "Is every glorp wuzzy?").answer == "unknown"       # a real glorp may be frabby
    assert sym("zonky(X) :- glorp(X), X \\= tom.").ok
    assert _ask(sym, "Is every glorp zonky?").answer == "unknown"       # true of a new one, false of Tom


def test_the_closed_world_takes_the_known_ones_for_all(sym):
    no_model(sym)
    assert sym("/tell Tom is a glorp. Tom is wuzzy. Rex is a glorp.").ok
    assert _ask(sym, "Is every glorp wuzzy?", closed=True).answer == "false"
    assert sym("/tell Rex is wuzzy.").ok
    assert _ask(sym, "Is every glorp wuzzy?", closed=True).answer == "true"
    assert _ask(sym, "Is every glorp wuzzy?").answer == "unknown"


@pytest.mark.parametrize("seed", range(4))
def test_an_existential_is_true_with_a_witness_and_false_only_when_none_can_be(sym, seed):
    no_model(sym)
    n, _, a, b, x, _ = _words(seed)
    assert sym(f"/tell {x.text} is {n.article} {n.sg}.").ok
    assert _ask(sym, f"Is any {n.sg} {a}?").answer == "unknown"
    assert sym(f"/tell No {n.sg} is {a}.").ok
    out = _ask(sym, f"Are any {n.pl} {a}?")
    assert out.answer == "false" and any("assumed" in s for s in out.steps)
    assert sym(f"/tell {x.text} is {b}.").ok
    out = _ask(sym, f"Is any {n.sg} {b}?")
    assert out.answer == "true" and any(s.startswith(f"{b}({x.const})") for s in out.steps)
