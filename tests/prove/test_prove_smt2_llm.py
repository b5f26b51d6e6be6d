"""Model-written programs in SMT-LIB (issue 18 part 1): `/set proof.format smt2` then `/prove
QUESTION`, and `decide_claim` with Encoding("smt2"), through the real `ollama` client against
the scripted Ollama-protocol server. Replies are free text (no JSON format); a script with an
error goes back with its line and column; a script Z3 cannot settle is a timeout (exit 4)."""

from __future__ import annotations

from sym.core.reason.pot.tasks import Encoding, decide_claim
from sym.core.run import Run
from sym.repl.results import Failure
from tests.conftest import fails, state
from tests.llm.test_llm_prove import wired

QUESTION = "/prove Could Sotomayor jump over a giraffe?"

GOOD = """(declare-sort Animal 0)
(declare-const sotomayor Animal)
(declare-const giraffe Animal)
(declare-fun height (Animal) Real)
(declare-fun jump (Animal) Real)
(assert (! (= (height sotomayor) 1.6) :named h1))
(assert (! (= (height giraffe) 5.0) :named h2))
(assert (! (< (jump sotomayor) 1.0) :named j1))
(define-fun can_jump () Bool (> (jump sotomayor) (height giraffe)))
(define-fun is_taller () Bool (> (height giraffe) (height sotomayor)))
(check-sat-assuming (can_jump))
(check-sat-assuming (is_taller))"""

REPLY = f"""Here is the program.

```smt2
{GOOD}
```

Z3 will settle it."""

# the third assertion names `hippo`, which is never declared (line 8)
UNKNOWN_CONSTANT = GOOD.replace("(< (jump sotomayor) 1.0)", "(< (jump hippo) 1.0)")

# easy to satisfy, hard to prove: Z3 cannot settle Fermat's cubes within a small timeout
FERMAT = """(declare-const x Int)
(declare-const y Int)
(declare-const z Int)
(assert (> x 1))
(assert (> y 1))
(assert (> z 1))
(define-fun fermat () Bool (not (= (+ (* x x x) (* y y y)) (* z z z))))
(check-sat-assuming (fermat))"""


def statuses(result) -> dict[str, str]:
    return {v["name"]: v["status"] for v in result.to_dict()["verifications"]}


# -- /prove QUESTION with proof.format smt2 ----------------------------------------------------

def test_set_proof_format_smt2_then_prove_reads_the_fenced_script(ollama_server, shell):
    wired(shell, ollama_server)
    assert shell.execute("/set proof.format smt2")[1].ok
    assert shell.ctx.settings.proof_format == "smt2"
    ollama_server.reply(REPLY)
    result = shell.execute(QUESTION)[1]
    assert result.ok, result
    assert result.attempts == 1
    assert statuses(result) == {"can_jump": "refuted", "is_taller": "proved"}
    [chat] = ollama_server.chats
    assert chat.format is None                       # free text, not a JSON schema
    assert "SMT-LIB" in chat.system
    assert "Sotomayor" in chat.last_user
    shown = shell.execute("/program")[1]
    assert shown.ok
    script = shown.to_dict()["program"]["smt2"]
    assert "(check-sat-assuming (can_jump))" in script and "(declare-const sotomayor Animal)" in script
    assert "Here is the program" not in script and "```" not in script     # the prose is not the script


def test_an_unknown_constant_goes_back_with_its_line_and_column(ollama_server, shell):
    events = wired(shell, ollama_server, proof_format="smt2")
    ollama_server.reply(f"```smt2\n{UNKNOWN_CONSTANT}\n```", REPLY)
    result = shell.execute(QUESTION)[1]
    assert result.ok, result
    assert result.attempts == 2
    assert statuses(result) == {"can_jump": "refuted", "is_taller": "proved"}
    assert len(ollama_server.chats) == 2
    told = ollama_server.chats[1].body["messages"][-1]
    assert told["role"] == "user"
    assert "line" in told["content"] and "column" in told["content"]
    assert "hippo" in told["content"]
    assert ollama_server.chats[1].format is None
    assert any(getattr(e, "kind", "") == "prove.attempt" and e.status == "failed" for e in events)


def test_a_reply_with_no_script_is_repaired(ollama_server, shell):
    wired(shell, ollama_server, proof_format="smt2")
    ollama_server.reply("I think Sotomayor could not, giraffes are tall.", REPLY)
    result = shell.execute(QUESTION)[1]
    assert result.ok, result
    assert result.attempts == 2
    assert "SMT-LIB" in ollama_server.chats[1].body["messages"][-1]["content"]


def test_no_script_on_every_attempt_is_a_one_line_failure_and_memory_is_unchanged(ollama_server, shell):
    wired(shell, ollama_server, proof_format="smt2", proof_attempts=2)
    assert shell.execute("/tell bob is tall.")[1].ok
    before = sorted(shell.memory.items)
    assert before                                   # one item the failure must leave alone
    ollama_server.reply("No idea, sorry.")
    result = shell.execute(QUESTION)[1]
    assert not result.ok
    fails(result, "no valid program after 2 attempts")
    assert len(ollama_server.chats) == 2
    assert state(shell)[0] == before


def test_a_script_z3_cannot_settle_on_every_attempt_is_a_timeout(ollama_server, shell):
    wired(shell, ollama_server, proof_format="smt2", proof_timeout=0.2)
    ollama_server.reply(f"```smt2\n{FERMAT}\n```")
    result = shell.execute(QUESTION)[1]
    assert isinstance(result, Failure) and result.exit_code == 4, result
    assert "proof.timeout" in result.message and "cancel" not in result.message
    assert len(ollama_server.chats) == 3          # proof.attempts 3: each timeout went back
    assert "proof.timeout" in ollama_server.chats[1].body["messages"][-1]["content"]


# -- decide_claim with Encoding("smt2") --------------------------------------------------------

PREMISES = "All cats are mammals. No mammal is a reptile. Tom is a cat."
DECLS = """(declare-sort Thing 0)
(declare-const tom Thing)
(declare-fun cat (Thing) Bool)
(declare-fun mammal (Thing) Bool)
(declare-fun reptile (Thing) Bool)
(declare-fun green (Thing) Bool)
(assert (! (forall ((x Thing)) (=> (cat x) (mammal x))) :named p1))
(assert (! (forall ((x Thing)) (=> (mammal x) (not (reptile x)))) :named p2))
(assert (! (cat tom) :named p3))
"""


def claim_script(formula: str, name: str = "claim") -> str:
    return f"```smt2\n{DECLS}(define-fun {name} () Bool {formula})\n(check-sat-assuming ({name}))\n```"


def llm_of(shell, server):
    """A run of the shell (its model client, on the test server) for decide_claim."""
    wired(shell, server)
    return Run.using(shell.ctx.llm, "claim")


def test_decide_claim_in_smt2_proves_refutes_and_leaves_open(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    ollama_server.reply(claim_script("(mammal tom)"), when="Tom is a mammal.")
    ollama_server.reply(claim_script("(reptile tom)"), when="Tom is a reptile.")
    ollama_server.reply(claim_script("(green tom)"), when="Tom is green.")
    got = {claim: decide_claim(PREMISES, claim, llm, encoding=Encoding("smt2"))
           for claim in ("Tom is a mammal.", "Tom is a reptile.", "Tom is green.")}
    assert {c: s for c, (s, _) in got.items()} == {"Tom is a mammal.": "proved", "Tom is a reptile.": "refuted",
                                                   "Tom is green.": "unknown"}
    for _, detail in got.values():
        assert detail["ran"] is True and detail["attempts"] == 1 and detail["encoding"] == "smt2/whole"
    assert len(ollama_server.chats) == 3
    for chat in ollama_server.chats:
        assert chat.format is None and "SMT-LIB" in chat.system
        assert "All cats are mammals." in chat.last_user


def test_a_claim_not_named_claim_goes_back_to_the_model(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    ollama_server.reply(claim_script("(mammal tom)", name="goal"), claim_script("(mammal tom)"))
    status, detail = decide_claim(PREMISES, "Tom is a mammal.", llm, encoding=Encoding("smt2"))
    assert status == "proved"
    assert detail["attempts"] == 2 and detail["ran"] is True
    assert len(ollama_server.chats) == 2
    told = ollama_server.chats[1].body["messages"][-1]["content"]
    assert "goal" in told and "claim" in told
    assert any("goal" in e for e in detail["errors"])
