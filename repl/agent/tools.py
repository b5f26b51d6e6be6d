"""The commands a chat turn may call, as tools: the MCP server's tools (one declaration in the
command registry feeds /help, completion, MCP and the agent), fewer options, short descriptions.

A call becomes one command line exactly as `sym mcp` builds it (mcp.tools.Tool.line: checked
against the schema, read back by the command's own parser, files only from the working
directory); nothing here runs a command.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sym.core.errors import UserError
from sym.core.reason.sampling import AGREE
from sym.repl.mcp import names
from sym.repl.mcp.tools import Allowed, Tool, tools
from sym.repl.registry import Registry

# the tools a model is offered, and the options each keeps (the rest are for people)
OFFERED: dict[str, tuple[str, ...]] = {
    "tell": ("text",),
    "ask": ("question", "closed", "open", "docs"),
    "query": ("goal",),
    "why": ("goal",),
    "prove": ("question", "program", "format"),
    "check": (),
    "math": ("operation", "expr", "wrt"),
    "search": ("text", "k", "kind"),
    "listing": ("pred",),
    "extract": ("text", "into"),
    "fact": ("clauses",),
    "rule": ("clauses",),
    "forget": ("items",),
}
WRITES = frozenset(name for name in OFFERED if name in ("tell", "extract", "fact", "rule", "forget"))


@dataclass(frozen=True)
class AgentTool:
    name: str
    tool: Tool
    schema: dict[str, Any]
    samples: int = 1          # llm.samples: a /prove the model asks for draws at least AGREE programs

    @property
    def writes(self) -> bool:
        return self.name in WRITES

    @property
    def definition(self) -> dict[str, Any]:
        """The tool as both backends take it (the OpenAI function form)."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.schema}}

    @property
    def description(self) -> str:
        """The command's first help paragraph and its usage, short enough for a small model."""
        cmd = self.tool.command
        first = cmd.doc.strip().split("\n\n")[0].replace("\n", " ")
        return f"{first} (sym command: {cmd.name})"

    def line(self, arguments: object, allowed: Allowed, programs: Path) -> str:
        """The command line for a call; UserError naming what is wrong with the arguments."""
        if isinstance(arguments, dict):
            known = {*self.schema["properties"], *names.taken(self.name)}    # old names too (mcp.names)
            unknown = [k for k in arguments if k not in known]
            if unknown:
                raise UserError(f"{self.name} takes no argument {unknown[0]!r}",
                                hint="takes: " + (", ".join(self.schema["properties"]) or "no arguments"))
        if self.name == "ask" and isinstance(arguments, dict):
            arguments = {**arguments, "no_fallback": True}    # the model asking is the fallback: unknown stays unknown
        if self.name == "prove" and isinstance(arguments, dict) and isinstance(arguments.get("question"), str) \
                and not arguments.get("program"):
            from sym.repl.agent.route import is_claim

            if not is_claim(arguments["question"]):     # "Every mammal needs water." is told, not proved
                raise UserError("prove takes a claim to check, asked as a question (\"Is it true that ...?\")",
                                hint="tell a statement with tell, then prove or ask the claim")
            # a program the model writes decides only when two independent readings agree (issue 53)
            arguments = {**arguments, "samples": max(AGREE, self.samples)}
        return self.tool.line(arguments, allowed, programs)


def agent_tools(registry: Registry, samples: int = 1) -> dict[str, AgentTool]:
    """The offered tools by name, with schemas cut down to the options they keep (`samples`:
    llm.samples, which a /prove the model asks for draws at least AGREE of)."""
    served = tools(registry)
    out = {}
    for name, keep in OFFERED.items():
        tool = served[name]
        props = {k: v for k, v in tool.schema["properties"].items() if k in keep}
        schema: dict[str, Any] = {"type": "object", "properties": props}
        required = [k for k in tool.schema.get("required", []) if k in props]
        if name == "prove":     # the question or a program: at least one (the command says which)
            required = []
        elif name in ("tell", "extract", "forget"):    # no --from FILE, no --derived here: the text it is
            required = [next(iter(props)), *required]
        if required:
            schema["required"] = required
        out[name] = AgentTool(name, tool, schema, samples)
    return out
