"""Samples drawn in lockstep (core/reason/swm/lockstep.py): each sample's calls keep what the
sample asked for (its model, its stop test) when a round sends them together. Through the real
`ollama` client against the scripted Ollama-protocol server."""

from __future__ import annotations

from pydantic import BaseModel

from sym.core.reason.swm.lockstep import draw
from tests.prove.test_steps_vote import in_flight_together

USER = [{"role": "user", "content": "Answer it."}]


class Answer(BaseModel):
    answer: str


def llm_of(shell, server):
    shell.ctx.settings.ollama_host = server.url
    return shell.ctx.llm


def test_a_samples_repair_on_another_model_is_sent_to_that_model(ollama_server, shell):
    llm = llm_of(shell, ollama_server)
    ollama_server.models = [*ollama_server.models, "judge:1b"]
    ollama_server.reply('{"answer": "yes"}')

    def read(client) -> str:
        model = "judge:1b" if client.n == 1 else None          # sample 2 asks the settings' model
        return client.json_with_repair(USER, Answer, model=model).answer

    assert draw(llm, [1, 2], read, temperature=0.7) == ["yes", "yes"]
    sent = {r.options["seed"]: r.model for r in ollama_server.chats}
    assert sent == {7001: "judge:1b", 7002: "llama3.1:8b"}


def test_samples_with_stop_tests_of_their_own_go_out_together_and_each_stops_at_its_own(ollama_server, shell):
    """Each sample's stop test is a closure of its own; their calls still go out in one round
    (held request: sample 1's is answered only once sample 2's has arrived)."""
    llm = llm_of(shell, ollama_server)
    held = in_flight_together(ollama_server, lambda r, seed: r.options.get("seed") == seed, "a END1 b END2 c tail")

    def read(client) -> str:
        mark = f"END{client.n}"
        return client.json_with_repair(USER, Answer, parse=str.strip, until=lambda text: mark in text)

    assert draw(llm, [1, 2], read, temperature=0.7) == ["a END1", "a END1 b END2"]
    assert held == [True]
    assert all(r.stream for r in ollama_server.chats)
