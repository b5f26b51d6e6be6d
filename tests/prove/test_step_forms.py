"""Step 3's sentence forms: what sym writes for each filled form, in both languages, checked by Z3."""

from __future__ import annotations

import re

import pytest

from sym.core.reason.pot.faithful import ungrounded
from sym.core.reason.pot.forms import FormError, forms_schema, render
from sym.core.reason.pot.interpret import run
from sym.core.reason.pot.smt2_worker import run_smt2
from sym.core.reason.pot.vocabulary import (
    FunctionStep,
    Kinds,
    SortStep,
    Vocabulary,
    Words,
    assemble,
    formula_problem,
    token_pattern,
)
from sym.core.stop import Stop

BOOKS = Vocabulary(Kinds(sorts=[SortStep(name="Book", closed=True, members=["red", "blue", "green"])]),
                   Words(functions=[FunctionStep(name="pos", args=["Book"], result="Int", position=True),
                                    FunctionStep(name="old", args=["Book"], result="Bool")]))
PETS = Vocabulary(Kinds(sorts=[SortStep(name="Thing", closed=False, members=["tom"])]),
                  Words(functions=[FunctionStep(name=n, args=["Thing"], result="Bool") for n in ("cat", "mammal", "fish")]))


def atom(p, *args, neg=False):
    return {"not": neg, "predicate": p, "args": list(args)}


def verdict(vocab, fmt, premises, claim):
    formulas = [(f"p{i}", render(line, vocab, fmt)) for i, line in enumerate(premises)]
    settings = vocab.position_settings(fmt)
    program = assemble(vocab, fmt, settings + formulas, [("claim", render(claim, vocab, fmt))])
    report = run(program, stop=Stop(proof_timeout=5)) if fmt == "json" else run_smt2(program, stop=Stop(proof_timeout=5))
    return report.verifications[0].status


@pytest.mark.parametrize("fmt", ["json", "smt2"])
def test_all_and_fact_forms_prove_a_syllogism(fmt):
    premises = [{"form": "all", "if": [atom("cat", "x")], "then": [atom("mammal", "x")]},
                {"form": "all", "if": [atom("mammal", "x")], "then": [atom("fish", "x", neg=True)]},
                {"form": "fact", "atom": atom("cat", "tom")}]
    assert verdict(PETS, fmt, premises, {"form": "fact", "atom": atom("mammal", "tom")}) == "proved"
    assert verdict(PETS, fmt, premises, {"form": "fact", "atom": atom("fish", "tom")}) == "refuted"
    assert verdict(PETS, fmt, premises[:1], {"form": "fact", "atom": atom("fish", "tom")}) == "unknown"


@pytest.mark.parametrize("fmt", ["json", "smt2"])
def test_either_exclusive_and_some(fmt):
    either = {"form": "either", "atoms": [atom("cat", "tom"), atom("fish", "tom")], "exclusive": True}
    cat = {"form": "fact", "atom": atom("cat", "tom")}
    assert verdict(PETS, fmt, [either, cat], {"form": "fact", "atom": atom("fish", "tom")}) == "refuted"
    inclusive = {**either, "exclusive": False}
    assert verdict(PETS, fmt, [inclusive, cat], {"form": "fact", "atom": atom("fish", "tom")}) == "unknown"
    some = {"form": "some", "atoms": [atom("cat", "x"), atom("mammal", "x")]}
    assert verdict(PETS, fmt, [cat, {"form": "all", "if": [atom("cat", "x")], "then": [atom("mammal", "x")]}],
                   some) == "proved"


@pytest.mark.parametrize("fmt", ["json", "smt2"])
def test_places_from_either_end_and_neighbours_in_a_closed_order(fmt):
    left = {"form": "compare", "function": "pos", "arg": "red", "op": "<", "to": {"function": "pos", "arg": "blue", "plus": 0}}
    last = {"form": "compare", "function": "pos", "arg": "green", "op": "==", "to": {"place": 1, "from_end": True}}
    first = {"form": "compare", "function": "pos", "arg": "red", "op": "==", "to": {"place": 1, "from_end": False}}
    assert render(last, BOOKS, "json") == "pos(green) == 3"          # 3 books: first from the end is place 3
    assert verdict(BOOKS, fmt, [left, last], first) == "proved"      # only with 1..N and distinct, which sym adds
    right_after = {"form": "compare", "function": "pos", "arg": "blue", "op": "==",
                   "to": {"function": "pos", "arg": "red", "plus": 1}}
    assert verdict(BOOKS, fmt, [left, last], right_after) == "proved"


PRICES = Vocabulary(Kinds(sorts=[SortStep(name="Fruit", closed=True, members=["pears", "plums", "figs"])]),
                    Words(functions=[FunctionStep(name="price", args=["Fruit"], result="Int")]))


@pytest.mark.parametrize("fmt", ["json", "smt2"])
def test_a_superlative_is_compared_with_every_other_member_without_naming_them(fmt):
    cheapest = {"form": "most", "function": "price", "arg": "pears", "extreme": "lowest"}
    formula = render(cheapest, PRICES, fmt)
    assert "plums" not in formula and "figs" not in formula       # the sentence names only the pears
    assert ungrounded(formula, "The pears are the cheapest.", PRICES) is None
    cheaper = {"form": "compare", "function": "price", "arg": "pears", "op": "<",
               "to": {"function": "price", "arg": "figs", "plus": 0}}
    assert verdict(PRICES, fmt, [cheapest], cheaper) == "proved"
    dearest = {"form": "most", "function": "price", "arg": "figs", "extreme": "highest"}
    assert verdict(PRICES, fmt, [cheapest], dearest) == "unknown"
    assert verdict(PRICES, fmt, [cheapest], {**dearest, "arg": "pears"}) == "refuted"
    # in a closed order the lowest place is the first
    leftmost = {"form": "most", "function": "pos", "arg": "green", "extreme": "lowest"}
    first = {"form": "compare", "function": "pos", "arg": "green", "op": "==", "to": {"place": 1, "from_end": False}}
    assert verdict(BOOKS, fmt, [leftmost], first) == "proved"


def test_an_incomplete_form_is_a_form_error_not_a_formula():
    with pytest.raises(FormError):
        render({"form": "all", "if": [], "then": [atom("cat", "x")]}, PETS, "json")
    with pytest.raises(FormError):
        render({"form": "compare", "function": "pos", "arg": "red", "op": "==", "to": {"place": 1, "from_end": True}},
               PETS, "json")
    with pytest.raises(FormError):
        render({"form": "poem"}, PETS, "json")
    with pytest.raises(FormError):                       # a property has no highest
        render({"form": "most", "function": "cat", "arg": "tom", "extreme": "highest"}, PETS, "json")


def test_a_formula_of_undeclared_names_or_wrong_arity_is_named():
    assert "tom" not in (formula_problem(PETS, "json", "cat(tom)") or "")
    assert formula_problem(PETS, "json", "cat(tom)") is None
    assert "argument" in formula_problem(PETS, "json", "cat(tom, tom)")
    assert formula_problem(PETS, "smt2", "(cat jerry)") is not None


def test_the_schema_offers_each_sentence_as_a_constant_and_only_declared_names():
    schema = forms_schema(["Tom is a cat.", "Tom is a mammal."], PETS, token_pattern(PETS.names(), "json"))
    items = schema["properties"]["lines"]["prefixItems"]
    assert [i["anyOf"][0]["properties"]["text"]["const"] for i in items] == ["Tom is a cat.", "Tom is a mammal."]
    forms = [alt["properties"]["form"]["const"] for alt in items[0]["anyOf"]]
    assert forms == ["fact", "all", "some", "either", "formula", "none"]       # no numeric function: no compare
    fact = items[0]["anyOf"][0]["properties"]["atom"]["properties"]
    assert fact["predicate"]["enum"] == ["cat", "mammal", "fish"] and "tom" in fact["args"]["items"]["enum"]
    [pattern] = [a["properties"]["formula"]["pattern"] for a in items[0]["anyOf"] if "formula" in a["properties"]]
    assert re.fullmatch(pattern, "ForAll([x], Implies(cat(x), mammal(x)))")
    assert not re.fullmatch(pattern, "dog(tom)") and not re.fullmatch(pattern, "ForAll(x, cat(x))")
    books = forms_schema(["a"], BOOKS, token_pattern(BOOKS.names(), "json"))
    assert {"compare", "most"} <= {a["properties"]["form"]["const"]
                                   for a in books["properties"]["lines"]["prefixItems"][0]["anyOf"]}


def test_error_kinds_group_like_failures_without_names_or_places():
    from sym.core.reason.pot.authoring import error_kind

    a = error_kind("the interpreter rejected that program: knowledge_base[3].assertion: column 12: undefined symbol dan"
                   " — declare it under constants")
    b = error_kind("the interpreter rejected that program: rules[0] a rule: column 2: undefined symbol tom")
    assert a == b == "undefined symbol '…'"
    assert error_kind("the model's script: line 3 column 5: unknown constant x") == "unknown constant '…'"
    assert error_kind("verifications[0]: column 1: pos takes 1 argument(s), got 2") == "pos takes N argument(s), got N"
