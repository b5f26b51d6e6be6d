"""Which backend the settings name: the Ollama server or an OpenAI-compatible one, built at its
configured URL, and the URL a front-end asks to see whether it answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sym.core.llm import Backend
from sym.core.llm.ollama_backend import OllamaBackend, resolve_host
from sym.core.llm.openai_backend import OpenAIBackend, resolve_base_url

if TYPE_CHECKING:
    from sym.core.settings import Settings


def liveness_url(settings: Settings) -> str:
    """The URL a front-end GETs to see whether the configured server answers (one resolver for
    the host, the same the backend uses: `gpu` → http://gpu:11434)."""
    if getattr(settings, "backend", "ollama") == "openai":
        return resolve_base_url(settings.base_url) + "/models"
    return resolve_host(settings.ollama_host) + "/api/version"


def make_backend(settings: Settings) -> Backend:
    """The backend `settings.backend` names, at its configured URL, with the call timeout and the
    cap on a reply's size."""
    cap = int(getattr(settings, "llm_max_reply_bytes", 0) or 0) or None
    if getattr(settings, "backend", "ollama") == "openai":
        return OpenAIBackend(settings.base_url, timeout=settings.llm_timeout, max_reply_bytes=cap)
    return OllamaBackend(settings.ollama_host, timeout=settings.llm_timeout, max_reply_bytes=cap)
