"""What commands remember between runs of one shell: the last program /prove checked (what
/program and /export smt2 show), the last exploration (/explore show|add and its exporters) and
the /chat conversation. A typed home for them, so that no command keeps state of its own on the
shell's context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sym.core.llm import Message
    from sym.core.reason.explore import Exploration
    from sym.core.reason.pot.schema import Program
    from sym.core.reason.pot.smt2_read import Smt2Program


@dataclass
class LastProgram:
    program: Program | Smt2Program
    source: str              # a file name, or "llm: QUESTION"


@dataclass
class Recall:
    program: LastProgram | None = None
    exploration: Exploration | None = None
    chat: list[Message] = field(default_factory=list)
    no_tools: set[str] = field(default_factory=set)     # models that refused tool calls: chat routes
