"""`sym --plain`: the prompt-toolkit REPL fed through a pipe input, rendering to a dummy output."""

from __future__ import annotations

import io
import os
import signal

from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from sym.core.events import LLMToken
from sym.repl.dispatcher import Shell
from sym.repl.prompt import SlashCompleter, run_prompt
from sym.repl.registry import Command
from sym.repl.results import Message


def run(shell, keys: str, history=None):
    """Type `keys` into the REPL; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        code = run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=out, err=err, history=history)
    return code, out.getvalue(), err.getvalue()


def test_commands_run_and_bye_leaves(shell):
    code, out, err = run(shell, "parent_of(ann, ben).\nanc(X, Y) :- parent_of(X, Y).\n?- anc(ann, ben).\n/bye\n/fact x(y).\n")
    assert code == 0
    assert "added fact" in out and out.rstrip().endswith("bye.")
    assert "true." in out
    assert "x(y)" not in out and len(shell.memory.items) == 2   # nothing after /bye ran


def test_ctrl_d_leaves_and_errors_go_to_stderr(shell):
    code, out, err = run(shell, "/fact p(\n\x04")
    assert code == 0
    assert err.startswith("error:") and shell.memory.items == {}


def test_a_triple_quoted_block_is_one_input(shell):
    run(shell, '"""\np(a).\nq(X) :- p(X).\n"""\n?- q(a).\n\x04')
    assert shell.memory.counts() == {"fact": 1, "rule": 1, "constraint": 0}


def test_a_clause_may_span_lines(shell):
    code, out, _ = run(shell, "q(X) :-\n   p(X).\n\x04")
    assert shell.memory.counts()["rule"] == 1


def test_ctrl_c_at_the_prompt_clears_the_line(shell):
    run(shell, "p(a)\x03q(b).\n\x04")
    assert [it.text for it in shell.memory.items.values()] == ["q(b)."]


def test_history_is_persisted(shell, tmp_path):
    path = tmp_path / "history"
    run(shell, "p(a).\n/show\n\x04", history=FileHistory(str(path)))
    assert list(FileHistory(str(path)).load_history_strings()) == ["/show", "p(a)."]


def test_slash_completion_from_the_registry(shell):
    completer = SlashCompleter(shell)
    names = [c.text for c in completer.get_completions(Document("/lo"), None)]
    assert "/load" in names
    assert all(n.startswith("/lo") for n in names)
    args = [c.text for c in completer.get_completions(Document("/memory f"), None)]
    assert args == ["facts"]
    assert list(completer.get_completions(Document("p(a)"), None)) == []


def test_streamed_tokens_are_printed_as_they_arrive(sym_home):
    from sym.repl.batch import narrator
    from sym.repl.prompt import _Stream
    from sym.repl.render import TextRenderer

    out, err = io.StringIO(), io.StringIO()
    stream = _Stream(out, narrator(TextRenderer(out, err), err))
    shell = Shell(emit=stream)

    def talk(ctx, arg, run):
        ctx.emit(LLMToken("Hello"))
        assert out.getvalue().endswith("Hello")   # printed before the command returns
        ctx.emit(LLMToken(" world"))
        return Message("")

    shell.registry.add(Command("/talk", talk, group="test"))
    with create_pipe_input() as pipe:
        pipe.send_text("/talk\n\x04")
        run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=out, err=err, stream=stream)
    assert "Hello world\n" in out.getvalue()


def test_ctrl_c_during_a_job_cancels_it(shell):
    def stubborn(ctx, arg, run):
        os.kill(os.getpid(), signal.SIGINT)     # the user presses Ctrl+C while this runs
        assert ctx.cancel.wait(5)
        run.check()
        ctx.memory.add([])
        return Message("finished")

    shell.registry.add(Command("/stubborn", stubborn, group="test"))
    code, out, err = run(shell, "/stubborn\np(a).\n\x04")
    assert "cancelling" in err and "cancelled" in err.splitlines()   # said calmly: a cancel is no error
    assert "finished" not in out
    assert [it.text for it in shell.memory.items.values()] == ["p(a)."]   # the REPL went on


def _streaming_shell(ollama_server):
    """A shell whose events go to the REPL's own printer (what `sym --plain` builds), talking to
    the Ollama-protocol test server."""
    from sym.repl.batch import narrator
    from sym.repl.prompt import _Stream
    from sym.repl.render import TextRenderer

    out, err = io.StringIO(), io.StringIO()
    stream = _Stream(out, narrator(TextRenderer(out, err), err))
    shell = Shell(emit=stream)
    shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.strict_models = False
    return shell, stream, out, err


def test_a_streamed_chat_reply_is_printed_exactly_once(ollama_server):
    from sym.core.logic.parser import parse_atom
    from sym.core.memory.working import item_id

    shell, stream, out, err = _streaming_shell(ollama_server)
    fid = item_id(parse_atom("mortal(socrates)"))
    ollama_server.reply(f"Yes: Socrates is mortal [{fid}].", when="Socrates")
    ollama_server.reply("Plato taught Aristotle.", when="Plato")
    with create_pipe_input() as pipe:
        pipe.send_text("mortal(socrates).\n/set agent.style plain\n/chat Is Socrates mortal?\nWho did Plato teach?\n\x04")
        code = run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=out, err=err, stream=stream)
    text = out.getvalue()
    assert code == 0 and shell.ctx.streams is True
    assert text.count("Socrates is mortal") == 1          # streamed, not repeated by the result
    assert f"(cites {fid})" in text
    assert text.count("Plato taught Aristotle.") == 1     # a plain sentence routes to /chat
    assert len(ollama_server.chats) == 2


def test_without_a_stream_the_result_carries_the_reply_once(ollama_server, shell):
    """A shell not wired to the REPL's printer (its tokens go elsewhere): the result shows the text."""
    shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.strict_models = False
    ollama_server.reply("Socrates is mortal.", when="Socrates")
    code, out, err = run(shell, "/chat Is Socrates mortal?\n\x04")
    assert shell.ctx.streams is False
    assert out.count("Socrates is mortal.") == 1
