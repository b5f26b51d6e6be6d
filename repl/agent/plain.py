"""`agent.style plain`: the model answers from the memory items put in its prompt, citing them by
id; no command runs, so nothing it says is verified."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from sym.core.reason.docs_answer import context_lines, context_passages
from sym.core.reason.swm.relevance import relevant_items
from sym.repl.render import to_text
from sym.repl.results import Result

if TYPE_CHECKING:
    from sym.core.run import Run
    from sym.repl.context import Context


@dataclass
class Chatted(Result):
    kind: ClassVar[str] = "chat"
    text: str = ""
    cited: list[str] = field(default_factory=list)
    streamed: bool = False

    def to_dict(self) -> dict:
        return {"text": self.text, "cited": self.cited}


@to_text.register
def _(r: Chatted) -> str:
    if r.streamed:      # the front-end already showed the text as it arrived
        return f"(cites {', '.join(r.cited)})" if r.cited else ""
    return r.text + (f"\n(cites {', '.join(r.cited)})" if r.cited else "")


DOCUMENTS = ("\n\nPassages of the user's documents that may be relevant, each with where it comes from in "
             "brackets. When you use one, cite it like [notes.txt ¶3]; what a passage says is the "
             "document's word, not verified:\n")


def plain_chat(ctx: Context, text: str, run: Run) -> Chatted:
    from sym.core.reason.swm import prompts

    items = relevant_items(ctx.memory, text, k=run.settings.search_k + 3)
    lines = [f"[{it.id}] {it.text}" + (f"  ({it.nl})" if it.nl else "") for it in items]
    found = context_passages(ctx.memory.store, text, run.settings.search_k, wait=None if ctx.patient else 2.0,
                             cancel=run.cancel)
    history = ctx.recall.chat
    messages = prompts.chat_messages(text, lines, history)
    if found:       # the documents' passages too, by keyword and meaning (core.memory.retrieval)
        messages[0] = {**messages[0], "content": messages[0]["content"] + DOCUMENTS + "\n".join(context_lines(found))}
    reply = run.llm.stream(messages, purpose="chat")
    history += [{"role": "user", "content": text}, {"role": "assistant", "content": reply.text}]
    known = {it.id for it in items} | set(ctx.memory.items)
    cited = [i for i in dict.fromkeys(re.findall(r"\[([a-z][0-9a-f]{12})\]", reply.text)) if i in known]
    cited += [p.cite for p in found if f"[{p.cite}]" in reply.text]
    return Chatted(reply.text, cited, streamed=getattr(ctx, "streams", False))
