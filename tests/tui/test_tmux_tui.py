"""The TUI in a real terminal (tmux): lines typed while a job runs all arrive, in order; a pasted mixed script
is read as --batch reads it; Ctrl+C cancels a running job; the detail pane follows a Delete-Delete and a
workspace switch; after a large paste the last result is in view. Each step waits for the screen (see
tmux_terminal.py), never for a fixed time. Skipped where tmux is not installed."""

from __future__ import annotations

import re

import pytest

from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id
from tests.tui.tmux_terminal import HAS_TMUX, Terminal, left, right, status

pytestmark = pytest.mark.skipif(not HAS_TMUX, reason="tmux is not installed")

RUNAWAY = "/math factor x**1000 + x + 1"     # minutes of SymPy in bounded memory: runs until stopped or timed out


def fid(text: str) -> str:
    return item_id(parse_atom(text))


@pytest.fixture
def terminal(sym_exe, sym_home):
    opened: list[Terminal] = []

    def start(*args: str, size: tuple[int, int] = (160, 45)) -> Terminal:
        term = Terminal(sym_exe, sym_home, *args, size=size)
        opened.append(term)
        term.ready()
        return term
    yield start
    for term in opened:
        term.close()


def answers(pane: str, var: str) -> list[str]:
    """The values of `var` in the transcript's answers, top to bottom."""
    return re.findall(rf"^{var} = (\S+)$", left(pane), re.M)


def test_lines_typed_while_a_job_runs_all_arrive_in_order(terminal):
    term = terminal()
    term.type("/set math_timeout 600")                # only a key ends the job in time
    term.wait("math_timeout = 600")
    term.type(RUNAWAY)
    term.wait(lambda pane: "running /math" in status(pane))
    for line in ("a(1).", "a(2).", "a(3)."):         # typed ahead, Enter after each, no waiting
        term.type(line)
    term.wait("queued: a(3).")                        # the job still runs: all three wait their turn
    assert "running /math" in status(term.pane())
    term.keys("Escape")
    term.wait(f"added fact {fid('a(3)')}")
    term.type("?- a(X).")
    assert answers(term.wait("3 answers"), "X") == ["1", "2", "3"]
    # a job that ends by itself (its time limit): lines typed meanwhile arrive all the same
    term.type("/set math_timeout 2")
    term.wait("math_timeout = 2")
    term.type(RUNAWAY)
    for line in ("b(1).", "b(2).", "b(3)."):
        term.type(line)
    term.wait("stopped after 2 s")
    term.wait(f"added fact {fid('b(3)')}")
    term.type("?- b(Y).")
    pane = term.wait(lambda pane: "» ?- b(Y)." in pane and "3 answers" in pane.split("» ?- b(Y).")[-1])
    assert answers(pane, "Y") == ["1", "2", "3"]


def test_a_pasted_mixed_script_is_read_line_by_line_as_batch_reads_it(terminal):
    term = terminal()
    term.paste("color(sky, blue).\ncolor(grass, green).\n/listing color\nThis is an English sentence.\n")
    term.keys("Enter")
    pane = term.wait(lambda pane: "This is an English sentence." in pane and "offline" in pane)
    text = left(term.wait(f"{fid('color(grass, green)')}  color(grass, green)."))
    assert "unexpected character '/'" not in text
    assert text.count("added fact ") == 2                     # the two clauses: one program
    listing = text.index(f"{fid('color(sky, blue)')}  color(sky, blue).")
    assert text.index("» /listing color") < listing < text.index("» This is an English sentence.")
    assert "offline" in left(pane).split("» This is an English sentence.")[-1]     # the sentence, its own turn


def test_ctrl_c_cancels_a_running_job_and_the_shell_goes_on(terminal):
    term = terminal()
    term.type("/set math_timeout 600")
    term.wait("math_timeout = 600")
    term.type(RUNAWAY)
    term.wait(lambda pane: "running /math" in status(pane))
    term.keys("C-c")
    pane = term.wait(lambda pane: "cancelled" in left(pane) and "idle" in status(pane))
    assert "quit?" not in pane.lower() and term.running()
    term.type("p(a).")
    term.wait(f"added fact {fid('p(a)')}")
    assert term.running()


def test_the_detail_pane_follows_a_delete_and_a_workspace_switch(terminal):
    term = terminal()
    for line in ("p(a).", "p(b).", "p(c)."):
        term.type(line)
    term.wait(f"added fact {fid('p(c)')}")
    term.keys("F2")                                   # the Memory pane, its facts table
    term.wait(lambda pane: "Memory: ↑↓ rows" in status(pane))    # the keys go there now
    term.keys("Down")
    term.wait(lambda pane: f"fact {fid('p(b)')}: p(b)." in right(pane))
    term.keys("DC")                                   # Delete: asks first
    term.wait(lambda pane: "press Delete again" in right(pane))
    term.keys("DC")
    pane = term.wait(lambda pane: "2 facts" in status(pane))
    pane = term.wait(lambda pane: f"fact {fid('p(c)')}: p(c)." in right(pane))   # the row now under the cursor
    assert "press Delete again" not in right(pane)
    term.keys("Escape")                               # back to the input line
    term.wait(lambda pane: "F1 help" in status(pane))
    term.type("/workspace other")
    pane = term.wait(lambda pane: "workspace other ·" in status(pane))
    pane = term.wait(lambda pane: "select a row to see" in right(pane))    # nothing of the old workspace
    assert not any(f"fact {fid(f)}" in right(pane) for f in ("p(a)", "p(b)", "p(c)"))


def test_after_a_large_paste_the_last_result_is_in_view(terminal):
    term = terminal(size=(80, 24))
    term.paste("".join(f"n({i}).\n" for i in range(500)) + "?- n(499).\n")
    term.keys("Enter")
    pane = term.wait(lambda pane: re.search(r"^true\.$", left(pane), re.M) is not None)
    assert "… 494 more lines (500 in all)" in pane or "494 more lines" in left(pane)
    assert left(pane).count("n(4") < 20                # a summary, not 500 echoed lines
