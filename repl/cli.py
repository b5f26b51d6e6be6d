"""The `sym` command line (typer). Heavy modules are imported inside the commands that need them.

`sym --batch FILE` runs a script headless; `sym` alone starts the interactive shell.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

from core import __version__

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]},
                  help="sym — a neurosymbolic reasoning shell: facts, rules, queries and proofs.")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sym {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_command(
    ctx: typer.Context,
    batch: Optional[str] = typer.Option(None, "--batch", "-b", metavar="FILE",
                                        help="Run the commands in FILE ('-' for standard input) and exit."),
    json_lines: bool = typer.Option(False, "--json", help="With --batch: one JSON object per command on stdout."),
    bail: bool = typer.Option(False, "--bail", help="With --batch: stop at the first failing command."),
    echo: bool = typer.Option(False, "--echo", help="With --batch: print each input before its result."),
    memory: str = typer.Option("default", "--memory", "-m", metavar="NAME", help="The workspace to use."),
    chroma_url: Optional[str] = typer.Option(None, "--chroma-url", metavar="URL",
                                             help="Keep memory in a Chroma server (http://HOST:PORT)."),
    embedder: Optional[str] = typer.Option(None, "--embedder", metavar="SPEC",
                                           help="hash, ollama:MODEL or st:NAME (default: the workspace's own)."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks for internal errors."),
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Start the interactive shell, or run a script with --batch."""
    if ctx.invoked_subcommand is not None:
        return
    from repl.dispatcher import MemoryOptions

    options = MemoryOptions(memory, chroma_url, embedder)
    if batch is not None:
        from repl.batch import run_batch

        raise typer.Exit(run_batch(batch, json_lines=json_lines, bail=bail, echo=echo, debug=debug, memory=options))
    if json_lines or bail or echo:
        typer.echo("sym: --json, --bail and --echo only apply with --batch FILE", err=True)
        raise typer.Exit(2)
    from repl.plain import run_plain

    raise typer.Exit(run_plain(debug=debug, memory=options))


@app.command("replay")
def replay_command(
    file: str = typer.Argument(..., metavar="FILE", help="A session log (.jsonl) or a session name."),
    offline: bool = typer.Option(False, "--offline", help="Answer LLM requests from the recording only."),
    verify: bool = typer.Option(False, "--verify", help="Compare outputs and memory changes with the recording."),
    until: Optional[int] = typer.Option(None, "--until", min=1, metavar="N", help="Stop after N inputs."),
    echo: bool = typer.Option(False, "--echo", help="Print each input before its result."),
) -> None:
    """Re-run a recorded session in a scratch data directory (exit 0 only when --verify finds it equal)."""
    from core.errors import UserError
    from sessions.log import find_session, read_session
    from sessions.replay import replay

    try:
        rec = read_session(find_session(file))
        report = replay(rec, verify=verify, offline=offline, until=until, out=sys.stdout, err=sys.stderr, echo=echo)
    except UserError as err:
        typer.echo(f"sym: {err}", err=True)
        raise typer.Exit(2 if err.exit_code == 1 else err.exit_code)
    if verify:
        for line in report.differences[:20]:
            typer.echo(f"differs: {line}", err=True)
        more = len(report.differences) - 20
        if more > 0:
            typer.echo(f"… and {more} more differences", err=True)
        verdict = "equal" if not report.differences else f"{len(report.differences)} differences"
        typer.echo(f"replayed {report.commands} commands in {report.seconds:.2f} s: {verdict}", err=True)
        raise typer.Exit(0 if not report.differences else 1)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
