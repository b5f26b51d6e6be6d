"""/check decided by the engine: constraint violations and p / ~p clashes with their core by
item id, a minimal core, `not` under stratified semantics, a large memory, Esc, and Z3 asked
only about rules with a strongly negated premise."""

from __future__ import annotations

import threading

import pytest

from sym.core.reason.pot import check_memory as check_module
from sym.core.reason.pot.check_horn import shrink
from sym.repl.results import Failure


def ids(sym, *lines: str) -> list[str]:
    return [sym(line).items[0].id for line in lines]


@pytest.fixture
def no_z3(monkeypatch):
    """Z3 must not be asked: the engine settles a memory it can express."""
    def refuse(*args, **kwargs):
        raise AssertionError("Z3 was called for a memory the engine decides")
    monkeypatch.setattr(check_module, "check_classical", refuse)


def test_consistent_memory_is_decided_without_z3(sym, no_z3):
    sym("bird(tweety).")
    sym("flies(X) :- bird(X), not penguin(X).")
    sym(":- flies(X), ~flies(X).")
    sym("age(tom, 5).")
    result = sym("/check").to_dict()
    assert result["consistent"] is True and result["method"] == "engine" and result["z3_items"] == 0
    assert result["core"] == []


def test_a_violated_constraint_names_exactly_the_items_it_rests_on(sym, no_z3):
    sym("age(ann, 2).")
    age, rule, con = ids(sym, "age(tom, 5).", "old(X) :- age(X, N), N > 3.", ":- old(tom).")
    sym("likes(tom, ann).")
    result = sym("/check")
    data = result.to_dict()
    assert data["consistent"] is False and data["method"] == "engine"
    assert set(data["core"]) == {age, rule, con} and data["minimal"] is True
    assert "old(tom)" in data["clash"]
    assert result.texts[rule] == "old(X) :- age(X, N), N > 3."


def test_a_clash_through_rules_includes_the_rule_ids(sym, no_z3):
    bird, penguin, flies, not_flies = ids(sym, "bird(tweety).", "penguin(tweety).",
                                          "flies(X) :- bird(X).", "~flies(X) :- penguin(X).")
    sym("bird(robin).")
    sym("sings(X) :- bird(X).")
    data = sym("/check").to_dict()
    assert data["consistent"] is False
    assert set(data["core"]) == {bird, penguin, flies, not_flies} and data["minimal"] is True
    assert data["clash"].startswith("contradiction: flies(tweety), ~flies(tweety)")
    sym(f"/forget {penguin}")
    assert sym("/check").to_dict()["consistent"] is True


def test_a_derivation_chain_is_traced_back_to_the_asserted_facts(sym, no_z3):
    core = ids(sym, "edge(a, b).", "edge(b, c).", "edge(c, d).",
               "path(X, Y) :- edge(X, Y).", "path(X, Z) :- path(X, Y), edge(Y, Z).", ":- path(a, d).")
    sym("edge(x, y).")
    data = sym("/check").to_dict()
    assert set(data["core"]) == set(core) and data["minimal"] is True


def test_the_clash_is_reported_in_text_with_ids_and_clause_texts(sym, no_z3):
    from sym.repl.render import to_text

    fact, con = ids(sym, "p(a).", ":- p(a).")
    text = to_text(sym("/check"))
    assert text.startswith("inconsistent: 2 items clash (a minimal core, found by the engine)")
    assert f"{fact}: p(a)." in text and f"{con}: :- p(a)." in text


def test_a_clash_that_rests_on_not_is_an_inconsistency_of_the_one_model(sym, no_z3):
    big, quiet, con = ids(sym, "big(a).", "quiet(X) :- big(X), not red(X).", ":- quiet(a).")
    data = sym("/check").to_dict()
    assert data["consistent"] is False and set(data["core"]) == {big, quiet, con}
    assert data["minimal"] is False and "not" in data["clash"]   # adding red(a) would repair it
    sym("red(a).")
    assert sym("/check").to_dict()["consistent"] is True


def test_deletion_shrinks_a_support_to_a_minimal_core(sym):
    sym("p(a).")
    sym("q(X) :- p(X).")
    sym("~q(a).")
    sym("r(b).")
    items = list(sym.shell.memory.items.values())
    core, minimal = shrink(items)
    assert minimal and {it.text for it in core} == {"p(a).", "q(X) :- p(X).", "~q(a)."}


def family(people: int, *extra: str) -> str:
    lines = []
    for i in range(people):
        lines.append(f"person(p{i}).")
        lines.append(f"age(p{i}, {190 - 15 * len(bin(i + 1)) + i % 5}).")
        if i:
            lines.append(f"parent_of(p{(i - 1) // 2}, p{i}).")
    lines += ["grandparent_of(X, Z) :- parent_of(X, Y), parent_of(Y, Z).",
              "adult(X) :- age(X, A), A >= 50.", "~adult(X) :- age(X, A), A < 50.",
              "has_parent(Y) :- parent_of(_, Y).", "orphan(X) :- person(X), not has_parent(X).",
              ":- parent_of(X, Y), age(X, A), age(Y, B), A =< B.", ":- parent_of(X, X).", *extra]
    return "\n".join(lines) + "\n"


def test_a_large_generated_memory_is_checked_by_the_engine(sym, no_z3, tmp_path):
    program = tmp_path / "family.pl"
    program.write_text(family(2500))
    assert sym(f"/consult {program}").ok
    assert len(sym.shell.memory.items) >= 7500
    data = sym("/check").to_dict()
    assert data["consistent"] is True and data["checked"] == len(sym.shell.memory.items)
    bad = ids(sym, "parent_of(p6, p2).")[0]      # p2's child's child as its parent: too young
    data = sym("/check").to_dict()
    memory = sym.shell.memory
    assert data["consistent"] is False and bad in data["core"] and data["minimal"] is True
    texts = {memory.items[i].text for i in data["core"]}
    assert texts == {"parent_of(p6, p2).", "age(p6, 116).", "age(p2, 132).",
                     ":- parent_of(X, Y), age(X, A), age(Y, B), A =< B."}


def test_esc_stops_check_and_it_reports_cancelled(sym):
    sym("/fact " + " ".join(f"a({i})." for i in range(1500)))
    sym("/fact " + " ".join(f"b({i})." for i in range(1500)))
    sym("/rule :- pair(X, X), c(X).")           # consistency reads pair: /check computes its 2,250,000 facts
    sym("/set max_facts 100000")               # … which the clash check after the next rule stops short of
    sym("/rule pair(X, Y) :- a(X), b(Y).")
    sym("/set max_facts 5000000")
    sym.shell.ctx.cancel.set()                 # Esc: the engine sees it at its first check
    result = sym("/check")
    assert isinstance(result, Failure) and result.exit_code == 130
    sym.shell.ctx.cancel = threading.Event()
    assert sym("/check").to_dict()["consistent"] is True


# -- what lies beyond forward chaining: a strongly negated premise, read classically ----------

def test_contraposition_through_a_negated_premise_goes_to_z3_with_only_its_part(sym):
    core = ids(sym, "b(a).", "h(a).", "~h(X) :- ~p(X), b(X).", ":- p(a).")
    for i in range(30):
        sym(f"unrelated(n{i}, {i}).")
    sym("also(X) :- unrelated(X, _).")
    data = sym("/check").to_dict()
    # the engine derives nothing (~p(a) is not stated), but classically ~h(a) <- ~p(a), b(a) is
    # p(a) <- b(a), h(a): p(a) holds, and the constraint forbids it
    assert data["consistent"] is False and data["method"] == "z3"
    assert set(data["core"]) == set(core)
    assert data["z3_items"] == 4             # the unrelated 31 items were never sent


def test_a_negated_premise_that_can_be_satisfied_by_cases_is_consistent(sym):
    sym("pet(rex).")
    sym("pet(tom).")
    sym("calm(X) :- ~loud(X), pet(X).")
    sym(":- calm(rex).")                     # fine classically: loud(rex) may hold
    data = sym("/check").to_dict()
    assert data["consistent"] is True and data["method"] == "z3"


def test_an_unguarded_negated_premise_ranges_over_every_constant(sym):
    sym("noisy(a).")
    sym("quiet(X) :- ~noisy(X).")
    sym(":- quiet(X).")
    sym(":- noisy(X), X \\= a.")
    data = sym("/check").to_dict()
    assert data["consistent"] is True and data["method"] == "z3"
    sym("other(b).")                         # b must be quiet or noisy, and may be neither
    data = sym("/check").to_dict()
    assert data["consistent"] is False and data["method"] == "z3"
    assert data["z3_items"] == 4             # other(b) is not sent; b is in the domain all the same


def test_the_engine_decides_first_even_when_a_rule_has_a_negated_premise(sym, no_z3):
    fact, rule, neg = ids(sym, "b(a).", "c(X) :- ~p(X), b(X).", "~p(a).")
    sym("~c(a).")
    data = sym("/check").to_dict()
    assert data["consistent"] is False and data["method"] == "engine"
    assert {fact, rule, neg} <= set(data["core"])


def test_a_negated_premise_the_model_satisfies_needs_no_z3(sym, no_z3):
    sym("pet(rex).")
    sym("loud(tom).")
    sym("pet(tom).")
    sym("calm(X) :- ~loud(X), pet(X).")
    sym("calm(rex).")                        # the model: rex calm, tom loud; classically fine
    data = sym("/check").to_dict()
    assert data["consistent"] is True and data["method"] == "engine"
