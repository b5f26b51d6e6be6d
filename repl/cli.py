"""The `sym` command line (typer). Heavy modules are imported inside the commands that need them.

`sym --batch FILE` runs a script headless; `sym` alone starts the interactive shell.
"""

from __future__ import annotations

import sys
import time

import typer

from sym.core import __version__

app = typer.Typer(add_completion=False, rich_markup_mode=None,  # plain help: rich costs ~0.12 s
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="sym — a neurosymbolic reasoning shell: facts, rules, queries and proofs.")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sym {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_command(
    ctx: typer.Context,
    batch: str | None = typer.Option(None, "--batch", "-b", metavar="FILE",
                                        help="Run the commands in FILE ('-' for standard input) and exit."),
    json_lines: bool = typer.Option(False, "--json", help="With --batch: one JSON object per command on stdout."),
    bail: bool = typer.Option(False, "--bail", help="With --batch: stop at the first failing command."),
    echo: bool = typer.Option(False, "--echo", help="With --batch: print each input before its result."),
    memory: str = typer.Option("default", "--memory", "-m", metavar="NAME", help="The workspace to use."),
    chroma_url: str | None = typer.Option(None, "--chroma-url", metavar="URL",
                                             help="Keep memory in a Chroma server (http://HOST:PORT)."),
    embedder: str | None = typer.Option(None, "--embedder", metavar="SPEC",
                                           help="static, hash, ollama:MODEL or st:NAME (default: the workspace's own; "
                                                "a new one gets static)."),
    model: str | None = typer.Option(None, "--model", metavar="NAME",
                                        help="The Ollama model for chat and extraction (/set model NAME later)."),
    ollama_host: str | None = typer.Option(None, "--ollama-host", metavar="URL",
                                              help="The Ollama server (default: $OLLAMA_HOST or 127.0.0.1:11434)."),
    backend: str | None = typer.Option(None, "--backend", metavar="NAME",
                                          help="ollama (default) or openai: any OpenAI-compatible /v1 server."),
    base_url: str | None = typer.Option(None, "--base-url", metavar="URL",
                                           help="The OpenAI-compatible API (e.g. http://127.0.0.1:8000/v1); "
                                                "key from $SYM_API_KEY or $OPENAI_API_KEY."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks for internal errors."),
    plain: bool = typer.Option(False, "--plain", help="A line REPL (prompt-toolkit) instead of the full-screen TUI."),
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Start the interactive shell, or run a script with --batch."""
    if ctx.invoked_subcommand is not None:
        return
    _llm_options(model, ollama_host, backend, base_url)
    from sym.repl.options import MemoryOptions

    options = MemoryOptions(memory, chroma_url, embedder)
    if batch is not None:
        from sym.repl.batch import run_batch

        raise typer.Exit(run_batch(batch, json_lines=json_lines, bail=bail, echo=echo, debug=debug, memory=options))
    if json_lines or bail or echo:
        typer.echo("sym: --json, --bail and --echo only apply with --batch FILE", err=True)
        raise typer.Exit(2)
    if not sys.stdin.isatty():  # a pipe: read lines, print results (no terminal to draw on)
        from sym.repl.plain import run_plain

        raise typer.Exit(run_plain(debug=debug, memory=options))
    if plain or not sys.stdout.isatty():
        from sym.repl.prompt import run_prompt

        raise typer.Exit(run_prompt(debug=debug, memory=options))
    from sym.repl.tui import run_tui

    raise typer.Exit(run_tui(debug=debug, memory=options))


def _llm_options(model: str | None, host: str | None, backend: str | None = None,
                 base_url: str | None = None) -> None:
    """--model / --ollama-host / --backend / --base-url: this process's defaults for the settings
    of every shell it opens (a bad value is one line, exit 2)."""
    import os

    if backend is not None:
        if backend.strip().lower() not in ("ollama", "openai"):
            typer.echo(f"sym: unknown backend {backend!r}: use ollama or openai", err=True)
            raise typer.Exit(2)
        os.environ["SYM_BACKEND"] = backend.strip().lower()   # the default of settings.backend
    if base_url:
        from sym.core.errors import UserError
        from sym.core.settings import Settings

        try:
            Settings().set("base_url", base_url)
        except UserError as err:
            typer.echo(f"sym: --base-url: {err.message}", err=True)
            raise typer.Exit(2) from None
        os.environ["SYM_BASE_URL"] = base_url   # the URL a shell uses when settings.base_url is unset
        if backend is None:
            os.environ["SYM_BACKEND"] = "openai"   # a base URL only means something to that backend
    if host:
        os.environ["OLLAMA_HOST"] = host   # the host a shell uses when settings.ollama_host is unset
    if model:
        os.environ["SYM_MODEL"] = model    # the default of settings.model (core/settings.py)


@app.command("logs")
def logs_command(
    n: int = typer.Option(20, "-n", min=1, metavar="N", help="How many of the latest calls to show."),
    json_lines: bool = typer.Option(False, "--json", help="One JSON object per call (full request and reply)."),
) -> None:
    """Show the latest model calls from the call log (oldest first)."""
    from sym.core.llm.calllog import CallLog, canonical

    log = CallLog()
    rows = log.recent(n) if log.path.exists() else []
    for row in rows:
        if json_lines:
            typer.echo(canonical(row))
            continue
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row["ts"]))
        if row["error"]:
            outcome = f"error: {row['error']}"
        else:
            text = " ".join((row["output"] or "").split())
            outcome = (text[:70] + "…") if len(text) > 70 else text
        tokens = f"{row['prompt_tokens']}+{row['completion_tokens']} tok"
        flag = " cached" if row["cached"] else f" {row['seconds']:.2f}s"
        typer.echo(f"#{row['id']} {when} {row['model']} {row['purpose']} {tokens}{flag}  {outcome}")
    if not rows and not json_lines:
        typer.echo("no model calls logged yet", err=True)
    if rows and not json_lines:
        typer.echo(log.summary(), err=True)


@app.command("repair")
def repair_command(
    workspace: str = typer.Argument(..., metavar="WORKSPACE", help="The workspace whose vector store to rebuild."),
) -> None:
    """Rebuild a workspace's vector store (Chroma) from its snapshot; the old files are moved aside."""
    from sym.core.errors import UserError
    from sym.core.memory.workspace import repair

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\rembedding {done}/{total}" + ("\n" if done >= total else ""))
            sys.stderr.flush()

    try:
        count = repair(workspace, progress=progress)
    except UserError as err:
        typer.echo(f"sym: {err}", err=True)
        raise typer.Exit(2 if err.exit_code == 1 else err.exit_code) from None   # a server that is down: 3
    except KeyboardInterrupt:
        typer.echo("sym: interrupted; what is left is embedded on the next start", err=True)
        raise typer.Exit(130) from None
    typer.echo(f"repaired workspace {workspace}: {count} records embedded again")


@app.command("replay")
def replay_command(
    file: str = typer.Argument(..., metavar="FILE", help="A session log (.jsonl) or a session name."),
    offline: bool = typer.Option(False, "--offline", help="Answer LLM requests from the recording only."),
    verify: bool = typer.Option(False, "--verify", help="Compare outputs and memory changes with the recording."),
    until: int | None = typer.Option(None, "--until", min=1, metavar="N", help="Stop after N inputs."),
    echo: bool = typer.Option(False, "--echo", help="Print each input before its result."),
    trust: bool = typer.Option(False, "--trust", help="Run every input, files and hosts included (your own logs only)."),
) -> None:
    """Re-run a recorded session in a scratch data directory (exit 0 only when --verify finds it equal).

    Without --trust, inputs that would read or write files outside the scratch directory, or
    change hosts (header or /set), are skipped with one line each on stderr."""
    from sym.core.errors import UserError
    from sym.repl.replay import replay
    from sym.sessions.log import find_session, read_session

    try:
        rec = read_session(find_session(file))
        report = replay(rec, verify=verify, offline=offline, until=until, out=sys.stdout, err=sys.stderr, echo=echo,
                        trust=trust)
    except UserError as err:
        typer.echo(f"sym: {err}", err=True)
        raise typer.Exit(2 if err.exit_code == 1 else err.exit_code) from None
    if verify:
        for line in report.differences[:20]:
            typer.echo(f"differs: {line}", err=True)
        more = len(report.differences) - 20
        if more > 0:
            typer.echo(f"… and {more} more differences", err=True)
        verdict = "equal" if not report.differences else f"{len(report.differences)} differences"
        skipped = f", {len(report.skipped)} skipped (not verified; --trust runs them)" if report.skipped else ""
        typer.echo(f"replayed {report.commands} commands{skipped} in {report.seconds:.2f} s: {verdict}", err=True)
        raise typer.Exit(0 if not report.differences and not report.skipped else 1)


bench_app = typer.Typer(help="Measure the reasoners on datasets.", add_completion=False, rich_markup_mode=None)
app.add_typer(bench_app, name="bench")


@bench_app.command("swm")
def bench_swm(
    data: str = typer.Option(..., "--data", metavar="DIR", help="A folder with proofwriter/, clutrr/, boxes/, lsat-ar/."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid, paper, or both."),
    dataset: list[str] | None = typer.Option(None, "--dataset", metavar="NAME", help="Only this dataset (repeatable)."),
    gold_facts: bool = typer.Option(True, "--gold-facts/--extract",
                                    help="CLUTRR: use the gold chain facts, or extract facts from the story with the LLM."),
    llm: str = typer.Option("auto", "--llm", help="auto (use Ollama if it answers), on, or off."),
    model: str | None = typer.Option(None, "--model", metavar="NAME", help="The Ollama model."),
    ollama_host: str | None = typer.Option(None, "--ollama-host", metavar="URL", help="The Ollama server."),
    json_lines: bool = typer.Option(False, "--json", help="One JSON object per dataset and mode."),
    limit: int | None = typer.Option(None, "--limit", min=1, metavar="N", help="Only the first N problems of each."),
    baseline: str = typer.Option("none", "--baseline",
                                 help="llm: also run the model alone (one chain-of-thought call per item)."),
    fallback: bool = typer.Option(True, "--fallback/--no-fallback",
                                  help="hybrid: an item sym leaves undecided is answered by the model alone, "
                                       "as /ask falls back (counted apart)."),
) -> None:
    """Accuracy, LLM calls, tokens and time of /tell + /ask per dataset."""
    from sym.core.errors import UserError
    from sym.repl.bench import run_swm

    modes = ["hybrid", "paper"] if mode == "both" else [mode]
    if any(m not in ("hybrid", "paper") for m in modes) or llm not in ("auto", "on", "off") \
            or baseline not in ("none", "llm"):
        typer.echo("sym: --mode is hybrid, paper or both; --llm is auto, on or off; --baseline is none or llm", err=True)
        raise typer.Exit(2)
    try:
        raise typer.Exit(run_swm(data, modes=modes, datasets=dataset, gold_facts=gold_facts, llm_mode=llm,
                                 model=model, host=ollama_host, as_json=json_lines, limit=limit,
                                 baseline=baseline, fallback=fallback))
    except UserError as err:
        typer.echo(f"sym: {err}", err=True)
        raise typer.Exit(2 if err.exit_code == 1 else err.exit_code) from None


@bench_app.command("trajectory")
def bench_trajectory(
    run: str = typer.Option(..., "--run", metavar="FILE", help="The recorded run: JSON lines of steps or a session log."),
    reference: list[str] | None = typer.Option(None, "--reference", metavar="FILE",
                                                  help="A reference trajectory (repeat it: several valid ones)."),
    embedder: str | None = typer.Option(None, "--embedder", metavar="SPEC",
                                           help="static, hash, hash:DIM, st:NAME or ollama:MODEL "
                                                "(default: what a new workspace gets)."),
    baseline: str = typer.Option("random", "--baseline", help="random (rescale by random steps) or none."),
    ollama_host: str | None = typer.Option(None, "--ollama-host", metavar="URL", help="For ollama:MODEL."),
    json_out: bool = typer.Option(False, "--json", help="One JSON object: per-step scores and the overall score."),
) -> None:
    """VERTEX score of a run against reference trajectories: per step and overall, each in [0, 1].

    A file is either JSON lines, each {"step": TEXT}, {"text": TEXT} or a JSON string, or a sym session
    log, whose steps are its inputs, each followed by the values in its result (ids and timestamps left
    out).

    Step t scores s = clamp((c - r) / (z - r), 0, 1): c is the mean Gaussian kernel between the run's
    step and the references' step t (the MMD cross term), r the same for fixed random steps, z the same
    for the references among themselves. The overall score is the mean over steps. Steps align by
    index: a step the run lacks, or one beyond every reference, scores 0. A run against itself scores 1.
    """
    from sym.core.errors import UserError
    from sym.repl.bench import run_trajectory

    if baseline not in ("random", "none"):
        typer.echo("sym: --baseline is random or none", err=True)
        raise typer.Exit(2)
    try:
        raise typer.Exit(run_trajectory(run, reference or [], embedder=embedder, baseline=baseline,
                                        host=ollama_host, as_json=json_out))
    except UserError as err:
        typer.echo(f"sym: {err}", err=True)
        raise typer.Exit(2 if err.exit_code == 1 else err.exit_code) from None


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
