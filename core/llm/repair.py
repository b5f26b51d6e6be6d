"""Structured output a small model can get right on a later try: parse, check, repair.

A repair sends the parser's (or the caller's checker's) exact messages and hints back, sampled
above temperature 0 with a seed that changes per attempt, so the model can answer differently.
The same wrong reply is never argued with twice: it gets one changed prompt, drawn hotter
(REDRAW_STEP), then a clear give-up; a request this loop already sent is never sent again as it
was (it would be answered as before): it is drawn at another seed. A reply that uses a name
only the prompt's example uses is refused (core/llm/examples.py). A reply cut off by the output
cap is not echoed back (it asks for a shorter answer), and a model timeout moves on to the next
attempt; llm_timeout bounds each call with the reading and checking of its reply. This room
only calls the model through the `LLM` facade; it never touches memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sym.core.llm import LLMError, Message, Reply, examples
from sym.core.llm.calllog import canonical
from sym.core.llm.jsonout import CUT_OFF, BadJSON, M, parse_model, past_deadline, reading_until

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM

REPAIR_SEED = 1000       # seed of repair n is REPAIR_SEED + n: varied, yet replayable
REDRAW_STEP = 0.3        # a repair after a repeated reply is drawn this much hotter (per repeat)
REDRAW_SEED = 100        # a request already sent is drawn again this many seeds on
ECHO_LIMIT = 1500        # characters of a rejected reply quoted back in a changed prompt


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _problems(reply: Reply, schema: type[M], check: Callable[..., Any] | None,
              parse: Callable[[str], Any] | None = None,
              messages: list[Message] | None = None) -> tuple[M | None, list[str]]:
    """(instance or None, problems): parse, validate, the prompt's example names (examples.py),
    then the caller's check."""
    try:
        value = parse(reply.text) if parse is not None else parse_model(reply.text, schema)
    except BadJSON as err:
        problem = str(err)
        if reply.truncated and not problem.startswith(CUT_OFF):
            problem = f"{CUT_OFF} at the output cap ({reply.completion_tokens} tokens): {problem}"
        return None, [problem]
    names = examples.copied(reply.text, messages or [])
    if names:
        return value, [examples.problem(names)]
    if check is None:
        return value, []
    return value, [str(p) for p in check(value) or [] if str(p).strip()]


def _listing(problems: list[str]) -> str:
    return "\n".join(f"- {p}" for p in problems)


def _argue(messages: list[Message], text: str, problems: list[str], noun: str = "JSON") -> list[Message]:
    """The usual repair: the rejected reply, then exactly what was wrong with it."""
    what, form = ("JSON object", "JSON schema") if noun == "JSON" else (noun, noun)
    return list(messages) + [
        {"role": "assistant", "content": text},
        {"role": "user", "content": f"That reply does not match the required {form} or was rejected:\n"
                                    f"{_listing(problems)}\n"
                                    f"Answer again with only the corrected {what}, no other text."}]


def with_note(messages: list[Message], note: str) -> list[Message]:
    """The original request with `note` added to its last user message (a different prompt)."""
    out = [dict(m) for m in messages]
    for m in reversed(out):
        if m.get("role") == "user":
            m["content"] = f"{m['content']}\n\n{note}"
            return out
    return out + [{"role": "user", "content": note}]


def _quote(text: str) -> str:
    text = text.strip()
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT] + " …"


def _fresh(sent: set[str], convo: list[Message], format: object, opts: dict[str, Any]) -> dict[str, Any]:
    """`opts` for a request never sent before in this loop: one that was (the same messages and
    options) would be answered as before (a seeded draw, or the cache at temperature 0), so it is
    drawn at another seed, above temperature 0."""
    key = canonical([convo, format, opts])
    while key in sent:
        opts = {**opts, "seed": int(opts.get("seed", REPAIR_SEED)) + REDRAW_SEED,
                "temperature": max(float(opts.get("temperature", 0) or 0), REDRAW_STEP)}
        key = canonical([convo, format, opts])
    sent.add(key)
    return opts


def json_with_repair(llm: LLM, messages: list[Message], schema: type[M], *, check: Callable[..., Any] | None = None,
                     attempts: int = 2, purpose: str = "json", options: dict[str, Any] | None = None,
                     model: str | None = None, on_attempt: Callable[[int, list[str]], None] | None = None,
                     format: dict[str, Any] | None = None, parse: Callable[[str], Any] | None = None,
                     noun: str = "JSON", until: Callable[[str], bool] | None = None) -> M:
    """See `LLM.json_with_repair`: at most 1 + `attempts` calls. With `parse` (reply text ->
    value, raising BadJSON) the reply is read by it instead, sent unconstrained unless `format`
    is given; `noun` names what is asked for in repairs ("SMT-LIB script")."""
    tell = on_attempt or (lambda n, problems: None)
    if format is None and parse is None:
        format = schema.model_json_schema()
    attempts = max(0, int(attempts))
    convo = list(messages)
    seen: list[str] = []
    problems: list[str] = []
    changed = repeated = False
    calls = same = 0
    sent: set[str] = set()
    for n in range(attempts + 1):
        opts = dict(options or {})
        if n:        # a repair is drawn hotter each time the model sent a reply it had sent before
            opts.update(temperature=llm.settings.repair_temperature + REDRAW_STEP * same, seed=REPAIR_SEED + n)
        opts = _fresh(sent, convo, format, opts)
        try:
            calls += 1
            reply = llm._chat(convo, purpose if n == 0 else f"{purpose}.repair", format, opts, model, None, until)
            end = time.monotonic() + float(llm.settings.llm_timeout)   # reading and checking the reply (the call has its own)
            with reading_until(end, model or llm.settings.model):
                value, problems = _problems(reply, schema, check, parse, messages)
                past_deadline()
        except LLMError as err:
            if err.reason != "timeout" or n == attempts:
                raise
            problems = [err.message]
            tell(n + 1, problems)
            convo = with_note(messages, f"Your previous answer took too long. Answer with only the {noun}, "
                                       "as short as it can be, without repeating anything.")
            continue
        tell(n + 1, problems)
        if not problems:
            assert value is not None   # no problems: it parsed
            return value
        if any(_same(reply.text, s) for s in seen):
            repeated, same = True, same + 1
            if changed:
                break          # the changed prompt got the same reply too: arguing again cannot help
            changed = True
            convo = with_note(messages, f"An earlier answer to this was:\n{_quote(reply.text)}\n"
                                       f"It was rejected because:\n{_listing(problems)}\n"
                                       f"Write a different answer that fixes these problems. Reply with only the {noun}.")
        elif problems[0].startswith(CUT_OFF):
            convo = with_note(messages, f"Your previous answer was cut off ({problems[0]}). Write a shorter answer: "
                                       f"only the {noun}, each item once, no repetition.")
        else:
            convo = _argue(messages, reply.text, problems, noun)
        seen.append(reply.text)
    hint = ("the model sent the same wrong reply again — /set model to a stronger model, or rephrase"
            if repeated else "try again, or /set model to a stronger model")
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    what = f"the {schema.__name__} schema" if parse is None else f"a valid {noun}"
    failed = LLMError(f"the model's reply is not {what}: {problems[0]}{more}" if parse is not None else
                      f"the model's reply does not match {what}: {problems[0]}{more}",
                      reason="bad-output", hint=hint)
    failed.problems, failed.calls = problems, calls
    raise failed
