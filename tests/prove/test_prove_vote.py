"""/prove QUESTION --samples K against the Ollama-protocol test server: K programs sampled, each
with its own seed, a vote over those Z3 accepts; a split or no program that ran abstains with
the vote shown, and the model's own answer comes only when llm.fallback allows it, labelled."""

from __future__ import annotations

import json
from pathlib import Path

from sym.core.events import TraceNode
from sym.repl.render import to_text
from tests.recording import recorded, replays_exactly

GOOD = json.loads((Path(__file__).resolve().parents[2] / "examples" / "height.json").read_text())   # refuted
PROVED = {**GOOD, "verifications": [{"name": "Sotomayor jumps over the giraffe",
                                     "constraint": "jump_height(javier_sotomayor) <= height(average_giraffe)"}]}
BROKEN = {**GOOD, "knowledge_base": ["jump_height(javier) == 2.45"]}   # javier is not declared
QUESTION = "Could Sotomayor jump over a giraffe?"
CLAIM = "Sotomayor jumps over the giraffe"


def seeded(server, by_seed: dict[int, dict]) -> None:
    """Sample n (seed 7000 + n) gets its program; anything else (a repair) gets BROKEN."""
    for seed, program in by_seed.items():
        server.reply(json.dumps(program), when=lambda r, s=seed: r.options.get("seed") == s)
    server.default = json.dumps(BROKEN)


def samples(server):
    return [r for r in server.requests_to("/api/chat") if "seed" in r.options and r.options["seed"] >= 7000]


def test_samples_that_agree_answer_by_majority_with_the_vote_shown(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    seeded(ollama_server, {7001: GOOD, 7002: PROVED, 7003: GOOD})
    events = []
    shell.ctx.emit = events.append
    _, result = shell.execute("/prove --samples 3 " + QUESTION)
    assert result.ok, result
    text = to_text(result)
    assert text.splitlines()[0].startswith("✗ refuted") and CLAIM in text
    assert f"(vote: {CLAIM}: refuted 2, {CLAIM}: proved 1 (3 of 3 programs accepted))" in text
    drawn = samples(ollama_server)
    assert sorted(r.options["seed"] for r in drawn) == [7001, 7002, 7003]
    assert all(r.options["temperature"] == 0.7 for r in drawn)
    assert result.to_dict()["vote"] == {"samples": 3, "allowed": 3, "accepted": 3, "winner": f"{CLAIM}: refuted",
                                        "tally": {f"{CLAIM}: refuted": 2, f"{CLAIM}: proved": 1}}
    kinds = [e.kind for e in events if isinstance(e, TraceNode)]
    assert kinds.count("prove.sample") >= 3 and "vote" in kinds
    assert shell.execute("/program")[1].ok          # the winning program is the shell's last


def test_once_the_first_samples_settle_the_vote_no_more_are_drawn(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    seeded(ollama_server, {7001: GOOD, 7002: GOOD, 7003: GOOD, 7004: PROVED, 7005: PROVED})
    _, result = shell.execute("/prove --samples 5 " + QUESTION)
    assert result.ok and to_text(result).splitlines()[0].startswith("✗ refuted")
    assert sorted(r.options["seed"] for r in samples(ollama_server)) == [7001, 7002, 7003]   # 3-0, 2 left
    assert "(3 of 3 programs accepted; 2 more not drawn, the vote was settled)" in to_text(result)
    assert result.to_dict()["vote"]["samples"] == 3 and result.to_dict()["vote"]["allowed"] == 5


def test_samples_are_drawn_one_at_a_time_while_the_vote_is_open(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    seeded(ollama_server, {7001: GOOD, 7002: PROVED, 7003: GOOD, 7004: GOOD, 7005: PROVED})
    _, result = shell.execute("/prove --samples 5 " + QUESTION)
    # 2-1 after three, with two left: a fourth is drawn; 3-1 with one left is settled
    assert sorted(r.options["seed"] for r in samples(ollama_server)) == [7001, 7002, 7003, 7004]
    assert to_text(result).splitlines()[0].startswith("✗ refuted")
    assert "(4 of 4 programs accepted; 1 more not drawn, the vote was settled)" in to_text(result)


def test_a_split_vote_abstains_and_shows_the_vote(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    seeded(ollama_server, {7001: GOOD, 7002: PROVED})
    shell.execute("/set llm.samples 2")
    _, result = shell.execute("/prove " + QUESTION)
    assert result.ok
    assert to_text(result).splitlines() == [
        "unknown (the model's programs disagree)",
        f"  vote: {CLAIM}: refuted 1, {CLAIM}: proved 1 (2 of 2 programs accepted)"]
    assert result.to_dict()["abstained"] is True and "fallback" not in result.to_dict()
    assert not any(r for r in ollama_server.requests_to("/api/chat") if "Answer:" in r.system)   # no fallback asked


def test_no_accepted_sample_abstains_then_the_fallback_is_labelled_unverified(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply("The giraffe is far taller.\nAnswer: no", when=lambda r: "Answer:" in r.system)
    ollama_server.default = json.dumps(BROKEN)
    _, before = shell.execute("/prove --samples 3 " + QUESTION)
    assert to_text(before).splitlines()[0] == "unknown (no program the model wrote ran)"
    assert "0 of 3 programs accepted" in to_text(before) and "unverified" not in to_text(before)
    shell.execute("/set llm.fallback on")
    _, result = shell.execute("/prove --samples 3 " + QUESTION)
    lines = to_text(result).splitlines()
    assert lines[-1] == "the model alone (unverified, nothing checked it): no"
    assert result.to_dict()["fallback"] == {"answer": "no", "verified": False}
    assert not shell.execute("/program")[1].ok       # nothing was proved


def test_one_sample_with_the_fallback_abstains_instead_of_failing(ollama_server, shell):
    shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply("Answer: no", when=lambda r: "Answer:" in r.system)
    ollama_server.default = json.dumps(BROKEN)
    shell.execute("/set llm.fallback on")
    _, result = shell.execute("/prove " + QUESTION)
    assert result.ok and "no valid program after 3 attempts" in to_text(result)
    assert to_text(result).splitlines()[-1] == "the model alone (unverified, nothing checked it): no"


def test_every_sample_is_recorded_and_offline_replay_is_exact(ollama_server, sym_home):
    seeded(ollama_server, {7001: GOOD, 7002: PROVED, 7003: GOOD})
    _, calls, path = recorded(ollama_server, "/prove --samples 3 " + QUESTION)
    assert sorted(c["request"]["options"].get("seed") for c in calls if c["purpose"] == "prove.sample") == \
        [7001, 7002, 7003]
    assert replays_exactly(path)
