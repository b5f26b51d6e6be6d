"""The `sym` command line (click). Heavy modules are imported inside the commands that need them.

`sym --batch FILE` runs a script headless; `sym` alone starts the interactive shell.
(click rather than typer: typer checks every option through pydantic, ~0.1 s of every start.)
"""

from __future__ import annotations

import sys
import time
from typing import Any, NoReturn

import click

from sym.core import __version__
from sym.core.words import count

CONTEXT = {"help_option_names": ["-h", "--help"], "show_default": True}


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"sym {__version__}")
        ctx.exit()


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(message, err=True)
    raise SystemExit(code)


@click.group(invoke_without_command=True, context_settings=CONTEXT,
             help="sym — a neurosymbolic reasoning shell: facts, rules, queries and proofs.")
@click.option("--batch", "-b", metavar="FILE", help="Run the commands in FILE ('-' for standard input) and exit.")
@click.option("--json", "json_lines", is_flag=True, help="With --batch: one JSON object per command on stdout.")
@click.option("--bail", is_flag=True, help="With --batch: stop at the first failing command.")
@click.option("--echo", is_flag=True, help="With --batch: print each input before its result.")
@click.option("--memory", "-m", default="default", metavar="NAME", help="The workspace to use.")
@click.option("--chroma-url", metavar="URL", help="Keep memory in a Chroma server (http://HOST:PORT).")
@click.option("--embedder", metavar="SPEC", help="static, hash, ollama:MODEL or st:NAME (default: the workspace's own; "
                                                  "a new one gets static).")
@click.option("--model", metavar="NAME", help="The Ollama model for chat and extraction (/set model NAME later).")
@click.option("--ollama-host", metavar="URL", help="The Ollama server (default: $OLLAMA_HOST or 127.0.0.1:11434).")
@click.option("--backend", metavar="NAME", help="ollama (default) or openai: any OpenAI-compatible /v1 server.")
@click.option("--base-url", metavar="URL", help="The OpenAI-compatible API (e.g. http://127.0.0.1:8000/v1); "
                                                "key from $SYM_API_KEY or $OPENAI_API_KEY.")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@click.option("--plain", is_flag=True, help="A line REPL (prompt-toolkit) instead of the full-screen TUI.")
@click.option("--version", "-V", is_flag=True, callback=_version, expose_value=False, is_eager=True,
              help="Print the version and exit.")
@click.pass_context
def app(ctx: click.Context, batch: str | None, json_lines: bool, bail: bool, echo: bool, memory: str,
        chroma_url: str | None, embedder: str | None, model: str | None, ollama_host: str | None,
        backend: str | None, base_url: str | None, debug: bool, plain: bool) -> None:
    """Start the interactive shell, or run a script with --batch."""
    given = _llm_options(model, ollama_host, backend, base_url)
    if ctx.invoked_subcommand is not None:
        ctx.obj = dict(given)           # `sym --model M bench …`: a subcommand's defaults
        ctx.obj["memory_at"] = (chroma_url, embedder)      # `sym --chroma-url U mcp`
        return
    from sym.repl.memory_options import MemoryOptions

    options = MemoryOptions(memory, chroma_url, embedder, settings=given)
    if batch is not None:
        from sym.repl.batch import run_batch

        raise SystemExit(run_batch(batch, json_lines=json_lines, bail=bail, echo=echo, debug=debug, memory=options))
    if json_lines or bail or echo:
        if not sys.stdin.isatty():      # a pipe with batch flags is read as `--batch -`
            from sym.repl.batch import run_batch

            raise SystemExit(run_batch("-", json_lines=json_lines, bail=bail, echo=echo, debug=debug, memory=options))
        _fail("sym: --json, --bail and --echo apply to --batch FILE or to piped input")
    if not sys.stdin.isatty():  # a pipe: read lines, print results (no terminal to draw on)
        from sym.repl.piped import run_piped

        raise SystemExit(run_piped(debug=debug, memory=options))
    if plain or not sys.stdout.isatty():
        from sym.repl.prompt import run_prompt

        raise SystemExit(run_prompt(debug=debug, memory=options))
    from sym.repl.tui import run_tui

    raise SystemExit(run_tui(debug=debug, memory=options))


def item_picks(command: Any) -> Any:
    """The options both benches take to pick items and to stay quiet: --limit, --offset, --ids, --quiet."""
    for option in reversed((
            click.option("--limit", type=click.IntRange(min=1), metavar="N",
                         help="Only N items of each file or dataset (the first, or from --offset)."),
            click.option("--offset", type=click.IntRange(min=0), default=0, metavar="N", help="Skip the first N items."),
            click.option("--ids", multiple=True, metavar="ID[,ID…]", help="Only the items with these ids (repeatable)."),
            click.option("--quiet", is_flag=True, help="No line per item on stderr."))):
        command = option(command)
    return command


def _top_level(model: str | None, host: str | None) -> tuple[str | None, str | None]:
    """A subcommand's --model / --ollama-host, else what was given before it (`sym --model M bench …`)."""
    given = click.get_current_context().find_root().obj or {}
    return model or given.get("model"), host or given.get("base_url") or given.get("ollama_host")


def _llm_options(model: str | None, host: str | None, backend: str | None = None,
                 base_url: str | None = None) -> tuple[tuple[str, str], ...]:
    """--model / --ollama-host / --backend / --base-url as the settings every shell this process
    opens is given (they win over the config file); a bad value is one line, exit 2."""
    from sym.core.errors import UserError
    from sym.core.settings import Settings

    given: dict[str, str] = {}
    if backend is not None:
        if backend.strip().lower() not in ("ollama", "openai"):
            _fail(f"sym: unknown backend {backend!r}: use ollama or openai")
        given["backend"] = backend.strip().lower()
    if base_url:
        given["base_url"] = base_url
        given.setdefault("backend", "openai")     # a base URL only means something to that backend
    if host:
        given["ollama_host"] = host
    if model:
        given["model"] = model
    for key, value in given.items():
        try:
            Settings().set(key, value)
        except UserError as err:
            _fail(f"sym: --{key.replace('_', '-')}: {err.message}")
    return tuple(given.items())


@app.command("logs", context_settings=CONTEXT)
@click.option("-n", "n", default=20, type=click.IntRange(min=1), metavar="N", help="How many of the latest calls to show.")
@click.option("--json", "json_lines", is_flag=True, help="One JSON object per call (full request and reply).")
@click.option("--run", "run_tag", metavar="RUN", help="Only the calls of this bench run (its tag, printed at its start).")
@click.option("--item", metavar="ID", help="Only the calls of this bench item.")
def logs_command(n: int, json_lines: bool, run_tag: str | None, item: str | None) -> None:
    """Show the latest model calls from the call log (oldest first)."""
    from sym.core.llm.calllog import CallLog, canonical

    log = CallLog()
    if not log.path.exists():
        rows = []
    elif run_tag is not None or item is not None:
        rows = log.tagged(run_tag, item, n)
    else:
        rows = log.recent(n)
    for row in rows:
        if json_lines:
            click.echo(canonical(row))
            continue
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row["ts"]))
        if row["error"]:
            outcome = f"error: {row['error']}"
        else:
            text = " ".join((row["output"] or "").split())
            outcome = (text[:70] + "…") if len(text) > 70 else text
        tokens = f"{row['prompt_tokens']}+{row['completion_tokens']} tok"
        flag = " cached" if row["cached"] else f" {row['seconds']:.2f}s"
        click.echo(f"#{row['id']} {when} {row['model']} {row['purpose']} {tokens}{flag}  {outcome}")
    if not rows and not json_lines:
        click.echo("no model calls logged yet", err=True)
    if rows and not json_lines:
        click.echo(log.summary(), err=True)


@app.command("repair", context_settings=CONTEXT)
@click.argument("workspace", metavar="WORKSPACE")
def repair_command(workspace: str) -> None:
    """Rebuild WORKSPACE's vector store (Chroma) from its snapshot; the old files are moved aside."""
    from sym.core.errors import UserError
    from sym.core.memory.workspace import repair

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\rembedding {done}/{total}" + ("\n" if done >= total else ""))
            sys.stderr.flush()

    try:
        repaired = repair(workspace, progress=progress)
    except UserError as err:
        _fail(f"sym: {err}", 2 if err.exit_code == 1 else err.exit_code)   # a server that is down: 3
    except KeyboardInterrupt:
        _fail("sym: interrupted; what is left is embedded on the next start", 130)
    click.echo(f"repaired workspace {workspace}: {count(repaired, 'record')} embedded again")


@app.command("replay", context_settings=CONTEXT)
@click.argument("file", metavar="FILE")
@click.option("--offline", is_flag=True, help="Answer LLM requests from the recording only.")
@click.option("--verify", is_flag=True, help="Compare outputs and memory changes with the recording.")
@click.option("--until", type=click.IntRange(min=1), metavar="N", help="Stop after N inputs.")
@click.option("--echo", is_flag=True, help="Print each input before its result.")
@click.option("--trust", is_flag=True, help="Run every input, files and hosts included (your own logs only).")
def replay_command(file: str, offline: bool, verify: bool, until: int | None, echo: bool, trust: bool) -> None:
    """Re-run a recorded session (FILE: a session log or a session name) in a scratch data directory
    (exit 0 only when --verify finds it equal).

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
        _fail(f"sym: {err}", 2 if err.exit_code == 1 else err.exit_code)
    if verify:
        for line in report.differences[:20]:
            click.echo(f"differs: {line}", err=True)
        more = len(report.differences) - 20
        if more > 0:
            click.echo(f"… and {more} more differences", err=True)
        verdict = (count(len(report.differences), "difference") if report.differences else
                   "not verified: some inputs were skipped (--trust runs them)" if report.skipped else "equal")
        skipped = f", {len(report.skipped)} skipped" if report.skipped else ""
        if report.cancelled:      # stopped when recorded, so nothing to compare: told, not counted against it
            skipped += f", {len(report.cancelled)} cancelled when recorded (not compared)"
        click.echo(f"replayed {count(report.commands, 'command')}{skipped} in {report.seconds:.2f} s: {verdict}", err=True)
        raise SystemExit(0 if not report.differences and not report.skipped else 1)


@app.command("mcp", context_settings=CONTEXT)
@click.option("--memory", "-m", default="default", metavar="NAME", help="The workspace to serve.")
@click.option("--read-only", is_flag=True, help="Serve only the tools that leave memory as it is.")
@click.option("--allow", multiple=True, metavar="DIR", type=click.Path(exists=True, file_okay=False),
              help="A folder whose files tools may read (repeatable; default: the current directory).")
@click.option("--http", "http", metavar="HOST:PORT", default=None,
              help="Serve Streamable HTTP at http://HOST:PORT/mcp for many clients (default: stdio).")
@click.option("--token-file", metavar="FILE", default=None,
              help="The bearer token clients must send over --http (else $SYM_MCP_TOKEN; loopback needs none).")
@click.option("--approve", type=click.Choice(["host", "elicit"]), default="host",
              help="Who confirms a change: the host, or the user asked by elicitation where the client can.")
def mcp_command(memory: str, read_only: bool, allow: tuple[str, ...], http: str | None, token_file: str | None,
                approve: str) -> None:
    """Serve sym to other agents: a Model Context Protocol server on stdin/stdout (for a host's
    mcpServers), or on Streamable HTTP with --http. Tools and resources are described in README's
    "sym as an MCP server"."""
    from sym.repl.mcp.server import serve
    from sym.repl.memory_options import MemoryOptions

    given = dict(click.get_current_context().find_root().obj or {})    # `sym --model M --chroma-url U mcp`
    chroma_url, embedder = given.pop("memory_at", (None, None))
    options = MemoryOptions(memory, chroma_url, embedder, settings=tuple(given.items()))
    raise SystemExit(serve(options, read_only=read_only, allow=list(allow), http=http, token_file=token_file,
                           approval=approve))


@app.group("bench", context_settings=CONTEXT)
def bench_app() -> None:
    """Measure the reasoners on datasets."""


@bench_app.command("swm", context_settings=CONTEXT)
@click.option("--data", required=True, metavar="DIR", help="A folder with proofwriter/, clutrr/, boxes/, lsat-ar/.")
@click.option("--mode", default="hybrid", type=click.Choice(["hybrid", "paper", "both"]), help="Which reasoner(s).")
@click.option("--dataset", multiple=True, metavar="NAME",
              help="Only this dataset, or one of its folders (clutrr/rule_shuffle) (repeatable).")
@click.option("--gold-facts/--extract", default=True,
              help="CLUTRR: use the gold chain facts, or extract facts from the story with the LLM.")
@click.option("--llm", default="auto", type=click.Choice(["auto", "on", "off"]),
              help="auto: use Ollama if it answers.")
@click.option("--model", metavar="NAME", help="The Ollama model.")
@click.option("--ollama-host", metavar="URL", help="The Ollama server.")
@click.option("--json", "json_lines", is_flag=True,
              help="One JSON line per item as it finishes, then one per dataset and system (the totals).")
@item_picks
@click.option("--samples", type=click.IntRange(min=1, max=20), default=None, metavar="K",
              help="K readings of each story sentence the grammar cannot read (K programs of an AR-LSAT item), a "
                   "fact kept when most accepted readings state it (default: llm_samples of the config, 1).")
@click.option("--baseline", default="none", type=click.Choice(["none", "llm"]),
              help="llm: also run the model alone (one chain-of-thought call per item).")
@click.option("--fallback/--no-fallback", default=True,
              help="hybrid: an item sym leaves undecided is answered by the model alone, as /ask falls back "
                   "(counted apart).")
def bench_swm(data: str, mode: str, dataset: tuple[str, ...], gold_facts: bool, llm: str, model: str | None,
              ollama_host: str | None, json_lines: bool, limit: int | None, offset: int, ids: tuple[str, ...],
              samples: int | None, quiet: bool, baseline: str, fallback: bool) -> None:
    """Accuracy, decided by sym, precision, abstained, fallback, LLM calls, tokens and time of
    /tell + /ask per dataset (or one of its folders: --dataset clutrr/rule_shuffle); a line per
    item on stderr as it finishes. Ctrl+C stops it at once."""
    model, ollama_host = _top_level(model, ollama_host)
    from sym.core.errors import UserError
    from sym.repl.bench import run_swm

    modes = ["hybrid", "paper"] if mode == "both" else [mode]
    try:
        raise SystemExit(run_swm(data, modes=modes, datasets=list(dataset) or None, gold_facts=gold_facts, llm_mode=llm,
                                 model=model, host=ollama_host, as_json=json_lines, limit=limit,
                                 baseline=baseline, fallback=fallback, offset=offset, ids=list(ids) or None,
                                 samples=samples, quiet=quiet))
    except UserError as err:
        _fail(f"sym: {err}", 2 if err.exit_code == 1 else err.exit_code)


@bench_app.command("logic", context_settings=CONTEXT)
@click.option("--data", required=True, metavar="FILE", help="A JSON list of items (logic or strategyqa format).")
@click.option("--format", "fmt", default="auto", type=click.Choice(["auto", "logic", "strategyqa"]),
              help="auto: from the first item's keys.")
@click.option("--path", "path", default="auto", type=click.Choice(["ask", "prove", "auto", "chat"]),
              help="ask: the English bridge (/tell + /ask); prove: a program checked by Z3; auto: ask, then prove; "
                   "chat: one chat turn of the agent per item (the model calls sym's commands; agent_style in "
                   "the config file picks tools or route).")
@click.option("--llm", default="auto", type=click.Choice(["auto", "on", "off"]), help="auto: use the model if it answers.")
@click.option("--baseline", default="none", type=click.Choice(["none", "llm"]),
              help="llm: also run the model alone (one chain-of-thought call per item).")
@click.option("--fallback/--no-fallback", default=True,
              help="An item sym leaves undecided is answered by the model alone (counted apart).")
@item_picks
@click.option("--samples", type=click.IntRange(min=1, max=20), default=None, metavar="K",
              help="prove: K programs per item (at least 2: one reading alone decides nothing), the answer by "
                   "the vote of those that check; a tie abstains; "
                   "ask: K readings of each sentence the grammar cannot read, a fact kept when most state it "
                   "(default: llm_samples of the config, 1).")
@click.option("--json", "json_lines", is_flag=True, help="One JSON line per item as it finishes, then one per system.")
@click.option("--proof-format", default="json", type=click.Choice(["json", "smt2"]),
              help="prove: the program's language.")
@click.option("--style", default="whole", type=click.Choice(["whole", "steps"]),
              help="prove: one whole program per call, or built step by step.")
@click.option("--model", metavar="NAME", help="The model.")
@click.option("--ollama-host", metavar="URL", help="The Ollama server.")
def bench_logic(data: str, fmt: str, path: str, llm: str, baseline: str, fallback: bool, limit: int | None,
                offset: int, ids: tuple[str, ...], samples: int | None, quiet: bool, json_lines: bool,
                proof_format: str, style: str, model: str | None, ollama_host: str | None) -> None:
    """Accuracy, decided by sym (coverage), right when decided (precision), abstained, fallback,
    programs that ran, LLM calls, tokens and time on outside-suite items (FOLIO,
    LogicalDeduction, AR-LSAT, StrategyQA, ProntoQA), for sym and the model alone; a line per
    item on stderr as it finishes. Ctrl+C stops it at once."""
    from sym.core.errors import UserError
    from sym.repl.bench import run_logic

    model, ollama_host = _top_level(model, ollama_host)

    try:
        raise SystemExit(run_logic(data, fmt=fmt, path=path, llm_mode=llm, baseline=baseline, limit=limit,
                                   as_json=json_lines, proof_format=proof_format, style=style, model=model,
                                   host=ollama_host, fallback=fallback, offset=offset, ids=list(ids) or None,
                                   samples=samples, quiet=quiet))
    except UserError as err:
        _fail(f"sym: {err}", 2 if err.exit_code == 1 else err.exit_code)


@bench_app.command("table", context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--markdown", is_flag=True, help="A Markdown table (for a note or a report).")
def bench_table(files: tuple[str, ...], markdown: bool) -> None:
    """Runs of `sym bench swm|logic --json` side by side: a row per dataset and run (sym K=1,
    K=3, …, the model alone) with accuracy, decided by sym, precision, abstained, fallback,
    calls and seconds per item."""
    from sym.core.errors import UserError
    from sym.repl.bench.table import write

    try:
        raise SystemExit(write(list(files), sys.stdout, markdown=markdown))
    except UserError as err:
        _fail(f"sym: {err}", 2)


@bench_app.command("trajectory", context_settings=CONTEXT)
@click.option("--run", "run", required=True, metavar="FILE", help="The recorded run: JSON lines of steps or a session log.")
@click.option("--reference", multiple=True, metavar="FILE", help="A reference trajectory (repeat it: several valid ones).")
@click.option("--embedder", metavar="SPEC", help="static, hash, hash:DIM, st:NAME or ollama:MODEL "
                                                 "(default: what a new workspace gets).")
@click.option("--baseline", default="random", type=click.Choice(["random", "none"]),
              help="random: rescale by random steps.")
@click.option("--ollama-host", metavar="URL", help="For ollama:MODEL.")
@click.option("--json", "json_out", is_flag=True, help="One JSON object: per-step scores and the overall score.")
def bench_trajectory(run: str, reference: tuple[str, ...], embedder: str | None, baseline: str,
                     ollama_host: str | None, json_out: bool) -> None:
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

    try:
        raise SystemExit(run_trajectory(run, list(reference), embedder=embedder, baseline=baseline,
                                        host=ollama_host, as_json=json_out))
    except UserError as err:
        _fail(f"sym: {err}", 2 if err.exit_code == 1 else err.exit_code)


def main() -> None:
    try:
        app(prog_name="sym")
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
