"""`sym bench swm` / `sym bench logic`: accuracy, LLM calls, tokens and time per dataset or item file
(`sym bench trajectory`: a run scored against reference trajectories). The chat path of `bench
logic` is driven here (a chat turn of the agent needs a shell, which core must not import). The
package holds every benchmark runner sym ships: the outside suites' items and scoring (outside,
outside_score, scoring), SWM datasets (swm_evaluate), AR-LSAT (lsat), trajectories and the
table of results (table); core/ keeps only the reasoners they measure."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.llm import LLMError
from sym.core.memory.embedders import default_embedder, make_embedder
from sym.core.reason.pot.faithful import stems
from sym.core.reason.swm import datasets as ds
from sym.core.run import Run
from sym.core.settings import load_settings
from sym.repl.agent.results import Conversed
from sym.repl.bench.outside import PATHS, claim_of, load_items
from sym.repl.bench.outside_score import score_items
from sym.repl.bench.scoring import ItemResult, LogicScore, Outcome, Score, TurnUse, run_tag
from sym.repl.bench.trajectory import (
    KERNEL,
    is_session_log,
    read_text,
    score_trajectory,
    steps_from_jsonl,
    steps_from_session,
)
from sym.repl.render import to_text
from sym.repl.results import Failure
from sym.sessions.log import read_session

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM
    from sym.repl.bench.outside import SuiteItem


def make_llm(mode: str, model: str | None, host: str | None, err=sys.stderr):
    """The LLM to benchmark with: 'off' → None; 'on' → required; 'auto' → if the server answers.
    The backend is settings.backend (config.toml, $SYM_BACKEND); `host` is its URL."""
    if mode == "off":
        return None

    settings = load_settings()
    if model:
        settings.model = model
    if host:
        if settings.backend == "openai":
            settings.base_url = host
        else:
            settings.ollama_host = host
    llm = Run(settings, "bench").llm
    if llm.ping():
        return llm
    server = "Ollama" if settings.backend == "ollama" else "the OpenAI-compatible server"
    if mode == "on":
        start = "start it with `ollama serve`" if settings.backend == "ollama" else "start it"
        raise LLMError(f"{server} does not answer at {llm.host}", reason="unreachable", exit_code=3,   # server down: 3
                       hint=f"{start}, or use --llm off")
    err.write(f"no model: {server} does not answer at {llm.host}; running with the fast path and the engine only\n")
    return None


def run_swm(data: str, *, modes: list[str], datasets: list[str] | None, gold_facts: bool, llm_mode: str,
            model: str | None, host: str | None, as_json: bool, limit: int | None, out=sys.stdout,
            err=sys.stderr, baseline: str | None = None, fallback: bool = True, offset: int = 0,
            ids: list[str] | None = None, samples: int | None = None, quiet: bool = False) -> int:
    """Each dataset (or one of its folders: clutrr/rule_shuffle) through sym (per mode) and, with
    baseline="llm", through the model alone, side by side, as `run_logic` does: accuracy, decided
    by sym, precision, abstained, fallback, calls, tokens, s/item; a line per item on stderr as it
    finishes (none with `quiet`), with `as_json` a JSON line per item then the totals' line.
    `limit` items from `offset` of each dataset, or those named by `ids`; `samples` readings of
    a story (programs of an AR-LSAT item) are voted on (default: the model's llm_samples)."""
    from sym.repl.bench.swm_evaluate import DATASETS, evaluate

    root = Path(data)
    if not root.is_dir():
        raise UserError(f"no dataset folder {data!r}", hint="point --data at a folder with proofwriter/, clutrr/, …")
    if baseline not in (None, "none", "llm"):
        raise UserError(f"unknown baseline {baseline!r}", hint="--baseline llm (the model alone) or none")
    wanted = datasets or [d for d in DATASETS if d in ds.available(root)]
    unknown = [d for d in wanted if ds.kind_of(d) not in DATASETS]
    if unknown:
        raise UserError(f"unknown dataset {unknown[0]!r}", hint=f"datasets: {', '.join(DATASETS)}")
    if not wanted:
        raise UserError(f"{data} has none of {', '.join(DATASETS)}")
    loaded = {name: ds.load(root, name) for name in wanted}
    chosen = _choose(loaded, offset=offset, limit=limit, ids=ids)
    llm = make_llm("on" if baseline == "llm" and llm_mode == "auto" else llm_mode, model, host, err)
    samples = samples or (llm.settings.llm_samples if llm is not None else 1)
    tag = run_tag("swm")
    if not quiet:
        err.write(f"{', '.join(f'{n}: {len(chosen[n])} of {len(loaded[n])}' for n in wanted)} items"
                  f"{f', {samples} samples' if samples > 1 else ''}; calls tagged {tag} (sym logs --run {tag})\n")
    if not as_json:
        out.write(table_header("dataset"))
    out.flush()
    with stop_on_interrupt(out, err):
        for name in wanted:
            def told(r: ItemResult, name: str = name) -> None:
                if as_json:
                    out.write(json_line(r.to_dict(), name, samples))
                    out.flush()
                if not quiet:
                    err.write(f"{name} {item_line(r)}")
                    err.flush()

            runs = [(f"sym {mode}", dict(mode=mode, fallback=fallback and mode == "hybrid")) for mode in modes]
            if baseline == "llm":
                runs.append(("llm alone", dict(baseline=True)))
            first = 1 + (0 if ids else offset)
            for label, how in runs:
                score = evaluate(root, name, llm=llm, gold_facts=gold_facts, problems=chosen[name], samples=samples,
                                 on_item=told, run=f"{tag}/{name}", total=len(chosen[name]) if ids else len(loaded[name]),
                                 first=first if not ids else 1, **how)
                if as_json:
                    out.write(json_line(score.to_dict(), name, samples))
                else:
                    out.write(table_row(name, label, score))
                    _notes(name, label, score, err, top=3)
                out.flush()
    return 0


def _choose(loaded: dict[str, list], *, offset: int, limit: int | None, ids: list[str] | None) -> dict[str, list]:
    """Each dataset's items a run takes: those `ids` name (each id must be some dataset's), else
    `limit` of each from `offset`; an offset past every dataset's end is a usage error."""
    if ids:
        wanted = [i.strip() for part in ids for i in part.split(",") if i.strip()]
        known = {p.id for problems in loaded.values() for p in problems}
        missing = [i for i in wanted if i not in known]
        if missing:
            sample = next(iter(p.id for problems in loaded.values() for p in problems), "")
            raise UserError(f"no item with id {missing[0]!r}", hint=f"ids look like {sample!r}" if sample else None)
        return {n: [p for p in problems if p.id in set(wanted)] for n, problems in loaded.items()}
    if offset and all(offset >= len(problems) for problems in loaded.values()):
        raise UserError(f"--offset {offset} is past the last item of every dataset")
    return {n: problems[offset:][:limit] if limit else problems[offset:] for n, problems in loaded.items()}


def _notes(name: str, label: str, score: Score, err, *, top: int) -> None:
    """Under a score's row: how many items the fallback answered, and the commonest failures."""
    if isinstance(score, LogicScore) and score.system == "sym":
        precision = f"precision {score.precision:.1%}" if score.decided else "no precision: none decided"
        said = (f", {score.text} answered by the model's text in the turn (unverified: {score.text_correct} right)"
                if score.text else "")
        err.write(f"  {name} {label}: {score.decided} decided by sym ({score.decided_correct} right, {precision}), "
                  f"{score.abstained} abstained, {score.fallback} answered by the model "
                  f"alone (fallback, unverified: {score.fallback_correct} right){said}\n")
    elif score.fallback:
        err.write(f"  {name} {label}: {score.n - score.fallback} decided by sym "
                  f"({score.correct - score.fallback_correct} right), {score.fallback} answered by the "
                  f"model alone (fallback, {score.fallback_correct} right)\n")
    for message, count in sorted(score.failures.items(), key=lambda kv: -kv[1])[:top]:
        err.write(f"  {name} {label}: {count} × {message}\n")


# -- sym bench logic -----------------------------------------------------------------------

def json_line(line: dict, dataset: str, samples: int) -> str:
    """An item's or the totals' --json line, with its dataset and, for sym, the samples voted on
    (what `sym bench table` groups runs by)."""
    return json.dumps({**line, "dataset": line.get("dataset") or dataset,
                       **({"samples": samples} if line.get("system") == "sym" else {})}) + "\n"


def table_header(first: str = "data") -> str:
    return (f"{first:<24}{'system':<12}{'n':>5}{'correct':>9}{'accuracy':>10}{'decided':>9}{'precision':>11}"
            f"{'abstain':>9}{'fallback':>10}{'text':>6}{'ran':>6}{'calls':>7}{'failed':>8}{'tokens':>9}{'s/item':>9}\n")


def table_row(name: str, label: str, score: LogicScore) -> str:
    """accuracy; decided = items sym answered itself, from a verified result (coverage); precision =
    right when decided; fallback and text = items the model answered, alone or in a chat turn's
    closing words (unverified, never counted as decided)."""
    precision = f"{score.precision:.1%}" if score.decided else "—"     # none decided: no precision to give
    return (f"{name[:23]:<24}{label:<12}{score.n:>5}{score.correct:>9}{score.accuracy:>9.1%} {score.coverage:>8.1%}"
            f"{precision:>10} {score.abstained:>8}{score.fallback:>10}{score.text:>6}{score.programs_ran:>6}"
            f"{score.llm_calls:>7}{score.failed_calls:>8}{score.tokens:>9}{score.seconds_per_item:>9.2f}\n")


def item_line(r: ItemResult) -> str:
    """One finished item, for stderr: where it stands, what was said by whom, right or not, why
    sym did not decide, the vote, and what its calls used (from the call log)."""
    said = r.answer if r.answer is not None else "no answer"
    by = {"sym": "sym", "llm": "model alone", "fallback": "fallback: the model alone, unverified",
          "text": "the model's text, unverified", "none": "undecided"}[r.by]
    mark = "right" if r.correct else "wrong"
    line = (f"[{r.index}/{r.total}] {r.item} {r.system} {r.mode}: {said} ({by}), gold {r.gold}: {mark}"
            f" · {r.calls} call{'s' if r.calls != 1 else ''}"
            f"{f' ({r.cached} cached)' if r.cached else ''}, {r.tokens} tokens, {r.seconds:.2f} s")
    if r.vote:
        line += f" · vote: {r.vote}"
    if r.reason:
        line += f" · {r.reason}"
    return line + "\n"


def pick_items(items: list[SuiteItem], *, offset: int = 0, limit: int | None = None,
               ids: list[str] | None = None) -> list[SuiteItem]:
    """The items a run takes: those named by `ids` (in the file's order; an unknown id is a usage
    error), else `limit` of them from `offset`."""
    if ids:
        wanted = [i.strip() for part in ids for i in part.split(",") if i.strip()]
        known = {item.id for item in items}
        missing = [i for i in wanted if i not in known]
        if missing:
            raise UserError(f"no item with id {missing[0]!r}", hint=f"ids run from {items[0].id!r} to {items[-1].id!r}")
        chosen = [item for item in items if item.id in set(wanted)]
    else:
        chosen = items[offset:]
    if offset and not ids and not chosen:
        raise UserError(f"--offset {offset} is past the last item ({len(items)} in the file)")
    return chosen[:limit] if limit else chosen


@contextmanager
def stop_on_interrupt(out, err):
    """Ctrl+C ends the bench at once, even while a model call is under way (the lines already
    printed stand; exit 130): the call is not waited for."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame) -> None:
        out.flush()
        err.write("interrupted: the items above finished; the rest were not run\n")
        err.flush()
        os._exit(130)

    previous = signal.signal(signal.SIGINT, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_logic(data: str, *, fmt: str = "auto", path: str = "auto", llm_mode: str = "auto", baseline: str = "none",
              limit: int | None = None, as_json: bool = False, proof_format: str = "json", style: str = "whole",
              model: str | None = None, host: str | None = None, fallback: bool = True, offset: int = 0,
              ids: list[str] | None = None, samples: int | None = None, quiet: bool = False, out=sys.stdout,
              err=sys.stderr) -> int:
    """Outside-suite items (repl/bench/outside.py) through sym by `path` and, with baseline="llm",
    through the model alone, side by side: accuracy, decided by sym (coverage) and right when
    decided (precision), abstained, answered by the fallback, programs that ran, calls, tokens,
    s/item, and the commonest reasons sym left an item undecided. Each item is told as it
    finishes: a line on stderr (none with `quiet`), and with `as_json` a JSON line on stdout
    before the totals' line. `samples` programs per item are voted on (prove, auto; default
    the model's llm_samples setting)."""
    if path not in PATHS:
        raise UserError(f"unknown path {path!r}", hint="ask, prove, auto or chat")
    if baseline not in ("none", "llm"):
        raise UserError(f"unknown baseline {baseline!r}", hint="--baseline llm (the model alone) or none")
    _, items = load_items(data, fmt)
    chosen = pick_items(items, offset=offset, limit=limit, ids=ids)
    llm = make_llm("on" if baseline == "llm" and llm_mode == "auto" else llm_mode, model, host, err)
    samples = samples or (llm.settings.llm_samples if llm is not None else 1)
    name = Path(data).stem
    tag = run_tag(name)
    runs = [(f"sym {path}", dict(path=path, fallback=fallback, answer=chat_item if path == "chat" else None))]
    if baseline == "llm":
        runs.append(("llm alone", dict(baseline=True)))
    if not quiet:
        err.write(f"{name}: {len(chosen)} of {len(items)} items; calls tagged {tag} (sym logs --run {tag})\n")
    if not as_json:
        out.write(table_header())
    out.flush()

    def told(r: ItemResult) -> None:
        if as_json:
            out.write(json_line(r.to_dict(), name, samples))
            out.flush()
        if not quiet:
            err.write(item_line(r))
            err.flush()

    first = 1 + (0 if ids else offset)
    with stop_on_interrupt(out, err):
        for label, how in runs:
            score = score_items(name, chosen, llm, proof_format=proof_format, style=style, samples=samples,
                                on_item=told, run=tag, total=len(items) if not ids else len(chosen),
                                first=first if not ids else 1, **how)
            if as_json:
                out.write(json_line(score.to_dict(), name, samples))
            else:
                out.write(table_row(name, label, score))
                _chat_notes(name, label, score, err)
                _notes(name, label, score, err, top=5)
            out.flush()
    return 0


def chat_item(item: SuiteItem, llm: LLM | None) -> Outcome:
    """One chat turn of the agent on an item (the line a user would type, core.reason.outside.chat_text),
    in a fresh in-process shell: a copy of the bench model's settings, its backend, the model's
    memory changes approved. Its calls count as the bench model's (Outcome.turn) and carry the
    item's run tag, so the item's line and `sym logs --run` list them."""
    from sym.core.llm.clients import Clients
    from sym.repl.bench.outside import chat_outcome, chat_text
    from sym.repl.dispatcher import Shell

    if llm is None:
        return Outcome(reason="no model")
    shell = Shell(plugins=False, settings=llm.settings.model_copy())
    shell.ctx.settings.agent_approve = "auto"
    tag = llm.session
    shell.ctx.clients = Clients(fixed=llm.backend, session=lambda: tag)
    try:
        # "/chat" typed out: a context with a "(" in it would otherwise be read as logic text
        _, result = shell.execute("/chat " + chat_text(item), source=f"bench:{item.id}")
    finally:
        shell.close()
    used = shell.ctx.clients.counts()
    calls, cached, tokens = used["calls"], used["cached"], used["prompt_tokens"] + used["completion_tokens"]
    failed = used["failed"] > 0
    if isinstance(result, Conversed):
        turn = TurnUse(calls, cached, tokens, tool_calls=sum(1 for c in result.calls if c.tool != "model"),
                       steps=result.steps, route_steps=result.steps if result.style == "route" else 0,
                       invalid=result.invalid)
        verdicts = [v for v in (_verified(c, item) for c in result.calls) if v]
        out = chat_outcome(item, verdicts, result.reply, turn)
        out.failed_call = failed
        return out
    turn = TurnUse(calls, cached, tokens)
    if isinstance(result, Failure):
        return Outcome(reason="chat: " + result.message, failed_call=failed, turn=turn)
    out = chat_outcome(item, [], to_text(result), turn)      # agent.style plain: the model's words alone
    out.failed_call = failed
    return out


def _verified(call, item: SuiteItem) -> str:
    """What a chat turn's call verified of a truth item: an /ask verdict, or a /prove of the item's
    own claim that Z3 proved or refuted (its programs agreeing, resting only on stated facts:
    an unverified or undecided /prove is an Abstained, which verifies nothing); "" otherwise."""
    from sym.repl.commands.proof import ProofResult

    if call.tool == "ask":
        return call.verdict
    if call.tool != "prove" or not isinstance(call.result, ProofResult) or call.result.report is None:
        return ""
    checks = call.result.report.verifications
    if len(checks) != 1 or checks[0].status not in ("proved", "refuted") or call.result.report.consistent is False:
        return ""
    if not stems(claim_of(item.question)) <= stems(call.line):      # a claim of its own is not the item's
        return ""
    return "true" if checks[0].status == "proved" else "false"


def _chat_notes(name: str, label: str, score: LogicScore, err) -> None:
    """Under a chat row: where the answers came from, the tools called, how often a menu reply fit."""
    if score.mode != "chat" or score.system != "sym" or not (score.model_steps or score.tool_calls):
        return
    err.write(f"  {name} {label}: {score.verified} answered from a verified call, {score.from_text} from the "
              f"model's text (unverified); {score.tool_calls} tool calls in {score.model_steps} model steps\n")
    if score.route_steps:
        valid = score.route_steps - score.route_invalid
        err.write(f"  {name} {label}: the menu (route): {valid} of {score.route_steps} model replies were a valid "
                  f"command ({valid / score.route_steps:.0%})\n")


# -- sym bench trajectory ------------------------------------------------------------------

def load_trajectory(file: str) -> list[str]:
    """The steps of a trajectory file: a sym session log (its header says so) or JSON lines of steps."""
    path = Path(file).expanduser()
    text = read_text(path)
    if is_session_log(text):
        return steps_from_session(read_session(path).events, path.name)
    return steps_from_jsonl(text, path.name)


def _clip(text: str | None, width: int = 48) -> str:
    if text is None:
        return "(missing)"
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def run_trajectory(run: str, references: list[str], *, embedder: str | None, baseline: str = "random",
                   host: str | None = None, as_json: bool = False, out=sys.stdout) -> int:
    """Score a recorded run against reference trajectories, step by step (VERTEX); see
    core/reason/semantic/trajectory.py for the formula."""
    if not references:
        raise UserError("no reference trajectory", hint="--reference FILE (repeat it for several)")
    steps = load_trajectory(run)
    refs = [load_trajectory(r) for r in references]
    model = make_embedder(embedder or default_embedder(), ollama_host=host)
    score = score_trajectory(steps, refs, model, baseline=baseline)
    if as_json:
        out.write(json.dumps({"run": run, "references": references, **score.to_dict()}) + "\n")
        return 0
    out.write(f"trajectory {run} against {len(refs)} reference{'s' if len(refs) != 1 else ''} — embedder "
              f"{score.embedder}, {KERNEL} kernel σ={score.sigma:g}, baseline {score.baseline}\n")
    out.write(f"{'step':>4}{'score':>8}{'c: run':>9}{'r: random':>10}{'z: refs':>9}{'n':>3}  run step\n")
    for s in score.steps:
        terms = "".join(f"{v:>{w}.3f}" if v is not None else f"{'-':>{w}}"
                        for v, w in ((s.similarity, 9), (s.random, 10), (s.reference, 9)))
        out.write(f"{s.index:>4}{s.score:>8.3f}{terms}{s.references:>3}  {_clip(s.text)}\n")
    missing = sum(1 for s in score.steps if s.similarity is None)
    note = f"; {missing} unmatched step{'s' if missing != 1 else ''} scored 0" if missing else ""
    out.write(f"overall {score.overall:.4f} (mean of {len(score.steps)} steps{note}; embedder {score.embedder})\n")
    return 0
