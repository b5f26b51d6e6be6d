"""A real terminal: `sym` runs in a detached tmux session, a command is typed, the pane is captured.
Skipped where tmux is not installed."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid

import pytest

from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def wait_for(session: str, text: str, timeout: float = 30.0) -> str:
    """Capture the pane until `text` shows (an outside process: polling is all there is)."""
    end = time.monotonic() + timeout
    pane = ""
    while time.monotonic() < end:
        pane = tmux("capture-pane", "-p", "-t", session)
        if text in pane:
            return pane
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; the pane shows:\n{pane}")


def start(session: str, sym_exe: list[str], sym_home, *args: str) -> None:
    """`sym` in a detached 120x35 session. COLUMNS and LINES are unset: pytest exports its own
    terminal's (80x24), and Textual would draw at that size whatever tmux's window is."""
    command = " ".join(shlex.quote(a) for a in ["env", "-u", "COLUMNS", "-u", "LINES", f"SYM_HOME={sym_home}",
                                                 "TERM=xterm-256color", *sym_exe, *args])
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "35", command)


# the TUI: the status line names the workspace as it opens; the input takes keys once the intro shows
READY = ("workspace default ·", "cancels the running job")


@pytest.mark.parametrize("args, ready", [([], READY), (["--plain"], ("sym>",))])
def test_sym_in_a_real_terminal(sym_exe, sym_home, args, ready):
    session = f"sym-smoke-{uuid.uuid4().hex[:8]}"
    start(session, sym_exe, sym_home, *args)
    try:
        for text in ready:
            wait_for(session, text)
        tmux("send-keys", "-t", session, "-l", "parent_of(ann, ben).")
        tmux("send-keys", "-t", session, "Enter")
        pane = wait_for(session, "added fact")
        assert "parent_of(ann, ben)." in pane
        if not args:   # the side panes, built after the first frame, are on screen with the fact's row
            assert all(tab in pane for tab in ("Memory", "Trace", "Models"))
            assert pane.count(item_id(parse_atom("parent_of(ann, ben)"))) >= 2   # "added fact ID" and a row
        tmux("send-keys", "-t", session, "-l", "?- parent_of(ann, Who).")
        tmux("send-keys", "-t", session, "Enter")
        wait_for(session, "Who = ben")
        tmux("send-keys", "-t", session, "C-q" if not args else "C-d")
        end = time.monotonic() + 20
        while time.monotonic() < end and subprocess.run(["tmux", "has-session", "-t", session],
                                                        capture_output=True).returncode == 0:
            time.sleep(0.2)
        assert subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode != 0, \
            "sym did not exit"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_a_pasted_three_line_buffer_with_cr_endings_adds_three_facts_once_each(sym_exe, sym_home):
    """What a terminal sends for a paste: bracketed, lines ended by CR. One turn, each fact once."""
    session = f"sym-paste-{uuid.uuid4().hex[:8]}"
    start(session, sym_exe, sym_home)
    buffer = f"paste-{session}"
    try:
        for text in READY:
            wait_for(session, text)
        tmux("set-buffer", "-b", buffer, "edge(a, b).\redge(b, c).\redge(c, d).\r")
        tmux("paste-buffer", "-p", "-d", "-b", buffer, "-t", session)     # -p: bracketed, as terminals paste
        tmux("send-keys", "-t", session, "Enter")
        # the input line takes keys again when the turn's result is shown (keys typed while a job runs,
        # here the first add, which also starts the vector store, are not the next turn's)
        wait_for(session, f"added fact {item_id(parse_atom('edge(c, d)'))}")
        tmux("send-keys", "-t", session, "-l", "?- edge(X, Y).")
        tmux("send-keys", "-t", session, "Enter")
        pane = wait_for(session, "3 answers")
        left = "\n".join(line.split("│")[0] for line in pane.splitlines())   # the transcript, not the panes
        assert left.count("added fact ") == 3
        assert all(left.count(fact) == 2 for fact in ("edge(a, b).", "edge(b, c).", "edge(c, d)."))  # echo, added
        assert "edge(a, b).edge" not in pane
        tmux("set-buffer", "-b", buffer, "lone(z).")                            # one line: pasted once
        tmux("paste-buffer", "-p", "-d", "-b", buffer, "-t", session)
        tmux("send-keys", "-t", session, "Enter")
        pane = wait_for(session, "lone(z).")
        assert "lone(z).lone(z)." not in pane
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        subprocess.run(["tmux", "delete-buffer", "-b", buffer], capture_output=True)
