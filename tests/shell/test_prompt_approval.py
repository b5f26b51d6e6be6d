"""`sym --plain` asks before a memory change a chat turn's model proposes: the command line whole,
then `allow?` takes only y or n and Enter; a line typed ahead is no answer and runs as the next
input; Ctrl+C at the question cancels the turn. (Batch and pipes refuse: tests/agent.)"""

from __future__ import annotations

import io

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from sym.repl.prompt import run_prompt
from tests.agent.test_agent import TURN, script_tweety
from tests.conftest import texts

TOLD = "/tell Penguins are birds. Tweety is a penguin."


def run(shell, keys: str):
    out, err = io.StringIO(), io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        code = run_prompt(shell=shell, input=pipe, output=DummyOutput(), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_change_is_shown_whole_and_a_typed_ahead_line_is_no_answer(shell, ollama_server):
    shell.ctx.settings.ollama_host = ollama_server.url
    script_tweety(ollama_server)
    code, out, err = run(shell, TURN + "\nyellow(sun).\nyes\n\x04")
    assert code == 0, err
    assert f"the model wants to change memory; it would run:\n  {TOLD}\n" in out
    assert "(not an answer; kept as your next input: yellow(sun).)" in out and "allowed" in out
    assert f"→ {TOLD} — stored 2 clauses (approved)" in out
    assert texts(shell.memory) == {"bird(X) :- penguin(X).", "penguin(tweety).", "yellow(sun)."}
    assert out.index("→ /ask Is Tweety a bird?") < out.index("added fact")     # the kept line ran after the turn


def test_n_declines_and_says_nothing_changed(shell, ollama_server):
    shell.ctx.settings.ollama_host = ollama_server.url
    script_tweety(ollama_server)
    code, out, _ = run(shell, TURN + "\nn\n\x04")
    assert texts(shell.memory) == set()
    assert f"→ {TOLD} — declined" in out and "warning: nothing changed in memory" in out


def test_ctrl_c_at_the_question_cancels_the_turn(shell, ollama_server):
    shell.ctx.settings.ollama_host = ollama_server.url
    script_tweety(ollama_server)
    code, out, err = run(shell, TURN + "\n\x03p(a).\n\x04")
    assert code == 0 and "cancelled" in err and "Traceback" not in err
    assert texts(shell.memory) == {"p(a)."}          # the REPL goes on
