"""Answers from documents: the prompt numbers the passages, the model's numbers become citations,
a number that names no passage is dropped, and with no model the passages stand in."""

from __future__ import annotations

import pytest

from sym.core.errors import UserError
from sym.core.llm import LLMError, Reply
from sym.core.reason import docs_answer
from sym.core.reason.docs_answer import Cited, answer, cite, messages

PASSAGES = [Cited("notes.txt ¶5", "Next meeting: Thursday at nine.", "", 1.0, "d1:a"),
            Cited("notes.txt ¶2", "Automobiles are checked every week.", "Vehicles", 0.5, "d1:b")]


class Model:
    def __init__(self, text: str = "", error: LLMError | None = None) -> None:
        self.text, self.error, self.sent = text, error, []

    def chat(self, messages, *, purpose):
        self.sent.append((messages, purpose))
        if self.error is not None:
            raise self.error
        return Reply(self.text, "tiny")


@pytest.fixture
def found(monkeypatch):
    monkeypatch.setattr(docs_answer, "retrieve", lambda store, question, k, **_: PASSAGES[:k])


def test_the_prompt_numbers_the_passages_with_where_they_come_from():
    system, user = messages("When is the next meeting?", PASSAGES)
    assert "cite" in system["content"]
    assert "[1] (notes.txt ¶5)\nNext meeting" in user["content"]
    assert "[2] (notes.txt ¶2 · Vehicles)" in user["content"]
    assert user["content"].endswith("Question: When is the next meeting?")


def test_numbers_become_citations_and_unknown_numbers_are_dropped():
    text, used, unknown = cite("On Thursday at nine [1]. Cars weekly [2][1]. Also [7].", PASSAGES)
    assert text == "On Thursday at nine [notes.txt ¶5]. Cars weekly [notes.txt ¶2][notes.txt ¶5]. Also ."
    assert used == ["notes.txt ¶5", "notes.txt ¶2"] and unknown == [7]
    assert cite("As [notes.txt ¶2] says.", PASSAGES)[1] == ["notes.txt ¶2"]


def test_a_model_answer_cites_its_passages_and_is_never_verified(found):
    model = Model("Thursday at nine [1].")
    result = answer("When is the next meeting?", None, lambda: model, k=2)
    assert result.text == "Thursday at nine [notes.txt ¶5]." and result.cited == ["notes.txt ¶5"]
    assert result.verified is False and result.model == "tiny" and model.sent[0][1] == "ask.docs"
    assert result.to_dict()["passages"][0]["cite"] == "notes.txt ¶5"


@pytest.mark.parametrize("reason", ["unreachable", "no-model", "timeout"])
def test_with_no_model_the_passages_stand_in_and_say_why(found, reason):
    result = answer("When?", None, lambda: Model(error=LLMError("cannot reach Ollama", reason=reason)), k=2)
    assert result.text == "" and [p.cite for p in result.passages] == ["notes.txt ¶5", "notes.txt ¶2"]
    assert result.why_no_answer == "no model answer (cannot reach Ollama)"


def test_a_cancel_is_not_swallowed(found):
    with pytest.raises(LLMError):
        answer("When?", None, lambda: Model(error=LLMError("cancelled", reason="cancelled")), k=2)


def test_no_matching_passage_asks_no_model(monkeypatch):
    monkeypatch.setattr(docs_answer, "retrieve", lambda *a, **k: [])
    model = Model("x")
    result = answer("When?", None, lambda: model)
    assert result.why_no_answer == "no loaded document matches the question" and model.sent == []
    with pytest.raises(UserError, match="ask what"):
        answer("  ", None, lambda: model)
