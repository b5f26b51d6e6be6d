"""A model's reply to a reading prompt, read: its JSON object (a reply cut off before its end is
said to be so), and the tally of calls and repairs one reading made. Shared by the sentence
reader (extraction.py) and the pair reader (pairs.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sym.core.llm.jsonout import CUT_OFF, BadJSON, extract_json
from sym.core.reason.swm.choice import Invalid


@dataclass
class Tally:
    calls: int = 0
    repairs: int = 0


def parse_reply(text: str) -> dict[str, Any]:
    """The reply's JSON object; a reply cut off before its end is said to be so (a complete
    object nested inside it is not taken for the answer: extract_json reports the cut)."""
    try:
        found: dict[str, Any] = extract_json(text, want=dict)
        return found
    except BadJSON as err:
        message = str(err)
        if message.startswith(CUT_OFF):
            message += "; answer with fewer, shorter statements"
        raise Invalid(message) from None
