"""`sym bench swm`: the SWM reasoner's accuracy, LLM calls, tokens and time per dataset."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core.errors import UserError


def make_llm(mode: str, model: str | None, host: str | None, err=sys.stderr):
    """The LLM to benchmark with: 'off' → None; 'on' → required; 'auto' → if Ollama answers."""
    if mode == "off":
        return None
    from core.llm.facade import LLM
    from core.llm.ollama_backend import OllamaBackend
    from core.settings import load_settings

    settings = load_settings()
    if model:
        settings.model = model
    if host:
        settings.ollama_host = host
    llm = LLM(OllamaBackend(settings.ollama_host, timeout=settings.llm_timeout), settings)
    if llm.ping():
        return llm
    if mode == "on":
        raise UserError(f"Ollama does not answer at {llm.host}", hint="start it with `ollama serve`, or use --llm off")
    err.write(f"no model: Ollama does not answer at {llm.host}; running with the fast path and the engine only\n")
    return None


def run_swm(data: str, *, modes: list[str], datasets: list[str] | None, gold_facts: bool, llm_mode: str,
            model: str | None, host: str | None, as_json: bool, limit: int | None, out=sys.stdout,
            err=sys.stderr) -> int:
    from core.reason.swm import datasets as ds
    from core.reason.swm.evaluate import DATASETS, evaluate

    root = Path(data)
    if not root.is_dir():
        raise UserError(f"no dataset folder {data!r}", hint="point --data at a folder with proofwriter/, clutrr/, …")
    wanted = datasets or [d for d in DATASETS if d in ds.available(root)]
    unknown = [d for d in wanted if d not in DATASETS]
    if unknown:
        raise UserError(f"unknown dataset {unknown[0]!r}", hint=f"datasets: {', '.join(DATASETS)}")
    if not wanted:
        raise UserError(f"{data} has none of {', '.join(DATASETS)}")
    llm = make_llm(llm_mode, model, host, err)
    if not as_json:
        out.write(f"{'dataset':<13}{'mode':<8}{'n':>5}{'correct':>9}{'accuracy':>10}{'LLM calls':>11}"
                  f"{'tokens':>9}{'seconds':>9}\n")
    for mode in modes:
        for name in wanted:
            score = evaluate(root, name, llm=llm, mode=mode, gold_facts=gold_facts, limit=limit)
            if as_json:
                out.write(json.dumps(score.to_dict()) + "\n")
            else:
                out.write(f"{name:<13}{mode:<8}{score.n:>5}{score.correct:>9}{score.accuracy:>9.1%} "
                          f"{score.llm_calls:>10}{score.tokens:>9}{score.seconds:>9.2f}\n")
                for message, count in sorted(score.failures.items(), key=lambda kv: -kv[1])[:3]:
                    err.write(f"  {name}: {count} × {message}\n")
            out.flush()
    return 0
