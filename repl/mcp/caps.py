"""What one `sym mcp` call may store: no constant or name longer than `mcp.max_constant_kb`, and at
most `mcp.facts_per_call` facts and rules, each refused in one line with memory left as it was.

Logic text given to `fact` or `rule` is counted before anything parses it (parsing 50,000 clauses
alone took half a minute); whatever a command then stores is checked as it asks memory to add it,
before memory changes (an add is all or nothing). Nothing here runs a command or imports the SDK.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import Any

from sym.core.errors import UserError
from sym.core.settings import Settings

# what ends a clause in logic text: a full stop before white space or the end, outside quotes and comments
_PIECE = re.compile(r"'[^'\\]*(?:\\.[^'\\]*)*'|\"[^\"\\]*(?:\\.[^\"\\]*)*\"|%[^\n]*|/\*.*?\*/|\.(?=\s|%|\Z)", re.S)


def clauses_in(text: str) -> int:
    """How many clauses logic text holds, by its full stops (without parsing it)."""
    return sum(1 for m in _PIECE.finditer(text) if m.group() == ".")


def _strings(clause: object) -> Iterator[str]:
    """Every name and constant of a clause (predicates, atoms, variables), however it nests."""
    stack = [clause]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, (tuple, list)):
            stack.extend(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            stack.extend(getattr(v, f.name) for f in dataclasses.fields(v))


class Caps:
    """The caps on the memory of a served shell; `start` begins a call's count."""

    def __init__(self, memory: Any, settings: Callable[[], Settings]):
        self.settings = settings
        self.stored = 0
        add = memory.add

        def capped(clauses: Any, *args: Any, **kwargs: Any) -> Any:
            self.check(clauses)
            outcome = add(clauses, *args, **kwargs)
            self.stored += len(clauses)
            return outcome

        memory.add = capped

    def start(self) -> None:
        self.stored = 0

    def _too_many(self, count: int) -> UserError:
        cap = self.settings().mcp_facts_per_call
        return UserError(f"one call stores at most {cap:,} facts and rules; this one holds {count:,}",
                         hint="split it into several calls, or raise mcp_facts_per_call in config.toml")

    def check_text(self, tool: str, args: object) -> None:
        """Refuse logic text for `fact` or `rule` that holds more clauses than a call may store."""
        key = {"fact": "fact", "rule": "rule"}.get(tool)        # the old name, or clauses (mcp.names)
        text = (args.get("clauses") or args.get(key)) if key and isinstance(args, dict) else None
        if isinstance(text, str):
            count = clauses_in(text)
            if count > self.settings().mcp_facts_per_call:
                raise self._too_many(count)

    def check(self, clauses: Any) -> None:
        settings = self.settings()
        if self.stored + len(clauses) > settings.mcp_facts_per_call:
            raise self._too_many(self.stored + len(clauses))
        limit = int(settings.mcp_max_constant_kb * 1024)
        for clause, _source in clauses:
            for s in _strings(clause):
                if len(s) * 4 > limit and len(s.encode("utf-8", "surrogatepass")) > limit:
                    size = len(s.encode("utf-8", "surrogatepass")) / 1024
                    shown = s[:20] + "…"
                    raise UserError(f"a constant or name of {size:,.0f} KB ({shown!r}); one is stored up to "
                                    f"{settings.mcp_max_constant_kb:g} KB",
                                    hint="store a shorter name, or raise mcp_max_constant_kb in config.toml")
