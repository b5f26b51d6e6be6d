"""Step-wise programs voted on (issue 34): steps 1-2 (kinds, words) are asked once, step 3 (one
formula per sentence) is drawn as K samples with seeds of their own, in rounds that stop once the
vote is settled; an "unknown" from a program missing a premise is never an answer; a sort the
model calls closed though the text fixes no members is opened. Through the real `ollama` client
against the scripted Ollama-protocol server."""

from __future__ import annotations

import json

from sym.core.reason.pot.tasks import Encoding, decide_claim
from tests.prove.test_steps_llm import CLAIM, PREMISES, SENTENCES, STEP3, llm_of, requests, script
from tests.recording import recorded, replays_exactly

RULE = "ForAll([x], Implies(whale(x), mammal(x)))"
PROVES = json.dumps({"lines": [{"text": SENTENCES[0], "form": "formula", "formula": RULE},
                               {"text": SENTENCES[1], "form": "formula", "formula": "whale(willy)"},
                               {"text": SENTENCES[2], "form": "formula", "formula": "mammal(willy)"}]})
REFUTES = json.dumps({"lines": [{"text": SENTENCES[0], "form": "formula",
                                 "formula": "ForAll([x], Implies(whale(x), Not(mammal(x))))"},
                                {"text": SENTENCES[1], "form": "formula", "formula": "whale(willy)"},
                                {"text": SENTENCES[2], "form": "formula", "formula": "mammal(willy)"}]})
LEAVES_OUT = json.dumps({"lines": [{"text": SENTENCES[0], "form": "none"},
                                   {"text": SENTENCES[1], "form": "formula", "formula": "whale(willy)"},
                                   {"text": SENTENCES[2], "form": "formula", "formula": "mammal(willy)"}]})


STAYS_UNSAID = json.dumps({"lines": [{"text": SENTENCES[0], "form": "none"}]})


def by_seed(server, replies: dict[int, str]) -> None:
    server.reply(STAYS_UNSAID, when="were rejected")     # a repair of LEAVES_OUT's "none" keeps it
    script(server)
    for seed, text in replies.items():
        server.reply(text, when=lambda r, s=seed: STEP3 in r.last_user and r.options.get("seed") == s)


def seeds(server) -> list[int]:
    return [r.options.get("seed") for r in requests(server, STEP3)]


def test_agreeing_samples_settle_the_vote_and_the_rest_are_not_drawn(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    by_seed(ollama_server, {7001: PROVES, 7002: PROVES, 7003: REFUTES})
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status == "proved", detail
    assert sorted(seeds(ollama_server)) == [7001, 7002]              # 2-0 with one left: settled
    assert len(requests(ollama_server, "Step 1: the kinds")) == 1    # the vocabulary is asked once
    assert len(requests(ollama_server, "Step 2: the words")) == 1
    assert "2 of 2 programs accepted; 1 more not drawn" in detail["vote"]
    assert all(r.options.get("temperature") == 0.7 for r in requests(ollama_server, STEP3))


def test_a_split_is_broken_by_the_next_sample_and_a_tie_abstains(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    by_seed(ollama_server, {7001: PROVES, 7002: REFUTES, 7003: REFUTES})
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status == "refuted" and sorted(seeds(ollama_server)) == [7001, 7002, 7003], detail
    assert detail["tally"] == {"refuted": 2, "proved": 1}
    ollama_server.clear()
    by_seed(ollama_server, {7001: PROVES, 7002: REFUTES})
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=2)
    assert status is None and "disagree" in detail["reason"], detail


def test_an_unknown_from_a_program_missing_a_premise_is_not_an_answer(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    script(ollama_server, formulas=LEAVES_OUT, fix=STAYS_UNSAID)
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"))
    assert status is None and detail["ran"] is True
    assert detail["reason"] == "unknown with premises not encoded" and SENTENCES[0] in detail["error"]
    # a rule over the declared words is not "no condition": it went back before it was left out
    assert any("speaks of whale" in e for e in detail["errors"]), detail
    ollama_server.clear()
    by_seed(ollama_server, {7001: LEAVES_OUT, 7002: PROVES, 7003: LEAVES_OUT})
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status is None and detail["tally"] == {"proved": 1}, detail    # the unknowns did not vote …
    assert detail["reason"].startswith("unknown (only one reading decided it")   # … and one reading alone decides nothing
    ollama_server.clear()
    by_seed(ollama_server, {7001: LEAVES_OUT, 7002: PROVES, 7003: PROVES})
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status == "proved" and detail["tally"] == {"proved": 2}, detail
    ollama_server.clear()
    by_seed(ollama_server, {7001: LEAVES_OUT, 7002: LEAVES_OUT, 7003: LEAVES_OUT})
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status is None and detail["reason"].startswith("no verdict: the accepted programs decided nothing"), detail


def test_a_sort_called_closed_in_a_text_that_counts_nothing_is_opened(ollama_server, shell):
    events: list = []
    llm = llm_of(shell, ollama_server, emit=events.append)
    closed = {"sorts": [{"name": "Thing", "closed": True, "members": ["willy"]}]}
    words = {"functions": [{"name": "whale", "args": ["Thing"], "result": "Bool", "position": False}]}
    every = "Everything is a whale."
    script(ollama_server, closed, words, json.dumps({"lines": [
        {"text": "Willy is a whale.", "form": "formula", "formula": "whale(willy)"},
        {"text": f"claim) {every}", "form": "formula", "formula": "ForAll([x], whale(x))"}]}))
    status, detail = decide_claim("Willy is a whale.", every, llm, encoding=Encoding("json", "steps"))
    assert status == "unknown", detail        # closed over {willy} it would be "proved": not what the text says
    assert any(getattr(e, "label", "") == "sorts opened" for e in events)


def test_prove_with_proof_style_steps_votes_over_sampled_formulas(ollama_server, shell):
    from sym.repl.render import to_text

    shell.ctx.settings.ollama_host = ollama_server.url
    question = "Is Willy a whale?"
    script(ollama_server, words={"functions": [{"name": "whale", "args": ["Thing"], "result": "Bool",
                                                "position": False}]})
    answer = json.dumps({"lines": [{"text": f"claim) {question}", "form": "formula", "formula": "whale(willy)"}]})
    ollama_server.reply(answer, when=lambda r: STEP3 in r.last_user and r.options.get("seed", 0) >= 7000)
    shell.execute("/set proof_style steps")
    _, result = shell.execute(f"/prove --samples 3 {question}")
    assert result.ok, result
    assert sorted(seeds(ollama_server)) == [7001, 7002]
    assert "2 of 2 programs accepted; 1 more not drawn, the vote was settled" in to_text(result)


def test_when_every_sample_fails_the_item_abstains_with_the_reason(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    script(ollama_server)
    wrong = json.dumps({"lines": [{"text": SENTENCES[0], "form": "formula", "formula": RULE},
                                  {"text": SENTENCES[1], "form": "formula", "formula": "whale(willy)"},
                                  {"text": SENTENCES[2], "form": "formula", "formula": "whale(willy)"}]})  # not its words
    again = json.dumps({"lines": [{"text": SENTENCES[2], "form": "formula", "formula": "whale(willy)"}]})
    ollama_server.reply(again, when="were rejected")        # the repair round repeats the mistake
    ollama_server.reply(wrong, when=STEP3)
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3, attempts=2)
    assert status is None and detail["ran"] is False, detail
    assert "no program that ran" not in detail["vote"] and "0 of 3 programs accepted" in detail["vote"], detail
    assert detail["reason"].startswith("no program:")
    assert "'whale' says 'whale', which the sentence does not" in detail["errors"][-1]


def test_when_the_shared_vocabulary_fails_each_sample_declares_its_own(ollama_server, shell):
    from tests.prove.test_steps_llm import KINDS, STEP1, STEP2, WORDS

    llm = llm_of(shell, ollama_server)
    bad = {"functions": [{"name": "whale", "args": ["Fish"], "result": "Bool", "position": False}]}  # no such sort
    for seed in (7001, 7002):
        ollama_server.reply(json.dumps(WORDS), when=lambda r, s=seed: STEP2 in r.last_user and r.options.get("seed") == s)
        ollama_server.reply(PROVES, when=lambda r, s=seed: STEP3 in r.last_user and r.options.get("seed") == s)
    ollama_server.reply(json.dumps(KINDS), when=STEP1)
    ollama_server.reply(json.dumps(bad), when=STEP2)                  # the shared one, and every repair of it
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status == "proved", detail
    assert "2 of 2 programs accepted" in detail["vote"]
    own = [r.options.get("seed") for r in requests(ollama_server, STEP2) if r.options.get("seed", 0) > 7000]
    assert sorted(own) == [7001, 7002]                                # each sample asked for its own words
    ollama_server.clear()
    ollama_server.reply(json.dumps(KINDS), when=STEP1)
    ollama_server.reply(json.dumps(bad), when=STEP2)                  # no sample finds words either
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status is None and detail["ran"] is False, detail
    assert len([r for r in requests(ollama_server, STEP2) if r.options.get("seed", 0) > 7000]) >= 3   # all tried


def in_flight_together(server, asked, reply: str) -> list[bool]:
    """Sample 1's request that `asked(request, 7001)` is held until sample 2's (`asked(request,
    7002)`) arrives, or 30 s; both are answered `reply`. The list it returns gets, when sample 2's
    arrives, whether sample 1's was still unanswered: [True] when they were in flight together."""
    answered: set[int] = set()
    held: list[bool] = []

    def first(r) -> bool:
        if asked(r, 7001):
            answered.add(7001)
            return True
        return False

    def second(r) -> bool:
        if asked(r, 7002):
            held.append(7001 not in answered)
            hold.gate.set()                    # sample 1's request may be answered now
            return True
        return False
    hold = server.fail("hold", delay=30, when=lambda r: asked(r, 7001))
    server.reply(reply, when=first)
    server.reply(reply, when=second)
    return held


def test_a_rounds_first_step_three_requests_are_in_flight_together(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    held = in_flight_together(ollama_server, lambda r, seed: STEP3 in r.last_user and r.options.get("seed") == seed,
                              PROVES)
    script(ollama_server)
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status == "proved", detail
    assert held == [True]                     # sample 2 was asked before sample 1 was answered
    assert sorted(seeds(ollama_server)) == [7001, 7002]


def test_the_samples_repairs_are_in_flight_together_too(ollama_server, shell):
    """Written one sample after the other, the second's repair would come only after the first's
    was answered (and its hold ran out)."""
    llm = llm_of(shell, ollama_server)
    wrong = json.dumps({"lines": [{"text": SENTENCES[0], "form": "formula", "formula": RULE},
                                  {"text": SENTENCES[1], "form": "formula", "formula": "whale(willy)"},
                                  {"text": SENTENCES[2], "form": "formula", "formula": "whale(willy)"}]})  # not its words
    fixed = json.dumps({"lines": [{"text": SENTENCES[2], "form": "formula", "formula": "mammal(willy)"}]})
    held = in_flight_together(ollama_server, lambda r, seed: "were rejected" in r.last_user and
                              r.options.get("seed") == seed, fixed)
    ollama_server.reply(wrong, when=STEP3)
    script(ollama_server)
    status, detail = decide_claim(PREMISES, CLAIM, llm, encoding=Encoding("json", "steps"), samples=3)
    assert status == "proved", detail
    assert held == [True]                     # sample 2's repair was asked before sample 1's was answered
    assert "2 of 2 programs accepted" in detail["vote"], detail


def test_step_wise_samples_with_their_repairs_are_recorded_and_replay_offline_exactly(ollama_server, sym_home):
    question = "Is Willy a whale?"
    script(ollama_server, words={"functions": [{"name": "whale", "args": ["Thing"], "result": "Bool",
                                                "position": False}]})
    answer = json.dumps({"lines": [{"text": f"claim) {question}", "form": "formula", "formula": "whale(willy)"}]})
    broken = json.dumps({"lines": [{"text": f"claim) {question}", "form": "formula", "formula": "whale(wily)"}]})
    ollama_server.reply(answer, when="were rejected")                          # each sample's repair
    ollama_server.reply(broken, when=lambda r: STEP3 in r.last_user and r.options.get("seed") == 7002)
    ollama_server.reply(answer, when=STEP3)
    (_, result), calls, path = recorded(ollama_server, "/set proof_style steps", f"/prove --samples 3 {question}")
    assert result.ok, result
    rounds = [(c["purpose"], c["request"]["options"].get("seed")) for c in calls]
    assert ("prove.4: formulas", 7002) in rounds, rounds                      # sample 2's repair round is recorded
    assert replays_exactly(path)
