"""`sym bench swm`: the SWM reasoner's accuracy, LLM calls, tokens and time per dataset."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core.errors import UserError


def make_llm(mode: str, model: str | None, host: str | None, err=sys.stderr):
    """The LLM to benchmark with: 'off' → None; 'on' → required; 'auto' → if the server answers.
    The backend is settings.backend (config.toml, $SYM_BACKEND); `host` is its URL."""
    if mode == "off":
        return None
    from core.llm import make_backend
    from core.llm.facade import LLM
    from core.settings import load_settings

    settings = load_settings()
    if model:
        settings.model = model
    if host:
        if settings.backend == "openai":
            settings.base_url = host
        else:
            settings.ollama_host = host
    llm = LLM(make_backend(settings), settings)
    if llm.ping():
        return llm
    server = "Ollama" if settings.backend == "ollama" else "the OpenAI-compatible server"
    if mode == "on":
        start = "start it with `ollama serve`" if settings.backend == "ollama" else "start it"
        raise UserError(f"{server} does not answer at {llm.host}", hint=f"{start}, or use --llm off")
    err.write(f"no model: {server} does not answer at {llm.host}; running with the fast path and the engine only\n")
    return None


HEADER = (f"{'dataset':<13}{'system':<12}{'n':>5}{'correct':>9}{'accuracy':>10}{'calls':>7}{'cached':>8}"
          f"{'failed':>8}{'tokens':>9}{'s/item':>9}\n")


def _row(name: str, label: str, score) -> str:
    return (f"{name:<13}{label:<12}{score.n:>5}{score.correct:>9}{score.accuracy:>9.1%} {score.llm_calls:>6}"
            f"{score.cached_calls:>8}{score.failed_calls:>8}{score.tokens:>9}{score.seconds_per_item:>9.2f}\n")


def run_swm(data: str, *, modes: list[str], datasets: list[str] | None, gold_facts: bool, llm_mode: str,
            model: str | None, host: str | None, as_json: bool, limit: int | None, out=sys.stdout,
            err=sys.stderr, baseline: str | None = None) -> int:
    """Each dataset through sym (per mode) and, with baseline="llm", through the model alone,
    side by side: n, correct, accuracy, calls (cached and failed apart), tokens, seconds per item."""
    from core.reason.swm import datasets as ds
    from core.reason.swm.evaluate import DATASETS, evaluate

    root = Path(data)
    if not root.is_dir():
        raise UserError(f"no dataset folder {data!r}", hint="point --data at a folder with proofwriter/, clutrr/, …")
    if baseline not in (None, "none", "llm"):
        raise UserError(f"unknown baseline {baseline!r}", hint="--baseline llm (the model alone) or none")
    wanted = datasets or [d for d in DATASETS if d in ds.available(root)]
    unknown = [d for d in wanted if d not in DATASETS]
    if unknown:
        raise UserError(f"unknown dataset {unknown[0]!r}", hint=f"datasets: {', '.join(DATASETS)}")
    if not wanted:
        raise UserError(f"{data} has none of {', '.join(DATASETS)}")
    llm = make_llm("on" if baseline == "llm" and llm_mode == "auto" else llm_mode, model, host, err)
    if not as_json:
        out.write(HEADER)
    for name in wanted:
        runs = [(f"sym {mode}", dict(mode=mode)) for mode in modes]
        if baseline == "llm":
            runs.append(("llm alone", dict(baseline=True)))
        for label, how in runs:
            score = evaluate(root, name, llm=llm, gold_facts=gold_facts, limit=limit, **how)
            if as_json:
                out.write(json.dumps(score.to_dict()) + "\n")
            else:
                out.write(_row(name, label, score))
                for message, count in sorted(score.failures.items(), key=lambda kv: -kv[1])[:3]:
                    err.write(f"  {name} {label}: {count} × {message}\n")
            out.flush()
    return 0
