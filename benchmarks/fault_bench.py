"""The model-fault matrix: every way a model server can fail or misbehave × every command that calls
a model, each cell checked for what issue 35 asks: no internal error, and memory unchanged.

Run:   python benchmarks/fault_bench.py [--backend ollama|openai] [--faults a,b] [--commands /tell,/ask] [--small]
Not a test (tests/reliability/test_fault_bench.py runs `--small`). Each cell is a fresh in-process
shell (memory in the process, a recorded session) under a temporary SYM_HOME, pointed at a scripted
server (tests/ollama_server.py or tests/openai_server.py: real sockets, the real client) that acts
out one fault; the call log's cache is off, so no cell is answered from another's reply. Memory
holds two facts before the command; a cell passes when the command ends as a result or one clear
failure (never "internal error", never an exception) and memory holds exactly what it held.

Faults: the server's own (no-model, server 500, garbage body, truncated body or stream, context
overflow, disconnect, slow past llm_timeout, trickle past llm_timeout, refused connection) and the
model's (a reply holding lone surrogates, NULs and mixed line ends; a reply past
llm_max_reply_bytes; an answer from another model; an empty reply; prose where JSON was asked).
A cell shows the exit code and the failure in a word or two ("ok" for a result that is not a
failure; "(no call)" when the command never asked the model); a violation shows INTERNAL or
MEMORY. The exit status is 1 when any cell violates.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: make the project root importable
    sys.path.insert(0, str(ROOT))

COMMANDS = ("/tell Sally reckons the zorbly frim glimmers.", "/ask Does every zorbly frim glimmer?",
            "/prove Is every zorbly frim a glimmer?", "/explore Does every zorbly frim glimmer?",
            "/chat what do you make of the frim?", "/llm hi")
SERVER_FAULTS = ("no-model", "server", "garbage", "truncated", "context", "disconnect", "slow", "trickle", "refused")
MODEL_FAULTS = ("surrogate", "huge", "other-model", "empty", "prose")
FAULTS = SERVER_FAULTS + MODEL_FAULTS
SMALL = (("/tell Sally reckons the zorbly frim glimmers.", "/llm hi"), ("garbage", "surrogate", "huge", "refused"))
FACTS = ("likes(ann, tea).", "parent(ann, bob).")
TIMEOUT = 1.0          # llm_timeout of every cell: slow and trickle outlast it
MAX_REPLY = 100_000    # llm_max_reply_bytes of every cell: huge passes it


TAGS = (("offline:", "offline"), ("reply too large", "too-large"), ("protocol", "protocol"), ("did not answer", "timeout"),
        ("in time", "timeout"), ("cannot reach", "unreachable"), ("closed the connection", "closed"),
        ("context window", "context"), ("is not on the", "no-model"), ("not served", "no-model"),
        ("failed", "server"), ("refused", "refused"), ("understood", "not understood"),
        ("does not match", "bad-output"), ("no valid program", "bad-output"), ("not valid", "bad-output"),
        ("not a valid", "bad-output"), ("no JSON", "bad-output"), ("cut off", "cut off"))


def tag(message: str) -> str:
    """A failure's message in a word or two (what the matrix shows)."""
    return next((t for key, t in TAGS if key in message), " ".join(message.split()[:3]))


def act_out(server, fault: str) -> None:
    """Script `server` to misbehave as `fault` for every request of the cell."""
    if fault in SERVER_FAULTS:
        server.fail(fault, times=None, delay={"slow": 3 * TIMEOUT, "trickle": 0.05}.get(fault, 2.0))
    elif fault == "surrogate":
        server.default = "Bob is big \ud800 and\r\nsmall\r\x00 \udfff."
        server.reply('{"statements": [{"text": "\ud800", "logic": "big(\ud800)."}], "answer": "\x00\r\n"}',
                     when=lambda r: r.format is not None)
    elif fault == "huge":
        server.default = "word " * (MAX_REPLY // 2)
    elif fault == "other-model":
        server.answer_model = "other-model:1b"
    elif fault == "empty":
        server.default = ""
    elif fault == "prose":
        server.default = "I think it probably does, but I cannot say for sure."


def cell(server, backend: str, command: str, fault: str) -> tuple[str, bool, bool, int]:
    """(what the cell shows, internal error, memory changed, model calls) for one command under one fault."""
    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.render import to_text

    server.clear()
    server.default, server.answer_model = "ok", None
    server.start()     # a "refused" cell stopped it
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    try:
        s = shell.ctx.settings
        s.backend, s.llm_timeout, s.llm_retries, s.llm_cache = backend, TIMEOUT, 1, False
        s.llm_max_reply_bytes, s.llm_max_tokens, s.proof_attempts = MAX_REPLY, 0, 2
        if backend == "openai":
            s.base_url = server.url
        else:
            s.ollama_host = server.url
        for fact in FACTS:
            assert shell.execute(fact)[1].ok
        before = sorted(it.text for it in shell.memory.listing())
        act_out(server, fault)
        try:
            result = shell.execute(command)[1]
        except BaseException as err:  # noqa: BLE001 — what the bench is for
            return f"raised {type(err).__name__}", True, False, len(server.chats)
        message = getattr(result, "message", "") or (to_text(result) or "").split("\n")[0]
        internal = message.startswith("internal error")
        changed = sorted(it.text for it in shell.memory.listing()) != before
        shown = "ok" if result.ok else f"{getattr(result, 'exit_code', 1)} {tag(message)}"
        if internal:
            shown = "INTERNAL " + message[:60]
        if changed:
            shown = "MEMORY " + shown
        return shown, internal, changed, len(server.chats) + len(server.requests_to("/v1/chat/completions"))
    finally:
        shell.close()


def matrix(backend: str, commands: tuple[str, ...], faults: tuple[str, ...]) -> tuple[list[list[str]], int, int]:
    """The table's rows (a command, then its cells), internal errors and memory changes in all."""
    from tests.ollama_server import OllamaServer
    from tests.openai_server import OpenAIServer

    server = (OpenAIServer() if backend == "openai" else OllamaServer()).start()
    rows, internal, changed = [], 0, 0
    try:
        for command in commands:
            row = [command.split()[0]]
            for fault in faults:
                shown, bad, moved, calls = cell(server, backend, command, fault)
                internal += bad
                changed += moved
                row.append(shown if calls or fault == "refused" else f"{shown} (no call)")
            rows.append(row)
            print(f"  {row[0]} done", file=sys.stderr, flush=True)
    finally:
        server.stop()
    return rows, internal, changed


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line, sep] + ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
                                    for r in rows])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=("ollama", "openai"), default="ollama")
    ap.add_argument("--faults", default="", help="comma-separated; default: all")
    ap.add_argument("--commands", default="", help="comma-separated command names, e.g. /tell,/llm; default: all")
    ap.add_argument("--small", action="store_true", help="a few cells (what the test suite runs)")
    args = ap.parse_args()
    commands, faults = SMALL if args.small else (COMMANDS, FAULTS)
    if args.faults:
        faults = tuple(f for f in args.faults.split(",") if f in FAULTS)
    if args.commands:
        wanted = args.commands.split(",")
        commands = tuple(c for c in COMMANDS if c.split()[0] in wanted)
    home = Path(tempfile.mkdtemp(prefix="sym-fault-bench-"))
    os.environ["SYM_HOME"] = str(home)
    started = time.perf_counter()
    try:
        rows, internal, changed = matrix(args.backend, commands, faults)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"model-fault matrix, {args.backend} backend: {len(commands)} commands × {len(faults)} faults "
          f"(llm_timeout {TIMEOUT:g} s, llm_retries 1, llm_max_reply_bytes {MAX_REPLY:,}); "
          f"a cell is the exit code and the failure in a word or two")
    print(table(["command", *faults], rows))
    cells = len(commands) * len(faults)
    print(f"{cells} cells in {time.perf_counter() - started:.0f} s: {internal} internal errors, "
          f"{changed} with memory changed")
    return 1 if internal or changed else 0


if __name__ == "__main__":
    sys.exit(main())
