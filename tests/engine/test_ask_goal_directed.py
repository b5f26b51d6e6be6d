"""/ask and /check evaluate what they need (issue 31): beside a closure too large for max_facts,
/ask answers a question about something else (its soft rules grounded from what their bodies
read), /check decides consistency from the relations constraints and clashes read, and neither
computes the whole model; a step limit an /infer N left does not cut their answers short."""

from __future__ import annotations

from tests.verifier import verifier


def large_closure(sym, edges: int = 1500) -> None:
    """p/2, the closure of a chain of `edges` edges: ~edges²/2 facts, far past a max_facts of 50,000."""
    sym.shell.ctx.settings.ollama_host = sym.shell.ctx.settings.ollama_host or "http://127.0.0.1:9"
    assert sym("/fact " + " ".join(f"e(n{i}, n{i + 1})." for i in range(edges))).ok
    assert sym("/rule p(X, Y) :- e(X, Y).").ok
    assert sym("/rule p(X, Y) :- e(X, Z), p(Z, Y).").ok
    sym("/set max_facts 50000")


def test_ask_beside_a_large_closure_answers_and_shows_what_its_answer_rests_on(sym):
    large_closure(sym)
    for line in ("heavy(bob).", "big(X) :- heavy(X).", "strong(X) :- big(X)."):
        assert sym(line).ok
    answer = sym("/ask Is bob strong?")
    assert answer.ok and answer.outcome.answer == "true", answer
    assert any("strong(bob)" in step for step in answer.outcome.steps)
    assert not sym.shell.memory.engine.complete          # no whole model was computed
    assert sym("/ask Who is strong?").outcome.values == [{"X": "bob"}]


def test_ask_grounds_soft_rules_from_what_their_bodies_read(llm_sym):
    server = llm_sym.server
    condition = {"predicate": "other", "new_predicate": "kind", "args": ["X"], "negated": False}
    extraction = {"statements": [{"kind": "soft", "predicate": "other", "new_predicate": "happy", "args": ["X"],
                                  "negated": False, "if": [condition]}]}
    verifier(server)
    server.reply(json=extraction, when="usually", times=1)
    server.reply(json={"applies": True, "facts": ["Happy(anne)"]}, when="anne")
    assert llm_sym("/tell Kind people are usually happy.").ok
    assert llm_sym("/tell Anne is kind.").ok
    large_closure(llm_sym)
    answer = llm_sym("/ask Anne is happy.")
    assert answer.ok and answer.outcome.answer == "true" and answer.outcome.rounds == 1, answer
    assert not llm_sym.shell.memory.engine.complete


def test_check_beside_a_large_closure_decides_from_what_can_clash(sym):
    large_closure(sym)
    assert sym("/rule :- adult(X), minor(X).").ok
    assert sym("adult(ann).").ok and sym("minor(bob).").ok
    assert sym("/check").to_dict()["consistent"] is True
    added = sym("minor(ann).")
    assert added.ok and "inconsistent" in " ".join(added.warnings)
    data = sym("/check").to_dict()
    memory = sym.shell.memory
    assert data["consistent"] is False
    assert {memory.items[i].text for i in data["core"]} == {"adult(ann).", "minor(ann).", ":- adult(X), minor(X)."}
    assert not memory.engine.complete


def test_a_step_limited_model_does_not_answer_ask_or_check(sym):
    for line in ("heavy(rex).", "big(X) :- heavy(X).", "strong(X) :- big(X).", "mighty(X) :- strong(X).",
                 "~mighty(rex)."):
        assert sym(line).ok
    assert sym("/infer 1").ok                             # a model that holds big(rex) only
    assert sym("/ask Is rex mighty?").outcome.answer == "inconsistent"
    assert sym("/infer 1").ok
    assert sym("/check").to_dict()["consistent"] is False


def test_how_is_x_related_to_y_asks_each_relation_not_the_whole_model(sym):
    large_closure(sym)
    for line in ("parent_of(ann, bob).", "parent_of(bob, carl).",
                 "grandparent_of(X, Z) :- parent_of(X, Y), parent_of(Y, Z)."):
        assert sym(line).ok
    answer = sym("/ask How is Ann related to Carl?")
    assert answer.ok, answer
    assert answer.outcome.answer == "Ann is the grandparent of Carl."
    assert any("grandparent_of(ann, carl)" in step for step in answer.outcome.steps)
    assert sym("/ask How is Bob related to Carl?").outcome.answer == "Bob is the parent of Carl."
    assert not sym.shell.memory.engine.complete          # the closure beside it was never computed
