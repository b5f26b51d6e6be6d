"""A chat turn that reasons: the model calls sym's commands and answers from what they return.

`converse` picks the way by `agent.style`: native tool calls (`tools`), a menu the model chooses
the next command from (`route`, for small models: enums and short strings, sym writes the
command), or `auto` (tools, then the menu when the model has no tool calling). With no model
server a turn the grammar can read is told and asked offline (offline.py). Every call runs as
the command would run in this job (its cancel flag, events and session log), is shown and
recorded; a call that changes memory runs only when approved (`agent.approve`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.events import Approval
from sym.core.llm import LLMError, Message
from sym.core.reason.docs_answer import context_lines, context_passages
from sym.core.reason.swm.relevance import relevant_items
from sym.repl.agent import prompts
from sym.repl.agent.lines import run_line
from sym.repl.agent.offline import offline_turn
from sym.repl.agent.plain import plain_chat
from sym.repl.agent.results import Call, Conversed
from sym.repl.agent.tools import WRITES, AgentTool, agent_tools
from sym.repl.results import Failure, Result

if TYPE_CHECKING:
    from sym.core.run import Run
    from sym.repl.context import Context

DOWN = ("unreachable", "no-model")       # no model to talk to: the turn is read offline
RESULT_CHARS = 2000                      # of a command's output, given back to the model
ANSWER_TOKENS = 160                      # the menu's closing sentence


class Turn:
    """One chat turn's state: the calls made so far and how to run another."""

    def __init__(self, ctx: Context, run: Run, text: str) -> None:
        from sym.core.memory.workspace import workspace_dir
        from sym.repl.mcp.tools import Allowed

        self.ctx, self.run, self.text = ctx, run, text
        self.tools = agent_tools(ctx.registry, run.settings.llm_samples)
        self.calls: list[Call] = []
        self.routed = False          # the menu was used (route_turn)
        self.steps = 0               # model calls the turn made
        self.invalid = 0             # menu replies that did not fit (repaired or given up)
        self.repeated = False        # the model made a call a second time: the turn ends
        self.allowed = Allowed([ctx.base_dir or Path.cwd()])
        self.programs = workspace_dir(ctx.memory.workspace) / "agent"
        run.trace("turn", None, "agent.turn", text)

    def call(self, name: str, arguments: object) -> Call:
        """Run one tool call (or refuse it, one line) and keep it."""
        from sym.repl.mcp.tools import Programs

        self.run.check()
        programs = Programs(self.programs, self.run.settings.max_file_mb)   # size-checked; a failed one removed
        n = len(self.calls) + 1
        tool = self.tools.get(name)
        try:
            if tool is None:
                raise UserError(f"there is no tool {name!r}", hint="tools: " + ", ".join(self.tools))
            line = tool.line(arguments, self.allowed, programs)
        except UserError as err:
            done = Call(name, f"({name} {_shown_args(arguments)})", Failure(err.message, err.hint), status="bad call")
            return self._keep(n, done)
        if any(c.line == line for c in self.calls):      # word for word again: it would give the same
            self.repeated = True
            return self._keep(n, Call(name, line, None, status="repeated",
                                      note="repeated word for word: not run again, and the turn ends here"))
        if tool.writes:
            allowed, by = self._approve(line)
            if not allowed:
                why = ("declined" if by == "user" else
                       "refused: agent.approve is refuse" if by == "setting" else
                       "not run: it changes memory and no one is here to approve it (/set agent.approve auto)")
                return self._keep(n, Call(name, line, None, status="declined" if by == "user" else "refused",
                                          note=why))
            status = "approved" if by == "user" else "ran"
        else:
            status = "ran"
        _, result = run_line(self.ctx, line, self.run.source)
        programs.settle(result.ok)
        done = self._keep(n, Call(name, line, result, status=status))
        return self._told_part(done) if name == "tell" else done

    def _told_part(self, done: Call) -> Call:
        """A /tell that stored nothing because some sentences could not be read: the sentences that
        were read are told on their own, after an approval of exactly that line, and the call
        names what was not read (issue 53: the readable part was dropped with the rest)."""
        # a failed /tell (repl.commands.swm.TellFailure) says what became of each sentence
        told = getattr(done.result, "sentences", []) if isinstance(done.result, Failure) else []
        read = [t.sentence for t in told if not t.problem]
        unread = [t.sentence for t in told if t.problem]
        if not read or not unread:
            return done
        line, missed = "/tell " + " ".join(read), "not read: " + " ".join(unread)
        n = len(self.calls) + 1
        allowed, by = self._approve(line)
        if not allowed:
            status = "declined" if by == "user" else "refused"
            return self._keep(n, Call("tell", line, None, status=status, note=f"{status}; {missed}"))
        _, result = run_line(self.ctx, line, self.run.source)
        return self._keep(n, Call("tell", line, result, status="approved" if by == "user" else "ran", note=missed))

    def _approve(self, line: str) -> tuple[bool, str]:
        mode = self.run.settings.agent_approve
        if mode in ("auto", "refuse"):
            allowed, by = mode == "auto", "setting"
        elif self.ctx.approver is None:
            allowed, by = False, "nobody"
        else:
            allowed, by = bool(self.ctx.approver(line)), "user"
        self.run.emit(Approval(self.run.id, line, allowed, by))
        return allowed, by

    def _keep(self, n: int, call: Call) -> Call:
        self.calls.append(call)
        self.run.trace(f"c{n}", "turn", "agent.call", call.line, call.summary, call.trace_status)
        return call

    def result_text(self, call: Call) -> str:
        """What the model is told a call gave."""
        return call.for_model(RESULT_CHARS)


def converse(ctx: Context, text: str, run: Run) -> Result:
    """One chat turn (see the module's docstring)."""
    style = run.settings.agent_style
    if style == "plain":
        return plain_chat(ctx, text, run)
    if not run.has_model:
        return offline_turn(ctx, text, run, None)
    turn = Turn(ctx, run, text)
    try:
        if style == "route" or (style == "auto" and run.settings.model in ctx.recall.no_tools):
            reply = route_turn(turn)
        else:
            try:
                reply = tools_turn(turn)
            except LLMError as err:
                if err.reason != "no-tools" or style == "tools":
                    raise
                ctx.recall.no_tools.add(run.settings.model)     # remembered: the next turn routes at once
                reply = route_turn(turn)
    except LLMError as err:
        if err.reason in DOWN and not turn.calls:
            return offline_turn(ctx, text, run, err)
        if err.reason == "cancelled" or not turn.calls:
            raise
        reply = None                 # what the commands found still stands; the model's failure is said
        turn.calls.append(Call("model", "(the model)", Failure(err.message, err.hint), status="failed"))
    ctx.recall.chat += [{"role": "user", "content": text},
                        {"role": "assistant", "content": reply or ""}]
    done = Conversed.of(text, turn.calls, reply, style="route" if turn.routed else "tools")
    done.steps, done.invalid = turn.steps, turn.invalid
    return done


def tools_turn(turn: Turn) -> str:
    """Native tool calling: offer the tools, run what the model calls, until it answers."""
    run = turn.run
    defs = [t.definition for t in turn.tools.values()]
    messages: list[Message] = prompts.tools_messages(turn.text, context(turn), turn.ctx.recall.chat,
                                                     {n: t.schema for n, t in turn.tools.items()})
    for step in range(run.settings.agent_max_steps):
        run.check()
        turn.steps += 1
        reply = run.llm.chat(messages, tools=defs, purpose="agent")
        if not reply.tool_calls:
            written = written_calls(reply.text, turn.tools)
            if not written:
                return reply.text.strip()
            # a model whose server ignores `tools` may write the call as JSON text: run it, and
            # give the results back as text too (such a server may not take tool messages)
            done = []
            for name, arguments in written:
                done.append(turn.call(name, arguments))
                if turn.repeated:
                    return ""
            messages += [{"role": "assistant", "content": reply.text},
                         {"role": "user", "content": prompts.results_as_text(
                             [(d.line, turn.result_text(d)) for d in done])}]
            continue
        messages.append({"role": "assistant", "content": reply.text or "",
                         "tool_calls": [{"id": c.id or f"call_{step}_{i}", "name": c.name, "arguments": c.arguments}
                                        for i, c in enumerate(reply.tool_calls)]})
        for i, tc in enumerate(reply.tool_calls):
            done = turn.call(tc.name, tc.arguments)
            if turn.repeated:
                return ""   # the results so far stand on their own
            messages.append({"role": "tool", "content": turn.result_text(done), "name": tc.name,
                             "tool_call_id": tc.id or f"call_{step}_{i}"})
    return ""       # out of steps: the results stand on their own


def written_calls(text: str, offered: dict[str, AgentTool]) -> list[tuple[str, dict]]:
    """Tool calls a reply wrote as JSON text instead of calling: the whole reply (bare, in a code
    fence or in <tool_call> tags) is one call {"name": TOOL, "arguments": {...}} or a list of
    them, naming offered tools; anything else is an answer."""
    body = text.strip()
    body = re.sub(r"^```(?:json)?\s*|\s*```$", "", body)
    body = re.sub(r"</?tool_call>", "\n", body).strip()
    found = []
    decoder = json.JSONDecoder()
    at = 0
    while at < len(body):
        try:
            value, end = decoder.raw_decode(body, at)
        except ValueError:
            return []
        found += value if isinstance(value, list) else [value]
        at = end
        while at < len(body) and body[at] in " \n\r\t,":
            at += 1
    calls = []
    for call in found:
        if not (isinstance(call, dict) and call.get("name") in offered):
            return []
        arguments = call.get("arguments", call.get("parameters", {}))
        if not isinstance(arguments, dict):
            return []
        calls.append((str(call["name"]), arguments))
    return calls


def route_turn(turn: Turn) -> str:
    """The menu (agent/route.py): the model sorts the turn's sentences by action, from an enum;
    sym runs the commands; a last call may put the results in words."""
    from sym.repl.agent.route import (
        MathStep,
        Sorted,
        actions,
        check_math,
        check_sorted,
        math_schema,
        sort_schema,
        to_call,
    )

    turn.routed = True
    run = turn.run
    sentences = prompts.sentences(turn.text)

    def counted(n: int, problems: list[str]) -> None:
        if problems:
            turn.invalid += 1

    def step() -> bool:
        run.check()
        if turn.steps >= run.settings.agent_max_steps:
            return False
        turn.steps += 1
        return True

    if not step():
        return ""
    found = run.llm.json_with_repair(prompts.sort_messages(turn.text, sentences, context(turn)), Sorted,
                                     check=lambda f: check_sorted(f, sentences), format=sort_schema(sentences),
                                     purpose="agent.route", attempts=1, on_attempt=counted)
    for action, sentence in actions(found, sentences):
        worked = None
        if action == "math":
            if not step():
                break
            try:
                worked = run.llm.json_with_repair(prompts.math_messages(sentence), MathStep,
                                                  check=lambda found, said=sentence: check_math(found, said),
                                                  format=math_schema(), purpose="agent.math", attempts=1,
                                                  on_attempt=counted)
            except LLMError as err:
                if err.reason != "bad-output":
                    raise
                turn.calls.append(Call("math", f"(math: {sentence})", Failure(err.message, err.hint),
                                       status="bad call"))
                continue
        turn.call(*to_call(action, sentence, worked))
        if turn.repeated:
            return ""
    if not any(c.ok and c.tool not in WRITES for c in turn.calls) or not step():
        return ""           # nothing verified to put in words: no model text beside failures
    reply = run.llm.chat(prompts.answer_messages(turn.text, [(c.line, turn.result_text(c)) for c in turn.calls]),
                         purpose="agent.answer", options={"num_predict": ANSWER_TOKENS})
    return reply.text.strip()


def context(turn: Turn) -> list[str]:
    """Memory items and document passages that may bear on the turn, as the model sees them (the
    passages by keyword and meaning, fused: core.memory.retrieval)."""
    items = relevant_items(turn.ctx.memory, turn.text, k=turn.run.settings.search_k)
    found = context_passages(turn.ctx.memory.store, turn.text, turn.run.settings.search_k,
                             wait=None if turn.ctx.patient else 2.0, cancel=turn.run.cancel)
    return [it.text + (f"  ({it.nl})" if it.nl else "") for it in items] + \
        [f"(document) {line}" for line in context_lines(found)]


def _shown_args(arguments: object) -> str:
    try:
        shown = json.dumps(arguments, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        shown = repr(arguments)
    return shown if len(shown) <= 80 else shown[:79] + "…"
