"""`agent.style plain`: the model answers from the memory items put in its prompt, citing them by
id; no command runs, so nothing it says is verified."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sym.core.reason.swm.relevance import relevant_items

if TYPE_CHECKING:
    from sym.core.run import Run
    from sym.repl.commands.swm import Chatted
    from sym.repl.context import Context


def plain_chat(ctx: Context, text: str, run: Run) -> Chatted:
    from sym.core.reason.swm import prompts
    from sym.repl.commands.swm import Chatted

    items = relevant_items(ctx.memory, text, k=run.settings.search_k + 3)
    lines = [f"[{it.id}] {it.text}" + (f"  ({it.nl})" if it.nl else "") for it in items]
    history = ctx.recall.chat
    reply = run.llm.stream(prompts.chat_messages(text, lines, history), purpose="chat")
    history += [{"role": "user", "content": text}, {"role": "assistant", "content": reply.text}]
    known = {it.id for it in items} | set(ctx.memory.items)
    cited = [i for i in dict.fromkeys(re.findall(r"\[([a-z][0-9a-f]{12})\]", reply.text)) if i in known]
    return Chatted(reply.text, cited, streamed=getattr(ctx, "streams", False))
