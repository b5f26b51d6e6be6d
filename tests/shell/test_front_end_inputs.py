"""The same script gives the same inputs in every front-end: batch, a pipe, and the
prompt-toolkit REPL (the TUI's input line is checked in tests/tui/test_input_rules.py)."""

from __future__ import annotations

import io
import sys
import threading
from types import SimpleNamespace

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from sym.repl.results import Message

SCRIPT = ("% family\np(a).\nq(X) :-\n  p(X).\nIs Bob big?\nBob isn't big.\nIs Rex a dog\ndog(rex).\n"
          '/tell Tom said "hi.\nfact1(a).\n"""\nr(a).\nr(b).\n"""\n/listing --derived\nlast(x)\n')
# a line that does not start as a clause is one input whatever its punctuation; a command line
# ends at its line end whatever quotes it holds
INPUTS = ["p(a).", "q(X) :-\n  p(X).", "Is Bob big?", "Bob isn't big.", "Is Rex a dog", "dog(rex).",
          '/tell Tom said "hi.', "fact1(a).", "r(a).\nr(b).", "/listing --derived", "last(x)"]


class Recorder:
    """A stand-in shell that records what a front-end asks it to run."""

    def __init__(self):
        self.inputs: list[str] = []
        self.ctx = SimpleNamespace(cancel=threading.Event(), patient=False, streams=False, approver=None)
        self.registry = None
        self.deferred = None          # a workspace opened at once (dispatcher.open_shell)

    def execute(self, text: str, *, source: str = "typed"):
        self.inputs.append(text)
        return "/x", Message("ok")

    def close(self) -> None:
        pass


def test_batch(tmp_path, monkeypatch):
    from sym.repl import batch

    shell = Recorder()
    monkeypatch.setattr(batch, "open_shell", lambda *a, **k: shell)
    script = tmp_path / "s.sym"
    script.write_text(SCRIPT)
    assert batch.run_batch(str(script), out=io.StringIO(), err=io.StringIO()) == 0
    assert shell.inputs == INPUTS


def test_pipe(monkeypatch, capsys):
    from sym.repl import piped

    shell = Recorder()
    monkeypatch.setattr(piped, "open_shell", lambda *a, **k: shell)
    monkeypatch.setattr(sys, "stdin", io.StringIO(SCRIPT))     # pipe mode used to drop the last line
    assert piped.run_piped() == 0
    assert shell.inputs == INPUTS


@pytest.mark.parametrize("end", ["", "\x04"])
def test_prompt_repl(end):
    from sym.repl.prompt import run_prompt

    shell = Recorder()
    with create_pipe_input() as pipe:
        pipe.send_text(SCRIPT + end)
        if not end:
            pipe.close()
        run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=io.StringIO(), err=io.StringIO())
    assert shell.inputs == INPUTS
