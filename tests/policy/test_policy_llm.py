"""The model-backed parts of policies, over the Ollama-protocol test server: the goal
classifier, the judge, and rewritten rules (which, like all suggestions, wait for accept)."""

from __future__ import annotations

from sym.core.events import Warning
from sym.repl.dispatcher import Shell
from sym.repl.steering import policy_state
from tests.policy.test_policy_apply import add_probe


def wired(server, events=None):
    shell = Shell(emit=(events.append if events is not None else lambda e: None))
    shell.ctx.settings.ollama_host = server.url
    shell.ctx.settings.llm_retries = 0
    return shell, add_probe(shell)


def test_the_llm_classifier_types_goals_the_keywords_miss(ollama_server):
    shell, seen = wired(ollama_server)
    ollama_server.reply(json={"goal_type": "legal"}, when=lambda r: "classify" in r.system)
    for line in ("/policy classify legal contract", "/policy classifier llm",
                 "/policy add {name: law, target: llm, filter: {goal_type: legal}, attributes: {temperature: 0.1}}"):
        assert shell.execute(line)[1].ok
    shell.execute("/probe may my landlord keep the deposit?")      # no keyword: the model decides
    assert seen[-1].settings["temperature"] == 0.1
    asked = [r for r in ollama_server.chats if "classify" in r.system]
    assert len(asked) == 1 and asked[0].last_user == "may my landlord keep the deposit?"
    assert "legal" in asked[0].system                               # the user's types are offered


def test_a_failing_classifier_falls_back_to_keywords_with_a_warning(ollama_server):
    events: list = []
    shell, seen = wired(ollama_server, events)
    ollama_server.fail("server", times=None)
    shell.execute("/policy classifier llm")
    shell.execute("/policy add {name: p, target: reasoner, filter: {goal_type: proof}, attributes: {max_steps: 3}}")
    shell.execute("/probe prove that it rains")
    assert seen[-1].settings["max_steps"] == 3
    assert any(isinstance(e, Warning) and "classifier failed" in e.message for e in events)


def test_the_judge_scores_runs_with_its_own_model(ollama_server):
    ollama_server.strict_models = False
    shell, _ = wired(ollama_server)
    ollama_server.reply(json={"score": 4, "reason": "sound"}, when=lambda r: "grade" in r.system)
    shell.execute("/policy add {name: cool, target: llm, attributes: {temperature: 0.3}}")
    assert shell.execute("/set judge.model judge:1b")[1].ok
    shell.execute("/probe is socrates mortal?")
    (run,) = policy_state(shell.ctx).store.runs()
    assert (run.score, run.score_source) == (0.75, "judge")          # rating 4 of 5
    judged = [r for r in ollama_server.chats if "grade" in r.system]
    assert [r.model for r in judged] == ["judge:1b"]
    assert "is socrates mortal?" in judged[0].last_user
    assert shell.ctx.settings.model == "llama3.1:8b"                 # the shell's model is untouched


def test_llm_rewrites_are_suggestions_until_accepted(ollama_server):
    shell, seen = wired(ollama_server)
    shell.execute("/policy add {name: hot, target: llm, filter: {command: /probe}, attributes: {temperature: 0.9}}")
    for _ in range(3):
        shell.execute("/probe q")
        shell.execute("/rate 1")
    ollama_server.reply(json={"target": "llm", "filter": {"command": "/probe"}, "attributes": {"temperature": 0.1},
                              "reason": "lower temperature for steadier answers"},
                        when=lambda r: "improve steering rules" in r.system)
    result = shell.execute("/policy suggest --llm")[1]
    rewrites = [s for s in result.suggestions if s["origin"] == "llm"]
    assert len(rewrites) == 1 and rewrites[0]["body"]["attributes"] == {"temperature": 0.1}
    shell.execute("/probe q")
    assert seen[-1].settings["temperature"] == 0.9                   # nothing changed yet
    assert shell.execute(f"/policy accept {rewrites[0]['id']}")[1].ok
    shell.execute("/probe q")
    assert seen[-1].settings["temperature"] == 0.1


def test_an_invalid_rewrite_is_dropped(ollama_server):
    events: list = []
    shell, _ = wired(ollama_server, events)
    shell.execute("/policy add {name: hot, target: llm, filter: {command: /probe}, attributes: {temperature: 0.9}}")
    for _ in range(3):
        shell.execute("/probe q")
        shell.execute("/rate 1")
    ollama_server.reply(json={"target": "gpu", "filter": {}, "attributes": {"temperature": 0.1}},
                        when=lambda r: "improve steering rules" in r.system)
    result = shell.execute("/policy suggest --llm")[1]
    assert [(s["origin"], s["action"]) for s in result.suggestions] == [("stats", "replace")]
    assert any(isinstance(e, Warning) and "invalid" in e.message for e in events)
