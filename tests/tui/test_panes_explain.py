"""Panes that explain: what /ask, /why, /prove and /check did shows in Trace as a tree a person can
read (rounds, rule applications, attempts with their errors, cores by their text), policies applied
show once, and Models names unsat-core entries by what they say, not by `knowledge_base[0]`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tui.conftest import SIZE, idle, type_turn
from tests.verifier import verifier

pytestmark = pytest.mark.asyncio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOOD = json.loads((EXAMPLES / "height.json").read_text())
# Worker(carol), Not(Wearing(carol, hardHat)) and the rule clash
HARDHAT = json.loads((EXAMPLES / "hardhat.json").read_text())
HARDHAT["rules"] = [{"name": "workers wear hats", "forall": [{"name": "p", "sort": "Person"}],
                     "implies": {"antecedent": "Worker(p)", "consequent": "Wearing(p, hardHat)"}}]


def walk(node):
    for child in node.children:
        yield child
        yield from walk(child)


def run_of(trace, word: str):
    """The newest run of the kind `word` (a run is labelled with its input, then what kind it is)."""
    return [r for r in trace.root.children if str(r.label).endswith("· " + word)][-1]


def labels(node) -> list[str]:
    return [str(n.label) for n in walk(node)]


def child(node, starts: str):
    found = [c for c in node.children if str(c.label).startswith(starts)]
    assert found, f"no {starts!r} under {node.label}: {[str(c.label) for c in node.children]}"
    return found[0]


def models_body(app, kind: str) -> str:
    return str(app.query_one("#models").shown[kind][1].render())


async def test_ask_shows_the_rules_its_answer_rests_on_and_the_answer(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ("heavy(bob).", "heavy(ann).", "big(X) :- heavy(X).", "strong(X) :- big(X).", "/ask Is bob strong?"):
            await type_turn(pilot, line)
        await idle(pilot)
        ask = run_of(app.query_one("#trace"), "answering")
        goal = child(ask, "question truth: strong(bob)")
        # goal-directed: what the answer rests on, not what else the rules derive (ann's facts)
        infer = child(goal, "inference: the answer rests on 2 derived fact(s) by 2 rule(s)")
        big = child(infer, "rule big(X) :- heavy(X).  ×1")
        assert "derived big(bob)  ⇐  heavy(bob)" in labels(big)
        strong = child(infer, "rule strong(X) :- big(X).  ×1")
        assert "derived strong(bob)  ⇐  big(bob)" in labels(strong)
        assert not any("ann" in text for text in labels(infer))
        answer = child(goal, "answer: true")
        assert str(answer.label).endswith("[ok]")
        assert any("strong(bob)" in text for text in labels(answer))       # the justification, as its detail


async def test_ask_steps_show_grounding_and_the_tokens_each_model_call_took(llm_app, ollama_server):
    app = llm_app()
    condition = {"predicate": "other", "new_predicate": "kind", "args": ["X"], "negated": False}
    extraction = {"statements": [{"kind": "soft", "predicate": "other", "new_predicate": "happy", "args": ["X"],
                                  "negated": False, "if": [condition]}]}
    verifier(ollama_server)                              # the second opinion on the reading agrees
    ollama_server.reply(json=extraction, when="usually", times=1)
    ollama_server.reply(json={"applies": True, "facts": ["Happy(anne)"]}, when="anne")
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/tell Kind people are usually happy.")
        await type_turn(pilot, "/tell Anne is kind.")
        await type_turn(pilot, "/ask Anne is happy.")
        await idle(pilot)
        trace = app.query_one("#trace")
        goal = child(run_of(trace, "answering"), "question ")
        step = child(goal, "step 1: grounding found 1 soft rule instance(s)")
        assert str(step.label).endswith("[ok]")
        detail = str(step.children[0].label)                 # a node's detail is its first child
        assert "1 model call(s)" in detail and "tokens" in detail
        fact = child(step, "fact happy(anne).")
        assert any("tokens" in text and "kind(anne)" in text for text in labels(fact))
        assert str(child(goal, "answer").label) == "answer: true  [ok]"


async def test_why_shows_the_proof_tree_in_trace(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "parent_of(ann, ben).")
        await type_turn(pilot, "ancestor(X, Y) :- parent_of(X, Y).")
        await type_turn(pilot, "/why ancestor(ann, ben)")
        await idle(pilot)
        why = child(run_of(app.query_one("#trace"), "proof"), "ancestor(ann, ben)")
        derived = child(why, "ancestor(ann, ben)  [derived]")
        assert any("ancestor(X, Y) :- parent_of(X, Y)." in text for text in labels(derived))   # the rule used
        assert "parent_of(ann, ben)  [asserted]" in labels(derived)


async def test_prove_shows_each_attempt_and_the_error_that_sent_it_back(llm_app, ollama_server):
    app = llm_app()
    broken = {**GOOD, "knowledge_base": ["jump_hieght(javier_sotomayor) > 2"]}
    ollama_server.reply(json=broken, times=1)
    ollama_server.reply(json=GOOD)
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/prove Could Sotomayor jump over a giraffe?")
        await idle(pilot)
        question = child(run_of(app.query_one("#trace"), "proof"), "question Could Sotomayor")
        assert str(question.label).endswith("[refuted]")
        first = child(question, "attempt 1  [failed]")
        assert any("jump_hieght" in text for text in labels(first))      # the interpreter's error
        second = child(question, "attempt 2  [ok]")
        assert "check Sotomayor jumps over the giraffe  [refuted]" in labels(second)


async def test_prove_file_that_does_not_build_shows_the_error(make_app, tmp_path):
    (tmp_path / "broken.json").write_text(json.dumps({"knowledge_base": ["Foo(x)"]}))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, f"/prove --file {tmp_path / 'broken.json'}")
        await idle(pilot)
        node = child(run_of(app.query_one("#trace"), "proof"), "file broken.json  [failed]")
        assert any("Foo" in text for text in labels(node))


async def test_an_inconsistent_program_shows_its_core_by_text_in_models_and_trace(make_app, tmp_path):
    (tmp_path / "hats.json").write_text(json.dumps(HARDHAT))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, f"/prove --file {tmp_path / 'hats.json'}")
        await idle(pilot)
        core = models_body(app, "z3.core").splitlines()
        assert core == ["Worker(carol)  (knowledge_base[2])", "Not(Wearing(carol, hardHat))  (knowledge_base[5])",
                        "workers wear hats: ForAll([p], Implies(Worker(p), Wearing(p, hardHat)))  (rules[0])"]
        node = child(run_of(app.query_one("#trace"), "proof"), "file hats.json  [inconsistent]")
        assert "in the core Not(Wearing(carol, hardHat))  · knowledge_base[5]  [inconsistent]" in labels(node)
        # the transcript (what batch prints too) still names the entries as before
        assert "knowledge_base[5]" in app.shell.execute(f"/prove --file {tmp_path / 'hats.json'}")[1].report.core


async def test_check_shows_the_clashing_items_by_their_text(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for line in ("bird(tweety).", "flies(X) :- bird(X).", "~flies(tweety).", "/check"):
            await type_turn(pilot, line)
        await idle(pilot)
        check = child(run_of(app.query_one("#trace"), "consistency check"),
                      "inconsistent: 3 of 3 items clash (found by the engine)")
        assert str(check.label).endswith("[failed]")
        core = [text for text in labels(check) if text.endswith("[clash]")]
        assert [text.split("  · ")[0] for text in core] == [
            "bird(tweety).", "flies(X) :- bird(X).", "~flies(tweety)."]
        body = models_body(app, "z3.core")
        assert "flies(X) :- bird(X)." in body and "~flies(tweety)." in body
        await type_turn(pilot, "/forget ~flies(tweety).")
        await type_turn(pilot, "/check")
        await idle(pilot)
        assert "tweety" not in models_body(app, "z3.core")         # the old core no longer stands
        assert str(child(run_of(app.query_one("#trace"), "consistency check"), "consistent").label).endswith("[ok]")


async def test_a_policy_application_shows_once_in_its_run(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/policy add {name: deep, target: reasoner, filter: {command: /why}, "
                               "attributes: {max_steps: 7}}")
        await type_turn(pilot, "p(a).")
        await type_turn(pilot, "/why p(a)")
        await idle(pilot)
        run = run_of(app.query_one("#trace"), "proof")
        policies = [str(c.label) for c in run.children if str(c.label).startswith("policy")]
        assert len(policies) == 1 and "'deep'" in policies[0] and "max_steps=7" in policies[0]
        assert str(child(run, "p(a)").label) == "p(a)"
