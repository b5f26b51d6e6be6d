"""The memory items that bear on a text, for a prompt (chat, the /ask fallback): the vector store's
search when memory is stored, word overlap otherwise."""

from __future__ import annotations

import re

from sym.core.errors import UserError
from sym.core.memory.library import settled_search
from sym.core.memory.working import Item, WorkingMemory


def relevant_items(memory: WorkingMemory, text: str, k: int = 8) -> list[Item]:
    """Memory items most related to a text: Chroma search when stored, word overlap otherwise."""
    if memory.store is not None:
        try:
            hits = settled_search(memory.store, text, ("facts", "rules"), k)
            found = [memory.items[h.id] for h in hits if h.id in memory.items]
            if found:
                return found
        except UserError:
            pass
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    scored = []
    for it in memory.items.values():
        mine = set(re.findall(r"[a-z0-9]+", (it.text + " " + it.nl).lower().replace("_", " ")))
        overlap = len(words & mine)
        if overlap:
            scored.append((-overlap, it.created_at, it))
    return [it for *_, it in sorted(scored, key=lambda t: (t[0], t[1]))[:k]]


