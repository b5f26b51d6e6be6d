"""/tell through the model with llm.samples K > 1, against the Ollama-protocol test server: K
readings drawn together (one seed each, at the sample temperature), a clause stored only when
most of the readings the checker accepted state it; a tie, or no accepted reading, stores
nothing and says so with the counts; every sample is in the session, and an offline replay
is exact."""

from __future__ import annotations

import json

from sym.repl.render import to_text
from tests.conftest import fails, texts
from tests.recording import recorded, replays_exactly
from tests.verifier import verifier, verifying

SENTENCE = "Every morning, Alice happens to own a car."      # general: read through the statement menu


def fact(pred: str, *args: str) -> dict:
    return {"kind": "fact", "predicate": "other", "new_predicate": pred, "args": list(args), "negated": False}


def by_seed(server, readings: dict[int, list[dict]]) -> None:
    """Sample n (seed 7000 + n) reads the sentence as `readings[n]`; any other reading request
    (a repair included) gets a reply outside the menu."""
    for seed, statements in readings.items():
        server.reply(json.dumps({"statements": statements}),
                     when=lambda r, s=seed: not verifying(r) and r.options.get("seed") == s)
    server.reply(json.dumps({"statements": [{"kind": "fact", "predicate": "nope", "args": ["alice"],
                                             "negated": False}]}), when=lambda r: not verifying(r))
    verifier(server)


def readings(server) -> list:
    return [r for r in server.chats if not verifying(r) and r.options.get("seed", 0) > 7000]


def test_samples_that_agree_store_the_fact_and_spare_the_rest(llm_sym):
    owns = fact("owns", "alice", "car")
    by_seed(llm_sym.server, {7001: [owns], 7002: [owns], 7003: [owns]})
    llm_sym("/set llm.samples 3")
    r = llm_sym("/tell " + SENTENCE)
    assert r.ok, r
    assert "owns(alice, car)." in texts(llm_sym.shell.memory)
    shown = "owns(alice, car) 2 (2 of 2 samples read it; 1 more not drawn, the vote was settled)"
    assert f"  vote: {shown}" in to_text(r).splitlines()
    assert r.to_dict()["sentences"][0]["vote"] == shown
    drawn = readings(llm_sym.server)
    assert sorted(q.options["seed"] for q in drawn) == [7001, 7002]         # the third could not change it
    assert all(q.options["temperature"] == 0.7 for q in drawn)
    checks = [q for q in llm_sym.server.chats if verifying(q)]
    assert sorted(q.options["seed"] for q in checks) == [7001, 7001, 7002, 7002]   # each sample's check and control
    assert all(q.options["temperature"] == 0 for q in checks)       # a judgment, not a sample
    assert r.llm_calls == 6


def test_a_split_in_the_first_round_draws_the_next_sample(llm_sym):
    owns, drives = fact("owns", "alice", "car"), fact("drives", "alice", "car")
    by_seed(llm_sym.server, {7001: [owns], 7002: [drives], 7003: [drives], 7004: [owns], 7005: [owns]})
    llm_sym("/set llm.samples 5")
    r = llm_sym("/tell Every morning, Alice happens to own a car she drives.")
    assert r.ok, r
    assert texts(llm_sym.shell.memory) == {"owns(alice, car)."}                # 3 of 5 say owns
    assert sorted(q.options["seed"] for q in readings(llm_sym.server)) == [7001, 7002, 7003, 7004, 7005]
    assert "  vote: owns(alice, car) 3, drives(alice, car) 2 (5 of 5 samples read it)" in to_text(r).splitlines()


def test_a_split_keeps_only_what_most_samples_state(llm_sym):
    owns, drives = fact("owns", "alice", "car"), fact("drives", "alice", "car")
    by_seed(llm_sym.server, {7001: [owns], 7002: [owns, drives], 7003: [owns]})
    llm_sym("/set llm.samples 3")
    r = llm_sym("/tell Every morning, Alice happens to own a car she drives.")
    assert r.ok, r
    assert texts(llm_sym.shell.memory) == {"owns(alice, car)."}
    assert "  vote: owns(alice, car) 3, drives(alice, car) 1 (3 of 3 samples read it)" in to_text(r).splitlines()


def test_a_tie_abstains_and_stores_nothing(llm_sym):
    by_seed(llm_sym.server, {7001: [fact("owns", "alice", "car")], 7002: [fact("drives", "alice", "car")]})
    llm_sym("/set llm.samples 2")
    before = texts(llm_sym.shell.memory)
    r = llm_sym("/tell Every morning, Alice happens to own a car she drives.")
    message = fails(r, "not understood")
    assert "the model's readings disagree: owns(alice, car) 1, drives(alice, car) 1 (2 of 2 samples read it)" \
        in message
    assert texts(llm_sym.shell.memory) == before


def test_no_accepted_sample_stores_nothing_in_one_clear_line(llm_sym):
    by_seed(llm_sym.server, {})                     # every reading is outside the menu, repairs too
    llm_sym("/set llm.samples 3")
    before = texts(llm_sym.shell.memory)
    r = llm_sym("/tell " + SENTENCE)
    message = fails(r, "not understood")
    assert "no sample's reading was accepted (0 of 3)" in message
    assert texts(llm_sym.shell.memory) == before
    assert sorted({q.options["seed"] for q in readings(llm_sym.server)}) == [7001, 7002, 7003]


def test_one_sample_reads_as_before_with_no_seed(llm_sym):
    llm_sym.server.reply(json.dumps({"statements": [fact("owns", "alice", "car")]}), when=lambda r: not verifying(r))
    verifier(llm_sym.server)
    r = llm_sym("/tell " + SENTENCE)
    assert r.ok and r.llm_calls == 3 and "vote" not in to_text(r)           # the reading, its check and control
    assert all("seed" not in q.options for q in llm_sym.server.chats)


def test_every_sample_is_recorded_and_offline_replay_is_exact(ollama_server, sym_home):
    owns, owned = fact("owns", "alice", "car"), fact("owns", "car", "alice")
    by_seed(ollama_server, {7001: [owns], 7002: [owned], 7003: [owns]})
    (_, result), calls, path = recorded(ollama_server, "/set llm.samples 3", "/tell " + SENTENCE)
    assert result.ok, result
    assert sorted(c["request"]["options"].get("seed") for c in calls if c["purpose"] == "tell") == [7001, 7002, 7003]
    assert replays_exactly(path)


def test_a_call_that_fails_while_sampling_stores_nothing_in_one_line(llm_sym):
    by_seed(llm_sym.server, {7001: [fact("owns", "alice", "car")]})
    llm_sym.server.fail("server", when=lambda r: r.options.get("seed") == 7002, times=None, message="the model is away")
    llm_sym("/set llm.samples 3")
    before = texts(llm_sym.shell.memory)
    message = fails(llm_sym("/tell " + SENTENCE))
    assert "the model is away" in message and texts(llm_sym.shell.memory) == before
    assert llm_sym("/tell Bob is big.").ok                      # the shell goes on: no sample is left waiting
