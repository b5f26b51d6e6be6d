"""What a test scripts on the Ollama-protocol test server (tests/ollama_server.py): the requests it
records (`Request`), the replies (`Rule`) and faults (`Fault`) it is told, and the word counting,
chunking and embeddings its answers are made of.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

DEFAULT_MODELS = ("llama3.1:8b", "nomic-embed-text:latest")
FAULTS = ("no-model", "server", "slow", "garbage", "truncated", "context", "disconnect", "refused", "trickle",
          "hold")


@dataclass
class Request:
    """One request the server received."""

    method: str
    path: str
    body: dict | None

    @property
    def model(self) -> str:
        return str((self.body or {}).get("model") or "")

    @property
    def messages(self) -> list[dict]:
        msgs = (self.body or {}).get("messages")
        if isinstance(msgs, list):
            return msgs
        if self.path == "/api/generate":
            return [{"role": "user", "content": str((self.body or {}).get("prompt") or "")}]
        return []

    @property
    def last_user(self) -> str:
        """The content of the last user message ('' when none)."""
        for m in reversed(self.messages):
            if isinstance(m, dict) and m.get("role") == "user":
                return str(m.get("content") or "")
        return ""

    @property
    def system(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages
                         if isinstance(m, dict) and m.get("role") == "system")

    @property
    def text(self) -> str:
        """All message contents joined (to match anything in the conversation)."""
        return "\n".join(str(m.get("content") or "") for m in self.messages if isinstance(m, dict))

    @property
    def format(self):
        return (self.body or {}).get("format")

    @property
    def options(self) -> dict:
        return (self.body or {}).get("options") or {}

    @property
    def stream(self) -> bool:
        # Ollama streams unless told not to
        return bool((self.body or {}).get("stream", True))

    @property
    def tools(self) -> list | None:
        """The `tools` the request offered (None when it sent none)."""
        tools = (self.body or {}).get("tools")
        return tools if isinstance(tools, list) else None


Matcher = Callable[[Request], bool] | str | None


def _matches(when: Matcher, model: str | None, req: Request) -> bool:
    if model is not None and req.model != model:
        return False
    if when is None:
        return True
    if isinstance(when, str):
        return when in req.last_user
    return bool(when(req))


@dataclass
class Rule:
    when: Matcher
    texts: list[str]
    model: str | None = None
    times: int | None = None
    chunks: list[str] | None = None
    chunk_delay: float = 0.0
    used: int = 0
    tool_calls: list[dict] | None = None   # [{"name": str, "arguments": dict, "id"?: str}]

    def next_text(self) -> str:
        text = self.texts[min(self.used, len(self.texts) - 1)]
        self.used += 1
        return text

    @property
    def spent(self) -> bool:
        return self.times is not None and self.used >= self.times


@dataclass
class Fault:
    kind: str
    when: Matcher = None
    model: str | None = None
    times: int | None = 1
    delay: float = 2.0
    message: str | None = None
    used: int = 0
    gate: threading.Event = field(default_factory=threading.Event)

    @property
    def spent(self) -> bool:
        return self.times is not None and self.used >= self.times


def _words(text: str) -> int:
    return len(text.split())


def _chunks(text: str) -> list[str]:
    """Word-sized chunks that join back to `text` exactly."""
    out, current = [], ""
    for ch in text:
        current += ch
        if ch == " ":
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out or [""]


def _capped(text: str, num_predict: object) -> tuple[str, str]:
    """`text` cut to `num_predict` tokens (words here) and the done_reason Ollama would give."""
    if isinstance(num_predict, int) and not isinstance(num_predict, bool) and num_predict > 0:
        pieces = _chunks(text)
        if len(pieces) > num_predict:
            return "".join(pieces[:num_predict]), "length"
    return text, "stop"


def embedding(text: str, dim: int = 16) -> list[float]:
    """A deterministic unit vector for `text` (what /api/embed answers)."""
    digest = hashlib.sha256(text.encode()).digest()
    vec = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(dim)]
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]

