"""A few real calls through sym's OpenAI-compatible backend: a chat, a streamed chat and a JSON-schema
(structured output) call, each timed, against the server given by --base-url. Not part of the test run.

Start a real OpenAI-compatible server first, e.g. llama-cpp-python's (pip install 'llama-cpp-python[server]'):

    python -m llama_cpp.server --model qwen2.5-coder-1.5b-instruct-q4_k_m.gguf --port 11499 --n_ctx 4096

then:

    python benchmarks/openai_bench.py --base-url http://127.0.0.1:11499/v1 [--model NAME] [--calls 3]

The key, if the server wants one, comes from $SYM_API_KEY or $OPENAI_API_KEY. Without --model the
first model /v1/models lists is used. The call log is not used as a cache here (every call is real).
"""

from __future__ import annotations

import argparse
import sys
import time

from pydantic import BaseModel


class Fact(BaseModel):
    predicate: str
    args: list[str]


class Facts(BaseModel):
    facts: list[Fact]


def main() -> int:
    from sym.core.llm import LLMError
    from sym.core.llm.facade import LLM
    from sym.core.llm.openai_backend import OpenAIBackend
    from sym.core.run import Run
    from sym.core.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, metavar="URL")
    parser.add_argument("--model", default=None)
    parser.add_argument("--calls", type=int, default=3, choices=(1, 2, 3), help="how many of the three calls")
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--only", choices=("chat", "stream", "json-schema"), help="just this one call")
    args = parser.parse_args()

    backend = OpenAIBackend(args.base_url, timeout=300)
    try:
        models = [m.name for m in backend.models()]
    except LLMError as err:
        print(f"openai_bench: {err}", file=sys.stderr)
        return err.exit_code
    model = args.model or models[0]
    settings = Settings(backend="openai", base_url=args.base_url, model=model, llm_cache=False,
                        llm_max_tokens=args.max_tokens, llm_timeout=300, llm_retries=0)
    run = Run(settings, "openai-bench")
    llm = LLM(backend, run.settings, run.emit, run.stop)
    print(f"server {backend.host}, model {model} (listed: {len(models)})")
    calls = [
        ("chat", lambda: llm.chat([{"role": "user", "content": "In one sentence: what is a Horn clause?"}])),
        ("stream", lambda: llm.stream([{"role": "user", "content": "Name three prime numbers, comma-separated."}])),
        ("json-schema", lambda: llm.json(
            [{"role": "user", "content": "Extract the facts as JSON: Anne is the mother of Bob. Bob likes jazz."}],
            Facts)),
    ]
    calls = [c for c in calls if c[0] == args.only] if args.only else calls[:args.calls]
    for name, call in calls:
        started = time.perf_counter()
        try:
            out = call()
        except LLMError as err:
            print(f"{name:<12} failed after {time.perf_counter() - started:.1f} s: {err}")
            continue
        seconds = time.perf_counter() - started
        if isinstance(out, BaseModel):
            print(f"{name:<12} {seconds:6.1f} s  {out.model_dump_json()}")
        else:
            rate = out.completion_tokens / seconds if seconds else 0.0
            text = " ".join(out.text.split())
            print(f"{name:<12} {seconds:6.1f} s  {out.prompt_tokens}+{out.completion_tokens} tok "
                  f"({rate:.1f} tok/s)  {text[:100]}")
    stats = llm.stats()
    print(f"calls {stats['calls']}, failed {stats['failed']}, tokens {stats['prompt_tokens']}+"
          f"{stats['completion_tokens']}; structured output level: {('json_schema', 'json_object', 'prompt')[backend._level]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
