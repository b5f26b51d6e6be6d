"""Scripted answers for the yes/no check that follows a model's reading of a sentence (/tell).

The check's prompt repeats the sentence, so a test's own `when="…"` rule would answer it too;
`verifier` puts its rule first, so it answers only the check, whatever the test adds later.
"""

from __future__ import annotations

import re

from tests.ollama_server import OllamaServer, Request, Rule


def verifying(request: Request) -> bool:
    """A request for the check (first call or repair)."""
    return request.system.startswith("You check what a reasoner read")


def _asked(request: Request) -> tuple[str, str]:
    """(the sentence as the check shows it, the reading) of a check request."""
    sentence, _, rest = request.last_user.partition("\nReading: ")
    return sentence, rest.split("\nDoes the sentence", 1)[0]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def verifier(server: OllamaServer, *answers: str, times: int | None = None, controls: bool = True,
             wrong: tuple[str, ...] = ()) -> Rule:
    """Answer the check with `answers` in turn ("yes", "no", or raw text for a broken reply);
    "yes" by default. A JSON word becomes {"answer": word}. With `controls`, a check of a
    reading that is an earlier checked reading of the same sentence turned round (the same
    words in another order: sym's control, extraction.verify) is answered "no", as a check
    that can tell them apart would; `controls=False` answers it like any other. A reading that
    contains one of the `wrong` texts is answered "no" (samples read at once arrive in any order,
    so which of a reading and its reversal came first cannot decide which is wrong)."""
    import json

    readings: dict[str, list[str]] = {}          # per sentence: the readings checked (controls aside)

    def control(request: Request) -> bool:
        if not verifying(request) or "\nReading: " not in request.last_user:
            return False
        sentence, reading = _asked(request)
        if any(w in reading for w in wrong):
            return True
        earlier = readings.setdefault(sentence, [])
        turned = reading not in earlier and any(_words(r) == _words(reading) for r in earlier)
        if not turned:
            earlier.append(reading)
        return controls and turned

    texts = [json.dumps({"answer": a}) if a in ("yes", "no") else a for a in (answers or ("yes",))]
    rule = server.reply(*texts, when=verifying, times=times)
    server.rules.insert(0, server.rules.pop())
    server.reply(json.dumps({"answer": "no"}), when=control)
    server.rules.insert(0, server.rules.pop())
    return rule
