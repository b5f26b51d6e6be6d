"""A proof rests only on what the text says (issue 53): a model-written program may state as a
fact only what a premise states as a fact. The reference model's program for the Max design
premise asserted the implication's antecedent and consequents as facts and "proved" the claim;
such a verdict is reported "unverified: the program assumed X", never "✓ proved"."""

from __future__ import annotations

import json

import pytest

from sym.core.reason.pot.grounded import premises_of, unstated, without
from sym.core.reason.pot.schema import load_program
from sym.core.reason.pot.smt2_read import Smt2Program
from sym.repl.render import to_text

PREMISE = "If a design by Max is timeless, then it is a mass product design and evocative."
QUESTION = f"{PREMISE} Is a design by Max a mass product design?"
PREDICATES = ("is_timeless", "is_mass_product_design", "evocative")
IMPLICATION = "Implies(is_timeless(max_design), And(is_mass_product_design(max_design), evocative(max_design)))"


def max_program(*facts: str) -> dict:
    """The reference model's program: the premise, and (as it wrote them) its atoms as facts."""
    return {"sorts": [{"name": "Design", "type": "DeclareSort"}],
            "functions": [{"name": n, "domain": ["Design"], "range": "BoolSort"} for n in PREDICATES],
            "constants": {"designs": {"sort": "Design", "members": ["max_design"]}},
            "knowledge_base": [*facts, IMPLICATION],
            "verifications": [{"name": "claim", "constraint": "is_mass_product_design(max_design)"}],
            "actions": ["verify_conditions"]}


VACUOUS = max_program("is_timeless(max_design)", "is_mass_product_design(max_design)", "evocative(max_design)")


def test_the_facts_a_conditional_premise_only_supposes_are_unstated():
    program = load_program(json.dumps(VACUOUS))
    premises = premises_of(QUESTION)
    assert premises == [PREMISE]                       # the question itself is no premise
    assert [f.text for f in unstated(program, premises)] == list(VACUOUS["knowledge_base"][:3])
    assert without(program, unstated(program, premises)).knowledge_base == [IMPLICATION]
    stated = ["A design by Max is timeless.", "Max's design is not evocative."]
    assert [f.text for f in unstated(program, stated)] == ["is_mass_product_design(max_design)",
                                                           "evocative(max_design)"]   # the polarity is the premise's


def test_an_smt2_script_s_asserted_atoms_are_facts_too():
    script = Smt2Program("(declare-sort Design 0)\n(declare-const max_design Design)\n"
                         "(declare-fun is_timeless (Design) Bool)\n(assert (! (is_timeless max_design) :named p1))\n"
                         "(assert (forall ((d Design)) (is_timeless d)))\n(check-sat)\n")
    [fact] = unstated(script, [PREMISE])
    assert fact.text == "(assert (! (is_timeless max_design) :named p1))"
    assert "(is_timeless max_design) :named" not in without(script, [fact]).text and "forall" in without(script, [fact]).text
    assert unstated(script, ["A design by Max is timeless."]) == []


@pytest.fixture
def prover(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    return shell


def test_a_claim_proved_only_with_facts_no_premise_states_is_unverified_never_proved(ollama_server, prover):
    ollama_server.reply(json.dumps(VACUOUS), when=lambda r: r.format is not None)
    _, result = prover.execute(f"/prove {QUESTION}")
    shown = to_text(result)
    assert "✓" not in shown and "proved" not in shown.splitlines()[0], shown
    assert shown.startswith("unverified: the program assumed is_timeless(max_design); "
                            "is_mass_product_design(max_design); evocative(max_design), which no premise states"
                            " (without them: claim: unknown)"), shown
    assert result.to_dict()["unverified"]["assumed"][0] == "is_timeless(max_design)"
    assert result.to_dict()["verdict"] == "unknown"


def test_facts_the_premises_state_still_prove(ollama_server, prover):
    grounded = max_program("is_timeless(max_design)")
    ollama_server.reply(json.dumps(grounded), when=lambda r: r.format is not None)
    _, result = prover.execute(f"/prove A design by Max is timeless. {QUESTION}")
    assert to_text(result).startswith("✓ proved"), to_text(result)


def test_with_several_samples_a_vote_of_assuming_programs_abstains_and_says_why(ollama_server, prover):
    ollama_server.reply(json.dumps(VACUOUS), when=lambda r: r.format is not None)
    _, result = prover.execute(f"/prove --samples 2 {QUESTION}")
    shown = to_text(result)
    assert shown.startswith("unverified: the program assumed is_timeless(max_design)") and "✓" not in shown, shown
    assert result.vote is not None and result.vote.winner is None and len(result.vote.samples) == 2


def test_a_claim_decided_against_premises_rests_only_on_them(ollama_server, shell):
    """The bench's claim path (decide_claim), one program or a vote: the Max premise, a program
    that assumes its conclusion, decides nothing and says what it assumed."""
    from sym.core.reason.pot.tasks import decide_claim
    from tests.prove.test_steps_llm import llm_of

    llm = llm_of(shell, ollama_server)
    ollama_server.reply(json.dumps(VACUOUS), when=lambda r: r.format is not None)
    claim = "A design by Max is a mass product design."
    for samples in (1, 2):
        status, detail = decide_claim(PREMISE, claim, llm, samples=samples)
        assert status is None and detail["error"].startswith("unverified: the program assumed is_timeless"), detail
