"""Scripted answers for the yes/no check that follows a model's reading of a sentence (/tell).

The check's prompt repeats the sentence, so a test's own `when="…"` rule would answer it too;
`verifier` puts its rule first, so it answers only the check, whatever the test adds later.
"""

from __future__ import annotations

from tests.ollama_server import OllamaServer, Request, Rule


def verifying(request: Request) -> bool:
    """A request for the check (first call or repair)."""
    return request.system.startswith("You check what a reasoner read")


def verifier(server: OllamaServer, *answers: str, times: int | None = None) -> Rule:
    """Answer the check with `answers` in turn ("yes", "no", or raw text for a broken reply);
    "yes" by default. A JSON word becomes {"answer": word}."""
    import json

    texts = [json.dumps({"answer": a}) if a in ("yes", "no") else a for a in (answers or ("yes",))]
    rule = server.reply(*texts, when=verifying, times=times)
    server.rules.insert(0, server.rules.pop())
    return rule
