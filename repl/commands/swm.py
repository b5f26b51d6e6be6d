"""Natural-language commands: /tell, /ask and chat (the SWM reasoner)."""

from __future__ import annotations

from core.errors import UserError
from repl.context import Context
from repl.registry import command


@command("/chat", args="TEXT", group="llm")
def chat(ctx: Context, arg: str):
    """Talk to the model; relevant memory items are put in the prompt and cited by id."""
    raise UserError("chat is not available yet")
