"""LLM commands: what the model server has (/models), what this session's calls cost (/cost), a
raw prompt to the model (/llm), and starting the /chat conversation afresh (/clear)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from sym.core.errors import UserError
from sym.core.run import Run
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.render import to_text
from sym.repl.results import Message, Result


@dataclass
class Models(Result):
    """The models an Ollama server has, and which one the shell uses."""

    kind: ClassVar[str] = "models"
    host: str
    current: str
    models: list = field(default_factory=list)   # core.llm.ModelInfo

    @property
    def has_current(self) -> bool:
        names = {m.name for m in self.models} | {m.name.removesuffix(":latest") for m in self.models}
        return self.current in names

    def to_dict(self) -> dict:
        return {"host": self.host, "current": self.current, "current_pulled": self.has_current,
                "models": [{"name": m.name, "size": m.size, "family": m.family, "parameters": m.parameters,
                            "quantization": m.quantization} for m in self.models]}


@dataclass
class Cost(Result):
    """Model calls and tokens of this session: `calls` answered (`cached` of them from the call
    log) and `failed` calls, counted apart."""

    kind: ClassVar[str] = "cost"
    calls: int
    cached: int
    prompt_tokens: int
    completion_tokens: int
    failed: int = 0

    def to_dict(self) -> dict:
        return {"calls": self.calls, "cached": self.cached, "failed": self.failed, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "tokens": self.prompt_tokens + self.completion_tokens}


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return ""


@to_text.register
def _(r: Models) -> str:
    if not r.models:
        return f"the Ollama server at {r.host} has no models — pull one: ollama pull {r.current}"
    width = max(len(m.name) for m in r.models)
    lines = [f"models on {r.host}:"]
    current = {r.current, r.current + ":latest"}
    for m in r.models:
        mark = "*" if m.name in current else " "
        about = "  ".join(x for x in (_size(m.size) if m.size else "", m.family, m.parameters, m.quantization) if x)
        lines.append(f"{mark} {m.name.ljust(width)}  {about}".rstrip())
    if not r.has_current:
        lines.append(f"the current model {r.current} is not pulled — run: ollama pull {r.current}, or /set model NAME")
    return "\n".join(lines)


@to_text.register
def _(r: Cost) -> str:
    fresh = r.calls - r.cached
    failed = f"; {r.failed} failed" if r.failed else ""
    return (f"{r.calls} model call{'s' if r.calls != 1 else ''} this session ({fresh} to the model, "
            f"{r.cached} from the cache){failed}; tokens: {r.prompt_tokens} in, {r.completion_tokens} out")


@command("/models", group="llm")
def models(ctx: Context, arg: str, run: Run) -> Models:
    """List the models the Ollama server has; * marks the one in use (/set model NAME to change)."""
    llm = run.llm
    return Models(llm.host, run.settings.model, llm.models())


@command("/cost", group="llm")
def cost(ctx: Context, arg: str, run: Run) -> Cost:
    """Model calls (how many the cache answered, how many failed) and tokens used in this session."""
    stats = ctx.clients.counts()
    return Cost(stats["calls"], stats["cached"], stats["prompt_tokens"], stats["completion_tokens"],
                stats.get("failed", 0))


@command("/llm", args="TEXT", group="llm")
def llm_prompt(ctx: Context, arg: str, run: Run) -> Message:
    """Send TEXT to the model as it is (no memory, no reasoning) and show the reply."""
    if not arg.strip():
        raise UserError("give the text to send", hint="/llm Say hello in French.")
    reply = run.llm.chat([{"role": "user", "content": arg.strip()}], purpose="llm")
    return Message(reply.text, {"model": reply.model, "tokens": reply.prompt_tokens + reply.completion_tokens})


@command("/clear", group="llm", steerable=False)
def clear(ctx: Context, arg: str, run: Run) -> Message:
    """Start the chat afresh: forget the /chat conversation so far.

    The model is no longer shown the earlier turns; memory, settings and the session log are kept."""
    turns = sum(1 for m in ctx.recall.chat if m.get("role") == "user")
    ctx.recall.chat.clear()
    said = f"forgot {turns} chat turn{'s' if turns != 1 else ''}" if turns else "the chat was already empty"
    return Message(f"{said}; memory is unchanged", {"cleared": turns})
