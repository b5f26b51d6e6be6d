"""`LLM`: the one object reasoners and commands call for a model.

It adds the model and options from settings (the output cap `llm_max_tokens` as num_predict),
answers identical temperature-0 requests from the call log, retries transient failures with
backoff, honours the run's cancel flag, streams structured calls (emitting `LLMProgress`), emits
`LLMToken` events and one complete `LLMExchange` per call (the session log records those), and
records each call in the call log. A call may offer tools (native tool calling): its reply then
carries the `tool_calls` the model asked for, cached and logged like its text. It is built for one
run (core/run.py) and never changed afterwards. It never touches memory; a failed call raises
`LLMError` and leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from sym.core.events import LLMExchange, LLMProgress, LLMToken, Warning
from sym.core.llm import Backend, LLMError, Message, ModelInfo, Reply, Tool, backend_key, recorded_tool_calls
from sym.core.llm.calllog import CallLog, request_key
from sym.core.llm.checks import same_model, valid_reply
from sym.core.llm.jsonout import M
from sym.core.llm.messages import MESSAGE_SHAPE, clean_message
from sym.core.llm.ollama_backend import transient
from sym.core.llm.repair import json_with_repair
from sym.core.text import replaced_note, valid_text

if TYPE_CHECKING:
    from sym.core.events import Emit
    from sym.core.settings import Settings
    from sym.core.stop import Stop

BACKOFF = 0.25          # seconds before the first retry; doubles each time
MAX_BACKOFF = 4.0
MAX_PARALLEL = 4        # chat_many's threads
PROGRESS_EVERY = 0.25   # seconds between LLMProgress events of one structured call

T = TypeVar("T")
Format = dict[str, Any] | str | None   # a JSON schema, "json", or free text
Until = Callable[[str], bool]        # the reply so far -> is it complete (stop reading there)


def cancelled() -> LLMError:
    return LLMError("cancelled", reason="cancelled", exit_code=130)


class LLM:
    """Model calls made under `settings` (they pick the model and options), their events sent to
    `emit`, stopped by `stop` (its cancel flag; llm_timeout bounds each call). `calllog` and
    `stats` may be shared by the clients of one shell; `session` names the session its calls
    belong to in the call log. A run builds one from its own three (core.run, core.llm.clients)."""

    def __init__(self, backend: Backend, settings: Settings, emit: Emit, stop: Stop, *,
                 calllog: CallLog | None = None, stats: dict[str, Any] | None = None,
                 session: str | None = None) -> None:
        self.backend = backend
        self.settings = settings
        self.stop = stop
        self._sink = emit
        self.calllog = calllog if calllog is not None else CallLog()
        self.key = backend_key(settings)
        self.session = session
        self._stats = stats if stats is not None else {}
        for name in ("calls", "cached", "failed", "prompt_tokens", "completion_tokens"):
            self._stats.setdefault(name, 0)
        self._stats_lock = threading.Lock()
        self._local = threading.local()   # chat_many's workers defer events to the calling thread
        self._warned: set[str] = set()    # a model that answered for another is said once per run

    # -- what callers use -------------------------------------------------------------

    def chat(self, messages: list[Message], *, purpose: str = "chat", format: dict[str, Any] | str | None = None,
             options: dict[str, Any] | None = None, model: str | None = None,
             tools: list[Tool] | None = None, until: Until | None = None) -> Reply:
        """One model call; `format` is a JSON schema (or "json") for structured output.
        `model` overrides settings.model for this call (e.g. a judge model). `tools` (OpenAI
        function format) are offered to the model; the reply's `tool_calls` holds what it asked
        for (such a call is never streamed). A model without tool calling: LLMError(no-tools).
        `until(text so far)` true ends the call there (the reply is streamed, and the server
        stops generating when sym hangs up): a program is complete, the prose after it unread."""
        return self._public(lambda: self._chat(messages, purpose, format, options, model, tools, until))

    def stream(self, messages: list[Message], *, purpose: str = "chat", options: dict[str, Any] | None = None,
               model: str | None = None) -> Reply:
        """A streamed call: emits LLMToken events as text arrives, checks cancel between chunks,
        returns the final Reply."""
        return self._public(lambda: self._stream(messages, purpose, options, model))

    def json(self, messages: list[Message], schema: type[M], *, purpose: str = "json",
             options: dict[str, Any] | None = None, model: str | None = None) -> M:
        """A `schema` (pydantic model class) instance from the model: the schema goes as `format`,
        JSON is found in prose or fences and validated; one repair round (see `json_with_repair`),
        else LLMError(bad-output)."""
        return self.json_with_repair(messages, schema, purpose=purpose, options=options, model=model, attempts=1)

    def json_with_repair(self, messages: list[Message], schema: type[M], *, check: Callable[..., Any] | None = None,
                         attempts: int = 2, purpose: str = "json", options: dict[str, Any] | None = None,
                         model: str | None = None, on_attempt: Callable[[int, list[str]], None] | None = None,
                         format: dict[str, Any] | None = None, parse: Callable[[str], Any] | None = None,
                         noun: str = "JSON", until: Until | None = None) -> M:
        """A `schema` instance that also passes `check`, in at most 1 + `attempts` calls.

        `check(instance)` returns a list of problems (strings, or UserErrors: their message and
        hint are sent as `str()` gives them); empty means accepted; what it raises propagates.
        Each repair sends the exact problems back, sampled at settings.repair_temperature with a
        seed that changes per attempt (purpose "<purpose>.repair"); a reply identical to an
        earlier one is not argued with again (one changed prompt, then a clear give-up); a reply
        cut off by the output cap is not echoed back, the model is asked for a shorter one; a
        model timeout moves on to the next attempt (on the last one it is raised, exit 4).
        `on_attempt(n, problems)` is told each attempt's outcome (for a trace). `format` replaces
        the JSON schema sent to the model (e.g. a tighter one); replies are still validated by
        `schema`. Raises LLMError(bad-output) naming the first remaining problem, with
        `err.problems` and `err.calls`. `parse` reads replies that are not JSON (an SMT-LIB
        script), `noun` names them in repairs; `until` ends each reply once it is complete (as for
        `chat`). See core/llm/repair.py."""
        return self._public(lambda: json_with_repair(self, messages, schema, check=check, attempts=attempts,
                                                     purpose=purpose, options=options, model=model,
                                                     on_attempt=on_attempt, format=format, parse=parse,
                                                     noun=noun, until=until))

    def chat_many(self, batches: list[list[Message]], *, purpose: str = "chat", format: dict[str,
                  Any] | str | None = None,
                  options: dict[str, Any] | list[dict[str, Any]] | None = None, model: str | None = None,
                  until: Until | list[Until | None] | None = None) -> list[Reply]:
        """Several independent calls in parallel; replies in the order given. The first failure
        (in that order) is raised once all have finished. `options` may be a list, one per call
        (samples of one prompt, each with its own seed); so may `until` (as for `chat`)."""
        return self._public(lambda: self._chat_many(batches, purpose, format, options, model, until))

    def tagged(self, session: str) -> LLM:
        """A client for the same run whose calls the call log files under `session` (a bench
        item's tag, RUN/ITEM); stats and the call log are shared with this one."""
        return LLM(self.backend, self.settings, self._sink, self.stop, calllog=self.calllog, stats=self._stats,
                   session=session)

    def embed(self, texts: list[str], *, model: str | None = None) -> list[list[float]]:
        return self._public(lambda: self.backend.embed(list(texts), model=model or self.settings.model))

    def models(self) -> list[ModelInfo]:
        return self.backend.models()

    def ping(self) -> bool:
        return self.backend.ping()

    def stats(self) -> dict[str, Any]:
        """Calls answered (`calls`, of which `cached` came from the call log), calls that failed
        (`failed`, not in `calls`) and tokens, for this shell."""
        with self._stats_lock:
            return dict(self._stats)

    @property
    def host(self) -> str:
        return getattr(self.backend, "host", "")

    # -- wiring --------------------------------------------------------------------------

    @property
    def _cancel_event(self) -> threading.Event | None:
        return self.stop.cancel

    def _emit(self, event: object) -> None:
        sink = getattr(self._local, "sink", None)
        if sink is not None:
            sink.append(lambda: self._emit_now(event))
        else:
            self._emit_now(event)

    def _emit_now(self, event: object) -> None:
        self._sink(event)

    def _check_cancel(self) -> None:
        if self.stop.cancelled:   # the flag stays set: every parallel call stops; `_public` clears it
            raise cancelled()

    def _public(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except LLMError as err:
            if err.reason == "cancelled" and self._cancel_event is not None:
                self._cancel_event.clear()   # the job has stopped; the next one starts afresh
            raise

    # -- the work ------------------------------------------------------------------------

    def _request(self, messages: list[Message], format: Format, options: dict[str, Any] | None,
                 model: str | None = None, tools: list[Tool] | None = None) -> tuple[str, list[Any], dict[str, Any], str]:
        if not isinstance(messages, list):
            raise TypeError(MESSAGE_SHAPE)
        if tools is not None and not (isinstance(tools, list) and all(
                isinstance(t, dict) and isinstance(t.get("function"), dict)
                and isinstance(t["function"].get("name"), str) for t in tools)):
            raise TypeError("tools must be a list of {'type': 'function', 'function': {'name': str, ...}} dicts")
        model = model or self.settings.model
        clean = [clean_message(m) for m in messages]
        cap = int(getattr(self.settings, "llm_max_tokens", 0) or 0)
        opts = {"temperature": self.settings.temperature, **({"num_predict": cap} if cap > 0 else {}),
                **(options or {})}
        return model, clean, opts, request_key(model, clean, format, opts, tools)

    def _cacheable(self, opts: dict[str, Any]) -> bool:
        return bool(self.settings.llm_cache) and float(opts.get("temperature", 0) or 0) == 0.0

    def _chat(self, messages: list[Message], purpose: str, format: Format, options: dict[str, Any] | None,
              model: str | None = None, tools: list[Tool] | None = None, until: Until | None = None) -> Reply:
        self._check_cancel()
        tools = tools or None   # no tools offered: the request (and its key) of a plain call
        model, msgs, opts, key = self._request(messages, format, options, model, tools)
        if self._cacheable(opts):
            hit = self.calllog.lookup(key)
            if hit is not None:
                return self._finish(key, purpose, model, msgs, format, opts, self._cached(hit, model), tools)
        if tools is None and (until is not None or (format is not None
                                                    and getattr(self.backend, "streams_structured", False))):
            def attempt() -> Reply:
                return self._structured_stream(msgs, model, format, opts, purpose, until)
        else:
            extra = {"tools": tools} if tools is not None else {}   # a backend that predates tools still works

            def attempt() -> Reply:
                return self._interruptible(lambda: self.backend.chat(msgs, model=model, format=format, options=opts,
                                                                     timeout=self._timeout(), **extra))
        reply = self._with_retries(key, purpose, model, msgs, format, opts, attempt, tools)
        return self._finish(key, purpose, model, msgs, format, opts, reply, tools)

    def _structured_stream(self, msgs: list[Message], model: str, format: Format, opts: dict[str, Any],
                           purpose: str, until: Until | None = None) -> Reply:
        """A call streamed so that a front-end can show LLMProgress (tokens so far); the text is only
        returned whole, for the caller to parse. With `until`, the reply ends as soon as
        `until(text so far)` holds (done_reason "complete") and the stream is closed, which stops
        the server generating."""
        parts = self.backend.stream(msgs, model=model, format=format, options=opts, timeout=self._timeout())
        started = time.monotonic()
        shown = started - PROGRESS_EVERY
        tokens = 0
        text = ""
        quiet = getattr(self._local, "sink", None) is not None   # chat_many's workers: progress would arrive late
        stream = self._interruptible_parts(parts)
        try:
            for part in stream:
                if isinstance(part, Reply):
                    if tokens and not quiet:
                        self._emit(LLMProgress(purpose, part.completion_tokens or tokens, part.seconds, model, True))
                    return part
                tokens += 1
                text += part
                now = time.monotonic()
                if until is not None and until(text):
                    if not quiet:
                        self._emit(LLMProgress(purpose, tokens, now - started, model, True))
                    return Reply(text, model, 0, tokens, now - started, done_reason="complete")
                if not quiet and now - shown >= PROGRESS_EVERY:
                    shown = now
                    self._emit(LLMProgress(purpose, tokens, now - started, model))
                self._check_cancel()
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        raise LLMError(f"the stream from {self.host} ended without a reply", reason="server")

    def _stream(self, messages: list[Message], purpose: str, options: dict[str, Any] | None,
                model: str | None = None) -> Reply:
        self._check_cancel()
        model, msgs, opts, key = self._request(messages, None, options, model)
        if self._cacheable(opts):
            hit = self.calllog.lookup(key)
            if hit is not None:
                reply = self._cached(hit, model)
                if reply.text:
                    self._emit(LLMToken(reply.text, purpose))
                return self._finish(key, purpose, model, msgs, None, opts, reply)

        def attempt() -> Reply:
            started = False
            try:
                parts = self.backend.stream(msgs, model=model, options=opts, timeout=self._timeout())
                for part in self._interruptible_parts(parts):
                    if isinstance(part, Reply):
                        return part
                    started = True
                    self._emit(LLMToken(valid_text(part, line_ends=False), purpose))
                    self._check_cancel()
            except LLMError as err:
                if started:
                    err.transient = False   # text already shown: a retry would repeat it
                raise
            raise LLMError(f"the stream from {self.host} ended without a reply", reason="server")

        reply = self._with_retries(key, purpose, model, msgs, None, opts, attempt)
        return self._finish(key, purpose, model, msgs, None, opts, reply)

    def _chat_many(self, batches: Iterable[list[Message]], purpose: str, format: Format, options: dict[str,
                   Any] | list[dict[str, Any]] | None, model: str | None = None,
                   until: Until | list[Until | None] | None = None) -> list[Reply]:
        batches = list(batches)
        each = options if isinstance(options, list) else [options or {}] * len(batches)
        ends = until if isinstance(until, list) else [until] * len(batches)
        if len(each) != len(batches) or len(ends) != len(batches):
            raise TypeError("chat_many: one options dict (and stop test) per call, or one for all")
        if len(batches) <= 1:
            return [self._chat(b, purpose, format, o, model, None, e)
                    for b, o, e in zip(batches, each, ends, strict=True)]
        self._check_cancel()

        def work(messages: list[Message], opts: dict[str, Any], end: Until | None) -> tuple[
                Reply | None, LLMError | None, list[Callable[[], None]]]:
            sink: list[Callable[[], None]] = []
            self._local.sink, self._local.abreast = sink, abreast
            try:
                return self._chat(messages, purpose, format, opts, model, None, end), None, sink
            except LLMError as err:
                return None, err, sink
            finally:
                self._local.sink = self._local.abreast = None

        abreast = min(MAX_PARALLEL, len(batches))
        with ThreadPoolExecutor(max_workers=abreast, thread_name_prefix="llm") as pool:
            futures = [pool.submit(work, b, o, e) for b, o, e in zip(batches, each, ends, strict=True)]
            results = []
            for future in futures:   # in order: events and records reach the session as the caller wrote them
                reply, err, sink = future.result()
                for deferred in sink:
                    deferred()
                results.append((reply, err))
        for _, err in results:
            if err is not None:
                raise err
        return [reply for reply, _ in results if reply is not None]   # each None came with an error, raised above

    def _timeout(self) -> float:
        """This call's deadline: llm_timeout, times the calls chat_many sent abreast with it (a server
        with one slot answers them one after another, and the last waits for all the others: seen,
        the fifth of five samples timed out at a local server while the first four were written)."""
        return float(self.settings.llm_timeout) * (getattr(self._local, "abreast", None) or 1)

    def _interruptible(self, call: Callable[[], T]) -> T:
        """Run a blocking call, but give up at once when the cancel event is set."""
        event = self._cancel_event
        if event is None or getattr(self._local, "sink", None) is not None:
            return call()
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["value"] = call()
            except BaseException as err:  # noqa: BLE001 — handed to the waiting thread
                box["error"] = err

        worker = threading.Thread(target=run, name="llm-call", daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            if event.is_set() and worker.is_alive():
                raise cancelled()
        if "error" in box:
            raise box["error"]
        value: T = box["value"]
        return value

    def _interruptible_parts(self, parts: Iterable[T]) -> Iterator[T]:
        """Iterate a stream in a helper thread so that a cancel is noticed even while the server
        is silent (before its first chunk, or between slow ones)."""
        event = self._cancel_event
        if event is None or getattr(self._local, "sink", None) is not None:
            yield from parts
            return
        box: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()
        done = object()

        def pump() -> None:
            try:
                for part in parts:
                    box.put(("part", part))
                    if stop.is_set():
                        break
            except BaseException as err:  # noqa: BLE001 — handed to the consuming thread
                box.put(("error", err))
            finally:
                box.put(("part", done))
                close = getattr(parts, "close", None)
                if close is not None:
                    close()

        threading.Thread(target=pump, name="llm-stream", daemon=True).start()
        try:
            while True:
                try:
                    kind, item = box.get(timeout=0.05)
                except queue.Empty:
                    if event.is_set():
                        raise cancelled() from None
                    continue
                if kind == "error":
                    raise item
                if item is done:
                    return
                yield item
        finally:
            stop.set()

    def _with_retries(self, key: str, purpose: str, model: str, msgs: list[Message], format: Format, opts: dict[str,
                      Any], attempt: Callable[[], Reply], tools: list[Tool] | None = None) -> Reply:
        retries = max(0, int(self.settings.llm_retries))
        for n in range(retries + 1):
            try:
                return attempt()
            except LLMError as err:
                if err.reason == "offline":
                    err = LLMError(f"{purpose}: {err.message}", reason="offline", hint=err.hint)
                if not transient(err) or n == retries:
                    self._failed(key, purpose, model, msgs, format, opts, err, tools)
                    raise err from None
                event = self._cancel_event
                delay = min(MAX_BACKOFF, BACKOFF * 2 ** n)
                if event is not None and event.wait(delay):
                    self._failed(key, purpose, model, msgs, format, opts, cancelled(), tools)
                    raise cancelled() from None
                if event is None:
                    time.sleep(delay)
        raise AssertionError("unreachable")

    @staticmethod
    def _cached(row: dict[str, Any], model: str) -> Reply:
        return Reply(row.get("output") or "", row.get("model") or model, row.get("prompt_tokens") or 0,
                     row.get("completion_tokens") or 0, 0.0, cached=True, tool_calls=recorded_tool_calls(row.get("tool_calls")))

    def _finish(self, key: str, purpose: str, model: str, msgs: list[Message], format: Format, opts: dict[str, Any],
                reply: Reply, tools: list[Tool] | None = None) -> Reply:
        reply, replaced = valid_reply(reply)
        other = not reply.cached and not same_model(reply.model, model)
        calls = [c.to_dict() for c in reply.tool_calls]
        call_id = self.calllog.record(key=key, model=model, purpose=purpose, messages=msgs, options=opts, format=format,
                                      output=reply.text, prompt_tokens=reply.prompt_tokens,
                                      completion_tokens=reply.completion_tokens, seconds=reply.seconds,
                                      cached=reply.cached, session=self.session, host=self.host, tools=tools,
                                      tool_calls=calls if tools is not None or calls else None)
        reply = dataclasses.replace(reply, call_id=call_id)
        with self._stats_lock:
            self._stats["calls"] += 1
            self._stats["cached"] += int(reply.cached)
            self._stats["prompt_tokens"] += reply.prompt_tokens
            self._stats["completion_tokens"] += reply.completion_tokens
        sent: dict[str, Any] = {"messages": msgs, "format": format, "options": opts}
        answer: dict[str, Any] = {"text": reply.text, "prompt_tokens": reply.prompt_tokens,
                                  "completion_tokens": reply.completion_tokens, "model": reply.model}
        if tools is not None:   # a call without tools is logged as it always was
            sent["tools"], answer["tool_calls"] = tools, calls
        if replaced:
            answer["replaced"] = replaced
            self._emit(Warning(replaced_note(replaced, f"the reply of {reply.model or model}")))
        if other:
            answer["other_model"] = True
            if reply.model not in self._warned:
                self._warned.add(reply.model)
                self._emit(Warning(f"answered by {reply.model} (asked for {model}): the server gave the call to "
                                   "another model"))
        self._emit(LLMExchange(call_id, model, purpose, reply.prompt_tokens, reply.completion_tokens, reply.seconds,
                               reply.cached, key=key, request=sent, reply=answer))
        return reply

    def _failed(self, key: str, purpose: str, model: str, msgs: list[Message], format: Format, opts: dict[str, Any],
                err: LLMError, tools: list[Tool] | None = None) -> None:
        err.message = valid_text(err.message, line_ends=False)   # a server's own words may be invalid text
        err.hint = err.hint if err.hint is None else valid_text(err.hint, line_ends=False)
        call_id = self.calllog.record(key=key, model=model, purpose=purpose, messages=msgs, options=opts, format=format,
                                      error=str(err), reason=err.reason, session=self.session, host=self.host,
                                      tools=tools)
        with self._stats_lock:
            self._stats["failed"] += 1
        sent: dict[str, Any] = {"messages": msgs, "format": format, "options": opts}
        if tools is not None:
            sent["tools"] = tools
        self._emit(LLMExchange(call_id, model, purpose, error=err.message, key=key, request=sent,
                               failure={"reason": err.reason, "message": err.message, "hint": err.hint}))
